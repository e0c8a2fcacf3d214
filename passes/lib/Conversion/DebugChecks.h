//===- DebugChecks.h - device checks of a debug build ---------------*- C++ -*-===//
//
// What `tile-lower-tma{debug=true}` adds to a gpu.module (docs/debug-mode.md):
// the error buffer, the barrier table, rule checks before each copy issues,
// bounded mbarrier waits and the expect_tx / issued-bytes accounting.
//
//===----------------------------------------------------------------------===//
#ifndef TILE_CONVERSION_DEBUGCHECKS_H
#define TILE_CONVERSION_DEBUGCHECKS_H

#include "Tile/Analysis/Analysis.h"
#include "Tile/Contract/Contract.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <string>

namespace mlir::tile::debug {

/// One rule check of a copy: `bad` (i1) with the rule and up to six i32
/// values of the error record.
struct Check {
  Value bad;
  Rule rule;
  llvm::SmallVector<Value, 6> values;
  /// A silent check skips the copy without recording anything.
  bool silent = false;
};

/// The debug build of one gpu.module.
class ModuleChecks {
public:
  /// Declares the error buffer and the barrier table in `module`, numbers its
  /// kernels and decides whether the copies issued on a barrier are counted.
  explicit ModuleChecks(gpu::GPUModuleOp module);

  /// Adds a site (a copy or barrier op) to the module's list; returns its id.
  int32_t addSite(Operation *op, llvm::StringRef what);

  /// The checks of `op`'s runtime values that the verifier could not decide:
  /// the opaque map's alignment and the innermost coordinate's, given the op's
  /// coordinates and map; per slot, the 32-bit range of the stepped
  /// coordinates and (stores, reductions) their sign.
  llvm::SmallVector<Check> copyChecks(OpBuilder &b, Location loc, TmaCopyOp op,
                                      Value descriptor);
  /// Per slot: the slot's coordinates (op order) are the op's plus `deltas`,
  /// `instruction` the coordinates issued (innermost first; gather4/scatter4:
  /// the column, then the four rows plus the slot's row base).
  void slotChecks(OpBuilder &b, Location loc, TmaCopyOp op, int64_t slot,
                  llvm::ArrayRef<int64_t> deltas,
                  llvm::ArrayRef<Value> slotCoords,
                  llvm::ArrayRef<Value> instruction,
                  llvm::SmallVectorImpl<Check> &checks);
  /// Issues the copy (`issue` builds its instructions) unless a check fails;
  /// then the first failing check is recorded instead. A load's bytes are
  /// counted on its barrier.
  /// In a module whose descriptors are checked (`checksReads`), a load into
  /// shared::cta records its image: `destination` (the i64 shared address of
  /// its first slot) and `imageBytes` from there.
  void guardCopy(OpBuilder &b, Location loc, TmaCopyOp op, int32_t site,
                 llvm::ArrayRef<Check> checks, int64_t slots,
                 int64_t bytesPerSlot, Value destination, int64_t imageBytes,
                 llvm::function_ref<void(OpBuilder &)> issue);

  /// Before a wgmma reads the tile of `op` ([wgmma-unwaited-copy]): every
  /// recorded load image overlapping the tile's `readBytes` from `start`
  /// (i64 shared address) has completed the barrier phase it was issued in,
  /// and where a load of the function fills the buffer's allocation, one
  /// covers the tile's first byte. A fault is recorded and
  /// the thread goes on (the wgmma is warpgroup-collective).
  void checkTileReads(OpBuilder &b, Location loc, WgmmaDescriptorOp op,
                      Value start, int64_t readBytes);
  /// Whether descriptors are checked: the module has a tile.wgmma_descriptor
  /// and every load it issues lands in this CTA (no shared::cluster
  /// destination), so this CTA's fill table sees every image.
  bool checksReads = false;

  /// Bounds every blocking mbarrier wait and records every expect_tx of the
  /// module's functions; then zeroes the table at each kernel's entry and
  /// records `tile.debug` (layout, sites, kernels, rules) on the module.
  void finish();

  /// Copies lowered so far (their sites are numbered by it).
  int copiesSeen = 0;

  /// Publishes a derived map (`publish` writes and fences it) unless one of
  /// `checks` fails; then the first failing one is recorded instead and the
  /// map is not written.
  void guardDerive(OpBuilder &b, Location loc, Operation *op,
                   llvm::ArrayRef<Check> checks,
                   llvm::function_ref<void(OpBuilder &)> publish);
  /// Derivations lowered so far (their sites are numbered by it).
  int derivesSeen = 0;
  /// Descriptors checked so far (their sites are numbered by it).
  int readsSeen = 0;

private:
  /// Runs `body` unless one of `checks` fails; records the first failing one.
  void guarded(OpBuilder &b, Location loc, Operation *op, int32_t site,
               llvm::ArrayRef<Check> checks,
               llvm::function_ref<void(OpBuilder &)> body);
  /// Whether any thread has recorded a fault (a volatile read of the count).
  Value faultRecorded(OpBuilder &b, Location loc);
  Value buffer(OpBuilder &b, Location loc);
  Value word(OpBuilder &b, Location loc, int64_t index);
  void record(OpBuilder &b, Location loc, Value rule, int32_t kernel,
              int32_t site, llvm::ArrayRef<Value> values);
  void exitThread(OpBuilder &b, Location loc);
  /// The barrier's table slot: its index, its state word, and whether the
  /// slot is this barrier's (`claim`: take a free one).
  struct Slot {
    Value index;
    Value state;
    Value mine;
  };
  Slot slot(OpBuilder &b, Location loc, Value address, bool claim);
  /// The i32 pointer to the slot's phase-generation word.
  Value generationWord(OpBuilder &b, Location loc, const Slot &s);
  /// Adds to the barrier's counts of its current phase (and, where reads are
  /// checked, bumps its generation when that phase is new to the table).
  void account(OpBuilder &b, Location loc, Value mbar, Value expected,
               Value issued, int64_t posts, int64_t copies);
  /// The i32 pointer to word `index` of the barrier table.
  Value tableWord(OpBuilder &b, Location loc, Value index);
  /// Records (or refreshes) the image of a load into shared::cta.
  void recordFill(OpBuilder &b, Location loc, Value mbar, Value destination,
                  int64_t imageBytes);
  /// Values 0..4 of a barrier fault for phase `parity` of `mbar`.
  llvm::SmallVector<Value, 6> barrierValues(OpBuilder &b, Location loc,
                                           Value mbar, Value parity);
  void boundWait(NVVM::MBarrierTryWaitParityOp op, int32_t site);
  int32_t kernelId(Operation *op);

  gpu::GPUModuleOp module;
  /// Whether the copies issued on a barrier are all seen by this CTA's table
  /// (no shared::cluster destination, multicast, hand-written bulk copy,
  /// complete_tx or inline assembly in the module).
  bool countsIssued = true;
  bool usesTable = false;
  llvm::SmallVector<std::string> sites;
  llvm::SmallVector<gpu::GPUFuncOp> kernels;
  /// The module derives tensor maps: a copy through an opaque map is not
  /// issued once a fault is recorded (its map may be unpublished).
  bool derivesMaps = false;
  /// (innermost enclosing function, shared allocation) of every load with a
  /// shared destination, found in the constructor's one walk of the module
  /// (where a load lands in shared::cluster, checksReads is false and this
  /// is not read).
  llvm::DenseSet<std::pair<Operation *, SharedAllocation>> loadedAllocations;
};

} // namespace mlir::tile::debug

#endif // TILE_CONVERSION_DEBUGCHECKS_H
