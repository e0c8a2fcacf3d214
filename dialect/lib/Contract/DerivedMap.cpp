//===- DerivedMap.cpp - the map tile.tensormap_derive publishes -----------===//

#include "Tile/Contract/DerivedMap.h"

#include "mlir/IR/BuiltinTypes.h"

#include <iterator>

using namespace mlir;
using namespace mlir::tile;

namespace {
constexpr ReplaceFieldFacts kFields[] = {
#define TILE_REPLACE_FIELD(ID, FIELD, INTRINSIC, BITS, INDEXED, IMMEDIATE,   \
                           MIN_PTX)                                            \
  {ReplaceField::ID, FIELD, INTRINSIC, BITS, INDEXED, IMMEDIATE, MIN_PTX},
#include "Tile/Contract/TensorMapReplace.def"
};

struct ElemTypeRow {
  Format format;
  int value;
  int minPtx;
};
constexpr ElemTypeRow kElemTypes[] = {
#define TILE_REPLACE_ELEMTYPE(FORMAT, VALUE, MIN_PTX)                          \
  {Format::FORMAT, VALUE, MIN_PTX},
#include "Tile/Contract/TensorMapReplace.def"
};
constexpr bool elemTypesInFormatOrder() {
  for (unsigned i = 0; i < std::size(kElemTypes); ++i)
    if (static_cast<unsigned>(kElemTypes[i].format) != i)
      return false;
  return std::size(kElemTypes) == getMaxEnumValForFormat() + 1;
}
static_assert(elemTypesInFormatOrder(),
              "TensorMapReplace.def needs one elemtype row per Format, in order");

struct SwizzleRow {
  int swizzle, mode, atomicity;
};
constexpr SwizzleRow kSwizzles[] = {
#define TILE_REPLACE_SWIZZLE(SWIZZLE, MODE, ATOMICITY) {SWIZZLE, MODE, ATOMICITY},
#include "Tile/Contract/TensorMapReplace.def"
};
constexpr bool swizzlesInOrder() {
  for (unsigned i = 0; i < std::size(kSwizzles); ++i)
    if (kSwizzles[i].swizzle != static_cast<int>(i))
      return false;
  return true;
}
static_assert(swizzlesInOrder(), "TensorMapReplace.def swizzle rows in order");
} // namespace

const ReplaceFieldFacts &mlir::tile::replaceFieldFacts(ReplaceField field) {
  return kFields[static_cast<unsigned>(field)];
}

std::string mlir::tile::replaceIntrinsic(ReplaceField field, unsigned space) {
  return ("llvm.nvvm.tensormap.replace." + replaceFieldFacts(field).intrinsic +
          ".p" + llvm::Twine(space))
      .str();
}

int mlir::tile::replaceElemType(Format format) {
  return kElemTypes[static_cast<unsigned>(format)].value;
}

int mlir::tile::replaceElemTypeMinPtx(Format format) {
  return kElemTypes[static_cast<unsigned>(format)].minPtx;
}

std::pair<int, int> mlir::tile::replaceSwizzle(int swizzle) {
  assert(swizzle >= 0 && swizzle < static_cast<int>(std::size(kSwizzles)) &&
         "swizzle outside the table");
  return {kSwizzles[swizzle].mode, kSwizzles[swizzle].atomicity};
}

static std::optional<llvm::SmallVector<int64_t>>
array(std::optional<llvm::ArrayRef<int64_t>> attr) {
  if (!attr)
    return std::nullopt;
  return llvm::SmallVector<int64_t>(attr->begin(), attr->end());
}

MapFields mlir::tile::getTemplateFields(TensorMapDeriveOp op) {
  MapFields f;
  f.box = array(op.getBox());
  f.elementStrides = array(op.getElementStrides());
  f.format = op.getFormat();
  f.swizzle = op.getSwizzle();
  f.interleave = op.getInterleave();
  f.oobFill = op.getOobFill();
  auto memref = dyn_cast<MemRefType>(op.getTemplateMap().getType());
  if (!memref) {
    // A pointer template: what the attributes declare.
    if (f.box)
      f.rank = f.box->size();
    else if (f.elementStrides)
      f.rank = f.elementStrides->size();
    return f;
  }
  // The map the host encodes: the memref's rank (less Ci with interleave),
  // defaults as on tile.tma_copy.
  f.interleave = f.interleave.value_or(0);
  f.swizzle = f.swizzle.value_or(0);
  f.oobFill = f.oobFill.value_or(0);
  f.rank = memref.getRank() - (*f.interleave ? 1 : 0);
  if (!f.format)
    f.format = defaultFormat(memref.getElementType());
  if (!f.elementStrides && f.box)
    f.elementStrides = llvm::SmallVector<int64_t>(f.box->size(), 1);
  return f;
}

MapFields mlir::tile::getDerivedFields(TensorMapDeriveOp op) {
  MapFields f = getTemplateFields(op);
  if (auto rank = op.getNewRank())
    f.rank = *rank;
  if (auto box = array(op.getNewBox()))
    f.box = box;
  if (auto strides = array(op.getNewElementStrides()))
    f.elementStrides = strides;
  if (auto format = op.getNewFormat())
    f.format = *format;
  if (auto swizzle = op.getNewSwizzle())
    f.swizzle = *swizzle;
  if (auto interleave = op.getNewInterleave())
    f.interleave = *interleave;
  if (auto fill = op.getNewOobFill())
    f.oobFill = *fill;
  // A rank given by the replaced per-dimension fields.
  if (!f.rank) {
    if (f.box)
      f.rank = f.box->size();
    else if (f.elementStrides)
      f.rank = f.elementStrides->size();
    else if (!op.getNewDims().empty())
      f.rank = op.getNewDims().size();
  }
  return f;
}
