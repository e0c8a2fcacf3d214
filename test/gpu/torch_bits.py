"""Random bits as torch tensors, and their bit views, for the layout ops'
GPU tests (imported after each test's `pytest.importorskip("torch")`)."""

import torch

DTYPES = {1: torch.uint8, 2: torch.bfloat16, 4: torch.float32, 8: torch.float64}
INTS = {1: torch.uint8, 2: torch.int16, 4: torch.int32, 8: torch.int64}


def random_bits(shape, elem, gen, dtype=None):
    """Fresh random bits (NaN patterns included) as `dtype` (default: the
    float type of the element size)."""
    ints = INTS[elem]
    info = torch.iinfo(ints)
    # randint's bounds must fit int64 with room for high - low
    low, high = (info.min, info.max) if elem < 8 else (-2**62, 2**62)
    raw = torch.randint(low, high, tuple(shape), dtype=ints, device="cuda", generator=gen)
    return raw.view(dtype or DTYPES[elem])


def bits(t):
    """The same bytes as integers (torch.equal on them compares bit for bit:
    NaN patterns included)."""
    return t.view(INTS[t.element_size()])


def case_id(case):
    return "-".join(str(x).replace(" ", "") for x in case)


def check_permute_variants(P, plan, x, dims):
    """Every benchmark variant of the permute plan (P: tile_mlir.kernels.
    layout.permute) and the one-element-a-thread kernel it replaced, each bit-exact
    against torch on x, into an output poisoned with all-ones bits."""
    ref = bits(x).permute(dims).contiguous()
    simt = P.simt_plan(plan)
    for name, kernel in P.variants(plan) + [("simt", P.kernel_for(simt))]:
        out = torch.full_like(ref, -1).view(x.dtype)
        P.run(simt if name == "simt" else plan, x, out, kernel)
        torch.cuda.synchronize()
        assert torch.equal(bits(out), ref), f"variant {name}"
