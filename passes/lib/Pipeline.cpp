//===- Pipeline.cpp - tile-to-ptx: tile IR to a gpu.binary ----------------===//
//
// The device pipeline as one named pipeline, so tile-opt, the mlir-opt plugin
// and Python's PassManager all run the very same passes.
//
//===----------------------------------------------------------------------===//

#include "Tile/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

namespace {
struct TileToPtxOptions : public PassPipelineOptions<TileToPtxOptions> {
  Option<std::string> format{*this, "format",
                             llvm::cl::desc("gpu-module-to-binary format "
                                            "(isa: PTX text, bin: cubin)"),
                             llvm::cl::init("isa")};
};

void buildTileToPtx(OpPassManager &pm, const TileToPtxOptions &options) {
  std::string pipeline =
      "tile-lower-tma,"
      "gpu.module(convert-scf-to-cf,convert-gpu-to-nvvm,convert-nvvm-to-llvm,"
      "canonicalize,cse,reconcile-unrealized-casts),"
      "tile-finalize-tensor-maps,"
      "gpu-module-to-binary{format=" +
      options.format.getValue() + "}";
  if (failed(parsePassPipeline(pipeline, pm, llvm::errs())))
    llvm::report_fatal_error("tile-to-ptx: invalid pipeline");
}
} // namespace

namespace mlir::tile {
void registerTilePipelines() {
  PassPipelineRegistration<TileToPtxOptions>(
      "tile-to-ptx",
      "Lower tile IR in gpu.modules to NVVM and serialize (PTX by default)",
      buildTileToPtx);
}
} // namespace mlir::tile
