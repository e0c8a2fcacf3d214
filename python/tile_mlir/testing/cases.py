"""The GPU sweep: each case is plain data (no MLIR), shared by the artifact
builder (scripts/build_gpu_artifacts.py) and the GPU tests
(test/gpu/test_sweep.py), which run where MLIR is not installed.

Fields: kind (load, store, reduce, multicast), dtype, gshape (None: a runtime
dimension), box, coords, and optionally element_strides, swizzle, interleave,
oob_fill, format, l2_promotion, cache_hint, reduction, coord_steps + repeat,
cluster (multicast CTAs), dst_cluster, dynamic_strides, runtime_shape.
"""

import numpy as np

from .. import contract

# The sweep's dtypes (the case order follows this tuple), with the format a
# map of each has by default and its element size, from the contract's
# element-type table.
SWEEP_DTYPES = ("uint8", "int8", "uint16", "int16", "float16", "bfloat16",
                "uint32", "int32", "float32", "uint64", "int64", "float64")
NATURAL = {d: contract.DTYPES[d].default_format for d in SWEEP_DTYPES}
ITEMSIZE = {d: np.dtype(contract.DTYPES[d].numpy).itemsize for d in SWEEP_DTYPES}
FLOATS = frozenset(d for d in SWEEP_DTYPES if contract.FORMATS[NATURAL[d]].is_float)


def case(name, kind, dtype, gshape, box, coords, **fields):
    out = {"name": name, "kind": kind, "dtype": dtype, "gshape": list(gshape),
           "box": list(box), "coords": list(coords)}
    out.update(fields)
    return out


def _loads() -> list[dict]:
    cases = []
    # Every dtype, a 2-D box of 32 inner bytes, unaligned coordinates.
    for dtype, size in ITEMSIZE.items():
        inner = 32 // size
        cases.append(case(f"load_dtype_{dtype}", "load", dtype, (40, 96),
                          (8, inner), (5, 2 * inner)))
    # Ranks 1..5.
    cases.append(case("load_rank1", "load", "float32", (300,), (64,), (20,)))
    cases.append(case("load_rank3", "load", "float32", (6, 20, 40), (2, 8, 16), (1, 3, 4)))
    cases.append(case("load_rank4", "load", "float32", (3, 5, 12, 24), (2, 2, 4, 8),
                      (1, 2, 3, 8)))
    cases.append(case("load_rank5", "load", "uint16", (2, 3, 4, 6, 40), (1, 2, 2, 4, 16),
                      (1, 1, 2, 1, 8)))
    # Swizzles: rows that fill the span, and shorter rows padded to it.
    for sw, span in ((1, 32), (2, 64), (3, 128)):
        cases.append(case(f"load_swizzle{sw}_full", "load", "float16", (64, 128),
                          (16, span // 2), (3, 8), swizzle=sw))
        cases.append(case(f"load_swizzle{sw}_padded", "load", "float16", (64, 128),
                          (16, 8), (3, 8), swizzle=sw))
    # Element strides on outer axes.
    cases.append(case("load_element_strides", "load", "float32", (20, 30, 40),
                      (6, 9, 8), (1, 2, 4), element_strides=(2, 3, 1)))
    cases.append(case("load_element_strides_oob", "load", "uint32", (10, 64),
                      (8, 8), (5, 60), element_strides=(3, 1)))
    # Out of bounds: zero fill and NaN fill per float type.
    cases.append(case("load_oob_zero", "load", "uint32", (20, 24), (8, 16), (-3, 16)))
    for dtype, inner in (("float16", 8), ("bfloat16", 8), ("float32", 4), ("float64", 2)):
        cases.append(case(f"load_oob_nan_{dtype}", "load", dtype, (12, 24),
                          (8, inner * 2), (8, 24 - inner), oob_fill=1))
    cases.append(case("load_oob_nan_tf32", "load", "float32", (12, 20), (8, 8),
                      (-2, 16), oob_fill=1, format="tfloat32"))
    # Formats over float32.
    for fmt in ("tfloat32", "tfloat32_ftz", "float32_ftz"):
        cases.append(case(f"load_format_{fmt}", "load", "float32", (32, 64), (16, 32),
                          (3, 8), format=fmt))
    # Interleave 16B and 32B (global axes N, C_slices, W, Ci).
    cases.append(case("load_interleave16", "load", "uint16", (2, 4, 12, 8), (1, 1, 8),
                      (1, 2, 3), interleave=1))
    cases.append(case("load_interleave32", "load", "uint16", (2, 4, 12, 16), (1, 1, 8),
                      (0, 1, 2), interleave=2, swizzle=1))
    cases.append(case("load_interleave32_channels", "load", "uint16", (2, 4, 12, 16),
                      (1, 1, 8), (1, 0, 4), interleave=2, swizzle=1,
                      coord_steps=[[0, 1, 0]], repeat=[3]))
    # Repeat slots whose origins are not aligned to the swizzle period.
    cases.append(case("load_repeat_swizzle_unaligned", "load", "float16", (64, 128),
                      (4, 64), (1, 0), swizzle=3, coord_steps=[[4, 0]], repeat=[3]))
    cases.append(case("load_repeat_2axes", "load", "uint32", (32, 64), (4, 8), (2, 4),
                      coord_steps=[[8, 0], [0, 16]], repeat=[2, 3]))
    # Cache hint, L2 promotion, shared::cluster destination.
    cases.append(case("load_cache_hint", "load", "float32", (32, 64), (8, 16), (4, 8),
                      cache_hint=True))
    for l2 in (1, 2, 3):
        cases.append(case(f"load_l2_promotion{l2}", "load", "float32", (32, 64),
                          (8, 16), (4, 8), l2_promotion=l2))
    cases.append(case("load_dst_cluster", "load", "uint32", (16, 16), (8, 16), (0, 0),
                      dst_cluster=True))
    # Runtime (dynamic) dims, and dims plus padded-row strides.
    cases.append(case("load_dynamic_dims", "load", "float32", (None, None), (8, 16),
                      (9, 28), runtime_shape=[33, 52]))
    cases.append(case("load_dynamic_strides", "load", "float32", (None, None), (8, 16),
                      (9, 28), dynamic_strides=True, runtime_shape=[33, 50],
                      row_pitch=64))
    # Multicast to clusters of 2 and 4.
    for n in (2, 4):
        cases.append(case(f"multicast{n}", "multicast", "uint32", (32, 32), (8, 16),
                          (4, 8), cluster=n, dst_cluster=True))
    return cases


# Every (operator, format) pair of the contract's reduction table (the
# verifier's): the sweep runs them all, each format as the dtype it names.
REDUCTIONS = {op: tuple(d for d in formats if d in ITEMSIZE)
              for op, formats in contract.REDUCTIONS.items()}


def _stores() -> list[dict]:
    cases = [
        case("store_tile", "store", "float32", (20, 40), (8, 16), (3, 4)),
        case("store_oob_dropped", "store", "uint32", (20, 40), (8, 16), (16, 28)),
        case("store_swizzle3", "store", "float16", (32, 128), (8, 64), (5, 8), swizzle=3),
        case("store_repeat", "store", "uint32", (32, 64), (4, 8), (2, 4),
             coord_steps=[[8, 0], [0, 16]], repeat=[2, 3]),
        case("store_cache_hint", "store", "float32", (20, 40), (8, 16), (3, 4),
             cache_hint=True),
    ]
    for op, dtypes in REDUCTIONS.items():
        for dtype in dtypes:
            inner = 32 // ITEMSIZE[dtype]
            cases.append(case(f"reduce_{op}_{dtype}", "reduce", dtype, (24, 40),
                              (8, inner), (3, inner), reduction=op))
    return cases


def _im2col() -> list[dict]:
    """Convolution-style im2col: NWC / NHWC / NDHWC inputs with padding
    (lower corner -pad, upper corner pad - (filter - 1)), filter taps as
    offsets, columns that run past a row, an image and the tensor's end."""
    cases = []

    def conv(name, kind, dtype, gshape, pixels, channels, coords, lower, upper,
             offsets=None, **fields):
        extra = {"offsets": list(offsets)} if offsets is not None else {}
        cases.append(case(name, kind, dtype, gshape, (pixels, channels), coords,
                          mode="im2col" if kind == "load" else "im2col_no_offs",
                          pixel_box_lower=list(lower), pixel_box_upper=list(upper),
                          **extra, **fields))

    # 3x3 filter, pad 1 ("same"): 32 pixels from (n 0, h 3, w 2) cross into n 1.
    conv("im2col_nhwc_pad1", "load", "float16", (2, 6, 6, 32), 32, 32,
         (0, 3, 2, 0), (-1, -1), (-1, -1), offsets=(1, 2))
    # 128-byte pixels, 128B swizzle, the first tap (reads the padding).
    conv("im2col_nhwc_swizzle128", "load", "float16", (2, 5, 7, 64), 64, 64,
         (0, -1, -1, 0), (-1, -1), (-1, -1), offsets=(0, 0), swizzle=3)
    # NDHWC, a channel slice that starts mid-pixel, 64 pixels.
    conv("im2col_ndhwc", "load", "uint8", (2, 3, 4, 5, 32), 64, 16,
         (0, -1, 0, -1, 16), (-1, -1, -1), (-1, -1, -1), offsets=(2, 1, 0))
    # NWC, 5-tap filter, pad 2, stride 2 (element stride on W).
    conv("im2col_nwc_stride2", "load", "float32", (3, 20, 8), 16, 8,
         (0, -2, 0), (-2,), (-2,), offsets=(3,), element_strides=(1, 2, 1))
    # NaN fill of the padding, bfloat16; stride 2 on H and W.
    conv("im2col_nhwc_nan", "load", "bfloat16", (1, 8, 8, 16), 32, 16,
         (0, -1, -1, 0), (-1, -1), (-1, -1), offsets=(0, 1), oob_fill=1,
         element_strides=(1, 2, 2, 1))
    # L2 prefetches (tile and im2col) and a tensor-map prefetch before the load.
    conv("im2col_prefetch", "load", "float16", (2, 6, 6, 32), 32, 32,
         (1, 0, 0, 0), (-1, -1), (-1, -1), offsets=(2, 2), prefetch=True)
    # Stores and reductions back through an im2col map (no offsets).
    conv("im2col_no_offs_store", "store", "float32", (2, 4, 6, 8), 20, 8,
         (0, 1, 0, 0), (0, 0), (-1, -2))
    conv("im2col_no_offs_reduce_add", "reduce", "uint32", (2, 4, 6, 8), 24, 8,
         (0, 2, 1, 0), (0, 0), (0, -1), reduction="add")
    cases.append(case("load_prefetch_tile", "load", "float32", (64, 64), (16, 32),
                      (8, 16), prefetch=True, cache_hint=True))
    return cases


def all_cases() -> list[dict]:
    return _loads() + _stores() + _im2col()
