"""The GPU sweep: each case is plain data (no MLIR), shared by the artifact
builder (scripts/build_gpu_artifacts.py) and the tests."""


def all_cases() -> list[dict]:
    return []
