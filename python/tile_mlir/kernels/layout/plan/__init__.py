"""Host-side planning of the layout ops: a call's canonical form and the
kernel and tile that move it. Plain ints; no MLIR, no torch.

  common.py    what every op's planning shares: argument checks, dense
               strides, box and power-of-two arithmetic, coordinate reach
  permute.py   permute: the canonical permutation and its kernel
  pad.py       pad: F.pad's spec, the canonical pad and its kernel
  unfold.py    unfold: the spec and its kernel
"""
