"""Runtime rules the other CPU tests leave out, each raised without a GPU
(the launcher's checks run before anything is uploaded or launched)."""

import numpy as np
import pytest

from tile_mlir.runtime.arrays import device_view
from tile_mlir.runtime.errors import TileRuntimeError
from tile_mlir.runtime.launcher import Kernel


def _kernel(params):
    # A launcher without a loaded module: only the argument checks run.
    k = object.__new__(Kernel)
    k.name = "k"
    k.info = {"params": params}
    k.specs = []
    return k


def test_scalar_parameters_are_argument_kind():
    k = _kernel([{"kind": "scalar", "type": "i32"}])
    with pytest.raises(TileRuntimeError) as err:
        k._check_args([device_view(np.zeros(4, np.int32), 0)])
    assert err.value.rule == "argument-kind"
    assert "argument 0" in err.value.message


def test_argument_count_counts_parameters():
    k = _kernel([{"kind": "memref", "shape": [4], "element": "ui32"}] * 2)
    with pytest.raises(TileRuntimeError) as err:
        k._check_args([device_view(np.zeros(4, np.uint32), 0)])
    assert err.value.rule == "argument-count"
    assert "takes 2 arguments, got 1" in err.value.message


def test_anything_but_an_array_is_device_array():
    with pytest.raises(TileRuntimeError) as err:
        device_view("not an array", 3)
    assert err.value.rule == "device-array"
    assert "argument 3" in err.value.message
