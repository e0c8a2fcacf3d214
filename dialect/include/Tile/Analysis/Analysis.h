//===- Analysis.h - facts about a copy's surroundings -------------*- C++ -*-===//
//
// What the verifier and the passes derive from the IR around a copy rather
// than from the copy itself: the provable alignment of a shared buffer (which
// allocation it is a view of, at what offset), the cluster shape a kernel
// declares, and the static byte accounting of its mbarriers.
//
//===----------------------------------------------------------------------===//
#ifndef TILE_ANALYSIS_H
#define TILE_ANALYSIS_H

#include "Tile/IR/TileOps.h"

#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"
#include "mlir/Support/LLVM.h"

#include <optional>
#include <string>
#include <utility>

namespace mlir::tile {

/// The base alignment the tile-to-ptx pipeline guarantees for
/// `gpu.dynamic_shared_memory`: tile-align-dynamic-shared raises the
/// declaration of the dynamic shared memory to the largest alignment any copy
/// into it needs, which is at most this (a 128B swizzle's whole period).
constexpr int64_t kDynamicSharedAlignment = 1024;

/// The alignment a copy's shared buffer must have: 128 bytes, a swizzled one
/// the whole swizzle period.
int64_t requiredSharedAlignment(int swizzle);

/// What the IR proves about the address of a shared buffer's first byte.
struct SharedAlignment {
  enum class Status {
    /// `alignment` is proven.
    Proven,
    /// The root allocation declares no alignment.
    RootUnspecified,
    /// Something on the way hides it (`reason` says what).
    Unproven,
  };
  Status status = Status::Unproven;
  /// The largest power of two the first byte's address is proven to be a
  /// multiple of (Proven only).
  int64_t alignment = 0;
  /// The alignment of the root allocation (or of a declaration).
  int64_t rootAlignment = 0;
  /// Bytes from the root's first byte to the buffer's first byte.
  int64_t offsetBytes = 0;
  /// The root, in words: "memref.global @smem", "gpu.dynamic_shared_memory",
  /// "memref.assume_alignment", ...
  std::string root;
  /// Unproven: what hides the alignment.
  std::string reason;
  /// The root is gpu.dynamic_shared_memory (also when a runtime offset or a
  /// declared alignment stands between).
  bool dynamicShared = false;
  /// The alignment comes from a memref.assume_alignment.
  bool declared = false;
};

/// Traces `memref` through memref.view, subview, reinterpret_cast, cast,
/// memory_space_cast, collapse/expand_shape and assume_alignment to its
/// allocation (memref.global, memref.alloca/alloc, gpu.dynamic_shared_memory,
/// a gpu.func workgroup attribution) and adds up the constant offsets.
SharedAlignment getSharedAlignment(Value memref);

/// The largest alignment a copy into the dynamic shared memory of `gpuModule`
/// needs (0 when no copy uses it). Requires verified copies.
int64_t requiredDynamicSharedAlignment(Operation *gpuModule);

/// The cluster shape the function enclosing `op` declares.
struct ClusterShape {
  /// CTAs per cluster (x * y * z); nullopt when nothing is declared.
  std::optional<int64_t> ctas;
  /// Where it is declared (the attribute's name).
  std::string source;
  /// Set when the declaration is malformed.
  std::string error;
};
/// Reads `known_cluster_size`, `tile.cluster_size` (the Python builder's) and
/// `nvvm.cluster_dim` of the enclosing function; `error` is set when one is
/// malformed or two declare different shapes.
ClusterShape getClusterShape(Operation *op);

/// Whether the byte count of `copy` can be computed before the copy itself is
/// verified (the properties, operand segments and ranges the box image uses).
bool isTransactionBytesComputable(TmaCopyOp copy);

/// Which shared allocation a memref views: a memref.global (by symbol), the
/// dynamic shared memory (one window), a memref.alloca/alloc, a workgroup
/// attribution or a kernel argument, traced through the view ops even at
/// run-time offsets. Equal for two memrefs only if they view the same
/// allocation; std::nullopt where the IR names none. The allocation part of
/// the key barrier accounting names barriers by.
using SharedAllocation = std::pair<int, const void *>;
std::optional<SharedAllocation> getSharedAllocation(Value memref);

/// Static barrier accounting over every kernel under `root`: each mbarrier
/// of an allocation the IR names that the kernel uses is initialised in it
/// ([mbarrier-uninitialized], on the first use), each one a load completes
/// on is armed with expect_tx in it ([mbarrier-unarmed], on the load), and
/// in each phase whose expect_tx bytes and completing copies are statically
/// known, the two are equal ([barrier-tx-mismatch], on the expect_tx).
/// Where the IR does not fix them it says nothing; docs/decisions.md
/// ("Shared memory: static barrier accounting") states the scope. Requires
/// verified copies.
LogicalResult checkBarrierAccounting(Operation *root);

} // namespace mlir::tile

#endif // TILE_ANALYSIS_H
