"""Random bit patterns for the layout kernels' CPU tests: every value an
element of `elem` bytes can hold, and strided views over a buffer of them."""

import numpy as np

from tile_mlir.kernels.layout.model import storage


def bits(rng, shape, elem):
    return rng.integers(0, (1 << (8 * elem)) - 1, size=shape, dtype=storage(elem),
                        endpoint=True)


def strided_input(rng, shape, strides, elem):
    """A random buffer just large enough for the view, and the view."""
    span = 1 + sum((d - 1) * s for d, s in zip(shape, strides))
    flat = bits(rng, (span,), elem)
    view = np.lib.stride_tricks.as_strided(flat, shape, [s * elem for s in strides])
    return flat, view
