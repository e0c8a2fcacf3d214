"""One launch that copies a group of 2-D tensors of different shapes and
addresses (dsts[i] = srcs[i]), its tensor maps derived on the device
(`tile.tensormap_derive`, docs/device-tensor-maps.md).

The tensors' tiles are numbered in one flat list, tensor after tensor (a
tensor of R x C elements has ceil(R / box0) * ceil(C / box1) tiles, an empty
one none); CTA b copies the contiguous run [Ctas[b, 0], Ctas[b, 1]) of it,
which spans tensors Ctas[b, 2] ..= Ctas[b, 3]. The host computes both tables
(tile_mlir.kernels.grouped.plan_tables); the kernel is compiled once per dtype,
box and stages and serves every group.

Parameters:
  Tmpl   (box0, box1) dtype: the template the host encodes (its address is
         scratch; each derived map replaces address, dims and strides)
  Table  (N + 1, 9) i64, one row per tensor: src address, dst address,
         rows, cols, src row pitch (bytes), dst row pitch (bytes), first
         tile, tiles per row, store extent; row N holds the tile count in
         column 6
  Ctas   (grid, 4) i64: first tile, end tile, first tensor, last tensor
  Work   (N + grid, 256) uint8, 128-byte aligned: slot t + b holds CTA b's
         maps of tensor t (source at byte 0, destination at byte 128)

Each CTA first derives the maps of its tensors, one tensor per lane in
parallel (each lane with its own 128-byte staging buffer in shared memory),
then a CTA barrier; then thread 0 runs build_copy's pipeline over its tiles
(`stages` TMA loads in flight on per-stage mbarriers, a TMA store per tile,
the stage refilled once `wait_group.read store_lag` says the store `lag`
tiles back has read it). A tile's map slot and coordinates are computed when
its load is issued (a cursor over the tensors in shared memory) and kept per
stage for its store.

A TMA store writes whole 16-byte chunks of a row: a store clipped at a row
end that is not on a chunk boundary also writes the rest of that chunk
(the load's zero fill, over whatever follows the tensor). So the
destination map's innermost extent is the store extent (the row rounded
down to whole chunks, tile_mlir.kernels.grouped.store_extent) and thread 0
writes the columns [store extent, cols) of a tile that holds them from
shared memory with ordinary stores (fewer than 16 bytes a row).
"""

from __future__ import annotations

import mlir.ir as ir
from mlir.dialects import arith, llvm, memref

from ... import builder as K
from ... import tma
from ...contract import dtype_bytes
from ...tensormaps import derive
from ..common.opcodes import load_opcode, store_opcode
from ..common.params import checked_params
from ..copy.persistent import store_lag_pipeline

THREADS = 32          # one warp: lanes derive maps, thread 0 copies
TABLE_COLUMNS = 9
META_COLUMNS = 8      # per stage: slot, row, col, store extent, cols
CURSOR_ENTRIES = 6    # tensor, first tile, next first tile, tiles per row, store extent, cols
CTA_COLUMNS = 4
SLOT_BYTES = 256      # a tensor's two maps
STAGING_BYTES = 128   # one map, per lane


def default_box(dtype: str) -> tuple[int, int]:
    """64 rows of 256 bytes."""
    return (64, 256 // dtype_bytes(dtype))


def shared_layout(box, stages: int, dtype: str) -> dict:
    """Byte offsets of the dynamic shared buffers (stage images first)."""
    stage_bytes = box[0] * box[1] * dtype_bytes(dtype)
    bars = stages * stage_bytes
    meta = bars + 8 * stages
    cursor = meta + 8 * META_COLUMNS * stages
    staging = -(-(cursor + 8 * CURSOR_ENTRIES) // 128) * 128
    return {"stage_bytes": stage_bytes, "bars": bars, "meta": meta,
            "cursor": cursor, "staging": staging,
            "total": staging + THREADS * STAGING_BYTES}


def _i64(x) -> K.Expr:
    """An index Expr as i64."""
    return K.Expr(arith.index_cast(ir.IntegerType.get_signless(64), K.Expr.of(x)))


def _index(x) -> K.Expr:
    return K.Expr(arith.index_cast(ir.IndexType.get(), K.Expr.of(x)))


def _i32(x) -> ir.Value:
    return arith.trunci(ir.IntegerType.get_signless(32), K.Expr.of(x))


class _GroupedKernel:
    """The kernel body's state and steps, traced in this order by `run`:
    the buffers, the maps of this CTA's tensors (every lane derives one at a
    time), then thread 0's pipeline of loads and stores over its tiles."""

    def __init__(self, dtype: str, box, stages: int, store_lag: int, args) -> None:
        self.dtype, self.box, self.stages, self.store_lag = dtype, box, stages, store_lag
        self.Tmpl, self.Table, self.Ctas, self.Work = args
        self.br, self.bc = box
        lay = shared_layout(box, stages, dtype)
        self.tid = K.thread_id()
        self.block = K.block_id()
        self.bufs = [K.dynamic_shared(box, dtype, s * lay["stage_bytes"])
                     for s in range(stages)]
        # The stages as signless integers of the element size (the tail's
        # element stores move bits).
        self.words = [K.dynamic_shared(box, f"i{8 * dtype_bytes(dtype)}",
                                       s * lay["stage_bytes"]) for s in range(stages)]
        self.bars = K.dynamic_shared((stages,), "uint64", lay["bars"])
        self.meta = K.dynamic_shared((stages, META_COLUMNS), "i64", lay["meta"])
        self.cursor = K.dynamic_shared((CURSOR_ENTRIES,), "i64", lay["cursor"])
        self.staging = K.dynamic_shared((THREADS, STAGING_BYTES), "uint8", lay["staging"])
        self.work_base = arith.index_cast(
            ir.IntegerType.get_signless(64),
            memref.extract_aligned_pointer_as_index(self.Work.value))

    def map_at(self, slot: K.Expr, side: int) -> ir.Value:
        """The global pointer to slot `slot`'s map (0 source, 1 destination)."""
        offset = (slot * SLOT_BYTES + side * 128).value
        return llvm.inttoptr(ir.Type.parse("!llvm.ptr<1>"),
                             arith.addi(self.work_base, offset))

    def run(self) -> None:
        Ctas, Table = self.Ctas, self.Table
        self.tile_begin, tile_end = Ctas[self.block, 0], Ctas[self.block, 1]
        first_tensor, last_tensor = Ctas[self.block, 2], Ctas[self.block, 3]
        self.b64 = _i64(self.block)
        self.derive_maps(first_tensor, last_tensor)
        count = _index(tile_end - self.tile_begin)
        with K.if_(self.tid == 0):
            with K.if_(count > 0):
                start = _index(first_tensor)
                cursor = self.cursor
                cursor[0] = first_tensor
                cursor[1] = Table[start, 6]
                cursor[2] = Table[start + 1, 6]
                cursor[3] = Table[start, 7]
                cursor[4] = Table[start, 8]
                cursor[5] = Table[start, 3]
                store_lag_pipeline(self.bars, self.stages, count, self.store_lag,
                                   self.load, lambda s, j: self.store(s))

    def derive_maps(self, first_tensor, last_tensor) -> None:
        """Every lane derives the maps of one of this CTA's tensors at a time."""
        Table, tid = self.Table, self.tid
        n_tensors = _index(last_tensor - first_tensor + 1)
        for k in K.range_(tid, n_tensors, THREADS):
            t = _index(first_tensor) + k
            with K.if_(Table[t + 1, 6] > Table[t, 6]):  # it has tiles
                slot = _i64(t) + self.b64
                rows = _i32(Table[t, 2])
                # The destination ends at the store extent (at least 1: a
                # map's extents are; a row under 16 bytes issues no store).
                extent = arith.maxsi(_i32(Table[t, 8]),
                                     arith.constant(ir.IntegerType.get_signless(32), 1))
                stage = self.staging.ptr_to([tid, 0])
                for side, inner in ((0, _i32(Table[t, 3])), (1, extent)):
                    derive(self.Tmpl, self.map_at(slot, side), staging=stage,
                           address=Table[t, side], dims=(rows, inner),
                           strides=(Table[t, 4 + side],), box=self.box)
        K.cta_sync()

    def locate(self, j) -> tuple:
        """(map slot, row, col, store extent, cols) of this CTA's tile j;
        moves the cursor (tiles are located in increasing order)."""
        Table, cursor = self.Table, self.cursor
        g = self.tile_begin + _i64(j)
        ty = ir.IntegerType.get_signless(64)

        def next_tensor(v):
            following = _index(K.Expr(v[0]) + 1)
            return [(K.Expr(v[0]) + 1).value, v[2],
                    Table[_index(K.Expr(v[0]) + 2), 6].value,
                    Table[following, 7].value, Table[following, 8].value,
                    Table[following, 3].value]

        values = K.while_carried(
            [ty] * CURSOR_ENTRIES, [cursor[i].value for i in range(CURSOR_ENTRIES)],
            lambda v: arith.cmpi(arith.CmpIPredicate.sle, v[2], g.value),
            next_tensor)
        for i, value in enumerate(values):
            cursor[i] = value
        t, first, _, per_row, extent, cols = values
        within = g - K.Expr(first)
        row = within // K.Expr(per_row)
        col = within - row * K.Expr(per_row)
        return (K.Expr(t) + self.b64, row * self.br, col * self.bc, K.Expr(extent),
                K.Expr(cols))

    def load(self, s: int, j, site: str) -> None:
        slot, row, col, extent, cols = self.locate(j)
        meta = self.meta
        meta[s, 0], meta[s, 1], meta[s, 2] = slot, row, col
        meta[s, 3], meta[s, 4] = extent, cols
        bar = self.bars.ptr_to([s])
        tag = f"{site}{s}"
        K.mbarrier_arrive_expect_tx(bar, tma.tx_bytes(tag))
        tma.apply(load_opcode(), self.bufs[s], self.map_at(slot, 0), box=self.box,
                  coords=(_i32(row), _i32(col)), mbar=bar, tag=tag)

    def store(self, s: int) -> None:
        meta = self.meta
        slot, row, col = meta[s, 0], meta[s, 1], meta[s, 2]
        extent, cols = meta[s, 3], meta[s, 4]
        with K.if_(col < extent):
            tma.apply(store_opcode(), self.map_at(slot, 1), self.bufs[s], box=self.box,
                      coords=(_i32(row), _i32(col)))
        # The row ends inside a 16-byte chunk within this tile.
        with K.if_(extent < cols):
            with K.if_(extent < col + self.bc):
                self.store_tail(s, slot - self.b64, row, col, extent, cols)

    def store_tail(self, s: int, t, row, col, extent, cols) -> None:
        """Columns [extent, cols) of the tile's rows, one element at a
        time from the stage (read here, before its refill is issued)."""
        ti = _index(t)
        dst, rows, pitch = self.Table[ti, 1], self.Table[ti, 2], self.Table[ti, 5]
        height = rows - row
        height = K.Expr(arith.minsi(height.value, K.Expr.of(self.br, height)))
        for r in K.range_(0, _index(height)):
            line = dst + (row + _i64(r)) * pitch
            for c in K.range_(_index(extent - col), _index(cols - col)):
                address = line + (col + _i64(c)) * dtype_bytes(self.dtype)
                pointer = llvm.inttoptr(ir.Type.parse("!llvm.ptr<1>"), address.value)
                llvm.store(self.words[s][r, c].value, pointer)
        # Generic reads of the stage before the copy engine rewrites it.
        K.fence_proxy_async_shared_cta()


@checked_params
def build_grouped_copy(dtype: str = "bfloat16", box=None, stages: int = 4,
                       store_lag: int = 1, grid: int = 132,
                       name: str = "grouped_copy") -> K.KernelDef:
    """The grouped copy kernel for `dtype` (any group, any shapes)."""
    box = tuple(box) if box is not None else default_box(dtype)
    if not 1 <= store_lag < stages:
        raise ValueError("store_lag must be in 1..stages-1")

    def body(Tmpl, Table, Ctas, Work):
        _GroupedKernel(dtype, box, stages, store_lag, (Tmpl, Table, Ctas, Work)).run()

    params = [("Tmpl", K.Tensor(box, dtype)),
              ("Table", K.Tensor((None, TABLE_COLUMNS), "i64")),
              ("Ctas", K.Tensor((None, CTA_COLUMNS), "i64")),
              ("Work", K.Tensor((None, SLOT_BYTES), "uint8"))]
    return K.KernelDef(body, grid=grid, block=THREADS, params=params, name=name)


def recipe_params(dtype: str = "bfloat16", box=None, stages: int = 4,
                  store_lag: int = 1) -> dict:
    """The cache recipe's parameters (tile_mlir.kernels.grouped uses the same)."""
    params = {"dtype": dtype, "box": list(box or default_box(dtype)), "stages": stages}
    if store_lag != 1:
        params["store_lag"] = store_lag
    return params


# One kernel per element size (tile_mlir.kernels.grouped.KERNEL_DTYPES): a
# copy moves bits, its format never converts.
DTYPES = ("uint8", "bfloat16", "float32", "uint64")


def cache_recipes() -> list:
    """`tile-mlir cache populate tile_mlir.kernels.grouped.kernel:cache_recipes`:
    each element size's kernel, and the 2-byte one's debug build."""
    name = "tile_mlir.kernels.grouped.kernel:build_grouped_copy"
    return ([(name, recipe_params(dtype), {"debug": False}) for dtype in DTYPES] +
            [(name, recipe_params("bfloat16"), {"debug": True})])

