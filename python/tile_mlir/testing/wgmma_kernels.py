"""Warpgroup MMAs fed by the copy engine: the kernels of the GPU tests
test/gpu/test_wgmma_tma.py and test/gpu/test_wgmma_matrix.py.

`build(config)` builds the kernel of one tile_mlir.testing.wgmma_plan
Config: its threads zero the dynamic shared window, thread 0 loads A and B
with TMA (in a multicast kernel, CTA rank 0 multicasts B to both CTAs of
the cluster and each CTA loads its own 64 rows of A), the warpgroup issues
one wgmma per instruction K step reading the tiles through
`tile.wgmma_descriptor` (`wgmma_tile_descriptor`, so the verifier checks
each descriptor against the copy that filled its tile), and the
accumulator goes to Out (64 x N per CTA, f32 or s32).

`checks=False` builds the same kernel with the unchecked descriptor helper
(`wgmma_descriptor`, the same value from the same fields and the same K
step the op takes): the planted mismatches (wgmma_plan.PLANTS) build only
that way; with checks on the verifier rejects them naming their rule.

`build_wgmma_bf16(n)` is the first kernel of this family: bf16, K-major,
128-byte swizzle, 64 x 64 A, n x 64 B.
"""

from __future__ import annotations

import mlir.ir as ir
from mlir.dialects import arith, gpu, memref, nvvm

from .. import builder as K
from .. import tma
from ..builder.wgmma import epilogue_tile_shape
from . import wgmma_plan as P
from .wgmma_plan import Config

THREADS = P.THREADS
M, K_EXTENT = 64, 64
ROW_BYTES = 128                 # 64 bf16: one swizzle span
SWIZZLE_BYTES = 128             # the descriptor's swizzle, in bytes
SBO = 8 * ROW_BYTES             # one swizzle period: 8 rows
LBO = 16
K_STEP_BYTES = 16 * 2           # k16 of bf16
# N of the kernels test/gpu/test_wgmma_tma.py runs: the smallest, a middle and
# the largest; and N of the one whose scale_d is decided at run time (the
# inline-PTX form of the instruction).
NS = (8, 128, 256)
RUNTIME_SCALE_N = 64


def _opcode(multicast: bool, rank: int) -> str:
    return tma.format_opcode(direction="load", rank=rank, dst_cluster=multicast,
                             multicast=multicast)


def _load(tile: P.Tile, buffer, tensor, row0, bar, multicast: bool, major: str) -> None:
    """The copy filling one tile: a box per slot, rows from `row0`."""
    coords = (row0, 0) if major == "k" else (0, row0)
    extra = {"cta_mask": (1 << P.CLUSTER) - 1} if multicast else {}
    if tile.slot_step is not None:
        extra["coord_steps"] = (tile.slot_step,)
    tma.apply(_opcode(multicast, 2), buffer, tensor, box=tile.box, coords=coords,
              mbar=bar, swizzle=tile.copy_swizzle, tag="ab", **extra)


def _ranked_view(shape, dtype: str, offset: int, rank, shift: int) -> K.Buffer:
    """A view of the dynamic window at `offset` + rank x `shift` bytes (a
    plant's rank-dependent address; the zeroed window covers it)."""
    workgroup = ir.Attribute.parse("#gpu.address_space<workgroup>")
    raw = gpu.dynamic_shared_memory(
        ir.MemRefType.get([ir.ShapedType.get_dynamic_size()],
                          ir.IntegerType.get_signless(8), memory_space=workgroup))
    at = K.Expr.of(rank * shift + offset)
    return K.Buffer(memref.view(ir.MemRefType.get(list(shape), K.element_type(dtype),
                                                  memory_space=workgroup), raw, at, []))


def _read_buffer(p: P.Plan, tile: P.Tile, buffer, dtype: str, rank):
    """The buffer a tile's descriptors read: the copy's, unless a plant moves
    the descriptor (desc_shift; B by rank_shift per CTA rank)."""
    if tile.role == "B" and p.rank_shift:
        return _ranked_view(tile.shape, dtype, tile.desc_offset, rank, p.rank_shift)
    if p.read_type is not None:
        # The same bytes viewed as the type the wgmmas read.
        return K.dynamic_shared(tile.shape, P.TYPES[p.read_type][0], tile.desc_offset)
    if tile.desc_shift:
        return K.dynamic_shared(tile.shape, dtype, tile.desc_offset)
    return buffer


def _descriptor(p: P.Plan, tile: P.Tile, buffer, step: int, checks: bool):
    """Tile `tile`'s descriptor of K step `step`: the op, or (checks off)
    the same fields through the unchecked helper."""
    span = P.SPANS[tile.desc_swizzle]
    if checks:
        return K.wgmma_tile_descriptor(
            buffer, step, matrix=tile.role.lower(), rows=tile.rows, k=p.k, lbo=tile.lbo,
            sbo=tile.sbo, swizzle=tile.desc_swizzle, major=p.config.major,
            base_offset=tile.base_offset)
    return K.wgmma_descriptor(buffer, lbo=tile.lbo, sbo=tile.sbo, swizzle=span,
                              base_offset=tile.base_offset,
                              offset=step * p.step_bytes(tile))


def _zero_window(p: P.Plan, tid, threads: int = THREADS) -> None:
    """Zeroes the dynamic window, so what no load writes reads as 0, and
    orders those writes before the copy engine's and the tensor core's."""
    words = K.dynamic_shared((p.window // 4,), "i32", 0)
    zero = arith.constant(ir.IntegerType.get_signless(32), 0)
    for i in K.range_(tid, p.window // 4, threads):
        words[i] = zero
    K.fence_proxy_async_shared_cta()


def _scale(k: int, runtime_scale: bool):
    """scale_d of the k-th wgmma: D = A*B first, D += A*B after; at run
    time (block 0: the same, decided by an i1) when `runtime_scale`."""
    if not runtime_scale:
        return k > 0
    return (K.block_id() == 0) if k > 0 else (K.block_id() != 0)


def _mma(p: P.Plan, a_tile, b_tile, checks: bool, runtime_scale: bool):
    cfg = p.config
    ptx = p.read_dtype
    acc = K.wgmma_accumulator(cfg.n, P.TYPES[ptx][2])
    K.wgmma_fence()
    mn = p.instruction_major == "mn"
    for index, step in enumerate(p.steps):
        a = _descriptor(p, p.a, a_tile, step, checks)
        b = _descriptor(p, p.b, b_tile, step, checks)
        acc = K.wgmma(acc, a, b, ptx, scale_d=_scale(index, runtime_scale),
                      trans_a=mn, trans_b=mn)
    K.wgmma_commit_group()
    (acc,) = K.wgmma_wait_group(0, acc)
    return acc


def build(cfg: Config, checks: bool = True, runtime_scale: bool = False,
          name: str | None = None) -> K.KernelDef:
    """The kernel of `cfg` (module docstring); `name` defaults to cfg.name."""
    p = P.plan(cfg)
    dtype = P.TYPES[cfg.dtype][0]
    out_type = "i32" if P.TYPES[cfg.dtype][2] == "s32" else "float32"
    ctas = P.CLUSTER if cfg.multicast else 1

    def body(A, B, Out):
        tid = K.thread_id()
        bar = K.alloc_shared((1,), "uint64", align=8).ptr_to([0])
        _zero_window(p, tid)
        a_tile = K.dynamic_shared(p.a.shape, dtype, p.a.offset)
        b_tile = K.dynamic_shared(p.b.shape, dtype, p.b.offset)
        rank = K.cluster_ctarank() if cfg.multicast else 0
        with K.if_(tid == 0):
            K.mbarrier_init(bar, 1)
        if cfg.multicast:
            # Rank 0's copy completes the other CTA's barrier: its
            # initialisation must be visible cluster-wide first.
            K.fence_mbarrier_init_cluster()
            K.cluster_sync()
        else:
            K.cta_sync()
        with K.if_(tid == 0):
            K.mbarrier_arrive_expect_tx(bar, tma.tx_bytes("ab"))
            _load(p.a, a_tile, A, rank * M if cfg.multicast else 0, bar, False, cfg.major)
            if p.pin is not None:
                pin = K.dynamic_shared(P.PIN_BOX, dtype, p.pin)
                tma.apply(_opcode(False, 2), pin, A, box=P.PIN_BOX, coords=(0, 0), mbar=bar,
                          swizzle=3, tag="ab")
            if cfg.multicast:
                with K.if_(rank == 0):
                    _load(p.b, b_tile, B, 0, bar, True, cfg.major)
            else:
                _load(p.b, b_tile, B, 0, bar, False, cfg.major)
        if p.wait_before_mma:
            K.mbarrier_wait(bar, 0)
        acc = _mma(p, _read_buffer(p, p.a, a_tile, dtype, rank),
                   _read_buffer(p, p.b, b_tile, dtype, rank), checks, runtime_scale)
        if not p.wait_before_mma:
            K.mbarrier_wait(bar, 0)   # the CTA still waits for its loads before it exits
        registers = acc.registers()
        for i in range(acc.size):
            row, col = acc.coords(i)
            Out[row + rank * M if cfg.multicast else row, col] = registers[i]
        if cfg.multicast:
            K.cluster_sync()    # no CTA leaves while the cluster still works

    return K.KernelDef(body, grid=ctas, block=THREADS, cluster=ctas if cfg.multicast else None,
                       name=name or cfg.name, params=[
                           ("A", K.Tensor(p.global_shape("A"), dtype)),
                           ("B", K.Tensor(p.global_shape("B"), dtype)),
                           ("Out", K.Tensor((M * ctas, cfg.n), out_type))])


def build_wgmma_bf16(n: int, runtime_scale: bool = False) -> K.KernelDef:
    """Out (64 x n, f32) = A (64 x 64, bf16) @ B (n x 64, bf16).T with TMA
    loads (128-byte swizzle) and four bf16 wgmmas of one warpgroup.
    `runtime_scale`: each wgmma's scale_d is an i1 computed at run time
    (block 0: false for the first step, true after), not a constant."""
    name = f"wgmma_bf16_n{n}" + ("_runtime_scale" if runtime_scale else "")
    return build(Config("bf16", 3, "k", n), runtime_scale=runtime_scale, name=name)


# The debug build's read check (docs/debug-mode.md, "Checked reads"): the
# kernel of test/gpu/test_debug_mode.py's wgmma cases.
ROUNDS = 3
ROUNDS_CONFIG = Config("bf16", 3, "k", 64)


def build_rounds() -> K.KernelDef:
    """Out (64 x 64, f32) = ROUNDS x A @ B.T: B (64 x 64 bf16, 128B) is
    loaded once, A is loaded again each round on the same mbarrier, then
    the warpgroup (warps 0-3) waits on barrier W[0] (0: the loads'
    barrier; 1: a second barrier thread 0 arrives on each round) for phase
    parity Par[r] and accumulates A @ B.T. The loads' barrier also counts
    one arrival of warp 4, made Delay[0] ns after the round's issue: a slow
    producer, so a phase cannot complete sooner. Correct: W = 0, Par = 0,
    1, 0 (round 2 checks B's image of an earlier phase of the same parity:
    its generation tells them apart). The faults come from runtime values
    the verifier cannot see: W = 1 waits on the wrong barrier, a repeated
    parity on a phase already past; in both the wgmma reads A while its
    phase is still open. A CTA barrier after each round's issue keeps every
    thread's check after the load's record."""
    p = P.plan(ROUNDS_CONFIG)
    dtype = P.TYPES["bf16"][0]
    a_bytes = p.a.rows * p.k * p.element_bytes
    b_bytes = p.b.rows * p.k * p.element_bytes

    def body(A, B, Par, W, Delay, Out):
        i64 = ir.IntegerType.get_signless(64)
        tid = K.thread_id()
        bars = K.alloc_shared((2,), "uint64", align=8)
        loads, other = bars.ptr_to([0]), bars.ptr_to([1])
        _zero_window(p, tid, threads=THREADS + 32)
        a_tile = K.dynamic_shared(p.a.shape, dtype, p.a.offset)
        b_tile = K.dynamic_shared(p.b.shape, dtype, p.b.offset)
        with K.if_(tid == 0):
            K.mbarrier_init(loads, 2)
            K.mbarrier_init(other, 1)
        K.cta_sync()
        which = arith.index_cast(ir.IndexType.get(), K.Expr.of(W[0]))
        waited = bars.ptr_to([K.Expr(which)])
        # Both roles pass the same CTA barriers, round by round.
        with K.warp_role(0):
            acc = K.wgmma_accumulator(p.config.n, "f32")
            for r in range(ROUNDS):
                with K.if_(tid == 0):
                    K.mbarrier_arrive_expect_tx(loads,
                                                a_bytes + (b_bytes if r == 0 else 0))
                    _load(p.a, a_tile, A, 0, loads, False, "k")
                    if r == 0:
                        _load(p.b, b_tile, B, 0, loads, False, "k")
                    K.mbarrier_arrive(other)
                K.cta_sync()
                K.mbarrier_wait(waited, Par[r])
                K.wgmma_fence()
                for index, step in enumerate(p.steps):
                    a = _descriptor(p, p.a, a_tile, step, checks=True)
                    b = _descriptor(p, p.b, b_tile, step, checks=True)
                    acc = K.wgmma(acc, a, b, "bf16", scale_d=r > 0 or index > 0)
                K.wgmma_commit_group()
                (acc,) = K.wgmma_wait_group(0, acc)
                # The next round's load overwrites A: every read of it is done.
                K.cta_sync()
            # No thread leaves while the last loads may still land.
            K.mbarrier_wait(loads, (ROUNDS - 1) % 2)
            registers = acc.registers()
            for i in range(acc.size):
                row, col = acc.coords(i)
                Out[row, col] = registers[i]
        with K.warp_role(1):
            for r in range(ROUNDS):
                K.cta_sync()
                with K.if_(tid == THREADS):
                    # The slow producer's arrival, Delay[0] ns after the issue.
                    start = nvvm.read_ptx_sreg_globaltimer(i64)
                    until = arith.addi(start, arith.extui(i64, K.Expr.of(Delay[0])))
                    K.while_carried([], [], lambda _: arith.cmpi(
                        arith.CmpIPredicate.ult, nvvm.read_ptx_sreg_globaltimer(i64),
                        until), lambda _: [])
                    K.mbarrier_arrive(loads)
                K.cta_sync()

    return K.KernelDef(body, grid=1, block=THREADS + 32, name="debug_wgmma_rounds", params=[
        ("A", K.Tensor(p.global_shape("A"), dtype)),
        ("B", K.Tensor(p.global_shape("B"), dtype)),
        ("Par", K.Tensor((ROUNDS,), "i32")), ("W", K.Tensor((1,), "i32")),
        ("Delay", K.Tensor((1,), "i32")),
        ("Out", K.Tensor((P.M, p.config.n), "float32"))])


# A in registers and the stmatrix epilogue (test/gpu/test_wgmma_tma.py).
EPILOGUE_N = 64
STORE = tma.format_opcode(direction="store", rank=2)


def build_registers_epilogue() -> K.KernelDef:
    """Out (64 x 64, bf16) = A (64 x 64) @ B (64 x 64).T, bf16 inputs: A
    in registers, each thread loading its share of every k16 step from
    A2 (A's bf16 pairs as 32-bit words, 64 x 32) in the wgmma fragment
    layout (that of a 64 x 16 accumulator: register j holds elements 2j
    and 2j + 1); B loaded by TMA (128B swizzle) and read through
    tile.wgmma_descriptor; the accumulator stored to shared memory by
    wgmma_store_accumulator (stmatrix) and to Out by a TMA store."""
    return _registers_epilogue("bf16", "f32", EPILOGUE_N, 0, "wgmma_registers_epilogue")


# The swizzled epilogues (test/gpu/test_wgmma_tma.py): input type (bf16 with
# an f32 accumulator, f16 with an f16 one) x the TMA store's swizzle (2 64B,
# 3 128B), N = SWIZZLED_EPILOGUE_N: two 128B blocks, four 64B ones.
SWIZZLED_EPILOGUE_N = 128
SWIZZLED_EPILOGUES = tuple((dtype, swizzle) for dtype in ("bf16", "f16") for swizzle in (3, 2))


def swizzled_epilogue_name(dtype: str, swizzle: int) -> str:
    return f"wgmma_registers_epilogue_{dtype}_swizzle{P.SPANS[swizzle]}"


def build_swizzled_epilogue(dtype: str, swizzle: int) -> K.KernelDef:
    """build_registers_epilogue with N = SWIZZLED_EPILOGUE_N, `dtype` inputs
    and output ("bf16": f32 accumulator, rounded by the epilogue; "f16": f16
    accumulator, stored as it is), the accumulator stored by
    wgmma_store_accumulator(swizzle=`swizzle`) in the image of TMA stores of
    that swizzle, one per block of span / 2 columns."""
    acc = {"bf16": "f32", "f16": "f16"}[dtype]
    return _registers_epilogue(dtype, acc, SWIZZLED_EPILOGUE_N, swizzle,
                               swizzled_epilogue_name(dtype, swizzle))


def _registers_epilogue(ptx: str, acc_type: str, n: int, swizzle: int,
                        name: str) -> K.KernelDef:
    cfg = Config(ptx, 3, "k", n)
    p = P.plan(cfg)
    dtype = P.TYPES[ptx][0]
    steps = p.k // 16
    width = P.SPANS[swizzle] // 2 if swizzle else n    # columns of one stored box
    row_bytes = width * p.element_bytes
    assert n % width == 0, "whole blocks: one TMA store box each"

    def body(A2, B, Out):
        tid = K.thread_id()
        bar = K.alloc_shared((1,), "uint64", align=8).ptr_to([0])
        b_tile = K.dynamic_shared(p.b.shape, dtype, p.b.offset)
        # p.window is a whole 1024-byte period: every block starts on its period.
        c_tile = K.dynamic_shared(epilogue_tile_shape(n, swizzle), dtype, p.window)
        with K.if_(tid == 0):
            K.mbarrier_init(bar, 1)
        K.cta_sync()
        with K.if_(tid == 0):
            K.mbarrier_arrive_expect_tx(bar, tma.tx_bytes("b"))
            tma.apply(_opcode(False, 2), b_tile, B, box=p.b.box, coords=(0, 0), mbar=bar,
                      swizzle=p.b.copy_swizzle, tag="b")
        # This thread's A fragments, one per k16 step, while B lands.
        layout = K.wgmma_accumulator(16, "f32")
        fragments = []
        for s in range(steps):
            regs = []
            for j in range(4):
                row, col = layout.coords(2 * j)
                regs.append(A2[row, (col + 16 * s) // 2])
            fragments.append(regs)
        K.mbarrier_wait(bar, 0)
        acc = K.wgmma_accumulator(n, acc_type)
        K.wgmma_fence()
        for s in range(steps):
            b = _descriptor(p, p.b, b_tile, s, checks=True)
            acc = K.wgmma(acc, fragments[s], b, ptx, scale_d=s > 0)
        K.wgmma_commit_group()
        (acc,) = K.wgmma_wait_group(0, acc)
        K.wgmma_store_accumulator(acc, c_tile, swizzle=swizzle)
        K.fence_proxy_async_shared_cta()
        K.cta_sync()
        with K.if_(tid == 0):
            if swizzle == 0:
                tma.apply(STORE, Out, c_tile, box=(P.M, n), coords=(0, 0))
            for block in range(n // width if swizzle else 0):
                view = K.dynamic_shared((P.M, width), dtype,
                                        p.window + block * P.M * row_bytes)
                tma.apply(STORE, Out, view, box=(P.M, width), coords=(0, block * width),
                          swizzle=swizzle)
            K.bulk_commit_group()
            K.bulk_wait_group(0)

    return K.KernelDef(body, grid=1, block=THREADS, name=name,
                       params=[("A2", K.Tensor((P.M, p.k // 2), "i32")),
                               ("B", K.Tensor(p.global_shape("B"), dtype)),
                               ("Out", K.Tensor((P.M, n), dtype))])
