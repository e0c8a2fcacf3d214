//===- TileOps.td - tile.tma_copy --------------------------*- tablegen -*-===//
#ifndef TILE_OPS_TD
#define TILE_OPS_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/BuiltinAttributes.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Dialect/LLVMIR/LLVMTypes.td"
include "Tile/IR/TileDialect.td"
include "Tile/IR/TileEnums.td"
include "Tile/IR/TileAttrs.td"

def Tile_SharedPtr : LLVM_PointerInAddressSpace<3>;

def Tile_TmaCopyOp : Tile_Op<"tma_copy", [
    AttrSizedOperandSegments,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "one bulk tensor copy (TMA) with its whole contract";
  let description = [{
    Issues `cp.async.bulk.tensor` (load, store) or `cp.reduce.async.bulk.tensor`
    (reduce) once per repeat slot of the shared buffer. The opcode part
    (direction, reduction operator, mode, rank, destination space, multicast,
    cache hint, cta_group) is printed as keywords and also parses from the PTX
    spelling, e.g.
    `"cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes"`.

    Operands: the shared buffer (a static memref in workgroup memory, of the
    identity layout or row-major contiguous at an offset, e.g. one stage of a
    ring, whose shape is the repeat axes followed by the box image; absent
    for `prefetch`, the L2 prefetch of a box), the global operand (a ranked
    memref, or an `!llvm.ptr` to a caller-encoded tensor map whose fields are
    then not inspected), the runtime starting coordinates in outer-to-inner
    order, the four gather4/scatter4 rows, the im2col `offsets` (16-bit: one
    per spatial axis, outer-to-inner, for `im2col`; `wHalo, wOffset` for
    `im2col_w`/`im2col_w_128`), the mbarrier (loads), the multicast CTA mask,
    and the L2 cache policy.

    im2col modes (`im2col`, `im2col_w`, `im2col_w_128` loads and prefetches,
    `im2col_no_offs` stores and reductions) use an im2col tensor map: `box`
    is then the shared image `[pixels_per_column, channels_per_pixel]`, and
    `pixel_box_lower` / `pixel_box_upper` are the bounding-box corners
    (outer-to-inner spatial axes; one W entry each for the `_w` modes).

    Descriptor fields are attributes: `box`, `coord_steps` (one rank-length
    step per repeat axis), `format`, `swizzle` (0..3), `element_strides`,
    `interleave` (0..2), `l2_promotion` (0..3) and `oob_fill` (0..1).
    Every rule of the contract is checked by the verifier; each diagnostic
    starts with the rule's name in brackets (docs/rules.md lists them).

    ```mlir
    tile.tma_copy load tile 2d %smem, %A[%c0, %c0] mbar(%bar)
        {box = array<i64: 8, 16>, coord_steps = [array<i64: 8, 0>]}
        : memref<2x8x16xui32, 3>, memref<16x16xui32>
    ```
  }];

  let arguments = (ins
    Optional<AnyMemRef>:$shared,
    AnyTypeOf<[AnyMemRef, LLVM_AnyPointer]>:$global,
    Variadic<I32>:$coords,
    Variadic<I32>:$rows,
    Variadic<I16>:$offsets,
    Optional<Tile_SharedPtr>:$mbar,
    Optional<I16>:$cta_mask,
    Optional<I64>:$cache_policy,
    Tile_DirectionAttr:$direction,
    Tile_ModeAttr:$mode,
    I32Attr:$rank,
    OptionalAttr<Tile_ReductionAttr>:$reduction,
    UnitAttr:$dst_cluster,
    UnitAttr:$multicast,
    UnitAttr:$cache_hint,
    OptionalAttr<I32Attr>:$cta_group,
    DenseI64ArrayAttr:$box,
    OptionalAttr<ArrayAttr>:$coord_steps,
    OptionalAttr<Tile_FormatAttr>:$format,
    DefaultValuedAttr<I32Attr, "0">:$swizzle,
    OptionalAttr<DenseI64ArrayAttr>:$element_strides,
    DefaultValuedAttr<I32Attr, "0">:$interleave,
    DefaultValuedAttr<I32Attr, "0">:$l2_promotion,
    DefaultValuedAttr<I32Attr, "0">:$oob_fill,
    OptionalAttr<DenseI64ArrayAttr>:$pixel_box_lower,
    OptionalAttr<DenseI64ArrayAttr>:$pixel_box_upper,
    OptionalAttr<StrAttr>:$tag
  );

  let assemblyFormat = [{
    custom<Opcode>($direction, $mode, $rank, $reduction, $dst_cluster,
                   $multicast, $cache_hint, $cta_group)
    custom<Buffers>(ref($direction), $shared, $global) `[` $coords `]`
    (`rows` `[` $rows^ `]`)?
    (`offsets` `[` $offsets^ `]`)?
    (`mbar` `(` $mbar^ `)`)?
    (`cta_mask` `(` $cta_mask^ `)`)?
    (`cache_policy` `(` $cache_policy^ `)`)?
    attr-dict `:` custom<BufferTypes>(ref($direction), type($shared), type($global))
  }];

  let hasVerifier = 1;

  let extraClassDeclaration = [{
    /// The number of instructions this op issues (product of repeat axes).
    int64_t getSlotCount();
    /// Transaction bytes of all slots (payload, never swizzle/fp4 padding).
    int64_t getTransactionBytes();
  }];
}

def Tile_TensorMapOp : Tile_Op<"tensor_map", [
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "host-side tensor map for one kernel parameter (encoded once per launch)";
  let description = [{
    Made by `tile-lower-tma` at each `gpu.launch_func` of a kernel whose
    copies need tensor maps: `spec` is one entry of the kernel's
    `tile.tensor_maps`, `source` the memref passed for its `source`
    argument. The result stands for the 128-byte CUtensorMap passed by value;
    `tile-lower-tma-host` (after the kernels are serialized) replaces it with
    the runtime-rule checks, the spec's `cuTensorMapEncode*` call and the
    map's bytes as the launch operand.

    ```mlir
    %map = tile.tensor_map %A {spec = #tile.tensor_map_spec<...>}
        : memref<16x16xui32> -> !llvm.ptr
    ```
  }];
  let arguments = (ins AnyMemRef:$source, Tile_TensorMapSpecAttr:$spec);
  let results = (outs LLVM_AnyPointer:$map);
  let assemblyFormat = "$source attr-dict `:` type($source) `->` type($map)";
}

def Tile_TxBytesOp : Tile_Op<"tx_bytes", [Pure]> {
  let summary = "transaction bytes of the copies with a tag (for expect_tx)";
  let description = [{
    The bytes an mbarrier phase receives from every `tile.tma_copy` of the
    enclosing function whose `tag` attribute is `tag`: all repeat slots, the
    payload only (never swizzle or packed-fp4 padding). Multicast copies count
    once, since each receiving CTA's barrier gets the whole box. Lowered (and
    folded) to a constant; use it for `nvvm.mbarrier.arrive.expect_tx`.

    ```mlir
    %tx = tile.tx_bytes "stage0" : i32
    nvvm.mbarrier.arrive.expect_tx %bar, %tx : !llvm.ptr<3>, i32
    tile.tma_copy load tile 2d %s, %A[%c0, %c0] mbar(%bar) {box = array<i64: 8, 16>, tag = "stage0"} : ...
    ```
  }];
  let arguments = (ins StrAttr:$tag);
  let results = (outs I32:$bytes);
  let assemblyFormat = "$tag attr-dict `:` type($bytes)";
  let hasVerifier = 1;
  let hasFolder = 1;
  let extraClassDeclaration = [{
    /// The sum over the tagged copies, or nullopt when there is none.
    std::optional<int64_t> computeBytes();
  }];
}

def Tile_PrefetchTensorMapOp : Tile_Op<"prefetch_tensormap"> {
  let summary = "prefetch the tensor maps of tagged copies (prefetch.tensormap)";
  let description = [{
    Brings the descriptor of every distinct tensor map used by the
    `tile.tma_copy` ops with tag `tag` in the enclosing kernel into the
    cache, so the first copy does not wait for the 128-byte map to be
    fetched. Opt-in: place it where one thread runs it early (for example at
    kernel entry under a lane-0 guard). Lowered to `prefetch.tensormap` on
    the generic address of the map parameter (or of the caller's map).

    ```mlir
    tile.prefetch_tensormap "loads"
    ```
  }];
  let arguments = (ins StrAttr:$tag);
  let assemblyFormat = "$tag attr-dict";
  let hasVerifier = 1;
}

def Tile_TensorMapDeriveOp : Tile_Op<"tensormap_derive", [
    AttrSizedOperandSegments,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "a tensor map built on the device from a template (tensormap.replace)";
  let description = [{
    Copies a 128-byte template tensor map, replaces some of its fields and
    publishes the result at `dest` in global memory, with the fences the
    PTX memory model requires between the generic proxy that writes it and
    the tensormap proxy a copy reads it through; the result is `dest` as a
    global pointer, ready for `tile.tma_copy`'s global operand. One thread
    executes it (each executing thread builds its own map: give each its
    own `dest` and `staging`). docs/device-tensor-maps.md describes it.

    The template is a memref argument of the kernel, whose tiled map the
    host encodes from the template fields (`box`, `format`, `swizzle`,
    `element_strides`, `interleave`, `l2_promotion`, `oob_fill`, as on
    `tile.tma_copy`), or an `!llvm.ptr` to a map the caller encoded (its
    fields are then what these attributes declare, not inspected).

    Replacements: runtime or constant operands `new_address` (i64 or a
    pointer), `new_dims` (i32, one per dimension, outer-to-inner) and
    `new_strides` (i64 bytes, one per outer dimension, outer-to-inner);
    constant attributes `new_box`, `new_element_strides` (outer-to-inner),
    `new_format`, `new_swizzle`, `new_interleave`, `new_oob_fill` and
    `new_rank`. With `staging` (128 bytes of shared memory) the fields are
    replaced there and the map is copied to `dest`; without it they are
    replaced in `dest` itself.

    ```mlir
    %map = tile.tensormap_derive %T into %slot staging(%s)
        new_address(%p) new_dims(%rows, %cols) new_strides(%pitch)
        {box = array<i64: 64, 128>}
        : memref<64x128xbf16>, !llvm.ptr<1>, !llvm.ptr<3>, i64 -> !llvm.ptr<1>
    ```
  }];

  let arguments = (ins
    AnyTypeOf<[AnyMemRef, LLVM_AnyPointer]>:$template_map,
    LLVM_AnyPointer:$dest,
    Optional<Tile_SharedPtr>:$staging,
    Optional<AnyTypeOf<[I64, LLVM_AnyPointer]>>:$new_address,
    Variadic<I32>:$new_dims,
    Variadic<I64>:$new_strides,
    OptionalAttr<DenseI64ArrayAttr>:$box,
    OptionalAttr<Tile_FormatAttr>:$format,
    OptionalAttr<I32Attr>:$swizzle,
    OptionalAttr<DenseI64ArrayAttr>:$element_strides,
    OptionalAttr<I32Attr>:$interleave,
    DefaultValuedAttr<I32Attr, "0">:$l2_promotion,
    OptionalAttr<I32Attr>:$oob_fill,
    OptionalAttr<DenseI64ArrayAttr>:$new_box,
    OptionalAttr<DenseI64ArrayAttr>:$new_element_strides,
    OptionalAttr<Tile_FormatAttr>:$new_format,
    OptionalAttr<I32Attr>:$new_swizzle,
    OptionalAttr<I32Attr>:$new_interleave,
    OptionalAttr<I32Attr>:$new_oob_fill,
    OptionalAttr<I32Attr>:$new_rank
  );
  let results = (outs LLVM_PointerInAddressSpace<1>:$map);

  let assemblyFormat = [{
    $template_map `into` $dest (`staging` `(` $staging^ `)`)?
    (`new_address` `(` $new_address^ `:` qualified(type($new_address)) `)`)?
    (`new_dims` `(` $new_dims^ `)`)?
    (`new_strides` `(` $new_strides^ `)`)?
    attr-dict `:` qualified(type($template_map)) `,` qualified(type($dest)) `->` qualified(type($map))
  }];

  let hasVerifier = 1;
}

def Tile_WgmmaDescriptorOp : Tile_Op<"wgmma_descriptor", [Pure]> {
  let summary = "the wgmma matrix descriptor of an operand tile in shared memory";
  let description = [{
    The 64-bit matrix descriptor (sm_90a `wgmma.mma_async`) of one K step of
    an operand tile in `buffer` (a workgroup memref, or an `!llvm.ptr<3>`
    with `element_type`): `matrix` A (`rows` = M = 64) or B (`rows` = N),
    `k` elements of K, `major` the contiguous axis (K, or MN for f16/bf16),
    `swizzle` the shared image's swizzle as `tile.tma_copy` numbers it
    (`#tile<swizzle b128>` is the copy's `swizzle = 3`), `lbo` and `sbo`
    the leading and stride byte offsets, `base_offset` 0..7.

    Step `k_step` (index or integer) starts where the tile's `k_step`-th
    instruction K (32 bytes of the type) starts: 32 bytes into the swizzle
    row per step (K-major, swizzled), two 16-byte core-matrix columns of
    `lbo` apart (K-major, no swizzle), two 8-row groups of K: `sbo` apart
    when swizzled, `lbo` apart without swizzle (MN-major).

    Lowered by `tile-lower-tma` to the integer arithmetic of the value:
    start address >> 4 in bits 0-13, `lbo` >> 4 in 16-29, `sbo` >> 4 in
    32-45, `base_offset` in 49-51 and the swizzle code (0 none, 1 128B,
    2 64B, 3 32B) in 62-63. The verifier checks the fields, the tile's
    shape and span and, where a `tile.tma_copy` load of the same function
    fills the buffer, that the descriptor reads the image the copy wrote
    (docs/rules.md, `wgmma-*`).

    ```mlir
    %d = tile.wgmma_descriptor %a[%step] {matrix = #tile<matrix a>,
        major = #tile<major k>, swizzle = #tile<swizzle b128>, rows = 64,
        k = 64, lbo = 16, sbo = 1024} : memref<64x64xbf16, 3>, index
    ```
  }];
  let arguments = (ins
    AnyTypeOf<[AnyMemRef, Tile_SharedPtr]>:$buffer,
    AnySignlessIntegerOrIndex:$k_step,
    Tile_WgmmaMatrixAttr:$matrix,
    Tile_MajorAttr:$major,
    Tile_SwizzleAttr:$swizzle,
    OptionalAttr<TypeAttr>:$element_type,
    I64Attr:$rows,
    I64Attr:$k,
    I64Attr:$lbo,
    I64Attr:$sbo,
    DefaultValuedAttr<I64Attr, "0">:$base_offset
  );
  let results = (outs I64:$descriptor);
  let assemblyFormat = [{
    $buffer `[` $k_step `]` attr-dict `:` qualified(type($buffer)) `,` type($k_step)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// `element_type`, or the memref's element type.
    Type getTileElementType();
    /// Bytes one K step moves the start address.
    int64_t getStepBytes();
    /// The descriptor's bits other than the start address.
    uint64_t getFieldBits();
    /// Bytes from the buffer's address to the end of the last byte any K
    /// step of the tile reads (its core matrices or swizzled rows laid out by
    /// `lbo` and `sbo`); 0 where the element type has no wgmma size.
    int64_t getTileReadBytes();
  }];
}

#endif // TILE_OPS_TD
