//===- TileAttrs.cpp - the tensor-map spec attribute ----------------------===//
//
// The verifier holds a spec to one consistent map: the fields the format and
// mode fix agree with them, and the host decisions are the contract's. A
// reader of a verified spec checks nothing.
//
//===----------------------------------------------------------------------===//

#include "Tile/IR/TileAttrs.h"
#include "Tile/Contract/Contract.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::tile;

FailureOr<llvm::SmallVector<int64_t>> mlir::tile::parseI64List(AsmParser &parser) {
  llvm::SmallVector<int64_t> values;
  if (parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, [&]() {
        return parser.parseInteger(values.emplace_back());
      }))
    return failure();
  return values;
}

void mlir::tile::printI64List(AsmPrinter &printer, llvm::ArrayRef<int64_t> values) {
  printer << '[';
  llvm::interleaveComma(values, printer);
  printer << ']';
}

/// `spec` with the parameter indices `param` and `llvmParam`.
static TensorMapSpecAttr withIndices(TensorMapSpecAttr spec,
                                     std::optional<int64_t> param,
                                     std::optional<int64_t> llvmParam) {
  return TensorMapSpecAttr::get(
      spec.getContext(), param, llvmParam, spec.getSource(), spec.getMode(),
      spec.getEncode(), spec.getFormat(), spec.getDataType(),
      spec.getElemBits(), spec.getRank(), spec.getGlobalRank(), spec.getBox(),
      spec.getElementStrides(), spec.getInterleave(), spec.getSwizzle(),
      spec.getL2Promotion(), spec.getOobFill(), spec.getBytes(),
      spec.getPixelBoxLower(), spec.getPixelBoxUpper(),
      spec.getChannelsPerPixel(), spec.getPixelsPerColumn(),
      spec.getWideMode(), spec.getBaseAlignment(), spec.getStrideAlignment(),
      spec.getInnerMultiple(), spec.getPacking());
}

TensorMapSpecAttr TensorMapSpecAttr::withParam(int64_t param) const {
  return withIndices(*this, param, getLlvmParam());
}

TensorMapSpecAttr TensorMapSpecAttr::withLlvmParam(int64_t llvmParam) const {
  return withIndices(*this, getParam(), llvmParam);
}

LogicalResult TensorMapSpecAttr::verify(
    function_ref<InFlightDiagnostic()> emitError, std::optional<int64_t> param,
    std::optional<int64_t> llvmParam, int64_t source, Mode mode,
    EncodeKind encode, Format format, int64_t dataType, int64_t elemBits,
    int64_t rank, int64_t globalRank, ArrayRef<int64_t> box,
    ArrayRef<int64_t> elementStrides, int64_t interleave, int64_t swizzle,
    int64_t l2Promotion, int64_t oobFill, int64_t bytes,
    ArrayRef<int64_t> pixelBoxLower, ArrayRef<int64_t> pixelBoxUpper,
    std::optional<int64_t> channelsPerPixel,
    std::optional<int64_t> pixelsPerColumn, std::optional<int64_t> wideMode,
    int64_t baseAlignment, int64_t strideAlignment, int64_t innerMultiple,
    ArrayRef<int64_t> packing) {
  auto fail = [&]() {
    return emitError() << "inconsistent tensor-map spec: ";
  };
  if (source < 0 || param.value_or(0) < 0 || llvmParam.value_or(0) < 0)
    return fail() << "source, param and llvm_param are argument indices";
  if (!kRankRange.contains(rank))
    return fail() << "rank " << rank << " is not " << kRankRange.str();
  if (!driverEnumRange("interleave").contains(interleave) ||
      !driverEnumRange("swizzle").contains(swizzle) ||
      !driverEnumRange("l2_promotion").contains(l2Promotion) ||
      !driverEnumRange("oob_fill").contains(oobFill))
    return fail() << "interleave " << interleave << ", swizzle " << swizzle
                  << ", l2_promotion " << l2Promotion << " or oob_fill "
                  << oobFill << " is not a driver enum value";
  if (globalRank != rank + (interleave ? 1 : 0))
    return fail() << "global_rank " << globalRank << " with rank " << rank
                  << " and interleave " << interleave;
  if (encode != tensorMapEncodeKind(mode))
    return fail() << "mode " << stringifyMode(mode) << " is encoded by "
                  << stringifyEncodeKind(tensorMapEncodeKind(mode)) << ", not "
                  << stringifyEncodeKind(encode);
  if (dataType != cuTensorMapDataType(format) ||
      elemBits != int64_t(formatBits(format)))
    return fail() << "format " << stringifyFormat(format) << " has data_type "
                  << cuTensorMapDataType(format) << " and elem_bits "
                  << formatBits(format) << ", not " << dataType << " and "
                  << elemBits;
  if (bytes != kTensorMapBytes)
    return fail() << "a tensor map has " << kTensorMapBytes << " bytes, not "
                  << bytes;

  bool im2col = encode != EncodeKind::tiled;
  int64_t boxEntries = im2col ? 2 : rank;
  if (int64_t(box.size()) != boxEntries ||
      int64_t(elementStrides.size()) != rank)
    return fail() << "rank " << rank << " with " << box.size() << " box and "
                  << elementStrides.size() << " element_strides entries";
  if (!im2col) {
    if (!pixelBoxLower.empty() || !pixelBoxUpper.empty() || channelsPerPixel ||
        pixelsPerColumn || wideMode)
      return fail() << "a tiled map has no im2col fields";
  } else {
    int64_t corners = encode == EncodeKind::im2col ? rank - 2 : 1;
    if (rank < 3 || int64_t(pixelBoxLower.size()) != corners ||
        int64_t(pixelBoxUpper.size()) != corners)
      return fail() << "rank " << rank << " im2col map with "
                    << pixelBoxLower.size() << "/" << pixelBoxUpper.size()
                    << " corner entries";
    if (channelsPerPixel != box[0] || pixelsPerColumn != box[1])
      return fail() << "channels_per_pixel and pixels_per_column are the box "
                    << "(" << box[0] << ", " << box[1] << ")";
    std::optional<int64_t> expectedWide;
    if (encode == EncodeKind::im2col_wide)
      expectedWide = mode == Mode::im2col_w_128 ? 1 : 0;
    if (wideMode != expectedWide)
      return fail() << "wide_mode is given exactly for im2col_wide maps: 0 "
                    << "for im2col_w, 1 for im2col_w_128";
  }

  Packing expectedPacking = formatPacking(format);
  int64_t expectedPackingList[] = {expectedPacking.values,
                                   expectedPacking.bytes};
  if (baseAlignment != globalBaseAlignment(format, interleave) ||
      strideAlignment != globalStrideAlignment(format, interleave) ||
      innerMultiple != formatInnerMultiple(format) ||
      packing != ArrayRef<int64_t>(expectedPackingList))
    return fail() << "format " << stringifyFormat(format) << " with interleave "
                  << interleave << " needs base_alignment "
                  << globalBaseAlignment(format, interleave)
                  << ", stride_alignment "
                  << globalStrideAlignment(format, interleave)
                  << ", inner_multiple " << formatInnerMultiple(format)
                  << " and packing [" << expectedPacking.values << ", "
                  << expectedPacking.bytes << "]";
  return success();
}
