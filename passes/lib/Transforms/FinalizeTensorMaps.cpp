//===- FinalizeTensorMaps.cpp - grid_constant tensor-map parameters -------===//
//
// After the GPU-to-NVVM conversion: marks each tensor-map parameter of the
// flattened signature and records its index as the spec's `llvm_param`.
//
//===----------------------------------------------------------------------===//

#include "Tile/Contract/Contract.h"
#include "Tile/Passes.h"
#include "Tile/IR/TileOps.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/BuiltinTypes.h"

namespace mlir::tile {
#define GEN_PASS_DEF_TILEFINALIZETENSORMAPS
#include "Tile/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;

namespace {
struct TileFinalizeTensorMapsPass
    : public mlir::tile::impl::TileFinalizeTensorMapsBase<
          TileFinalizeTensorMapsPass> {
  using Base::Base;

  /// Index of each original parameter's first value in the flattened list.
  SmallVector<unsigned> flattenedStarts(FunctionType signature) {
    SmallVector<unsigned> starts;
    unsigned next = 0;
    for (Type type : signature.getInputs()) {
      starts.push_back(next);
      auto memref = dyn_cast<MemRefType>(type);
      next += !memref || useBarePtrCallConv ? 1 : 3 + 2 * memref.getRank();
    }
    return starts;
  }

  void runOnOperation() override {
    getOperation()->walk([&](LLVM::LLVMFuncOp func) {
      auto specs = func->getAttrOfType<ArrayAttr>("tile.tensor_maps");
      auto signature = func->getAttrOfType<TypeAttr>("tile.kernel_signature");
      if (!specs || !signature)
        return;
      Builder b(&getContext());
      SmallVector<unsigned> starts =
          flattenedStarts(cast<FunctionType>(signature.getValue()));
      SmallVector<Attribute> updated;
      for (Attribute attr : specs) {
        auto spec = dyn_cast<tile::TensorMapSpecAttr>(attr);
        if (!spec || !spec.getParam()) {
          func.emitOpError("tile.tensor_maps holds ")
              << attr << ", not a tensor-map spec with its parameter";
          return signalPassFailure();
        }
        int64_t param = *spec.getParam();
        unsigned index = param < int64_t(starts.size())
                             ? starts[param]
                             : func.getNumArguments();
        if (index >= func.getNumArguments() ||
            !isa<LLVM::LLVMPointerType>(func.getArgument(index).getType())) {
          func.emitOpError("tensor-map parameter ")
              << param << " not found in the lowered signature";
          return signalPassFailure();
        }
        func.setArgAttr(index, LLVM::LLVMDialect::getByValAttrName(),
                        TypeAttr::get(LLVM::LLVMArrayType::get(
                            b.getI8Type(), tile::kTensorMapBytes)));
        func.setArgAttr(index, LLVM::LLVMDialect::getAlignAttrName(),
                        b.getI64IntegerAttr(tile::kTensorMapAlign));
        func.setArgAttr(index, NVVM::NVVMDialect::getGridConstantAttrName(),
                        b.getUnitAttr());
        updated.push_back(spec.withLlvmParam(index));
      }
      func->setAttr("tile.tensor_maps", b.getArrayAttr(updated));
    });
  }
};
} // namespace
