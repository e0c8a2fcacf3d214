//===- TileDialect.cpp - the tile dialect ---------------------------------===//

#include "Tile/IR/TileDialect.h"
#include "Tile/IR/TileOps.h"

#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::tile;

#include "Tile/IR/TileOpsDialect.cpp.inc"
#include "Tile/IR/TileEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "Tile/IR/TileAttrs.cpp.inc"

void TileDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "Tile/IR/TileAttrs.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "Tile/IR/TileOps.cpp.inc"
      >();
}

Operation *TileDialect::materializeConstant(OpBuilder &builder, Attribute value,
                                            Type type, Location loc) {
  auto typed = dyn_cast<TypedAttr>(value);
  if (!typed || !isa<IntegerType>(type))
    return nullptr;
  return arith::ConstantOp::create(builder, loc, type, typed);
}
