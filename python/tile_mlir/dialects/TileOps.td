// Binding shim: the generated Python op classes come from the dialect's ODS.
include "Tile/IR/TileOps.td"
