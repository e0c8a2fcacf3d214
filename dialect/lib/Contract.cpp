//===- Contract.cpp - one model of the TMA contract -----------------------===//

#include "Tile/Contract.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::tile;

namespace {
struct RuleRow {
  llvm::StringLiteral name, text;
  RuleKind kind;
};
constexpr RuleRow kRules[] = {
#define TILE_RULE(ID, NAME, TEXT) {NAME, TEXT, RuleKind::Verify},
#define TILE_HOST_RULE(ID, NAME, TEXT) {NAME, TEXT, RuleKind::Host},
#define TILE_RUNTIME_RULE(ID, NAME, TEXT) {NAME, TEXT, RuleKind::Runtime},
#include "Tile/Rules.def"
};
} // namespace

llvm::StringRef mlir::tile::ruleName(Rule rule) {
  return kRules[static_cast<unsigned>(rule)].name;
}
llvm::StringRef mlir::tile::ruleText(Rule rule) {
  return kRules[static_cast<unsigned>(rule)].text;
}
RuleKind mlir::tile::ruleKind(Rule rule) {
  return kRules[static_cast<unsigned>(rule)].kind;
}

unsigned mlir::tile::formatBits(Format format) {
  switch (format) {
  case Format::uint8:
    return 8;
  case Format::uint16:
  case Format::float16:
  case Format::bfloat16:
    return 16;
  case Format::uint32:
  case Format::int32:
  case Format::float32:
  case Format::float32_ftz:
  case Format::tfloat32:
  case Format::tfloat32_ftz:
    return 32;
  case Format::uint64:
  case Format::int64:
  case Format::float64:
    return 64;
  case Format::float4_e2m1fn:
  case Format::float4_e2m1fn_align8b:
    return 4;
  case Format::float6_align16b:
    return 6;
  }
  return 0;
}

bool mlir::tile::isPackedFormat(Format format) {
  return format == Format::float4_e2m1fn ||
         format == Format::float4_e2m1fn_align8b ||
         format == Format::float6_align16b;
}

bool mlir::tile::isPaddedPackedFormat(Format format) {
  return format == Format::float4_e2m1fn || format == Format::float6_align16b;
}

unsigned mlir::tile::sharedElementBytes(Format format) {
  return isPackedFormat(format) ? 1 : formatBits(format) / 8;
}

bool mlir::tile::isIm2colMode(Mode mode) {
  return mode == Mode::im2col || mode == Mode::im2col_w ||
         mode == Mode::im2col_w_128 || mode == Mode::im2col_no_offs;
}

bool mlir::tile::isIm2colWideMode(Mode mode) {
  return mode == Mode::im2col_w || mode == Mode::im2col_w_128;
}

bool mlir::tile::isFloatFormat(Format format) {
  switch (format) {
  case Format::float16:
  case Format::float32:
  case Format::float64:
  case Format::bfloat16:
  case Format::float32_ftz:
  case Format::tfloat32:
  case Format::tfloat32_ftz:
  case Format::float4_e2m1fn:
  case Format::float4_e2m1fn_align8b:
  case Format::float6_align16b:
    return true;
  default:
    return false;
  }
}

int mlir::tile::cuTensorMapDataType(Format format) {
  // CUtensorMapDataType: UINT8=0 UINT16 UINT32 INT32 UINT64 INT64 FLOAT16
  // FLOAT32 FLOAT64 BFLOAT16 FLOAT32_FTZ TFLOAT32 TFLOAT32_FTZ=12,
  // 16U4_ALIGN8B=13, 16U4_ALIGN16B=14, 16U6_ALIGN16B=15.
  switch (format) {
  case Format::float4_e2m1fn:
    return 14;
  case Format::float4_e2m1fn_align8b:
    return 13;
  case Format::float6_align16b:
    return 15;
  default:
    return static_cast<int>(format);
  }
}

std::optional<Format> mlir::tile::defaultFormat(Type type) {
  if (auto it = dyn_cast<IntegerType>(type)) {
    switch (it.getWidth()) {
    case 8:
      return Format::uint8;
    case 16:
      return Format::uint16;
    case 32:
      return it.isSigned() ? Format::int32 : Format::uint32;
    case 64:
      return it.isSigned() ? Format::int64 : Format::uint64;
    default:
      return std::nullopt;
    }
  }
  if (type.isF16())
    return Format::float16;
  if (type.isBF16())
    return Format::bfloat16;
  if (type.isF32())
    return Format::float32;
  if (type.isF64())
    return Format::float64;
  if (isa<Float4E2M1FNType>(type))
    return Format::float4_e2m1fn;
  if (isa<Float6E2M3FNType, Float6E3M2FNType>(type))
    return Format::float6_align16b;
  // 8-bit floats have no tensor-map type of their own: they move as bytes,
  // which is an exact copy (no arithmetic touches them).
  if (auto ft = dyn_cast<FloatType>(type); ft && ft.getWidth() == 8)
    return Format::uint8;
  return std::nullopt;
}

bool mlir::tile::formatMatches(Type type, Format format) {
  std::optional<Format> natural = defaultFormat(type);
  if (!natural)
    return false;
  if (*natural == format)
    return true;
  if (type.isF32())
    return format == Format::float32_ftz || format == Format::tfloat32 ||
           format == Format::tfloat32_ftz;
  // A signless integer says nothing about its sign: either reading is its own.
  if (type.isSignlessInteger(32))
    return format == Format::int32;
  if (type.isSignlessInteger(64))
    return format == Format::int64;
  // The same packed fp4 data, shared-memory groups 8 instead of 16 bytes.
  if (isa<Float4E2M1FNType>(type))
    return format == Format::float4_e2m1fn_align8b;
  return false;
}

int64_t mlir::tile::swizzleSpanBytes(int swizzle) {
  if (swizzle >= 4)
    return 128; // the 128B swizzles with 32B/64B atoms (sm_100)
  return swizzle <= 0 ? 0 : int64_t(16) << swizzle;
}

int64_t mlir::tile::swizzlePeriodBytes(int swizzle) {
  return swizzleSpanBytes(swizzle) * 8;
}

int64_t mlir::tile::interleaveBytes(int interleave) {
  return interleave <= 0 ? 0 : int64_t(8) << interleave;
}

BoxImage mlir::tile::computeBoxImage(const CopyFields &f) {
  BoxImage image;
  unsigned bits = formatBits(f.format);
  unsigned elemBytes = sharedElementBytes(f.format);
  llvm::SmallVector<int64_t> dims;
  if (isIm2colMode(f.mode)) {
    // [pixels_per_column, channels_per_pixel]: element strides step the
    // traversal, they do not shrink the image.
    dims.assign(f.box.begin(), f.box.end());
    // The W-only forms add halo pixels: after the column (im2col_w) or
    // after each of the four 32-pixel groups (im2col_w_128).
    if (f.mode == Mode::im2col_w)
      dims[0] += f.wHalo;
    else if (f.mode == Mode::im2col_w_128)
      dims[0] = 4 * (32 + f.wHalo);
  } else if (f.mode != Mode::tile) {
    dims = {4, f.box.size() == 2 ? f.box[1] : 1};
  } else {
    for (auto [extent, stride] : llvm::zip(f.box, f.elementStrides))
      dims.push_back((extent + stride - 1) / stride);
  }
  if (f.interleave > 0)
    dims.push_back(interleaveBytes(f.interleave) * 8 / bits);

  int64_t rowElems = dims.empty() ? 1 : dims.back();
  image.rowPayloadBytes = rowElems * bits / 8;
  // 16U4_ALIGN16B and 16U6_ALIGN16B keep each group of sixteen elements
  // in its own 16-byte block (8 or 12 payload bytes, the rest padding).
  image.rowStorageBytes = isPaddedPackedFormat(f.format)
                              ? rowElems * elemBytes
                              : image.rowPayloadBytes;
  int64_t span = swizzleSpanBytes(f.swizzle);
  if (span > 0 && image.rowStorageBytes < span)
    image.rowStorageBytes = span;

  int64_t rows = 1;
  for (size_t i = 0; i + 1 < dims.size(); ++i)
    rows *= dims[i];
  image.payloadBytes = rows * image.rowPayloadBytes;
  image.storageBytes = rows * image.rowStorageBytes;
  image.shape = dims;
  if (!image.shape.empty())
    image.shape.back() = image.rowStorageBytes / elemBytes;
  return image;
}

CopyFields mlir::tile::getCopyFields(TmaCopyOp op) {
  CopyFields f;
  f.mode = op.getMode();
  f.rank = op.getRank();
  f.box.assign(op.getBox().begin(), op.getBox().end());
  if (auto es = op.getElementStrides())
    f.elementStrides.assign(es->begin(), es->end());
  else
    f.elementStrides.assign(
        isIm2colMode(f.mode) && f.rank >= 1 && f.rank <= 5 ? f.rank
                                                           : f.box.size(),
        1);
  if (auto fmt = op.getFormat()) {
    f.format = *fmt;
  } else {
    Type elem = IntegerType::get(op.getContext(), 8);
    if (Value shared = op.getShared())
      elem = cast<MemRefType>(shared.getType()).getElementType();
    if (auto mt = dyn_cast<MemRefType>(op.getGlobal().getType()))
      elem = mt.getElementType();
    f.format = defaultFormat(elem).value_or(Format::uint8);
  }
  f.swizzle = op.getSwizzle();
  f.interleave = op.getInterleave();
  APInt halo;
  if (isIm2colWideMode(f.mode) && !op.getOffsets().empty() &&
      matchPattern(op.getOffsets()[0], m_ConstantInt(&halo)))
    f.wHalo = halo.getZExtValue();
  return f;
}

static std::optional<TargetInfo> parseTarget(NVVM::NVVMTargetAttr target) {
  TargetInfo info;
  llvm::StringRef chip = target.getChip();
  if (!chip.consume_front("sm_"))
    return std::nullopt;
  size_t digits = chip.find_first_not_of("0123456789");
  if (chip.substr(0, digits).getAsInteger(10, info.sm))
    return std::nullopt;
  llvm::StringRef suffix = digits == llvm::StringRef::npos ? "" : chip.substr(digits);
  info.archSpecific = suffix == "a" || suffix == "f";
  // Without +ptxNN, LLVM's NVPTX backend uses the oldest PTX of the chip:
  // 7.8 for sm_90, 8.0 for sm_90a, 8.6 or newer for sm_100 and later.
  info.ptx = info.sm >= 100 ? 86 : (info.sm >= 90 && info.archSpecific) ? 80 : 78;
  llvm::SmallVector<llvm::StringRef> features;
  target.getFeatures().split(features, ',', -1, false);
  for (llvm::StringRef feature : features) {
    feature = feature.trim();
    int ptx = 0;
    if (feature.consume_front("+ptx") && !feature.getAsInteger(10, ptx))
      info.ptx = ptx;
  }
  return info;
}

llvm::SmallVector<TargetInfo> mlir::tile::getTargets(Operation *op) {
  llvm::SmallVector<TargetInfo> targets;
  if (auto module = op->getParentOfType<gpu::GPUModuleOp>()) {
    if (ArrayAttr attrs = module.getTargetsAttr()) {
      for (Attribute attr : attrs)
        if (auto nvvm = dyn_cast<NVVM::NVVMTargetAttr>(attr))
          if (auto info = parseTarget(nvvm))
            targets.push_back(*info);
    }
  }
  if (targets.empty())
    targets.push_back(TargetInfo{});
  return targets;
}
