//===- TileEnums.td - enums of the TMA contract ------------*- tablegen -*-===//
#ifndef TILE_ENUMS_TD
#define TILE_ENUMS_TD

include "mlir/IR/EnumAttr.td"
include "Tile/IR/TileDialect.td"

def Tile_DirLoad   : I32EnumAttrCase<"load", 0>;
def Tile_DirStore  : I32EnumAttrCase<"store", 1>;
def Tile_DirReduce : I32EnumAttrCase<"reduce", 2>;
// An L2 prefetch of the box (cp.async.bulk.prefetch.tensor): no shared side.
def Tile_DirPrefetch : I32EnumAttrCase<"prefetch", 3>;
def Tile_Direction : I32EnumAttr<"Direction", "TMA transfer direction",
    [Tile_DirLoad, Tile_DirStore, Tile_DirReduce, Tile_DirPrefetch]> {
  let cppNamespace = "::mlir::tile";
  let genSpecializedAttr = 0;
}
def Tile_DirectionAttr : EnumAttr<Tile_Dialect, Tile_Direction, "direction">;

def Tile_ModeTile     : I32EnumAttrCase<"tile", 0>;
def Tile_ModeGather4  : I32EnumAttrCase<"gather4", 1>;
def Tile_ModeScatter4 : I32EnumAttrCase<"scatter4", 2>;
// im2col loads (offsets as runtime operands); the ::w forms are sm_100-only.
def Tile_ModeIm2col     : I32EnumAttrCase<"im2col", 3>;
def Tile_ModeIm2colW    : I32EnumAttrCase<"im2col_w", 4>;
def Tile_ModeIm2colW128 : I32EnumAttrCase<"im2col_w_128", 5>;
// Stores and reductions through an im2col tensor map.
def Tile_ModeIm2colNoOffs : I32EnumAttrCase<"im2col_no_offs", 6>;
def Tile_Mode : I32EnumAttr<"Mode", "TMA addressing mode",
    [Tile_ModeTile, Tile_ModeGather4, Tile_ModeScatter4, Tile_ModeIm2col,
     Tile_ModeIm2colW, Tile_ModeIm2colW128, Tile_ModeIm2colNoOffs]> {
  let cppNamespace = "::mlir::tile";
  let genSpecializedAttr = 0;
}
def Tile_ModeAttr : EnumAttr<Tile_Dialect, Tile_Mode, "mode">;

def Tile_RedAdd : I32EnumAttrCase<"add", 0>;
def Tile_RedMin : I32EnumAttrCase<"min", 1>;
def Tile_RedMax : I32EnumAttrCase<"max", 2>;
def Tile_RedInc : I32EnumAttrCase<"inc", 3>;
def Tile_RedDec : I32EnumAttrCase<"dec", 4>;
def Tile_RedAnd : I32EnumAttrCase<"and_", 5, "and">;
def Tile_RedOr  : I32EnumAttrCase<"or_", 6, "or">;
def Tile_RedXor : I32EnumAttrCase<"xor_", 7, "xor">;
def Tile_Reduction : I32EnumAttr<"Reduction", "reduction operator of a TMA reduce",
    [Tile_RedAdd, Tile_RedMin, Tile_RedMax, Tile_RedInc, Tile_RedDec,
     Tile_RedAnd, Tile_RedOr, Tile_RedXor]> {
  let cppNamespace = "::mlir::tile";
  let genSpecializedAttr = 0;
}
def Tile_ReductionAttr : EnumAttr<Tile_Dialect, Tile_Reduction, "reduction">;

// The tensor-map data types (CUtensorMapDataType). The packed sm_100 forms:
// `float4_e2m1fn` is 16U4_ALIGN16B, `float4_e2m1fn_align8b` 16U4_ALIGN8B and
// `float6_align16b` 16U6_ALIGN16B.
def Tile_FmtU8     : I32EnumAttrCase<"uint8", 0>;
def Tile_FmtU16    : I32EnumAttrCase<"uint16", 1>;
def Tile_FmtU32    : I32EnumAttrCase<"uint32", 2>;
def Tile_FmtI32    : I32EnumAttrCase<"int32", 3>;
def Tile_FmtU64    : I32EnumAttrCase<"uint64", 4>;
def Tile_FmtI64    : I32EnumAttrCase<"int64", 5>;
def Tile_FmtF16    : I32EnumAttrCase<"float16", 6>;
def Tile_FmtF32    : I32EnumAttrCase<"float32", 7>;
def Tile_FmtF64    : I32EnumAttrCase<"float64", 8>;
def Tile_FmtBF16   : I32EnumAttrCase<"bfloat16", 9>;
def Tile_FmtF32Ftz : I32EnumAttrCase<"float32_ftz", 10>;
def Tile_FmtTF32   : I32EnumAttrCase<"tfloat32", 11>;
def Tile_FmtTF32Ftz: I32EnumAttrCase<"tfloat32_ftz", 12>;
def Tile_FmtF4     : I32EnumAttrCase<"float4_e2m1fn", 13>;
def Tile_FmtF4A8   : I32EnumAttrCase<"float4_e2m1fn_align8b", 14>;
def Tile_FmtF6A16  : I32EnumAttrCase<"float6_align16b", 15>;
def Tile_Format : I32EnumAttr<"Format", "tensor-map element format",
    [Tile_FmtU8, Tile_FmtU16, Tile_FmtU32, Tile_FmtI32, Tile_FmtU64,
     Tile_FmtI64, Tile_FmtF16, Tile_FmtF32, Tile_FmtF64, Tile_FmtBF16,
     Tile_FmtF32Ftz, Tile_FmtTF32, Tile_FmtTF32Ftz, Tile_FmtF4, Tile_FmtF4A8,
     Tile_FmtF6A16]> {
  let cppNamespace = "::mlir::tile";
  let genSpecializedAttr = 0;
}
def Tile_FormatAttr : EnumAttr<Tile_Dialect, Tile_Format, "format">;

// The swizzle of a shared image, as tile.tma_copy's `swizzle` field numbers
// it (CUtensorMapSwizzle: DriverEnums.def's TILE_SWIZZLE rows, whose values
// TileOps.cpp checks these cases against). tile.wgmma_descriptor takes it so
// that a descriptor and the copy that filled its tile compare as they are;
// wgmmaSwizzleCode (Tile/Contract/Wgmma.h) maps it to the descriptor's code.
def Tile_SwzNone    : I32EnumAttrCase<"none", 0>;
def Tile_Swz32      : I32EnumAttrCase<"b32", 1>;
def Tile_Swz64      : I32EnumAttrCase<"b64", 2>;
def Tile_Swz128     : I32EnumAttrCase<"b128", 3>;
def Tile_Swz128A32  : I32EnumAttrCase<"b128_atom_32b", 4>;
def Tile_Swz128A32F : I32EnumAttrCase<"b128_atom_32b_flip_8b", 5>;
def Tile_Swz128A64  : I32EnumAttrCase<"b128_atom_64b", 6>;
def Tile_Swizzle : I32EnumAttr<"Swizzle", "swizzle of a shared image (CUtensorMapSwizzle)",
    [Tile_SwzNone, Tile_Swz32, Tile_Swz64, Tile_Swz128, Tile_Swz128A32,
     Tile_Swz128A32F, Tile_Swz128A64]> {
  let cppNamespace = "::mlir::tile";
  let genSpecializedAttr = 0;
}
def Tile_SwizzleAttr : EnumAttr<Tile_Dialect, Tile_Swizzle, "swizzle">;

// Which wgmma operand a matrix descriptor names: A (M x K) or B (N x K).
def Tile_MatrixA : I32EnumAttrCase<"a", 0>;
def Tile_MatrixB : I32EnumAttrCase<"b", 1>;
def Tile_WgmmaMatrix : I32EnumAttr<"WgmmaMatrix", "wgmma operand of a matrix descriptor",
    [Tile_MatrixA, Tile_MatrixB]> {
  let cppNamespace = "::mlir::tile";
  let genSpecializedAttr = 0;
}
def Tile_WgmmaMatrixAttr : EnumAttr<Tile_Dialect, Tile_WgmmaMatrix, "matrix">;

// The contiguous axis of an operand tile in shared memory: K (K-major) or
// M/N (MN-major, the transposed form of f16/bf16 operands).
def Tile_MajorK  : I32EnumAttrCase<"k", 0>;
def Tile_MajorMN : I32EnumAttrCase<"mn", 1>;
def Tile_Major : I32EnumAttr<"Major", "contiguous axis of a wgmma operand tile",
    [Tile_MajorK, Tile_MajorMN]> {
  let cppNamespace = "::mlir::tile";
  let genSpecializedAttr = 0;
}
def Tile_MajorAttr : EnumAttr<Tile_Dialect, Tile_Major, "major">;

#endif // TILE_ENUMS_TD
