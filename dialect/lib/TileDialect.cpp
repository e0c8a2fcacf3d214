//===- TileDialect.cpp - the tile dialect ---------------------------------===//

#include "Tile/TileDialect.h"
#include "Tile/TileOps.h"

#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::tile;

#include "Tile/TileOpsDialect.cpp.inc"
#include "Tile/TileEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "Tile/TileAttrs.cpp.inc"

void TileDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "Tile/TileAttrs.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "Tile/TileOps.cpp.inc"
      >();
}

Operation *TileDialect::materializeConstant(OpBuilder &builder, Attribute value,
                                            Type type, Location loc) {
  auto typed = dyn_cast<TypedAttr>(value);
  if (!typed || !isa<IntegerType>(type))
    return nullptr;
  return arith::ConstantOp::create(builder, loc, type, typed);
}
