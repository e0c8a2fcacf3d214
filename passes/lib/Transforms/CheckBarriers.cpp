//===- CheckBarriers.cpp - tile-check-barriers ----------------------------===//

#include "Tile/Analysis/Analysis.h"
#include "Tile/Passes.h"

namespace mlir::tile {
#define GEN_PASS_DEF_TILECHECKBARRIERS
#include "Tile/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;

namespace {
struct TileCheckBarriersPass
    : public mlir::tile::impl::TileCheckBarriersBase<TileCheckBarriersPass> {
  using Base::Base;

  void runOnOperation() override {
    if (failed(tile::checkBarrierAccounting(getOperation())))
      signalPassFailure();
    markAllAnalysesPreserved();
  }
};
} // namespace
