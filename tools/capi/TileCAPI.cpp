//===- TileCAPI.cpp - C entry points for the Python package ---------------===//
//
// Called through ctypes from tile_mlir/_native.py. Python's MlirContext is
// unwrapped here; the dialect objects resolve against the MLIR copy inside
// libMLIRPythonCAPI.so, which the Python side makes global before loading us.
//
//===----------------------------------------------------------------------===//

#include "mlir/CAPI/IR.h"
#include "mlir/IR/MLIRContext.h"

#include "Tile/Contract/Contract.h"
#include "Tile/Contract/Opcode.h"
#include "Tile/Passes.h"
#include "Tile/Contract/TensorMapSpec.h"
#include "Tile/IR/TileDialect.h"
#include "Tile/IR/TileOps.h"

#include <cstring>

extern "C" {

/// Registers and loads the tile dialect (and its dependencies) in `context`.
void tileRegisterDialect(MlirContext context) {
  mlir::MLIRContext *ctx = unwrap(context);
  mlir::DialectRegistry registry;
  registry.insert<mlir::tile::TileDialect>();
  ctx->appendDialectRegistry(registry);
  ctx->loadDialect<mlir::tile::TileDialect>();
}

/// Registers the tile passes with the global registry (once per process).
void tileRegisterPasses() {
  static bool done = false;
  if (!done) {
    mlir::tile::registerTilePasses();
    mlir::tile::registerTilePipelines();
  }
  done = true;
}

/// Parses a PTX opcode. On success fills `out` with: direction, mode, rank,
/// reduction (-1: none), dst_cluster, multicast, cache_hint, cta_group (0:
/// none) and returns 1; otherwise writes the message to `error` and returns 0.
int tileParsePtxOpcode(const char *opcode, int *out, char *error,
                       size_t errorSize) {
  std::string message;
  std::optional<mlir::tile::OpcodeFields> f =
      mlir::tile::parsePtxOpcode(opcode, message);
  if (!f) {
    if (errorSize) {
      std::strncpy(error, message.c_str(), errorSize - 1);
      error[errorSize - 1] = '\0';
    }
    return 0;
  }
  out[0] = static_cast<int>(f->direction);
  out[1] = static_cast<int>(f->mode);
  out[2] = f->rank;
  out[3] = f->reduction ? static_cast<int>(*f->reduction) : -1;
  out[4] = f->dstCluster;
  out[5] = f->multicast;
  out[6] = f->cacheHint;
  out[7] = f->ctaGroup.value_or(0);
  return 1;
}

/// Whether `opcode` is well formed but for its `.Nd` (a [rank-range] fault,
/// not an [opcode-syntax] one); if so returns 1 and writes the rank.
int tileOutOfRangeOpcodeRank(const char *opcode, int64_t *rank) {
  std::optional<int64_t> bad = mlir::tile::outOfRangeOpcodeRank(opcode);
  if (!bad)
    return 0;
  *rank = *bad;
  return 1;
}

/// Transaction bytes of a verified tile.tma_copy (all slots, payload only);
/// -1 when `op` is not one.
int64_t tileTransactionBytes(MlirOperation op) {
  auto copy = llvm::dyn_cast<mlir::tile::TmaCopyOp>(unwrap(op));
  return copy ? copy.getTransactionBytes() : -1;
}

/// Instructions a verified tile.tma_copy issues; -1 when `op` is not one.
int64_t tileSlotCount(MlirOperation op) {
  auto copy = llvm::dyn_cast<mlir::tile::TmaCopyOp>(unwrap(op));
  return copy ? copy.getSlotCount() : -1;
}

/// The canonical PTX spelling of opcode fields laid out as
/// tileParsePtxOpcode fills them (the C++ printer, printPtxOpcode), into
/// `out`. Returns the spelling's length (truncated to `outSize - 1` bytes
/// when longer), or -1 when a field is out of range.
int64_t tilePrintPtxOpcode(const int *fields, char *out, size_t outSize) {
  using namespace mlir::tile;
  std::optional<Direction> direction = symbolizeDirection(fields[0]);
  std::optional<Mode> mode = symbolizeMode(fields[1]);
  std::optional<Reduction> reduction;
  if (fields[3] >= 0)
    reduction = symbolizeReduction(fields[3]);
  if (!direction || !mode || fields[2] < 0 || fields[7] < 0 ||
      (fields[3] >= 0 && !reduction) ||
      ((*direction == Direction::reduce) != reduction.has_value()))
    return -1;
  OpcodeFields f;
  f.direction = *direction;
  f.mode = *mode;
  f.rank = fields[2];
  f.reduction = reduction;
  f.dstCluster = fields[4];
  f.multicast = fields[5];
  f.cacheHint = fields[6];
  if (fields[7])
    f.ctaGroup = fields[7];
  std::string spelling = printPtxOpcode(f);
  if (outSize) {
    std::strncpy(out, spelling.c_str(), outSize - 1);
    out[outSize - 1] = '\0';
  }
  return static_cast<int64_t>(spelling.size());
}

/// Copies `text` into `out` (NUL-terminated, cut to `size`) and stores its
/// whole length in `length`: a caller whose buffer was too small retries.
static void copyText(const std::string &text, char *out, size_t size,
                     size_t *length) {
  *length = text.size();
  if (size) {
    size_t n = std::min(text.size(), size - 1);
    std::memcpy(out, text.data(), n);
    out[n] = '\0';
  }
}

/// The manifest entry (JSON) of a #tile.tensor_map_spec: returns 1 and the
/// text, or 0 when `attr` is no spec.
int tileTensorMapSpecToJSON(MlirAttribute attr, char *out, size_t size,
                            size_t *length) {
  auto spec = llvm::dyn_cast<mlir::tile::TensorMapSpecAttr>(unwrap(attr));
  if (!spec)
    return 0;
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::json::Value(mlir::tile::tensorMapSpecToJSON(spec));
  copyText(text, out, size, length);
  return 1;
}

/// The #tile.tensor_map_spec (printed) of a manifest entry: returns 1 and
/// the attribute's text, or 0 and the error message.
int tileTensorMapSpecFromJSON(MlirContext context, const char *json,
                              char *out, size_t size, size_t *length) {
  llvm::Expected<llvm::json::Value> value = llvm::json::parse(json);
  if (!value) {
    copyText(llvm::toString(value.takeError()), out, size, length);
    return 0;
  }
  std::string error;
  mlir::tile::TensorMapSpecAttr spec =
      mlir::tile::tensorMapSpecFromJSON(unwrap(context), *value, error);
  if (!spec) {
    copyText(error, out, size, length);
    return 0;
  }
  std::string text;
  llvm::raw_string_ostream os(text);
  mlir::Attribute(spec).print(os);
  copyText(text, out, size, length);
  return 1;
}

} // extern "C"
