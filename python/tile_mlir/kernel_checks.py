"""What compile checks of a module's kernels before any pipeline runs, and
of ptxas's report after: the rules a kernel that can never be launched
breaks. A builder kernel (KernelDef) meets the symbol and launch rules when
it is constructed; MLIR text and modules are checked here.

- [compile-input]: the module holds a gpu.module with a kernel;
- [kernel-symbol]: every gpu.module and gpu.func symbol is a PTX identifier
  (the NVPTX back end aborts the process on any other);
- [launch-shape], [block-limit], [grid-limit], [cluster-limit]: the launch
  attributes (known_block_size, known_grid_size, tile.cluster_size,
  known_cluster_size, nvvm.cluster_dim);
- [kernel-param-type]: each parameter is one a host can pass;
- [shared-memory-limit]: static plus dynamic shared bytes (check_shared);
- [register-limit]: registers per thread (ptxas -v) times threads per block
  (check_registers).
"""

from __future__ import annotations

import re

import mlir.ir as ir

from . import contract
from .errors import TileUsageError
from .launch_shape import check_block, check_cluster, check_grid, check_symbol, dim3

# MLIR scalar types a kernel parameter may have -> the runtime's dtype name.
SCALAR_DTYPES = {"i32": "i32", "i64": "i64", "f32": "float32", "f64": "float64",
                 "index": "index"}

# Attributes that declare a kernel's cluster shape (tile.cluster_size is the
# builder's; the others upstream's).
_CLUSTER_ATTRS = ("tile.cluster_size", "known_cluster_size", "nvvm.cluster_dim")


def gpu_modules(module: ir.Module) -> list:
    """The top-level gpu.modules of `module`."""
    return [op.operation for op in module.body.operations
            if op.operation.name == "gpu.module"]


def _symbol(op) -> str:
    return ir.StringAttr(op.attributes["sym_name"]).value


def _shape_attr(func_name: str, attrs, key: str):
    """The 3-D shape an array<i32: ...> launch attribute declares, or None."""
    if key not in attrs:
        return None
    try:
        values = list(ir.DenseI32ArrayAttr(attrs[key]))
    except ValueError:
        raise TileUsageError("launch-shape", f"kernel '{func_name}': {key} is "
                             f"array<i32: x[, y[, z]]>, got {attrs[key]}") from None
    try:
        return dim3(values)
    except TileUsageError as err:
        raise TileUsageError("launch-shape", f"kernel '{func_name}': {key} "
                             f"{values}: {err.message}") from None


def _check_launch_attrs(name: str, attrs) -> None:
    """The launch limits of the shapes a kernel's attributes declare."""
    block = _shape_attr(name, attrs, "known_block_size")
    grid = _shape_attr(name, attrs, "known_grid_size")
    if block is not None:
        check_block(block, f"kernel '{name}': known_block_size")
    if grid is not None:
        check_grid(grid, f"kernel '{name}': known_grid_size")
    for key in _CLUSTER_ATTRS:
        cluster = _shape_attr(name, attrs, key)
        if cluster is not None:
            check_cluster(cluster, grid, f"kernel '{name}': {key}")


def _host_passable(t: ir.Type) -> bool:
    """Whether the runtime can pack a parameter of type `t`."""
    if isinstance(t, ir.MemRefType):
        space = ir.MemRefType(t).memory_space
        global_space = (space is None or str(space) == "#gpu.address_space<global>" or
                        (isinstance(space, ir.IntegerAttr) and space.value in (0, 1)))
        return global_space and str(ir.MemRefType(t).element_type) in contract.ELEMENT_TYPES
    return str(t) in SCALAR_DTYPES


def _check_params(name: str, attrs) -> None:
    """[kernel-param-type]: every parameter is one a host can pass."""
    ftype = ir.FunctionType(ir.TypeAttr(attrs["function_type"]).value)
    for i, t in enumerate(ftype.inputs):
        if not _host_passable(t):
            raise TileUsageError("kernel-param-type", f"kernel '{name}': parameter {i} "
                                 f"has type {t}, which no host can pass: a kernel takes "
                                 "memrefs of global memory of a dtype the runtime knows "
                                 f"and {', '.join(SCALAR_DTYPES)} scalars (allocate "
                                 "shared memory and mbarriers inside the kernel)")


def check_input(module: ir.Module) -> None:
    """The checks of MLIR input before anything runs on it: a kernel to
    compile, symbols, launch attributes and parameter types."""
    gmods = gpu_modules(module)
    if not gmods:
        raise TileUsageError("compile-input", "the module holds no gpu.module "
                             "(nothing to compile)")
    kernels = 0
    for gmod in gmods:
        check_symbol(_symbol(gmod), "gpu.module symbol")
        for op in gmod.regions[0].blocks[0].operations:
            op = op.operation
            if op.name != "gpu.func":
                continue
            name = check_symbol(_symbol(op), "gpu.func symbol")
            if "gpu.kernel" in op.attributes:
                kernels += 1
                _check_launch_attrs(name, op.attributes)
                _check_params(name, op.attributes)
    if not kernels:
        raise TileUsageError("compile-input", "the module's gpu.module "
                             f"{', '.join(repr(_symbol(g)) for g in gmods)} holds no "
                             "gpu.func kernel (nothing to compile)")


def check_shared(info: dict) -> None:
    """[shared-memory-limit] of a kernel's manifest entry: static plus
    dynamic shared bytes within the per-block opt-in maximum of the
    supported chips. (Static shared memory alone may pass 48 KB: ptxas takes
    up to that maximum for the arch-specific sm_90a and sm_100a targets,
    docs/decisions.md.)"""
    static, dynamic = info["static_shared_bytes"], info["dynamic_shared_bytes"]
    if static + dynamic > contract.MAX_SHARED_BYTES_PER_BLOCK:
        raise TileUsageError("shared-memory-limit", f"kernel '{info['name']}' needs "
                             f"{static} static + {dynamic} dynamic = {static + dynamic} "
                             f"bytes of shared memory; a block has at most "
                             f"{contract.MAX_SHARED_BYTES_PER_BLOCK}")


_ENTRY = re.compile(r"Compiling entry function '([^']+)'")
_USED = re.compile(r"Used (\d+) registers")


def registers_of(report: str) -> dict[str, int]:
    """Registers per thread of each entry function, from `ptxas -v`'s report
    ("Compiling entry function 'k'" ... "Used N registers")."""
    found, entry = {}, None
    for line in report.splitlines():
        match = _ENTRY.search(line)
        if match:
            entry = match.group(1)
            continue
        match = _USED.search(line)
        if match and entry is not None and entry not in found:
            found[entry] = int(match.group(1))
    return found


def check_registers(info: dict) -> None:
    """[register-limit]: a kernel's registers per thread (`registers`, from
    ptxas) times its block's threads fit one register file."""
    if "registers" not in info or "block" not in info:
        return
    threads = info["block"][0] * info["block"][1] * info["block"][2]
    total = info["registers"] * threads
    if total > contract.REGISTERS_PER_BLOCK:
        raise TileUsageError("register-limit", f"kernel '{info['name']}' uses "
                             f"{info['registers']} registers a thread (ptxas) x {threads} "
                             f"threads = {total}; a block has at most "
                             f"{contract.REGISTERS_PER_BLOCK} (fewer threads, or less "
                             "live state per thread)")
