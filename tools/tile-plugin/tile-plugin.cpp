//===- tile-plugin.cpp - tile as an mlir-opt plugin -----------------------===//
//
// mlir-opt --load-dialect-plugin=libTileMLIR.so --load-pass-plugin=... Plugins
// load after option parsing, so name passes through --pass-pipeline.
//
//===----------------------------------------------------------------------===//

#include "mlir/Tools/Plugins/DialectPlugin.h"
#include "mlir/Tools/Plugins/PassPlugin.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/Compiler.h"

#include "Tile/Passes.h"
#include "Tile/IR/TileDialect.h"

extern "C" LLVM_ATTRIBUTE_WEAK mlir::DialectPluginLibraryInfo
mlirGetDialectPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "Tile", LLVM_VERSION_STRING,
          [](mlir::DialectRegistry *registry) {
            registry->insert<mlir::tile::TileDialect>();
          }};
}

extern "C" LLVM_ATTRIBUTE_WEAK mlir::PassPluginLibraryInfo
mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "TilePasses", LLVM_VERSION_STRING,
          []() {
            mlir::tile::registerTilePasses();
            mlir::tile::registerTilePipelines();
          }};
}
