//===- SharedAlignment.cpp - provable shared alignment, cluster shape -----===//
//
// The alignment of a shared buffer is its allocation's plus the constant
// offsets of the views on the way to it. Whatever the IR does not fix (a
// runtime offset, a function argument, an op this file does not know) is
// "unproven": the verifier then asks for a declared alignment rather than
// accepting the buffer.
//
//===----------------------------------------------------------------------===//

#include "Tile/Analysis/Analysis.h"
#include "Tile/Contract/Contract.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/Support/MathExtras.h"

#include <numeric>

using namespace mlir;
using namespace mlir::tile;

int64_t mlir::tile::requiredSharedAlignment(int swizzle) {
  return swizzle ? swizzlePeriodBytes(swizzle) : kSharedAlign;
}

namespace {
/// Bytes from a memref's aligned pointer to its first element, when the type
/// fixes them.
std::optional<int64_t> typeOffsetBytes(MemRefType type) {
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)) ||
      ShapedType::isDynamic(offset))
    return std::nullopt;
  Type elem = type.getElementType();
  if (!elem.isIntOrIndexOrFloat() || elem.isIndex())
    return std::nullopt;
  int64_t bits = 0;
  if (llvm::MulOverflow(offset, int64_t(elem.getIntOrFloatBitWidth()), bits) ||
      bits % 8 != 0)
    return std::nullopt;
  return bits / 8;
}

/// The address of a memref's aligned pointer, as the chain of views shows
/// it: `modulus`-aligned root plus `offset` bytes.
struct Trace {
  bool known = false;       // modulus/offset hold
  bool rootUnspecified = false;
  int64_t modulus = 0;      // the root's alignment (a declared one included)
  int64_t offset = 0;       // bytes of the aligned pointer past the root
  std::string root;
  std::string reason;       // !known: why
  bool dynamicShared = false;
  bool declared = false;
  /// `offset` locates the memref's first element rather than its aligned
  /// pointer (a declared alignment of a memref with a runtime offset).
  bool firstOnly = false;
};

Trace unproven(std::string reason, bool dynamicShared = false) {
  Trace t;
  t.reason = std::move(reason);
  t.dynamicShared = dynamicShared;
  return t;
}

Trace rootTrace(int64_t alignment, std::string root) {
  Trace t;
  t.known = true;
  t.modulus = alignment;
  t.rootUnspecified = alignment == 0;
  t.root = std::move(root);
  return t;
}

std::string describe(Operation *op) {
  return "'" + op->getName().getStringRef().str() + "'";
}

Trace traceAlignedPointer(Value value, int depth) {
  if (depth > 64)
    return unproven("more than 64 views between the buffer and its allocation");
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    auto func = dyn_cast_or_null<gpu::GPUFuncOp>(arg.getOwner()->getParentOp());
    if (func && arg.getOwner() == &func.getBody().front()) {
      ArrayRef<BlockArgument> attributions = func.getWorkgroupAttributions();
      for (auto [i, attribution] : llvm::enumerate(attributions)) {
        if (attribution != arg)
          continue;
        int64_t align = 0;
        if (auto attr = dyn_cast_or_null<IntegerAttr>(
                func.getWorkgroupAttributionAttr(
                    i, LLVM::LLVMDialect::getAlignAttrName())))
          align = attr.getInt();
        return rootTrace(align, "workgroup attribution #" + std::to_string(i));
      }
      return unproven("it is argument #" + std::to_string(arg.getArgNumber()) +
                      " of the function");
    }
    return unproven("it is a block argument");
  }
  Operation *def = value.getDefiningOp();
  if (auto getGlobal = dyn_cast<memref::GetGlobalOp>(def)) {
    auto global = SymbolTable::lookupNearestSymbolFrom<memref::GlobalOp>(
        def, getGlobal.getNameAttr());
    if (!global)
      return unproven("memref.global @" + getGlobal.getName().str() +
                      " is not found");
    int64_t align = static_cast<int64_t>(global.getAlignment().value_or(0));
    return rootTrace(align, "memref.global @" + getGlobal.getName().str());
  }
  if (auto alloca = dyn_cast<memref::AllocaOp>(def))
    return rootTrace(alloca.getAlignment().value_or(0), "memref.alloca");
  if (auto alloc = dyn_cast<memref::AllocOp>(def))
    return rootTrace(alloc.getAlignment().value_or(0), "memref.alloc");
  if (isa<gpu::DynamicSharedMemoryOp>(def)) {
    Trace t = rootTrace(kDynamicSharedAlignment, "gpu.dynamic_shared_memory");
    t.dynamicShared = true;
    return t;
  }
  if (auto view = dyn_cast<memref::ViewOp>(def)) {
    // The view's aligned pointer is the source's plus the byte shift (the
    // source has the identity layout, so no offset of its own).
    Trace t = traceAlignedPointer(view.getSource(), depth + 1);
    if (!t.known)
      return t;
    // The source has the identity layout: its first element is its aligned
    // pointer.
    t.firstOnly = false;
    APInt shift;
    if (!matchPattern(view.getByteShift(), m_ConstantInt(&shift)))
      return unproven("memref.view at a runtime byte offset", t.dynamicShared);
    if (llvm::AddOverflow(t.offset, shift.getSExtValue(), t.offset))
      return unproven("memref.view offsets overflow", t.dynamicShared);
    return t;
  }
  if (auto assume = dyn_cast<memref::AssumeAlignmentOp>(def)) {
    // Declares the first element `alignment`-aligned.
    Trace source = traceAlignedPointer(assume.getMemref(), depth + 1);
    std::optional<int64_t> first = typeOffsetBytes(assume.getType());
    int64_t declared = assume.getAlignment();
    if (!first) {
      Trace t = rootTrace(declared, "memref.assume_alignment");
      t.declared = true;
      t.firstOnly = true;
      t.dynamicShared = source.dynamicShared;
      return t;
    }
    if (source.known && !source.rootUnspecified && !source.firstOnly) {
      int64_t provable = std::gcd(source.modulus, std::abs(source.offset + *first));
      if (provable >= declared)
        return source;
    }
    Trace t = rootTrace(declared, "memref.assume_alignment");
    t.offset = -*first;
    t.declared = true;
    t.dynamicShared = source.dynamicShared;
    return t;
  }
  // The aligned pointer passes through unchanged; the offset lives in the
  // result type (a new one for subview and reinterpret_cast).
  Value source;
  if (auto subview = dyn_cast<memref::SubViewOp>(def))
    source = subview.getSource();
  else if (auto cast = dyn_cast<memref::ReinterpretCastOp>(def))
    source = cast.getSource();
  if (source) {
    Trace t = traceAlignedPointer(source, depth + 1);
    if (t.known && t.firstOnly)
      return unproven(describe(def) + " of a declared alignment at a runtime "
                      "offset",
                      t.dynamicShared);
    return t;
  }
  if (auto cast = dyn_cast<memref::CastOp>(def))
    source = cast.getSource();
  else if (auto cast = dyn_cast<memref::MemorySpaceCastOp>(def))
    source = cast.getSource();
  else if (auto collapse = dyn_cast<memref::CollapseShapeOp>(def))
    source = collapse.getSrc();
  else if (auto expand = dyn_cast<memref::ExpandShapeOp>(def))
    source = expand.getSrc();
  if (source)
    return traceAlignedPointer(source, depth + 1);
  return unproven("it is made by " + describe(def) +
                  ", whose alignment the verifier does not know");
}
} // namespace

SharedAlignment mlir::tile::getSharedAlignment(Value memref) {
  SharedAlignment out;
  Trace t = traceAlignedPointer(memref, 0);
  out.dynamicShared = t.dynamicShared;
  out.root = t.root;
  out.declared = t.declared;
  if (!t.known) {
    out.status = SharedAlignment::Status::Unproven;
    out.reason = t.reason;
    return out;
  }
  auto type = dyn_cast<MemRefType>(memref.getType());
  std::optional<int64_t> first =
      t.firstOnly ? std::optional<int64_t>(0)
                  : type ? typeOffsetBytes(type) : std::nullopt;
  if (!first) {
    out.status = SharedAlignment::Status::Unproven;
    out.reason = "its offset is a runtime value";
    return out;
  }
  int64_t offset = 0;
  if (llvm::AddOverflow(t.offset, *first, offset)) {
    out.status = SharedAlignment::Status::Unproven;
    out.reason = "its offset overflows";
    return out;
  }
  out.offsetBytes = offset;
  out.rootAlignment = t.modulus;
  if (t.rootUnspecified) {
    out.status = SharedAlignment::Status::RootUnspecified;
    return out;
  }
  int64_t common = std::gcd(t.modulus, offset < 0 ? -offset : offset);
  out.status = SharedAlignment::Status::Proven;
  // The largest power of two dividing both.
  out.alignment = common & -common;
  return out;
}

int64_t mlir::tile::requiredDynamicSharedAlignment(Operation *gpuModule) {
  int64_t need = 0;
  gpuModule->walk([&](TmaCopyOp copy) {
    if (!copy.getShared())
      return;
    if (getSharedAlignment(copy.getShared()).dynamicShared)
      need = std::max(need, requiredSharedAlignment(copy.getSwizzle()));
  });
  // A wgmma descriptor swizzles by address bits too: its tile's pattern
  // starts on the swizzle period only if the window does.
  gpuModule->walk([&](WgmmaDescriptorOp op) {
    if (op.getSwizzle() != Swizzle::none && isa<MemRefType>(op.getBuffer().getType()) &&
        getSharedAlignment(op.getBuffer()).dynamicShared)
      need = std::max(need, swizzlePeriodBytes(static_cast<int>(op.getSwizzle())));
  });
  return need;
}

ClusterShape mlir::tile::getClusterShape(Operation *op) {
  ClusterShape out;
  Operation *func = isa<FunctionOpInterface>(op)
                        ? op
                        : op->getParentOfType<FunctionOpInterface>();
  if (!func)
    return out;
  // Every declaration present must be well formed and, when there are
  // several, they must name the same shape: the launch uses one of them.
  SmallVector<int32_t, 3> shape;
  for (StringRef name :
       {StringRef("known_cluster_size"), StringRef("tile.cluster_size"),
        NVVM::NVVMDialect::getClusterDimAttrName()}) {
    Attribute attr = func->getAttr(name);
    if (!attr)
      continue;
    auto dims = dyn_cast<DenseI32ArrayAttr>(attr);
    if (!dims || dims.empty() || dims.size() > 3) {
      llvm::raw_string_ostream os(out.error);
      os << name << " must be array<i32: x[, y[, z]]>, got " << attr;
      return out;
    }
    int64_t ctas = 1;
    for (int32_t d : dims.asArrayRef()) {
      if (d < 1) {
        out.error = name.str() + " has an extent " + std::to_string(d) +
                    " below 1";
        return out;
      }
      ctas *= d;
    }
    if (ctas > kMaxClusterCtas) {
      out.error = name.str() + " declares " + std::to_string(ctas) +
                  " CTAs per cluster; a cluster has at most " +
                  std::to_string(kMaxClusterCtas) + " (the " +
                  std::to_string(kMaxClusterCtas) + "-bit cta_mask)";
      return out;
    }
    SmallVector<int32_t, 3> padded(dims.asArrayRef());
    padded.resize(3, 1);
    if (out.ctas && padded != shape) {
      llvm::raw_string_ostream os(out.error);
      os << out.source << " and " << name << " declare different clusters ("
         << shape[0] << "x" << shape[1] << "x" << shape[2] << " and "
         << padded[0] << "x" << padded[1] << "x" << padded[2] << ")";
      return out;
    }
    if (!out.ctas) {
      out.source = name.str();
      out.ctas = ctas;
      shape = padded;
    }
  }
  return out;
}
