//===- TensorMapSpec.cpp - building and serializing tensor-map specs ------===//

#include "Tile/Contract/TensorMapSpec.h"
#include "Tile/Contract/Contract.h"
#include "Tile/Contract/DerivedMap.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::tile;

template <typename T>
static SmallVector<T> reversed(ArrayRef<T> values) {
  return SmallVector<T>(values.rbegin(), values.rend());
}

/// The spec of a map of fields `f` over `globalType` (im2col fields from
/// `op` when `f.mode` is an im2col mode).
static TensorMapSpecAttr buildSpec(Operation *emitter, TmaCopyOp op,
                                   const CopyFields &f, MemRefType globalType,
                                   int64_t l2PromotionValue,
                                   int64_t oobFillValue, unsigned source);

TensorMapSpecAttr mlir::tile::buildTensorMapSpec(TmaCopyOp op,
                                                 unsigned source) {
  return buildSpec(op, op, getCopyFields(op),
                   cast<MemRefType>(op.getGlobal().getType()),
                   op.getL2Promotion(), op.getOobFill(), source);
}

TensorMapSpecAttr mlir::tile::buildTensorMapSpec(TensorMapDeriveOp op,
                                                 unsigned source) {
  // The template the host encodes: a tiled map of the template fields.
  MapFields t = getTemplateFields(op);
  CopyFields f;
  f.mode = Mode::tile;
  f.rank = *t.rank;
  f.box.assign(t.box->begin(), t.box->end());
  f.elementStrides.assign(t.elementStrides->begin(), t.elementStrides->end());
  f.format = *t.format;
  f.swizzle = *t.swizzle;
  f.interleave = *t.interleave;
  return buildSpec(op, TmaCopyOp(), f,
                   cast<MemRefType>(op.getTemplateMap().getType()),
                   op.getL2Promotion(), *t.oobFill, source);
}

static TensorMapSpecAttr buildSpec(Operation *emitter, TmaCopyOp op,
                                   const CopyFields &f, MemRefType globalType,
                                   int64_t l2PromotionValue,
                                   int64_t oobFillValue, unsigned source) {
  EncodeKind encode = tensorMapEncodeKind(f.mode);
  // im2col maps: `box` is (channels_per_pixel, pixels_per_column) and the
  // corners are innermost-first, as cuTensorMapEncodeIm2col(Wide) takes them.
  SmallVector<int64_t> lower, upper;
  std::optional<int64_t> channels, pixels, wideMode;
  if (encode != EncodeKind::tiled) {
    lower = reversed(*op.getPixelBoxLower());
    upper = reversed(*op.getPixelBoxUpper());
    channels = f.box[1];
    pixels = f.box[0];
    if (encode == EncodeKind::im2col_wide)
      wideMode = f.mode == Mode::im2col_w_128 ? 1 : 0;
  }
  Packing packing = formatPacking(f.format);
  int64_t packingList[] = {packing.values, packing.bytes};
  SmallVector<int64_t> box = reversed(ArrayRef<int64_t>(f.box));
  SmallVector<int64_t> elementStrides =
      reversed(ArrayRef<int64_t>(f.elementStrides));
  // Typed exactly as the parameters, so that the generated getChecked is
  // the one called.
  std::optional<int64_t> unset;
  int64_t sourceIndex = source, dataType = cuTensorMapDataType(f.format),
          elemBits = formatBits(f.format), rank = f.rank,
          globalRank = globalType.getRank(), interleave = f.interleave,
          swizzle = f.swizzle, l2Promotion = l2PromotionValue,
          oobFill = oobFillValue;
  return TensorMapSpecAttr::getChecked(
      [&]() { return emitter->emitOpError(); }, emitter->getContext(), unset,
      unset,
      sourceIndex, f.mode, encode, f.format, dataType, elemBits, rank,
      globalRank, ArrayRef<int64_t>(box), ArrayRef<int64_t>(elementStrides),
      interleave, swizzle, l2Promotion, oobFill, kTensorMapBytes,
      ArrayRef<int64_t>(lower), ArrayRef<int64_t>(upper), channels, pixels,
      wideMode, globalBaseAlignment(f.format, f.interleave),
      globalStrideAlignment(f.format, f.interleave),
      formatInnerMultiple(f.format), ArrayRef<int64_t>(packingList));
}

llvm::json::Object mlir::tile::tensorMapSpecToJSON(TensorMapSpecAttr spec) {
  auto list = [](ArrayRef<int64_t> values) {
    return llvm::json::Array(values);
  };
  llvm::json::Object out{
      {"source", spec.getSource()},
      {"mode", stringifyMode(spec.getMode())},
      {"encode", stringifyEncodeKind(spec.getEncode())},
      {"format", stringifyFormat(spec.getFormat())},
      {"data_type", spec.getDataType()},
      {"elem_bits", spec.getElemBits()},
      {"rank", spec.getRank()},
      {"global_rank", spec.getGlobalRank()},
      {"box", list(spec.getBox())},
      {"element_strides", list(spec.getElementStrides())},
      {"interleave", spec.getInterleave()},
      {"swizzle", spec.getSwizzle()},
      {"l2_promotion", spec.getL2Promotion()},
      {"oob_fill", spec.getOobFill()},
      {"bytes", spec.getBytes()},
      {"base_alignment", spec.getBaseAlignment()},
      {"stride_alignment", spec.getStrideAlignment()},
      {"inner_multiple", spec.getInnerMultiple()},
      {"packing", list(spec.getPacking())},
  };
  auto optional = [&](llvm::StringRef key, std::optional<int64_t> value) {
    if (value)
      out[key] = *value;
  };
  optional("param", spec.getParam());
  optional("llvm_param", spec.getLlvmParam());
  if (spec.getEncode() != EncodeKind::tiled) {
    out["pixel_box_lower"] = list(spec.getPixelBoxLower());
    out["pixel_box_upper"] = list(spec.getPixelBoxUpper());
  }
  optional("channels_per_pixel", spec.getChannelsPerPixel());
  optional("pixels_per_column", spec.getPixelsPerColumn());
  optional("wide_mode", spec.getWideMode());
  return out;
}

TensorMapSpecAttr mlir::tile::tensorMapSpecFromJSON(
    MLIRContext *context, const llvm::json::Value &json, std::string &error) {
  llvm::json::Path::Root root("tensor-map spec");
  llvm::json::ObjectMapper map(json, root);
  std::optional<int64_t> param, llvmParam, channels, pixels, wideMode;
  int64_t source = 0, dataType = 0, elemBits = 0, rank = 0, globalRank = 0,
          interleave = 0, swizzle = 0, l2Promotion = 0, oobFill = 0, bytes = 0,
          baseAlignment = 0, strideAlignment = 0, innerMultiple = 0;
  std::string mode, encode, format;
  std::vector<int64_t> box, elementStrides, lower, upper, packing;
  bool mapped =
      map && map.mapOptional("param", param) &&
      map.mapOptional("llvm_param", llvmParam) && map.map("source", source) &&
      map.map("mode", mode) && map.map("encode", encode) &&
      map.map("format", format) && map.map("data_type", dataType) &&
      map.map("elem_bits", elemBits) && map.map("rank", rank) &&
      map.map("global_rank", globalRank) && map.map("box", box) &&
      map.map("element_strides", elementStrides) &&
      map.map("interleave", interleave) && map.map("swizzle", swizzle) &&
      map.map("l2_promotion", l2Promotion) && map.map("oob_fill", oobFill) &&
      map.map("bytes", bytes) && map.mapOptional("pixel_box_lower", lower) &&
      map.mapOptional("pixel_box_upper", upper) &&
      map.mapOptional("channels_per_pixel", channels) &&
      map.mapOptional("pixels_per_column", pixels) &&
      map.mapOptional("wide_mode", wideMode) &&
      map.map("base_alignment", baseAlignment) &&
      map.map("stride_alignment", strideAlignment) &&
      map.map("inner_multiple", innerMultiple) && map.map("packing", packing);
  if (!mapped) {
    error = llvm::toString(root.getError());
    return {};
  }
  std::optional<Mode> modeValue = symbolizeMode(mode);
  std::optional<EncodeKind> encodeValue = symbolizeEncodeKind(encode);
  std::optional<Format> formatValue = symbolizeFormat(format);
  if (!modeValue || !encodeValue || !formatValue) {
    error = "tensor-map spec: unknown mode '" + mode + "', encode '" + encode +
            "' or format '" + format + "'";
    return {};
  }
  // The verifier's message, if any, becomes `error`.
  ScopedDiagnosticHandler capture(context, [&](Diagnostic &diag) {
    error = diag.str();
    return success();
  });
  return TensorMapSpecAttr::getChecked(
      [&]() { return emitError(UnknownLoc::get(context)); }, context, param,
      llvmParam, source, *modeValue, *encodeValue, *formatValue, dataType,
      elemBits, rank, globalRank, ArrayRef<int64_t>(box),
      ArrayRef<int64_t>(elementStrides), interleave, swizzle, l2Promotion,
      oobFill, bytes, ArrayRef<int64_t>(lower), ArrayRef<int64_t>(upper),
      channels, pixels, wideMode, baseAlignment, strideAlignment,
      innerMultiple, ArrayRef<int64_t>(packing));
}
