//===- LowerTmaToNVVM.cpp - tile.tma_copy to NVVM bulk tensor copies ------===//
//
// Per kernel: assign one tensor-map parameter to each distinct descriptor and
// record its spec; per op: one NVVM instruction per repeat slot.
//
//===----------------------------------------------------------------------===//

#include "DebugChecks.h"
#include "LowerTensorMapDerive.h"
#include "LowerWgmmaDescriptor.h"

#include "Tile/Analysis/Analysis.h"
#include "Tile/Contract/Contract.h"
#include "Tile/Passes.h"
#include "Tile/Contract/TensorMapSpec.h"
#include "Tile/IR/TileOps.h"

#include "Tile/Contract/Opcode.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Dominance.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringMap.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/MapVector.h"

namespace mlir::tile {
#define GEN_PASS_DEF_TILELOWERTMA
#include "Tile/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;

namespace {

Value constI32(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(value));
}

/// `base + delta`, folded when `base` is a constant and skipped when delta=0.
Value addConst(OpBuilder &b, Location loc, Value base, int64_t delta) {
  if (delta == 0)
    return base;
  APInt constant;
  if (matchPattern(base, m_ConstantInt(&constant)))
    return constI32(b, loc, constant.getSExtValue() + delta);
  return arith::AddIOp::create(b, loc, base, constI32(b, loc, delta));
}

NVVM::TMAReduxKind toNVVM(Reduction red) {
  switch (red) {
  case Reduction::add:
    return NVVM::TMAReduxKind::ADD;
  case Reduction::min:
    return NVVM::TMAReduxKind::MIN;
  case Reduction::max:
    return NVVM::TMAReduxKind::MAX;
  case Reduction::inc:
    return NVVM::TMAReduxKind::INC;
  case Reduction::dec:
    return NVVM::TMAReduxKind::DEC;
  case Reduction::and_:
    return NVVM::TMAReduxKind::AND;
  case Reduction::or_:
    return NVVM::TMAReduxKind::OR;
  case Reduction::xor_:
    return NVVM::TMAReduxKind::XOR;
  }
  llvm_unreachable("all reductions handled");
}

NVVM::TMALoadMode toNVVMLoadMode(Mode mode) {
  switch (mode) {
  case Mode::gather4:
    return NVVM::TMALoadMode::TILE_GATHER4;
  case Mode::im2col:
    return NVVM::TMALoadMode::IM2COL;
  case Mode::im2col_w:
    return NVVM::TMALoadMode::IM2COL_W;
  case Mode::im2col_w_128:
    return NVVM::TMALoadMode::IM2COL_W_128;
  default:
    return NVVM::TMALoadMode::TILE;
  }
}

NVVM::TMAStoreMode toNVVMStoreMode(Mode mode) {
  switch (mode) {
  case Mode::scatter4:
    return NVVM::TMAStoreMode::TILE_SCATTER4;
  case Mode::im2col_no_offs:
    return NVVM::TMAStoreMode::IM2COL; // PTX .im2col_no_offs
  default:
    return NVVM::TMAStoreMode::TILE;
  }
}

/// `cp.async.bulk.tensor.Nd.shared::cta.global.{tile|tile::gather4}.
/// mbarrier::complete_tx::bytes.cta_group::K{.L2::cache_hint}` (PTX ISA 8.6,
/// sm_100a). The NVVM op rejects a cta_group with a shared::cta destination
/// (and LLVM's shared::cta intrinsics take no cta_group), so this one form is
/// issued as inline PTX with exactly the opcode the op names, rather than
/// silently as the shared::cluster variant.
void emitCtaGroupSharedCtaLoad(OpBuilder &b, Location loc, TmaCopyOp op,
                               Value sharedPtr, Value descriptor,
                               ArrayRef<Value> coords,
                               ArrayRef<Value> im2colInfo) {
  std::string ptx;
  llvm::raw_string_ostream os(ptx);
  os << "cp.async.bulk.tensor." << op.getRank() << "d.shared::cta.global."
     << ptxModeSpelling(op.getMode())
     << ".mbarrier::complete_tx::bytes.cta_group::" << *op.getCtaGroup()
     << (op.getCachePolicy() ? ".L2::cache_hint" : "") << " [$0], [$1, {";
  SmallVector<Value> operands = {sharedPtr, descriptor};
  for (auto [i, coord] : llvm::enumerate(coords)) {
    os << (i ? ", " : "") << "$" << operands.size();
    operands.push_back(coord);
  }
  os << "}], [$" << operands.size() << "]";
  operands.push_back(op.getMbar());
  if (!im2colInfo.empty()) {
    os << ", {";
    for (auto [i, value] : llvm::enumerate(im2colInfo)) {
      os << (i ? ", " : "") << "$" << operands.size();
      operands.push_back(value);
    }
    os << "}";
  }
  if (Value policy = op.getCachePolicy()) {
    os << ", $" << operands.size();
    operands.push_back(policy);
  }
  os << ";";
  NVVM::InlinePtxOp::create(b, loc, TypeRange{}, operands, ValueRange{},
                            b.getStringAttr(ptx), /*predicate=*/Value());
}

/// `base` (the aligned pointer of `shared`, i64) plus the bytes of the
/// memref's offset: a strided shared operand (a contiguous subview) starts
/// there. The identity layout has none: nothing is added.
Value addSharedOffset(OpBuilder &b, Location loc, Value shared, Value base) {
  auto type = cast<MemRefType>(shared.getType());
  if (type.getLayout().isIdentity())
    return base;
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)) || offset == 0)
    return base;
  int64_t elemBytes = type.getElementTypeBitWidth() / 8;
  Type i64 = b.getI64Type();
  Value bytes;
  if (ShapedType::isDynamic(offset)) {
    auto metadata =
        memref::ExtractStridedMetadataOp::create(b, loc, shared);
    Value elems =
        arith::IndexCastOp::create(b, loc, i64, metadata.getOffset());
    bytes = arith::MulIOp::create(
        b, loc, elems,
        arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(elemBytes)));
  } else {
    bytes = arith::ConstantOp::create(
        b, loc, b.getI64IntegerAttr(offset * elemBytes));
  }
  return arith::AddIOp::create(b, loc, base, bytes);
}

void issueSlot(RewriterBase &rewriter, Location loc, TmaCopyOp op,
               const CopyFields &fields, Value sharedPtr, Value descriptor,
               ArrayRef<Value> nvvmCoords, ArrayRef<Value> im2colInfo);

/// Rewrites one verified copy into its per-slot NVVM instructions. A debug
/// build (`checks`) computes every slot's coordinates first, then issues the
/// slots only if the device checks of their runtime values pass.
void lowerCopy(RewriterBase &rewriter, TmaCopyOp op, Value descriptor,
               debug::ModuleChecks *checks) {
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  CopyFields fields = getCopyFields(op);
  BoxImage image = computeBoxImage(fields);
  ArrayAttr steps = op.getCoordSteps() ? *op.getCoordSteps()
                                       : rewriter.getArrayAttr({});
  // A prefetch has no shared buffer and (verified) no repeat axes.
  ArrayRef<int64_t> repeatShape;
  if (Value shared = op.getShared())
    repeatShape = cast<MemRefType>(shared.getType()).getShape().take_front(
        steps.size());

  Type i64 = rewriter.getI64Type();
  auto sharedPtrType = LLVM::LLVMPointerType::get(op.getContext(), 3);
  Value base;
  if (Value shared = op.getShared()) {
    Value baseIndex =
        memref::ExtractAlignedPointerAsIndexOp::create(rewriter, loc, shared);
    base = arith::IndexCastOp::create(rewriter, loc, i64, baseIndex);
    base = addSharedOffset(rewriter, loc, shared, base);
  }
  // im2col offsets are innermost-first (W, H, D) in the instruction; the W
  // forms' (wHalo, wOffset) pair is passed as written.
  SmallVector<Value> im2colInfo(op.getOffsets().begin(), op.getOffsets().end());
  if (fields.mode == Mode::im2col)
    std::reverse(im2colInfo.begin(), im2colInfo.end());

  int64_t slots = op.getSlotCount();
  SmallVector<debug::Check> deviceChecks;
  if (checks)
    deviceChecks = checks->copyChecks(rewriter, loc, op, descriptor);
  // Debug builds issue the slots after their checks.
  SmallVector<std::pair<Value, SmallVector<Value>>> pending;
  SmallVector<int64_t> slotIndex(repeatShape.size(), 0);
  for (int64_t slot = 0; slot < slots; ++slot) {
    // Row-major multi-index of this slot over the repeat axes.
    int64_t rest = slot;
    for (int a = static_cast<int>(repeatShape.size()) - 1; a >= 0; --a) {
      slotIndex[a] = rest % repeatShape[a];
      rest /= repeatShape[a];
    }
    Value sharedPtr;
    if (base) {
      Value addr = base;
      if (int64_t offset = slot * image.storageBytes)
        addr = arith::AddIOp::create(
            rewriter, loc, base,
            arith::ConstantOp::create(rewriter, loc,
                                      rewriter.getI64IntegerAttr(offset)));
      sharedPtr = LLVM::IntToPtrOp::create(rewriter, loc, sharedPtrType, addr);
    }

    SmallVector<Value> coords;
    SmallVector<int64_t> deltas;
    for (auto [i, coord] : llvm::enumerate(op.getCoords())) {
      int64_t delta = 0;
      for (auto [a, step] : llvm::enumerate(steps))
        delta += slotIndex[a] * cast<DenseI64ArrayAttr>(step)[i];
      coords.push_back(addConst(rewriter, loc, coord, delta));
      deltas.push_back(delta);
    }
    SmallVector<Value> nvvmCoords;
    if (fields.mode != Mode::gather4 && fields.mode != Mode::scatter4) {
      nvvmCoords.assign(coords.rbegin(), coords.rend());
    } else {
      // Column first, then the four rows, each offset by the row coordinate.
      nvvmCoords.push_back(coords[1]);
      APInt rowBase;
      bool zeroBase = matchPattern(coords[0], m_ConstantInt(&rowBase)) &&
                      rowBase.isZero();
      for (Value row : op.getRows())
        nvvmCoords.push_back(zeroBase ? row
                                      : arith::AddIOp::create(rewriter, loc,
                                                              row, coords[0]));
    }

    if (checks) {
      checks->slotChecks(rewriter, loc, op, slot, deltas, coords, nvvmCoords,
                         deviceChecks);
      pending.push_back({sharedPtr, nvvmCoords});
      continue;
    }
    issueSlot(rewriter, loc, op, fields, sharedPtr, descriptor, nvvmCoords,
              im2colInfo);
  }
  if (checks) {
    int32_t site = checks->addSite(
        op, printPtxOpcode(getOpcodeFields(op)) + " (copy " +
                std::to_string(checks->copiesSeen++) + ")");
    checks->guardCopy(rewriter, loc, op, site, deviceChecks, slots,
                      image.payloadBytes, base, slots * image.storageBytes,
                      [&](OpBuilder &) {
                        for (auto &[sharedPtr, nvvmCoords] : pending)
                          issueSlot(rewriter, loc, op, fields, sharedPtr,
                                    descriptor, nvvmCoords, im2colInfo);
                      });
  }
  rewriter.eraseOp(op);
}

/// The NVVM instruction of one slot.
void issueSlot(RewriterBase &rewriter, Location loc, TmaCopyOp op,
               const CopyFields &fields, Value sharedPtr, Value descriptor,
               ArrayRef<Value> nvvmCoords, ArrayRef<Value> im2colInfo) {
  switch (op.getDirection()) {
  case Direction::load: {
    if (op.getCtaGroup() && !op.getDstCluster()) {
      emitCtaGroupSharedCtaLoad(rewriter, loc, op, sharedPtr, descriptor,
                                nvvmCoords, im2colInfo);
      break;
    }
    NVVM::CTAGroupKindAttr group;
    if (auto g = op.getCtaGroup())
      group = NVVM::CTAGroupKindAttr::get(
          op.getContext(),
          *g == 2 ? NVVM::CTAGroupKind::CTA_2 : NVVM::CTAGroupKind::CTA_1);
    // A shared::cluster destination is a pointer in the shared_cluster
    // address space (7); the NVVM op rejects a shared::cta pointer there.
    // The executing CTA's shared::cta window lies inside its shared::cluster
    // window, so the cast names the same bytes.
    Value dst = sharedPtr;
    if (op.getDstCluster())
      dst = LLVM::AddrSpaceCastOp::create(
          rewriter, loc,
          LLVM::LLVMPointerType::get(
              op.getContext(),
              static_cast<unsigned>(NVVM::NVVMMemorySpace::SharedCluster)),
          sharedPtr);
    NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp::create(
        rewriter, loc, dst, descriptor, nvvmCoords, op.getMbar(),
        im2colInfo, op.getCtaMask(), op.getCachePolicy(),
        toNVVMLoadMode(fields.mode),
        /*isCTAOnly=*/!op.getDstCluster(), group, /*predicate=*/Value());
    break;
  }
  case Direction::store:
    NVVM::CpAsyncBulkTensorSharedCTAToGlobalOp::create(
        rewriter, loc, descriptor, sharedPtr, nvvmCoords,
        op.getCachePolicy(), toNVVMStoreMode(fields.mode),
        /*predicate=*/Value());
    break;
  case Direction::reduce:
    NVVM::CpAsyncBulkTensorReduceOp::create(
        rewriter, loc, descriptor, sharedPtr, toNVVM(*op.getReduction()),
        toNVVMStoreMode(fields.mode), nvvmCoords, op.getCachePolicy());
    break;
  case Direction::prefetch:
    NVVM::CpAsyncBulkTensorPrefetchOp::create(
        rewriter, loc, descriptor, nvvmCoords, im2colInfo,
        toNVVMLoadMode(fields.mode), op.getCachePolicy());
    break;
  }
}

struct TileLowerTmaPass
    : public mlir::tile::impl::TileLowerTmaBase<TileLowerTmaPass> {
  using Base::Base;

  /// A debug build's checks of each gpu.module (docs/debug-mode.md).
  llvm::MapVector<Operation *, std::shared_ptr<debug::ModuleChecks>> checks;

  debug::ModuleChecks *checksOf(Operation *op) {
    auto it = checks.find(op->getParentOfType<gpu::GPUModuleOp>());
    return it == checks.end() ? nullptr : it->second.get();
  }

  void runOnOperation() override {
    // Barrier accounting and the dynamic shared memory's alignment first,
    // while the copies they read still exist.
    if (failed(checkBarrierAccounting(getOperation())))
      return signalPassFailure();
    recordDynamicSharedAlignment(getOperation());
    IRRewriter rewriter(&getContext());
    checks.clear();
    if (debug)
      getOperation()->walk([&](gpu::GPUModuleOp module) {
        checks[module] = std::make_shared<debug::ModuleChecks>(module);
      });
    // Descriptors of wgmma operands: their arithmetic, wherever they are
    // (a debug build's read checks look at the copies, still unlowered).
    getOperation()->walk([&](WgmmaDescriptorOp op) {
      lowerWgmmaDescriptor(rewriter, op, checksOf(op));
    });
    // Byte counts first, while the copies they sum still exist.
    getOperation()->walk([&](TxBytesOp op) {
      rewriter.setInsertionPoint(op);
      rewriter.replaceOpWithNewOp<arith::ConstantOp>(
          op, rewriter.getI32IntegerAttr(op.computeBytes().value_or(0)));
    });
    WalkResult result = getOperation()->walk([&](gpu::GPUFuncOp func) {
      if (failed(lowerKernel(rewriter, func)))
        return WalkResult::interrupt();
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      return signalPassFailure();
    for (auto &[module, moduleChecks] : checks)
      moduleChecks->finish();
    // A copy outside any gpu.func with a memref global has no kernel
    // parameter to take its descriptor from.
    getOperation()->walk([&](TmaCopyOp op) {
      op.emitOpError("[")
          << ruleName(Rule::GlobalSource)
          << "] a memref global operand must be an argument of the "
             "enclosing gpu.func kernel";
      signalPassFailure();
    });
    getOperation()->walk([&](TensorMapDeriveOp op) {
      op.emitOpError("[")
          << ruleName(Rule::GlobalSource)
          << "] tile.tensormap_derive runs in a gpu.func";
      signalPassFailure();
    });
  }

  /// Each host launch of `func` gets one `tile.tensor_map` per spec, made
  /// right before the launch (encoded once per launch), as its new operands.
  void addLaunchOperands(gpu::GPUFuncOp func, ArrayRef<Attribute> specs) {
    auto module = func->getParentOfType<gpu::GPUModuleOp>();
    if (!module)
      return;
    getOperation()->walk([&](gpu::LaunchFuncOp launch) {
      if (launch.getKernelModuleName() != module.getName() ||
          launch.getKernelName() != func.getName())
        return;
      OpBuilder b(launch);
      SmallVector<Value> maps;
      for (Attribute attr : specs) {
        auto spec = cast<TensorMapSpecAttr>(attr);
        maps.push_back(TensorMapOp::create(
            b, launch.getLoc(), LLVM::LLVMPointerType::get(b.getContext()),
            launch.getKernelOperands()[spec.getSource()], spec));
      }
      launch.getKernelOperandsMutable().append(maps);
    });
  }

  /// `prefetch.tensormap` of each descriptor the tagged copies use. A map
  /// defined after the prefetch (a caller's pointer computed later) cannot
  /// be prefetched there: that is an error, not a silent drop.
  void lowerTensorMapPrefetches(
      IRRewriter &rewriter, gpu::GPUFuncOp func,
      const llvm::StringMap<llvm::SetVector<Value>> &tagged) {
    SmallVector<PrefetchTensorMapOp> prefetches;
    func.walk([&](PrefetchTensorMapOp op) { prefetches.push_back(op); });
    DominanceInfo dominance(func);
    for (PrefetchTensorMapOp op : prefetches) {
      auto it = tagged.find(op.getTag());
      if (it != tagged.end()) {
        rewriter.setInsertionPoint(op);
        for (Value map : it->second) {
          // An opaque map cast to generic next to its copy: cast it again
          // here when its source is available.
          if (auto cast = map.getDefiningOp<LLVM::AddrSpaceCastOp>();
              cast && !dominance.properlyDominates(map, op) &&
              dominance.properlyDominates(cast.getArg(), op))
            map = LLVM::AddrSpaceCastOp::create(rewriter, op.getLoc(),
                                                cast.getType(), cast.getArg());
          if (!dominance.properlyDominates(map, op)) {
            op.emitOpError("[")
                << ruleName(Rule::PrefetchTensorMapTag)
                << "] the tensor map of a copy tagged \"" << op.getTag()
                << "\" is computed after this prefetch";
            signalPassFailure();
            continue;
          }
          NVVM::PrefetchOp::create(rewriter, op.getLoc(),
                                   /*cacheLevel=*/nullptr,
                                   /*evictPriority=*/nullptr, map,
                                   /*predicate=*/Value(),
                                   /*tensormap=*/rewriter.getUnitAttr(),
                                   /*uniform=*/nullptr,
                                   /*in_param_space=*/nullptr);
        }
      }
      rewriter.eraseOp(op);
    }
  }

  LogicalResult lowerKernel(IRRewriter &rewriter, gpu::GPUFuncOp func) {
    SmallVector<TmaCopyOp> copies;
    func.walk([&](TmaCopyOp op) { copies.push_back(op); });
    SmallVector<TensorMapDeriveOp> derives;
    func.walk([&](TensorMapDeriveOp op) { derives.push_back(op); });
    if (copies.empty() && derives.empty()) {
      lowerTensorMapPrefetches(rewriter, func, {});
      return success();
    }
    Block &entry = func.getBody().front();
    MLIRContext *ctx = &getContext();
    Builder b(ctx);

    // One parameter per distinct descriptor, in first-use order (keyed by
    // the spec without its parameter index).
    llvm::MapVector<TensorMapSpecAttr, BlockArgument> params;
    auto addParam = [&](TensorMapSpecAttr spec) -> LogicalResult {
      if (params.count(spec))
        return success();
      auto ptrType = LLVM::LLVMPointerType::get(ctx);
      NamedAttrList argAttrs;
      argAttrs.append("llvm.byval", TypeAttr::get(LLVM::LLVMArrayType::get(
                                        b.getI8Type(), kTensorMapBytes)));
      argAttrs.append("llvm.align", b.getI64IntegerAttr(kTensorMapAlign));
      // nvvm.grid_constant is only valid on llvm.func kernels: this marker
      // becomes it after the GPU-to-NVVM conversion (tile-finalize-tensor-maps).
      argAttrs.append("tile.tensor_map", b.getUnitAttr());
      unsigned index = func.getNumArguments();
      if (failed(func.insertArgument(index, ptrType,
                                     argAttrs.getDictionary(ctx),
                                     func.getLoc())))
        return func.emitOpError("cannot add the tensor-map parameter");
      params[spec] = func.getArgument(index);
      return success();
    };
    // Derivations from a memref template read the map the host encodes
    // from it (the template fields), passed like a copy's.
    SmallVector<std::pair<TensorMapDeriveOp, TensorMapSpecAttr>> derived;
    for (TensorMapDeriveOp op : derives) {
      if (!isa<MemRefType>(op.getTemplateMap().getType())) {
        derived.push_back({op, nullptr});
        continue;
      }
      auto arg = dyn_cast<BlockArgument>(op.getTemplateMap());
      if (!arg || arg.getOwner() != &entry || !func.isKernel())
        return op.emitOpError("[")
               << ruleName(Rule::GlobalSource)
               << "] a memref template must be an argument of the enclosing "
                  "gpu.func kernel (the host encodes its tensor map)";
      TensorMapSpecAttr spec = buildTensorMapSpec(op, arg.getArgNumber());
      if (!spec || failed(addParam(spec)))
        return failure();
      derived.push_back({op, spec});
    }
    SmallVector<std::pair<TmaCopyOp, TensorMapSpecAttr>> work;
    for (TmaCopyOp op : copies) {
      if (auto ptr = dyn_cast<LLVM::LLVMPointerType>(op.getGlobal().getType())) {
        // An opaque tensor map is addressed generically (PTX: the generic
        // address of a map in .param, .const or .global space).
        unsigned space = ptr.getAddressSpace();
        if (space != 0 && space != 1 && space != 4)
          return op.emitOpError("[")
                 << ruleName(Rule::DescriptorSpace)
                 << "] an opaque tensor map lives in param, constant or "
                    "global memory: expected a generic, global (1) or "
                    "constant (4) pointer, got "
                 << ptr;
        work.push_back({op, nullptr});
        continue;
      }
      // Only a kernel's parameters come from the host, which encodes the map
      // at launch; a device function has no such parameter to add.
      auto arg = dyn_cast<BlockArgument>(op.getGlobal());
      if (!arg || arg.getOwner() != &entry || !func.isKernel())
        return op.emitOpError("[")
               << ruleName(Rule::GlobalSource)
               << "] a memref global operand must be an argument of the "
                  "enclosing gpu.func kernel (the host encodes its tensor map)";
      TensorMapSpecAttr spec = buildTensorMapSpec(op, arg.getArgNumber());
      if (!spec)
        return failure();
      work.push_back({op, spec});
      if (failed(addParam(spec)))
        return failure();
    }

    SmallVector<Attribute> specs;
    for (auto &[spec, arg] : params)
      specs.push_back(spec.withParam(arg.getArgNumber()));
    if (!specs.empty()) {
      func->setAttr("tile.tensor_maps", b.getArrayAttr(specs));
      // The GPU-to-NVVM conversion flattens memref parameters and drops
      // parameter attributes; tile-finalize-tensor-maps uses this signature
      // to find the tensor-map parameters again.
      func->setAttr("tile.kernel_signature",
                    TypeAttr::get(func.getFunctionType()));
      addLaunchOperands(func, specs);
    }

    // Derived maps first: the copies then read their published maps.
    for (auto &[op, spec] : derived) {
      rewriter.setInsertionPoint(op);
      Value templateMap = spec ? Value(params[spec]) : op.getTemplateMap();
      lowerTensorMapDerive(rewriter, op, templateMap, checksOf(op));
    }

    // The descriptors each tag's copies use, for tile.prefetch_tensormap.
    llvm::StringMap<llvm::SetVector<Value>> tagged;
    for (auto &[op, spec] : work) {
      Value map;
      if (spec) {
        map = params[spec];
      } else {
        // The NVVM ops take the descriptor as a generic pointer: a global
        // (1) or constant (4) one is cast.
        map = op.getGlobal();
        if (cast<LLVM::LLVMPointerType>(map.getType()).getAddressSpace() != 0) {
          rewriter.setInsertionPoint(op);
          map = LLVM::AddrSpaceCastOp::create(
              rewriter, op.getLoc(), LLVM::LLVMPointerType::get(ctx), map);
        }
      }
      if (auto tag = op.getTag())
        tagged[*tag].insert(map);
      lowerCopy(rewriter, op, map, checksOf(op));
    }
    lowerTensorMapPrefetches(rewriter, func, tagged);
    return success();
  }
};

} // namespace
