//===- TensorMapDeriveVerifier.cpp - tile.tensormap_derive's rules --------===//
//
// A map derived on the device is checked with the rules of host encoding:
// its template (a memref the host encodes, or a caller's pointer), the
// fields it ends up with (template plus constant replacements), the
// constant replaced values, and the copies that use it. Each diagnostic
// names its rule (Rules.def).
//
//===----------------------------------------------------------------------===//

#include "Tile/Contract/DerivedMap.h"
#include "Tile/IR/TileOps.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::tile;

namespace {

InFlightDiagnostic fail(Operation *op, Rule rule) {
  return op->emitOpError() << "[" << ruleName(rule) << "] ";
}

std::string list(llvm::ArrayRef<int64_t> values) {
  std::string s = "(";
  llvm::raw_string_ostream os(s);
  llvm::interleaveComma(values, os);
  return s + ")";
}

std::optional<int64_t> constantInt(Value v) {
  APInt value;
  if (v && matchPattern(v, m_ConstantInt(&value)))
    return value.getSExtValue();
  return std::nullopt;
}

bool isKernelArgument(Operation *op, Value v) {
  auto arg = dyn_cast<BlockArgument>(v);
  auto func = op->getParentOfType<gpu::GPUFuncOp>();
  return arg && func && func.isKernel() &&
         arg.getOwner() == &func.getBody().front();
}

/// The rules of one descriptor's fields, where they are known (the checks a
/// copy's own fields get too). `what` names the map in messages ("the
/// template", "the derived map").
LogicalResult verifyFields(Operation *op, const MapFields &f,
                           llvm::StringRef what) {
  if (RuleCheck broken = DescriptorRules(f, what).all())
    return fail(op, broken->rule) << broken->message;
  return success();
}

/// Where a derivation runs: tensormap.replace is arch-specific (sm_90a,
/// sm_100a, ...), PTX ISA 8.3; the sm_100 forms need the data-center family.
LogicalResult verifyTarget(TensorMapDeriveOp op, const MapFields &before,
                           const MapFields &after) {
  for (const TargetInfo &t : getTargets(op)) {
    std::string chip =
        "sm_" + std::to_string(t.sm) + (t.archSpecific ? "a" : "");
    std::string ptx = std::to_string(t.ptx / 10) + "." +
                      std::to_string(t.ptx % 10);
    bool datacenterBlackwell = t.archSpecific && (t.sm == 100 || t.sm == 101 ||
                                                  t.sm == 103 || t.sm == 110);
    if (!t.archSpecific || t.sm < 90)
      return fail(op, Rule::TargetTensormapReplace)
             << "tensormap.replace needs an arch-specific target (sm_90a, "
                "sm_100a, ...), target is "
             << chip;
    int base = replaceFieldFacts(ReplaceField::GlobalAddress).minPtx;
    if (t.ptx < base)
      return fail(op, Rule::TargetTensormapReplace)
             << "tensormap.replace needs PTX ISA " << base / 10 << "."
             << base % 10 << ", target " << chip << " uses PTX " << ptx;
    if (after.swizzle && swizzleFacts(*after.swizzle) &&
        swizzleFacts(*after.swizzle)->sm100 && !datacenterBlackwell)
      return fail(op, Rule::TargetSm100)
             << "swizzle " << *after.swizzle
             << " needs sm_100a (or sm_101a/103a/110a), target is " << chip;
    if (after.format && isPackedFormat(*after.format) && !datacenterBlackwell)
      return fail(op, Rule::TargetSm100)
             << "format " << stringifyFormat(*after.format)
             << " needs sm_100a (or sm_101a/103a/110a), target is " << chip;
    if (auto format = op.getNewFormat();
        format && t.ptx < replaceElemTypeMinPtx(*format))
      return fail(op, Rule::TargetTensormapReplace)
             << "replacing the element type with " << stringifyFormat(*format)
             << " needs PTX ISA " << replaceElemTypeMinPtx(*format) / 10 << "."
             << replaceElemTypeMinPtx(*format) % 10 << ", target " << chip
             << " uses PTX " << ptx << " (add +ptx87 to the target features)";
    // On sm_100 a swizzle is two fields; swizzle_atomicity needs a newer PTX
    // unless the template's swizzle is known to need none (0..3 -> 0..3).
    int atomicityPtx = replaceFieldFacts(ReplaceField::SwizzleAtomicity).minPtx;
    if (auto swizzle = op.getNewSwizzle(); swizzle && t.sm >= 100) {
      bool known = before.swizzle && swizzleFacts(*before.swizzle) &&
                   replaceSwizzle(*before.swizzle).second == 0 &&
                   swizzleFacts(*swizzle) &&
                   replaceSwizzle(*swizzle).second == 0;
      if (!known && t.ptx < atomicityPtx)
        return fail(op, Rule::TargetTensormapReplace)
               << "replacing swizzle "
               << (before.swizzle ? std::to_string(*before.swizzle)
                                  : std::string("(not declared)"))
               << " with " << *swizzle << " on " << chip
               << " writes swizzle_atomicity, which needs PTX ISA "
               << atomicityPtx / 10 << "." << atomicityPtx % 10 << ", target uses PTX "
               << ptx;
    }
  }
  return success();
}

/// A memref template: a kernel argument in global memory, encoded on the
/// host as a tiled map of exactly these fields.
LogicalResult verifyMemRefTemplate(TensorMapDeriveOp op, MemRefType type,
                                   const MapFields &f) {
  if (!isKernelArgument(op, op.getTemplateMap()))
    return fail(op, Rule::GlobalSource)
           << "a memref template must be an argument of the enclosing "
              "gpu.func kernel (the host encodes its tensor map from it)";
  Attribute space = type.getMemorySpace();
  bool global = !space ||
                (isa<IntegerAttr>(space) &&
                 (cast<IntegerAttr>(space).getInt() == 0 ||
                  cast<IntegerAttr>(space).getInt() == 1)) ||
                (isa<gpu::AddressSpaceAttr>(space) &&
                 cast<gpu::AddressSpaceAttr>(space).getValue() ==
                     gpu::AddressSpace::Global);
  if (!global)
    return fail(op, Rule::GlobalAddressSpace)
           << "the template " << type << " is not in global memory";
  if (!f.box)
    return fail(op, Rule::BoxArity)
           << "a memref template needs its box (the host encodes the map "
              "with it)";
  if (!f.format)
    return fail(op, Rule::DtypeSupported)
           << "the template's element type " << type.getElementType()
           << " has no tensor-map format";
  if (auto format = op.getFormat();
      format && !formatMatches(type.getElementType(), *format))
    return fail(op, Rule::FormatMatch)
           << "format " << stringifyFormat(*format)
           << " does not describe the template's element type "
           << type.getElementType();
  llvm::SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)) ||
      (!ShapedType::isDynamic(strides.back()) && strides.back() != 1))
    return fail(op, Rule::GlobalInnerStride)
           << "the template " << type << " needs an innermost stride of 1";
  // The host encodes the template: its static dims hold the box.
  for (int i = 0; i < *f.rank && i < type.getRank(); ++i)
    if (!type.isDynamicDim(i) && (*f.box)[i] > type.getDimSize(i))
      return fail(op, Rule::BoxWithinDim)
             << "the template's box[" << i << "] = " << (*f.box)[i]
             << " is larger than its dim[" << i << "] = " << type.getDimSize(i);
  return success();
}

/// A pointer template, like a copy's opaque map: generic, global or (not a
/// kernel parameter) constant memory.
LogicalResult verifyPointerTemplate(TensorMapDeriveOp op,
                                    LLVM::LLVMPointerType type) {
  unsigned space = type.getAddressSpace();
  bool kernelParam = isKernelArgument(op, op.getTemplateMap());
  if (space == 0 || space == 1 || (space == 4 && !kernelParam))
    return success();
  return fail(op, Rule::DescriptorSpace)
         << "the template pointer is in address space " << space
         << (space == 4 ? " and a kernel parameter (ptxas cannot cvta.const it)"
                        : "")
         << ", expected generic (0), global (1) or constant (4) memory";
}

/// Replacements replace whole fields: one entry per dimension.
LogicalResult verifyArity(TensorMapDeriveOp op, const MapFields &derived) {
  if (!derived.rank)
    return fail(op, Rule::DeriveFieldArity)
           << "the derived map's rank is unknown: a pointer template "
              "declares its box (or element_strides), or new_rank is given";
  int rank = *derived.rank;
  if (op.getNewRank()) {
    // A new rank leaves no per-dimension field of the old one behind.
    const char *missing = op.getNewDims().empty() ? "new_dims"
                          : op.getNewStrides().empty() && rank > 1
                              ? "new_strides"
                          : !op.getNewBox()              ? "new_box"
                          : !op.getNewElementStrides()   ? "new_element_strides"
                                                         : nullptr;
    if (missing)
      return fail(op, Rule::DeriveFieldArity)
             << "new_rank " << rank << " replaces every per-dimension "
             << "field, but " << missing << " is not given";
  }
  size_t dims = op.getNewDims().size(), strides = op.getNewStrides().size();
  if (dims && static_cast<int>(dims) != rank)
    return fail(op, Rule::DeriveFieldArity)
           << "new_dims has " << dims << " entries, expected rank " << rank;
  if (strides && static_cast<int>(strides) != rank - 1)
    return fail(op, Rule::DeriveFieldArity)
           << "new_strides has " << strides << " entries, expected rank - 1 = "
           << rank - 1 << " (the outer dimensions' byte strides)";
  for (auto [name, attr] :
       {std::pair<const char *, std::optional<llvm::ArrayRef<int64_t>>>{
            "new_box", op.getNewBox()},
        {"new_element_strides", op.getNewElementStrides()}})
    if (attr && static_cast<int>(attr->size()) != rank)
      return fail(op, Rule::DeriveFieldArity)
             << name << " has " << attr->size() << " entries, expected rank "
             << rank;
  return success();
}

/// Constant replaced values, by the host's rules for the same fields.
LogicalResult verifyConstantValues(TensorMapDeriveOp op,
                                   const MapFields &derived) {
  for (auto [i, dim] : llvm::enumerate(op.getNewDims())) {
    std::optional<int64_t> c = constantInt(dim);
    // i32 operands are read unsigned: 0 is the one value out of 1..2^32.
    if (c && static_cast<uint32_t>(*c) == 0)
      return fail(op, Rule::GlobalDimRange)
             << "new_dims[" << i << "] = 0 is outside 1..2^32";
  }
  // Without a known format, the least any format needs: whole chunks.
  int64_t align = derived.format
                      ? globalStrideAlignment(*derived.format,
                                              derived.interleave.value_or(0))
                      : kChunkBytes;
  for (auto [i, stride] : llvm::enumerate(op.getNewStrides())) {
    std::optional<int64_t> c = constantInt(stride);
    if (!c)
      continue;
    if (*c < 0 || *c >= kGlobalStrideBytesBound)
      return fail(op, Rule::GlobalStrideRange)
             << "new_strides[" << i << "] = " << *c
             << " bytes, expected a non-negative stride less than 2^40";
    if (*c % align != 0)
      return fail(op, Rule::GlobalStrideAlignment)
             << "new_strides[" << i << "] = " << *c
             << " bytes, expected a multiple of " << align;
  }
  if (std::optional<int64_t> address = constantInt(op.getNewAddress())) {
    int64_t base = derived.format
                       ? globalBaseAlignment(*derived.format,
                                             derived.interleave.value_or(0))
                       : kChunkBytes;
    if (*address % base != 0)
      return fail(op, Rule::GlobalBaseAlignment)
             << "new_address 0x" << llvm::utohexstr(*address)
             << " is not " << base << "-byte aligned";
  }
  return success();
}

} // namespace

LogicalResult TensorMapDeriveOp::verify() {
  Operation *op = getOperation();
  MapFields before = getTemplateFields(*this);
  if (auto memref = dyn_cast<MemRefType>(getTemplateMap().getType())) {
    if (failed(verifyFields(op, before, "the template")) ||
        failed(verifyMemRefTemplate(*this, memref, before)))
      return failure();
  } else if (failed(verifyPointerTemplate(
                 *this, cast<LLVM::LLVMPointerType>(getTemplateMap().getType()))) ||
             failed(verifyFields(op, before, "the template"))) {
    return failure();
  }
  unsigned destSpace =
      cast<LLVM::LLVMPointerType>(getDest().getType()).getAddressSpace();
  if (destSpace != 0 && destSpace != 1)
    return fail(op, Rule::DeriveDestination)
           << "the destination is in address space " << destSpace
           << ": a derived map is published to global memory (a generic (0) "
              "or global (1) pointer; the copy engine reads no map from "
              "shared memory)";
  MapFields after = getDerivedFields(*this);
  if (failed(verifyArity(*this, after)) ||
      failed(verifyFields(op, after, "the derived map")) ||
      failed(verifyConstantValues(*this, after)) ||
      failed(verifyTarget(*this, before, after)))
    return failure();
  return success();
}

void TensorMapDeriveOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  // Reads the template's 128 bytes, writes the destination (and staging);
  // neither has a memref value, so the effects are on no particular value.
  effects.emplace_back(MemoryEffects::Read::get());
  effects.emplace_back(MemoryEffects::Write::get());
}

LogicalResult mlir::tile::verifyDerivedMapUse(TmaCopyOp op,
                                              TensorMapDeriveOp derive,
                                              const CopyFields &f) {
  MapFields d = getDerivedFields(derive);
  auto mismatch = [&]() -> InFlightDiagnostic {
    return fail(op, Rule::DerivedMapMismatch);
  };
  if (isIm2colMode(f.mode))
    return mismatch() << "a derived map is tiled; " << stringifyMode(f.mode)
                      << " copies need an im2col map";
  if (d.rank && *d.rank != f.rank)
    return mismatch() << "the copy's rank " << f.rank
                      << " is not the derived map's " << *d.rank;
  if (d.box && llvm::ArrayRef<int64_t>(*d.box) != llvm::ArrayRef(f.box))
    return mismatch() << "the copy's box " << list(f.box)
                      << " is not the derived map's " << list(*d.box);
  if (d.elementStrides && llvm::ArrayRef<int64_t>(*d.elementStrides) !=
                              llvm::ArrayRef(f.elementStrides))
    return mismatch() << "the copy's element_strides "
                      << list(f.elementStrides) << " are not the derived map's "
                      << list(*d.elementStrides);
  if (d.format && *d.format != f.format)
    return mismatch() << "the copy's format " << stringifyFormat(f.format)
                      << " is not the derived map's "
                      << stringifyFormat(*d.format);
  if (d.swizzle && *d.swizzle != f.swizzle)
    return mismatch() << "the copy's swizzle " << f.swizzle
                      << " is not the derived map's " << *d.swizzle;
  if (d.interleave && *d.interleave != f.interleave)
    return mismatch() << "the copy's interleave " << f.interleave
                      << " is not the derived map's " << *d.interleave;
  if (d.oobFill && *d.oobFill != static_cast<int>(op.getOobFill()))
    return mismatch() << "the copy's oob_fill " << op.getOobFill()
                      << " is not the derived map's " << *d.oobFill;
  return success();
}
