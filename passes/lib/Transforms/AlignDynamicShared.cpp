//===- AlignDynamicShared.cpp - tile-align-dynamic-shared -----------------===//
//
// convert-gpu-to-nvvm declares the dynamic shared memory as an internal,
// zero-length, 16-byte aligned global. ptxas lays that out as one more static
// variable, in among the static buffers (measured: at the window's first
// byte, with an 8-byte static mbarrier right after it), not at the start of
// the launch's dynamic window. Declared `.extern` it is the dynamic window,
// placed after every static buffer; aligned as the copies into it need, it
// has the base the verifier assumes.
//
//===----------------------------------------------------------------------===//

#include "Tile/Analysis/Analysis.h"
#include "Tile/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace mlir::tile {
#define GEN_PASS_DEF_TILEALIGNDYNAMICSHARED
#include "Tile/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;

namespace {
constexpr llvm::StringLiteral kAttr = "tile.dynamic_shared_alignment";

struct TileAlignDynamicSharedPass
    : public mlir::tile::impl::TileAlignDynamicSharedBase<
          TileAlignDynamicSharedPass> {
  using Base::Base;

  void runOnOperation() override {
    getOperation()->walk([&](gpu::GPUModuleOp module) {
      auto need = module->getAttrOfType<IntegerAttr>(kAttr);
      for (auto global : module.getBody()->getOps<LLVM::GlobalOp>()) {
        // The conversion's dynamic shared memory: a zero-length array in
        // the shared address space, without an initializer.
        auto array = dyn_cast<LLVM::LLVMArrayType>(global.getType());
        if (!array || array.getNumElements() != 0 ||
            global.getAddrSpace() != 3 || global.getValueOrNull() ||
            !global.getInitializerRegion().empty())
          continue;
        global.setLinkage(LLVM::Linkage::External);
        if (need)
          global.setAlignment(std::max<uint64_t>(
              global.getAlignment().value_or(0), need.getInt()));
      }
      if (need)
        module->removeAttr(kAttr);
    });
  }
};
} // namespace

namespace mlir::tile {
/// Records on each gpu.module the alignment its copies into dynamic shared
/// memory need (at least the conversion's 16 bytes); called by tile-lower-tma
/// while the copies still exist.
void recordDynamicSharedAlignment(Operation *root) {
  root->walk([&](gpu::GPUModuleOp module) {
    int64_t need = requiredDynamicSharedAlignment(module);
    if (need > 16)
      module->setAttr(kAttr, IntegerAttr::get(
                                 IntegerType::get(module.getContext(), 64), need));
  });
}
} // namespace mlir::tile
