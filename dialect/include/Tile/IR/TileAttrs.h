//===- TileAttrs.h - the tensor-map spec attribute ----------------*- C++ -*-===//
#ifndef TILE_TILEATTRS_H
#define TILE_TILEATTRS_H

#include "mlir/IR/Attributes.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/SmallVector.h"

#include "Tile/IR/TileDialect.h"
#include "Tile/IR/TileEnums.h.inc"

namespace mlir::tile {
/// `[a, b, ...]` parameters of #tile.tensor_map_spec.
FailureOr<llvm::SmallVector<int64_t>> parseI64List(AsmParser &parser);
void printI64List(AsmPrinter &printer, llvm::ArrayRef<int64_t> values);
} // namespace mlir::tile

#define GET_ATTRDEF_CLASSES
#include "Tile/IR/TileAttrs.h.inc"

#endif // TILE_TILEATTRS_H
