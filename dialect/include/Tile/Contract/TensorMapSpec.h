//===- TensorMapSpec.h - building and serializing tensor-map specs -*- C++ -*-===//
//
// The one place a #tile.tensor_map_spec is made (from a verified copy) and
// the one place it becomes the manifest's JSON (docs/tensor-map-spec.md).
//
//===----------------------------------------------------------------------===//
#ifndef TILE_TENSORMAPSPEC_H
#define TILE_TENSORMAPSPEC_H

#include "Tile/IR/TileOps.h"

#include "llvm/Support/JSON.h"

#include <string>

namespace mlir::tile {

/// The spec of the tensor map `op` (a verified copy with a memref global)
/// reads, for kernel argument `source`; `param` and `llvm_param` unset. On
/// an inconsistency emits an error on `op` and returns null.
TensorMapSpecAttr buildTensorMapSpec(TmaCopyOp op, unsigned source);
/// The spec of the template map a verified tile.tensormap_derive with a
/// memref template reads (a tiled map of its template fields).
TensorMapSpecAttr buildTensorMapSpec(TensorMapDeriveOp op, unsigned source);

/// The manifest's tensor-map entry: one key per set field, enums by name.
llvm::json::Object tensorMapSpecToJSON(TensorMapSpecAttr spec);

/// The inverse of tensorMapSpecToJSON (for tools that hold a manifest and
/// need the attribute); null with `error` set when `json` is no valid spec.
TensorMapSpecAttr tensorMapSpecFromJSON(MLIRContext *context,
                                        const llvm::json::Value &json,
                                        std::string &error);

} // namespace mlir::tile

#endif // TILE_TENSORMAPSPEC_H
