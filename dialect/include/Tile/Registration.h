//===- Registration.h - registering the tile passes ---------------*- C++ -*-===//
#ifndef TILE_REGISTRATION_H
#define TILE_REGISTRATION_H

namespace mlir::tile {
/// Registers every tile pass and pipeline with the global pass registry.
void registerTilePasses();
} // namespace mlir::tile

#endif // TILE_REGISTRATION_H
