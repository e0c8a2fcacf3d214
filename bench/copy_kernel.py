"""A persistent, multi-stage TMA copy kernel written with the Python builder.

One thread per CTA drives the pipeline: it keeps loads in flight (one
mbarrier per stage), and for each tile waits for its load, stores it back
with a TMA store (bulk_group), and refills the stage of the tile `store_lag`
back once `wait_group.read store_lag` says that tile's store has finished
reading shared memory.
CTAs take tiles round-robin (tile = block + k * grid). All shared memory is
dynamic, so the stage buffers start at the 1024-byte-aligned window base.

Other builders here, for bench/bandwidth.py:
  build_copy_ws        the same copy warp-specialized: a producer warp and a
                       consumer warp, "full" and "empty" mbarriers per stage;
  build_load_only      TMA loads only (into a ring, every load waited on);
  build_store_only     TMA stores only (one shared box stored everywhere);
  build_simt_copy      no TMA: ld.global.v4 / st.global.v4 per thread;
  build_copy_tma_simt  TMA loads, consumer warps storing with st.global.v4;
  build_copy_one_tile  one box per CTA, grid = the number of boxes;
  build_copy_dynamic   build_copy's persistent pipeline with tiles claimed
                       at run time (an atomic ticket per tile).
"""

import mlir.ir as ir

from tile_mlir import kernel as K
from tile_mlir import tma

LOAD = "cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes"
STORE = "cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group"


EVICT_FIRST = 0x12F0000000000000  # createpolicy L2::evict_first (streaming)


def build_copy(rows: int, cols: int, box=(64, 128), stages: int = 4, grid: int = 132,
               swizzle: int = 0, dtype: str = "bfloat16", name: str = "tma_copy",
               l2_promotion: int = 0, evict_first: bool = False, store_lag: int = 1,
               order: str = "round_robin"):
    """`store_lag` K: after issuing tile j's store, wait until all but the K
    newest stores finished reading shared memory, then refill tile j-K's
    stage (K stores and stages-1-K loads stay in flight). `order`: see
    `tile_order`."""
    if not 1 <= store_lag < stages:
        raise ValueError("store_lag must be in 1..stages-1")
    br, bc = box
    if rows % br or cols % bc:
        raise ValueError("the tensor must be a whole number of boxes")
    tiles_c = cols // bc
    n_tiles = (rows // br) * tiles_c
    elem = 2 if dtype in ("bfloat16", "float16") else 4
    stage_bytes = br * bc * elem
    hint = ".L2::cache_hint" if evict_first else ""
    policy = {"cache_policy": EVICT_FIRST} if evict_first else {}

    def body(A, B):
        tid = K.thread_id()
        bufs = [K.dynamic_shared((br, bc), dtype, s * stage_bytes) for s in range(stages)]
        bars = K.dynamic_shared((stages,), "uint64", stages * stage_bytes)
        block = K.block_id()
        count, tile_of = tile_order(block, n_tiles, grid, order)  # this CTA's tiles

        def coords(j):
            tile = tile_of(j)
            return ((tile // tiles_c) * br, (tile % tiles_c) * bc)

        def load(stage_index: int, j, site: str):
            tag = f"{site}{stage_index}"
            bar = bars.ptr_to([stage_index])
            K.mbarrier_arrive_expect_tx(bar, tma.tx_bytes(tag))
            tma.apply(LOAD + hint, bufs[stage_index], A, box=box, coords=coords(j),
                      swizzle=swizzle, l2_promotion=l2_promotion, mbar=bar, tag=tag,
                      **policy)

        def on_stage(stage, fn):
            for s in range(stages):
                with K.if_(stage == s):
                    fn(s)

        with K.if_(tid == 0):
            for s in range(stages):
                K.mbarrier_init(bars.ptr_to([s]), 1)
            for s in range(stages):
                with K.if_(count > s):
                    load(s, K.Expr(K.Expr.of(s)), "pro")
            for j in K.range_(0, count):
                stage = j % stages
                K.mbarrier_wait(bars.ptr_to([stage]), (j // stages) % 2)
                on_stage(stage, lambda s: tma.apply(STORE + hint, B, bufs[s], box=box,
                                                    coords=coords(j), swizzle=swizzle,
                                                    l2_promotion=l2_promotion, **policy))
                K.bulk_commit_group()
                K.bulk_wait_group(store_lag, read=True)
                prev = j - store_lag
                with K.if_(j >= store_lag):
                    with K.if_(prev + stages < count):
                        on_stage(prev % stages,
                                 lambda s: load(s, prev + stages, "re"))
            K.bulk_wait_group(0)

    ns = {"body": body}
    exec(f"def {name}(A, B): body(A, B)", ns)
    fn = ns[name]
    fn.__annotations__ = {"A": K.Tensor((rows, cols), dtype),
                          "B": K.Tensor((rows, cols), dtype)}
    return K.kernel(grid=grid, block=32)(fn)


# -- warp-specialized copy, per-direction kernels ----------------------------
#
# The phase arithmetic is written once, for ints and for index Exprs alike
# (only `+`, `//`, `%`), so test/python/test_copy_kernels.py can replay the
# protocol on a CPU model of the mbarriers.

def full_parity(j, stages: int):
    """Parity a consumer waits on for tile j's load: the (j // stages)-th
    completion of stage j % stages's "full" barrier."""
    return (j // stages) % 2


def empty_parity(j, stages: int):
    """Parity the producer waits on before loading tile j into stage
    j % stages: the release of tile j - stages, i.e. completion number
    j // stages - 1 of the stage's "empty" barrier. For the first round
    (j < stages) this is parity 1, the phase before the barrier's first,
    which try_wait.parity treats as already complete: no wait."""
    return (j // stages + 1) % 2


def tile_order(block, n_tiles: int, grid: int, order: str):
    """(count, tile_of): how many tiles CTA `block` copies and its j-th tile.
    "round_robin": tiles block, block + grid, ... (at any moment the CTAs
    work on one compact window of neighbouring tiles; with a grid of many
    waves, a CTA's few tiles lie far apart); "chunk": CTA b copies the
    contiguous run of n_tiles / grid tiles starting at b * n_tiles / grid
    (the CTAs work on `grid` regions spread over the whole tensor). Plain
    ints in (a CPU model), plain ints out."""
    if order == "round_robin":
        return (n_tiles - block + (grid - 1)) // grid, lambda j: block + j * grid
    if order == "chunk":
        if n_tiles % grid:
            raise ValueError("chunk order needs a grid that divides the tile count")
        per = n_tiles // grid
        count = per if isinstance(block, int) else K.Expr(K.Expr.of(per))
        return count, lambda j: block * per + j
    raise ValueError(f"unknown order '{order}'")


def _tiling(rows: int, cols: int, box, dtype: str, grid: int):
    br, bc = box
    if rows % br or cols % bc:
        raise ValueError("the tensor must be a whole number of boxes")
    elem = 2 if dtype in ("bfloat16", "float16") else 4
    return cols // bc, (rows // br) * (cols // bc), br * bc * elem


def _make_kernel(name: str, body, params: dict, grid: int, block: int):
    ns = {"body": body}
    exec(f"def {name}({', '.join(params)}): body({', '.join(params)})", ns)
    fn = ns[name]
    fn.__annotations__ = dict(params)
    return K.kernel(grid=grid, block=block)(fn)


def _on_stage(stage, stages: int, fn):
    """fn(s) for the static stage index s equal to the runtime `stage` (the
    TMA ops take statically placed shared buffers)."""
    for s in range(stages):
        with K.if_(stage == s):
            fn(s)


def mbarrier_arrive(bar) -> None:
    """A plain arrive (count 1, release.cta) on a shared mbarrier."""
    from mlir.dialects import nvvm
    nvvm.MBarrierArriveOp(None, bar.value)


def ws_shared_bytes(box, stages: int, dtype: str = "bfloat16") -> int:
    br, bc = box
    elem = 2 if dtype in ("bfloat16", "float16") else 4
    return stages * br * bc * elem + 2 * stages * 8


def _ring_and_producer(A, box, dtype: str, stages: int, stage_bytes: int, count,
                       coords, consumers: int = 1):
    """The warp-specialized ring: `stages` buffers with a "full" and an
    "empty" mbarrier each (thread 0 initialises them; "empty" counts
    `consumers` arrivals; then a CTA barrier), and warp 0's producer: for its
    j-th tile (of `count`, at `coords(j)`) it waits until stage j % stages is
    empty, arms the stage's "full" barrier with the box's bytes and issues
    the TMA load. Returns (bufs, full, empty)."""
    tid = K.thread_id()
    bufs = [K.dynamic_shared(tuple(box), dtype, s * stage_bytes) for s in range(stages)]
    full = K.dynamic_shared((stages,), "uint64", stages * stage_bytes)
    empty = K.dynamic_shared((stages,), "uint64", stages * stage_bytes + stages * 8)
    with K.if_(tid == 0):
        for s in range(stages):
            K.mbarrier_init(full.ptr_to([s]), 1)
            K.mbarrier_init(empty.ptr_to([s]), consumers)
    K.cta_sync()

    with K.if_(tid == 0):  # producer
        for j in K.range_(0, count):
            stage = j % stages
            K.mbarrier_wait(empty.ptr_to([stage]), empty_parity(j, stages))

            def load(s):
                bar = full.ptr_to([s])
                K.mbarrier_arrive_expect_tx(bar, tma.tx_bytes(f"ld{s}"))
                tma.apply(LOAD, bufs[s], A, box=box, coords=coords(j), mbar=bar,
                          tag=f"ld{s}")
            _on_stage(stage, stages, load)
    return bufs, full, empty


def build_copy_ws(rows: int, cols: int, box=(64, 128), stages: int = 4, grid: int = 132,
                  dtype: str = "bfloat16", name: str = "tma_copy_ws", store_lag: int = 1,
                  order: str = "round_robin"):
    """Warp-specialized persistent copy, 64 threads.

    Warp 0 (lane 0) is the producer: for its j-th tile it waits until stage
    j % stages is empty (`empty_parity`), arms the stage's "full" barrier
    with the box's bytes and issues the TMA load. Warp 1 (lane 0) is the
    consumer: it waits on "full" (`full_parity`), issues the TMA store,
    commits a bulk group, waits `wait_group.read store_lag` (all but the
    `store_lag` newest stores have finished reading shared memory) and then
    arrives on the "empty" barrier of tile j - store_lag's stage.
    Thread 0 initialises every barrier before a CTA barrier splits the roles.
    """
    if not 1 <= store_lag < stages:
        raise ValueError("store_lag must be in 1..stages-1")
    tiles_c, n_tiles, stage_bytes = _tiling(rows, cols, box, dtype, grid)
    br, bc = box

    def body(A, B):
        tid = K.thread_id()
        block = K.block_id()
        count, tile_of = tile_order(block, n_tiles, grid, order)

        def coords(j):
            tile = tile_of(j)
            return ((tile // tiles_c) * br, (tile % tiles_c) * bc)

        bufs, full, empty = _ring_and_producer(A, box, dtype, stages, stage_bytes,
                                               count, coords)

        with K.if_(tid == 32):  # consumer
            for j in K.range_(0, count):
                stage = j % stages
                K.mbarrier_wait(full.ptr_to([stage]), full_parity(j, stages))
                _on_stage(stage, stages, lambda s: tma.apply(
                    STORE, B, bufs[s], box=box, coords=coords(j)))
                K.bulk_commit_group()
                K.bulk_wait_group(store_lag, read=True)
                with K.if_(j >= store_lag):
                    mbarrier_arrive(empty.ptr_to([(j - store_lag) % stages]))
            K.bulk_wait_group(0)

    tensor = K.Tensor((rows, cols), dtype)
    return _make_kernel(name, body, {"A": tensor, "B": tensor}, grid, 64)


def _for_carried(start, stop, inits, body):
    """scf.for over [start, stop) carrying `inits`; body(j, values) returns
    the next values. Returns the final values."""
    from mlir.dialects import scf
    loop = scf.ForOp(K.Expr.of(start), K.Expr.of(stop), K.Expr.of(1), inits)
    with ir.InsertionPoint(loop.body):
        scf.YieldOp(body(K.Expr(loop.induction_variable), list(loop.inner_iter_args)))
    return list(loop.results)


def build_load_only(rows: int, cols: int, box=(64, 128), stages: int = 4, grid: int = 132,
                    dtype: str = "bfloat16", name: str = "tma_load_only",
                    checksum: bool = True):
    """Reads every box of A into a ring of `stages` shared buffers and
    nothing else (TMA loads only: rows * cols * elem bytes moved).

    One thread keeps `stages` loads in flight: for tile j it waits on the
    stage's mbarrier (`full_parity`: that exact load's phase), folds the
    first and the last element of the box into two XOR checksums, and only
    then re-arms the barrier and issues the load of tile j + stages into
    the same stage. So every load is waited on before its buffer is reused.
    At the end C[block] = (xor of first elements, xor of last elements) of
    this CTA's tiles (bit patterns), which the host recomputes. The shared
    reads come from the generic proxy and the refill writes from the async
    proxy, so a fence.proxy.async orders them before each refill.

    `checksum=False` reads nothing inside the loop (waits and refills only);
    after the loop, with every load waited on, C[block] = (first, last)
    element of this CTA's last tile.
    """
    from mlir.dialects import arith
    tiles_c, n_tiles, stage_bytes = _tiling(rows, cols, box, dtype, grid)
    br, bc = box

    def body(A, C):
        tid = K.thread_id()
        bufs = [K.dynamic_shared((br, bc), dtype, s * stage_bytes) for s in range(stages)]
        ring = K.dynamic_shared((stages, br, bc), dtype, 0)
        full = K.dynamic_shared((stages,), "uint64", stages * stage_bytes)
        block = K.block_id()
        count = (n_tiles - block + (grid - 1)) // grid
        i16 = ir.IntegerType.get_signless(16)

        def coords(j):
            tile = block + j * grid
            return ((tile // tiles_c) * br, (tile % tiles_c) * bc)

        def load(s, j, site):
            bar = full.ptr_to([s])
            K.mbarrier_arrive_expect_tx(bar, tma.tx_bytes(f"{site}{s}"))
            tma.apply(LOAD, bufs[s], A, box=box, coords=coords(j), mbar=bar,
                      tag=f"{site}{s}")

        with K.if_(tid == 0):
            for s in range(stages):
                K.mbarrier_init(full.ptr_to([s]), 1)
            for s in range(stages):
                with K.if_(count > s):
                    load(s, K.Expr(K.Expr.of(s)), "pro")

            def step(j, accs):
                stage = j % stages
                K.mbarrier_wait(full.ptr_to([stage]), full_parity(j, stages))
                out = accs
                if checksum:
                    first = arith.bitcast(i16, ring[stage, 0, 0].value)
                    last = arith.bitcast(i16, ring[stage, br - 1, bc - 1].value)
                    out = [arith.xori(accs[0], first), arith.xori(accs[1], last)]
                with K.if_(j + stages < count):
                    if checksum:
                        K.fence_proxy_async_shared_cta()
                    _on_stage(stage, stages, lambda s: load(s, j + stages, "re"))
                return out

            if checksum:
                zero = arith.constant(i16, 0)
                acc_first, acc_last = _for_carried(0, count, [zero, zero], step)
                elem = K.element_type(dtype)
                C[block, 0] = arith.bitcast(elem, acc_first)
                C[block, 1] = arith.bitcast(elem, acc_last)
            else:
                _for_carried(0, count, [], step)
                last_stage = (count - 1) % stages
                C[block, 0] = ring[last_stage, 0, 0]
                C[block, 1] = ring[last_stage, br - 1, bc - 1]

    return _make_kernel(name, body, {"A": K.Tensor((rows, cols), dtype),
                                     "C": K.Tensor((grid, 2), dtype)}, grid, 32)


def build_store_only(rows: int, cols: int, box=(64, 128), grid: int = 132,
                     dtype: str = "bfloat16", name: str = "tma_store_only",
                     in_flight: int = 4):
    """Writes every box of B from one shared buffer (TMA stores only:
    rows * cols * elem bytes moved, plus one box read per CTA).

    One thread loads box `block` of A once (waits on its mbarrier), then
    stores that buffer to each of this CTA's tiles of B, one bulk group per
    store, keeping at most `in_flight` groups reading shared memory
    (`wait_group.read in_flight`), and waits for all of them to complete at
    the end. B's tile t equals A's tile t % grid afterwards.
    """
    tiles_c, n_tiles, stage_bytes = _tiling(rows, cols, box, dtype, grid)
    br, bc = box

    def body(A, B):
        tid = K.thread_id()
        buf = K.dynamic_shared((br, bc), dtype, 0)
        bar = K.dynamic_shared((1,), "uint64", stage_bytes).ptr_to([0])
        block = K.block_id()
        count = (n_tiles - block + (grid - 1)) // grid

        def coords(tile):
            return ((tile // tiles_c) * br, (tile % tiles_c) * bc)

        with K.if_(tid == 0):
            K.mbarrier_init(bar, 1)
            K.mbarrier_arrive_expect_tx(bar, tma.tx_bytes("src"))
            tma.apply(LOAD, buf, A, box=box, coords=coords(block), mbar=bar, tag="src")
            K.mbarrier_wait(bar, 0)
            for j in K.range_(0, count):
                tma.apply(STORE, B, buf, box=box, coords=coords(block + j * grid))
                K.bulk_commit_group()
                K.bulk_wait_group(in_flight, read=True)
            K.bulk_wait_group(0)

    tensor = K.Tensor((rows, cols), dtype)
    return _make_kernel(name, body, {"A": tensor, "B": tensor}, grid, 32)


# -- copies with ordinary (SIMT) global accesses ------------------------------

def _elem_bytes(dtype: str) -> int:
    return 2 if dtype in ("bfloat16", "float16") else 4


def _vector_type(dtype: str):
    """16 bytes of `dtype` (inside a kernel body: needs the context)."""
    return ir.VectorType.get([16 // _elem_bytes(dtype)], K.element_type(dtype))


def _vload(vtype, buf, indices):
    """A 16-byte vector load (ld.*.v4.b32) at element `indices` of `buf`."""
    from mlir.dialects import vector
    return vector.load(vtype, buf.value, [K.Expr.of(i) for i in indices], alignment=16)


def _vstore(value, buf, indices):
    from mlir.dialects import vector
    vector.store(value, buf.value, [K.Expr.of(i) for i in indices], alignment=16)


def _udiv(a, n: int):
    from mlir.dialects import arith
    return K.Expr(arith.divui(a.value, K.Expr.of(n, a)))


def _urem(a, n: int):
    from mlir.dialects import arith
    return K.Expr(arith.remui(a.value, K.Expr.of(n, a)))


def build_simt_copy(rows: int, cols: int, grid: int = 1024, block: int = 256,
                    unroll: int = 4, dtype: str = "bfloat16", name: str = "simt_copy",
                    layout: str = "spread"):
    """No TMA: every thread copies 16-byte vectors with ld.global.v4 /
    st.global.v4, `unroll` independent loads before their stores;
    consecutive threads take consecutive vectors (coalesced). The tensor
    must be a whole number of sweeps (grid * block * unroll vectors).
    `layout` "spread": a thread's u-th vector of a sweep is grid * block
    vectors after its (u-1)-th (a CTA touches `unroll` far-apart places);
    "compact": block vectors after it (a CTA copies one contiguous run of
    block * unroll vectors a sweep)."""
    if layout not in ("spread", "compact"):
        raise ValueError(f"unknown layout '{layout}'")
    vec = 16 // _elem_bytes(dtype)
    n = rows * cols // vec
    per_sweep = grid * block * unroll
    if cols % vec or n % per_sweep:
        raise ValueError("the tensor must be a whole number of sweeps")
    sweeps = n // per_sweep

    def body(A, B):
        vtype = _vector_type(dtype)
        step = grid * block if layout == "spread" else block
        base = K.block_id() * (block if layout == "spread" else block * unroll) + \
            K.thread_id()
        for k in K.range_(0, sweeps):
            first = base + k * per_sweep
            spots = []
            for u in range(unroll):
                e = (first + u * step) * vec
                spots.append((_udiv(e, cols), _urem(e, cols)))
            values = [_vload(vtype, A, spot) for spot in spots]
            for value, spot in zip(values, spots):
                _vstore(value, B, spot)

    tensor = K.Tensor((rows, cols), dtype)
    return _make_kernel(name, body, {"A": tensor, "B": tensor}, grid, block)


def build_copy_tma_simt(rows: int, cols: int, box=(64, 128), stages: int = 4,
                        grid: int = 132, consumer_warps: int = 4, dtype: str = "bfloat16",
                        name: str = "tma_load_simt_store"):
    """TMA loads, ordinary stores: warp 0 (lane 0) loads boxes into a ring
    of `stages` buffers with build_copy_ws's producer (_ring_and_producer); the `consumer_warps` warps after it wait
    on "full", each thread moves its share of the box with ld.shared.v4 and
    st.global.v4 (all its loads before its stores), then arrives on "empty"
    (count: every consumer thread)."""
    if not 1 <= consumer_warps:
        raise ValueError("at least one consumer warp")
    tiles_c, n_tiles, stage_bytes = _tiling(rows, cols, box, dtype, grid)
    br, bc = box
    vec = 16 // _elem_bytes(dtype)
    consumers = 32 * consumer_warps
    per_row = bc // vec
    per_thread, rest = divmod(br * per_row, consumers)
    if bc % vec or rest:
        raise ValueError("the box must split evenly into 16-byte vectors per thread")

    def body(A, B):
        vtype = _vector_type(dtype)
        tid = K.thread_id()
        ring = K.dynamic_shared((stages, br, bc), dtype, 0)
        block = K.block_id()
        count = (n_tiles - block + (grid - 1)) // grid

        def origin(j):
            tile = block + j * grid
            return ((tile // tiles_c) * br, (tile % tiles_c) * bc)

        _, full, empty = _ring_and_producer(A, box, dtype, stages, stage_bytes, count,
                                            origin, consumers)

        with K.if_(tid >= 32):  # consumers
            ctid = tid - 32
            spots = []
            for k in range(per_thread):
                q = ctid + k * consumers
                spots.append((_udiv(q, per_row), _urem(q, per_row) * vec))
            for j in K.range_(0, count):
                stage = j % stages
                K.mbarrier_wait(full.ptr_to([stage]), full_parity(j, stages))
                r0, c0 = origin(j)
                values = [_vload(vtype, ring, (stage, r, c)) for r, c in spots]
                for value, (r, c) in zip(values, spots):
                    _vstore(value, B, (r0 + r, c0 + c))
                mbarrier_arrive(empty.ptr_to([stage]))

    tensor = K.Tensor((rows, cols), dtype)
    return _make_kernel(name, body, {"A": tensor, "B": tensor}, grid,
                        32 + consumers)


def build_copy_one_tile(rows: int, cols: int, box=(64, 128), dtype: str = "bfloat16",
                        name: str = "tma_copy_one_tile"):
    """One box per CTA, grid = the number of boxes (many waves; the block
    scheduler hands out the tiles): thread 0 inits one mbarrier, arms it,
    issues the TMA load, waits, issues the TMA store, commits it and waits
    until it has finished reading shared memory before the CTA exits.
    Shared memory: one box (+ the barrier)."""
    tiles_c, n_tiles, stage_bytes = _tiling(rows, cols, box, dtype, 1)
    br, bc = box

    def body(A, B):
        tid = K.thread_id()
        buf = K.dynamic_shared((br, bc), dtype, 0)
        bar = K.dynamic_shared((1,), "uint64", stage_bytes).ptr_to([0])
        tile = K.block_id()
        coords = ((tile // tiles_c) * br, (tile % tiles_c) * bc)
        with K.if_(tid == 0):
            K.mbarrier_init(bar, 1)
            K.mbarrier_arrive_expect_tx(bar, tma.tx_bytes("box"))
            tma.apply(LOAD, buf, A, box=box, coords=coords, mbar=bar, tag="box")
            K.mbarrier_wait(bar, 0)
            tma.apply(STORE, B, buf, box=box, coords=coords)
            K.bulk_commit_group()
            K.bulk_wait_group(0, read=True)

    tensor = K.Tensor((rows, cols), dtype)
    return _make_kernel(name, body, {"A": tensor, "B": tensor}, n_tiles, 32)


# -- persistent copy with dynamic tile claiming ------------------------------

def _global_pointer(buf: K.Buffer) -> ir.Value:
    """Generic `!llvm.ptr` to element 0 of a global tensor."""
    from mlir.dialects import arith, llvm, memref
    i64 = ir.IntegerType.get_signless(64)
    addr = arith.index_cast(i64, memref.extract_aligned_pointer_as_index(buf.value))
    return llvm.inttoptr(ir.Type.parse("!llvm.ptr"), addr)


def _atomic_add(ptr: ir.Value, n: int, ordering: str) -> ir.Value:
    """atom.add.u32 on a global word; returns the old value (i32)."""
    from mlir.dialects import arith, llvm
    i32 = ir.IntegerType.get_signless(32)
    return llvm.atomicrmw(llvm.AtomicBinOp.add, ptr, arith.constant(i32, n),
                          getattr(llvm.AtomicOrdering, ordering))


def _as_index(value: ir.Value) -> K.Expr:
    from mlir.dialects import arith
    return K.Expr(arith.index_castui(ir.IndexType.get(), value))


class TileClaims:
    """Tiles claimed at run time from a (2,) int32 counter Ctr, for the
    kernels that take their tiles this way (build_copy_dynamic,
    transpose_kernel.build_transpose_dynamic).

    `claim()` is one relaxed `atom.add` on Ctr[0]: a ticket, a tile when it
    is below the tile count. The ticket of each pipeline stage lives in the
    shared words `ids`. `loop` runs while the ticket of stage j % stages is a
    tile and carries the ticket claimed one tile ahead; a thread's tickets
    only grow, so the first one past the end ends it with no tile left
    unclaimed. `count_out()` makes the last CTA of the launch reset Ctr."""

    def __init__(self, Ctr: K.Buffer, ids: K.Buffer, n_tiles: int):
        from mlir.dialects import arith
        self.i32 = ir.IntegerType.get_signless(32)
        self.ptr = _global_pointer(Ctr)
        self.ids = ids
        self.n = arith.constant(self.i32, n_tiles)

    def claim(self) -> ir.Value:
        return _atomic_add(self.ptr, 1, "monotonic")

    def is_tile(self, ticket: ir.Value) -> K.Expr:
        from mlir.dialects import arith
        return K.Expr(arith.cmpi(arith.CmpIPredicate.ult, ticket, self.n))

    def tile_id(self, stage) -> ir.Value:
        from mlir.dialects import llvm
        return llvm.load(self.i32, self.ids.ptr_to([stage]).value)

    def record(self, stage: int, ticket: ir.Value) -> None:
        from mlir.dialects import llvm
        llvm.store(ticket, self.ids.ptr_to([stage]).value)

    def loop(self, stages: int, first_ahead: ir.Value, body) -> None:
        """scf.while over j = 0, 1, ... while stage j % stages holds a tile;
        body(j, ahead) returns the next ticket claimed ahead."""
        from mlir.dialects import scf
        idx = ir.IndexType.get()
        loop = scf.WhileOp([idx, self.i32], [K.Expr.of(0), first_ahead])
        before = loop.before.blocks.append(idx, self.i32)
        with ir.InsertionPoint(before):
            live = self.is_tile(self.tile_id(K.Expr(before.arguments[0]) % stages))
            scf.ConditionOp(live.value, list(before.arguments))
        after = loop.after.blocks.append(idx, self.i32)
        with ir.InsertionPoint(after):
            j = K.Expr(after.arguments[0])
            ahead = body(j, after.arguments[1])
            scf.YieldOp([K.Expr.of(j + 1), ahead])

    def spend_if(self, cond: K.Expr, ahead: ir.Value, use) -> ir.Value:
        """If `cond`: use() the ticket `ahead` and claim the next one;
        returns the ticket ahead afterwards."""
        from mlir.dialects import scf
        branch = scf.IfOp(K.Expr.of(cond), [self.i32], has_else=True)
        with ir.InsertionPoint(branch.then_block):
            use()
            scf.YieldOp([self.claim()])
        with ir.InsertionPoint(branch.else_block):
            scf.YieldOp([ahead])
        return branch.result

    def count_out(self) -> None:
        """One thread per CTA, after its last claim: counts the CTA out on
        Ctr[1]; the last CTA of the grid the launch runs with (a launch may
        override the built grid) resets both words. NVPTX drops the ordering
        of an acq_rel atomicrmw (plain atom.add): explicit fences order this
        CTA's claims before its count-out, and the others' claims before the
        reset."""
        from mlir.dialects import arith, llvm
        llvm.fence(llvm.AtomicOrdering.acq_rel)
        out = _atomic_add(_word(self.ptr, 1), 1, "monotonic")
        llvm.fence(llvm.AtomicOrdering.acq_rel)
        last = arith.index_cast(self.i32, (K.grid_dim() - 1).value)
        with K.if_(K.Expr(arith.cmpi(arith.CmpIPredicate.eq, out, last))):
            zero = arith.constant(self.i32, 0)
            llvm.store(zero, self.ptr)
            llvm.store(zero, _word(self.ptr, 1))


def build_copy_dynamic(rows: int, cols: int, box=(64, 128), stages: int = 4,
                       grid: int = 132, dtype: str = "bfloat16", store_lag: int = 1,
                       swizzle: int = 0, name: str = "tma_copy_dynamic"):
    """build_copy's persistent pipeline (one thread: TMA loads on per-stage
    mbarriers, TMA stores drained by `wait_group.read store_lag`), but the
    CTAs claim tiles at run time instead of taking a fixed round-robin share:
    every load's tile is `atom.add` on Ctr[0] (a ticket; tickets >= the tile
    count end the CTA's loop). A CTA that finds its SM slower simply claims
    fewer tiles, which is what the block scheduler does for short CTAs.

    The ticket for the next refill is claimed one tile ahead, so its latency
    overlaps a tile's store. Each stage's tile id is kept in shared memory
    for its store. The loop ends at the first stage whose ticket is past the
    end: a thread's tickets only grow, so no valid ticket is left unclaimed.

    Ctr is (2,) int32 and must be zero before the first launch; the kernel
    leaves it zero: each CTA counts itself out on Ctr[1] (acq_rel, so its
    claims happen before), and the last one out (of the grid the launch
    runs with) resets both words. One counter serves one launch at a time.
    """
    if not 1 <= store_lag < stages:
        raise ValueError("store_lag must be in 1..stages-1")
    tiles_c, n_tiles, stage_bytes = _tiling(rows, cols, box, dtype, grid)
    br, bc = box

    def body(A, B, Ctr):
        tid = K.thread_id()
        bufs = [K.dynamic_shared((br, bc), dtype, s * stage_bytes) for s in range(stages)]
        bars = K.dynamic_shared((stages,), "uint64", stages * stage_bytes)
        claims = TileClaims(Ctr, K.dynamic_shared(
            (stages,), "uint32", stages * stage_bytes + stages * 8), n_tiles)

        def coords(tile: ir.Value):
            t = _as_index(tile)
            return ((t // tiles_c) * br, (t % tiles_c) * bc)

        def start(s: int, tile: ir.Value, site: str):
            """Records stage s's tile and loads it if it is a real one."""
            claims.record(s, tile)
            with K.if_(claims.is_tile(tile)):
                tag = f"{site}{s}"
                bar = bars.ptr_to([s])
                K.mbarrier_arrive_expect_tx(bar, tma.tx_bytes(tag))
                tma.apply(LOAD, bufs[s], A, box=box, coords=coords(tile), mbar=bar,
                          tag=tag, swizzle=swizzle)

        def step(j, ahead):
            stage = j % stages
            K.mbarrier_wait(bars.ptr_to([stage]), full_parity(j, stages))
            tile = claims.tile_id(stage)
            _on_stage(stage, stages, lambda s: tma.apply(
                STORE, B, bufs[s], box=box, coords=coords(tile), swizzle=swizzle))
            K.bulk_commit_group()
            K.bulk_wait_group(store_lag, read=True)
            return claims.spend_if(j >= store_lag, ahead, lambda: _on_stage(
                (j - store_lag) % stages, stages, lambda s: start(s, ahead, "re")))

        with K.if_(tid == 0):
            for s in range(stages):
                K.mbarrier_init(bars.ptr_to([s]), 1)
            for s in range(stages):
                start(s, claims.claim(), "pro")
            claims.loop(stages, claims.claim(), step)
            K.bulk_wait_group(0)
            claims.count_out()

    return _make_kernel(name, body, {"A": K.Tensor((rows, cols), dtype),
                                     "B": K.Tensor((rows, cols), dtype),
                                     "Ctr": K.Tensor((2,), "int32")}, grid, 32)


def _word(ptr: ir.Value, k: int) -> ir.Value:
    """Generic pointer to the k-th 32-bit word after `ptr`."""
    from mlir.dialects import arith, llvm
    i64 = ir.IntegerType.get_signless(64)
    addr = arith.addi(llvm.ptrtoint(i64, ptr), arith.constant(i64, 4 * k))
    return llvm.inttoptr(ir.Type.parse("!llvm.ptr"), addr)
