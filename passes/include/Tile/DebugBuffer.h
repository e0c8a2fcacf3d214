//===- DebugBuffer.h - a debug build's error buffer and barrier table -*- C++ -*-===//
//
// The layout of the error buffer a debug build (`tile-lower-tma{debug=true}`)
// adds to each gpu.module, and of the per-CTA barrier table it keeps in
// shared memory. docs/debug-mode.md documents both; the lowering records the
// buffer's layout on the gpu.module (`tile.debug`), from which the compiler
// writes the artifact manifest's `debug` entry and the Python runtime decodes
// the buffer. Nothing else restates these numbers.
//
//===----------------------------------------------------------------------===//
#ifndef TILE_DEBUGBUFFER_H
#define TILE_DEBUGBUFFER_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>

namespace mlir::tile::debug {

/// The error buffer: a zero-initialized `.global` array of 32-bit words.
constexpr llvm::StringLiteral kBufferName = "__tile_debug_error";
/// Word offsets. `count` is bumped atomically by every fault; the thread that
/// finds it 0 writes the rest of the record, so the first fault is kept.
enum Word : int64_t {
  kCount = 0,     // faults recorded since the last reset
  kRule = 1,      // the Rule enum value (Rules.def position) of the first
  kKernel = 2,    // the kernel's debug id (manifest order), ~0u in a device function
  kSite = 3,      // the site (copy or barrier op) in the module's site list
  kBlock = 4,     // %ctaid.x, .y, .z (3 words)
  kThread = 7,    // %tid.x, .y, .z (3 words)
  kValues = 10,   // kNumValues rule-specific words
  kTimeoutUs = 16, // host-written: the wait timeout in microseconds (0: default)
  kWords = 32,    // words 17..31 are reserved (0)
};
constexpr int kNumValues = 6;
/// The wait timeout when the host wrote none.
constexpr int64_t kDefaultTimeoutUs = 1000000;
/// How long a faulting thread lets copies still in flight land in its shared
/// memory before it exits.
constexpr int64_t kDrainNs = 1000000;

/// The barrier table: per CTA, kTableSlots direct-mapped entries (slot =
/// (shared address / 8) mod kTableSlots), each a 64-bit state of the phase
/// the counts belong to (i64 index = slot) and a key word (i32 index
/// kKeyWord + slot: shared address + 1, 0 when free). The table is one
/// static shared array of kTableBytes, a multiple of 1024 aligned to 1024, so
/// the dynamic shared window after the static buffers (`.extern`, by
/// tile-align-dynamic-shared) keeps the alignment a 128B-swizzled copy into it
/// needs.
constexpr llvm::StringLiteral kTableName = "__tile_debug_barriers";
constexpr int64_t kTableSlots = 16;
constexpr int64_t kKeyWord = 2 * kTableSlots;
constexpr int64_t kTableBytes = 1024;
/// Phase generations: i32 word kGenWord + slot counts the phases of the
/// slot's barrier in which an expect_tx or a copy was counted (bumped by the
/// first count of each new phase), so a record of a phase can tell it from
/// the phase two later, which has the same parity.
constexpr int64_t kGenWord = kKeyWord + kTableSlots;
/// The fill table, in a module whose wgmma descriptors are checked: i32 word
/// kFillFull is set when a load found no free record; from i32 word
/// kFillWord, kFillSlots records of kFillWords words: the key (the load's
/// shared destination + 1, 0 when free), the bytes of its image, its
/// mbarrier's shared address, and the barrier's generation in the phase the
/// load was issued in (bits 0-30) with that phase's parity (bit 31).
constexpr int64_t kFillFull = kGenWord + kTableSlots;
constexpr int64_t kFillWord = kFillFull + 4;
constexpr int64_t kFillWords = 4;
constexpr int64_t kFillSlots = (kTableBytes / 4 - kFillWord) / kFillWords;
/// State bit fields (lsb, width): expected bytes (the expect_tx sum), bytes of
/// the copies issued on the barrier, the number of expect_tx operations, the
/// number of copies issued, and the phase parity in the top bit.
constexpr int kExpectedLsb = 0, kExpectedBits = 20;
constexpr int kIssuedLsb = 20, kIssuedBits = 20;
constexpr int kPostsLsb = 40, kPostsBits = 12;
constexpr int kCopiesLsb = 52, kCopiesBits = 11;
constexpr int kParityBit = 63;

/// The axis value of a gather4/scatter4 row k in a copy fault: kRowAxis + k
/// (the coordinates are axes 0..rank-1).
constexpr int64_t kRowAxis = 8;

/// Value word 4 of a barrier fault when the barrier's table slot belongs to
/// another barrier (the counts are unknown); value word 3 when the copies
/// issued on it are not counted (see docs/debug-mode.md).
constexpr uint32_t kUnknown = 0xffffffffu;

} // namespace mlir::tile::debug

#endif // TILE_DEBUGBUFFER_H
