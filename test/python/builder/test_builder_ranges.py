"""Ints the builder turns into typed constants are range-checked where they
are given (never wrapped by MLIR): mbarrier counts and byte counts
([mbarrier-count-range]) and every other typed int ([int-range]); and the
rules build() and tma.apply decide: the static barrier checks, a rank
outside 1..5, a store's operand order."""

import pytest

ir = pytest.importorskip("mlir.ir")

from tile_mlir import contract, kernel as K, tensormaps, tma  # noqa: E402
from tile_mlir.errors import TileError, TileUsageError, TileVerifyError  # noqa: E402

LOAD = "cp.async.bulk.tensor.2d.shared::cta.global.tile.mbarrier::complete_tx::bytes"
STORE = "cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group"
REDUCE_ADD = "cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.bulk_group"
MAX_COUNT = 2 ** 20 - 1   # PTX: mbarrier counts and tx bytes are below 2^20


def define(body, shape=(16, 16), dtype="uint32") -> K.KernelDef:
    return K.KernelDef(body, params=[("A", K.Tensor(shape, dtype))], name="k")


def barrier():
    return K.alloc_shared((1,), "uint64", align=8).ptr_to([0])


def initialised():
    bar = barrier()
    K.mbarrier_init(bar, 1)
    return bar


def error_in(fn, cls=TileUsageError) -> TileError:
    """The error `fn(A)` raises inside a kernel body, exactly of class `cls`."""
    seen = {}

    def body(A):
        try:
            fn(A)
        except TileError as err:
            seen["err"] = err

    define(body).build()
    assert "err" in seen, "no error raised"
    err = seen["err"]
    assert type(err) is cls, f"{type(err).__name__}: {err}"
    assert err.rule in contract.RULES and str(err).startswith(f"[{err.rule}] ")
    return err


def test_the_contract_bound_is_ptxs():
    assert contract.MAX_TX_BYTES == MAX_COUNT


# --- [mbarrier-count-range] ---------------------------------------------------

@pytest.mark.parametrize("fn, value", [
    (lambda A, v: K.mbarrier_init(barrier(), v), 0),
    (lambda A, v: K.mbarrier_init(barrier(), v), -1),
    (lambda A, v: K.mbarrier_init(barrier(), v), 2 ** 20),
    (lambda A, v: K.mbarrier_init(barrier(), v), 2 ** 40),
    (lambda A, v: K.mbarrier_arrive_expect_tx(barrier(), v), -5),
    (lambda A, v: K.mbarrier_arrive_expect_tx(barrier(), v), 2 ** 20),
    (lambda A, v: K.mbarrier_arrive_expect_tx(barrier(), v), 2 ** 40),
    (lambda A, v: K.set_tx_bytes(K.mbarrier_arrive_expect_tx(initialised(), 0), v), -1),
    (lambda A, v: K.set_tx_bytes(K.mbarrier_arrive_expect_tx(initialised(), 0), v),
     2 ** 32),
])
def test_mbarrier_counts_out_of_range(fn, value):
    err = error_in(lambda A: fn(A, value))
    assert err.rule == "mbarrier-count-range" and str(value) in err.message


def test_mbarrier_counts_at_the_bounds_are_kept():
    def body(A):
        bar = barrier()
        K.mbarrier_init(bar, MAX_COUNT)
        K.mbarrier_arrive_expect_tx(bar, MAX_COUNT)

    # No copy delivers the bytes: the barrier check names the count, intact.
    with pytest.raises(TileVerifyError) as err:
        define(body).build()
    assert err.value.rule == "barrier-tx-mismatch"
    assert f"expects {MAX_COUNT} bytes" in err.value.message


# --- [int-range] --------------------------------------------------------------------

@pytest.mark.parametrize("fn, shown", [
    (lambda A: K.mbarrier_wait(barrier(), 2 ** 32), str(2 ** 32)),
    (lambda A: K.mbarrier_wait(barrier(), -2 ** 31 - 1), str(-2 ** 31 - 1)),
    (lambda A: A[2 ** 63, 0], str(2 ** 63)),                      # an index
    (lambda A: K.lane_id() + 2 ** 64, str(2 ** 64)),
    (lambda A: K.range_(0, 2 ** 70).__next__(), str(2 ** 70)),
    (lambda A: K.grid(2 ** 64).__next__(), str(2 ** 64)),
    (lambda A: K.Expr(A[0, 0].value) + 2 ** 33, str(2 ** 33)),    # an i32 operand
    (lambda A: K.Expr(A[0, 0].value) == -2 ** 32, str(-2 ** 32)),
    (lambda A: K.atomic_add(K.global_pointer(A), 2 ** 32), str(2 ** 32)),
    (lambda A: K.alloc_shared((2 ** 63, 1), "uint8"), str(2 ** 63)),
    (lambda A: K.bulk_wait_group(2 ** 31), str(2 ** 31)),
    (lambda A: K.bulk_wait_group(-1), "-1"),
    (lambda A: tma.apply("cp.async.bulk.tensor.2d.shared::cluster.global.tile"
                         ".mbarrier::complete_tx::bytes.multicast::cluster",
                         K.alloc_shared((8, 16), "uint32", align=128), A, box=(8, 16),
                         coords=(0, 0), mbar=barrier(), cta_mask=2 ** 16), str(2 ** 16)),
    # tensormaps.derive's operands: dims are i32, strides i64.
    (lambda A: tensormaps.derive(A, K.global_pointer(A), strides=(10 ** 30,),
                                 box=(16, 16)), str(10 ** 30)),
    (lambda A: tensormaps.derive(A, K.global_pointer(A), dims=(2 ** 32, 16),
                                 box=(16, 16)), str(2 ** 32)),
    (lambda A: tensormaps.derive(A, K.global_pointer(A), address=2 ** 64,
                                 box=(16, 16)), str(2 ** 64)),
    (lambda A: tensormaps.derive(A, K.global_pointer(A), strides=(2 ** 63,),
                                 box=(16, 16)), str(2 ** 63)),     # i64 is signed
])
def test_ints_beyond_their_type_are_int_range(fn, shown):
    err = error_in(fn)
    assert err.rule == "int-range" and shown in err.message


def test_a_tensor_extent_beyond_64_bits_is_int_range():
    with pytest.raises(TileUsageError) as err:
        K.Tensor((2 ** 63, 4), "uint8")
    assert err.value.rule == "int-range" and str(2 ** 63) in err.value.message


def test_i32_constants_take_either_signedness():
    def body(A):
        v = K.Expr(A[0, 0].value)
        A[0, 0] = (v + 0xFFFFFFFF).value
        A[0, 1] = (v + (-2 ** 31)).value

    text = str(define(body, dtype="i32").build())
    # 0xFFFFFFFF as an i32 is -1: the bits, not a wrapped larger int.
    assert "arith.constant -1 : i32" in text
    assert f"arith.constant {-2 ** 31} : i32" in text


# --- [kernel-value]: arguments of another kind -----------------------------------

def _index_value(A):
    return K.Expr.of(0)


@pytest.mark.parametrize("fn, shown", [
    (lambda A: K.global_pointer(_index_value(A)), "type index"),
    (lambda A: K.base_address(_index_value(A)), "type index"),
    (lambda A: K.global_pointer(K.lane_id()), "builder value of type"),
    (lambda A: K.global_pointer(7), "7"),
    (lambda A: K.base_address("A"), "'A'"),
    (lambda A: K.global_pointer(K.alloc_shared((4,), "uint32")), "memref<4xui32, 3>"),
    (lambda A: tma.tx_bytes(()), "()"),
    (lambda A: tma.prefetch_tensormap({}), "{}"),
    # An alignment is a power of two a block's shared memory can honour.
    (lambda A: K.alloc_shared((4,), "uint32", align=2 ** 40), str(2 ** 40)),
    (lambda A: K.alloc_shared((4,), "uint32", align=2 ** 64), str(2 ** 64)),
    (lambda A: K.alloc_shared((4,), "uint32", align=1.5), "1.5"),
    (lambda A: K.alloc_shared((4,), "uint32", align=96), "96"),
    (lambda A: tma.tx_bytes(None), "None"),
])
def test_arguments_of_another_kind_are_kernel_value(fn, shown):
    err = error_in(fn)
    assert err.rule == "kernel-value" and shown in err.message


def test_dynamic_shared_beyond_a_blocks_shared_memory_is_shared_memory_limit():
    most = contract.MAX_SHARED_BYTES_PER_BLOCK
    err = error_in(lambda A: K.dynamic_shared((16,), "uint8", most - 8))
    assert err.rule == "shared-memory-limit" and str(most + 8) in err.message
    err = error_in(lambda A: K.dynamic_shared((4,), "uint32", 2 ** 63 - 1))
    assert err.rule == "shared-memory-limit" and str(2 ** 63 - 1) in err.message

    def body(A):
        K.dynamic_shared((16,), "uint8", most - 16)    # ends at the last byte
        K.alloc_shared((4,), "uint32", align=1)

    define(body).build()


def test_pointers_take_a_buffer_or_its_mlir_memref_value():
    def body(A):
        K.global_pointer(A.value)
        K.base_address(A.value)
        K.base_address(K.alloc_shared((4,), "uint32"))

    define(body).build()


# --- build() runs the static barrier checks ---------------------------------------

def _load(A, bar, tx):
    shared = K.alloc_shared((2, 8, 16), "uint32", align=128)
    if tx is not None:
        K.mbarrier_arrive_expect_tx(bar, tx)
    tma.apply(LOAD, shared, A, box=(8, 16), coords=(0, 0), coord_steps=((8, 0),),
              mbar=bar)
    K.mbarrier_wait(bar, 0)


def test_build_reports_a_barrier_tx_mismatch():
    def body(A):
        bar = barrier()
        K.mbarrier_init(bar, 1)
        _load(A, bar, 512)   # two 8x16 uint32 boxes are 1024 bytes

    with pytest.raises(TileVerifyError) as err:
        define(body).build()
    assert err.value.rule == "barrier-tx-mismatch"
    assert "512" in err.value.message and "1024" in err.value.message


def test_build_reports_an_uninitialised_barrier():
    with pytest.raises(TileVerifyError) as err:
        define(lambda A: _load(A, barrier(), 1024)).build()
    assert err.value.rule == "mbarrier-uninitialized"


def test_build_reports_an_unarmed_barrier():
    def body(A):
        bar = barrier()
        K.mbarrier_init(bar, 1)
        _load(A, bar, None)

    with pytest.raises(TileVerifyError) as err:
        define(body).build()
    assert err.value.rule == "mbarrier-unarmed"


def test_build_accepts_a_whole_protocol():
    def body(A):
        bar = barrier()
        K.mbarrier_init(bar, 1)
        _load(A, bar, 1024)

    assert len(tma.find_copies(define(body).build())) == 1


# --- [rank-range] and the operand order --------------------------------------------

@pytest.mark.parametrize("opcode", [LOAD.replace("2d", "6d"), LOAD.replace("2d", "0d"),
                                    STORE.replace("2d", "12d")])
def test_a_well_formed_opcode_of_another_rank_is_rank_range(opcode):
    rank = opcode.split(".")[4]
    with pytest.raises(TileVerifyError) as err:
        tma.parse_opcode(opcode)
    assert err.value.rule == "rank-range" and rank[:-1] in err.value.message
    err = error_in(lambda A: tma.apply(opcode, K.alloc_shared((8, 16), "uint32"), A,
                                       box=(8, 16), coords=(0, 0), mbar=barrier()),
                   TileVerifyError)
    assert err.rule == "rank-range"


@pytest.mark.parametrize("rank", [0, 6, 9])
def test_format_opcode_of_another_rank_is_rank_range(rank):
    with pytest.raises(TileVerifyError) as err:
        tma.format_opcode(rank=rank)
    assert err.value.rule == "rank-range" and str(rank) in err.value.message


def test_a_malformed_opcode_stays_opcode_syntax():
    for opcode in ("garbage", LOAD.replace("2d", "xd"), LOAD.replace(".global", ".local")
                   .replace("2d", "6d")):
        with pytest.raises(TileVerifyError) as err:
            tma.parse_opcode(opcode)
        assert err.value.rule == "opcode-syntax", opcode


@pytest.mark.parametrize("opcode, order", [
    (STORE, "apply(opcode, global_, shared, ...)"),
    (REDUCE_ADD, "apply(opcode, global_, shared, ...)"),
])
def test_operands_in_the_other_order_get_a_hint(opcode, order):
    def swapped(A):
        shared = K.alloc_shared((8, 16), "float32", align=128)
        tma.apply(opcode, shared, A, box=(8, 16), coords=(0, 0))

    err = error_in(swapped, TileVerifyError)
    assert err.rule == "shared-address-space"
    assert order in err.message and "swapped" in err.message


def test_a_load_given_in_store_order_gets_the_hint():
    def swapped(A):
        shared = K.alloc_shared((8, 16), "uint32", align=128)
        tma.apply(LOAD, A, shared, box=(8, 16), coords=(0, 0), mbar=barrier())

    err = error_in(swapped, TileVerifyError)
    assert "apply(opcode, shared, global_, ...)" in err.message
