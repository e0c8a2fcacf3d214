"""The `tile-mlir` command (also `python -m tile_mlir`).

    tile-mlir explain FILE.mlir [--op-index N] [--slot S] [--rows A:B]
                                [--elements] [--png PATH] [--coords ...]
                                [--offsets ...]

Exit status: 0 explained; 1 the op was rejected (the verifier's rule-named
diagnostic is printed) or cannot be explained; 2 bad command-line usage.
"""

from __future__ import annotations

import argparse
import sys


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
    ex = sub.add_parser(
        "explain", help="show which global element lands at which shared byte",
        description="Verifies one tile.tma_copy and prints its shared image: "
        "per repeat slot, one line per 128 bytes of shared memory, one cell "
        "per 16-byte chunk naming the global element that lands there (the "
        "swizzle applied), plus the byte counts and the tensor-map fields.")
    ex.add_argument("file", metavar="FILE",
                    help="MLIR text: a module, a '// -----'-split file, or op "
                    "lines alone ('-' reads standard input)")
    ex.add_argument("--op-index", type=int, default=0, metavar="N",
                    help="which tile.tma_copy, in program order (default 0)")
    ex.add_argument("--slot", type=int, metavar="S",
                    help="show only repeat slot S")
    ex.add_argument("--rows", type=_rows, metavar="A:B",
                    help="show only 128-byte lines A..B-1 of each slot")
    ex.add_argument("--elements", action="store_true",
                    help="one line per 16-byte chunk listing every element")
    ex.add_argument("--png", metavar="PATH",
                    help="also draw the image to a PNG file (needs Pillow)")
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
    ex.set_defaults(run=_explain)
    return parser


def _read(path: str) -> tuple[str, str]:
    if path == "-":
        return sys.stdin.read(), "<stdin>"
    with open(path, encoding="utf-8") as f:
        return f.read(), path


def _explain(args) -> int:
    from .errors import TileError
    from .explain import ExplainError, explain, render_text

    try:
        text, name = _read(args.file)
    except OSError as err:
        print(f"tile-mlir explain: error: {err}", file=sys.stderr)
        return 1
    try:
        ex = explain(text, args.op_index, name=name, coords=args.coords,
                     rows=args.gather_rows, global_shape=args.global_shape,
                     offsets=args.offsets)
        report = render_text(ex, slot=args.slot, rows=args.rows,
                             elements=args.elements, max_lines=args.max_lines)
    except TileError as err:
        where = getattr(err, "location", None)
        print(f"{where or name}: error: [{err.rule}] {err.message}", file=sys.stderr)
        print("tile-mlir explain: the op was rejected; nothing to explain",
              file=sys.stderr)
        return 1
    except (ExplainError, ValueError) as err:
        print(f"tile-mlir explain: error: {err}", file=sys.stderr)
        return 1
    sys.stdout.write(report)
    if args.png:
        from .explain.png import MissingPillow, render_png
        try:
            render_png(ex, args.png, slot=args.slot, color_by=args.color_by)
        except (MissingPillow, ValueError) as err:
            print(f"tile-mlir explain: error: {err}", file=sys.stderr)
            return 1
        print(f"wrote {args.png}")
    return 0


def main(argv=None) -> int:
    args = _parser().parse_args(argv)
    return args.run(args)


if __name__ == "__main__":
    sys.exit(main())
