"""Host-side planning of the layout ops: a call's canonical form and the
kernel and tile that move it. Plain ints; no MLIR, no torch."""
