"""The C launch path (runtime/_launch) against a stand-in libcuda.

A small shared library named libcuda.so.1, compiled here, records the
arguments its cuLaunchKernel receives and returns a chosen status; a child
process (this file run as a script: `main` below) finds it first on
LD_LIBRARY_PATH, so the extension binds to it."""

import ctypes
import gc
import math
import shutil
import subprocess
import sys
import weakref
from pathlib import Path

import pytest

import tile_mlir
from tile_mlir.runtime.scalars import ScalarSlot

RUNTIME = Path(tile_mlir.__file__).parent / "runtime"

FAKE_LIBCUDA = r"""
#include <stdint.h>
uint64_t seen[12];
int next_status;
int cuLaunchKernel(void *f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                   unsigned by, unsigned bz, unsigned shared, void *stream,
                   void **params, void **extra) {
  uint64_t v[12] = {(uint64_t)(uintptr_t)f, gx, gy, gz, bx, by, bz, shared,
                    (uint64_t)(uintptr_t)stream, (uint64_t)(uintptr_t)params,
                    (uint64_t)(uintptr_t)extra, seen[11] + 1};
  for (int i = 0; i < 12; i++) seen[i] = v[i];
  return next_status;
}
uint64_t replaced[2];      /* the last map address replaced, and the count */
int next_replace_status;
int cuTensorMapReplaceAddress(void *map, void *address) {
  if (next_replace_status)
    return next_replace_status;
  *(uint64_t *)map = (uint64_t)(uintptr_t)address; /* stands in for the map's field */
  replaced[0] = (uint64_t)(uintptr_t)map;
  replaced[1] += 1;
  return 0;
}
uint64_t current_context;  /* the calling thread's, as the test sets it */
int cuCtxGetCurrent(void **ctx) {
  *ctx = (void *)(uintptr_t)current_context;
  return 0;
}
"""

# The scalar packing both bound-call implementations share: (kind, width,
# low, high) per slot as runtime/scalars.py states them, and values each must
# pack (with the bits it must write) or hand back (-1) to the Python checks.
PACKING_CASES = [  # dtype, value, expected slot bits (None: handed back)
    ("int32", 7, 7), ("int32", -1, 0xFFFFFFFF), ("int32", 2**31, None),
    ("int32", True, None), ("int32", 3.0, None), ("uint32", 2**32 - 1, 0xFFFFFFFF),
    ("uint32", -1, None), ("i32", -2**31, 0x80000000), ("i32", 2**32 - 1, 0xFFFFFFFF),
    ("int64", -2**63, 2**63), ("int64", 2**63, None), ("uint64", 2**64 - 1, 2**64 - 1),
    ("uint64", 2**64, None), ("i64", -1, 2**64 - 1), ("index", 5, 5),
    ("float64", 0.1, int.from_bytes(ctypes.c_double(0.1), "little")),
    ("float64", 1, None),
    ("float32", 0.1, int.from_bytes(ctypes.c_float(0.1), "little")),
    ("float32", 1e39, None),
    ("float32", math.inf, int.from_bytes(ctypes.c_float(math.inf), "little")),
]


def check_packing(make_bound, launches):
    """`make_bound(packing)` packs each case's value into its slot (and
    launches) or hands it back (-1, nothing launched); `launches()` counts
    the launches so far."""
    for dtype, value, bits in PACKING_CASES:
        slot_type = {4: ctypes.c_uint32, 8: ctypes.c_uint64}[
            ctypes.sizeof(ScalarSlot(dtype, 1).ctype)]
        slot = slot_type(0x5A5A5A5A)
        packing = [(1, ctypes.addressof(slot), *ScalarSlot(dtype, 1).packing())]
        bound = make_bound(packing)
        before = launches()
        status = bound.launch_with(9, ("array", value))
        if bits is None:
            assert status == -1, (dtype, value, status)
            assert launches() == before, (dtype, value, "launched")
        else:
            assert status == 0, (dtype, value, status)
            assert slot.value == bits, (dtype, value, hex(slot.value), hex(bits))
            assert launches() == before + 1, (dtype, value, "not launched")


# -- the child process's checks (the stand-in libcuda loaded) -----------------

class FakeLibcuda:
    """The stand-in's globals: the last launch's arguments (`seen`, [11]
    counts launches), the status it returns and the current context."""

    def __init__(self):
        lib = ctypes.CDLL("libcuda.so.1")
        self.seen = (ctypes.c_uint64 * 12).in_dll(lib, "seen")
        self.status = ctypes.c_int.in_dll(lib, "next_status")
        self.current = ctypes.c_uint64.in_dll(lib, "current_context")
        self.replaced = (ctypes.c_uint64 * 2).in_dll(lib, "replaced")
        self.replace_status = ctypes.c_int.in_dll(lib, "next_replace_status")


class Tensor:
    """A torch-like array: the accessors the cached call reads."""

    def __init__(self, ptr):
        self.ptr, self.shape, self.strides, self.dtype = ptr, (4, 8), (8, 1), "bf16"

    def data_ptr(self):
        return self.ptr

    def stride(self):
        return self.strides


class Reentrant(Tensor):
    """A Tensor whose data_ptr runs `hook` first (Python code in an accessor)."""
    hook = None

    def data_ptr(self):
        if self.hook:
            self.hook()
        return self.ptr


class Cached:
    def __init__(self, direct):
        self.direct = direct


def key(*args):
    """The cache key Kernel.__call__ makes for `args`."""
    return (tuple("n" if type(a) in (int, float) else
                  (type(a), a.ptr, a.shape, a.stride(), a.dtype) for a in args),
            None, None, None)


def raises(exceptions, call, what: str, *args):
    try:
        call(*args)
    except exceptions:
        return
    raise AssertionError(f"{what} was accepted")


def check_bound_call(_launch, fake: FakeLibcuda):
    from tile_mlir.runtime.errors import CudaError
    seen, status = fake.seen, fake.status
    owner = object()
    before = sys.getrefcount(owner)
    bound = _launch.Bound(0x1234, (5, 6, 7), (128, 2, 1), 49152, 0xBEEF0, owner)
    assert sys.getrefcount(owner) == before + 1, "the owner is kept alive"
    assert bound(0x77) == 0
    assert list(seen) == [0x1234, 5, 6, 7, 128, 2, 1, 49152, 0x77, 0xBEEF0, 0, 1], list(seen)
    status.value = 700
    assert bound(0) == 700 and seen[8] == 0 and seen[11] == 2
    status.value = 0
    err = CudaError("cuLaunchKernel", 700)
    assert "700" in str(err) or "ILLEGAL_ADDRESS" in str(err), str(err)
    for bad in [(), (1, 2), ("s",)]:
        raises(TypeError, bound, f"bound{bad}", *bad)
    for bad_grid, bad_scalars in [((1, 1), ()), ((1, 1, 1), [(0, 0, "x", 4, 0, 0)]),
                                  ((1, 1, 1), [(0, 0, "i", 2, 0, 0)])]:
        raises((TypeError, ValueError),
               lambda: _launch.Bound(1, bad_grid, (1, 1, 1), 0, 0, None, None, bad_scalars),
               f"Bound{bad_grid, bad_scalars}")
    del bound
    gc.collect()
    assert sys.getrefcount(owner) == before, "the owner is released"


def check_context(_launch, fake: FakeLibcuda):
    """A Bound given its function's context launches only while that context
    is current; otherwise 201 (INVALID_CONTEXT), nothing launched. One given
    no context launches whatever is current."""
    seen, current = fake.seen, fake.current
    ctx_bound = _launch.Bound(0x4321, (1, 1, 1), (1, 1, 1), 0, 0, None, None, (), True,
                              0xC0)
    count = seen[11]
    for now in (0, 0xC1):   # none current, another context current
        current.value = now
        assert ctx_bound(0) == 201 and seen[11] == count, hex(now)
    current.value = 0xC0
    assert ctx_bound(0) == 0 and seen[11] == count + 1 and seen[0] == 0x4321
    current.value = 0
    count = seen[11]
    assert _launch.Bound(1, (1, 1, 1), (1, 1, 1), 0, 0)(0) == 0 and seen[11] == count + 1


def check_dispatch(_launch, fake: FakeLibcuda):
    """The cached call: keyed like Kernel.__call__, launched on the current stream."""
    seen, status = fake.seen, fake.status
    x, y = Tensor(0x1000), Tensor(0x2000)
    slot = ctypes.c_uint32(0)
    launches = {}
    launches[key(x, y, 3)] = Cached(_launch.Bound(
        0xF00, (2, 1, 1), (64, 1, 1), 0, 0xAA0, None, lambda: 0x5E,
        [(2, ctypes.addressof(slot), *ScalarSlot("int32", 2).packing())]))
    launches[key(y, x, 3)] = Cached(_launch.Bound(0xF01, (1, 1, 1), (1, 1, 1), 0, 0, None,
                                                  lambda: 0, (), False))
    dispatch = _launch.Dispatch(launches, "n")
    count = seen[11]
    assert dispatch((x, y, 41)) == 0 and seen[11] == count + 1
    assert (seen[0], seen[1], seen[4], seen[8], seen[9]) == (0xF00, 2, 64, 0x5E, 0xAA0)
    assert slot.value == 41
    for args in [(x, Tensor(0x3000), 1),  # another address: a miss
                 (x, y, 2**31),           # a scalar the checks reject
                 (x, y, True),            # a bool is not a number key
                 (x, y, object()),        # no accessors
                 (x, y),                  # another argument count
                 (y, x, 3)]:              # a launch that must not dispatch
        assert dispatch(args) == -1, args
    assert seen[11] == count + 1, "a handed-back call launched"
    # The last hit is compared entry by entry: the same objects with a new
    # address, shape, stride or dtype are a miss; equal new objects a hit.
    assert dispatch((x, y, 5)) == 0 and dispatch((x, y, 6)) == 0 and slot.value == 6
    count = seen[11]
    for field, value in [("ptr", 0x1001), ("shape", (4, 9)), ("strides", (9, 1)),
                         ("dtype", "f32")]:
        old = getattr(x, field)
        setattr(x, field, value)
        assert dispatch((x, y, 1)) == -1, field
        setattr(x, field, old)
    assert seen[11] == count
    assert dispatch((Tensor(0x1000), Tensor(0x2000), 7)) == 0 and seen[11] == count + 1
    assert dispatch((x, y, 2**40)) == -1 and slot.value == 7
    status.value = 719
    assert dispatch((x, y, 1)) == 719
    status.value = 0


def check_reentrant_accessors(_launch, fake: FakeLibcuda):
    """An accessor that runs Python code (here: another dispatch, as a thread
    switch would) may replace the last hit; the call still launches the
    launch its own arguments matched. Errors that are not "no key here"
    propagate."""
    seen = fake.seen
    a, b = Reentrant(0x7000), Tensor(0x8000)
    own = {key(a): Cached(_launch.Bound(0xA1, (1, 1, 1), (1, 1, 1), 0, 0, None,
                                        lambda: 0)),
           key(b): Cached(_launch.Bound(0xB2, (1, 1, 1), (1, 1, 1), 0, 0, None,
                                        lambda: 0))}
    nested = _launch.Dispatch(own, "n")
    assert nested((a,)) == 0 and seen[0] == 0xA1      # a is the last hit
    a.hook = lambda: nested((b,))                      # b becomes the last hit
    assert nested((a,)) == 0 and seen[0] == 0xA1, hex(seen[0])

    def interrupt():
        raise KeyboardInterrupt
    a.hook = interrupt
    try:
        nested((a,))
    except KeyboardInterrupt:
        pass
    else:
        raise AssertionError("a KeyboardInterrupt in an accessor was swallowed")
    a.hook = None


def check_kernel_cycle_is_freed(_launch):
    """A kernel, its dispatch, its launches and a launch pointing back at the
    kernel form a cycle the collector frees."""
    class Kernel:
        pass
    x = Tensor(0x1000)
    kernel = Kernel()
    kernel.launches = {}
    kernel.dispatch = _launch.Dispatch(kernel.launches, "n")
    launch_obj = Cached(_launch.Bound(1, (1, 1, 1), (1, 1, 1), 0, 0, kernel, lambda: 0))
    launch_obj.kernel = kernel
    kernel.launches[key(x)] = launch_obj
    assert kernel.dispatch((x,)) == 0
    alive = weakref.ref(kernel)
    del kernel, launch_obj
    gc.collect()
    assert alive() is None, "the kernel's cycle through its Dispatch was not freed"


def check_bad_arguments(_launch):
    """Launch dimensions beyond 32 bits, a negative scalar index and objects
    made without __init__ are errors, not wraps or crashes."""
    for grid, block, shared in [((2**32 + 3, 1, 1), (1, 1, 1), 0),
                                ((1, 1, 1), (1, -1, 1), 0), ((1, 1, 1), (1, 1, 1), 2**32)]:
        raises((OverflowError, TypeError), lambda: _launch.Bound(1, grid, block, shared, 0),
               f"Bound{grid, block, shared}")
    raises(ValueError, lambda: _launch.Bound(1, (1, 1, 1), (1, 1, 1), 0, 0, None, None,
                                             [(-1, 0, "i", 4, 0, 1)]),
           "a negative scalar index")
    raises(TypeError, lambda: _launch.Dispatch.__new__(_launch.Dispatch)(()),
           "an uninitialised Dispatch")
    raises(TypeError, lambda: _launch.Bound.__new__(_launch.Bound)(0),
           "an uninitialised Bound")


def check_relocated(_launch, fake: FakeLibcuda):
    """A relocated launch rewrites its pointer slots (base + offset) and its
    tensor maps (cuTensorMapReplaceAddress) from the call's bases, then
    launches its own parameter array; a refused replacement or another
    current context launches nothing."""
    seen = fake.seen
    slots = (ctypes.c_uint64 * 2)(0, 0)
    tmap = (ctypes.c_uint64 * 32)()          # 256 bytes: a 64-aligned 128 inside
    map_at = -(-ctypes.addressof(tmap) // 64) * 64
    params = (ctypes.c_void_p * 3)(ctypes.addressof(slots), ctypes.addressof(slots) + 8,
                                   map_at)
    patches = [("p", ctypes.addressof(slots), 0, 0), ("p", ctypes.addressof(slots) + 8, 1, 64),
               ("m", map_at, 1, 128)]
    rl = _launch.Relocated(0xF0, (3, 1, 1), (256, 1, 1), 1024, ctypes.addressof(params),
                           (slots, tmap, params), patches, 0)
    count, maps = seen[11], fake.replaced[1]
    assert rl(0x55, 0x10000, 0x20000) == 0 and seen[11] == count + 1
    assert list(slots) == [0x10000, 0x20040], [hex(v) for v in slots]
    assert ctypes.c_uint64.from_address(map_at).value == 0x20080
    assert fake.replaced[0] == map_at and fake.replaced[1] == maps + 1
    assert (seen[0], seen[1], seen[4], seen[7], seen[8], seen[9]) == \
        (0xF0, 3, 256, 1024, 0x55, ctypes.addressof(params))
    assert rl(0, 0x30000, 0x40000, 0x50000) == 0 and slots[1] == 0x40040  # extra base
    raises(TypeError, rl, "a call short of a base", 0, 0x10000)
    # An argument before its base (a negative offset): base - 48, no wrap.
    before = _launch.Relocated(0xF3, (1, 1, 1), (1, 1, 1), 0, ctypes.addressof(params),
                               None, [("p", ctypes.addressof(slots), 1, -48)])
    assert before(0, 0, 0x10000) == 0 and slots[0] == 0x10000 - 48, hex(slots[0])
    fake.replace_status.value = 1
    count = seen[11]
    assert rl(0, 0x60000, 0x70000) == 1 and seen[11] == count, "launched after a refusal"
    fake.replace_status.value = 0
    ctx = _launch.Relocated(0xF1, (1, 1, 1), (1, 1, 1), 0, ctypes.addressof(params),
                            None, patches[:1], 0xC0)
    slots[0] = 7
    assert ctx(0, 0x80000) == 201 and slots[0] == 7 and seen[11] == count
    for bad in [[("x", 8, 0, 0)], [("p", 0, 0, 0)], [("p", 8, 8, 0)], [("p", 8, -1, 0)]]:
        raises(ValueError, lambda: _launch.Relocated(1, (1, 1, 1), (1, 1, 1), 0, 0, None,
                                                     bad), f"patches {bad}")
    raises(TypeError, lambda: _launch.Relocated.__new__(_launch.Relocated)(0),
           "an uninitialised Relocated")


def check_relocatable(fake: FakeLibcuda):
    """runtime.relocate over a BoundLaunch's packed parameters: its own copy
    (the original untouched), every array argument's slots and maps
    patched from its source, the scalars kept as packed."""
    from tile_mlir.runtime.launcher import TENSOR_MAP_BYTES, _Params
    from tile_mlir.runtime.relocate import relocatable

    params = _Params()
    params.pointer_slots[0] = (0, 1)
    for value in (ctypes.c_uint64(0xA000), ctypes.c_uint64(0xA000), ctypes.c_int64(0),
                  ctypes.c_int64(64), ctypes.c_int64(1)):
        params.add(value)
    scalar = ctypes.c_uint32(77)
    params.add(scalar)
    original_map = (ctypes.c_uint64 * 16)(*range(16))
    params.map_slots[1] = [len(params.pointers)]
    params.add_address(ctypes.addressof(original_map), TENSOR_MAP_BYTES)

    class Kernel:
        function, dynamic_shared = 0xF2, 512

    class Launcher:
        context = 0

    class Bound:   # what relocatable reads of a BoundLaunch
        direct, must_sync = object(), False
        kernel, launcher, device = Kernel(), Launcher(), 0
        grid, block = (2, 1, 1), (128, 1, 1)
    Bound.params = params
    raises(ValueError, lambda: relocatable(Bound, {0: (0, 0)}), "an array with no source")
    relocation = relocatable(Bound, {0: (1, 16), 1: (0, 256)})
    assert relocation.call(0x9, 0xB000, 0xC000) == 0
    array = ctypes.cast(fake.seen[9], ctypes.POINTER(ctypes.c_void_p))
    value = [ctypes.c_uint64.from_address(array[i]).value for i in range(5)]
    assert value == [0xC010, 0xC010, 0, 64, 1], [hex(v) for v in value]
    assert ctypes.c_uint32.from_address(array[5]).value == 77
    assert array[6] % 64 == 0 and array[6] != ctypes.addressof(original_map)
    copied = [ctypes.c_uint64.from_address(array[6] + 8 * i).value for i in range(16)]
    assert copied == [0xB100] + list(range(1, 16)), copied
    assert list(original_map) == list(range(16)), "the original map was rewritten"
    assert params.values[0].value == 0xA000, "the original slot was rewritten"


def main():
    """The checks, in a process whose libcuda.so.1 is the stand-in."""
    from tile_mlir.runtime import _launch, launch
    fake = FakeLibcuda()
    check_bound_call(_launch, fake)
    assert launch.NATIVE_LAUNCH
    check_context(_launch, fake)
    check_packing(lambda packing: _launch.Bound(1, (1, 1, 1), (1, 1, 1), 0, 0, None,
                                                None, packing), lambda: fake.seen[11])
    check_dispatch(_launch, fake)
    check_reentrant_accessors(_launch, fake)
    check_kernel_cycle_is_freed(_launch)
    check_bad_arguments(_launch)
    check_relocated(_launch, fake)
    check_relocatable(fake)
    print("ok")


# -- the tests ------------------------------------------------------------------

@pytest.fixture(scope="module")
def fake_libcuda(tmp_path_factory):
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        pytest.skip("no C compiler to build the stand-in libcuda")
    if not list(RUNTIME.glob("_launch*.so")):
        pytest.fail("runtime/_launch was not built (the CMake build makes it)")
    folder = tmp_path_factory.mktemp("fake_libcuda")
    source = folder / "fake.c"
    source.write_text(FAKE_LIBCUDA)
    subprocess.run([compiler, "-shared", "-fPIC", "-o", str(folder / "libcuda.so.1"),
                    str(source)], check=True)
    return folder


def test_the_bound_launch_passes_every_argument_and_returns_the_status(fake_libcuda):
    env = {"LD_LIBRARY_PATH": str(fake_libcuda), "PATH": "/usr/bin:/bin",
           "PYTHONPATH": str(Path(tile_mlir.__file__).parents[1])}
    run = subprocess.run([sys.executable, __file__], env=env, capture_output=True,
                         text=True)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "ok"


def test_the_python_bound_call_packs_like_the_c_one():
    from tile_mlir.runtime.launch import _PythonBound
    calls = []

    def fake_launch(stream, params, extra):
        calls.append((stream, params, extra))
        return (0,)

    check_packing(lambda packing: _PythonBound(fake_launch, 0xAB, packing, None),
                  lambda: len(calls))
    assert calls[-1] == (9, 0xAB, 0)


def test_without_libcuda_the_import_fails_by_name(tmp_path):
    env = {"LD_LIBRARY_PATH": str(tmp_path), "PATH": "/usr/bin:/bin",
           "PYTHONPATH": str(Path(tile_mlir.__file__).parents[1])}
    code = ("from tile_mlir.runtime import launch\n"
            "print(launch.NATIVE_LAUNCH, launch.NATIVE_LAUNCH_ERROR)")
    run = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                         text=True)
    assert run.returncode == 0, run.stderr
    if run.stdout.startswith("True"):
        pytest.skip("this machine has a real libcuda.so.1")
    assert run.stdout.strip() == ("False libcuda.so.1 with cuLaunchKernel and "
                                  "cuCtxGetCurrent is not loadable")


if __name__ == "__main__":
    main()
