"""Kernel definitions: a body, its parameters and its launch shape, traced
into a `gpu.module` holding one `gpu.func`.

The parameters come from an explicit signature,

    KernelDef(body, params=[("A", Tensor((64, 64), "float32")), ...], name="copy")

or, for a decorated function, from its annotations (`A: Tensor(...)`; string
annotations, as `from __future__ import annotations` makes them, are
evaluated in the function's module and closure).
"""

from __future__ import annotations

import inspect
from typing import Callable, Iterable, Mapping, Union

import mlir.ir as ir
from mlir.dialects import gpu
from mlir.passmanager import PassManager

from .. import _native
from ..errors import TileError, TileUsageError, from_mlir_error, verify_operation
from ..launch_shape import check_launch, check_symbol, dim3
from .scalar import Scalar
from .tensor import Tensor
from .trace import Trace
from .values import Buffer, Expr

DEFAULT_TARGET = '#nvvm.target<chip = "sm_90a", features = "+ptx86">'

# An explicit signature: (name, Tensor | Scalar) pairs in order, or a dict.
Param = Union[Tensor, Scalar]
Params = Union[Iterable[tuple[str, Param]], Mapping[str, Param]]


def make_context() -> ir.Context:
    """A context with every upstream dialect plus `tile`."""
    ctx = ir.Context()
    _native.register_dialect(ctx)
    return ctx


def _closure(fn: Callable) -> dict:
    """The variables `fn` closes over, by name (unbound cells left out)."""
    scope = {}
    for var, cell in zip(fn.__code__.co_freevars, fn.__closure__ or ()):
        try:
            scope[var] = cell.cell_contents
        except ValueError:  # an unbound cell
            pass
    return scope


def signature_params(fn: Callable) -> list[tuple[str, Param]]:
    """(name, Tensor or Scalar) per parameter of `fn`, from its annotations; string
    annotations are evaluated in `fn`'s module and closure."""
    fn_name = getattr(fn, "__name__", repr(fn))
    try:
        sig = inspect.signature(fn, globals=getattr(fn, "__globals__", None),
                                locals=_closure(fn) if hasattr(fn, "__code__") else None,
                                eval_str=True)
    except TileError:  # an annotation's own Tensor(...) / Scalar(...) error
        raise
    except Exception as err:  # noqa: BLE001 - any annotation that does not evaluate
        raise TileUsageError("kernel-signature", f"kernel '{fn_name}': cannot "
                             f"evaluate a parameter annotation ({type(err).__name__}: "
                             f"{err}); pass params=[(name, Tensor(...)), ...] "
                             "instead") from None
    params = []
    for name, param in sig.parameters.items():
        if not isinstance(param.annotation, (Tensor, Scalar)):
            raise TileUsageError("kernel-signature", f"kernel parameter '{name}' "
                                 "needs a Tensor(...) or Scalar(...) annotation")
        params.append((name, param.annotation))
    return params


def _explicit_params(params) -> list[tuple[str, Param]]:
    if isinstance(params, (str, bytes)) or not hasattr(params, "__iter__"):
        raise TileUsageError("kernel-signature", "params: expected (name, "
                             f"Tensor(...) or Scalar(...)) pairs or a dict, got {params!r}")
    items = list(params.items()) if isinstance(params, Mapping) else list(params)
    for item in items:
        if not isinstance(item, (tuple, list)) or len(item) != 2 or \
                not isinstance(item[0], str) or not isinstance(item[1], (Tensor, Scalar)):
            raise TileUsageError("kernel-signature", "params: expected (name, "
                                 f"Tensor(...) or Scalar(...)) pairs, got {item!r}")
    return [(name, tensor) for name, tensor in items]


def _check_body_takes(body, count: int) -> None:
    """[kernel-signature]: `body` is called with one value per parameter, so
    a body that cannot take `count` positional arguments is rejected here,
    not as Python's TypeError in the middle of build()."""
    try:
        sig = inspect.signature(body)
    except (TypeError, ValueError):  # no signature to read (a builtin): build() tells
        return
    try:
        sig.bind(*range(count))
    except TypeError as err:
        name = getattr(body, "__name__", repr(body))
        raise TileUsageError("kernel-signature", f"kernel body {name}{sig} cannot take "
                             f"the {count} parameter(s) of its signature, one per "
                             f"(name, Tensor/Scalar) pair ({err})") from None


class KernelDef:
    """A traced kernel: `build()` returns its module, `.grid` / `.block` /
    `.cluster` its launch shape.

    `body` is called with one `Buffer` per Tensor parameter and one `Expr`
    per Scalar parameter, in order (a body that cannot take them is a
    [kernel-signature] error here, at construction). `params` ((name,
    Tensor | Scalar) pairs or a dict) and `name` give the signature
    explicitly; without them they come from `body`'s annotations and
    `__name__`. The name is a PTX identifier ([kernel-symbol]: give a lambda
    `name=`) and the launch shape within CUDA's limits ([block-limit],
    [grid-limit], [cluster-limit]), checked here; `build()` also runs the
    static barrier checks (tile-check-barriers)."""

    def __init__(self, body: Callable, grid=1, block=32, cluster=None,
                 target: str = DEFAULT_TARGET, *, params: Params | None = None,
                 name: str | None = None):
        if not callable(body):
            raise TileUsageError("kernel-signature", f"a kernel body is a callable, got "
                                 f"{body!r}")
        self.fn = body
        self.grid = dim3(grid)
        self.block = dim3(block)
        self.cluster = dim3(cluster) if cluster else None
        check_launch(self.grid, self.block, self.cluster)
        self.target = target
        self.params = (signature_params(body) if params is None
                       else _explicit_params(params))
        _check_body_takes(body, len(self.params))
        # A name the NVPTX back end cannot emit aborts the process at compile.
        self.name = check_symbol(getattr(body, "__name__", None) if name is None
                                 else name)

    def build(self, context: ir.Context | None = None) -> ir.Module:
        """Traces the body into a new module (in `context` or a new one). A
        rejected op or barrier protocol raises TileVerifyError naming the rule
        ([mbarrier-uninitialized], [mbarrier-unarmed], [barrier-tx-mismatch],
        a copy's rules)."""
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
                    [_ir_type(t) for _, t in self.params], [])
                func = gpu.GPUFuncOp(ir.TypeAttr.get(ftype), sym_name=self.name,
                                     kernel=True, known_block_size=list(self.block),
                                     known_grid_size=list(self.grid))
                entry = func.body.blocks.append(*ftype.inputs)
            if any(isinstance(t, Scalar) for _, t in self.params):
                # What the runtime packs per parameter: a memref, or a scalar
                # of this builder type (signless integers carry no sign).
                func.attributes["tile.param_types"] = ir.ArrayAttr.get(
                    [ir.StringAttr.get(t.dtype if isinstance(t, Scalar) else "memref")
                     for _, t in self.params])
            if self.cluster:
                func.attributes["tile.cluster_size"] = ir.DenseI32ArrayAttr.get(
                    list(self.cluster))
            trace = Trace(body)
            previous, Trace.current = Trace.current, trace
            try:
                with ir.InsertionPoint(entry):
                    self.fn(*[Expr(arg) if isinstance(t, Scalar) else Buffer(arg)
                              for arg, (_, t) in zip(entry.arguments, self.params)])
                    gpu.ReturnOp([])
            finally:
                Trace.current = previous
            if trace.dynamic_bytes:
                func.attributes["tile.dynamic_shared_bytes"] = ir.IntegerAttr.get(
                    ir.IntegerType.get_signless(64), trace.dynamic_bytes)
            verify_operation(module)
            _check_barriers(module)
            return module


def _check_barriers(module: ir.Module) -> None:
    """tile-check-barriers on the built module: a barrier a wait or copy
    names that is never initialised or armed, or whose phase expects other
    bytes than its copies deliver, is a TileVerifyError naming the rule
    ([mbarrier-uninitialized], [mbarrier-unarmed], [barrier-tx-mismatch]),
    at build rather than as a hang at launch."""
    pm = PassManager.parse("builtin.module(tile-check-barriers)", context=module.context)
    try:
        pm.run(module.operation)
    except ir.MLIRError as err:
        raise from_mlir_error(err) from None


def _ir_type(param: Param) -> ir.Type:
    return param.ir_type() if isinstance(param, Scalar) else param.memref_type()


def kernel(grid=1, block=32, cluster=None, target: str = DEFAULT_TARGET, *,
           params: Params | None = None, name: str | None = None):
    """Decorator: `@kernel(grid=1, block=32)` turns a Python function into a
    traced TMA kernel (a KernelDef); `params=` and `name=` as KernelDef's."""
    def wrap(fn: Callable) -> KernelDef:
        return KernelDef(fn, grid, block, cluster, target, params=params, name=name)
    return wrap
