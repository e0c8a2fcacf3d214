//===- TileDialect.td - the tile dialect -------------------*- tablegen -*-===//
#ifndef TILE_DIALECT_TD
#define TILE_DIALECT_TD

include "mlir/IR/OpBase.td"

def Tile_Dialect : Dialect {
  let name = "tile";
  let cppNamespace = "::mlir::tile";
  let summary = "Verified bulk tensor copies (TMA) for NVIDIA Hopper and Blackwell";
  let description = [{
    The `tile` dialect carries the whole contract of NVIDIA's bulk tensor copy
    engine (`cp.async.bulk.tensor` / `cp.reduce.async.bulk.tensor`) on one op,
    `tile.tma_copy`, verifies it, and lowers it to NVVM plus a tensor-map
    specification from which the host encodes descriptors.
  }];
  let useDefaultAttributePrinterParser = 1;
  // Folded tile.tx_bytes become arith.constant.
  let hasConstantMaterializer = 1;
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::arith::ArithDialect"];
}

class Tile_Op<string mnemonic, list<Trait> traits = []>
    : Op<Tile_Dialect, mnemonic, traits>;

#endif // TILE_DIALECT_TD
