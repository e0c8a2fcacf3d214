"""The emulator's im2col modes against hand-computed pixels.

Expected values are written out literally or built by `ref_pixels`, a
direct reading of the PTX ISA's definition (enumerate every filter-base
position of the bounding box image by image, W fastest, then H, D, N; take
pixels_per_column of them from the start position; add the offsets), which
shares no code with the emulator's traversal.

The five tests named `test_published_example_*` reproduce im2col examples
that were run on a Hopper GPU and published with their outputs (Triton's
gluon im2col tutorial): a (1 or 2, 4, 4, 32) float32 NHWC tensor whose pixel
p holds the value p + 1 in all 32 channels, a (16, 32) box, 128B swizzle.
"""

from itertools import product

import numpy as np
import pytest

from tile_mlir import emulator as E

S = 0xA5  # sentinel


def shared(nbytes=4096):
    return np.full(nbytes, S, dtype=np.uint8)


def ref_pixels(shape, coords, lower, upper, offsets, strides, count):
    """[(n, accessed spatial coords)] of `count` pixels, by enumeration."""
    dims = shape[1:-1]
    axes = [range(lo, d - 1 + up + 1, s)
            for lo, d, up, s in zip(lower, dims, upper, strides)]
    positions = [(n, base) for n in range(coords[0], coords[0] + count + 1)
                 for base in product(*axes)]
    start = positions.index((coords[0], tuple(coords[1:-1])))
    return [(n, tuple(b + o for b, o in zip(base, offsets)))
            for n, base in positions[start:start + count]]


def ref_image(g, coords, lower, upper, offsets, strides, ppc, cpp, fill=0):
    """The (ppc, cpp) image by the definition, `fill` outside the tensor."""
    out = np.full((ppc, cpp), fill, dtype=g.dtype)
    pixels = ref_pixels(g.shape, coords, lower, upper, offsets, strides, ppc)
    for k, (n, sp) in enumerate(pixels):
        for j in range(cpp):
            c = coords[-1] + j
            idx = (n,) + sp + (c,)
            if all(0 <= i < d for i, d in zip(idx, g.shape)):
                out[k, j] = g[idx]
    return out


def image(buf, box, fmt, swizzle=0, mode="im2col", offset=0, w_halo=0):
    return E.unswizzled_image(buf, offset, box=box, format=fmt, swizzle=swizzle,
                              mode=mode, w_halo=w_halo)


# --- published hardware-run examples ----------------------------------------------

def pixels_tensor(batches):
    vals = np.arange(1, 16 * batches + 1, dtype=np.float32)
    return np.repeat(vals[:, None], 32, axis=1).reshape(batches, 4, 4, 32)


def run_published(batches, lower, upper, coords, offsets):
    g = pixels_tensor(batches)
    buf = shared(16 * 128)
    E.load(buf, 0, g, box=(16, 32), coords=coords, mode="im2col",
           pixel_box_lower=lower, pixel_box_upper=upper, offsets=offsets, swizzle=3)
    img = image(buf, (16, 32), "float32", swizzle=3)
    # Every channel of a pixel carries the same value.
    assert (img == img[:, :1]).all()
    return img[:, 0].astype(int).tolist()


def test_published_example_1_whole_image():
    assert run_published(1, (0, 0), (0, 0), (0, 0, 0, 0), (0, 0)) == list(range(1, 17))


def test_published_example_2_padding():
    assert run_published(1, (-1, -1), (-1, -1), (0, -1, -1, 0), (0, 0)) == \
        [0, 0, 0, 0, 0, 1, 2, 3, 0, 5, 6, 7, 0, 9, 10, 11]


def test_published_example_3_offsets_shift_the_window():
    assert run_published(1, (-1, -1), (-1, -1), (0, -1, -1, 0), (1, 1)) == \
        list(range(1, 17))


def test_published_example_4_crossing_into_the_next_image():
    assert run_published(2, (0, 0), (0, 0), (0, 1, 3, 0), (0, 0)) == \
        list(range(8, 24))


def test_published_example_5_next_image_restarts_at_the_lower_corner():
    assert run_published(2, (-1, -1), (-1, -1), (0, 1, 2, 0), (0, 0)) == \
        [7, 0, 9, 10, 11, 0, 0, 0, 0, 0, 17, 18, 19, 0, 21, 22]


# --- hand-computed cases ------------------------------------------------------------

def nhwc(n, h, w, c, dtype=np.uint32):
    """Element (n, h, w, c) = 1000 n + 100 h + 10 w + c (+1 so 0 means fill)."""
    a = np.zeros((n, h, w, c), dtype=dtype)
    for idx in np.ndindex(a.shape):
        a[idx] = 1000 * idx[0] + 100 * idx[1] + 10 * idx[2] + idx[3] + 1
    return a


def test_conv3x3_padding_first_tap_literal():
    # 1x3x3 image, 4 channels, pad 1, filter 3x3: lower -1, upper 1 - 2 = -1,
    # so filter bases h, w in -1..1; tap (0, 0): offsets (0, 0).
    g = nhwc(1, 3, 3, 4)
    buf = shared()
    E.load(buf, 0, g, box=(9, 4), coords=(0, -1, -1, 0), pixel_box_lower=(-1, -1),
           pixel_box_upper=(-1, -1), offsets=(0, 0), mode="im2col")
    got = image(buf, (9, 4), "uint32")
    first = [0, 0, 0, 0, 1, 11, 0, 101, 111]     # channel 0 of each pixel
    assert got[:, 0].tolist() == first
    assert got[4].tolist() == [1, 2, 3, 4]
    # Tap (2, 1): offsets (h=2, w=1) read pixel (h+2, w+1).
    E.load(buf, 0, g, box=(9, 4), coords=(0, -1, -1, 0), pixel_box_lower=(-1, -1),
           pixel_box_upper=(-1, -1), offsets=(2, 1), mode="im2col")
    got = image(buf, (9, 4), "uint32")
    assert got[:, 0].tolist() == [101, 111, 121, 201, 211, 221, 0, 0, 0]
    # Only the payload (9 rows x 16 bytes) was written.
    assert (buf[144:] == S).all()


def test_rank3_nwc_traversal_stride_literal():
    # N=2, W=7, C=4 (uint32 -> 16-byte rows). Box W bases -1..5 (lower -1,
    # upper -1), stride 2: bases -1, 1, 3, 5 per image; offset 1.
    g = np.zeros((2, 7, 4), np.uint32)
    for n, w, c in np.ndindex(g.shape):
        g[n, w, c] = 100 * n + 10 * w + c + 1
    buf = shared()
    E.load(buf, 0, g, box=(6, 4), coords=(0, 1, 0), element_strides=(1, 2, 1),
           pixel_box_lower=(-1,), pixel_box_upper=(-1,), offsets=(1,), mode="im2col")
    got = image(buf, (6, 4), "uint32")
    # bases 1, 3, 5 | next image -1, 1, 3 ; accessed w = base + 1.
    assert got[:, 0].tolist() == [21, 41, 61, 101, 121, 141]


def test_channel_window_and_channels_past_the_end():
    g = nhwc(1, 2, 2, 12)
    buf = shared()
    # Channels 8..15 of 12: the last four read zero.
    E.load(buf, 0, g, box=(4, 8), coords=(0, 0, 0, 8), pixel_box_lower=(0, 0),
           pixel_box_upper=(0, 0), offsets=(0, 0), mode="im2col")
    got = image(buf, (4, 8), "uint32")
    assert got[0].tolist() == [9, 10, 11, 12, 0, 0, 0, 0]
    assert got[3].tolist() == [119, 120, 121, 122, 0, 0, 0, 0]


def test_pixels_past_the_last_image_are_filled():
    g = nhwc(1, 2, 2, 4)
    buf = shared()
    E.load(buf, 0, g, box=(6, 4), coords=(0, 1, 0, 0), pixel_box_lower=(0, 0),
           pixel_box_upper=(0, 0), offsets=(0, 0), mode="im2col")
    got = image(buf, (6, 4), "uint32")
    assert got[:, 0].tolist() == [101, 111, 0, 0, 0, 0]


def test_nan_fill_pattern():
    g = np.arange(2 * 2 * 2 * 4, dtype=np.float32).reshape(2, 2, 2, 4)
    buf = shared()
    E.load(buf, 0, g, box=(4, 4), coords=(0, -1, -1, 0), pixel_box_lower=(-1, -1),
           pixel_box_upper=(0, 0), offsets=(0, 0), mode="im2col", oob_fill=1)
    words = image(buf, (4, 4), "float32").view(np.uint32)
    # Bases (h, w) = (-1,-1), (-1,0), (-1,1), (0,-1): all padding.
    assert (words == 0x7FF77FF7).all()
    E.load(buf, 0, g, box=(4, 4), coords=(0, 0, 0, 0), pixel_box_lower=(-1, -1),
           pixel_box_upper=(0, 0), offsets=(0, 0), mode="im2col", oob_fill=1)
    got = image(buf, (4, 4), "float32")
    # (0,0), (0,1), (1,-1) padding, (1,0).
    np.testing.assert_array_equal(got[0], g[0, 0, 0])
    np.testing.assert_array_equal(got[1], g[0, 0, 1])
    assert (got[2].view(np.uint32) == 0x7FF77FF7).all()
    np.testing.assert_array_equal(got[3], g[0, 1, 0])


def test_swizzled_image_bytes():
    # float16, 64 channels = 128-byte rows, 128B swizzle: row r's 16-byte
    # chunk j lies at chunk j ^ (r % 8).
    g = np.arange(1 * 2 * 4 * 64, dtype=np.float16).reshape(1, 2, 4, 64)
    buf = shared(1024)
    E.load(buf, 0, g, box=(8, 64), coords=(0, 0, 0, 0), pixel_box_lower=(0, 0),
           pixel_box_upper=(0, 0), offsets=(0, 0), mode="im2col", swizzle=3)
    halves = buf.view(np.float16)
    # Pixel 5 = (h=1, w=1), channel 8 (chunk 1) -> chunk 1 ^ 5 = 4.
    assert halves[(5 * 128 + 4 * 16) // 2] == g[0, 1, 1, 8]
    # Pixel 3 = (h=0, w=3), channel 63 (chunk 7, last half) -> chunk 4.
    assert halves[(3 * 128 + 4 * 16 + 14) // 2] == g[0, 0, 3, 63]
    np.testing.assert_array_equal(image(buf, (8, 64), "float16", swizzle=3),
                                  g.reshape(8, 64))


def test_short_rows_padded_to_the_swizzle_span():
    g = nhwc(1, 2, 4, 4)                         # 16-byte pixel rows
    buf = shared(8 * 64)
    E.load(buf, 0, g, box=(8, 4), coords=(0, 0, 0, 0), pixel_box_lower=(0, 0),
           pixel_box_upper=(0, 0), offsets=(0, 0), mode="im2col", swizzle=2)
    info = E.box_image((8, 4), format="uint32", swizzle=2, mode="im2col")
    assert info["shape"] == (8, 16) and info["storage_bytes"] == 512
    assert info["payload_bytes"] == 128
    # 64B swizzle: chunk (bits 4..5) ^= bits 7..8. Row 1 (pixel w=1) at 64
    # keeps chunk 0; row 2 (w=2) at 128 moves to chunk 1.
    assert buf[64:80].view(np.uint32).tolist() == [11, 12, 13, 14]
    assert (buf[80:128] == S).all()
    assert buf[128 + 16:128 + 32].view(np.uint32).tolist() == [21, 22, 23, 24]
    assert (buf[128:144] == S).all() and (buf[160:192] == S).all()


def test_ndhwc_rank5_against_the_definition():
    rng = np.random.default_rng(5)
    g = rng.integers(1, 1 << 16, size=(2, 3, 4, 5, 8), dtype=np.uint16)
    buf = shared(8192)
    kw = dict(pixel_box_lower=(-1, -1, 0), pixel_box_upper=(0, -1, -2),
              offsets=(1, 2, 1))
    E.load(buf, 0, g, box=(40, 8), coords=(0, 0, 1, 2, 0), mode="im2col", **kw)
    expect = ref_image(g, (0, 0, 1, 2, 0), kw["pixel_box_lower"],
                       kw["pixel_box_upper"], kw["offsets"], (1, 1, 1), 40, 8)
    np.testing.assert_array_equal(image(buf, (40, 8), "uint16"), expect)


@pytest.mark.parametrize("strides, coords", [
    ((1, 2, 2, 1), (0, -1, -1, 0)),
    ((1, 3, 1, 1), (0, 2, 0, 0)),
    ((1, 1, 2, 1), (1, 0, 3, 4)),
])
def test_traversal_strides_against_the_definition(strides, coords):
    rng = np.random.default_rng(7)
    g = rng.integers(1, 1 << 30, size=(3, 5, 6, 8), dtype=np.uint32)
    lower, upper, offsets = (-1, -1), (0, -1), (1, 0)
    buf = shared(8192)
    E.load(buf, 0, g, box=(20, 4), coords=coords, element_strides=strides,
           mode="im2col", pixel_box_lower=lower, pixel_box_upper=upper,
           offsets=offsets)
    expect = ref_image(g, coords, lower, upper, offsets, strides[1:-1], 20, 4)
    np.testing.assert_array_equal(image(buf, (20, 4), "uint32"), expect)


def test_tf32_applies_to_im2col_loads():
    g = np.full((1, 1, 4, 4), 1.0 + 2.0 ** -20, dtype=np.float32)
    buf = shared()
    E.load(buf, 0, g, box=(4, 4), coords=(0, 0, 0, 0), mode="im2col",
           format="tfloat32", pixel_box_lower=(0, 0), pixel_box_upper=(0, 0),
           offsets=(0, 0))
    assert (image(buf, (4, 4), "float32") == 1.0).all()


# --- box image / transaction bytes -----------------------------------------------------

@pytest.mark.parametrize("kwargs, expected", [
    (dict(box=(64, 32), format="float16", mode="im2col"),
     dict(shape=(64, 32), image_dims=(64, 32), payload_bytes=4096, storage_bytes=4096)),
    # pixels_per_column up to 1024; element strides do not change the count.
    (dict(box=(1024, 8), format="uint16", mode="im2col", element_strides=(1, 2, 2, 1)),
     dict(image_dims=(1024, 8), payload_bytes=16384)),
    (dict(box=(16, 8), format="uint32", mode="im2col", swizzle=3),
     dict(shape=(16, 32), payload_bytes=512, storage_bytes=2048)),
    (dict(box=(16, 64), format="bfloat16", mode="im2col_no_offs", swizzle=3),
     dict(shape=(16, 64), payload_bytes=2048, storage_bytes=2048)),
    (dict(box=(100, 32), format="float16", mode="im2col_w", w_halo=2, swizzle=3),
     dict(image_dims=(102, 32), payload_bytes=102 * 64)),
    # W128: pixels_per_column ignored; four groups of 32 + w_halo pixels.
    (dict(box=(7, 32), format="float16", mode="im2col_w_128", w_halo=2, swizzle=3),
     dict(image_dims=(136, 32), payload_bytes=136 * 64)),
])
def test_box_image_im2col(kwargs, expected):
    got = E.box_image(**kwargs)
    assert {k: got[k] for k in expected} == expected


def test_box_image_im2col_rejects():
    with pytest.raises(ValueError, match="im2col-box"):
        E.box_image((1025, 8), format="uint16", mode="im2col")
    with pytest.raises(ValueError, match="im2col-box"):
        E.box_image((8, 257), format="uint8", mode="im2col")
    with pytest.raises(ValueError, match="im2col-box"):
        E.box_image((1, 8, 8), format="uint16", mode="im2col")
    with pytest.raises(ValueError, match="im2col-offsets"):
        E.box_image((8, 8), format="uint16", mode="im2col_w_128", w_halo=32)


# --- im2col_w / im2col_w_128 (sm_100; modelled, not executed) -----------------------------

def w_tensor():
    # N=2, H=2, W=40, C=8 float16; value = 1000 n + 100 h + w (+1).
    g = np.zeros((2, 2, 40, 8), np.float16)
    for n, h, w in product(range(2), range(2), range(40)):
        g[n, h, w, :] = 1000 * n + 100 * h + w + 1
    return g


def test_im2col_w_row_then_halo_literal():
    g = w_tensor()
    buf = shared(8192)
    # Row h=1 of image 0, W box -1..38 (lower -1, upper -1), start w=-1,
    # 6 pixels + 2 halo, w_offset 0.
    E.load(buf, 0, g, box=(6, 8), coords=(0, 1, -1, 0), mode="im2col_w",
           pixel_box_lower=(-1,), pixel_box_upper=(-1,), offsets=(2, 0), swizzle=3)
    got = image(buf, (6, 8), "float16", swizzle=3, mode="im2col_w", w_halo=2)
    assert got[:, 0].tolist() == [0, 101, 102, 103, 104, 105, 106, 107]


def test_im2col_w_offset_and_stride_literal():
    g = w_tensor()
    buf = shared(8192)
    # Stride 2 from w=-1 with w_offset 1: accessed w = -1+1, 1+1, ... = 0, 2, 4, 6.
    E.load(buf, 0, g, box=(3, 8), coords=(1, 0, -1, 0), mode="im2col_w",
           element_strides=(1, 1, 2, 1), pixel_box_lower=(-1,), pixel_box_upper=(0,),
           offsets=(1, 1), swizzle=3)
    got = image(buf, (3, 8), "float16", swizzle=3, mode="im2col_w", w_halo=1)
    assert got[:, 0].tolist() == [1001, 1003, 1005, 1007]


def test_im2col_w_128_halo_after_every_32_pixels():
    g = np.zeros((1, 1, 300, 8), np.uint16)
    g[0, 0, :, :] = (np.arange(300) + 1)[:, None]
    buf = shared(4 * 34 * 128)
    E.load(buf, 0, g, box=(128, 8), coords=(0, 0, 0, 0), mode="im2col_w_128",
           pixel_box_lower=(0,), pixel_box_upper=(0,), offsets=(2, 0), swizzle=3)
    got = image(buf, (128, 8), "uint16", swizzle=3, mode="im2col_w_128", w_halo=2)
    expected = []
    for grp in range(4):
        expected += list(range(32 * grp + 1, 32 * grp + 33))   # 32 pixels
        expected += [32 * grp + 33, 32 * grp + 34]            # its 2 halo pixels
    assert got[:, 0].tolist() == expected


def test_im2col_w_rules():
    g = w_tensor()
    kw = dict(box=(6, 8), coords=(0, 1, 0, 0), mode="im2col_w",
              pixel_box_lower=(0,), pixel_box_upper=(0,), offsets=(0, 0), swizzle=3)
    E.load(shared(8192), 0, g, **kw)
    with pytest.raises(ValueError, match="im2col-w-swizzle"):
        E.load(shared(8192), 0, g, **{**kw, "swizzle": 0})
    with pytest.raises(ValueError, match="im2col-w-swizzle"):
        E.load(shared(8192), 0, g, **{**kw, "swizzle": 5})
    with pytest.raises(ValueError, match="im2col-offsets"):
        E.load(shared(8192), 0, g, **{**kw, "offsets": (0, 32)})
    with pytest.raises(ValueError, match="im2col-offsets"):
        E.load(shared(8192), 0, g, **{**kw, "offsets": (512, 0)})
    with pytest.raises(ValueError, match="im2col-offsets"):
        E.load(shared(8192), 0, g, **{**kw, "offsets": (0,)})
    with pytest.raises(ValueError, match="im2col-corners"):
        E.load(shared(8192), 0, g, **{**kw, "pixel_box_lower": (0, 0)})
    # The first pixel may lie left of the box, never right of it.
    E.load(shared(8192), 0, g, **{**kw, "coords": (0, 1, -3, 0)})
    with pytest.raises(ValueError, match="im2col-start"):
        E.load(shared(8192), 0, g, **{**kw, "coords": (0, 1, 40, 0)})


# --- stores and reductions (im2col_no_offs) -----------------------------------------------

def test_store_writes_pixels_in_traversal_order():
    g = np.zeros((2, 2, 3, 4), np.uint32)
    pixels = np.arange(1, 8 * 4 + 1, dtype=np.uint32).reshape(8, 4)
    buf = shared()
    buf[:pixels.nbytes] = pixels.view(np.uint8).ravel()
    # Box bases h 0..1, w 0..2; start (n=0, h=0, w=1): pixels (0,0,1), (0,0,2),
    # (0,1,0), (0,1,1), (0,1,2), (1,0,0), (1,0,1), (1,0,2).
    out = E.store(g, buf, 0, box=(8, 4), coords=(0, 0, 1, 0), mode="im2col_no_offs",
                  pixel_box_lower=(0, 0), pixel_box_upper=(0, 0))
    expect = np.zeros_like(g)
    for k, (n, h, w) in enumerate([(0, 0, 1), (0, 0, 2), (0, 1, 0), (0, 1, 1),
                                   (0, 1, 2), (1, 0, 0), (1, 0, 1), (1, 0, 2)]):
        expect[n, h, w] = pixels[k]
    np.testing.assert_array_equal(out, expect)
    assert (g == 0).all()                                     # input untouched


def test_store_drops_pixels_past_the_last_image_and_channels_past_c():
    g = np.zeros((1, 2, 2, 6), np.float32)
    img = np.arange(1, 6 * 8 + 1, dtype=np.float32).reshape(6, 8)
    buf = shared()
    buf[:img.nbytes] = img.view(np.uint8).ravel()
    out = E.store(g, buf, 0, box=(6, 8), coords=(0, 0, 0, 0), mode="im2col_no_offs",
                  pixel_box_lower=(0, 0), pixel_box_upper=(0, 0))
    np.testing.assert_array_equal(out.reshape(4, 6), img[:4, :6])


def test_store_swizzled_round_trip_against_the_definition():
    rng = np.random.default_rng(11)
    src = rng.integers(0, 1 << 16, size=(2, 4, 5, 64), dtype=np.uint16).view(np.float16)
    buf = shared(8192)
    kw = dict(pixel_box_lower=(1, 0), pixel_box_upper=(0, -1), swizzle=3)
    E.load(buf, 0, src, box=(24, 64), coords=(0, 1, 2, 0), mode="im2col",
           offsets=(0, 0), **kw)
    out = E.store(np.zeros_like(src), buf, 0, box=(24, 64), coords=(0, 1, 2, 0),
                  mode="im2col_no_offs", **kw)
    expect = np.zeros_like(src)
    pixels = ref_pixels(src.shape, (0, 1, 2, 0), (1, 0), (0, -1), (0, 0), (1, 1), 24)
    assert [n for n, _ in pixels].count(2) == 2       # the last two are dropped
    for n, sp in pixels:
        if n < src.shape[0]:
            expect[(n,) + sp] = src[(n,) + sp]
    np.testing.assert_array_equal(out.view(np.uint16), expect.view(np.uint16))


def test_reduce_add_im2col_no_offs():
    g = np.full((1, 1, 4, 4), 10, np.uint32)
    img = np.arange(16, dtype=np.uint32).reshape(4, 4)
    buf = shared()
    buf[:64] = img.view(np.uint8).ravel()
    out = E.store(g, buf, 0, box=(4, 4), coords=(0, 0, 0, 0), mode="im2col_no_offs",
                  pixel_box_lower=(0, 0), pixel_box_upper=(0, 0), reduction="add")
    np.testing.assert_array_equal(out[0, 0], img + 10)
    with pytest.raises(ValueError, match="reduction-dtype"):
        E.store(g.astype(np.float64), shared(), 0, box=(4, 2), coords=(0, 0, 0, 0),
                mode="im2col_no_offs", pixel_box_lower=(0, 0), pixel_box_upper=(0, 0),
                reduction="add")


def test_store_rules():
    g = np.zeros((1, 4, 4, 4), np.uint32)
    kw = dict(box=(4, 4), coords=(0, 0, 0, 0), mode="im2col_no_offs",
              pixel_box_lower=(0, 0), pixel_box_upper=(0, 0))
    with pytest.raises(ValueError, match="im2col-store-box"):
        E.store(g, shared(), 0, **{**kw, "pixel_box_lower": (-1, 0)})
    with pytest.raises(ValueError, match="im2col-store-box"):
        E.store(g, shared(), 0, **{**kw, "pixel_box_upper": (0, 1)})
    with pytest.raises(ValueError, match="store-coords-nonnegative"):
        E.store(g, shared(), 0, **{**kw, "coords": (0, 0, 0, -4)})
    with pytest.raises(ValueError, match="im2col-offsets"):
        E.store(g, shared(), 0, **kw, offsets=(0, 0))
    with pytest.raises(ValueError, match="mode-direction"):
        E.store(g, shared(), 0, **{**kw, "mode": "im2col"})
    with pytest.raises(ValueError, match="mode-direction"):
        E.load(shared(), 0, g, **{**kw, "mode": "im2col_no_offs"})
    with pytest.raises(ValueError, match="swizzle-load-only"):
        E.store(g, shared(), 0, **kw, swizzle=5)


# --- load rules ---------------------------------------------------------------------------

@pytest.mark.parametrize("change, rule", [
    (dict(offsets=(0,)), "im2col-offsets"),
    (dict(offsets=(0, 256)), "im2col-offsets"),          # 4-D offsets are 8-bit
    (dict(offsets=(-1, 0)), "im2col-offsets"),
    (dict(pixel_box_lower=(-129, 0)), "im2col-corners"),  # 4-D corners are 8-bit
    (dict(pixel_box_upper=(0, 128)), "im2col-corners"),
    (dict(pixel_box_upper=(0,)), "im2col-corners"),
    (dict(pixel_box_lower=(0, 5), pixel_box_upper=(0, -4)), "im2col-corners"),
    (dict(coords=(0, 0, 5, 0)), "im2col-start"),
    (dict(coords=(0, -2, 0, 0)), "im2col-start"),
    (dict(coords=(0, 0, 0)), "coords-count"),
    (dict(box=(8, 6)), "box-inner-bytes"),
    (dict(box=(8, 64), swizzle=2), "swizzle-inner-bytes"),
    (dict(element_strides=(2, 1, 1, 1)), "im2col-n-stride"),
    (dict(element_strides=(1, 1, 1, 2)), "element-strides-inner"),
    (dict(element_strides=(1, 9, 1, 1)), "element-strides-range"),
    (dict(interleave=1), "im2col-layout"),
    (dict(oob_fill=1), "oob-fill-float"),
    (dict(mode="tile"), "im2col-corners"),
])
def test_load_rules(change, rule):
    g = np.zeros((2, 4, 5, 64), np.uint32)
    kw = dict(box=(8, 8), coords=(0, 0, 0, 0), mode="im2col",
              pixel_box_lower=(-1, -1), pixel_box_upper=(0, 0), offsets=(0, 0))
    kw.update(change)
    with pytest.raises(ValueError, match=rule):
        E.load(shared(8192), 0, g, **kw)


def test_corner_and_offset_ranges_by_rank():
    g3 = np.zeros((1, 70000, 4), np.uint32)
    E.load(shared(), 0, g3, box=(4, 4), coords=(0, 0, 0), mode="im2col",
           pixel_box_lower=(-32768,), pixel_box_upper=(0,), offsets=(65535,))
    g5 = np.zeros((1, 2, 2, 2, 4), np.uint32)
    E.load(shared(), 0, g5, box=(4, 4), coords=(0, -16, 0, 0, 0), mode="im2col",
           pixel_box_lower=(-16, 0, 0), pixel_box_upper=(15, 0, 0),
           offsets=(31, 0, 0))
    with pytest.raises(ValueError, match="im2col-offsets"):
        E.load(shared(), 0, g5, box=(4, 4), coords=(0, 0, 0, 0, 0), mode="im2col",
               pixel_box_lower=(0, 0, 0), pixel_box_upper=(0, 0, 0),
               offsets=(32, 0, 0))
    with pytest.raises(ValueError, match="im2col-corners"):
        E.load(shared(), 0, g5, box=(4, 4), coords=(0, 0, 0, 0, 0), mode="im2col",
               pixel_box_lower=(-17, 0, 0), pixel_box_upper=(0, 0, 0),
               offsets=(0, 0, 0))
    with pytest.raises(ValueError, match="im2col-rank"):
        E.load(shared(), 0, np.zeros((4, 4), np.uint32), box=(4, 4), coords=(0, 0),
               mode="im2col", pixel_box_lower=(), pixel_box_upper=(), offsets=())


def test_packed_formats_are_not_im2col():
    g = np.zeros((1, 2, 2, 64), np.uint8)
    with pytest.raises(ValueError, match="im2col-layout"):
        E.load(shared(), 0, g, box=(4, 128), coords=(0, 0, 0, 0), mode="im2col",
               format="float4_e2m1fn", pixel_box_lower=(0, 0),
               pixel_box_upper=(0, 0), offsets=(0, 0))


# --- repeat slots and multicast go through the same path ----------------------------------

def test_load_slots_with_a_channel_step():
    g = nhwc(1, 2, 2, 8)
    buf = shared(2 * 128)
    E.load_slots(buf, g, box=(4, 4), coords=(0, 0, 0, 0), coord_steps=((0, 0, 0, 4),),
                 repeat_shape=(2,), mode="im2col", pixel_box_lower=(0, 0),
                 pixel_box_upper=(0, 0), offsets=(0, 0), swizzle=1)
    # Each slot: 4 rows of 16 bytes padded to 32 -> 128 bytes.
    slot0 = image(buf, (4, 4), "uint32", swizzle=1)
    slot1 = image(buf, (4, 4), "uint32", swizzle=1, offset=128)
    assert slot0[:, 0].tolist() == [1, 11, 101, 111]
    assert slot1[:, 0].tolist() == [5, 15, 105, 115]


def test_multicast_im2col():
    g = nhwc(1, 2, 2, 4)
    bufs = [shared(256) for _ in range(2)]
    E.load_multicast(bufs, 0b10, 0, g, box=(4, 4), coords=(0, 0, 0, 0), mode="im2col",
                     pixel_box_lower=(0, 0), pixel_box_upper=(0, 0), offsets=(0, 0))
    assert (bufs[0] == S).all()
    assert image(bufs[1], (4, 4), "uint32")[:, 0].tolist() == [1, 11, 101, 111]
