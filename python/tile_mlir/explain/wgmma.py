"""The MMA's view of a copy's image (`tile-mlir explain --wgmma SPEC`).

A wgmma operand descriptor read against the image an explained load
writes: for each (row, k) of the operand, the global element the tensor
core receives there (tile_mlir.emulator.wgmma_view over the explanation's
byte map) and whether it is the one a GEMM reads: the image's element
(row, k0 + k) for a K-major operand, (k0 + k, row) for an MN-major one.

SPEC is comma-separated key=value pairs:

    op=N              the IR's N-th tile.wgmma_descriptor of the copy's
                      function (program order), which must read this image:
                      every field below from the op, its start from where
                      its buffer lies in the copy's (type= may be given for
                      a u8 tile, k0= to compare against other columns;
                      its k_step is the step)
    desc=0x...        the 64-bit descriptor (instead of the fields below)
    start=B           its start, bytes from the copy's shared buffer (0)
    lbo=B, sbo=B      leading and stride byte offsets (lbo 16; sbo needed)
    swizzle=S         0, 32, 64 or 128 bytes (default: the copy's span)
    base=O            base offset 0..7 (0)
    role=A|B          (A); n=N the rows of a B operand (default: the image's)
    major=K|MN        (K)
    type=T            wgmma input type (default: the copy's format's)
    step=I            the I-th K step: start moves by one instruction's K as
                      tile.wgmma_descriptor's k_step does (32 bytes along a
                      swizzled K-major row, 2 LBO unswizzled; two 8-row
                      groups of K MN-major: 2 SBO swizzled, 2 LBO not) and
                      k0 = I * K
    k0=K0             the image's k the operand's k = 0 should be (I * K)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .. import wgmma as _w
from ..emulator import wgmma_view as _view
from .model import Explanation
from .slots import OUT_OF_BOUNDS, PADDING, PAYLOAD
from .source import ExplainError

KEYS = ("op", "desc", "start", "lbo", "sbo", "swizzle", "base", "role", "n", "major",
        "type", "step", "k0")
_TEXT_KEYS = ("role", "major", "type")
DEFAULT_MAX_ROWS = 64


def _input(message: str) -> ExplainError:
    return ExplainError("explain-input", message)


def parse_spec(text: str) -> dict:
    """The key=value pairs of a --wgmma SPEC (ints in any Python base),
    or [explain-input] naming the pair it cannot read."""
    if not isinstance(text, str):
        raise _input(f"--wgmma takes key=value pairs, got {text!r}")
    out = {}
    for item in (p.strip() for p in text.split(",")):
        if not item:
            continue
        key, sep, value = item.partition("=")
        key, value = key.strip().lower(), value.strip()
        if not sep or key not in KEYS:
            raise _input(f"--wgmma {item!r} is not one of {', '.join(k + '=' for k in KEYS)}")
        if key in out:
            raise _input(f"--wgmma gives {key}= twice")
        if key in _TEXT_KEYS:
            out[key] = value.upper() if key != "type" else value
            continue
        try:
            out[key] = int(value, 0)
        except ValueError:
            raise _input(f"--wgmma {key}={value!r} is not an int") from None
    return out


@dataclass(frozen=True)
class WgmmaView:
    """An operand read against an explained image: the emulator's
    OperandElements, the expected global coords (rows, k, rank), `wrong`
    (rows, k): True where the element read is not the expected one, k0 and
    the step."""
    elements: _view.OperandElements
    expected: np.ndarray
    wrong: np.ndarray
    k0: int
    step: int
    source: str = ""    # where the descriptor came from: "" (the spec) or the IR op

    @property
    def mismatches(self) -> list:
        """The (row, k) whose element is not the GEMM's, row-major."""
        return [(int(r), int(k)) for r, k in zip(*np.nonzero(self.wrong))]

    @property
    def view(self) -> _view.OperandView:
        """The operand's addresses and fields."""
        return self.elements.view


def shared_map(ex: Explanation) -> _view.SharedMap:
    """The explanation's slots as an emulator SharedMap (byte 0: the copy's
    shared buffer)."""
    if ex.direction != "load" or ex.mode != "tile" or ex.interleave or ex.rank < 2 \
            or ex.elements_per_byte != 1 or ex.element_bits < 8:
        raise ExplainError("explain-supported", f"--wgmma reads the image of a "
                           f"tile-mode load of rank 2 or more without interleave or "
                           f"packing; this copy is a {ex.direction} in {ex.mode} mode, "
                           f"rank {ex.rank}, format {ex.format}")
    size = max(s.offset + s.size for s in ex.slots)
    out = _view.SharedMap(size)
    out.element = np.zeros((size, ex.rank), dtype=np.int64)
    kinds = {PAYLOAD: _view.PAYLOAD, OUT_OF_BOUNDS: _view.FILL}
    for s in ex.slots:
        where = slice(s.offset, s.offset + s.size)
        written = s.kind != PADDING
        out.element[where][written] = s.element[written]
        out.byte[where][written] = s.byte[written]
        for mine, theirs in kinds.items():
            out.kind[where][s.kind == mine] = theirs
        out.width[where][written] = ex.element_bytes
    return out


def _descriptor(ex: Explanation, spec: dict, major: str, ptx: str) -> tuple:
    """(Descriptor, step, k0) from the spec's fields or desc=."""
    step = spec.get("step", 0)
    if step < 0:
        raise _input(f"--wgmma step={step}: a K step is 0 or more")
    if "desc" in spec:
        fields = set(spec) & {"start", "lbo", "sbo", "swizzle", "base"}
        if fields:
            raise _input(f"--wgmma desc= gives every field; drop {', '.join(sorted(fields))}")
        d = _w.decode_descriptor(spec["desc"])
    else:
        if "sbo" not in spec:
            raise _input("--wgmma needs sbo= (the stride byte offset) or desc=")
        d = _w.Descriptor(spec.get("start", 0), spec.get("lbo", 16), spec["sbo"],
                          spec.get("swizzle", ex.swizzle_span),
                          spec.get("base", 0))
    k = _w.K_OF[ptx]
    move = step * _w.k_step_bytes(major, d.swizzle, d.lbo, d.sbo)
    moved = _w.Descriptor(d.start + move, d.lbo, d.sbo, d.swizzle, d.base_offset)
    moved.value  # checks the moved start as matrix_descriptor does
    return moved, step, spec.get("k0", step * k)


def _from_ir(ex: Explanation, spec: dict) -> dict:
    """The spec of op=N: the fields of the IR's tile.wgmma_descriptor N."""
    given = set(spec) - {"op", "type", "k0"}
    if given:
        raise _input(f"--wgmma op= takes every field from the IR; drop "
                     f"{', '.join(k + '=' for k in sorted(given))}")
    found = {d.index: d for d in ex.descriptors}
    d = found.get(spec["op"])
    if d is None:
        readers = ", ".join(f"op={i}" for i in sorted(found)) or "none"
        raise _input(f"--wgmma op={spec['op']}: the kernel's tile.wgmma_descriptor "
                     f"{spec['op']} does not read this copy's image at a byte offset "
                     f"the IR fixes (with a constant k_step); those that do: {readers}")
    out = dict(d.spec)
    out.update({k: spec[k] for k in ("type", "k0") if k in spec})
    out["op"] = d.index
    return out


def wgmma_view(ex: Explanation, spec) -> WgmmaView:
    """Reads the operand `spec` (a --wgmma SPEC string or its dict) against
    the image of `ex` (see the module's docstring). Errors: [explain-input]
    for the spec, [explain-supported] for a copy this does not cover,
    wgmma-* rules for the operand's fields."""
    spec = parse_spec(spec) if isinstance(spec, str) else dict(spec)
    if "op" in spec:
        spec = _from_ir(ex, spec)
    shared = shared_map(ex)
    role, major = spec.get("role", "A"), spec.get("major", "K")
    ptx = spec.get("type") or _w.ALIASES.get(ex.format, ex.format)
    if ptx not in _w.K_OF:
        raise _input(f"the copy's format {ex.format} is no wgmma input type: give "
                     f"type= ({', '.join(_w.K_OF)})")
    if 32 // _w.K_OF[ptx] != ex.element_bytes:
        raise _input(f"type={ptx} has {32 // _w.K_OF[ptx]}-byte elements; the copy's "
                     f"{ex.format} has {ex.element_bytes}")
    rows = spec.get("n")
    if role == "B" and rows is None:
        rows = ex.image_dims[-2] if major == "K" else ex.image_dims[-1]
    desc, step, k0 = _descriptor(ex, spec, major, ptx)
    view = _view.operand_addresses(desc, role=role, major=major, dtype=ptx,
                                   rows=rows if role == "B" else spec.get("n"))
    elements = _view.operand_elements(view, shared)
    expected = _view.expected_coords(view, ex.rank, origin=ex.slots[0].coords, k0=k0)
    strides = np.asarray(ex.element_strides, dtype=np.int64)
    origin = np.asarray(ex.slots[0].coords, dtype=np.int64)
    expected = origin + (expected - origin) * strides   # image index -> global
    wrong = (elements.status != _view.READ) | np.any(elements.coords != expected, axis=-1)
    source = ""
    if "op" in spec:
        source = next(d.text for d in ex.descriptors if d.index == spec["op"])
    return WgmmaView(elements, expected, wrong, k0, step, source)


_SHORT = {_view.TORN: "torn", _view.FILLED: "fill", _view.NOT_WRITTEN: "--",
          _view.OUTSIDE: "out"}


def operand_chunk_label(w: WgmmaView, r: int, k: int, k_end: int) -> str:
    """The chunk of row r from k: the element its first k reads, '!' when
    any element of the chunk is not the GEMM's."""
    status = int(w.elements.status[r, k])
    label = (_SHORT[status] if status != _view.READ else
             "(" + ",".join(str(int(v)) for v in w.elements.coords[r, k]) + ")")
    return label + ("!" if w.wrong[r, k:k_end].any() else "")


def descriptor_facts(w: WgmmaView) -> dict:
    """What the text view and the PNG's title say of a descriptor: the
    operand, its fields, the K step, where it comes from in the IR, what a
    GEMM reads, and how many of its elements are wrong."""
    v, d = w.view, w.view.descriptor
    return {"operand": f"{v.role} operand, {v.major}-major, {v.ptx_type}, {v.rows} rows "
                       f"x k {v.k}: descriptor {d.value:#018x}",
            "start": f"start 0x{d.start:04x} (bytes from the copy's buffer), LBO {d.lbo}, "
                     f"SBO {d.sbo}",
            "swizzle": f"swizzle {f'{d.swizzle}B' if d.swizzle else 'none'}, base offset "
                       f"{d.base_offset}; K step {w.step}: k0 = {w.k0}",
            "source": f"from the IR: {w.source}" if w.source else None,
            "reads": "a GEMM reads the image's element "
                     + ("(row, k0 + k)" if v.major == "K" else "(k0 + k, row)"),
            "total": v.rows * v.k, "wrong": int(np.count_nonzero(w.wrong))}


def render_wgmma(ex: Explanation, w: WgmmaView, *, max_rows: int = DEFAULT_MAX_ROWS) -> str:
    """The MMA's view as text: the operand, the verdict, then per operand
    row one cell per 16-byte chunk of K (the global element its first k
    reads; '!' some element of the chunk is not the GEMM's) beside where
    in the copy's grid (128-byte line L, chunk c) each chunk is read."""
    v = w.view
    f = descriptor_facts(w)
    total, wrong = f["total"], f["wrong"]
    per_chunk = 16 // v.element_bytes
    pad = " " * 12
    out = ["", f"wgmma view  {f['operand']}", pad + f["start"] + ",", pad + f["swizzle"],
           *([pad + f["source"]] if f["source"] else []), pad + f["reads"],
           f"verdict     {wrong} of {total} elements wrong ({100.0 * wrong / total:.1f}%)"
           if wrong else f"verdict     all {total} elements are the GEMM's"]
    chunks = -(-v.k // per_chunk)
    cells = {}
    for r in range(min(v.rows, max_rows)):
        for c in range(chunks):
            cells[r, c] = operand_chunk_label(w, r, c * per_chunk, (c + 1) * per_chunk)
    width = max([len(s) for s in cells.values()] + [6])
    out.append(f"  cell: {per_chunk} elements of K, by the global coords the first reads; "
               "'!' some are not the GEMM's")
    out.append("        torn: not one whole element, fill: out of bounds, --: unwritten, "
               "out: past the buffer")
    out.append(f"  {'row':>4} |" + "".join(f" {'k=' + str(c * per_chunk):<{width}}"
                                           for c in range(chunks)) + " | read at (line, chunk)")
    for r in range(min(v.rows, max_rows)):
        where = " ".join(f"L{int(a) // 128}c{int(a) % 128 // 16}"
                         for a in v.addresses[r, ::per_chunk])
        out.append(f"  {r:>4} |" + "".join(f" {cells[r, c]:<{width}}" for c in range(chunks))
                   + f" | {where}")
    if v.rows > max_rows:
        out.append(f"  ... {v.rows - max_rows} more rows")
    return "\n".join(out) + "\n"


__all__ = ["parse_spec", "wgmma_view", "render_wgmma", "shared_map", "WgmmaView", "KEYS"]
