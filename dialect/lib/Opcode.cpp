//===- Opcode.cpp - PTX opcode spelling of tile.tma_copy ------------------===//
//
// The PTX grammar (PTX ISA 8.6):
//   cp.async.bulk.tensor.Nd.dst.src{.load_mode}.completion{.multicast::cluster}
//       {.cta_group::K}{.L2::cache_hint}
//   cp.reduce.async.bulk.tensor.Nd.global.shared::cta.redOp{.tile}.bulk_group
//       {.L2::cache_hint}
// Qualifiers contain no '.', so the spelling splits cleanly on dots.
//
//===----------------------------------------------------------------------===//

#include "Tile/Opcode.h"

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
  if (!expect("async", "instruction") || !expect("bulk", "instruction") ||
      !expect("tensor", "instruction"))
    return std::nullopt;

  size_t dimPos = lex.position();
  llvm::StringRef dim = lex.next();
  if (dim.size() != 2 || dim[1] != 'd' || dim[0] < '1' || dim[0] > '5')
    return fail(describe(dim, dimPos) + ": expected the rank '1d'..'5d'");
  f.rank = dim[0] - '0';

  size_t dstPos = lex.position();
  llvm::StringRef dst = lex.next();
  llvm::StringRef src = lex.next();
  if (reduce) {
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
  if (mode == "tile") {
    lex.next();
  } else if (mode == "tile::gather4" || mode == "tile::scatter4") {
    lex.next();
    bool gather = mode == "tile::gather4";
    if (gather != (f.direction == Direction::load))
      return fail(describe(mode, modePos) +
                  (gather ? ": gather4 is a load mode"
                          : ": scatter4 is a store mode"));
    f.mode = gather ? Mode::gather4 : Mode::scatter4;
  } else if (mode.starts_with("im2col")) {
    return fail(describe(mode, modePos) +
                ": im2col modes are not supported by tile.tma_copy");
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

std::string mlir::tile::printPtxOpcode(const OpcodeFields &f) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << (f.direction == Direction::reduce ? "cp.reduce.async.bulk.tensor."
                                          : "cp.async.bulk.tensor.")
     << f.rank << "d.";
  switch (f.direction) {
  case Direction::load:
    os << (f.dstCluster ? "shared::cluster" : "shared::cta") << ".global";
    break;
  case Direction::store:
    os << "global.shared::cta";
    break;
  case Direction::reduce:
    os << "global.shared::cta." << stringifyReduction(*f.reduction);
    break;
  }
  os << (f.mode == Mode::gather4    ? ".tile::gather4"
         : f.mode == Mode::scatter4 ? ".tile::scatter4"
                                    : ".tile");
  os << (f.direction == Direction::load ? ".mbarrier::complete_tx::bytes"
                                        : ".bulk_group");
  if (f.multicast)
    os << ".multicast::cluster";
  if (f.ctaGroup)
    os << ".cta_group::" << *f.ctaGroup;
  if (f.cacheHint)
    os << ".L2::cache_hint";
  return s;
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
