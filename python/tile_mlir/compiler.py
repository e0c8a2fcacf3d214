"""Compile driver: tile IR (a builder kernel or a module) to PTX and a cubin.

Stages, each a pure function of its input, each a pipeline registered by
name in C++ (passes/lib/Pipelines/Pipeline.cpp):
  tile IR --tile-to-nvvm--> NVVM --gpu-module-to-binary--> PTX --ptxas--> cubin
(tile-to-ptx is the first two.) The tensor-map specs the lowering records on
each kernel (#tile.tensor_map_spec, final after tile-to-nvvm) go into the
artifact's manifest as the C++ serializer writes them; the runtime reads
them on the GPU machine through tile_mlir.spec.TensorMapSpec.

`debug=True` runs `tile-to-nvvm{debug=true}` (docs/debug-mode.md): bounded
mbarrier waits and device checks of the runtime rules, reported through an
error buffer whose layout the lowering records on the gpu.module and the
manifest's `debug` entry carries to the runtime.
"""

from __future__ import annotations

import dataclasses
import json
import subprocess
import tempfile
from pathlib import Path

import mlir.ir as ir
from mlir.dialects import gpu
from mlir.passmanager import PassManager

from . import _native, ir_cache, kernel_checks
from .artifact import Artifact
from .errors import (TileError, TileUsageError, first_error_diagnostic, from_mlir_error,
                     parse_module, verify_operation)
from .kernel import KernelDef, make_context
from .launch_shape import check_launch, check_symbol, dim3
from .targets import ARCHES, PTX_FEATURES
from .toolchain import find_ptxas



class CompileError(TileError, RuntimeError):
    """A pipeline stage (or ptxas) failed: [compile-stage], the message holds
    its diagnostics."""

    def __init__(self, message: str):
        super().__init__("compile-stage", message)


def target_attr(arch: str) -> str:
    """The `#nvvm.target` attribute for `arch` (one of targets.ARCHES, else a
    TileUsageError [compile-arch])."""
    if not isinstance(arch, str) or arch not in ARCHES:
        raise TileUsageError("compile-arch", f"unsupported arch {arch!r} "
                             f"(supported: {', '.join(ARCHES)})")
    return f'#nvvm.target<chip = "{arch}", features = "{PTX_FEATURES}">'


def _retarget(module: ir.Module, arch: str) -> None:
    targets = ir.ArrayAttr.get([ir.Attribute.parse(target_attr(arch))])
    for op in module.body.operations:
        if op.operation.name == "gpu.module":
            op.operation.attributes["targets"] = targets


# Contract rules decided by a pass rather than by the op's verifier (the
# barrier accounting tile-lower-tma runs first): a rejection names its rule
# as a TileVerifyError, like the verifier's.
_PASS_DECIDED_RULES = ("barrier-tx-mismatch", "mbarrier-uninitialized", "mbarrier-unarmed")


def _run(module: ir.Module, pipeline: str) -> None:
    pm = PassManager.parse(pipeline, context=module.context)
    try:
        pm.run(module.operation)
    except ir.MLIRError as err:
        first = first_error_diagnostic(err)
        if first is not None and any(f"[{rule}]" in first.message
                                     for rule in _PASS_DECIDED_RULES):
            raise from_mlir_error(err) from None
        raise CompileError(str(err)) from None


def lower_to_nvvm(module: ir.Module, debug: bool = False) -> ir.Module:
    """Runs tile-lower-tma only (for inspection); returns a new module."""
    out = ir.Module.parse(str(module), module.context)
    _run(out, "builtin.module(tile-lower-tma{debug=true})" if debug
         else "builtin.module(tile-lower-tma)")
    return out


def _static_shared_bytes(gpu_module) -> int:
    """Bytes of the workgroup memref.globals of a gpu.module."""
    total = 0
    for op in gpu_module.regions[0].blocks[0].operations:
        if op.operation.name != "memref.global":
            continue
        mtype = ir.MemRefType(ir.TypeAttr(op.operation.attributes["type"]).value)
        space = mtype.memory_space
        if space is not None and (str(space) == "#gpu.address_space<workgroup>" or
                                  (isinstance(space, ir.IntegerAttr) and space.value == 3)):
            count = 1
            for dim in mtype.shape:
                count *= dim
            total += count * mtype.element_type.width // 8
    return total


def _kernel_metadata(module: ir.Module) -> list[dict]:
    """Name, launch shape, cluster, shared bytes and parameters of each kernel."""
    kernels = []

    def visit(op):
        if op.name == "gpu.func" and "gpu.kernel" in op.attributes:
            attrs = op.attributes
            info = {"name": ir.StringAttr(attrs["sym_name"]).value}
            for key, out in (("known_block_size", "block"),
                             ("known_grid_size", "grid"),
                             ("tile.cluster_size", "cluster")):
                if key in attrs:
                    info[out] = list(ir.DenseI32ArrayAttr(attrs[key]))
            info["static_shared_bytes"] = _static_shared_bytes(op.parent)
            info["dynamic_shared_bytes"] = (
                ir.IntegerAttr(attrs["tile.dynamic_shared_bytes"]).value
                if "tile.dynamic_shared_bytes" in attrs else 0)
            ftype = ir.FunctionType(ir.TypeAttr(attrs["function_type"]).value)
            declared = ([ir.StringAttr(a).value for a in ir.ArrayAttr(attrs["tile.param_types"])]
                        if "tile.param_types" in attrs else [None] * len(ftype.inputs))
            info["params"] = [_param(t, d) for t, d in zip(ftype.inputs, declared)]
            kernels.append(info)
        return ir.WalkResult.ADVANCE

    module.operation.walk(visit)
    return kernels


def _param(t: ir.Type, declared: str | None = None) -> dict:
    """A parameter's manifest entry. A scalar's `dtype` is its builder type
    (`declared`, from tile.param_types) or, for MLIR input, what its type
    says (a signless integer then accepts either signedness's range)."""
    if isinstance(t, ir.MemRefType):
        shape = [None if d == ir.ShapedType.get_dynamic_size() else d for d in t.shape]
        return {"kind": "memref", "shape": shape, "element": str(t.element_type)}
    return {"kind": "scalar", "type": str(t),
            "dtype": declared or kernel_checks.SCALAR_DTYPES.get(str(t), str(t))}


def _tensor_maps(module: ir.Module) -> dict[str, list[dict]]:
    """tile.tensor_maps of each lowered kernel: its manifest entries, as the
    one C++ serializer of #tile.tensor_map_spec writes them."""
    found = {}

    def visit(op):
        if "tile.tensor_maps" in op.attributes and "sym_name" in op.attributes:
            name = ir.StringAttr(op.attributes["sym_name"]).value
            found[name] = [json.loads(_native.tensor_map_spec_json(spec))
                           for spec in ir.ArrayAttr(op.attributes["tile.tensor_maps"])]
        return ir.WalkResult.ADVANCE

    module.operation.walk(visit)
    return found


def _attribute_value(attr: ir.Attribute):
    """A plain Python value of a dictionary/array/string/integer/bool attribute."""
    if isinstance(attr, ir.DictAttr):
        return {attr[i].name: _attribute_value(attr[i].attr) for i in range(len(attr))}
    if isinstance(attr, ir.ArrayAttr):
        return [_attribute_value(a) for a in attr]
    if isinstance(attr, ir.StringAttr):
        return attr.value
    if isinstance(attr, ir.BoolAttr):
        return attr.value
    if isinstance(attr, ir.IntegerAttr):
        return attr.value
    raise CompileError(f"unexpected attribute {attr} in tile.debug")


def _debug_entry(module: ir.Module) -> dict | None:
    """The `tile.debug` record of the (first) gpu.module: the error buffer's
    layout, the sites and the kernels (docs/debug-mode.md)."""
    for op in module.body.operations:
        if op.operation.name == "gpu.module" and "tile.debug" in op.operation.attributes:
            return _attribute_value(op.operation.attributes["tile.debug"])
    return None


def _ptx_of(module: ir.Module) -> str:
    for op in module.body.operations:
        if op.operation.name == "gpu.binary":
            obj = gpu.ObjectAttr(ir.ArrayAttr(op.operation.attributes["objects"])[0])
            return obj.object.decode()
    raise CompileError("the pipeline produced no gpu.binary")


def assemble(ptx: str, arch: str, ptxas: str | None = None) -> bytes:
    """ptxas: PTX text to a cubin for `arch`."""
    return assemble_reporting(ptx, arch, ptxas)[0]


def assemble_reporting(ptx: str, arch: str,
                       ptxas: str | None = None) -> tuple[bytes, dict[str, int]]:
    """ptxas -v: the cubin and the registers per thread of each kernel."""
    ptxas = ptxas or find_ptxas()
    if ptxas is None:
        raise CompileError("no ptxas found (install a CUDA toolkit or the "
                           "nvidia-cuda-nvcc wheel)")
    with tempfile.TemporaryDirectory() as tmp:
        src, out = Path(tmp) / "k.ptx", Path(tmp) / "k.cubin"
        src.write_text(ptx)
        proc = subprocess.run([ptxas, f"-arch={arch}", "-v", "-o", str(out), str(src)],
                              capture_output=True, text=True)
        if proc.returncode != 0:
            raise CompileError(f"ptxas -arch={arch} failed:\n{proc.stderr}")
        return out.read_bytes(), kernel_checks.registers_of(proc.stdout + proc.stderr)


def compile(kernel: KernelDef | ir.Module | str, arch: str = "sm_90a",
            cubin: bool = True, debug: bool = False, cache: bool = True) -> Artifact:
    """Compiles a builder kernel, a module of gpu.modules or its MLIR text
    for `arch` (sm_90a or sm_100a; the gpu.modules are retargeted to it). A
    module the verifier rejects raises TileVerifyError naming the rule
    ([mlir-verifier] for an upstream op's verifier); text that does not parse
    and anything else as `kernel` raise TileUsageError ([mlir-syntax],
    [compile-input]: also a module without a kernel, and a `cubin`, `debug` or
    `cache` that is not a bool); a failing stage raises
    CompileError [compile-stage]. A kernel that could never launch is a
    TileUsageError before any pipeline runs (tile_mlir.kernel_checks): a
    symbol PTX does not take [kernel-symbol], launch attributes beyond CUDA's
    limits [block-limit] / [grid-limit] / [cluster-limit], a parameter no host
    can pass [kernel-param-type], too much shared memory
    [shared-memory-limit]; after ptxas, [register-limit].
    `debug=True` builds the debug variant (docs/debug-mode.md): waits are
    bounded and the runtime rules checked on the device; the runtime reads
    the error buffer after every launch and raises TileRuntimeError naming
    the rule.

    The result is looked up in the compile cache first (tile_mlir.cache,
    docs/compile-cache.md: same IR, arch, debug and tools) and stored there;
    `cache=False` compiles afresh and stores nothing. Called with arrays,
    the artifact loads itself and launches (`compile(k)(x, out)`)."""
    return compile_keyed(kernel, arch, cubin, debug, cache)[0]


def compile_keyed(kernel, arch: str = "sm_90a", cubin: bool = True, debug: bool = False,
                  cache: bool = True) -> tuple[Artifact, str | None]:
    """compile(), also returning the artifact's IR-level cache key (None
    with cache=False)."""
    target_attr(arch)  # an unsupported arch fails before anything is built
    for switch, value in (("cubin", cubin), ("debug", debug), ("cache", cache)):
        if not isinstance(value, bool):  # a truth value Python may not even have
            raise TileUsageError("compile-input", f"compile()'s {switch} is a bool, "
                                 f"got {value!r}")
    text, module, launch = _source(kernel)
    key = None
    if cache:
        key = ir_cache.ir_key(text + json.dumps(launch), arch, debug)
        hit = ir_cache.lookup_ir(key, cubin)
        if hit is not None:
            return (hit if cubin else _without_cubin(hit)), key
    if module is None:
        module = parse_module(text, make_context())
    art = _compile_module(module, launch, arch, cubin, debug)
    if key is not None:
        ir_cache.store_ir(key, art)
    return art, key


def _source(kernel) -> tuple[str, ir.Module | None, dict | None]:
    """The kernel's MLIR text (what the IR key hashes), its module where one
    was built, and a builder kernel's launch shape. A KernelDef traced
    before, unchanged since, gives its text without tracing again."""
    if isinstance(kernel, KernelDef):
        # Checked at construction; again here (cheap) for attributes set since.
        check_symbol(kernel.name)
        check_launch(dim3(kernel.grid), dim3(kernel.block),
                     dim3(kernel.cluster) if kernel.cluster else None)
        launch = {"grid": list(kernel.grid), "block": list(kernel.block),
                  "cluster": list(kernel.cluster) if kernel.cluster else None}
        snapshot = (kernel.fn, kernel.name, tuple(kernel.grid), tuple(kernel.block),
                    kernel.cluster and tuple(kernel.cluster), kernel.target,
                    tuple(kernel.params))
        traced = getattr(kernel, "_traced", None)
        if traced is not None and traced[0] == snapshot:
            return traced[1], None, launch
        module = kernel.build(make_context())
        text = str(module)
        kernel._traced = (snapshot, text)
        return text, module, launch
    if isinstance(kernel, (ir.Module, str)):
        if isinstance(kernel, str):
            context = make_context()
        else:
            context = kernel.context
            _native.register_dialect(context)
        # A copy, parsed again: retargeting does not touch the caller's module.
        module = parse_module(str(kernel), context)
        # Before the cache or any pipeline: a symbol the NVPTX back end cannot
        # emit aborts the process.
        kernel_checks.check_input(module)
        return str(module), module, None
    raise TileUsageError("compile-input", "compile() takes a KernelDef, an "
                         f"mlir.ir.Module or MLIR text, got {type(kernel).__name__}")


def _without_cubin(art: Artifact) -> Artifact:
    """A cached artifact as cubin=False makes it: no cubin, and no entry
    of ptxas's report (registers) in the manifest."""
    if art.cubin is None:
        return art
    kernels = [{k: v for k, v in info.items() if k != "registers"}
               for info in art.manifest["kernels"]]
    return dataclasses.replace(art, cubin=None, manifest={**art.manifest, "kernels": kernels})


def _compile_module(module: ir.Module, launch: dict | None, arch: str, cubin: bool,
                    debug: bool) -> Artifact:
    with module.context, ir.Location.unknown():
        _retarget(module, arch)
        verify_operation(module.operation)  # a rejection names its rule
        kernels = _kernel_metadata(module)
        for info in kernels:
            kernel_checks.check_shared(info)
        lowered = ir.Module.parse(str(module), module.context)
        _run(lowered, "builtin.module(tile-to-nvvm{debug=true})" if debug
             else "builtin.module(tile-to-nvvm)")
        maps = _tensor_maps(lowered)  # final: llvm_param is set
        debug_entry = _debug_entry(lowered) if debug else None
        # The rest of tile-to-ptx.
        _run(lowered, "builtin.module(gpu-module-to-binary{format=isa})")
        ptx = _ptx_of(lowered)
    for info in kernels:
        info["tensor_maps"] = maps.get(info["name"], [])
        if launch:
            info.update({k: v for k, v in launch.items() if v is not None})
        if debug_entry is not None:
            # The barrier table is static shared memory the lowering added.
            info["static_shared_bytes"] += debug_entry["shared_bytes"]
    binary = None
    if cubin:
        binary, registers = assemble_reporting(ptx, arch)
        for info in kernels:
            if info["name"] in registers:
                info["registers"] = registers[info["name"]]
            kernel_checks.check_registers(info)
    manifest = {"arch": arch, "kernels": kernels}
    if debug_entry is not None:
        manifest["debug"] = debug_entry
    return Artifact(ptx=ptx, cubin=binary, manifest=manifest)
