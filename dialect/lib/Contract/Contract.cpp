//===- Contract.cpp - one model of the TMA contract -----------------------===//

#include "Tile/Contract/Contract.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <iterator>

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
#define TILE_PYTHON_RULE(ID, NAME, TEXT) {NAME, TEXT, RuleKind::Python},
#define TILE_DEVICE_RULE(ID, NAME, TEXT) {NAME, TEXT, RuleKind::Device},
#include "Tile/Contract/Rules.def"
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

llvm::StringRef mlir::tile::ruleDynamicText(Rule rule) {
  switch (rule) {
#define TILE_DYNAMIC_CHECK(ID, TEXT)                                           \
  case Rule::ID:                                                               \
    return TEXT;
#include "Tile/Contract/Rules.def"
  default:
    return "";
  }
}

llvm::StringRef mlir::tile::ruleDeviceText(Rule rule) {
  switch (rule) {
#define TILE_DEVICE_CHECK(ID, TEXT)                                            \
  case Rule::ID:                                                               \
    return TEXT;
#include "Tile/Contract/Rules.def"
  default:
    return "";
  }
}

//===----------------------------------------------------------------------===//
// The tables (Formats.def, ElementTypes.def, Reductions.def, DriverEnums.def)
//===----------------------------------------------------------------------===//

namespace {
constexpr FormatFacts kFormats[] = {
#define TILE_FORMAT(NAME, CU_TYPE, CU_NAME, BITS, FLOAT, SIGNED, STORAGE,     \
                    NUMPY, PACKED, PADDED, ALIGN, INNER_MUL, PACK_VALUES,     \
                    PACK_BYTES, GROUP_DATA, GROUP_SLOT, LOAD_ONLY, NAN_FILL,  \
                    LOAD_SWZ, STORE_SWZ, STORE_UNPACKED, FTZ, TF32)           \
  {Format::NAME, CU_TYPE, CU_NAME, BITS, FLOAT, SIGNED, STORAGE, NUMPY,       \
   PACKED, PADDED, ALIGN, INNER_MUL, {PACK_VALUES, PACK_BYTES}, GROUP_DATA,    \
   GROUP_SLOT, LOAD_ONLY, NAN_FILL, LOAD_SWZ, STORE_SWZ, STORE_UNPACKED, FTZ,  \
   TF32},
#include "Tile/Contract/Formats.def"
};

// Row i is Format value i, and every Format case has a row.
constexpr bool formatRowsInEnumOrder() {
  for (unsigned i = 0; i < std::size(kFormats); ++i)
    if (static_cast<unsigned>(kFormats[i].format) != i)
      return false;
  return std::size(kFormats) == getMaxEnumValForFormat() + 1;
}
static_assert(formatRowsInEnumOrder(),
              "Formats.def rows must follow TileEnums.td's Format order");

// The columns agree with each other.
constexpr bool formatRowsConsistent() {
  for (const FormatFacts &f : kFormats) {
    if (f.paddedPacked && !f.packed)
      return false;
    if (f.packed != (f.bits < 8) || f.packed != (f.groupDataBytes != 0))
      return false;
    if (f.packed && f.groupDataBytes * 8 != int64_t(f.bits) * 16)
      return false;
    if (f.packed && f.packing.values * f.bits != f.packing.bytes * 8)
      return false;
    if (!f.packed && (f.packing.values != 1 || f.packing.bytes != 1 ||
                      f.innerMultiple != 1))
      return false;
    if (f.nanFill && !f.isFloat)
      return false;
    if (f.loadOnly && (f.storeSwizzles != 0 || f.storeUnpacked))
      return false;
    if (f.storeUnpacked && !f.packed)
      return false;
    // Flush and tf32 rounding act on float32 values.
    if ((f.flushesSubnormals || f.roundsToTf32) && !(f.isFloat && f.bits == 32))
      return false;
  }
  return true;
}
static_assert(formatRowsConsistent(), "inconsistent Formats.def row");

constexpr std::pair<llvm::StringLiteral, Format> kFormatAliases[] = {
#define TILE_FORMAT_ALIAS(ALIAS, NAME) {#ALIAS, Format::NAME},
#include "Tile/Contract/Formats.def"
};

constexpr ElementTypeFacts kElementTypes[] = {
#define TILE_ELEMENT_TYPE(NAME, MLIR, FORMAT, NUMPY, SIGNLESS)                 \
  {NAME, MLIR, Format::FORMAT, NUMPY, SIGNLESS},
#include "Tile/Contract/ElementTypes.def"
};

constexpr std::pair<llvm::StringLiteral, Format> kElementFormats[] = {
#define TILE_ELEMENT_FORMAT(MLIR, FORMAT) {MLIR, Format::FORMAT},
#include "Tile/Contract/ElementTypes.def"
};

constexpr std::pair<Reduction, Format> kReductions[] = {
#define TILE_REDUCTION(OP, FORMAT) {Reduction::OP, Format::FORMAT},
#include "Tile/Contract/Reductions.def"
};

constexpr DriverEnumFacts kDriverEnums[] = {
#define TILE_DRIVER_ENUM(FIELD, VALUE, NAME) {#FIELD, VALUE, NAME},
#include "Tile/Contract/DriverEnums.def"
};

constexpr SwizzleFacts kSwizzles[] = {
#define TILE_SWIZZLE(VALUE, NAME, SPAN, LOAD_ONLY, IM2COL_WIDE, SM100)        \
  {VALUE, NAME, SPAN, LOAD_ONLY, IM2COL_WIDE, SM100},
#include "Tile/Contract/DriverEnums.def"
};
constexpr bool swizzleRowsInValueOrder() {
  for (unsigned i = 0; i < std::size(kSwizzles); ++i)
    if (kSwizzles[i].value != static_cast<int>(i))
      return false;
  return true;
}
static_assert(swizzleRowsInValueOrder(),
              "DriverEnums.def swizzle rows must be in value order");

// Formats.def's swizzle sets name only swizzles of the table.
constexpr bool formatSwizzlesInTable() {
  for (const FormatFacts &f : kFormats)
    if ((f.loadSwizzles | f.storeSwizzles) >> std::size(kSwizzles))
      return false;
  return true;
}
static_assert(formatSwizzlesInTable(), "Formats.def names an unknown swizzle");

constexpr std::pair<EncodeKind, llvm::StringLiteral> kEncodeFunctions[] = {
#define TILE_ENCODE_FUNCTION(KIND, NAME) {EncodeKind::KIND, NAME},
#include "Tile/Contract/DriverEnums.def"
};
constexpr bool encodeRowsInEnumOrder() {
  for (unsigned i = 0; i < std::size(kEncodeFunctions); ++i)
    if (static_cast<unsigned>(kEncodeFunctions[i].first) != i)
      return false;
  return std::size(kEncodeFunctions) == getMaxEnumValForEncodeKind() + 1;
}
static_assert(encodeRowsInEnumOrder(),
              "DriverEnums.def encode rows must follow the EncodeKind order");

constexpr std::pair<int, int> kIm2colBits[] = {
#define TILE_IM2COL_BITS(RANK, BITS) {RANK, BITS},
#include "Tile/Contract/Limits.def"
};
// One row per im2col rank, in rank order.
constexpr bool im2colBitsCoverTheRanks() {
  for (unsigned i = 0; i < std::size(kIm2colBits); ++i)
    if (kIm2colBits[i].first != kIm2colRankRange.min + static_cast<int>(i))
      return false;
  return kIm2colRankRange.min + static_cast<int64_t>(std::size(kIm2colBits)) ==
         kIm2colRankRange.max + 1;
}
static_assert(im2colBitsCoverTheRanks(),
              "Limits.def needs one TILE_IM2COL_BITS row per im2col rank");
} // namespace

llvm::ArrayRef<FormatFacts> mlir::tile::formatTable() { return kFormats; }

const FormatFacts &mlir::tile::formatFacts(Format format) {
  return kFormats[static_cast<unsigned>(format)];
}

llvm::ArrayRef<std::pair<llvm::StringLiteral, Format>>
mlir::tile::formatAliases() {
  return kFormatAliases;
}

llvm::ArrayRef<ElementTypeFacts> mlir::tile::elementTypeTable() {
  return kElementTypes;
}

llvm::ArrayRef<std::pair<llvm::StringLiteral, Format>>
mlir::tile::elementFormatTable() {
  return kElementFormats;
}

llvm::SmallVector<Format> mlir::tile::reductionFormats(Reduction op) {
  llvm::SmallVector<Format> formats;
  for (auto [red, format] : kReductions)
    if (red == op)
      formats.push_back(format);
  return formats;
}

bool mlir::tile::isSignedReduction(Reduction op) {
  switch (op) {
#define TILE_SIGNED_REDUCTION(OP)                                              \
  case Reduction::OP:                                                          \
    return true;
#include "Tile/Contract/Reductions.def"
  default:
    return false;
  }
}

llvm::ArrayRef<DriverEnumFacts> mlir::tile::driverEnumTable() {
  return kDriverEnums;
}

llvm::ArrayRef<SwizzleFacts> mlir::tile::swizzleTable() { return kSwizzles; }

const SwizzleFacts *mlir::tile::swizzleFacts(int swizzle) {
  if (swizzle < 0 || swizzle >= static_cast<int>(std::size(kSwizzles)))
    return nullptr;
  return &kSwizzles[swizzle];
}

std::string mlir::tile::swizzleShortName(int swizzle) {
  const SwizzleFacts *s = swizzleFacts(swizzle);
  if (!s)
    return "";
  llvm::StringRef name = s->cuName;
  name.consume_front("CU_TENSOR_MAP_SWIZZLE_");
  return name == "NONE" ? "none" : name.str();
}

IntRange mlir::tile::driverEnumRange(llvm::StringRef field) {
  IntRange range = {0, -1};
  bool any = false;
  for (const DriverEnumFacts &e : kDriverEnums) {
    if (e.field != field)
      continue;
    range = any ? IntRange{std::min<int64_t>(range.min, e.value),
                           std::max<int64_t>(range.max, e.value)}
                : IntRange{e.value, e.value};
    any = true;
  }
  return range;
}

int mlir::tile::im2colBits(int rank) {
  assert(kIm2colRankRange.contains(rank) && "not an im2col rank");
  return kIm2colBits[rank - kIm2colRankRange.min].second;
}

int mlir::tile::im2colCornerBits(Mode mode, int rank) {
  return isIm2colWideMode(mode) ? kIm2colWideCornerBits : im2colBits(rank);
}

IntRange mlir::tile::im2colCornerRange(Mode mode, int rank) {
  int bits = im2colCornerBits(mode, rank);
  return {-(int64_t(1) << (bits - 1)), (int64_t(1) << (bits - 1)) - 1};
}

IntRange mlir::tile::im2colOffsetRange(int rank) {
  return {0, (int64_t(1) << im2colBits(rank)) - 1};
}

unsigned mlir::tile::swizzleMask(bool (*pred)(const SwizzleFacts &)) {
  unsigned mask = 0;
  for (const SwizzleFacts &s : kSwizzles)
    if (pred(s))
      mask |= 1u << s.value;
  return mask;
}

unsigned mlir::tile::formatBits(Format format) {
  return formatFacts(format).bits;
}

bool mlir::tile::isPackedFormat(Format format) {
  return formatFacts(format).packed;
}

bool mlir::tile::isPaddedPackedFormat(Format format) {
  return formatFacts(format).paddedPacked;
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
  return formatFacts(format).isFloat;
}

int mlir::tile::cuTensorMapDataType(Format format) {
  return formatFacts(format).cuDataType;
}

bool mlir::tile::formatAllowsSwizzle(Format format, int swizzle, bool store) {
  const FormatFacts &f = formatFacts(format);
  unsigned allowed = store ? f.storeSwizzles : f.loadSwizzles;
  return swizzle >= 0 && swizzle < 32 && (allowed >> swizzle & 1);
}

Type mlir::tile::formatStorageType(Format format, MLIRContext *context) {
  return parseType(formatFacts(format).storage, context);
}

Packing mlir::tile::formatPacking(Format format) {
  return formatFacts(format).packing;
}

int64_t mlir::tile::formatInnerMultiple(Format format) {
  return formatFacts(format).innerMultiple;
}

int64_t mlir::tile::formatAlignment(Format format) {
  return formatFacts(format).alignment;
}

int64_t mlir::tile::globalBaseAlignment(Format format, int interleave) {
  return std::max(formatAlignment(format), interleaveBytes(interleave));
}

int64_t mlir::tile::globalStrideAlignment(Format format, int interleave) {
  return globalBaseAlignment(format, interleave);
}

EncodeKind mlir::tile::tensorMapEncodeKind(Mode mode) {
  if (!isIm2colMode(mode))
    return EncodeKind::tiled;
  return isIm2colWideMode(mode) ? EncodeKind::im2col_wide : EncodeKind::im2col;
}

llvm::StringRef mlir::tile::tensorMapEncodeFunction(EncodeKind encode) {
  return kEncodeFunctions[static_cast<unsigned>(encode)].second;
}

/// The spelling Formats.def and ElementTypes.def use for `type`.
static std::string spelling(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  type.print(os);
  return text;
}

std::optional<Format> mlir::tile::defaultFormat(Type type) {
  if (!type.isIntOrFloat())
    return std::nullopt;
  std::string name = spelling(type);
  for (const ElementTypeFacts &e : kElementTypes)
    if (e.mlir == name)
      return e.format;
  return std::nullopt;
}

bool mlir::tile::formatMatches(Type type, Format format) {
  std::optional<Format> natural = defaultFormat(type);
  if (!natural)
    return false;
  if (*natural == format)
    return true;
  std::string name = spelling(type);
  return llvm::any_of(kElementFormats, [&](const auto &row) {
    return row.first == name && row.second == format;
  });
}

int64_t mlir::tile::swizzleSpanBytes(int swizzle) {
  const SwizzleFacts *s = swizzleFacts(swizzle);
  return s ? s->spanBytes : 0;
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
  image.rowElements = rowElems;
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
        isIm2colMode(f.mode) && kRankRange.contains(f.rank) ? f.rank
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
