//===- tile-downstream-lower.cpp - a C++ user of the TileMLIR package -----===//
//
// Registers the tile dialect, its passes and pipelines, parses a .mlir file,
// runs passes on its module and prints the result:
//
//   tile-downstream-lower FILE.mlir [PASSES]
//
// PASSES, a pass list as inside `builtin.module(...)`, defaults to
// `tile-to-nvvm`. Exit status: 0 done, 1 the input failed to parse, verify
// or lower (diagnostics on stderr), 2 bad usage or an unknown pass.
//
//===----------------------------------------------------------------------===//

#include "Tile/IR/TileDialect.h"
#include "Tile/Passes.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/raw_ostream.h"

int main(int argc, char **argv) {
  if (argc < 2 || argc > 3) {
    llvm::errs() << "usage: tile-downstream-lower FILE.mlir [PASSES]\n";
    return 2;
  }
  // The tile pipelines name upstream passes (convert-gpu-to-nvvm, cse, ...),
  // so those must be registered too.
  mlir::registerAllPasses();
  mlir::tile::registerTilePasses();
  mlir::tile::registerTilePipelines();

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  // convert-gpu-to-nvvm lowers the other dialects' ops in a kernel through
  // their ConvertToLLVM interfaces, which are extensions.
  mlir::registerAllExtensions(registry);
  registry.insert<mlir::tile::TileDialect>();
  mlir::MLIRContext context(registry);

  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceFile<mlir::ModuleOp>(argv[1], &context);
  if (!module)
    return 1;

  // The pass list goes straight into the module's pass manager (a
  // `builtin.module(...)` here would nest a second module level).
  mlir::PassManager pm(&context);
  llvm::StringRef passes = argc == 3 ? argv[2] : "tile-to-nvvm";
  if (mlir::failed(mlir::parsePassPipeline(passes, pm, llvm::errs())))
    return 2;
  if (mlir::failed(pm.run(*module)))
    return 1;
  module->print(llvm::outs());
  llvm::outs() << "\n";
  return 0;
}
