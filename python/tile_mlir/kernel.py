"""Kernel-building help: enough to write the contract's example in Python.

    @kernel(grid=1, block=32)
    def tma_load(A: Tensor((16, 16), "uint32"), Out: Tensor((16, 16), "uint32")):
        lane = lane_id()
        shared = alloc_shared((2, 8, 16), "uint32", align=128)
        ...

A kernel is traced once into a `gpu.module` holding one `gpu.func`; `Expr`
wraps SSA values so that Python arithmetic, comparisons and indexing emit
arith/memref ops. Control flow is explicit: `with if_(cond):` and
`for i, j in grid(2, 8):` (scf.if / scf.for).
"""

from __future__ import annotations

import contextlib
import inspect
from math import prod
from dataclasses import dataclass
from typing import Callable, Sequence

import mlir.ir as ir
from mlir.dialects import arith, gpu, llvm, memref, nvvm, scf

from . import _native
from .errors import from_diagnostic
from .launch_shape import dim3

DEFAULT_TARGET = '#nvvm.target<chip = "sm_90a", features = "+ptx86">'

# Element types by the dtype names numpy (and the contract) use.
_DTYPES = {
    "uint8": "ui8", "int8": "si8", "uint16": "ui16", "int16": "si16",
    "uint32": "ui32", "int32": "si32", "uint64": "ui64", "int64": "si64",
    "float16": "f16", "bfloat16": "bf16", "float32": "f32", "float64": "f64",
    "float8_e4m3fn": "f8E4M3FN", "float8_e5m2": "f8E5M2",
    "float4_e2m1fn": "f4E2M1FN", "float6_e2m3fn": "f6E2M3FN",
    "float6_e3m2fn": "f6E3M2FN",
    # Signless bytes: the shared image of the packed formats.
    "i8": "i8",
}
_SHARED = 3


def element_type(dtype: str) -> ir.Type:
    if dtype not in _DTYPES:
        raise ValueError(f"unknown dtype '{dtype}' (known: {', '.join(_DTYPES)})")
    return ir.Type.parse(_DTYPES[dtype])


def _to_i32(value: ir.Value) -> ir.Value:
    if isinstance(value.type, ir.IndexType):
        return arith.index_cast(ir.IntegerType.get_signless(32), value)
    return value


def _index(value: int) -> ir.Value:
    return arith.constant(ir.IndexType.get(), value)


def _i32(value: int) -> ir.Value:
    return arith.constant(ir.IntegerType.get_signless(32), value)


class Expr:
    """An SSA value with Python operators (index or signless integers)."""

    def __init__(self, value: ir.Value):
        self.value = value

    @staticmethod
    def of(x, like: "Expr | None" = None) -> ir.Value:
        if isinstance(x, Expr):
            return x.value
        if isinstance(x, ir.Value):
            return x
        if isinstance(x, int):
            if like is not None and not isinstance(like.value.type, ir.IndexType):
                return arith.constant(like.value.type, x)
            return _index(x)
        raise TypeError(f"cannot use {x!r} as a kernel value")

    def _bin(self, other, fn, swap=False):
        a, b = self.value, Expr.of(other, self)
        return Expr(fn(b, a) if swap else fn(a, b))

    def __add__(self, o): return self._bin(o, arith.addi)
    def __radd__(self, o): return self._bin(o, arith.addi, swap=True)
    def __sub__(self, o): return self._bin(o, arith.subi)
    def __rsub__(self, o): return self._bin(o, arith.subi, swap=True)
    def __mul__(self, o): return self._bin(o, arith.muli)
    def __rmul__(self, o): return self._bin(o, arith.muli, swap=True)
    def __floordiv__(self, o): return self._bin(o, arith.floordivsi)
    def __mod__(self, o): return self._bin(o, arith.remsi)

    def _cmp(self, other, predicate):
        pred = ir.IntegerAttr.get(ir.IntegerType.get_signless(64), predicate)
        return Expr(arith.cmpi(pred, self.value, Expr.of(other, self)))

    # arith.cmpi predicates: eq=0 ne=1 slt=2 sle=3 sgt=4 sge=5.
    def __eq__(self, o): return self._cmp(o, 0)  # type: ignore[override]
    def __ne__(self, o): return self._cmp(o, 1)  # type: ignore[override]
    def __lt__(self, o): return self._cmp(o, 2)
    def __le__(self, o): return self._cmp(o, 3)
    def __gt__(self, o): return self._cmp(o, 4)
    def __ge__(self, o): return self._cmp(o, 5)
    __hash__ = None  # type: ignore[assignment]


class Pointer(Expr):
    """A `!llvm.ptr<3>` into shared memory (e.g. an mbarrier)."""


class Buffer:
    """A memref value: global tensors and shared allocations."""

    def __init__(self, value: ir.Value):
        self.value = value
        self.type = ir.MemRefType(value.type)

    @property
    def shape(self) -> tuple[int, ...]:
        return tuple(self.type.shape)

    def _indices(self, key) -> list[ir.Value]:
        key = key if isinstance(key, tuple) else (key,)
        if len(key) != self.type.rank:
            raise IndexError(f"expected {self.type.rank} indices, got {len(key)}")
        return [Expr.of(k) for k in key]

    def __getitem__(self, key) -> Expr:
        return Expr(memref.load(self.value, self._indices(key)))

    def __setitem__(self, key, value) -> None:
        memref.store(Expr.of(value), self.value, self._indices(key))

    def ptr_to(self, index: Sequence) -> Pointer:
        """Shared-memory pointer to one element (for mbarrier operands);
        indices are ints or index values."""
        if not _is_shared(self.type.memory_space):
            raise ValueError("ptr_to needs a shared (workgroup) buffer")
        strides, _ = self.type.get_strides_and_offset()
        elem_bytes = self.type.element_type.width // 8
        i64 = ir.IntegerType.get_signless(64)
        base = memref.extract_aligned_pointer_as_index(self.value)
        addr = arith.index_cast(i64, base)
        static = sum(i * s for i, s in zip(index, strides) if isinstance(i, int))
        addr = arith.addi(addr, arith.constant(i64, static * elem_bytes))
        for i, stride in zip(index, strides):
            if not isinstance(i, int):
                scaled = arith.muli(arith.index_cast(i64, Expr.of(i)),
                                    arith.constant(i64, stride * elem_bytes))
                addr = arith.addi(addr, scaled)
        return Pointer(llvm.inttoptr(ir.Type.parse("!llvm.ptr<3>"), addr))


def _is_shared(space) -> bool:
    if space is None:
        return False
    if isinstance(space, ir.IntegerAttr):
        return space.value == _SHARED
    return str(space) == "#gpu.address_space<workgroup>"


@dataclass(frozen=True)
class Tensor:
    """Annotation of a kernel argument: a global tensor. `None` in `shape`
    is a runtime dimension; `dynamic_strides` makes the outer strides runtime
    values too (the innermost stays 1)."""
    shape: tuple
    dtype: str
    dynamic_strides: bool = False

    def memref_type(self) -> ir.MemRefType:
        dyn = ir.ShapedType.get_dynamic_size()
        shape = [dyn if d is None else d for d in self.shape]
        layout = None
        if self.dynamic_strides:
            strides = ", ".join(["?"] * (len(shape) - 1) + ["1"])
            layout = ir.Attribute.parse(f"strided<[{strides}]>")
        return ir.MemRefType.get(shape, element_type(self.dtype), layout=layout)


class _Trace:
    """The gpu.module being filled while a kernel body runs."""
    current: "_Trace | None" = None

    def __init__(self, module_body: ir.Block):
        self.module_body = module_body
        self.shared_count = 0
        self.dynamic_bytes = 0


def alloc_shared(shape: Sequence[int], dtype: str, layout: str = "default",
                 align: int = 16) -> Buffer:
    """A static shared allocation (memref.global in address space 3)."""
    if layout != "default":
        raise ValueError(f"layout '{layout}' is not supported (only 'default')")
    trace = _Trace.current
    if trace is None:
        raise RuntimeError("alloc_shared is only valid inside a @kernel body")
    name = f"__tile_smem{trace.shared_count}"
    trace.shared_count += 1
    mtype = ir.MemRefType.get(list(shape), element_type(dtype),
                              memory_space=ir.IntegerAttr.get(
                                  ir.IntegerType.get_signless(64), _SHARED))
    with ir.InsertionPoint.at_block_begin(trace.module_body):
        memref.GlobalOp(name, ir.TypeAttr.get(mtype), sym_visibility="private",
                        alignment=align)
    return Buffer(memref.get_global(mtype, name))


def dynamic_shared(shape: Sequence[int], dtype: str, offset: int = 0) -> Buffer:
    """A typed view of dynamic shared memory at byte `offset` (its base is
    the start of the shared window when the kernel has no static shared
    memory: 1024-byte aligned). The kernel's dynamic size grows to cover it."""
    trace = _Trace.current
    if trace is None:
        raise RuntimeError("dynamic_shared is only valid inside a @kernel body")
    elem = element_type(dtype)
    nbytes = prod(shape) * elem.width // 8
    trace.dynamic_bytes = max(trace.dynamic_bytes, offset + nbytes)
    workgroup = ir.Attribute.parse("#gpu.address_space<workgroup>")
    raw = gpu.dynamic_shared_memory(
        ir.MemRefType.get([ir.ShapedType.get_dynamic_size()],
                          ir.IntegerType.get_signless(8), memory_space=workgroup))
    view = memref.view(ir.MemRefType.get(list(shape), elem, memory_space=workgroup),
                       raw, _index(offset), [])
    return Buffer(view)


def lane_id() -> Expr:
    return Expr(gpu.lane_id())


def thread_id(dim: str = "x") -> Expr:
    return Expr(gpu.thread_id(getattr(gpu.Dimension, dim)))


def block_id(dim: str = "x") -> Expr:
    return Expr(gpu.block_id(getattr(gpu.Dimension, dim)))


def cta_sync() -> None:
    gpu.barrier()


def mbarrier_init(bar: Pointer, count: int) -> None:
    """`mbarrier.init`, then `fence.proxy.async.shared::cta`: the copy engine
    (the async proxy) completes transactions on the barrier, so the
    initialisation is made visible to it before any copy can name it. (It
    also orders the init before the same thread's arrival for
    compute-sanitizer's racecheck, which otherwise reports the pair.)"""
    nvvm.MBarrierInitOp(bar.value, Expr.of(count) if not isinstance(count, int)
                        else _i32(count))
    fence_proxy_async_shared_cta()


def mbarrier_arrive_expect_tx(bar: Pointer, tx_bytes) -> ir.Value:
    """Arrive with expected transaction bytes; returns the byte-count value
    (a constant op when `tx_bytes` is an int, so `set_tx_bytes` can fix it
    once the copies it accounts for are built)."""
    tx = _i32(tx_bytes) if isinstance(tx_bytes, int) else Expr.of(tx_bytes)
    nvvm.MBarrierArriveExpectTxOp(None, bar.value, tx)
    return tx


def set_tx_bytes(tx: ir.Value, nbytes: int) -> None:
    """Sets the constant made by `mbarrier_arrive_expect_tx(bar, 0)`."""
    tx.owner.attributes["value"] = ir.IntegerAttr.get(
        ir.IntegerType.get_signless(32), nbytes)


def mbarrier_wait(bar: Pointer, phase) -> None:
    parity = _i32(phase) if isinstance(phase, int) else _to_i32(Expr.of(phase))
    nvvm.MBarrierTryWaitParityOp(bar.value, parity, _i32(0x989680))


def fence_proxy_async_shared_cta() -> None:
    """Makes generic-proxy shared writes visible to the copy engine."""
    nvvm.FenceProxyOp(ir.Attribute.parse("#nvvm.proxy_kind<async.shared>"),
                      space=ir.Attribute.parse("#nvvm.shared_space<cta>"))


def bulk_commit_group() -> None:
    nvvm.CpAsyncBulkCommitGroupOp()


def bulk_wait_group(n: int = 0, read: bool = False) -> None:
    nvvm.CpAsyncBulkWaitGroupOp(n, read=read or None)


@contextlib.contextmanager
def if_(cond: Expr):
    """`with if_(lane == 0):` emits scf.if."""
    op = scf.IfOp(Expr.of(cond))
    with ir.InsertionPoint(op.then_block):
        yield
        scf.YieldOp([])


def range_(start, stop, step=1):
    """`for i in range_(tid, n, nthreads):` emits one scf.for (index bounds)."""
    loop = scf.ForOp(Expr.of(start), Expr.of(stop), Expr.of(step))
    with ir.InsertionPoint(loop.body):
        yield Expr(loop.induction_variable)
        scf.YieldOp([])


def unravel(flat: Expr, shape: Sequence[int]) -> tuple:
    """Multi-index of a row-major flat index."""
    index = []
    for extent in reversed(shape):
        index.append(flat % extent)
        flat = flat // extent
    return tuple(reversed(index))


def block_dim(dim: str = "x") -> Expr:
    return Expr(gpu.block_dim(getattr(gpu.Dimension, dim)))


def grid_dim(dim: str = "x") -> Expr:
    """The launch's grid extent (the one it runs with, not the default)."""
    return Expr(gpu.grid_dim(getattr(gpu.Dimension, dim)))


def cluster_sync() -> None:
    """All threads of the cluster: barrier.cluster.arrive + wait."""
    nvvm.ClusterArriveOp()
    nvvm.ClusterWaitOp()


def fence_mbarrier_init_cluster() -> None:
    """Publishes mbarrier initialisation to the cluster (before multicast)."""
    nvvm.FenceMbarrierInitOp()


def cluster_ctarank() -> Expr:
    """This CTA's rank in its cluster (index)."""
    rank = nvvm.read_ptx_sreg_cluster_ctarank(ir.IntegerType.get_signless(32))
    return Expr(arith.index_cast(ir.IndexType.get(), rank))


def grid(*extents: int):
    """`for g, r in grid(2, 8):` emits nested scf.for loops."""
    ips = []
    ivs = []
    for extent in extents:
        loop = scf.ForOp(_index(0), _index(extent), _index(1))
        ip = ir.InsertionPoint(loop.body)
        ip.__enter__()
        ips.append(ip)
        ivs.append(Expr(loop.induction_variable))
    try:
        yield ivs[0] if len(ivs) == 1 else tuple(ivs)
    finally:
        for ip in reversed(ips):
            scf.YieldOp([])
            ip.__exit__(None, None, None)


class KernelDef:
    """A traced kernel: `build()` returns its module, `.launch` its shape."""

    def __init__(self, fn: Callable, grid, block, cluster, target: str):
        self.fn = fn
        self.name = fn.__name__
        self.grid = dim3(grid)
        self.block = dim3(block)
        self.cluster = dim3(cluster) if cluster else None
        self.target = target
        sig = inspect.signature(fn)
        self.params = []
        for name, param in sig.parameters.items():
            if not isinstance(param.annotation, Tensor):
                raise TypeError(f"kernel parameter '{name}' needs a Tensor(...) "
                                "annotation")
            self.params.append((name, param.annotation))

    def build(self, context: ir.Context | None = None) -> ir.Module:
        """Traces the body into a new module (in `context` or a new one)."""
        ctx = context or make_context()
        with ctx, ir.Location.unknown():
            module = ir.Module.create()
            with ir.InsertionPoint(module.body):
                gmod = gpu.GPUModuleOp("kernels", targets=ir.ArrayAttr.get(
                    [ir.Attribute.parse(self.target)]))
                gmod.bodyRegion.blocks.append()
            body = gmod.bodyRegion.blocks[0]
            with ir.InsertionPoint(body):
                ftype = ir.FunctionType.get(
                    [t.memref_type() for _, t in self.params], [])
                func = gpu.GPUFuncOp(ir.TypeAttr.get(ftype), sym_name=self.name,
                                     kernel=True, known_block_size=list(self.block),
                                     known_grid_size=list(self.grid))
                entry = func.body.blocks.append(*ftype.inputs)
            if self.cluster:
                func.attributes["tile.cluster_size"] = ir.DenseI32ArrayAttr.get(
                    list(self.cluster))
            trace = _Trace(body)
            previous, _Trace.current = _Trace.current, trace
            try:
                with ir.InsertionPoint(entry):
                    self.fn(*[Buffer(arg) for arg in entry.arguments])
                    gpu.ReturnOp([])
            finally:
                _Trace.current = previous
            if trace.dynamic_bytes:
                func.attributes["tile.dynamic_shared_bytes"] = ir.IntegerAttr.get(
                    ir.IntegerType.get_signless(64), trace.dynamic_bytes)
            try:
                module.operation.verify()
            except ir.MLIRError as err:
                messages = [d.message for d in err.error_diagnostics] or [str(err)]
                raise from_diagnostic(messages[0]) from None
            return module


def kernel(grid=1, block=32, cluster=None, target: str = DEFAULT_TARGET):
    """Decorator: `@kernel(grid=1, block=32)` turns a Python function into a
    traced TMA kernel (a KernelDef)."""
    def wrap(fn: Callable) -> KernelDef:
        return KernelDef(fn, grid, block, cluster, target)
    return wrap


def make_context() -> ir.Context:
    """A context with every upstream dialect plus `tile`."""
    ctx = ir.Context()
    _native.register_dialect(ctx)
    return ctx
