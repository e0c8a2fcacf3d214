//===- tile-opt.cpp - the tile dialect's mlir-opt -------------------------===//

#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

#include "Tile/IR/TileDialect.h"
#include "Tile/Passes.h"

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  mlir::tile::registerTilePasses();
  mlir::tile::registerTilePipelines();
  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::NVVM::registerNVVMTargetInterfaceExternalModels(registry);
  mlir::registerAllToLLVMIRTranslations(registry);
  registry.insert<mlir::tile::TileDialect>();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "tile-mlir optimizer driver\n", registry));
}
