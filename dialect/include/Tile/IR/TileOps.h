//===- TileOps.h - tile.tma_copy ----------------------------------*- C++ -*-===//
#ifndef TILE_TILEOPS_H
#define TILE_TILEOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "Tile/IR/TileAttrs.h"
#include "Tile/IR/TileDialect.h"

#define GET_OP_CLASSES
#include "Tile/IR/TileOps.h.inc"

#endif // TILE_TILEOPS_H
