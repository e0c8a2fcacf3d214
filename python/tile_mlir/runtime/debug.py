"""A debug artifact's error buffer (docs/debug-mode.md).

A kernel compiled with `compile(..., debug=True)` bounds its mbarrier waits
and checks the runtime rules before each copy; a fault is recorded in the
module's error buffer (a device global) and the thread exits cleanly. After
every launch of such an artifact the runtime synchronizes the stream, reads
the buffer (`cuModuleGetGlobal`, `cuMemcpyDtoH`), resets it and raises
`DeviceFault`, a `TileRuntimeError` naming the rule, with the recorded
values, the kernel, the block and the thread.

The buffer's layout comes from the manifest's `debug` entry, which the
compiler copies from what the lowering recorded (Tile/DebugBuffer.h);
nothing here restates it.
"""

from __future__ import annotations

import os

import numpy as np

from .derive_faults import describe as describe_derive_fault
from .driver import check, cuda, on_device
from .errors import TileRuntimeError


class DeviceFault(TileRuntimeError):
    """A debug build's kernel recorded a fault instead of hanging or trapping.

    `rule` names the rule (docs/rules.md), `kernel` the kernel, `site` the
    copy or wait (the manifest's site list), `block` and `thread` the CUDA
    indices of the thread that recorded it, `values` the rule's values by
    name, `count` how many faults the launch recorded (the first is kept)."""

    def __init__(self, rule: str, message: str, *, kernel: str, site: str,
                 block: tuple, thread: tuple, values: dict, count: int):
        super().__init__(rule, message)
        self.kernel = kernel
        self.site = site
        self.block = block
        self.thread = thread
        self.values = values
        self.count = count


def _signed(value: int) -> int:
    return value - (1 << 32) if value & 0x80000000 else value


def _barrier_values(v, unknown: int) -> dict:
    counts_known = v[4] != unknown
    return {"barrier": v[0], "phase": v[1], "expected_bytes": v[2],
            "issued_bytes": None if v[3] == unknown else v[3],
            "expect_tx_ops": (v[4] & 0xffff) if counts_known else None,
            "copies": (v[4] >> 16) if counts_known else None,
            "waited_us": v[5]}


def _phase_counts(d: dict) -> str:
    if d["expect_tx_ops"] is None:
        return ("its phase's counts are unknown (another barrier shares its "
                "slot of the debug table)")
    if d["expect_tx_ops"] == 0:
        posted = "no expect_tx reached it in this phase"
    else:
        posted = (f"{d['expect_tx_ops']} expect_tx expected {d['expected_bytes']} "
                  "bytes")
    if d["issued_bytes"] is None:
        issued = "the copies completing on it are not counted in this module"
    else:
        issued = (f"{d['copies']} cop{'y' if d['copies'] == 1 else 'ies'} issued "
                  f"on it deliver {d['issued_bytes']} bytes")
    return f"{posted}; {issued}"


def _describe(rule: str, v: list, entry: dict) -> tuple[dict, str]:
    """(values by name, the message's rule-specific part) of a record."""
    unknown = entry["unknown"]

    def axis(a: int) -> str:
        # gather4/scatter4 rows are reported past the coordinates.
        rows = entry["row_axis"]
        return f"row {a - rows}" if a >= rows else f"coords[{a}]"

    if rule in ("mbarrier-timeout", "barrier-tx-mismatch"):
        d = _barrier_values(v, unknown)
        where = (f"the mbarrier at shared address {d['barrier']:#x}, phase parity "
                 f"{d['phase']}")
        if rule == "mbarrier-timeout":
            return d, (f"the wait on {where} did not complete within "
                       f"{d['waited_us']} us: {_phase_counts(d)}")
        when = (f"the wait gave up after {d['waited_us']} us" if d["waited_us"]
                else "the phase completed while bytes were still landing")
        return d, (f"{where}: the phase expects {d['expected_bytes']} bytes but "
                   f"{_phase_counts(d)} ({when})")
    if rule == "opaque-map-alignment":
        d = {"address": v[0] | (v[1] << 32), "alignment": v[2]}
        return d, (f"the opaque tensor map at {d['address']:#x} is not "
                   f"{d['alignment']}-byte aligned; the copy was not issued")
    if rule in ("inner-coord-alignment", "packed-alignment"):
        d = {"axis": v[0], "coordinate": _signed(v[1]), "byte_offset": _signed(v[2]),
             "multiple": v[3], "element_bits": v[4]}
        if rule == "inner-coord-alignment":
            text = (f"is {d['byte_offset']} bytes from the row start, expected a "
                    f"multiple of {d['multiple']} ({d['element_bits']}-bit elements)")
        else:
            text = f"is not a multiple of {d['multiple']} elements"
        return d, (f"the innermost coordinate (coords[{d['axis']}]) = "
                   f"{d['coordinate']} {text}; the copy was not issued")
    if rule == "store-coords-nonnegative":
        d = {"slot": v[0], "axis": v[1], "coordinate": _signed(v[2])}
        return d, (f"slot {d['slot']}: {axis(d['axis'])} = {d['coordinate']} is "
                   "negative; the store was not issued")
    if rule == "coord-range":
        total = v[4] | (v[5] << 32)
        d = {"slot": v[0], "axis": v[1], "base": _signed(v[2]), "addend": _signed(v[3]),
             "sum": total - (1 << 64) if total >> 63 else total}
        return d, (f"slot {d['slot']}: {axis(d['axis'])} = {d['base']} + {d['addend']}"
                   f" = {d['sum']} does not fit the instruction's 32-bit "
                   "coordinates; the copy was not issued")
    if rule == "wgmma-unwaited-copy":
        d = {"tile": v[0], "tile_bytes": v[1],
             "image": None if v[2] == unknown else v[2], "barrier": v[3],
             "phase": v[4] >> 31, "generation": v[4] & 0x7fffffff,
             "generation_now": v[5]}
        where = f"the wgmma tile at shared address {d['tile']:#x} ({d['tile_bytes']} bytes)"
        if d["image"] is None:
            return d, (f"no load's image covers {where}: the MMA read it before "
                       "its load was issued")
        return d, (f"{where} overlaps the load image at {d['image']:#x}, whose "
                   f"mbarrier at {d['barrier']:#x} had not completed the phase "
                   f"(parity {d['phase']}) it was issued in: the MMA read bytes "
                   "still landing (wait on that barrier's phase before the wgmma)")
    derived = describe_derive_fault(rule, v)  # tile.tensormap_derive
    if derived is not None:
        return derived
    return {"values": list(v)}, f"values {list(v)}"


def decode(words, entry: dict, launched: str | None = None) -> DeviceFault | None:
    """The fault a buffer's `words` record (None when clean), by the
    manifest's `debug` entry; `launched` names the kernel that ran (used
    when the fault was recorded in a device function)."""
    fields = entry["fields"]
    words = [int(w) & 0xffffffff for w in words]
    count = words[fields["count"]]
    if count == 0:
        return None
    codes = {code: name for name, code in entry["rules"].items()}
    rule = codes.get(words[fields["rule"]], f"rule-{words[fields['rule']]}")
    kernel_id = words[fields["kernel"]]
    kernels = entry["kernels"]
    kernel = (kernels[kernel_id] if kernel_id < len(kernels)
              else f"{launched or 'the kernel'} (in a device function)")
    site_id = words[fields["site"]]
    sites = entry["sites"]
    site = sites[site_id] if site_id < len(sites) else f"site {site_id}"
    block = tuple(words[fields["block"]:fields["block"] + 3])
    thread = tuple(words[fields["thread"]:fields["thread"] + 3])
    raw = words[fields["values"]:fields["values"] + entry["value_words"]]
    values, text = _describe(rule, raw, entry)
    more = f" ({count - 1} more fault{'s' if count > 2 else ''} in this launch)" \
        if count > 1 else ""
    message = (f"{kernel}, block {block}, thread {thread}, at {site}: {text}{more}")
    return DeviceFault(rule, message, kernel=kernel, site=site, block=block,
                       thread=thread, values=values, count=count)


def timeout_us_from_env() -> int:
    """TILE_DEBUG_TIMEOUT_MS, in microseconds (0: the kernel's default)."""
    value = os.environ.get("TILE_DEBUG_TIMEOUT_MS")
    return int(float(value) * 1000) if value else 0


class ErrorBuffer:
    """The error buffer of a loaded debug module."""

    def __init__(self, module_handle, entry: dict, timeout_us: int | None = None,
                 ordinal: int = 0):
        self.entry = entry
        self.ordinal = ordinal   # the module's device: its context for the copies
        self.words = int(entry["words"])
        self.ptr, size = check(cuda().cuModuleGetGlobal(
            module_handle, entry["buffer"].encode()), "cuModuleGetGlobal")
        self.ptr = int(self.ptr)
        if int(size) != 4 * self.words:
            raise RuntimeError(f"the debug buffer {entry['buffer']} has {int(size)} "
                               f"bytes, the manifest says {4 * self.words}")
        self.timeout_us = timeout_us_from_env() if timeout_us is None else timeout_us
        self.reset()

    def set_timeout(self, seconds: float | None) -> None:
        """The mbarrier wait timeout of later launches (None: the kernel's)."""
        self.timeout_us = 0 if seconds is None else max(1, int(seconds * 1e6))
        self.reset()

    def reset(self) -> None:
        host = np.zeros(self.words, np.uint32)
        host[self.entry["fields"]["timeout_us"]] = self.timeout_us
        with on_device(self.ordinal):
            check(cuda().cuMemcpyHtoD(self.ptr, host.ctypes.data, host.nbytes),
                  "cuMemcpyHtoD")

    def read(self) -> np.ndarray:
        host = np.zeros(self.words, np.uint32)
        with on_device(self.ordinal):
            check(cuda().cuMemcpyDtoH(host.ctypes.data, self.ptr, host.nbytes),
                  "cuMemcpyDtoH")
        return host

    def take(self, launched: str | None = None) -> DeviceFault | None:
        """The fault of the launch that just completed (None when clean); a
        recorded fault is reset, so the next launch starts clean."""
        fault = decode(self.read(), self.entry, launched)
        if fault is not None:
            self.reset()
        return fault
