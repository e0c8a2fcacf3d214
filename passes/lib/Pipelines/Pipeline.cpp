//===- Pipeline.cpp - the named tile pipelines ----------------------------===//
//
// The device and host pipelines by name, so tile-opt, the mlir-opt plugin
// and Python's PassManager all run the very same passes:
//   tile-to-nvvm       tile IR in gpu.modules to NVVM with finalized maps
//   tile-to-ptx        tile-to-nvvm, then gpu-module-to-binary
// (both take `debug=true`: tile-lower-tma{debug=true}, docs/debug-mode.md)
//   tile-host-to-llvm  host code (after serialization) to the LLVM dialect,
//                      tile.tensor_map ops encoded by tile-lower-tma-host
//
//===----------------------------------------------------------------------===//

#include "Tile/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

namespace {
struct TileToNvvmOptions : public PassPipelineOptions<TileToNvvmOptions> {
  Option<bool> debug{*this, "debug",
                     llvm::cl::desc("a debug build: tile-lower-tma{debug=true} "
                                    "(bounded waits, device rule checks)"),
                     llvm::cl::init(false)};
};

struct TileToPtxOptions : public PassPipelineOptions<TileToPtxOptions> {
  Option<std::string> format{*this, "format",
                             llvm::cl::desc("gpu-module-to-binary format "
                                            "(isa: PTX text, bin: cubin)"),
                             llvm::cl::init("isa")};
  Option<bool> debug{*this, "debug",
                     llvm::cl::desc("a debug build: tile-lower-tma{debug=true} "
                                    "(bounded waits, device rule checks)"),
                     llvm::cl::init(false)};
};

void addPipeline(OpPassManager &pm, StringRef name, StringRef pipeline) {
  if (failed(parsePassPipeline(pipeline, pm, llvm::errs())))
    llvm::report_fatal_error(llvm::Twine(name) + ": invalid pipeline");
}

/// Everything up to and including tile-finalize-tensor-maps: the kernels'
/// `tile.tensor_maps` are final here (what the manifest records).
void buildTileToNvvm(OpPassManager &pm, bool debug) {
  addPipeline(pm, "tile-to-nvvm",
              std::string(debug ? "tile-lower-tma{debug=true}," : "tile-lower-tma,") +
              "gpu.module(expand-strided-metadata,lower-affine,"
              "convert-scf-to-cf,convert-gpu-to-nvvm,"
              "convert-nvvm-to-llvm,canonicalize,cse,"
              "reconcile-unrealized-casts),"
              "tile-align-dynamic-shared,tile-finalize-tensor-maps");
}

void buildTileToPtx(OpPassManager &pm, const TileToPtxOptions &options) {
  buildTileToNvvm(pm, options.debug);
  addPipeline(pm, "tile-to-ptx",
              "gpu-module-to-binary{format=" + options.format.getValue() +
                  "}");
}

/// docs/tensor-map-spec.md, `tile-lower-tma-host`.
void buildTileHostToLlvm(OpPassManager &pm) {
  addPipeline(pm, "tile-host-to-llvm",
              "tile-lower-tma-host,convert-scf-to-cf,gpu-to-llvm,"
              "expand-strided-metadata,finalize-memref-to-llvm,"
              "convert-arith-to-llvm,convert-index-to-llvm,convert-cf-to-llvm,"
              "convert-func-to-llvm,reconcile-unrealized-casts");
}
} // namespace

namespace mlir::tile {
void registerTilePipelines() {
  PassPipelineRegistration<TileToNvvmOptions>(
      "tile-to-nvvm",
      "Lower tile IR in gpu.modules to NVVM and finalize the tensor-map "
      "parameters (no serialization)",
      [](OpPassManager &pm, const TileToNvvmOptions &options) {
        buildTileToNvvm(pm, options.debug);
      });
  PassPipelineRegistration<TileToPtxOptions>(
      "tile-to-ptx",
      "Lower tile IR in gpu.modules to NVVM and serialize (PTX by default)",
      buildTileToPtx);
  PassPipelineRegistration<>(
      "tile-host-to-llvm",
      "Encode the tensor maps on the host and lower host code to the LLVM "
      "dialect (after gpu-module-to-binary)",
      buildTileHostToLlvm);
}
} // namespace mlir::tile
