"""The layout ops on CUDA torch tensors and DLPack arrays (docs/layout-kernels.md);
`tile_mlir.kernels` exports them: permute, pad, unfold.

  permute.py, pad.py, unfold.py   the public ops and their call paths
  grad.py                         autograd: each op's adjoint, registered by the op
  torch_ops.py, torch_library.py  the ops as torch custom ops (torch.ops.tile_mlir),
                                  what they call while torch.compile or torch.export traces
  call.py                         array handling and kernel launch shared by the ops
  tuning.py                       per-GPU defaults of the permute kernels
  limits.py                       the numbers the kernels plan and tile by
  plan/                           host planning: a call's canonical form and kernel
  geometry/                       MLIR-free tile geometry (builders and models share it)
  builders/                       the kernels, traced with the builder (need MLIR)
  model.py                        CPU models of the kernels (NumPy, no MLIR)

The ops import no MLIR: their kernels come from the compile cache by
recipe (builder name and parameters), compiled where MLIR is installed.
The functions are not re-exported here, so `tile_mlir.kernels.layout.permute`
stays the module.
"""
