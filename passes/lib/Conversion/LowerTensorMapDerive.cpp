//===- LowerTensorMapDerive.cpp - tile.tensormap_derive to NVVM -----------===//
//
// One thread copies the 128-byte template into the staging buffer (shared
// memory) or the destination, replaces the fields with tensormap.replace,
// copies the staging buffer to the destination in global memory, and then
// executes the proxy fences the PTX memory model asks for between generic
// writes of a map and the copy engine's reads of it through the tensormap
// proxy: fence.proxy.tensormap::generic.release.gpu, then
// fence.proxy.tensormap::generic.acquire.gpu on the destination's 128 bytes.
// Another thread of the CTA may use the map after a CTA barrier.
//
//===----------------------------------------------------------------------===//

#include "LowerTensorMapDerive.h"

#include "Tile/Contract/DerivedMap.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::tile;

namespace {

struct DeriveLowering {
  RewriterBase &b;
  TensorMapDeriveOp op;
  Location loc;
  MLIRContext *ctx;

  Type i32() { return b.getI32Type(); }
  Type i64() { return b.getI64Type(); }
  Value c32(int64_t v) {
    return LLVM::ConstantOp::create(b, loc, i32(), b.getI32IntegerAttr(v));
  }
  Value c64(int64_t v) {
    return LLVM::ConstantOp::create(b, loc, i64(), b.getI64IntegerAttr(v));
  }
  LLVM::LLVMPointerType ptr(unsigned space) {
    return LLVM::LLVMPointerType::get(ctx, space);
  }
  Value inSpace(Value p, unsigned space) {
    if (cast<LLVM::LLVMPointerType>(p.getType()).getAddressSpace() == space)
      return p;
    return LLVM::AddrSpaceCastOp::create(b, loc, ptr(space), p);
  }
  Value asI64(Value v) {
    if (isa<LLVM::LLVMPointerType>(v.getType()))
      return LLVM::PtrToIntOp::create(b, loc, i64(), v);
    return v;
  }

  /// 128 bytes from `from` to `to`, eight 16-byte vectors.
  void copyMap(Value from, Value to) {
    auto vec = VectorType::get({4}, i32());
    for (int64_t i = 0; i < kTensorMapBytes / 16; ++i) {
      auto at = [&](Value base) -> Value {
        if (i == 0)
          return base;
        return LLVM::GEPOp::create(b, loc, base.getType(), b.getI8Type(), base,
                                   ArrayRef<LLVM::GEPArg>{int32_t(16 * i)});
      };
      Value v = LLVM::LoadOp::create(b, loc, vec, at(from), /*alignment=*/16);
      LLVM::StoreOp::create(b, loc, v, at(to), /*alignment=*/16);
    }
  }

  void replace(Value map, ReplaceField field, ArrayRef<Value> args) {
    unsigned space =
        cast<LLVM::LLVMPointerType>(map.getType()).getAddressSpace();
    SmallVector<Value> operands = {map};
    operands.append(args.begin(), args.end());
    LLVM::CallIntrinsicOp::create(
        b, loc, b.getStringAttr(replaceIntrinsic(field, space)), operands);
  }

  /// Every replacement, on the map at `map` (shared::cta or global).
  void replaceFields(Value map, const MapFields &before,
                     const MapFields &after) {
    int rank = *after.rank;
    // Ordinals count dimensions innermost-first; the op's arrays are
    // outer-to-inner.
    auto ord = [&](int64_t i) { return c32(rank - 1 - i); };
    if (Value address = op.getNewAddress())
      replace(map, ReplaceField::GlobalAddress, {asI64(address)});
    if (auto newRank = op.getNewRank())
      replace(map, ReplaceField::Rank, {c32(*newRank - 1)}); // zero-based
    if (auto box = op.getNewBox())
      for (auto [i, extent] : llvm::enumerate(*box))
        replace(map, ReplaceField::BoxDim, {ord(i), c32(extent)});
    for (auto [i, dim] : llvm::enumerate(op.getNewDims()))
      replace(map, ReplaceField::GlobalDim, {ord(i), dim});
    // new_strides[i] is the stride of dimension i (outer-to-inner), entry
    // rank - 2 - i of the innermost-first globalStrides array.
    for (auto [i, stride] : llvm::enumerate(op.getNewStrides()))
      replace(map, ReplaceField::GlobalStride, {c32(rank - 2 - i), stride});
    if (auto strides = op.getNewElementStrides())
      for (auto [i, s] : llvm::enumerate(*strides))
        replace(map, ReplaceField::ElementStride, {ord(i), c32(s)});
    if (auto format = op.getNewFormat())
      replace(map, ReplaceField::ElemType, {c32(replaceElemType(*format))});
    if (auto interleave = op.getNewInterleave())
      replace(map, ReplaceField::InterleaveLayout, {c32(*interleave)});
    if (auto swizzle = op.getNewSwizzle()) {
      auto [mode, atomicity] = replaceSwizzle(*swizzle);
      replace(map, ReplaceField::SwizzleMode, {c32(mode)});
      // The atomicity field exists on sm_100 only; it is rewritten unless
      // both swizzles are known to keep it at 16 bytes (the verifier asked
      // for the PTX ISA otherwise).
      bool sm100 = llvm::any_of(getTargets(op),
                                [](const TargetInfo &t) { return t.sm >= 100; });
      bool unchanged = atomicity == 0 && before.swizzle &&
                       swizzleFacts(*before.swizzle) &&
                       replaceSwizzle(*before.swizzle).second == 0;
      if (sm100 && !unchanged)
        replace(map, ReplaceField::SwizzleAtomicity, {c32(atomicity)});
    }
    if (auto fill = op.getNewOobFill())
      replace(map, ReplaceField::FillMode, {c32(*fill)});
  }

  /// The debug build's checks of the runtime values (DeriveFaultField).
  SmallVector<debug::Check> deviceChecks(Value dest, Value staging,
                                         const MapFields &after) {
    SmallVector<debug::Check> checks;
    auto split = [&](Value v64) {
      Value low = LLVM::TruncOp::create(b, loc, i32(), v64);
      Value high = LLVM::TruncOp::create(
          b, loc, i32(), LLVM::LShrOp::create(b, loc, v64, c64(32)));
      return std::pair<Value, Value>(low, high);
    };
    auto check = [&](Value bad, Rule rule, DeriveFaultField field, int64_t axis,
                     Value value64, int64_t bound) {
      auto [low, high] = split(value64);
      checks.push_back({bad, rule,
                        {c32(static_cast<int32_t>(field)), c32(axis), low, high,
                         c32(bound)}});
    };
    auto misaligned = [&](Value v64, int64_t multiple) -> Value {
      Value rem = LLVM::AndOp::create(b, loc, v64, c64(multiple - 1));
      return LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ne, rem, c64(0));
    };
    auto isConstant = [](Value v) { return matchPattern(v, m_Constant()); };
    Value destAddress = asI64(dest);
    check(misaligned(destAddress, kTensorMapAlign), Rule::TensormapAlignment,
          DeriveFaultField::Destination, 0, destAddress, kTensorMapAlign);
    if (staging) {
      // A shared::cta address: the 32-bit offset in the window.
      Value s64 = LLVM::ZExtOp::create(
          b, loc, i64(), LLVM::PtrToIntOp::create(b, loc, i32(), staging));
      check(misaligned(s64, kTensorMapAlign), Rule::TensormapAlignment,
            DeriveFaultField::Staging, 0, s64, kTensorMapAlign);
    }
    int interleave = after.interleave.value_or(0);
    if (Value address = op.getNewAddress(); address && !isConstant(address)) {
      int64_t align =
          after.format ? globalBaseAlignment(*after.format, interleave)
                       : kChunkBytes;
      Value a = asI64(address);
      check(misaligned(a, align), Rule::GlobalBaseAlignment,
            DeriveFaultField::Address, 0, a, align);
    }
    for (auto [i, dim] : llvm::enumerate(op.getNewDims())) {
      if (isConstant(dim))
        continue; // the verifier's
      Value d = LLVM::ZExtOp::create(b, loc, i64(), dim);
      Value zero =
          LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, dim, c32(0));
      check(zero, Rule::GlobalDimRange, DeriveFaultField::Dims, i, d, 1);
    }
    int64_t strideAlign =
        after.format ? globalStrideAlignment(*after.format, interleave)
                     : kChunkBytes;
    for (auto [i, stride] : llvm::enumerate(op.getNewStrides())) {
      if (isConstant(stride))
        continue;
      // Unsigned: a negative stride is out of range too.
      Value big = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::uge, stride,
                                       c64(kGlobalStrideBytesBound));
      check(big, Rule::GlobalStrideRange, DeriveFaultField::Strides, i, stride,
            40);
      check(misaligned(stride, strideAlign), Rule::GlobalStrideAlignment,
            DeriveFaultField::Strides, i, stride, strideAlign);
    }
    return checks;
  }

  void run(Value templateMap, debug::ModuleChecks *checks) {
    b.setInsertionPoint(op);
    MapFields before = getTemplateFields(op);
    MapFields after = getDerivedFields(op);
    Value dest = inSpace(op.getDest(), 1);
    Value staging = op.getStaging();
    auto publish = [&](OpBuilder &) {
      Value work = staging ? staging : dest;
      copyMap(templateMap, work);
      replaceFields(work, before, after);
      if (staging)
        copyMap(staging, dest);
      // Generic writes of the map, then the tensormap proxy's view of it.
      NVVM::FenceProxyReleaseOp::create(
          b, loc,
          NVVM::MemScopeKindAttr::get(ctx, NVVM::MemScopeKind::GPU));
      NVVM::FenceProxyAcquireOp::create(
          b, loc, NVVM::MemScopeKindAttr::get(ctx, NVVM::MemScopeKind::GPU),
          inSpace(dest, 0), c32(kTensorMapBytes));
    };
    if (checks) {
      SmallVector<debug::Check> found = deviceChecks(dest, staging, after);
      checks->guardDerive(b, loc, op, found, publish);
    } else {
      publish(b);
    }
    b.replaceOp(op, dest);
  }
};

} // namespace

void mlir::tile::lowerTensorMapDerive(RewriterBase &rewriter,
                                      TensorMapDeriveOp op, Value templateMap,
                                      debug::ModuleChecks *checks) {
  DeriveLowering{rewriter, op, op.getLoc(), op.getContext()}.run(templateMap,
                                                                 checks);
}
