"""Text rendering of an Explanation: a header with the fields and byte counts,
then per slot one line per 128 bytes of shared memory (the line the swizzle
XORs by), one cell per 16-byte chunk."""

from __future__ import annotations

import numpy as np

from .. import contract
from ..contract import CHUNK_BYTES
from .im2col import axis_names, spatial_names
from .model import OUT_OF_BOUNDS, PADDING, Explanation, Slot, enum_name
from .source import ExplainError

# The widest swizzle row: the line every swizzle permutes chunks within.
LINE_BYTES = max(contract.SWIZZLE_SPAN_BYTES)
DEFAULT_MAX_LINES = 64
DEFAULT_MAX_SLOTS = 4


def _tuple(values) -> str:
    return "(" + ", ".join("?" if v is None else str(v) for v in values) + ")"


def _list(values) -> str:
    return "[" + ", ".join("?" if v is None else str(v) for v in values) + "]"


def coords_label(coords) -> str:
    return "(" + ",".join(str(int(c)) for c in coords) + ")"


# Swizzles whose whole effect is "16-byte chunk index XOR line number" (the
# plain 32B, 64B and 128B ones): for them the grid shows the XOR phase of
# each line.
CHUNK_XOR_SWIZZLES = tuple(sorted(contract.SPAN_TO_SWIZZLE.values()))


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


def _unpacked_store(ex: Explanation) -> bool:
    """Stores of a store-unpacked format (float6_align16b) read one value per
    shared byte."""
    return contract.format_info(ex.format).store_unpacked and ex.direction != "load"


def _straddles_bytes(ex: Explanation) -> bool:
    """Packed values that cross byte boundaries (6-bit ones): the image is a
    bit stream, not whole values per byte."""
    info = contract.format_info(ex.format)
    return info.packed and 8 % info.bits != 0


def _ranges(values, ok) -> str:
    """Coordinates of one axis, compressed to first..last (step s)."""
    values = list(values)
    if len(values) == 1:
        text = str(values[0])
    else:
        steps = {b - a for a, b in zip(values, values[1:])}
        if len(steps) == 1:
            step = steps.pop()
            text = f"{values[0]}..{values[-1]}" + (f" step {step}" if step != 1 else "")
        else:
            text = ",".join(map(str, values))
    inside = sum(ok)
    if inside == len(values):
        return text
    return text + f" ({len(values) - inside} outside the tensor)"


def _im2col_lines(ex: Explanation) -> list[str]:
    rank = len(ex.global_shape)
    names = spatial_names(rank)
    dims = ex.global_shape[1:-1]
    out = []
    ppc, cpp = ex.box
    where = (f"box         pixels_per_column {ppc}, channels_per_pixel {cpp} at "
             f"coords {_tuple(ex.coords)} ({','.join(axis_names(rank))}), "
             f"element strides {_tuple(ex.element_strides)}")
    out.append(where)
    wide = ex.mode in ("im2col_w", "im2col_w_128")
    if wide:
        lo, hi = ex.pixel_box_lower[0], ex.pixel_box_upper[0]
        box = (f"w {lo}..{dims[-1] - 1 + hi}" + (f"; {', '.join(names[:-1])} "
               "fixed by the coords" if len(names) > 1 else ""))
    else:
        box = ", ".join(f"{n} {lo}..{d - 1 + hi}" for n, d, lo, hi in
                        zip(names, dims, ex.pixel_box_lower, ex.pixel_box_upper))
    out.append(f"im2col      bounding box of base positions: {box} (corners lower "
               f"{_tuple(ex.pixel_box_lower)}, upper {_tuple(ex.pixel_box_upper)}, "
               "outer-to-inner)")
    order = " then ".join(n.upper() for n in reversed(names))
    out.append(f"            traversal: {order}, then the next image n; a "
               "pixel reads base + offsets")
    if ex.mode == "im2col":
        offs = ", ".join(f"{n} +{o}" for n, o in zip(names, ex.offsets or ()))
        out.append(f"offsets     {offs}")
    elif wide:
        w_halo, w_offset = ex.offsets or (0, 0)
        out.append(f"offsets     w_halo {w_halo}, w_offset {w_offset} (w +{w_offset})")
    else:
        out.append("offsets     none (im2col_no_offs): pixels are the base positions")
    return out


def _tensor_map_lines(ex: Explanation) -> list[str]:
    tm = ex.tensor_map
    out = [f"tensor map  {tm.function} arguments (arrays innermost-first):"]
    rows_ = [
        ("tensorDataType", f"{tm.data_type} {tm.data_type_name}"),
        ("tensorRank", str(tm.rank)),
        ("globalDim", _list(tm.global_dim)),
        ("globalStrides", _list(tm.global_strides) + " (bytes, dims 1..rank-1)"),
    ]
    if tm.encode == "tiled":
        rows_.append(("boxDim", _list(tm.box_dim)))
    elif tm.encode == "im2col":
        rows_ += [("pixelBoxLowerCorner", _list(tm.pixel_box_lower)),
                  ("pixelBoxUpperCorner", _list(tm.pixel_box_upper)),
                  ("channelsPerPixel", str(tm.channels_per_pixel)),
                  ("pixelsPerColumn", str(tm.pixels_per_column))]
    else:
        rows_ += [("pixelBoxLowerCornerWidth", str(tm.pixel_box_lower[0])),
                  ("pixelBoxUpperCornerWidth", str(tm.pixel_box_upper[0])),
                  ("channelsPerPixel", str(tm.channels_per_pixel)),
                  ("pixelsPerColumn", str(tm.pixels_per_column))]
    rows_ += [
        ("elementStrides", _list(tm.element_strides)),
        ("interleave", f"{tm.interleave} {enum_name('interleave', tm.interleave)}"),
    ]
    if tm.encode == "im2col_wide":
        rows_.append(("mode", f"{tm.wide_mode} {enum_name('wide_mode', tm.wide_mode)}"))
    rows_ += [
        ("swizzle", f"{tm.swizzle} {enum_name('swizzle', tm.swizzle)}"),
        ("l2Promotion", f"{tm.l2_promotion} {enum_name('l2_promotion', tm.l2_promotion)}"),
        ("oobFill", f"{tm.oob_fill} {enum_name('oob_fill', tm.oob_fill)}"),
    ]
    width = max(16, max(len(k) for k, _ in rows_))
    out.extend(f"  {k:<{width}} {v}" for k, v in rows_)
    return out


def _warm_lines(ex: Explanation) -> list[str]:
    out = ["bytes       transaction 0: a prefetch moves nothing into shared memory "
           "(no shared buffer, no mbarrier, no tile.tx_bytes)"]
    if ex.warm_axes is not None:
        axes = "; ".join(f"axis {a}: {_ranges(v, ok)}"
                         for a, (v, ok) in enumerate(ex.warm_axes))
        out.append(f"warms       L2 with the box's global elements, outer-to-inner: "
                   f"{axes}")
    else:
        inside = sum(p.inside for p in ex.warm_pixels)
        out.append(f"warms       L2 with the {len(ex.warm_pixels)} pixels a load of "
                   f"this column would read ({inside} inside the tensor; listed "
                   "below)")
    return out


def header(ex: Explanation) -> list[str]:
    out = [f"explain: {ex.origin}", f"  {ex.op_text}", ""]
    bits = (f"{ex.element_bits}-bit elements" if ex.element_bits < 8
            else f"{ex.element_bits // 8}-byte elements")
    out.append(f"copy        {ex.direction}, {ex.mode} mode, rank {ex.rank}, "
               f"format {ex.format} ({bits})"
               + (", multicast (every CTA of cta_mask gets this image)"
                  if ex.multicast else "")
               + (" into L2 only" if ex.prefetch else ""))
    out.append(f"global      {ex.global_type}, sizes {_tuple(ex.global_shape)} "
               "outer-to-inner")
    if ex.im2col:
        out.extend(_im2col_lines(ex))
    else:
        where = f"box         {_tuple(ex.box)} at coords {_tuple(ex.coords)}"
        if ex.rows is not None:
            where += f", rows {_tuple(ex.rows)} (each plus coords[0])"
        out.append(where + f", element strides {_tuple(ex.element_strides)}")
    if ex.prefetch:
        out.extend(_warm_lines(ex))
    else:
        out.extend(_image_lines(ex))
    if ex.tensor_map is not None:
        out.extend(_tensor_map_lines(ex))
    for note in ex.notes:
        out.append(f"note: {note}")
    return out


def _image_lines(ex: Explanation) -> list[str]:
    out = []
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
    what = "pixel rows" if ex.im2col else "rows"
    image = (f"image       dims {_tuple(ex.image_dims)}: {rows} {what} of "
             f"{ex.row_storage_bytes} bytes")
    if ex.row_payload_bytes != ex.row_storage_bytes:
        image += f" ({ex.row_payload_bytes} payload, the rest padding)"
    out.append(image + f", {ex.storage_bytes} bytes a slot")
    if _straddles_bytes(ex):
        if _unpacked_store(ex):
            out.append("            packed: the store reads one value per shared "
                       "byte (bits 0..5; bits 6..7 ignored) and packs 16 values "
                       "into 12 global bytes")
        else:
            out.append("            packed: each 16 six-bit values are 12 payload "
                       "bytes (value j in bits 6j..6j+5 of the little-endian bit "
                       "stream), then 4 padding bytes: one 16-byte block")
    elif ex.elements_per_byte > 1:
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
    return out


def pixel_table(ex: Explanation, pixels, *, lines=None) -> list[str]:
    """One line per im2col pixel: its shared row (and, swizzled, the chunks
    the row's 16-byte chunks land in), the traversal's base position, the
    position read or written and its channels, or why it is the fill /
    dropped. `lines`: (start, stop) 128-byte lines whose rows are shown."""
    rank = len(ex.global_shape)
    names = ",".join(spatial_names(rank))
    shared = pixels and pixels[0].address is not None
    missing = ("fill" if ex.direction in ("load", "prefetch") else "dropped")
    if ex.prefetch:
        missing = "not fetched"
    rows = []
    for p in pixels:
        if lines is not None and shared:
            if not lines[0] <= p.address // LINE_BYTES < lines[1]:
                continue
        base = f"({p.n},{','.join(map(str, p.base))})"
        read = f"({p.n},{','.join(map(str, p.position))})"
        c0, c1 = p.channels
        if not p.inside:
            what = f"{missing}: {p.reason}"
        elif p.reason:
            what = f"c {c0}..{c0 + p.channels_inside - 1}; {missing} beyond: {p.reason}"
        else:
            what = f"c {c0}..{c1}"
        cols = [f"{p.row:>4}"]
        if shared:
            cols.append(f"0x{p.address:04x}")
        cols += [f"{base:<14}", f"{read:<14}", what]
        if shared and ex.swizzle:
            line = p.address // LINE_BYTES
            cells = " ".join(f"c{c % (LINE_BYTES // CHUNK_BYTES)}"
                             + ("" if c * CHUNK_BYTES // LINE_BYTES == line else
                                f"@L{c * CHUNK_BYTES // LINE_BYTES}")
                             for c in p.chunks)
            cols[-1] = f"{what:<34} L{line}: {cells}"
        rows.append("  " + "  ".join(cols))
    head = [f"  {'row':>4}"]
    if shared:
        head.append(f"{'shared':<6}")
    head += [f"{'base (n,' + names + ')':<14}", f"{'read (n,' + names + ')':<14}",
             "channels" + (" " * 26 + " where the row's chunks 0.. land"
                           if shared and ex.swizzle else "")]
    intro = ("  pixels: one shared row each; base = traversal position, read = "
             "base + offsets" if shared else
             "  pixels: base = traversal position, read = base + offsets")
    return [intro, "  ".join(head).rstrip()] + rows


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
    if slot.pixels is not None:
        first_line = slot.offset // LINE_BYTES
        out.extend(pixel_table(ex, slot.pixels,
                               lines=(first_line + start, first_line + stop)))
    chunks_per_line = min(LINE_BYTES, slot.size) // CHUNK_BYTES
    first = slot.kind[:CHUNK_BYTES]
    filled = int(np.count_nonzero(first != PADDING))
    if _unpacked_store(ex) or ex.element_bits >= 8:
        per_chunk = filled // ex.element_bytes
    else:
        per_chunk = filled * 8 // ex.element_bits

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
        if filled != CHUNK_BYTES:
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
    items = ["(i,j)  global coords of the chunk's first element (outer-to-inner"
             + (", (n,[d,h,]w,c) of the pixel read or written)" if ex.im2col
                else ")")]
    if any(s.count(OUT_OF_BOUNDS) for s in ex.slots):
        items.append("*      some elements are out of bounds ("
                     + ("filled" if ex.direction == "load" else "dropped") + ")")
    if any(s.count(PADDING) for s in ex.slots):
        items.append("--     padding: never written or read; ~ partly padding")
    return ["legend: " + items[0]] + ["        " + i for i in items[1:]]


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def check_view(ex: Explanation, *, slot=None, rows=None,
               max_lines=DEFAULT_MAX_LINES) -> None:
    """The part of the image asked for exists: `slot` is one of the copy's
    repeat slots, `rows` (start, stop) a non-empty range of 128-byte lines
    that starts inside a slot (ints; stop None: to the end), `max_lines` a
    positive int; else ExplainError [explain-input] naming the value and the
    range."""
    if not isinstance(ex, Explanation):
        raise ExplainError("explain-input", "rendering takes an Explanation (what "
                           f"explain() returns), got {type(ex).__name__}")
    if slot is not None:
        if not _is_int(slot):
            raise ExplainError("explain-input", f"--slot takes an int, got {slot!r}")
        if not 0 <= slot < ex.slot_count:
            raise ExplainError("explain-input", f"--slot {slot} is out of range: "
                               f"the copy has {ex.slot_count} slot(s) "
                               f"(0..{ex.slot_count - 1})")
    if rows is not None:
        if not isinstance(rows, (tuple, list)) or len(rows) != 2 or \
                not _is_int(rows[0]) or not (rows[1] is None or _is_int(rows[1])):
            raise ExplainError("explain-input", "--rows takes (start, stop): an int "
                               f"and an int or None, got {rows!r}")
    if rows is not None and ex.slots:
        start, stop = rows
        lines = max(-(-s.size // LINE_BYTES) for s in ex.slots)
        if not 0 <= start < lines or (stop is not None and stop <= start):
            shown = f"{start}:{'' if stop is None else stop}"
            raise ExplainError("explain-input", f"--rows {shown} selects no line: "
                               f"a slot has 128-byte lines 0..{lines - 1} "
                               "(A:B shows lines A..B-1)")
    if not _is_int(max_lines) or max_lines < 1:
        raise ExplainError("explain-input", f"--max-lines is {max_lines!r}; it "
                           "takes an int and shows at least 1 line")


def render_text(ex: Explanation, *, slot: int | None = None, rows=None,
                elements: bool = False, max_lines: int = DEFAULT_MAX_LINES,
                max_slots: int = DEFAULT_MAX_SLOTS) -> str:
    """The whole report. `slot`: only that slot; `rows`: (start, stop) of
    the 128-byte lines to show in each slot (stop None: to the end);
    `elements`: one line per chunk listing every element."""
    if not isinstance(ex, Explanation):
        check_view(ex)  # names what was given instead
    out = header(ex)
    if ex.prefetch:
        if ex.warm_pixels is not None:
            out.append("")
            out.extend(pixel_table(ex, ex.warm_pixels))
        return "\n".join(out) + "\n"
    check_view(ex, slot=slot, rows=rows, max_lines=max_lines)
    if not _is_int(max_slots) or max_slots < 1:
        raise ExplainError("explain-input", f"max_slots is {max_slots!r}; it takes "
                           "an int and shows at least 1 slot")
    if slot is not None:
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


__all__ = ["render_text", "check_view", "chunk_label", "xor_phase", "swizzle_sentence"]
