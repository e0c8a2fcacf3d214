"""The call path's argument keys (runtime/arg_keys.py): what two calls must
share to reuse one validated launch. CPU only, with array stand-ins."""

import numpy as np

from tile_mlir.runtime.arg_keys import SCALAR, args_key


class Interface:
    """A CUDA array (numba-like) known through __cuda_array_interface__."""

    def __init__(self, ptr, shape, strides=None, typestr="<f4"):
        self.info = {"data": (ptr, False), "shape": shape, "strides": strides,
                     "typestr": typestr, "version": 3}

    @property
    def __cuda_array_interface__(self):  # a property, as cupy and numba have
        return self.info


class DLPackOnly:
    def __dlpack__(self, stream=None):
        raise AssertionError("keys never read DLPack")


def test_keys_hold_address_shape_strides_and_dtype():
    a = Interface(0x1000, (4, 8))
    same = Interface(0x1000, (4, 8))
    assert args_key([a, 3]) == args_key([same, 5])  # scalars' values are not keys
    assert args_key([a, 3])[1] == SCALAR
    for other in (Interface(0x2000, (4, 8)), Interface(0x1000, (8, 4)),
                  Interface(0x1000, (4, 8), (64, 4)), Interface(0x1000, (4, 8), None, "<i4")):
        assert args_key([other, 3]) != args_key([a, 3])


def test_numpy_dlpack_only_and_bools_take_the_full_path():
    assert args_key([np.zeros(4)]) is None
    assert args_key([DLPackOnly()]) is None
    assert args_key([Interface(0x1000, (4,)), True]) is None
    assert args_key([np.float32(1.0), 2]) == (SCALAR, SCALAR)
