"""Debug builds on the CPU (docs/debug-mode.md): what compile(debug=True)
records in the manifest, and the runtime's reading of the error buffer after
a launch (cuModuleGetGlobal, sync, copy, reset, DeviceFault naming the rule)
against a fake driver whose "kernel" writes a fault record. The GPU runs the
real faults: test/gpu/test_debug_mode.py."""

import contextlib
import ctypes
import json

import numpy as np
import pytest

from tile_mlir import compiler, contract
from tile_mlir.artifact import Artifact
from tile_mlir.runtime import (DeviceFault, TileRuntimeError, arrays, debug, launch, launcher,
                               tensormap)
from tile_mlir.testing import debug_kernels


@pytest.fixture(scope="module")
def artifact() -> Artifact:
    art = compiler.compile(debug_kernels.build_expect_tx(), cubin=False, debug=True)
    art.cubin = b"not a cubin: the fake driver loads it"
    return art


@pytest.fixture(scope="module")
def entry(artifact) -> dict:
    return artifact.manifest["debug"]


def test_the_manifest_records_the_buffer_and_the_sites(artifact, entry):
    assert entry["buffer"] == "__tile_debug_error" and entry["words"] == 32
    assert entry["kernels"] == ["debug_expect_tx"]
    assert [s.split(" (")[0] for s in entry["sites"]] == [
        "debug_expect_tx: " + debug_kernels.LOAD, "debug_expect_tx: mbarrier.try_wait.parity"]
    assert entry["counts_issued"] is True
    # The barrier table is static shared memory the lowering added.
    (info,) = artifact.kernels
    assert info["static_shared_bytes"] == debug_kernels.BOX_BYTES + 8 + entry["shared_bytes"]
    assert entry["shared_bytes"] == 1024
    assert f"{entry['buffer']}[{4 * entry['words']}]" in artifact.ptx


def test_the_recorded_rule_codes_are_rules_def_positions(entry):
    # The lowering writes Rule enum values; Python's order is the same list.
    for name, code in entry["rules"].items():
        assert contract.RULE_NAMES_BY_CODE[code] == name
    assert {contract.RULES[n].kind for n in entry["rules"]} == {"verify", "device"}


def test_a_release_build_has_no_debug_entry():
    art = compiler.compile(debug_kernels.build_expect_tx(), cubin=False)
    assert "debug" not in art.manifest
    assert "__tile_debug" not in art.ptx and "globaltimer" not in art.ptx


def _words(entry, rule, values, kernel=0, site=1, block=(0, 0, 0), thread=(5, 0, 0),
           count=1):
    f = entry["fields"]
    w = np.zeros(entry["words"], np.uint32)
    w[f["count"]] = count
    w[f["rule"]] = entry["rules"][rule]
    w[f["kernel"]] = kernel
    w[f["site"]] = site
    w[f["block"]:f["block"] + 3] = block
    w[f["thread"]:f["thread"] + 3] = thread
    w[f["values"]:f["values"] + len(values)] = [v & 0xffffffff for v in values]
    return w


def test_a_clean_buffer_is_no_fault(entry):
    assert debug.decode(np.zeros(entry["words"], np.uint32), entry) is None


def test_decode_a_timeout_with_no_arrive(entry):
    # barrier 0x408, parity 0, no expect_tx in the phase, 1 copy of 8192 bytes
    # issued, waited 1000123 us.
    fault = debug.decode(_words(entry, "mbarrier-timeout",
                                [0x408, 0, 0, 8192, 1 << 16, 1000123]), entry)
    assert isinstance(fault, DeviceFault) and isinstance(fault, TileRuntimeError)
    assert fault.rule == "mbarrier-timeout"
    assert fault.kernel == "debug_expect_tx"
    assert fault.site.startswith("debug_expect_tx: mbarrier.try_wait.parity")
    assert fault.thread == (5, 0, 0) and fault.block == (0, 0, 0)
    assert fault.values == {"barrier": 0x408, "phase": 0, "expected_bytes": 0,
                            "issued_bytes": 8192, "expect_tx_ops": 0, "copies": 1,
                            "waited_us": 1000123}
    assert "no expect_tx reached it in this phase" in str(fault)
    assert "1 copy issued on it deliver 8192 bytes" in str(fault)
    assert str(fault).startswith("[mbarrier-timeout] debug_expect_tx, block (0, 0, 0), "
                                 "thread (5, 0, 0)")


def test_decode_an_expect_tx_mismatch(entry):
    fault = debug.decode(_words(entry, "barrier-tx-mismatch",
                                [0x408, 1, 4096, 8192, 1 | (1 << 16), 0], count=3), entry)
    assert fault.rule == "barrier-tx-mismatch"
    assert fault.values["expected_bytes"] == 4096 and fault.values["issued_bytes"] == 8192
    assert "expects 4096 bytes" in fault.message
    assert "deliver 8192 bytes" in fault.message
    assert "completed while bytes were still landing" in fault.message
    assert fault.count == 3 and "2 more faults in this launch" in fault.message


def test_decode_unknown_counts(entry):
    unknown = entry["unknown"]
    fault = debug.decode(_words(entry, "mbarrier-timeout",
                                [0x10, 0, 0, unknown, unknown, 5]), entry)
    assert fault.values["expect_tx_ops"] is None and fault.values["issued_bytes"] is None
    assert "another barrier shares its slot" in fault.message


def test_decode_copy_faults(entry):
    inner = debug.decode(_words(entry, "inner-coord-alignment", [1, 3, 12, 16, 32],
                                site=0), entry)
    assert inner.rule == "inner-coord-alignment"
    assert inner.values == {"axis": 1, "coordinate": 3, "byte_offset": 12, "multiple": 16,
                            "element_bits": 32}
    assert "coords[1]) = 3 is 12 bytes from the row start" in inner.message
    assert "the copy was not issued" in inner.message
    neg = debug.decode(_words(entry, "store-coords-nonnegative", [0, 0, -8]), entry)
    assert neg.values == {"slot": 0, "axis": 0, "coordinate": -8}
    assert "coords[0] = -8 is negative" in neg.message
    row = debug.decode(_words(entry, "store-coords-nonnegative",
                              [0, entry["row_axis"] + 2, -1]), entry)
    assert "row 2 = -1" in row.message
    big = debug.decode(_words(entry, "coord-range",
                              [1, 0, 2**31 - 4, 8, (2**31 + 4) & 0xffffffff, 0]), entry)
    assert big.values["sum"] == 2**31 + 4 and big.values["base"] == 2**31 - 4
    opaque = debug.decode(_words(entry, "opaque-map-alignment",
                                 [0x1000_0020, 0x7f, 64]), entry)
    assert opaque.values == {"address": 0x7f_1000_0020, "alignment": 64}
    assert "0x7f10000020 is not 64-byte aligned" in opaque.message


def test_a_fault_in_a_device_function_names_the_launched_kernel(entry):
    fault = debug.decode(_words(entry, "mbarrier-timeout", [8, 0, 0, 0, 0, 1],
                                kernel=entry["unknown"]), entry, launched="k2")
    assert fault.kernel == "k2 (in a device function)"


class _Map:
    def getPtr(self):
        return 0


class FakeDriver:
    """The driver calls a launch makes, on fake device memory; `on_launch`
    plays the kernel (it may write the error buffer)."""

    CUresult = type("CUresult", (), {"CUDA_SUCCESS": 0})

    def __init__(self):
        self.memory, self.next, self.calls, self.on_launch = {}, 0x10000, [], None

    def _alloc(self, nbytes):
        ptr, self.next = self.next, self.next + ((nbytes + 255) // 256) * 256
        self.memory[ptr] = bytearray(nbytes)
        return ptr

    def _find(self, ptr):
        for base, mem in self.memory.items():
            if base <= ptr < base + len(mem):
                return mem, ptr - base
        raise KeyError(hex(ptr))

    def __getattr__(self, name):
        if name.startswith("cuTensorMapEncode"):
            return lambda *a: (0, _Map())
        if name in ("CUdevice_attribute", "CUfunction_attribute"):
            return type("Attrs", (), {"__getattr__": lambda s, n: n})()
        return lambda value: value  # the driver's enum and array types

    def cuModuleLoadData(self, image):
        return 0, "module"

    def cuModuleGetFunction(self, module, name):
        return 0, name.decode()

    def cuDeviceGet(self, ordinal):
        return 0, 0

    def cuDeviceGetAttribute(self, attr, device):
        return 0, 227 * 1024

    def cuModuleGetGlobal(self, module, name):
        self.calls.append(("cuModuleGetGlobal", name))
        self.global_ptr = self._alloc(128)
        return 0, self.global_ptr, 128

    def cuMemAlloc(self, nbytes):
        return 0, self._alloc(nbytes)

    def cuMemFree(self, ptr):
        return (0,)

    def cuMemcpyHtoD(self, dst, src, nbytes):
        mem, off = self._find(dst)
        mem[off:off + nbytes] = ctypes.string_at(src, nbytes)
        return (0,)

    def cuMemcpyDtoH(self, dst, src, nbytes):
        mem, off = self._find(src)
        ctypes.memmove(dst, bytes(mem[off:off + nbytes]), nbytes)
        return (0,)

    def cuLaunchKernel(self, function, *args):
        self.calls.append(("launch", function))
        if self.on_launch:
            self.on_launch(self)
        return (0,)

    def cuStreamSynchronize(self, stream):
        self.calls.append(("sync", stream))
        return (0,)

    def buffer_words(self):
        mem, off = self._find(self.global_ptr)
        return np.frombuffer(bytes(mem[off:off + 128]), np.uint32)

    def write_buffer(self, words):
        mem, off = self._find(self.global_ptr)
        mem[off:off + 128] = np.asarray(words, np.uint32).tobytes()


@pytest.fixture
def drv(monkeypatch):
    fake = FakeDriver()
    for module in (launcher, arrays, debug, tensormap):
        monkeypatch.setattr(module, "cuda", lambda: fake)
    # One device, its context always current: nothing to switch.
    for module in (launcher, arrays, debug):
        monkeypatch.setattr(module, "on_device", lambda device=0: contextlib.nullcontext())
    monkeypatch.setattr(launcher, "device_index", lambda device=None: 0)
    monkeypatch.setattr(launcher, "primary_context", lambda device=0: 0)
    monkeypatch.setattr(launch, "cuda", lambda: fake)
    monkeypatch.delenv("TILE_DEBUG_TIMEOUT_MS", raising=False)
    return fake


def _args():
    a = np.arange(np.prod(debug_kernels.BOX), dtype=np.float32).reshape(debug_kernels.BOX)
    return a, np.array([4096], np.int32), np.zeros_like(a)


def test_a_launch_reads_resets_and_raises_the_fault(artifact, entry, drv):
    mod = launcher.Module(artifact)
    assert drv.calls == [("cuModuleGetGlobal", b"__tile_debug_error")]
    assert not drv.buffer_words().any()  # reset on load, default timeout
    drv.on_launch = lambda d: d.write_buffer(_words(
        entry, "barrier-tx-mismatch", [0x400, 0, 4096, 8192, 1 | (1 << 16), 0]))
    a, tx, out = _args()
    drv.calls.clear()
    with pytest.raises(TileRuntimeError) as err:
        mod(a, tx, out, sync=False)  # a debug launch synchronizes anyway
    assert err.value.rule == "barrier-tx-mismatch"
    assert drv.calls == [("launch", "debug_expect_tx"), ("sync", 0)]
    assert not drv.buffer_words().any(), "the buffer is reset for the next launch"
    # The next launch is clean: no error, numpy outputs copied back.
    drv.on_launch = None
    mod(a, tx, out)


def test_a_bound_launch_checks_every_launch(artifact, entry, drv):
    mod = launcher.Module(artifact)
    kernel = mod.kernels["debug_expect_tx"]
    views = [arrays.upload(arrays.device_view(x, i)) for i, x in enumerate(_args())]
    for v in views:
        v.host = None  # device arrays now
    bound = launcher.BoundLaunch(kernel, views, launcher._Params(), (1, 1, 1),
                                 (128, 1, 1), None)
    bound()  # clean
    assert drv.calls[-2:] == [("launch", "debug_expect_tx"), ("sync", 0)]
    drv.on_launch = lambda d: d.write_buffer(_words(
        entry, "mbarrier-timeout", [0x400, 0, 0, 8192, 1 << 16, 1000000]))
    with pytest.raises(DeviceFault) as err:
        bound()
    assert err.value.rule == "mbarrier-timeout" and err.value.values["copies"] == 1


def test_the_timeout_is_written_into_the_buffer(artifact, entry, drv, monkeypatch):
    field = entry["fields"]["timeout_us"]
    monkeypatch.setenv("TILE_DEBUG_TIMEOUT_MS", "250")
    mod = launcher.Module(artifact)
    assert drv.buffer_words()[field] == 250_000
    mod.debug.set_timeout(0.05)
    assert drv.buffer_words()[field] == 50_000
    mod.debug.set_timeout(None)
    assert drv.buffer_words()[field] == 0  # the kernel's own default
    launcher.Module(artifact, debug_timeout=2)  # a second module, its own buffer
    assert drv.buffer_words()[field] == 2_000_000


def test_a_release_module_never_reads_a_buffer(drv):
    art = compiler.compile(debug_kernels.build_expect_tx(), cubin=False)
    art.cubin = b"fake"
    mod = launcher.Module(art)
    assert mod.debug is None and drv.calls == []
    a, tx, out = _args()
    mod(a, tx, out)
    assert [c for c in drv.calls if c[0] == "cuModuleGetGlobal"] == []


def test_the_manifest_round_trips(artifact, tmp_path):
    folder = artifact.save(tmp_path / "a")
    assert json.loads((folder / "manifest.json").read_text())["debug"] == \
        artifact.manifest["debug"]
