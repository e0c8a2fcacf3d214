"""The tensor-map spec as the host reads it: one manifest entry, typed.

The compiler decides every field of a kernel's tensor map once, in the
`#tile.tensor_map_spec` attribute (docs/tensor-map-spec.md), and the C++
serializer writes it into the manifest (`tensorMapSpecToJSON`). This class
is the one reader of that JSON on the Python side: the runtime, explain and
the host encoder take its attributes, host decisions included (alignments,
inner-dimension multiple, packing), and decide nothing from a format name.

Pure Python: importable where MLIR is not (the GPU machine's runtime).
"""

from __future__ import annotations

from dataclasses import dataclass, fields

from .contract import ENCODE_FUNCTIONS


@dataclass(frozen=True)
class TensorMapSpec:
    """One `tile.tensor_maps` entry. Arrays are innermost-first tuples, as
    the driver takes them; fields a map does not have are None (or empty)."""

    source: int              # the kernel argument the map describes
    mode: str                # tile, gather4, ..., im2col_no_offs
    encode: str              # tiled | im2col | im2col_wide
    format: str              # uint32, tfloat32, float4_e2m1fn, ...
    data_type: int           # CUtensorMapDataType
    elem_bits: int
    rank: int                # tensorRank
    global_rank: int         # rank of the argument (rank + 1 with interleave)
    box: tuple               # boxDim (im2col: channels, pixels)
    element_strides: tuple
    interleave: int
    swizzle: int
    l2_promotion: int
    oob_fill: int
    bytes: int               # size of the map
    base_alignment: int      # bytes the base address is a multiple of
    stride_alignment: int    # bytes each outer stride is a multiple of
    inner_multiple: int      # elements the inner dimension is a multiple of
    packing: tuple           # (values, bytes) of a host array's innermost axis
    param: int | None = None       # kernel parameter (gpu.func signature)
    llvm_param: int | None = None  # its index in the LLVM/PTX signature
    pixel_box_lower: tuple = ()    # im2col maps only
    pixel_box_upper: tuple = ()
    channels_per_pixel: int | None = None
    pixels_per_column: int | None = None
    wide_mode: int | None = None   # im2col_wide maps only

    @classmethod
    def from_json(cls, entry: dict) -> "TensorMapSpec":
        """Reads a manifest entry; ValueError names unknown or missing keys
        (the C++ serializer and this class disagree)."""
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(entry) - known)
        if unknown:
            raise ValueError(f"tensor-map spec: unknown keys {unknown}")
        values = {key: tuple(value) if isinstance(value, list) else value
                  for key, value in entry.items()}
        try:
            spec = cls(**values)
        except TypeError as err:  # a required key is missing
            raise ValueError(f"tensor-map spec: {err}") from None
        if spec.encode not in ENCODE_FUNCTIONS:
            raise ValueError(f"tensor-map spec: unknown encode {spec.encode!r}")
        return spec

    def to_json(self) -> dict:
        """The manifest entry again (the keys from_json read)."""
        out = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if value is None or value == () and f.default == ():
                continue
            out[f.name] = list(value) if isinstance(value, tuple) else value
        return out

    @property
    def im2col(self) -> bool:
        """An im2col map: `box` is (channels, pixels), no boxDim."""
        return self.encode != "tiled"

    @property
    def encode_function(self) -> str:
        """The driver entry point that encodes the map."""
        return ENCODE_FUNCTIONS[self.encode]


__all__ = ["TensorMapSpec"]
