"""The child process that calls tile_mlir's entry points for the property tests.

The tests (hypothesis, in the pytest process) send one request per example,
`(entry, spec)` with `spec` plain picklable data; this process decodes it,
makes the call and answers with what happened. An abort (LLVM's, a
segfault) kills only this process: the test sees it die, reports the
example as a failure and starts a new one.

Protocol: 4-byte big-endian length, then a pickle, both ways, on the file
descriptors given on the command line. File descriptor 1 is pointed at
stderr, so that whatever the code under test prints stays out of the
protocol.

Spec encodings (see prop_strategies.py): ("__odd__", kind) is a Python
object no strategy can pickle (an object(), a lambda, a numpy value, a
generator ...); ("__ref__", name) is a value of the kernel body being
traced (a parameter, a shared buffer, a pointer, an MLIR value).
"""

from __future__ import annotations

import contextlib
import io
import os
import pickle
import shutil
import struct
import sys
import tempfile
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
SEED_KERNEL = ROOT / "examples" / "seed_tma_load.py"


# -- decoding -------------------------------------------------------------

def _odd(kind: str):
    import numpy as np
    table = {
        "object": object, "lambda": lambda: (lambda *a, **k: 0),
        "np_int32": lambda: np.int32(16), "np_int64": lambda: np.int64(-3),
        "np_float": lambda: np.float32(2.5), "np_array": lambda: np.zeros((2, 3), np.float32),
        "np_array_u8": lambda: np.arange(24, dtype=np.uint8).reshape(2, 3, 4),
        "np_array_0d": lambda: np.array(5), "generator": lambda: (i for i in (8, 16)),
        "range": lambda: range(1, 3), "set": lambda: {1, 2},
        "bigint_str": lambda: "9" * 40, "path": lambda: Path("/nonexistent/x"),
        "type": lambda: int, "exception": lambda: ValueError("x"),
        "bytearray": lambda: bytearray(b"\x00\xff"), "memoryview": lambda: memoryview(b"ab"),
        "int_subclass": lambda: type("MyInt", (int,), {})(8),
        "str_subclass": lambda: type("MyStr", (str,), {})("sm_90a"),
        "bad_len": _BadLen, "bad_iter": _BadIter,
    }
    return table[kind]()


class _BadLen:
    """A sequence whose len() and iteration raise."""
    def __len__(self):
        raise RuntimeError("len")

    def __iter__(self):
        raise RuntimeError("iter")


class _BadIter:
    """Iterable, then raises part-way."""
    def __iter__(self):
        yield 1
        raise RuntimeError("iter")


def decode(value, env=None):
    """`value` with its odd-object and body-reference markers replaced."""
    if isinstance(value, tuple) and len(value) == 2 and value[0] == "__odd__":
        return _odd(value[1])
    if isinstance(value, tuple) and len(value) == 2 and value[0] == "__ref__":
        return _ref(value[1], env)
    if isinstance(value, tuple):
        return tuple(decode(v, env) for v in value)
    if isinstance(value, list):
        return [decode(v, env) for v in value]
    if isinstance(value, dict):
        return {decode(k, env): decode(v, env) for k, v in value.items()}
    return value


def _ref(name: str, env):
    """A value of the body being traced; outside a body, a marker object."""
    if env is None:
        return object()
    if name in env:
        return env[name]
    import mlir.ir as ir
    from mlir.dialects import arith
    kinds = {"i64": "i64", "f32": "f32", "i16": "i16", "i1": "i1", "i32": "i32"}
    if name in kinds:
        ty = ir.Type.parse(kinds[name])
        attr = (ir.FloatAttr.get(ty, 1.0) if name == "f32"
                else ir.IntegerAttr.get(ty, 1))
        return arith.constant(ty, attr)
    if name == "index":
        return arith.constant(ir.IndexType.get(), 0)
    return object()


# -- builder ----------------------------------------------------------------

def _param(item):
    """A (name, Tensor/Scalar) pair from its spec ("Tensor", shape, dtype,
    dynamic) / ("Scalar", dtype); anything else stays as given."""
    from tile_mlir.builder import Scalar, Tensor
    if isinstance(item, tuple) and len(item) == 2 and isinstance(item[1], tuple) \
            and item[1] and item[1][0] in ("Tensor", "Scalar"):
        name, (kind, *args) = item
        args = decode(tuple(args))
        return (decode(name), Tensor(*args) if kind == "Tensor" else Scalar(*args))
    return decode(item)


def _params(spec):
    raw = spec.get("params")
    if isinstance(raw, list):
        return [_param(item) for item in raw]
    return decode(raw)


def _seed_body(A, Out, *rest):
    """The contract's example's body (examples/seed_tma_load.py)."""
    import tile_mlir.kernel as K
    from tile_mlir.tma import apply
    opcode = "cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes"
    lane = K.lane_id()
    shared = K.alloc_shared((2, 8, 16), "uint32", align=128)
    mbar = K.alloc_shared((1,), "uint64", align=8)
    with K.if_(lane == 0):
        K.mbarrier_init(mbar.ptr_to([0]), 1)
        K.mbarrier_arrive_expect_tx(mbar.ptr_to([0]), 1024)
    K.cta_sync()
    with K.if_(lane == 0):
        apply(opcode, shared, A, box=(8, 16), coords=(0, 0), coord_steps=((8, 0),),
              mbar=mbar.ptr_to([0]))
    K.mbarrier_wait(mbar.ptr_to([0]), 0)
    K.cta_sync()
    for g, r in K.grid(2, 8):
        with K.if_(lane < 16):
            Out[g * 8 + r, lane] = shared[g, r, lane]


def _body_fn(kind: str, annotations=None, names=None):
    """A kernel body: "empty", "lane", "seed"; with `annotations` (strings
    or objects per parameter) a function whose signature carries them."""
    import tile_mlir.kernel as K

    def empty(*args):
        pass

    def lane(*args):
        K.cta_sync()
        K.lane_id()

    fn = {"empty": empty, "lane": lane, "seed": _seed_body}[kind]
    if annotations is None:
        return fn
    from tile_mlir.builder import Scalar, Tensor
    scope = {"Tensor": Tensor, "Scalar": Scalar, "_impl": fn}
    args = []
    for i, (name, ann) in enumerate(zip(names, annotations)):
        if isinstance(ann, str):
            args.append(f"{name}: {ann!r}")
        else:
            scope[f"_ann{i}"] = ann
            args.append(f"{name}: _ann{i}")
    # The seed body takes (A, Out): given other parameters, the body is empty
    # (a call the harness makes wrong would be Python's TypeError, not ours).
    call = f"_impl({', '.join(names)})" if kind != "seed" or len(names) == 2 else "None"
    src = f"def body({', '.join(args)}):\n    return {call}\n"
    exec(compile(src, "<property body>", "exec"), scope)
    return scope["body"]


def _annotated(spec):
    """The annotations and names of a decorated body: names must be
    identifiers (they are spliced into source), annotations are Tensor,
    Scalar, other objects or strings evaluated in the body's scope."""
    names, annotations = [], []
    for i, item in enumerate(spec["annotations"]):
        name, ann = item
        names.append(name if isinstance(name, str) and name.isidentifier()
                     and not name.startswith("_") else f"p{i}")
        if isinstance(ann, tuple) and ann and ann[0] in ("Tensor", "Scalar"):
            ann = _param(("x", ann))[1]
        else:
            ann = decode(ann)
        annotations.append(ann)
    if len(set(names)) != len(names):
        names = [f"p{i}" for i in range(len(names))]
    return names, annotations


def run_kernel_signature(spec):
    """KernelDef(...) / @kernel(...) with random names, shapes and params,
    then build() and optionally compile()."""
    import tile_mlir.kernel as K
    kwargs = {k: decode(spec[k]) for k in ("grid", "block", "cluster", "name")
              if k in spec}
    if "annotations" in spec:
        names, annotations = _annotated(spec)
        fn = _body_fn(spec["body"], annotations, names)
        kdef = K.kernel(**kwargs)(fn)
    else:
        kdef = K.KernelDef(_body_fn(spec["body"]), params=_params(spec), **kwargs)
    kdef.build()
    _maybe_compile(kdef, spec.get("compile"))
    return "built"


def _maybe_compile(kdef, options):
    if options is None:
        return
    from tile_mlir import compiler
    compiler.compile(kdef, **decode(options))


# The builder calls a body program may make, by name.
def _calls():
    import tile_mlir.kernel as K
    from tile_mlir import tensormaps, tma
    return {
        "alloc_shared": K.alloc_shared, "dynamic_shared": K.dynamic_shared,
        "mbarrier_init": K.mbarrier_init, "mbarrier_arrive": K.mbarrier_arrive,
        "mbarrier_arrive_expect_tx": K.mbarrier_arrive_expect_tx,
        "mbarrier_wait": K.mbarrier_wait, "cta_sync": K.cta_sync,
        "fence_proxy_async_shared_cta": K.fence_proxy_async_shared_cta,
        "bulk_commit_group": K.bulk_commit_group, "bulk_wait_group": K.bulk_wait_group,
        "apply": tma.apply, "derive": tensormaps.derive, "tx_bytes": tma.tx_bytes,
        "prefetch_tensormap": tma.prefetch_tensormap, "global_pointer": K.global_pointer,
        "base_address": K.base_address,
        "ptr_to": lambda buf, index: _on_buffer(buf, "ptr_to", index),
        "getitem": lambda buf, index: _on_buffer(buf, "__getitem__", index),
        "setitem": lambda buf, index, value: _on_buffer(buf, "__setitem__", index, value),
    }


def _on_buffer(buf, method, *args):
    """A Buffer method; on anything else nothing is called (a method a
    value does not have is Python's AttributeError, no entry point's)."""
    from tile_mlir.builder import Buffer
    if isinstance(buf, Buffer):
        return getattr(buf, method)(*args)
    return None


def _program_body(steps, names):
    """The body that runs `steps`: [(call, args, kwargs, guarded)], results
    stored as $0, $1, ... for later steps."""
    import tile_mlir.kernel as K

    def body(*buffers):
        env = dict(zip(names, buffers))
        env["lane"] = K.lane_id()
        calls = _calls()
        for i, (call, args, kwargs, guarded) in enumerate(steps):
            fn = calls[call]
            a, kw = decode(tuple(args), env), decode(dict(kwargs), env)
            if guarded:
                with K.if_(env["lane"] == 0):
                    env[f"${i}"] = fn(*a, **kw)
            else:
                env[f"${i}"] = fn(*a, **kw)
    return body


def run_builder_body(spec):
    """A kernel whose body is a program of builder calls (alloc_shared,
    mbarriers, tma.apply, tensormaps.derive ...), built and compiled."""
    import tile_mlir.kernel as K
    params = [_param(item) for item in spec["params"]]
    names = [name for name, _ in params]
    kdef = K.KernelDef(_program_body(spec["steps"], names), params=params,
                       name="prop", block=decode(spec.get("block", 32)),
                       cluster=decode(spec.get("cluster")))
    kdef.build()
    _maybe_compile(kdef, spec.get("compile"))
    return "built"


def run_outside_body(spec):
    """A builder helper called outside any kernel body."""
    fn = _calls()[spec["call"]]
    fn(*decode(tuple(spec["args"])), **decode(dict(spec["kwargs"])))
    return "returned"


# -- compile / explain --------------------------------------------------------

def _seed_kerneldef():
    import importlib.util
    spec = importlib.util.spec_from_file_location("_prop_seed", SEED_KERNEL)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.tma_load


def _input(value):
    if value == ("__kerneldef__", "seed"):
        return _seed_kerneldef()
    if isinstance(value, tuple) and len(value) == 2 and value[0] == "__module__":
        import mlir.ir as ir
        from tile_mlir.builder import make_context
        try:  # a module object where the text parses and verifies
            return ir.Module.parse(value[1], make_context())
        except Exception:  # noqa: BLE001 - then the text itself
            return value[1]
    return decode(value)


def run_compile(spec):
    from tile_mlir import compiler
    art = compiler.compile(_input(spec["kernel"]), **decode(dict(spec["kwargs"])))
    return f"{len(art.ptx)} bytes of PTX"


def run_explain(spec):
    from tile_mlir.explain import explain, render_text
    ex = explain(_input(spec["input"]), *decode(tuple(spec["args"])),
                 **decode(dict(spec["kwargs"])))
    text = render_text(ex, **decode(dict(spec.get("render", {}))))
    return f"{len(text)} characters"


# -- runtime / cache / layout ---------------------------------------------------

_BASE = {}


def base_artifact():
    """The contract's example compiled (with its cubin where ptxas is): the
    files of the artifact folder, by name."""
    if not _BASE:
        from tile_mlir import compiler
        from tile_mlir.compiler import find_ptxas
        art = compiler.compile(_seed_kerneldef(), cubin=find_ptxas() is not None)
        with tempfile.TemporaryDirectory() as tmp:
            art.save(tmp)
            _BASE.update({p.name: p.read_bytes() for p in Path(tmp).iterdir()})
    return dict(_BASE)


def run_runtime_load(spec):
    """runtime.load on a folder of the given files, a raw path value, or an
    in-memory ArtifactData."""
    from tile_mlir import runtime
    from tile_mlir.artifact_data import ArtifactData
    kwargs = decode(dict(spec["kwargs"]))
    if "files" in spec:
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp) / "art"
            folder.mkdir()
            for name, data in spec["files"].items():
                if isinstance(data, bytes):
                    (folder / name).write_bytes(data)
                elif data == "__dir__":
                    (folder / name).mkdir()
            target = str(folder) if spec.get("as_str") else folder
            runtime.load(target, **kwargs)
    elif "data" in spec:
        runtime.load(ArtifactData(*decode(tuple(spec["data"]))), **kwargs)
    else:
        runtime.load(decode(spec["path"]), **kwargs)
    return "loaded"


def run_cache(spec):
    from tile_mlir import cache
    fn = {"load_kernel": cache.load_kernel, "compile_recipe": cache.compile_recipe}[
        spec["call"]]
    builder = spec["builder"]
    if builder == ("__builder__", "nested"):
        def nested(**params):
            return _seed_kerneldef()
        builder = nested
    elif isinstance(builder, tuple) and len(builder) == 2 and builder[0] == "__builder__":
        import importlib
        module, _, name = builder[1].partition(":")
        builder = getattr(importlib.import_module(module), name)
    else:
        builder = decode(builder)
    fn(builder, **decode(dict(spec["kwargs"])))
    return "compiled"


def run_layout(spec):
    from tile_mlir import kernels
    fn = getattr(kernels, spec["op"])
    args = [_tensor(a) for a in decode(tuple(spec["args"]))]
    fn(*args, **decode(dict(spec["kwargs"])))
    return "returned"


def _tensor(value):
    """("__torch__", shape, dtype) is a CPU torch tensor where torch is."""
    if isinstance(value, tuple) and len(value) == 3 and value[0] == "__torch__":
        try:
            import torch
        except ImportError:
            import numpy as np
            return np.zeros(value[1], dtype=value[2] if value[2] != "bfloat16" else "f2")
        dtype = getattr(torch, value[2], torch.float32)
        return torch.zeros(value[1], dtype=dtype)
    return value


# -- the CLI ------------------------------------------------------------------

def run_cli(spec):
    """cli.main(argv) in a fresh folder holding the spec's files, standard
    input from the spec; the exit status and what it printed."""
    from tile_mlir import cli
    old_cwd, old_stdin = os.getcwd(), sys.stdin
    tmp = tempfile.mkdtemp(prefix="prop-cli-")
    out, err = io.StringIO(), io.StringIO()
    try:
        os.chdir(tmp)
        os.mkdir("folder")
        for name, data in spec["files"].items():
            Path(name).write_bytes(data)
        sys.stdin = io.TextIOWrapper(io.BytesIO(spec.get("stdin", b"")), encoding="utf-8")
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = cli.main(list(spec["argv"]))
            except SystemExit as exit_:
                code = exit_.code
            except BaseException:  # noqa: BLE001 - what escapes main is the finding
                traceback.print_exc(file=err)
                code = "traceback"
    finally:
        sys.stdin = old_stdin
        os.chdir(old_cwd)
        shutil.rmtree(tmp, ignore_errors=True)
    return {"code": code, "stdout": out.getvalue()[-2000:], "stderr": err.getvalue()[-4000:]}


HANDLERS = {
    "kernel_signature": run_kernel_signature, "builder_body": run_builder_body,
    "outside_body": run_outside_body, "compile": run_compile, "explain": run_explain,
    "runtime_load": run_runtime_load, "cache": run_cache, "layout": run_layout,
    "cli": run_cli, "base_artifact": lambda spec: base_artifact(),
}


# -- the loop -----------------------------------------------------------------

def _outcome(entry, spec):
    """("ok", result) or ("raised", {...}) for one call."""
    from tile_mlir.errors import TileError
    try:
        return ("ok", HANDLERS[entry](spec))
    except BaseException as err:  # noqa: BLE001 - every escape is reported
        if isinstance(err, KeyboardInterrupt):
            raise
        tb = traceback.format_exc()
        return ("raised", {
            "type": f"{type(err).__module__}.{type(err).__qualname__}",
            "tile_error": isinstance(err, TileError),
            "rule": getattr(err, "rule", None) if isinstance(err, TileError) else None,
            "message": str(err)[:1500], "traceback": tb[-3000:],
        })


def _read(stream, n):
    data = b""
    while len(data) < n:
        chunk = stream.read(n - len(data))
        if not chunk:
            return None
        data += chunk
    return data


def main():
    """Serves requests until the pipe closes."""
    rfd, wfd = int(sys.argv[1]), int(sys.argv[2])
    inp, out = os.fdopen(rfd, "rb", buffering=0), os.fdopen(wfd, "wb", buffering=0)
    os.dup2(2, 1)  # prints of the code under test go to stderr
    sys.stdout = sys.stderr
    import tile_mlir.kernel  # noqa: F401 - the first request's time is not the import's
    while True:
        header = _read(inp, 4)
        if header is None:
            return
        entry, spec = pickle.loads(_read(inp, struct.unpack(">I", header)[0]))
        payload = pickle.dumps(_outcome(entry, spec))
        out.write(struct.pack(">I", len(payload)) + payload)


if __name__ == "__main__":
    main()
