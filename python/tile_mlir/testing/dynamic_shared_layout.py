"""Layout of the `dynamic_beside_static` GPU test kernel (no MLIR: read by
the kernel builder in gpu_kernels.py and by test/gpu/test_dynamic_shared.py).

Static shared memory: two 8-byte mbarriers and a 1 KB sentinel buffer.
Dynamic shared memory, filled first from `S`: two 128B-swizzled loads of a
(32, 64) uint16 box (4 KB each, at byte 0 and 4096: 1024-byte aligned as the
swizzle needs) completing on the first and second barrier, and one
unswizzled (8, 64) box at byte 8320 (128-byte aligned) on the first. The
bytes between 8192 and 8320 keep what S put there."""

GLOBAL_SHAPE = (64, 128)
DTYPE = "uint16"
SENTINEL_WORDS = 256             # uint32: the static buffer
DYNAMIC_BYTES = 8320 + 8 * 128   # the last copy ends there
# (dynamic byte offset, box, coords, swizzle, barrier index)
COPIES = [
    (0, (32, 64), (0, 0), 3, 0),
    (4096, (32, 64), (32, 64), 3, 1),
    (8320, (8, 64), (8, 0), 0, 0),
]
