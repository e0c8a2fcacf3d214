"""The Triton peers of bench/layout.py: for each layout operation the
kernels Triton writes it with (pointer tiles, block pointers,
TensorDescriptor TMA tiles), several block shapes each; bench/layout.py
keeps the fastest that is exact.

Permutations run on the canonical view the planner uses (size-1 axes
dropped, axes that stay adjacent merged: a free view of the same bytes),
as 2-D tiles over two output axes (the output's innermost, and the one the
input's innermost lands on, or the one before it) and a batch of the
others (up to three)."""

from __future__ import annotations

import itertools

import torch
import triton
import triton.language as tl

try:
    from triton.tools.tensor_descriptor import TensorDescriptor
except ImportError:  # an older Triton: pointer and block-pointer kernels only
    TensorDescriptor = None


@triton.jit
def _batch_offsets(pid_b, n1, n2, si0, si1, si2, so0, so1, so2):
    b2 = pid_b % n2
    b1 = (pid_b // n2) % n1
    b0 = pid_b // (n2 * n1)
    return (b0 * si0 + b1 * si1 + b2 * si2).to(tl.int64), \
        (b0 * so0 + b1 * so1 + b2 * so2).to(tl.int64)


@triton.jit
def permute_ptr(x, y, M, N, sim, sin, som, son, n1, n2, si0, si1, si2, so0, so1, so2,
                BM: tl.constexpr, BN: tl.constexpr):
    """y[b, m, n] = x[b, m, n] over strided views (a tile of the two tile axes;
    one program id: tile fastest, then the batch)."""
    tiles = tl.cdiv(M, BM) * tl.cdiv(N, BN)
    pid_mn, pid_b = tl.program_id(0) % tiles, tl.program_id(0) // tiles
    tiles_n = tl.cdiv(N, BN)
    m = (pid_mn // tiles_n) * BM + tl.arange(0, BM)
    n = (pid_mn % tiles_n) * BN + tl.arange(0, BN)
    xo, yo = _batch_offsets(pid_b, n1, n2, si0, si1, si2, so0, so1, so2)
    mask = (m[:, None] < M) & (n[None, :] < N)
    v = tl.load(x + xo + m[:, None].to(tl.int64) * sim + n[None, :].to(tl.int64) * sin,
                mask=mask)
    tl.store(y + yo + m[:, None].to(tl.int64) * som + n[None, :].to(tl.int64) * son, v,
             mask=mask)


@triton.jit
def permute_blockptr(x, y, M, N, sim, sin, som, son, n1, n2, si0, si1, si2, so0, so1, so2,
                     BM: tl.constexpr, BN: tl.constexpr, TRANS: tl.constexpr):
    """The same with block pointers: the input block read in its own order
    (TRANS: the input is contiguous along m) and transposed in registers."""
    tiles = tl.cdiv(M, BM) * tl.cdiv(N, BN)
    pid_mn, pid_b = tl.program_id(0) % tiles, tl.program_id(0) // tiles
    tiles_n = tl.cdiv(N, BN)
    m0 = (pid_mn // tiles_n) * BM
    n0 = (pid_mn % tiles_n) * BN
    xo, yo = _batch_offsets(pid_b, n1, n2, si0, si1, si2, so0, so1, so2)
    if TRANS:
        src = tl.make_block_ptr(x + xo, shape=(N, M), strides=(sin, sim), offsets=(n0, m0),
                                block_shape=(BN, BM), order=(1, 0))
        v = tl.trans(tl.load(src, boundary_check=(0, 1)))
    else:
        src = tl.make_block_ptr(x + xo, shape=(M, N), strides=(sim, sin), offsets=(m0, n0),
                                block_shape=(BM, BN), order=(1, 0))
        v = tl.load(src, boundary_check=(0, 1))
    dst = tl.make_block_ptr(y + yo, shape=(M, N), strides=(som, son), offsets=(m0, n0),
                            block_shape=(BM, BN), order=(1, 0))
    tl.store(dst, v, boundary_check=(0, 1))


@triton.jit
def transpose_desc(in_desc, out_desc, BM: tl.constexpr, BN: tl.constexpr):
    """2-D (or batched, rows folded) TMA transpose: out[n, m] = in[m, n]."""
    m = tl.program_id(0) * BM
    n = tl.program_id(1) * BN
    out_desc.store([n, m], tl.trans(in_desc.load([m, n])))


@triton.jit
def transpose_desc3(in_desc, out_desc, BM: tl.constexpr, BN: tl.constexpr):
    """Batched TMA transpose of (B, M, N) into (B, N, M)."""
    b = tl.program_id(2)
    m = tl.program_id(0) * BM
    n = tl.program_id(1) * BN
    tile = in_desc.load([b, m, n]).reshape(BM, BN)
    out_desc.store([b, n, m], tl.trans(tile).reshape(1, BN, BM))


@triton.jit
def copy_desc3(in_desc, out_desc, BM: tl.constexpr, BN: tl.constexpr):
    """Batched TMA box copy between (B, M, N) views (the permutations that
    keep the innermost axis, seen as a batch of row blocks)."""
    b = tl.program_id(2)
    m = tl.program_id(0) * BM
    n = tl.program_id(1) * BN
    out_desc.store([b, m, n], in_desc.load([b, m, n]))


@triton.jit
def pad_rows(x, y, H, W, Ho, Wo, top, left, value, BH: tl.constexpr, BW: tl.constexpr):
    """y[b, i, j] = x[b, i - top, j - left] inside x, `value` outside."""
    pid_hw, b = tl.program_id(0), tl.program_id(1).to(tl.int64)
    tiles_w = tl.cdiv(Wo, BW)
    i = (pid_hw // tiles_w) * BH + tl.arange(0, BH)
    j = (pid_hw % tiles_w) * BW + tl.arange(0, BW)
    si = i - top
    sj = j - left
    inside = (si[:, None] >= 0) & (si[:, None] < H) & (sj[None, :] >= 0) & (sj[None, :] < W)
    v = tl.load(x + b * H * W + si[:, None] * W + sj[None, :], mask=inside, other=value)
    tl.store(y + b * Ho * Wo + i[:, None] * Wo + j[None, :], v,
             mask=(i[:, None] < Ho) & (j[None, :] < Wo))


@triton.jit
def pad_blockptr(x, y, H, W, Ho, Wo, top, left, BH: tl.constexpr, BW: tl.constexpr):
    """Zero padding through a block pointer's boundary check (offsets before
    the tensor included)."""
    pid_hw, b = tl.program_id(0), tl.program_id(1).to(tl.int64)
    tiles_w = tl.cdiv(Wo, BW)
    i0 = (pid_hw // tiles_w) * BH
    j0 = (pid_hw % tiles_w) * BW
    src = tl.make_block_ptr(x + b * H * W, shape=(H, W), strides=(W, 1),
                            offsets=(i0 - top, j0 - left), block_shape=(BH, BW), order=(1, 0))
    v = tl.load(src, boundary_check=(0, 1), padding_option="zero")
    dst = tl.make_block_ptr(y + b * Ho * Wo, shape=(Ho, Wo), strides=(Wo, 1),
                            offsets=(i0, j0), block_shape=(BH, BW), order=(1, 0))
    tl.store(dst, v, boundary_check=(0, 1))


@triton.jit
def unfold_nchw(x, y, C, H, W, OW, L, KH: tl.constexpr, KW: tl.constexpr,
                SH: tl.constexpr, SW: tl.constexpr, PH: tl.constexpr, PW: tl.constexpr,
                DH: tl.constexpr, DW: tl.constexpr, BLOCK: tl.constexpr):
    """F.unfold: y[n, (c, i, j), l] = x[n, c, oy SH - PH + i DH, ox SW - PW + j DW]."""
    pid_l, row = tl.program_id(0), tl.program_id(1)
    tap = row % (KH * KW)
    plane = (row // (KH * KW)).to(tl.int64)
    i, j = tap // KW, tap % KW
    pos = pid_l * BLOCK + tl.arange(0, BLOCK)
    oy, ox = pos // OW, pos % OW
    iy = oy * SH - PH + i * DH
    ix = ox * SW - PW + j * DW
    ok = (pos < L) & (iy >= 0) & (iy < H) & (ix >= 0) & (ix < W)
    v = tl.load(x + plane * H * W + iy * W + ix, mask=ok, other=0.0)
    tl.store(y + row.to(tl.int64) * L + pos, v, mask=pos < L)


@triton.jit
def unfold_nhwc(x, y, NL, H, W, C, OW, L, KH: tl.constexpr, KW: tl.constexpr,
                SH: tl.constexpr, SW: tl.constexpr, PH: tl.constexpr, PW: tl.constexpr,
                DH: tl.constexpr, DW: tl.constexpr, BP: tl.constexpr, BC: tl.constexpr):
    """Channels-last im2col: y[n l, (i, j, c)] = x[n, oy SH - PH + i DH, ox SW - PW + j DW, c]."""
    pid_p, tap = tl.program_id(0), tl.program_id(1)
    i, j = tap // KW, tap % KW
    g = pid_p * BP + tl.arange(0, BP)
    n = g // L
    l_ = g % L
    oy, ox = l_ // OW, l_ % OW
    iy = oy * SH - PH + i * DH
    ix = ox * SW - PW + j * DW
    ok = (g < NL) & (iy >= 0) & (iy < H) & (ix >= 0) & (ix < W)
    c = tl.arange(0, BC)
    for c0 in range(0, C, BC):
        cc = c0 + c
        src = x + ((n.to(tl.int64) * H + iy) * W + ix)[:, None] * C + cc[None, :]
        v = tl.load(src, mask=ok[:, None] & (cc[None, :] < C), other=0.0)
        dst = y + g.to(tl.int64)[:, None] * (KH * KW * C) + tap * C + cc[None, :]
        tl.store(dst, v, mask=(g[:, None] < NL) & (cc[None, :] < C))


@triton.jit
def permute_desc_102(in_desc, out_desc, BM: tl.constexpr, BN: tl.constexpr):
    """out (B, A, N) = x (A, B, N).permute(1, 0, 2) by TMA boxes."""
    a = tl.program_id(0) * BM
    n = tl.program_id(1) * BN
    b = tl.program_id(2)
    tile = in_desc.load([a, b, n]).reshape(1, BM, BN)
    out_desc.store([b, a, n], tile)


@triton.jit
def permute_desc_0213(in_desc, out_desc, H, BM: tl.constexpr, BN: tl.constexpr):
    """out (N, H, S, D) = x (N, S, H, D).permute(0, 2, 1, 3) by TMA boxes."""
    s = tl.program_id(0) * BM
    d = tl.program_id(1) * BN
    nh = tl.program_id(2)
    n, h = nh // H, nh % H
    tile = in_desc.load([n, s, h, d]).reshape(1, 1, BM, BN)
    out_desc.store([n, h, s, d], tile)


# -- drivers: (name, callable) per variant -------------------------------------

def _batch(shape, in_strides, out_strides, axes):
    """(n1, n2, in strides, out strides) of up to three batch axes."""
    sizes = [shape[a] for a in axes]
    si = [in_strides[a] for a in axes]
    so = [out_strides[a] for a in axes]
    while len(sizes) < 3:
        sizes.insert(0, 1)
        si.insert(0, 0)
        so.insert(0, 0)
    if len(sizes) > 3:
        raise ValueError("more than three batch axes")
    return sizes, si, so


def permute_variants(x: torch.Tensor, canonical, out: torch.Tensor) -> list:
    """Triton kernels for out = x.permute(...) in canonical form
    (canonical.shape/strides/perm; out viewed as canonical.out_shape)."""
    shape, perm = canonical.shape, canonical.perm
    r = len(shape)
    xin = torch.as_strided(x, shape, canonical.strides, x.storage_offset())
    yv = out.view(canonical.out_shape)
    out_shape = canonical.out_shape
    # Output axis j reads input axis perm[j]: the input view in output order.
    in_strides_o = [canonical.strides[p] for p in perm]
    out_strides = list(yv.stride())
    q = perm.index(r - 1)
    u = r - 2 if q == r - 1 else q
    v = r - 1
    batch = [a for a in range(r) if a not in (u, v)]
    sizes, si, so = _batch(out_shape, in_strides_o, out_strides, batch)
    M, N = out_shape[u], out_shape[v]
    n_batch = sizes[0] * sizes[1] * sizes[2]
    trans = in_strides_o[u] == 1 and in_strides_o[v] != 1
    variants = []
    shapes = [(64, 64, 4), (128, 64, 8), (64, 128, 8), (128, 128, 8), (32, 256, 8)]
    if N < 64:   # short output rows: tiles as wide as the rows
        bn = triton.next_power_of_2(N)
        shapes = [(max(16, 4096 // bn), bn, 4), (max(16, 8192 // bn), bn, 8)] + shapes[:2]
    for (bm, bn, warps), kind in itertools.product(shapes, ("ptr", "blockptr")):
        grid = (triton.cdiv(M, bm) * triton.cdiv(N, bn) * n_batch,)
        args = (xin, yv, M, N, in_strides_o[u], in_strides_o[v], out_strides[u],
                out_strides[v], sizes[1], sizes[2], *si, *so)
        if kind == "ptr":
            fn = (lambda g=grid, a=args, bm=bm, bn=bn, w=warps:
                  permute_ptr[g](*a, BM=bm, BN=bn, num_warps=w))
        else:
            fn = (lambda g=grid, a=args, bm=bm, bn=bn, w=warps:
                  permute_blockptr[g](*a, BM=bm, BN=bn, TRANS=trans, num_warps=w))
        variants.append((f"triton {kind} {bm}x{bn} w{warps}", fn))
    variants += _desc_variants(xin, yv, canonical)
    return variants


def _desc_variants(xin, yv, canonical) -> list:
    """TensorDescriptor (TMA) kernels where the canonical form is a batched
    2-D problem: (B, M, N) -> (B, N, M), or a batch of row blocks."""
    if TensorDescriptor is None:
        return []
    shape, perm = canonical.shape, canonical.perm
    out = []
    if perm in ((1, 0), (0, 2, 1)):
        a = xin if len(shape) == 3 else xin.unsqueeze(0)
        o = yv if len(shape) == 3 else yv.unsqueeze(0)
        B, M, N = a.shape
        for bm, bn, warps in ((32, 32, 4), (64, 64, 4), (128, 64, 4), (64, 128, 4)):
            try:
                din = TensorDescriptor.from_tensor(a, [1, bm, bn])
                dout = TensorDescriptor.from_tensor(o, [1, bn, bm])
            except Exception:
                continue
            grid = (triton.cdiv(M, bm), triton.cdiv(N, bn), B)
            out.append((f"triton tma desc {bm}x{bn} w{warps}",
                        lambda g=grid, d=din, e=dout, bm=bm, bn=bn, w=warps:
                        transpose_desc3[g](d, e, BM=bm, BN=bn, num_warps=w)))
    if perm == (1, 0, 2):
        A, B, N = shape
        for bm, bn, warps in ((32, 256, 4), (64, 128, 4), (16, 256, 4), (64, 256, 8)):
            try:
                din = TensorDescriptor.from_tensor(xin, [bm, 1, bn])
                dout = TensorDescriptor.from_tensor(yv, [1, bm, bn])
            except Exception:
                continue
            grid = (triton.cdiv(A, bm), triton.cdiv(N, bn), B)
            out.append((f"triton tma desc {bm}x{bn} w{warps}",
                        lambda g=grid, d=din, e=dout, bm=bm, bn=bn, w=warps:
                        permute_desc_102[g](d, e, BM=bm, BN=bn, num_warps=w)))
    if perm == (0, 2, 1, 3):
        N_, S, H, D = shape
        for bm, bn, warps in ((64, 128, 4), (128, 128, 8), (32, 128, 4)):
            try:
                din = TensorDescriptor.from_tensor(xin, [1, bm, 1, bn])
                dout = TensorDescriptor.from_tensor(yv, [1, 1, bm, bn])
            except Exception:
                continue
            grid = (triton.cdiv(S, bm), triton.cdiv(D, bn), N_ * H)
            out.append((f"triton tma desc {bm}x{bn} w{warps}",
                        lambda g=grid, d=din, e=dout, bm=bm, bn=bn, w=warps:
                        permute_desc_0213[g](d, e, H, BM=bm, BN=bn, num_warps=w)))
    return out


def pad_variants(x3: torch.Tensor, y3: torch.Tensor, top: int, left: int) -> list:
    """Triton pads of a (B, H, W) view into (B, Ho, Wo) (zeros)."""
    B, H, W = x3.shape
    _, Ho, Wo = y3.shape
    variants = []
    for bh, bw, warps in ((8, 256, 4), (16, 256, 8), (32, 128, 8), (4, 512, 4),
                          (16, 512, 8)):
        grid = (triton.cdiv(Ho, bh) * triton.cdiv(Wo, bw), B)
        variants.append((f"triton ptr {bh}x{bw} w{warps}",
                         lambda g=grid, bh=bh, bw=bw, w=warps: pad_rows[g](
                             x3, y3, H, W, Ho, Wo, top, left, 0.0, BH=bh, BW=bw,
                             num_warps=w)))
        variants.append((f"triton blockptr {bh}x{bw} w{warps}",
                         lambda g=grid, bh=bh, bw=bw, w=warps: pad_blockptr[g](
                             x3, y3, H, W, Ho, Wo, top, left, BH=bh, BW=bw,
                             num_warps=w)))
    return variants


def unfold_variants(x, y, spec) -> list:
    (kh, kw), (ph, pw), (sh, sw), (dh, dw) = spec.kernel, spec.padding, spec.stride, \
        spec.dilation
    oh, ow = spec.out_hw
    L = oh * ow
    variants = []
    if spec.layout == "NCHW":
        for block, warps in ((512, 4), (1024, 4), (2048, 8), (4096, 8)):
            grid = (triton.cdiv(L, block), spec.n * spec.c * kh * kw)
            variants.append((f"triton ptr {block} w{warps}",
                             lambda g=grid, b=block, w=warps: unfold_nchw[g](
                                 x, y, spec.c, spec.h, spec.w, ow, L, KH=kh, KW=kw, SH=sh,
                                 SW=sw, PH=ph, PW=pw, DH=dh, DW=dw, BLOCK=b, num_warps=w)))
    else:
        for bp, bc, warps in ((64, 64, 4), (128, 64, 4), (256, 64, 8)):
            grid = (triton.cdiv(spec.n * L, bp), kh * kw)
            variants.append((f"triton ptr {bp}x{bc} w{warps}",
                             lambda g=grid, bp=bp, bc=bc, w=warps: unfold_nhwc[g](
                                 x, y, spec.n * L, spec.h, spec.w, spec.c, ow, L, KH=kh, KW=kw, SH=sh,
                                 SW=sw, PH=ph, PW=pw, DH=dh, DW=dw, BP=bp, BC=bc,
                                 num_warps=w)))
    return variants
