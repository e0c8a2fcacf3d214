"""Global coordinates of the image elements, per axis, and their bounds.

Tile mode: along axis i, image index j reads global coordinate
coords[i] + j * element_strides[i]. gather4/scatter4: axis 0 takes the four
row operands, each offset by coords[0] (as the lowering issues them), axis 1
runs from coords[1]. With interleave the r axes are (N, C_slices, *spatial)
and the Ci axis is copied whole. An element is out of bounds when any of
its coordinates is outside [0, dim); box validity is separable per axis.
"""

from __future__ import annotations

import numpy as np

from .fields import Transfer


def axis_coordinates(t: Transfer) -> list:
    """[(coords, in_bounds)] per transferred axis (the image dims without Ci)."""
    out = []
    for axis in range(t.rank):
        if t.mode != "tile" and axis == 0:
            idx = np.asarray(t.rows, dtype=np.int64) + t.coords[0]
        else:
            n = t.image.dims[axis]
            idx = t.coords[axis] + np.arange(n, dtype=np.int64) * t.element_strides[axis]
        dim = t.logical_shape[axis]
        out.append((idx, (idx >= 0) & (idx < dim)))
    return out


def in_bounds_mask(axes: list) -> np.ndarray:
    """Outer AND of the per-axis bounds: shape = the transferred dims."""
    mask = axes[0][1]
    for _, valid in axes[1:]:
        mask = np.logical_and.outer(mask, valid)
    return mask


def clipped(axes: list, shape: tuple) -> list:
    """Per-axis coordinates clamped into range (safe to index with)."""
    return [np.clip(idx, 0, dim - 1) for (idx, _), dim in zip(axes, shape)]
