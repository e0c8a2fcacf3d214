//===- WgmmaDescriptor.cpp - tile.wgmma_descriptor and its rules ----------===//
//
// The descriptor's fields, the operand tile's type, shape and span, the K
// step, and its link to the copy that filled the buffer (Analysis). Each
// diagnostic starts with the rule's name in brackets (Rules.def).
//
//===----------------------------------------------------------------------===//

#include "Tile/Analysis/Analysis.h"
#include "Tile/Contract/Contract.h"
#include "Tile/Contract/Wgmma.h"
#include "Tile/IR/TileOps.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::tile;

// The Swizzle cases are DriverEnums.def's TILE_SWIZZLE rows, value for value.
namespace {
constexpr int kSwizzleRows = 0
#define TILE_SWIZZLE(VALUE, NAME, SPAN, LOAD_ONLY, IM2COL_WIDE, SM100) +1
#include "Tile/Contract/DriverEnums.def"
    ;
static_assert(getMaxEnumValForSwizzle() + 1 == kSwizzleRows,
              "tile's Swizzle enum and DriverEnums.def disagree");
} // namespace

std::optional<int64_t> mlir::tile::wgmmaSwizzleCode(Swizzle swizzle) {
  // PTX ISA, matrix descriptor bits 62-63 (sm_90).
  switch (swizzle) {
  case Swizzle::none:
    return 0;
  case Swizzle::b128:
    return 1;
  case Swizzle::b64:
    return 2;
  case Swizzle::b32:
    return 3;
  default:
    return std::nullopt;
  }
}

int64_t mlir::tile::wgmmaRowBytes(Swizzle swizzle) {
  int64_t span = swizzleSpanBytes(static_cast<int>(swizzle));
  return span ? span : kChunkBytes;
}

std::optional<int64_t> mlir::tile::wgmmaInputBytes(Type type) {
  if (type.isF16() || type.isBF16())
    return 2;
  if (type.isF32())
    return 4;
  if (isa<Float8E4M3FNType, Float8E5M2Type>(type) || type.isInteger(8))
    return 1;
  return std::nullopt;
}

bool mlir::tile::isWgmmaN(int64_t n, Type type) {
  if (!kWgmmaNRange.contains(n) || n % 8)
    return false;
  return !type.isInteger(8) || n <= 24 || n % 16 == 0;
}

Type WgmmaDescriptorOp::getTileElementType() {
  if (std::optional<Type> type = getElementType())
    return *type;
  if (auto memref = dyn_cast<MemRefType>(getBuffer().getType()))
    return memref.getElementType();
  return Type();
}

int64_t WgmmaDescriptorOp::getStepBytes() {
  bool swizzled = getSwizzle() != Swizzle::none;
  if (getMajor() == Major::k)
    return swizzled ? kWgmmaKBytes : 2 * int64_t(getLbo());
  return 2 * (swizzled ? int64_t(getSbo()) : int64_t(getLbo()));
}

int64_t WgmmaDescriptorOp::getTileReadBytes() {
  std::optional<int64_t> elementBytes = wgmmaInputBytes(getTileElementType());
  if (!elementBytes)
    return 0;
  int64_t rows = getRows(), k = getK(), lbo = getLbo(), sbo = getSbo();
  int64_t row = wgmmaRowBytes(getSwizzle()); // the span, or a 16-byte core row
  bool swizzled = getSwizzle() != Swizzle::none;
  auto groups = [](int64_t n) { return std::max<int64_t>(n / 8, 1); };
  if (getMajor() == Major::k) {
    // 8-row groups sbo apart; unswizzled, K's 16-byte columns lbo apart.
    int64_t columns = swizzled ? 1 : std::max<int64_t>(k * *elementBytes / 16, 1);
    return (groups(rows) - 1) * sbo + (columns - 1) * lbo + 8 * row;
  }
  // MN-major: 8-K-row groups (sbo swizzled, lbo not) and runs of MN of one
  // row's bytes (lbo swizzled, sbo not).
  int64_t runs = std::max<int64_t>(rows * *elementBytes / row, 1);
  int64_t kStride = swizzled ? sbo : lbo, runStride = swizzled ? lbo : sbo;
  return (groups(k) - 1) * kStride + (runs - 1) * runStride + 8 * row;
}

uint64_t WgmmaDescriptorOp::getFieldBits() {
  uint64_t code = wgmmaSwizzleCode(getSwizzle()).value_or(0);
  auto field = [](int64_t bytes) { return (uint64_t(bytes) >> 4) & 0x3FFF; };
  return field(int64_t(getLbo())) << 16 | field(int64_t(getSbo())) << 32 |
         (uint64_t(getBaseOffset()) & 7) << 49 | code << 62;
}

namespace {
InFlightDiagnostic fail(WgmmaDescriptorOp op, Rule rule) {
  return op.emitOpError() << "[" << ruleName(rule) << "] ";
}

std::string swizzleText(Swizzle swizzle) {
  return stringifySwizzle(swizzle).str() + " (" +
         swizzleShortName(static_cast<int>(swizzle)) + ")";
}

bool isWorkgroup(Attribute space) {
  if (auto gpuSpace = dyn_cast_or_null<gpu::AddressSpaceAttr>(space))
    return gpuSpace.getValue() == gpu::AddressSpace::Workgroup;
  auto intSpace = dyn_cast_or_null<IntegerAttr>(space);
  return intSpace && intSpace.getInt() == 3;
}

/// The buffer and the element type: [shared-address-space], [wgmma-tile-dtype].
LogicalResult verifyBufferAndType(WgmmaDescriptorOp op) {
  auto memref = dyn_cast<MemRefType>(op.getBuffer().getType());
  if (memref && !isWorkgroup(memref.getMemorySpace()))
    return fail(op, Rule::SharedAddressSpace)
           << "buffer " << memref << " is not in workgroup (shared) memory";
  std::optional<Type> declared = op.getElementType();
  if (!memref && !declared)
    return fail(op, Rule::WgmmaTileDtype)
           << "a pointer buffer names its element_type";
  if (memref && declared && *declared != memref.getElementType())
    return fail(op, Rule::WgmmaTileDtype)
           << "element_type " << *declared << " is not the buffer's "
           << memref.getElementType();
  Type elem = op.getTileElementType();
  if (!wgmmaInputBytes(elem))
    return fail(op, Rule::WgmmaTileDtype)
           << "element type " << elem << " is not a wgmma input (f16, bf16, "
              "f32 as tf32, f8E4M3FN, f8E5M2, 8-bit integers)";
  if (op.getMajor() == Major::mn && !elem.isF16() && !elem.isBF16())
    return fail(op, Rule::WgmmaTileDtype)
           << "major mn with element type " << elem
           << ": only f16 and bf16 tiles are MN-major (transposed)";
  return success();
}

/// lbo, sbo, base_offset, swizzle and the start address:
/// [wgmma-descriptor-field].
LogicalResult verifyFields(WgmmaDescriptorOp op) {
  const IntRange bytes = kMatrixDescriptorBytesRange;
  for (auto [name, value] : {std::pair<const char *, int64_t>{"lbo", int64_t(op.getLbo())},
                             {"sbo", int64_t(op.getSbo())}})
    if (!bytes.contains(value) || value % 16)
      return fail(op, Rule::WgmmaDescriptorField)
             << name << " " << value << " is not a multiple of 16 bytes in "
             << bytes.str() << " (14 bits of the value >> 4)";
  if (!kMatrixBaseOffsetRange.contains(int64_t(op.getBaseOffset())))
    return fail(op, Rule::WgmmaDescriptorField)
           << "base_offset " << int64_t(op.getBaseOffset()) << " is outside "
           << kMatrixBaseOffsetRange.str();
  if (!wgmmaSwizzleCode(op.getSwizzle()))
    return fail(op, Rule::WgmmaDescriptorField)
           << "swizzle " << swizzleText(op.getSwizzle())
           << " has no descriptor code: none, b32, b64 or b128";
  if (isa<MemRefType>(op.getBuffer().getType())) {
    SharedAlignment align = getSharedAlignment(op.getBuffer());
    if (align.status == SharedAlignment::Status::Proven &&
        align.alignment < kChunkBytes)
      return fail(op, Rule::WgmmaDescriptorField)
             << "the buffer starts " << align.offsetBytes << " bytes into "
             << align.root << ", " << align.alignment
             << "-byte aligned: the start address is a multiple of 16 bytes";
  }
  return success();
}

/// rows, k and the buffer's size: [wgmma-tile-shape].
LogicalResult verifyShape(WgmmaDescriptorOp op, int64_t elemBytes) {
  Type elem = op.getTileElementType();
  if (op.getMatrix() == WgmmaMatrix::a && int64_t(op.getRows()) != kWgmmaM)
    return fail(op, Rule::WgmmaTileShape)
           << "rows " << int64_t(op.getRows()) << " of an A tile: M is " << kWgmmaM;
  if (op.getMatrix() == WgmmaMatrix::b && !isWgmmaN(int64_t(op.getRows()), elem))
    return fail(op, Rule::WgmmaTileShape)
           << "rows " << int64_t(op.getRows()) << " of a B tile is not a wgmma N for "
           << elem << ": a multiple of 8 in " << kWgmmaNRange.str()
           << (elem.isInteger(8) ? " that is 8, 16, 24 or a multiple of 16"
                                 : "");
  int64_t kInstr = kWgmmaKBytes / elemBytes;
  if (int64_t(op.getK()) < kInstr || int64_t(op.getK()) % kInstr)
    return fail(op, Rule::WgmmaTileShape)
           << "k " << int64_t(op.getK()) << " is not a positive multiple of the "
           << "instruction's K for " << elem << " (" << kInstr << ": "
           << kWgmmaKBytes << " bytes)";
  auto memref = dyn_cast<MemRefType>(op.getBuffer().getType());
  if (memref && memref.hasStaticShape()) {
    int64_t have = memref.getNumElements() * elemBytes;
    int64_t need = int64_t(op.getRows()) * int64_t(op.getK()) * elemBytes;
    if (need > have)
      return fail(op, Rule::WgmmaTileShape)
             << "the " << int64_t(op.getRows()) << " x " << int64_t(op.getK()) << " tile ("
             << need << " bytes) does not fit the " << have
             << "-byte buffer " << memref;
  }
  return success();
}

/// The row the descriptor reads and the 8-row group stride:
/// [wgmma-swizzle-span].
LogicalResult verifySpan(WgmmaDescriptorOp op, int64_t elemBytes) {
  if (op.getSwizzle() == Swizzle::none)
    return success(); // 16-byte core-matrix rows: k and rows are multiples
  int64_t span = wgmmaRowBytes(op.getSwizzle());
  if (op.getMajor() == Major::k) {
    if (int64_t(op.getK()) * elemBytes != span)
      return fail(op, Rule::WgmmaSwizzleSpan)
             << "a K-major row of k " << int64_t(op.getK()) << " x " << elemBytes
             << " bytes is " << int64_t(op.getK()) * elemBytes << " bytes, not the "
             << span << "-byte span of swizzle " << swizzleText(op.getSwizzle());
    if (int64_t(op.getSbo()) != 8 * span)
      return fail(op, Rule::WgmmaSwizzleSpan)
             << "sbo " << int64_t(op.getSbo()) << " is not the " << 8 * span
             << "-byte stride between 8-row groups of " << span
             << "-byte swizzled rows";
    return success();
  }
  if ((int64_t(op.getRows()) * elemBytes) % span)
    return fail(op, Rule::WgmmaSwizzleSpan)
           << "an MN-major row of rows " << int64_t(op.getRows()) << " x " << elemBytes
           << " bytes is " << int64_t(op.getRows()) * elemBytes
           << " bytes, not whole " << span << "-byte spans of swizzle "
           << swizzleText(op.getSwizzle());
  return success();
}

/// Where the swizzle pattern of a swizzled tile starts: [wgmma-base-offset].
/// The copy engine swizzles by address bits, anchoring its pattern at the
/// swizzle period; a descriptor anchors its pattern base_offset 128-byte
/// lines past the period, so a tile of an allocation aligned to the period
/// is read in phase with base_offset 0 wherever it starts. Checked where
/// the IR fixes the tile's place in such an allocation.
LogicalResult verifyBaseOffset(WgmmaDescriptorOp op) {
  if (op.getSwizzle() == Swizzle::none || op.getBaseOffset() == 0 ||
      !isa<MemRefType>(op.getBuffer().getType()))
    return success();
  int64_t period = swizzlePeriodBytes(static_cast<int>(op.getSwizzle()));
  SharedAlignment align = getSharedAlignment(op.getBuffer());
  if (align.status != SharedAlignment::Status::Proven || period <= 0 ||
      align.rootAlignment < period)
    return success();
  int64_t phase = ((align.offsetBytes % period) + period) % period;
  return fail(op, Rule::WgmmaBaseOffset)
         << "base_offset " << int64_t(op.getBaseOffset()) << " on a tile "
         << align.offsetBytes << " bytes into " << align.root << " (" << phase
         << " bytes into its " << period << "-byte swizzle period): the "
         << "shared image is swizzled from the period's start, which base_offset "
         << "0 reads wherever the tile starts";
}

/// A constant K step stays inside the tile: [wgmma-k-step].
LogicalResult verifyStep(WgmmaDescriptorOp op, int64_t elemBytes) {
  APInt step;
  if (!matchPattern(op.getKStep(), m_ConstantInt(&step)))
    return success();
  int64_t steps = int64_t(op.getK()) * elemBytes / kWgmmaKBytes;
  int64_t s = step.getSExtValue();
  if (s >= 0 && s < steps)
    return success();
  auto diag = fail(op, Rule::WgmmaKStep)
              << "k_step " << s << " is outside the tile's " << steps
              << " instruction K steps (0.." << steps - 1 << ")";
  if (op.getMajor() == Major::k && op.getSwizzle() != Swizzle::none)
    diag << ": it would start " << s * kWgmmaKBytes << " bytes into the "
         << wgmmaRowBytes(op.getSwizzle()) << "-byte swizzle row";
  return diag;
}
} // namespace

LogicalResult WgmmaDescriptorOp::verify() {
  if (failed(verifyBufferAndType(*this)) || failed(verifyFields(*this)))
    return failure();
  int64_t elemBytes = *wgmmaInputBytes(getTileElementType());
  if (failed(verifyShape(*this, elemBytes)) ||
      failed(verifySpan(*this, elemBytes)) ||
      failed(verifyStep(*this, elemBytes)) || failed(verifyBaseOffset(*this)))
    return failure();
  return verifyWgmmaCopyLink(*this);
}
