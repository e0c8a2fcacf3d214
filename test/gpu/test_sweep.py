"""The GPU sweep: every case on fresh random data, compared bit-exactly with
the NumPy emulator (the oracle)."""

import json
from math import prod

import numpy as np
import pytest

from tile_mlir import contract, emulator, runtime
from tile_mlir.testing.cases import FLOATS, ITEMSIZE, NATURAL, all_cases

# numpy storage of each dtype's host arrays (bfloat16: uint16 bit patterns).
STORAGE = {d: np.dtype(contract.DTYPES[d].numpy).type for d in ITEMSIZE}
# Rounding of float32 to tf32 as measured on the H200 by test_tf32.py: ties
# go to even (nearest_away did not match).
TF32_ROUNDING = "nearest_even"


def random_bits(rng, shape, dtype: str, finite: bool = False) -> np.ndarray:
    """Random bit patterns; `finite` keeps floats finite and moderate."""
    storage = STORAGE[dtype]
    if finite and dtype in FLOATS:
        values = rng.normal(0.0, 64.0, size=shape).astype(np.float32)
        if dtype == "bfloat16":
            return (values.view(np.uint32) >> 16).astype(np.uint16)
        return values.astype(storage)
    raw = rng.integers(0, 256, size=prod(shape) * ITEMSIZE[dtype], dtype=np.uint8)
    return raw.view(storage).reshape(shape)


def _fields(case) -> dict:
    fields = dict(box=case["box"], element_strides=case.get("element_strides"),
                  format=case.get("format") or NATURAL[case["dtype"]],
                  swizzle=case.get("swizzle", 0), interleave=case.get("interleave", 0))
    if "mode" in case:
        fields.update(mode=case["mode"], pixel_box_lower=case["pixel_box_lower"],
                      pixel_box_upper=case["pixel_box_upper"])
        if "offsets" in case:
            fields["offsets"] = case["offsets"]
    return fields


def expected_load(case, G, S) -> np.ndarray:
    shared = S.copy().reshape(-1).view(np.uint8).copy()
    emulator.load_slots(shared, G, coords=case["coords"],
                        coord_steps=case.get("coord_steps", []),
                        repeat_shape=case.get("repeat", []),
                        oob_fill=case.get("oob_fill", 0),
                        tf32_rounding=TF32_ROUNDING, **_fields(case))
    return shared


def expected_store(case, G, S) -> np.ndarray:
    shared = S.reshape(-1).view(np.uint8)
    fields = _fields(case)
    image = emulator.box_image(**{k: v for k, v in fields.items()
                                  if k in ("box", "element_strides", "format",
                                           "swizzle", "interleave", "mode")})
    repeat = case.get("repeat", [])
    steps = case.get("coord_steps", [])
    out = G.copy()
    for slot, index in enumerate(np.ndindex(*repeat) if repeat else [()]):
        coords = list(case["coords"])
        for axis, j in enumerate(index):
            coords = [c + j * s for c, s in zip(coords, steps[axis])]
        fields.pop("interleave", None)
        out = emulator.store(out, shared, slot * image["storage_bytes"], coords=coords,
                             reduction=case.get("reduction"), **fields)
        fields = _fields(case)
    return out


def _global(case, rng):
    shape = case.get("runtime_shape") or case["gshape"]
    finite = case["kind"] == "reduce" or case.get("format") is not None
    return random_bits(rng, tuple(shape), case["dtype"], finite=finite)


def _device_padded(G, pitch):
    torch = pytest.importorskip("torch", reason="dynamic strides need a device array (torch)")
    rows, cols = G.shape
    base = torch.zeros((rows, pitch), dtype=getattr(torch, str(G.dtype)), device="cuda")
    view = base[:, :cols]
    view.copy_(torch.from_numpy(G))
    return base, view


@pytest.mark.parametrize("case", all_cases(), ids=lambda c: c["name"])
def test_case(case, artifacts, rng):
    folder = artifacts / case["name"]
    if not folder.exists():
        pytest.skip(f"artifact {case['name']} not built")
    built = json.loads((folder / "case.json").read_text())
    assert built == json.loads(json.dumps(case)), "artifact built from another case list: rebuild"
    run_case(case, folder, rng)


def run_case(case, folder, rng) -> None:
    """Runs one built case on fresh data from `rng` and compares bit-exactly."""
    mod = runtime.load(folder)
    info = mod.artifact.kernel()
    sshape = tuple(info["params"][1]["shape"])
    G = _global(case, rng)
    S = random_bits(rng, sshape, case["dtype"])

    if case["kind"] in ("load", "multicast"):
        n = case.get("cluster", 1)
        out = np.zeros(((n,) if case["kind"] == "multicast" else ()) + sshape,
                       dtype=STORAGE[case["dtype"]])
        if case.get("row_pitch"):
            _, view = _device_padded(G, case["row_pitch"])
            mod(view, S, out)
        else:
            mod(G, S, out)
        want = expected_load(case, G, S)
        got = out.reshape(n, -1).view(np.uint8) if case["kind"] == "multicast" else \
            out.reshape(-1).view(np.uint8)[None]
        for cta in range(got.shape[0]):
            mismatch = np.flatnonzero(got[cta] != want)
            assert mismatch.size == 0, (
                f"CTA {cta}: {mismatch.size} bytes differ, first at byte "
                f"{mismatch[:8].tolist()}")
    else:
        before = G.copy()
        mod(G, S)
        want = expected_store(case, before, S)
        mismatch = np.flatnonzero(G.reshape(-1).view(np.uint8) != want.reshape(-1).view(np.uint8))
        assert mismatch.size == 0, f"{mismatch.size} bytes differ, first {mismatch[:8].tolist()}"
