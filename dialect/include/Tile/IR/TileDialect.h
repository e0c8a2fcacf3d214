//===- TileDialect.h - the tile dialect ---------------------------*- C++ -*-===//
#ifndef TILE_TILEDIALECT_H
#define TILE_TILEDIALECT_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Dialect.h"

#include "Tile/IR/TileOpsDialect.h.inc"

#endif // TILE_TILEDIALECT_H
