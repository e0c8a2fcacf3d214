//===- Opcode.cpp - PTX opcode spelling of tile.tma_copy ------------------===//
//
// The PTX grammar (PTX ISA 8.6):
//   cp.async.bulk.tensor.Nd.dst.src{.load_mode}.completion{.multicast::cluster}
//       {.cta_group::K}{.L2::cache_hint}
//   cp.reduce.async.bulk.tensor.Nd.global.shared::cta.redOp{.load_mode}
//       .bulk_group{.L2::cache_hint}
//   cp.async.bulk.prefetch.tensor.Nd.L2.global{.load_mode}{.L2::cache_hint}
// Qualifiers contain no '.', so the spelling splits cleanly on dots.
//
//===----------------------------------------------------------------------===//

#include "Tile/Contract/Opcode.h"
#include "Tile/Contract/Contract.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::tile;

namespace {
/// Walks the dot-separated parts and records the first error.
class OpcodeLexer {
public:
  explicit OpcodeLexer(llvm::StringRef opcode) {
    opcode.split(parts, '.', /*MaxSplit=*/-1, /*KeepEmpty=*/true);
  }
  bool atEnd() const { return pos >= parts.size(); }
  llvm::StringRef peek() const { return atEnd() ? "" : parts[pos]; }
  llvm::StringRef next() { return atEnd() ? "" : parts[pos++]; }
  bool consumeIf(llvm::StringRef part) {
    if (atEnd() || parts[pos] != part)
      return false;
    ++pos;
    return true;
  }
  size_t position() const { return pos; }

private:
  llvm::SmallVector<llvm::StringRef> parts;
  size_t pos = 0;
};
} // namespace

static std::string describe(llvm::StringRef part, size_t pos) {
  if (part.empty())
    return "the opcode ends early";
  return ("part '" + part + "' (position " + llvm::Twine(pos) + ")").str();
}

std::optional<OpcodeFields> mlir::tile::parsePtxOpcode(llvm::StringRef opcode,
                                                       std::string &error) {
  OpcodeLexer lex(opcode);
  OpcodeFields f;
  auto fail = [&](const llvm::Twine &what) -> std::optional<OpcodeFields> {
    error = what.str();
    return std::nullopt;
  };
  auto expect = [&](llvm::StringRef part, llvm::StringRef role) {
    size_t pos = lex.position();
    llvm::StringRef got = lex.next();
    if (got == part)
      return true;
    error = (describe(got, pos) + ": expected '" + part + "' (" + role + ")")
                .str();
    return false;
  };

  if (!expect("cp", "instruction"))
    return std::nullopt;
  bool reduce = lex.consumeIf("reduce");
  if (!expect("async", "instruction") || !expect("bulk", "instruction"))
    return std::nullopt;
  bool prefetch = !reduce && lex.consumeIf("prefetch");
  if (!expect("tensor", "instruction"))
    return std::nullopt;

  size_t dimPos = lex.position();
  llvm::StringRef dim = lex.next();
  if (dim.size() != 2 || dim[1] != 'd' || !llvm::isDigit(dim[0]) ||
      !kRankRange.contains(dim[0] - '0'))
    return fail(describe(dim, dimPos) + ": expected the rank '" +
                std::to_string(kRankRange.min) + "d'..'" +
                std::to_string(kRankRange.max) + "d'");
  f.rank = dim[0] - '0';

  size_t dstPos = lex.position();
  llvm::StringRef dst = lex.next();
  llvm::StringRef src = lex.next();
  if (prefetch) {
    if (dst != "L2" || src != "global")
      return fail(describe(dst, dstPos) +
                  ": a prefetch goes from global to L2 ('.L2.global'), got '." +
                  dst + "." + src + "'");
    f.direction = Direction::prefetch;
  } else if (reduce) {
    if (dst != "global" || src != "shared::cta")
      return fail(describe(dst, dstPos) +
                  ": a reduction goes from shared::cta to global "
                  "('.global.shared::cta'), got '." + dst + "." + src + "'");
    f.direction = Direction::reduce;
    size_t redPos = lex.position();
    llvm::StringRef red = lex.next();
    std::optional<Reduction> kind = symbolizeReduction(red);
    if (!kind)
      return fail(describe(red, redPos) +
                  ": unknown reduction operator (add, min, max, inc, dec, and, "
                  "or, xor)");
    f.reduction = kind;
  } else if ((dst == "shared::cta" || dst == "shared::cluster") &&
             src == "global") {
    f.direction = Direction::load;
    f.dstCluster = dst == "shared::cluster";
  } else if (dst == "global" && src == "shared::cta") {
    f.direction = Direction::store;
  } else {
    return fail(describe(dst, dstPos) + ": '." + dst + "." + src +
                "' is no direction (load: .shared::cta.global or "
                ".shared::cluster.global; store: .global.shared::cta)");
  }

  size_t modePos = lex.position();
  llvm::StringRef mode = lex.peek();
  static constexpr std::pair<llvm::StringLiteral, Mode> kModes[] = {
      {"tile", Mode::tile},
      {"tile::gather4", Mode::gather4},
      {"tile::scatter4", Mode::scatter4},
      {"im2col", Mode::im2col},
      {"im2col::w", Mode::im2col_w},
      {"im2col::w::128", Mode::im2col_w_128},
      {"im2col_no_offs", Mode::im2col_no_offs},
  };
  for (auto &[spelling, value] : kModes) {
    if (mode != spelling)
      continue;
    lex.next();
    f.mode = value;
    bool loadMode = value == Mode::gather4 || value == Mode::im2col ||
                    value == Mode::im2col_w || value == Mode::im2col_w_128;
    bool readsShared = f.direction == Direction::store ||
                       f.direction == Direction::reduce;
    if (loadMode && readsShared)
      return fail(describe(mode, modePos) + ": ." + mode +
                  " is a load/prefetch mode");
    if (value == Mode::scatter4 && f.direction != Direction::store)
      return fail(describe(mode, modePos) + ": scatter4 is a store mode");
    if (value == Mode::im2col_no_offs && !readsShared)
      return fail(describe(mode, modePos) +
                  ": im2col_no_offs is a store/reduce mode");
    break;
  }

  // A prefetch has no completion mechanism and no multicast or cta_group.
  if (f.direction == Direction::prefetch) {
    if (lex.consumeIf("L2::cache_hint"))
      f.cacheHint = true;
    if (!lex.atEnd())
      return fail(describe(lex.peek(), lex.position()) +
                  ": unknown or misplaced qualifier (a prefetch takes only "
                  "a load mode and .L2::cache_hint)");
    return f;
  }

  size_t complPos = lex.position();
  llvm::StringRef completion = lex.next();
  llvm::StringRef expected = f.direction == Direction::load
                                 ? "mbarrier::complete_tx::bytes"
                                 : "bulk_group";
  if (completion != expected)
    return fail(describe(completion, complPos) + ": expected '" + expected +
                "' (the completion mechanism of a " +
                stringifyDirection(f.direction) + ")");

  if (lex.peek() == "multicast::cluster") {
    if (f.direction != Direction::load)
      return fail(describe(lex.peek(), lex.position()) +
                  ": multicast is a load qualifier");
    if (!f.dstCluster)
      return fail(describe(lex.peek(), lex.position()) +
                  ": multicast needs the .shared::cluster destination");
    lex.next();
    f.multicast = true;
  }
  if (lex.peek().starts_with("cta_group::")) {
    size_t pos = lex.position();
    llvm::StringRef group = lex.next();
    if (f.direction != Direction::load)
      return fail(describe(group, pos) + ": cta_group is a load qualifier");
    if (group == "cta_group::1")
      f.ctaGroup = 1;
    else if (group == "cta_group::2")
      f.ctaGroup = 2;
    else
      return fail(describe(group, pos) + ": expected cta_group::1 or ::2");
  }
  if (lex.consumeIf("L2::cache_hint"))
    f.cacheHint = true;
  if (!lex.atEnd())
    return fail(describe(lex.peek(), lex.position()) +
                ": unknown or misplaced qualifier");
  return f;
}

llvm::StringRef mlir::tile::ptxModeSpelling(Mode mode) {
  switch (mode) {
  case Mode::tile:
    return "tile";
  case Mode::gather4:
    return "tile::gather4";
  case Mode::scatter4:
    return "tile::scatter4";
  case Mode::im2col:
    return "im2col";
  case Mode::im2col_w:
    return "im2col::w";
  case Mode::im2col_w_128:
    return "im2col::w::128";
  case Mode::im2col_no_offs:
    return "im2col_no_offs";
  }
  llvm_unreachable("all modes handled");
}

std::string mlir::tile::printPtxOpcode(const OpcodeFields &f) {
  std::string s;
  llvm::raw_string_ostream os(s);
  switch (f.direction) {
  case Direction::load:
    os << "cp.async.bulk.tensor." << f.rank << "d."
       << (f.dstCluster ? "shared::cluster" : "shared::cta") << ".global";
    break;
  case Direction::store:
    os << "cp.async.bulk.tensor." << f.rank << "d.global.shared::cta";
    break;
  case Direction::reduce:
    os << "cp.reduce.async.bulk.tensor." << f.rank << "d.global.shared::cta."
       << stringifyReduction(*f.reduction);
    break;
  case Direction::prefetch:
    os << "cp.async.bulk.prefetch.tensor." << f.rank << "d.L2.global";
    break;
  }
  os << "." << ptxModeSpelling(f.mode);
  if (f.direction == Direction::load)
    os << ".mbarrier::complete_tx::bytes";
  else if (f.direction != Direction::prefetch)
    os << ".bulk_group";
  if (f.multicast)
    os << ".multicast::cluster";
  if (f.ctaGroup)
    os << ".cta_group::" << *f.ctaGroup;
  if (f.cacheHint)
    os << ".L2::cache_hint";
  return s;
}

std::optional<int64_t> mlir::tile::outOfRangeOpcodeRank(llvm::StringRef opcode) {
  llvm::SmallVector<llvm::StringRef> parts;
  opcode.split(parts, '.');
  for (size_t i = 0; i < parts.size(); ++i) {
    llvm::StringRef part = parts[i];
    int64_t rank;
    if (!part.consume_back("d") || part.empty() || part.getAsInteger(10, rank))
      continue;
    if (kRankRange.contains(rank))
      return std::nullopt;
    parts[i] = "1d";  // the same spelling at rank 1: well formed?
    std::string error;
    if (parsePtxOpcode(llvm::join(parts, "."), error))
      return rank;
    return std::nullopt;
  }
  return std::nullopt;
}

OpcodeFields mlir::tile::getOpcodeFields(TmaCopyOp op) {
  OpcodeFields f;
  f.direction = op.getDirection();
  f.mode = op.getMode();
  f.rank = op.getRank();
  f.reduction = op.getReduction();
  f.dstCluster = op.getDstCluster();
  f.multicast = op.getMulticast();
  f.cacheHint = op.getCacheHint();
  if (auto group = op.getCtaGroup())
    f.ctaGroup = static_cast<int>(*group);
  return f;
}
