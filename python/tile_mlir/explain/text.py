"""Text rendering of an Explanation: a header with the fields and byte counts,
then per slot one line per 128 bytes of shared memory (the line the swizzle
XORs by), one cell per 16-byte chunk."""

from __future__ import annotations

import numpy as np

from .model import OUT_OF_BOUNDS, PADDING, Explanation, Slot, enum_name

LINE_BYTES = 128
CHUNK_BYTES = 16
DEFAULT_MAX_LINES = 64
DEFAULT_MAX_SLOTS = 4


def _tuple(values) -> str:
    return "(" + ", ".join("?" if v is None else str(v) for v in values) + ")"


def _list(values) -> str:
    return "[" + ", ".join("?" if v is None else str(v) for v in values) + "]"


def coords_label(coords) -> str:
    return "(" + ",".join(str(int(c)) for c in coords) + ")"


# Swizzles whose whole effect is "16-byte chunk index XOR line number":
# for them the grid shows the XOR phase of each line.
CHUNK_XOR_SWIZZLES = (1, 2, 3)


def xor_phase(ex: Explanation, address: int) -> int | None:
    """The value a chunk index of the 128-byte line at `address` is XORed
    with (None when the swizzle is not a plain chunk XOR)."""
    if ex.swizzle not in CHUNK_XOR_SWIZZLES:
        return None
    return (address // LINE_BYTES) % (ex.swizzle_period // LINE_BYTES)


def swizzle_sentence(ex: Explanation) -> list[str]:
    if not ex.swizzle:
        return ["none: the image lies row after row, unpermuted"]
    if ex.swizzle not in CHUNK_XOR_SWIZZLES:
        return [f"{ex.swizzle_name} ({ex.swizzle}): bytes permuted inside each "
                "128-byte line as tile_mlir.emulator.swizzle maps them",
                f"(pattern base: a {ex.swizzle_period}-byte aligned address)"]
    phases = ex.swizzle_period // LINE_BYTES
    return [f"{ex.swizzle_name} ({ex.swizzle}): in 128-byte line L of shared "
            "memory, 16-byte chunk c holds",
            f"the image's chunk c ^ (L % {phases}); the pattern repeats every "
            f"{ex.swizzle_period} bytes",
            "(L counted from a buffer base aligned to 1024 bytes)"]


def header(ex: Explanation) -> list[str]:
    out = [f"explain: {ex.origin}", f"  {ex.op_text}", ""]
    bits = (f"{ex.element_bits}-bit elements" if ex.element_bits < 8
            else f"{ex.element_bits // 8}-byte elements")
    out.append(f"copy        {ex.direction}, {ex.mode} mode, rank {ex.rank}, "
               f"format {ex.format} ({bits})"
               + (", multicast (every CTA of cta_mask gets this image)"
                  if ex.multicast else ""))
    out.append(f"global      {ex.global_type}, sizes {_tuple(ex.global_shape)} "
               "outer-to-inner")
    where = f"box         {_tuple(ex.box)} at coords {_tuple(ex.coords)}"
    if ex.rows is not None:
        where += f", rows {_tuple(ex.rows)} (each plus coords[0])"
    out.append(where + f", element strides {_tuple(ex.element_strides)}")
    if ex.repeat_shape:
        out.append(f"repeat      {ex.slot_count} slots: repeat shape "
                   f"{_tuple(ex.repeat_shape)}, coord_steps "
                   + ", ".join(_tuple(s) for s in ex.coord_steps)
                   + f"; slot k at byte k * {ex.storage_bytes}")
    else:
        out.append("repeat      1 slot (no repeat axes)")
    sentence = swizzle_sentence(ex)
    out.append(f"swizzle     {sentence[0]}")
    out.extend(f"            {s}" for s in sentence[1:])
    rows = ex.storage_bytes // ex.row_storage_bytes
    image = (f"image       dims {_tuple(ex.image_dims)}: {rows} rows of "
             f"{ex.row_storage_bytes} bytes")
    if ex.row_payload_bytes != ex.row_storage_bytes:
        image += f" ({ex.row_payload_bytes} payload, the rest padding)"
    out.append(image + f", {ex.storage_bytes} bytes a slot")
    if ex.elements_per_byte > 1:
        out.append(f"            packed: each payload byte holds {ex.elements_per_byte} "
                   "elements (low nibble first)")
    if ex.direction == "load":
        fill = ex.fill_bytes or b""
        what = ("zeros" if not any(fill) else
                "the NaN pattern 0x" + fill[::-1].hex())
        out.append(f"out of box  elements outside the global tensor are filled with "
                   f"{what}")
    else:
        out.append("out of box  elements outside the global tensor are dropped")
    out.append(f"bytes       transaction {ex.transaction_bytes} (all slots; = "
               f"tile.tx_bytes), shared image {ex.shared_bytes} "
               f"({ex.slot_count} x {ex.storage_bytes})")
    tm = ex.tensor_map
    if tm is not None:
        out.append("tensor map  cuTensorMapEncodeTiled arguments "
                   "(arrays innermost-first):")
        rows_ = [
            ("tensorDataType", f"{tm.data_type} {tm.data_type_name}"),
            ("tensorRank", str(tm.rank)),
            ("globalDim", _list(tm.global_dim)),
            ("globalStrides", _list(tm.global_strides) + " (bytes, dims 1..rank-1)"),
            ("boxDim", _list(tm.box_dim)),
            ("elementStrides", _list(tm.element_strides)),
            ("interleave", f"{tm.interleave} {enum_name('interleave', tm.interleave)}"),
            ("swizzle", f"{tm.swizzle} {enum_name('swizzle', tm.swizzle)}"),
            ("l2Promotion",
             f"{tm.l2_promotion} {enum_name('l2_promotion', tm.l2_promotion)}"),
            ("oobFill", f"{tm.oob_fill} {enum_name('oob_fill', tm.oob_fill)}"),
        ]
        out.extend(f"  {k:<16} {v}" for k, v in rows_)
    for note in ex.notes:
        out.append(f"note: {note}")
    return out


def chunk_label(slot: Slot, start: int, end: int) -> str:
    """The cell of bytes [start, end): the first element's coordinates, '*'
    when some of its elements are out of bounds, '~' when part of it is
    padding, '--' when all of it is."""
    kinds = slot.kind[start:end]
    filled = np.nonzero(kinds != PADDING)[0]
    if filled.size == 0:
        return "--"
    first = start + int(filled[0])
    label = coords_label(slot.element[first])
    if np.any(kinds == OUT_OF_BOUNDS):
        label += "*"
    if filled.size != kinds.size:
        label += "~"
    return label


def _line_range(slot: Slot, rows, max_lines: int):
    total = -(-slot.size // LINE_BYTES)
    if rows is None:
        start, stop = 0, min(total, max_lines)
    else:
        start, stop = rows
        start = max(0, start)
        stop = total if stop is None else min(stop, total)
    return start, stop, total


def slot_grid(ex: Explanation, slot: Slot, *, rows=None, elements=False,
              max_lines: int = DEFAULT_MAX_LINES) -> list[str]:
    out = []
    where = f"slot {slot.index}"
    if ex.repeat_shape:
        where += f" (repeat index {_tuple(slot.repeat_index)})"
    out.append(f"{where}: coords {_tuple(slot.coords)}, shared bytes "
               f"0x{slot.offset:04x}..0x{slot.offset + slot.size - 1:04x}")
    start, stop, total = _line_range(slot, rows, max_lines)
    chunks_per_line = min(LINE_BYTES, slot.size) // CHUNK_BYTES
    first = slot.kind[:CHUNK_BYTES]
    per_chunk = (int(np.count_nonzero(first != PADDING)) // ex.element_bytes
                 * ex.elements_per_byte)

    if not elements:
        labels = {}
        for line in range(start, stop):
            for c in range(chunks_per_line):
                b = line * LINE_BYTES + c * CHUNK_BYTES
                if b < slot.size:
                    labels[line, c] = chunk_label(slot, b, b + CHUNK_BYTES)
        width = max([len(v) for v in labels.values()] + [4])
        show_phase = ex.swizzle in CHUNK_XOR_SWIZZLES
        phase = "  ^L" if show_phase else ""
        head = f"  {'line':>4}  {'byte':>6}{phase} |" + "".join(
            f" {'c' + str(c):<{width}}" for c in range(chunks_per_line))
        what = f"{per_chunk} {ex.format} elements"
        if per_chunk * ex.element_bytes // ex.elements_per_byte != CHUNK_BYTES:
            what += " and padding"
        out.append(f"  cell: one 16-byte chunk ({what}), shown by the global "
                   "coords of its first element")
        out.append(head.rstrip())
        for line in range(start, stop):
            addr = slot.offset + line * LINE_BYTES
            xor = f"  {xor_phase(ex, addr):>2}" if show_phase else ""
            cells = "".join(f" {labels.get((line, c), ''):<{width}}"
                            for c in range(chunks_per_line))
            out.append(f"  {line:>4}  0x{addr:04x}{xor} |{cells}".rstrip())
    else:
        out.append(f"  one line per 16-byte chunk: the global coords of each "
                   f"element slot ({ex.element_bytes} byte"
                   f"{'s' if ex.element_bytes > 1 else ''} each"
                   + (f", {ex.elements_per_byte} elements from the one shown"
                      if ex.elements_per_byte > 1 else "") + ")")
        step = ex.element_bytes
        for line in range(start, stop):
            for c in range(chunks_per_line):
                b0 = line * LINE_BYTES + c * CHUNK_BYTES
                if b0 >= slot.size:
                    continue
                items = []
                for b in range(b0, b0 + CHUNK_BYTES, step):
                    k = int(slot.kind[b])
                    if k == PADDING:
                        items.append("--")
                    else:
                        items.append(coords_label(slot.element[b])
                                     + ("*" if k == OUT_OF_BOUNDS else ""))
                out.append(f"  0x{slot.offset + b0:04x} L{line} c{c}: "
                           + " ".join(items))
    if stop < total and rows is None:
        out.append(f"  ... {total - stop} more lines (--rows {stop}:{total} "
                   "shows them)")
    return out


def legend(ex: Explanation) -> list[str]:
    items = ["(i,j)  global coords of the chunk's first element (outer-to-inner)"]
    if any(s.count(OUT_OF_BOUNDS) for s in ex.slots):
        items.append("*      some elements are out of bounds ("
                     + ("filled" if ex.direction == "load" else "dropped") + ")")
    if any(s.count(PADDING) for s in ex.slots):
        items.append("--     padding: never written or read; ~ partly padding")
    return ["legend: " + items[0]] + ["        " + i for i in items[1:]]


def render_text(ex: Explanation, *, slot: int | None = None, rows=None,
                elements: bool = False, max_lines: int = DEFAULT_MAX_LINES,
                max_slots: int = DEFAULT_MAX_SLOTS) -> str:
    """The whole report. `slot`: only that slot; `rows`: (start, stop) of
    the 128-byte lines to show in each slot (stop None: to the end);
    `elements`: one line per chunk listing every element."""
    out = header(ex)
    if slot is not None:
        if not 0 <= slot < ex.slot_count:
            raise ValueError(f"--slot {slot} is out of range: the copy has "
                             f"{ex.slot_count} slot(s)")
        chosen = [ex.slots[slot]]
    else:
        chosen = ex.slots[:max_slots]
    out.append("")
    out.extend(legend(ex))
    for s in chosen:
        out.append("")
        out.extend(slot_grid(ex, s, rows=rows, elements=elements,
                             max_lines=max_lines))
    if slot is None and ex.slot_count > len(chosen):
        out.append("")
        out.append(f"... {ex.slot_count - len(chosen)} more slots (--slot N shows one)")
    return "\n".join(out) + "\n"


__all__ = ["render_text", "chunk_label", "xor_phase", "swizzle_sentence"]
