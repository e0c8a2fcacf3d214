//===- Registration.cpp - registering the tile passes ---------------------===//

#include "Tile/Registration.h"

void mlir::tile::registerTilePasses() {}
