"""A kernel's signature, as its manifest entry states it: the checks a
call's arguments and launch shape pass before anything is uploaded or
launched. Needs no driver (numpy, the contract and the manifest only), so a
wrong call is named on a machine without a GPU too: `Artifact.__call__`
runs these checks before it loads the module, and a loaded Kernel (a
Signature) runs them on every call that is not a cached launch."""

from __future__ import annotations

from ..launch_shape import check_block, check_cluster, check_grid, dim3
from ..spec import TensorMapSpec
from .arrays import accepted_dtypes, check_packed, device_view, host_packing
from .errors import TileRuntimeError
from .scalars import ScalarSlot, is_array, is_number
from .tensormap import check_source


class Signature:
    """The parameters, tensor maps and launch shape of one kernel's manifest
    entry (`info`, checked by runtime/manifest.py)."""

    def __init__(self, info: dict):
        self.info = info
        self.name = info["name"]
        self.specs = [TensorMapSpec.from_json(entry)
                      for entry in info.get("tensor_maps", [])]
        self.scalars = {i: ScalarSlot(scalar_dtype(p), i)
                        for i, p in enumerate(info["params"]) if p["kind"] == "scalar"}

    def _check_args(self, views: list, args=None) -> None:
        """The launch rules for the arguments' views (None for a number);
        `args`: the arguments themselves, whose numbers are checked."""
        params = self.info["params"]
        if len(views) != len(params):
            raise TileRuntimeError("argument-count", f"{self.name} takes {len(params)} "
                                   f"arguments, got {len(views)}")
        for i, (view, param) in enumerate(zip(views, params)):
            if param["kind"] == "scalar":
                if args is not None:
                    self._check_scalar(i, args[i])
                continue
            if view is None:
                number = "" if args is None else f" {args[i]!r}"
                raise TileRuntimeError("argument-kind", f"argument {i}: the number"
                                       f"{number} for a memref parameter (pass an "
                                       "array)")
            if view.dtype not in accepted_dtypes(param["element"]):
                raise TileRuntimeError("argument-dtype", f"argument {i}: dtype "
                                       f"{view.dtype} does not match the kernel's "
                                       f"{param['element']}")
            shape = param["shape"]
            if len(view.shape) != len(shape):
                raise TileRuntimeError("global-rank", f"argument {i}: rank "
                                       f"{len(view.shape)}, expected {len(shape)}")
            packed = bool(shape) and host_packing(param["element"]) != (1, 1)
            for axis, (got, want) in enumerate(zip(view.shape, shape)):
                if packed and axis == len(shape) - 1:
                    continue  # bytes of packed values: check_packed
                if want is not None and got != want:
                    raise TileRuntimeError("argument-shape", f"argument {i}: axis "
                                           f"{axis} is {got}, expected {want}")
            if packed:
                check_packed(view, param["element"], shape[-1], i)
        for spec in self.specs:
            check_source(spec, views[spec.source], spec.source)

    def launch_shape(self, grid=None, block=None, cluster=None) -> tuple:
        """(grid, block, cluster) of a launch, 3-D, the manifest's where not
        given; [launch-shape] unless 1 to 3 positive ints, [grid-limit],
        [block-limit], [cluster-limit] beyond CUDA's launch limits."""
        info = self.info
        grid = dim3(info.get("grid", (1, 1, 1)) if grid is None else grid)
        block = dim3(info.get("block", (1, 1, 1)) if block is None else block)
        cluster = info.get("cluster") if cluster is None else cluster
        cluster = None if cluster is None else dim3(cluster)
        check_block(block)
        check_grid(grid)
        if cluster is not None:
            check_cluster(cluster, grid)
        return grid, block, cluster

    def check_call(self, args, grid=None, block=None, cluster=None) -> None:
        """Every check of a call that needs no device: the argument count,
        each argument's kind, dtype, shape and (a number) range, the tensor
        maps' rules on its shape and strides, and the launch shape. An
        array known only through DLPack is read at the launch (its reader
        needs the driver): its own checks wait for it."""
        params = self.info["params"]
        if len(args) != len(params):
            raise TileRuntimeError("argument-count", f"{self.name} takes {len(params)} "
                                   f"arguments, got {len(args)}")
        self.launch_shape(grid, block, cluster)
        if any(p["kind"] != "scalar" and _dlpack_only(a) for a, p in zip(args, params)):
            for i in self.scalars:   # the numbers still are checked
                self._check_scalar(i, args[i])
            return
        views = [None if p["kind"] == "scalar" or is_number(a) else device_view(a, i)
                 for i, (a, p) in enumerate(zip(args, params))]
        self._check_args(views, args)

    def _check_scalar(self, i: int, arg) -> None:
        if is_array(arg):
            raise TileRuntimeError("argument-kind", f"argument {i}: an array "
                                   f"for the {self.scalars[i].dtype} scalar "
                                   "parameter (pass a number)")
        self.scalars[i].value(arg)


def _dlpack_only(x) -> bool:
    """An array described only by __dlpack__ (jax, ...), not a number."""
    return (not is_number(x) and hasattr(x, "__dlpack__") and
            not hasattr(x, "__cuda_array_interface__") and
            type(x).__module__.split(".")[0] not in ("numpy", "torch"))


def scalar_dtype(param: dict) -> str:
    """A scalar parameter's dtype (MLIR input names only its `type`)."""
    return param.get("dtype") or param.get("type")


__all__ = ["Signature", "scalar_dtype"]
