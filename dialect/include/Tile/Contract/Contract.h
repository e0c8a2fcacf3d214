//===- Contract.h - one model of the TMA contract -----------------*- C++ -*-===//
//
// Shapes, byte counts, formats and alignments of a bulk tensor copy, computed
// from descriptor fields alone. The verifier, the lowering and the byte query
// all use this model; the tensor-map spec attribute records its results for
// the host side.
//
//===----------------------------------------------------------------------===//
#ifndef TILE_CONTRACT_H
#define TILE_CONTRACT_H

#include "mlir/IR/Types.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include "Tile/IR/TileOps.h"

#include <optional>
#include <string>

namespace mlir::tile {

/// Every rule of Rules.def, verifier, host and runtime ones.
enum class Rule {
#define TILE_RULE(ID, NAME, TEXT) ID,
#define TILE_HOST_RULE(ID, NAME, TEXT) ID,
#define TILE_RUNTIME_RULE(ID, NAME, TEXT) ID,
#define TILE_PYTHON_RULE(ID, NAME, TEXT) ID,
#define TILE_DEVICE_RULE(ID, NAME, TEXT) ID,
#include "Tile/Contract/Rules.def"
};
/// Where a rule is decided: the verifier, the host before encoding a map
/// (from runtime values), the Python launcher, the Python API (its
/// arguments, and MLIR's own diagnostics, which name no rule), or a debug
/// build's kernel.
enum class RuleKind { Verify, Host, Runtime, Python, Device };
/// The bracketed name diagnostics start with: "box-extent".
llvm::StringRef ruleName(Rule rule);
/// What the rule requires (docs/rules.md).
llvm::StringRef ruleText(Rule rule);
RuleKind ruleKind(Rule rule);
/// What the host checks of a verifier rule's dynamic values ("" if nothing).
llvm::StringRef ruleDynamicText(Rule rule);
/// What a debug build checks of a verifier rule on the device ("" if nothing).
llvm::StringRef ruleDeviceText(Rule rule);

/// An inclusive range of integers, [min, max].
struct IntRange {
  int64_t min;
  int64_t max;
  constexpr bool contains(int64_t value) const {
    return value >= min && value <= max;
  }
  /// "1..256", as diagnostics spell a range.
  std::string str() const {
    return std::to_string(min) + ".." + std::to_string(max);
  }
};

// The rows of Limits.def: `constexpr IntRange kBoxExtentRange = {1, 256};`,
// `constexpr int64_t kMaxSharedBytesPerBlock = 227 * 1024;`, ...
#define TILE_RANGE(ID, NAME, MIN, MAX) constexpr IntRange ID = {MIN, MAX};
#define TILE_LIMIT(ID, NAME, VALUE) constexpr int64_t ID = VALUE;
#include "Tile/Contract/Limits.def"

/// Bits of the pixel-box corners (signed) and the im2col offsets (unsigned)
/// of a map of `rank` in kIm2colRankRange (Limits.def).
int im2colBits(int rank);
/// The range of one corner entry of a copy in im2col `mode` (the W-only
/// forms: kIm2colWideCornerBits whatever the rank), and its width.
int im2colCornerBits(Mode mode, int rank);
IntRange im2colCornerRange(Mode mode, int rank);
/// The range of one constant offset of an im2col-mode copy.
IntRange im2colOffsetRange(int rank);
/// The values DriverEnums.def lists for spec field `field` ("swizzle",
/// "interleave", "l2_promotion", "oob_fill", "wide_mode").
IntRange driverEnumRange(llvm::StringRef field);

/// (values, bytes) of a host array's innermost axis: (1, 1) unless packed
/// (fp4: two values a byte, fp6: four in three bytes).
struct Packing {
  int64_t values = 1;
  int64_t bytes = 1;
};

/// One row of Formats.def: every fact of a tensor-map format.
struct FormatFacts {
  Format format;
  int cuDataType;             // CUtensorMapDataType value
  llvm::StringLiteral cuName; // CU_TENSOR_MAP_DATA_TYPE_*
  unsigned bits;              // bits of one element in global memory
  bool isFloat;
  bool isSigned;
  llvm::StringLiteral storage; // MLIR element type of a map known by format
  llvm::StringLiteral numpy;   // numpy dtype of host arrays
  bool packed;
  bool paddedPacked;
  int64_t alignment;     // base and outer-stride bytes
  int64_t innerMultiple; // elements of the inner global dimension
  Packing packing;
  int64_t groupDataBytes; // 16 packed elements in global memory
  int64_t groupSlotBytes; // ... and in shared memory
  bool loadOnly;
  bool nanFill;
  unsigned loadSwizzles;  // bit s: swizzle s allowed for loads
  unsigned storeSwizzles; // ... and for stores
  bool storeUnpacked;     // stores read one value per shared byte
  bool flushesSubnormals; // the copy flushes subnormal f32 values to zero
  bool roundsToTf32;      // the copy rounds f32 values to tf32
};
/// The rows of Formats.def, indexed by Format value.
llvm::ArrayRef<FormatFacts> formatTable();
const FormatFacts &formatFacts(Format format);
/// (alias, format) rows of Formats.def.
llvm::ArrayRef<std::pair<llvm::StringLiteral, Format>> formatAliases();

/// Bits of one element of `format` in global memory (4 for packed fp4).
unsigned formatBits(Format format);
/// The packed sm_100 formats (16U4_ALIGN8B, 16U4_ALIGN16B, 16U6_ALIGN16B).
bool isPackedFormat(Format format);
/// Packed formats whose shared groups of 16 elements take 16 bytes.
bool isPaddedPackedFormat(Format format);
/// Bytes of one shared-image element (packed images are addressed as i8).
unsigned sharedElementBytes(Format format);
/// im2col, im2col_w, im2col_w_128 and im2col_no_offs use an im2col map.
bool isIm2colMode(Mode mode);
/// The sm_100 W-only forms (wHalo/wOffset operands, the Wide encode).
bool isIm2colWideMode(Mode mode);
bool isFloatFormat(Format format);
/// The CUtensorMapDataType value of `format`.
int cuTensorMapDataType(Format format);
/// Whether `format` allows `swizzle` for loads (or, `store`, for stores).
bool formatAllowsSwizzle(Format format, int swizzle, bool store);
/// The element type a tensor map known only by its format holds (f32 for
/// the tf32 forms, f4E2M1FN for packed fp4).
Type formatStorageType(Format format, MLIRContext *context);

// The host's decisions, recorded in #tile.tensor_map_spec.
Packing formatPacking(Format format);
/// The inner global dimension is a multiple of this many elements.
int64_t formatInnerMultiple(Format format);
/// Bytes the global base and outer strides of `format` are multiples of.
int64_t formatAlignment(Format format);
/// Bytes the global base address and each outer byte stride are multiples
/// of: the format's alignment, and 32 with interleave 32B.
int64_t globalBaseAlignment(Format format, int interleave);
int64_t globalStrideAlignment(Format format, int interleave);
/// Which cuTensorMapEncode* call encodes the map of a copy in `mode`.
EncodeKind tensorMapEncodeKind(Mode mode);
/// The driver entry point of `encode`: "cuTensorMapEncodeTiled", ...
llvm::StringRef tensorMapEncodeFunction(EncodeKind encode);

/// One row of ElementTypes.def.
struct ElementTypeFacts {
  llvm::StringLiteral name; // builder dtype name
  llvm::StringLiteral mlir; // MLIR spelling
  Format format;            // the default format
  llvm::StringLiteral numpy;
  bool signless;
};
llvm::ArrayRef<ElementTypeFacts> elementTypeTable();
/// (MLIR spelling, format): explicit formats that also describe a type.
llvm::ArrayRef<std::pair<llvm::StringLiteral, Format>> elementFormatTable();

/// The formats reduction `op` is defined on (Reductions.def order).
llvm::SmallVector<Format> reductionFormats(Reduction op);
/// Operators whose result depends on the format's signedness (min, max).
bool isSignedReduction(Reduction op);

/// One row of DriverEnums.def: enumerator `name` of spec field `field`.
struct DriverEnumFacts {
  llvm::StringLiteral field;
  int value;
  llvm::StringLiteral name;
};
llvm::ArrayRef<DriverEnumFacts> driverEnumTable();

/// One TILE_SWIZZLE row of DriverEnums.def: swizzle `value` and its facts.
struct SwizzleFacts {
  int value;
  llvm::StringLiteral cuName; // CU_TENSOR_MAP_SWIZZLE_*
  int64_t spanBytes;          // bytes of one swizzled row, 0 for none
  bool loadOnly;              // stores and reductions do not take it
  bool im2colWide;            // cuTensorMapEncodeIm2colWide takes it
  bool sm100;                 // it needs the data-center sm_100 family
};
/// The TILE_SWIZZLE rows, indexed by swizzle value.
llvm::ArrayRef<SwizzleFacts> swizzleTable();
/// The row of `swizzle`, or null outside the table.
const SwizzleFacts *swizzleFacts(int swizzle);
/// The driver name without CU_TENSOR_MAP_SWIZZLE_: "none", "32B", ...,
/// "128B_ATOM_64B" ("" outside the table).
std::string swizzleShortName(int swizzle);
/// Bit s set for each swizzle s whose row satisfies `pred`.
unsigned swizzleMask(bool (*pred)(const SwizzleFacts &));

/// The format an element type has when none is given, if it has one.
std::optional<Format> defaultFormat(Type elementType);
/// Whether an explicit `format` describes `elementType` without reinterpreting it.
bool formatMatches(Type elementType, Format format);

/// 0, 32, 64 or 128 bytes (DriverEnums.def; 0 outside the table).
int64_t swizzleSpanBytes(int swizzle);
/// Bytes after which the swizzle pattern repeats: 8 rows of the span.
int64_t swizzlePeriodBytes(int swizzle);
/// 0, 16 or 32 bytes.
int64_t interleaveBytes(int interleave);

/// Descriptor-level fields of one copy (no SSA values).
struct CopyFields {
  Mode mode = Mode::tile;
  int rank = 0;
  llvm::SmallVector<int64_t> box;
  llvm::SmallVector<int64_t> elementStrides;
  Format format = Format::uint8;
  int swizzle = 0;
  int interleave = 0;
  /// im2col_w/_w_128: the constant wHalo operand (extra pixels per issue).
  int64_t wHalo = 0;
};

/// The shared image of one issue (one repeat slot).
struct BoxImage {
  /// Expected shared suffix, in shared elements.
  llvm::SmallVector<int64_t> shape;
  /// Bytes the transfer writes and the mbarrier counts.
  int64_t payloadBytes = 0;
  /// Bytes the slot occupies in shared memory, padding included.
  int64_t storageBytes = 0;
  /// Elements of one image row (the inner box row; one interleave slice).
  int64_t rowElements = 0;
  /// Bytes of one image row as transferred, and as stored (the swizzle span
  /// when the hardware pads a shorter row).
  int64_t rowPayloadBytes = 0;
  int64_t rowStorageBytes = 0;
};

/// Requires a verified (or at least arity-consistent) `fields`.
BoxImage computeBoxImage(const CopyFields &fields);

/// Reads the descriptor fields of a verified op.
CopyFields getCopyFields(TmaCopyOp op);

/// Parsed `sm_XY[a|f]` and `+ptxNN` of a target.
struct TargetInfo {
  int sm = 90;
  bool archSpecific = true;
  int ptx = 86;
};
/// The NVVM targets of the enclosing gpu.module, or the default sm_90a/ptx86.
llvm::SmallVector<TargetInfo> getTargets(Operation *op);

} // namespace mlir::tile

#endif // TILE_CONTRACT_H
