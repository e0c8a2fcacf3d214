//===- TileAttrs.td - the tensor-map spec attribute --------*- tablegen -*-===//
//
// `#tile.tensor_map_spec<...>`: everything the host needs to encode one
// kernel's tensor map, decided once by the compiler (docs/tensor-map-spec.md).
//
//===----------------------------------------------------------------------===//
#ifndef TILE_ATTRS_TD
#define TILE_ATTRS_TD

include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"
include "Tile/IR/TileDialect.td"
include "Tile/IR/TileEnums.td"

// Which driver call encodes a map: cuTensorMapEncodeTiled, ...Im2col
// (modes im2col, im2col_no_offs) or ...Im2colWide (im2col_w, im2col_w_128).
def Tile_EncodeTiled      : I32EnumAttrCase<"tiled", 0>;
def Tile_EncodeIm2col     : I32EnumAttrCase<"im2col", 1>;
def Tile_EncodeIm2colWide : I32EnumAttrCase<"im2col_wide", 2>;
def Tile_EncodeKind : I32EnumAttr<"EncodeKind",
    "the cuTensorMapEncode* call of a tensor map",
    [Tile_EncodeTiled, Tile_EncodeIm2col, Tile_EncodeIm2colWide]> {
  let cppNamespace = "::mlir::tile";
  let genSpecializedAttr = 0;
}

// `[a, b, ...]`: the driver's innermost-first arrays.
class Tile_I64ListParameter<string desc>
    : ArrayRefParameter<"int64_t", desc> {
  let parser = [{ ::mlir::tile::parseI64List($_parser) }];
  let printer = [{ ::mlir::tile::printI64List($_printer, $_self) }];
}
class Tile_OptionalI64ListParameter<string desc>
    : OptionalArrayRefParameter<"int64_t", desc> {
  let parser = [{ ::mlir::tile::parseI64List($_parser) }];
  let printer = [{ ::mlir::tile::printI64List($_printer, $_self) }];
}
class Tile_OptionalI64Parameter<string desc>
    : OptionalParameter<"std::optional<int64_t>", desc> {
  let printer = [{ $_printer << *$_self }];
}

def Tile_TensorMapSpecAttr : AttrDef<Tile_Dialect, "TensorMapSpec"> {
  let mnemonic = "tensor_map_spec";
  let summary = "the host's whole view of one kernel tensor-map parameter";
  let description = [{
    Made by `tile-lower-tma` from a verified `tile.tma_copy` (one per distinct
    descriptor of a kernel, in `tile.tensor_maps` and on each
    `tile.tensor_map`), completed by `tile-finalize-tensor-maps`
    (`llvm_param`), read by `tile-lower-tma-host` and, as JSON, by the Python
    runtime and explain. Arrays are innermost-first, as the driver takes
    them. Besides the descriptor fields it records the host's decisions
    (alignments, inner-dimension multiple, packing of a host array's
    innermost axis), so no reader derives anything from the format.

    ```mlir
    #tile.tensor_map_spec<param = 2, source = 0, mode = tile, encode = tiled,
        format = uint32, data_type = 2, elem_bits = 32, rank = 2,
        global_rank = 2, box = [16, 8], element_strides = [1, 1],
        interleave = 0, swizzle = 0, l2_promotion = 0, oob_fill = 0,
        bytes = 128, base_alignment = 16, stride_alignment = 16,
        inner_multiple = 1, packing = [1, 1]>
    ```
  }];
  let parameters = (ins
    // Kernel parameter of the map (gpu.func signature; set by tile-lower-tma
    // once the descriptor has its parameter) and its flattened LLVM index
    // (set by tile-finalize-tensor-maps).
    Tile_OptionalI64Parameter<"tensor-map parameter index">:$param,
    Tile_OptionalI64Parameter<"index in the LLVM/PTX signature">:$llvm_param,
    "int64_t":$source,
    EnumParameter<Tile_Mode>:$mode,
    EnumParameter<Tile_EncodeKind>:$encode,
    EnumParameter<Tile_Format>:$format,
    "int64_t":$data_type,
    "int64_t":$elem_bits,
    "int64_t":$rank,
    "int64_t":$global_rank,
    Tile_I64ListParameter<"boxDim (im2col: channels, pixels)">:$box,
    Tile_I64ListParameter<"elementStrides">:$element_strides,
    "int64_t":$interleave,
    "int64_t":$swizzle,
    "int64_t":$l2_promotion,
    "int64_t":$oob_fill,
    "int64_t":$bytes,
    // im2col maps only.
    Tile_OptionalI64ListParameter<"pixel-box lower corner">:$pixel_box_lower,
    Tile_OptionalI64ListParameter<"pixel-box upper corner">:$pixel_box_upper,
    Tile_OptionalI64Parameter<"channelsPerPixel">:$channels_per_pixel,
    Tile_OptionalI64Parameter<"pixelsPerColumn">:$pixels_per_column,
    // im2col_wide maps only: CUtensorMapIm2ColWideMode.
    Tile_OptionalI64Parameter<"wide mode">:$wide_mode,
    // The host's decisions.
    "int64_t":$base_alignment,
    "int64_t":$stride_alignment,
    "int64_t":$inner_multiple,
    Tile_I64ListParameter<"(values, bytes) of a host array's innermost axis">:$packing
  );
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The same spec with its kernel parameter index set.
    TensorMapSpecAttr withParam(int64_t param) const;
    /// The same spec with its flattened LLVM parameter index set.
    TensorMapSpecAttr withLlvmParam(int64_t llvmParam) const;
  }];
}

#endif // TILE_ATTRS_TD
