//===- Opcode.h - PTX opcode spelling of tile.tma_copy ------------*- C++ -*-===//
#ifndef TILE_OPCODE_H
#define TILE_OPCODE_H

#include "llvm/ADT/StringRef.h"

#include "Tile/IR/TileOps.h"

#include <optional>
#include <string>

namespace mlir::tile {

/// Everything the PTX opcode of a bulk tensor copy encodes.
struct OpcodeFields {
  Direction direction = Direction::load;
  Mode mode = Mode::tile;
  int rank = 0;
  std::optional<Reduction> reduction;
  bool dstCluster = false;
  bool multicast = false;
  bool cacheHint = false;
  std::optional<int> ctaGroup;
};

/// Parses e.g. `cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::
/// complete_tx::bytes`. On failure returns nullopt and sets `error` to a
/// message naming the offending part.
std::optional<OpcodeFields> parsePtxOpcode(llvm::StringRef opcode,
                                           std::string &error);

/// The rank of a spelling that is well formed but for its `.Nd` (`.6d`): a
/// [rank-range] fault rather than an [opcode-syntax] one, as the keyword
/// form says. nullopt for any other spelling.
std::optional<int64_t> outOfRangeOpcodeRank(llvm::StringRef opcode);

/// The PTX load-mode qualifier of `mode`, without the dot (`im2col::w`).
llvm::StringRef ptxModeSpelling(Mode mode);

/// The canonical PTX spelling of `fields`.
std::string printPtxOpcode(const OpcodeFields &fields);

OpcodeFields getOpcodeFields(TmaCopyOp op);

} // namespace mlir::tile

#endif // TILE_OPCODE_H
