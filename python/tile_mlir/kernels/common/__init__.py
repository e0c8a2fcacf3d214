"""What every kernel family of the library issues: the TMA opcodes and the
L2 cache policy (opcodes.py)."""
