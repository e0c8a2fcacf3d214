"""Kernels for the GPU sweep, built with the Python builder (needs MLIR).

Loads: every thread fills the shared buffer from S (a known sentinel image),
one thread issues the copy, all wait, and the whole shared buffer, padding
included, is copied to Out. Stores and reductions: shared is filled from S,
fenced for the async proxy, and one thread issues the copy and waits for it.
"""

from math import prod

from .. import builder as K
from .. import tma
from ..emulator import box_image
from . import dynamic_shared_layout as DSL
from .cases import NATURAL

THREADS = 128
EVICT_LAST = 0x14F0000000000000  # a createpolicy L2::evict_last value


def shared_shape(case: dict) -> tuple:
    image = box_image(case["box"], case.get("element_strides"),
                      case.get("format") or NATURAL[case["dtype"]],
                      case.get("swizzle", 0), case.get("interleave", 0),
                      mode=case.get("mode", "tile"))
    return tuple(case.get("repeat", [])) + tuple(image["shape"])


def opcode(case: dict, prefetch: bool = False) -> str:
    """The PTX opcode of the case's copy (or of its L2 prefetch)."""
    kind = case["kind"]
    load = kind in ("load", "multicast") and not prefetch
    return tma.format_opcode(
        direction="prefetch" if prefetch else "load" if load else kind,
        mode=case.get("mode", "tile"),
        rank=len(case["gshape"]) - (1 if case.get("interleave") else 0),
        reduction=case.get("reduction") if kind == "reduce" and not prefetch else None,
        dst_cluster=load and bool(case.get("dst_cluster")),
        multicast=load and kind == "multicast",
        cache_hint=bool(case.get("cache_hint")))


def _fields(case: dict) -> dict:
    fields = dict(box=case["box"], coords=case["coords"],
                  coord_steps=case.get("coord_steps"), format=case.get("format"),
                  swizzle=case.get("swizzle", 0),
                  element_strides=case.get("element_strides"),
                  interleave=case.get("interleave", 0),
                  l2_promotion=case.get("l2_promotion", 0),
                  oob_fill=case.get("oob_fill", 0))
    if case.get("cache_hint"):
        fields["cache_policy"] = EVICT_LAST
    for key in ("pixel_box_lower", "pixel_box_upper", "offsets"):
        if key in case:
            fields[key] = case[key]
    return fields


def _prefetch(case: dict, G) -> None:
    """L2 prefetch of the same box, and of the tensor map the load uses."""
    fields = _fields(case)
    for key in ("coord_steps", "format", "oob_fill"):
        fields.pop(key)
    tma.apply(opcode(case, prefetch=True), G, **fields)
    tma.prefetch_tensormap("copy")


def _copy(src, dst, shape, tid, prefix=()):
    for flat in K.range_(tid, prod(shape), THREADS):
        index = K.unravel(flat, shape)
        dst[prefix + index] = src[index]


def build_case(case: dict) -> K.KernelDef:
    sshape = shared_shape(case)
    dtype = case["dtype"]
    gtype = K.Tensor(tuple(case["gshape"]), dtype, case.get("dynamic_strides", False))
    stype = K.Tensor(sshape, dtype)
    if case["kind"] in ("load", "multicast"):
        return _load_kernel(case, sshape, gtype, stype)
    return _store_kernel(case, sshape, gtype, stype)


def _load_kernel(case, sshape, gtype, stype):
    n = case.get("cluster", 1)
    multicast = case["kind"] == "multicast"
    out_type = K.Tensor(((n,) if multicast else ()) + sshape, case["dtype"])

    def body(G, S, Out):
        tid = K.thread_id()
        shared = K.alloc_shared(sshape, case["dtype"], align=1024)
        bar = K.alloc_shared((1,), "uint64", align=8).ptr_to([0])
        _copy(S, shared, sshape, tid)
        K.fence_proxy_async_shared_cta()
        with K.if_(tid == 0):
            K.mbarrier_init(bar, 1)
        # Every thread waits on the barrier later: the init (fenced for the
        # async proxy by mbarrier_init) must be visible to all of them first.
        K.cta_sync()
        with K.if_(tid == 0):
            tx = K.mbarrier_arrive_expect_tx(bar, 0)
        if multicast:
            K.fence_mbarrier_init_cluster()
            K.cluster_sync()
            rank = K.cluster_ctarank()
            issuer = rank == 0
        else:
            issuer = None
        with K.if_(tid == 0):
            if issuer is not None:
                with K.if_(issuer):
                    copy = tma.apply(opcode(case), shared, G, mbar=bar,
                                     cta_mask=(1 << n) - 1, **_fields(case))
            else:
                if case.get("prefetch"):
                    _prefetch(case, G)
                copy = tma.apply(opcode(case), shared, G, mbar=bar, tag="copy",
                                 **_fields(case))
        # The barrier expects what the contract model says the copy moves.
        K.set_tx_bytes(tx, tma.transaction_bytes(copy))
        K.mbarrier_wait(bar, 0)
        K.cta_sync()
        _copy(shared, Out, sshape, tid, (rank,) if multicast else ())
        if multicast:
            K.cluster_sync()

    return _kernel(case, body, (gtype, stype, out_type), grid=n,
                   cluster=(n, 1, 1) if multicast else None)


def _store_kernel(case, sshape, gtype, stype):
    def body(G, S):
        tid = K.thread_id()
        shared = K.alloc_shared(sshape, case["dtype"], align=1024)
        _copy(S, shared, sshape, tid)
        K.fence_proxy_async_shared_cta()
        K.cta_sync()
        with K.if_(tid == 0):
            tma.apply(opcode(case), G, shared, **_fields(case))
            K.bulk_commit_group()
            K.bulk_wait_group(0)

    return _kernel(case, body, (gtype, stype), grid=1, cluster=None)


def _kernel(case, body, types, grid, cluster):
    names = ["G", "S", "Out"][:len(types)]
    return K.KernelDef(body, grid=grid, block=THREADS, cluster=cluster,
                       params=list(zip(names, types)), name=case["name"])


def build_dynamic_beside_static() -> K.KernelDef:
    """TMA loads into dynamic shared memory next to static mbarriers and a
    static sentinel buffer (testing/dynamic_shared_layout.py): the dynamic window
    must start after the static buffers and be aligned for the 128B swizzle.
    Out receives the whole dynamic region, SentOut the static buffer."""
    words = DSL.DYNAMIC_BYTES // 2
    sent = DSL.SENTINEL_WORDS

    def body(G, S, Sent, Out, SentOut):
        tid = K.thread_id()
        bars = [K.alloc_shared((1,), "uint64", align=8).ptr_to([0]) for _ in range(2)]
        static = K.alloc_shared((sent,), "uint32", align=16)
        whole = K.dynamic_shared((words,), DSL.DTYPE, 0)
        views = [K.dynamic_shared(box, DSL.DTYPE, offset)
                 for offset, box, _, _, _ in DSL.COPIES]
        _copy(S, whole, (words,), tid)
        _copy(Sent, static, (sent,), tid)
        # The copy engine writes bytes the threads just wrote.
        K.fence_proxy_async_shared_cta()
        with K.if_(tid == 0):
            for bar in bars:
                K.mbarrier_init(bar, 1)
        K.cta_sync()
        with K.if_(tid == 0):
            txs = [K.mbarrier_arrive_expect_tx(bar, 0) for bar in bars]
            copies = []
            for view, (_, box, coords, swizzle, b) in zip(views, DSL.COPIES):
                op = "cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes"
                copies.append((b, tma.apply(op, view, G, box=box, coords=coords,
                                            swizzle=swizzle, mbar=bars[b])))
        for b, tx in enumerate(txs):
            K.set_tx_bytes(tx, sum(tma.transaction_bytes(c) for i, c in copies if i == b))
        for bar in bars:
            K.mbarrier_wait(bar, 0)
        K.cta_sync()
        _copy(whole, Out, (words,), tid)
        _copy(static, SentOut, (sent,), tid)

    params = [("G", K.Tensor(DSL.GLOBAL_SHAPE, DSL.DTYPE)),
              ("S", K.Tensor((words,), DSL.DTYPE)),
              ("Sent", K.Tensor((sent,), "uint32")),
              ("Out", K.Tensor((words,), DSL.DTYPE)),
              ("SentOut", K.Tensor((sent,), "uint32"))]
    return K.KernelDef(body, grid=1, block=THREADS, params=params,
                       name="dynamic_beside_static")
