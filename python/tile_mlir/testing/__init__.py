"""Test support shared by the test suites and the artifact scripts.

  cases, random_cases   the GPU sweep's cases as plain data (no MLIR: the
                        GPU tests read them where MLIR is not installed)
  racecheck             the contract's example in barrier-setup forms
                        (VARIANTS needs no MLIR; building a form does)
  gpu_kernels           build_case: the kernel of one sweep case (MLIR)
  host_encoder          HostEncoder: the MLIR host lowering JIT-compiled on
                        the CPU, recording its encode calls (MLIR)

Importing this package imports none of them.
"""
