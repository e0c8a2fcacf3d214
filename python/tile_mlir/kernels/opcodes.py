"""The TMA opcodes and the L2 cache policy the library kernels issue."""

LOAD = "cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes"
STORE = "cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group"
LOAD3 = LOAD.replace(".2d.", ".3d.")
STORE3 = STORE.replace(".2d.", ".3d.")
CACHE_HINT = ".L2::cache_hint"  # the opcode suffix of a copy with a cache policy

EVICT_FIRST = 0x12F0000000000000  # createpolicy L2::evict_first (streaming)
