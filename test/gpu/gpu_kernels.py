"""Kernels for the GPU sweep, built with the Python builder (needs MLIR)."""


def build_case(case: dict):
    raise NotImplementedError(case["kind"])
