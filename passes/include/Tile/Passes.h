//===- Passes.h - tile passes -------------------------------------*- C++ -*-===//
#ifndef TILE_PASSES_H
#define TILE_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::tile {

#define GEN_PASS_DECL
#include "Tile/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "Tile/Passes.h.inc"

/// Records `tile.dynamic_shared_alignment` on each gpu.module under `root`
/// whose copies use gpu.dynamic_shared_memory (for tile-align-dynamic-shared).
void recordDynamicSharedAlignment(Operation *root);

/// Registers the named pipelines: `tile-to-nvvm`, `tile-to-ptx` (the whole
/// device pipeline) and `tile-host-to-llvm` (passes/lib/Pipelines/Pipeline.cpp).
void registerTilePipelines();

} // namespace mlir::tile

#endif // TILE_PASSES_H
