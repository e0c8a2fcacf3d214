"""Seeded random copy forms for the differential GPU run (plain data, no MLIR).

Each case has the fields of cases.py. The generator aims at forms the
verifier accepts (the builder resamples the rare rejected one) and keeps the
shared image small enough for static shared memory.
"""

import random

from .. import contract
from .cases import FLOATS, ITEMSIZE, REDUCTIONS


def _pick_dtype(rng, kind):
    if kind == "reduce":
        op = rng.choice(sorted(REDUCTIONS))
        return rng.choice(REDUCTIONS[op]), op
    return rng.choice(sorted(ITEMSIZE)), None


def random_case(rng: random.Random, index: int) -> dict:
    kind = rng.choices(["load", "store", "reduce"], weights=[6, 2, 2])[0]
    dtype, reduction = _pick_dtype(rng, kind)
    size = ITEMSIZE[dtype]
    rank = rng.randint(contract.RANK_RANGE.min, contract.RANK_RANGE.max)
    swizzle = rng.choice([0, 0, 1, 2, 3])
    # Inner box: a multiple of 16 bytes, within the swizzle span when swizzled.
    max_inner_bytes = contract.SWIZZLE_SPAN_BYTES[swizzle] or 256
    inner_box = (16 // size) * rng.randint(1, max(1, max_inner_bytes // 16))
    inner_box = min(inner_box, contract.BOX_EXTENT_RANGE.max)
    outer_box = [rng.randint(1, 6) for _ in range(rank - 1)]
    box = outer_box + [inner_box]
    strides = [rng.choice([1, 1, 2, 3]) for _ in range(rank - 1)] + [1]
    gshape = [max(b, 1) + rng.randint(0, 12) for b in outer_box]
    inner_dim = inner_box + (16 // size) * rng.randint(0, 6)
    gshape.append(inner_dim)
    coords = [rng.randint(-b, d - 1) for b, d in zip(outer_box, gshape[:-1])]
    step = 16 // size
    coords.append(step * rng.randint(-(inner_box // step), (inner_dim - 1) // step))
    case = {"name": f"rand{index:04d}", "kind": kind, "dtype": dtype,
            "gshape": gshape, "box": box, "coords": coords,
            "element_strides": strides, "swizzle": swizzle}
    if kind == "load" and dtype in FLOATS and rng.random() < 0.3:
        case["oob_fill"] = 1
    if kind == "load" and dtype == "float32" and rng.random() < 0.3:
        case["format"] = rng.choice(["tfloat32", "float32_ftz", "tfloat32_ftz"])
    if reduction:
        case["reduction"] = reduction
    if rng.random() < 0.3:
        axes = rng.randint(1, 2)
        case["repeat"] = [rng.randint(1, 3) for _ in range(axes)]
        case["coord_steps"] = [
            [rng.randint(-2, 4) for _ in range(rank - 1)] + [step * rng.randint(0, 4)]
            for _ in range(axes)]
    if rng.random() < 0.1:
        case["l2_promotion"] = rng.randint(1, contract.L2_PROMOTION_RANGE.max)
    if rng.random() < 0.1:
        case["cache_hint"] = True
    return case


def random_cases(count: int, seed: int) -> list[dict]:
    rng = random.Random(seed)
    return [random_case(rng, i) for i in range(count)]
