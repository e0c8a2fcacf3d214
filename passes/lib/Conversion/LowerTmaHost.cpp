//===- LowerTmaHost.cpp - tile.tensor_map to cuTensorMapEncode* -----------===//
//
// Host side of the tensor maps: each `tile.tensor_map` (made by tile-lower-tma
// at a launch) becomes, where it stands, the runtime-rule checks of its
// source, the spec's `cuTensorMapEncode*` call into a 128-byte stack slot, and
// the map's bytes as the launch operand. The descriptor fields and the host
// decisions (alignments, inner multiple) come from the verified spec
// (#tile.tensor_map_spec, docs/tensor-map-spec.md); only the address, sizes
// and strides are computed here, as python/tile_mlir/runtime/tensormap.py
// does.
//
//===----------------------------------------------------------------------===//

#include "Tile/Contract/Contract.h"
#include "Tile/Passes.h"
#include "Tile/IR/TileOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>

namespace mlir::tile {
#define GEN_PASS_DEF_TILELOWERTMAHOST
#include "Tile/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;

namespace {

/// Module-level declarations and string constants, made once per module.
class HostDecls {
public:
  explicit HostDecls(ModuleOp module)
      : symbols(module),
        top(OpBuilder::atBlockBegin(module.getBody())) {}

  FailureOr<LLVM::LLVMFuncOp> func(Location loc, StringRef name,
                                   LLVM::LLVMFunctionType type) {
    if (Operation *found = symbols.lookup(name)) {
      auto fn = dyn_cast<LLVM::LLVMFuncOp>(found);
      if (!fn || fn.getFunctionType() != type)
        return found->emitOpError("'")
               << name << "' is needed by tile-lower-tma-host as "
               << "llvm.func " << type;
      return fn;
    }
    auto fn = LLVM::LLVMFuncOp::create(top, loc, name, type);
    symbols.insert(fn);
    return fn;
  }

  /// Address of a NUL-terminated constant string (a global named `name`, or
  /// `name_N` when taken).
  Value string(OpBuilder &b, Location loc, StringRef text, StringRef name) {
    LLVM::GlobalOp &global = strings[text];
    if (!global) {
      OpBuilder &mb = top;
      std::string data = (text + Twine('\0')).str();
      auto type = LLVM::LLVMArrayType::get(mb.getI8Type(), data.size());
      global = LLVM::GlobalOp::create(mb, loc, type, /*isConstant=*/true,
                                      LLVM::Linkage::Internal,
                                      name, mb.getStringAttr(data));
      symbols.insert(global); // renames on a clash
    }
    return LLVM::AddressOfOp::create(b, loc, global);
  }

private:
  SymbolTable symbols;
  OpBuilder top; // declarations go first, in creation order
  llvm::StringMap<LLVM::GlobalOp> strings;
};

class HostLowering {
public:
  HostLowering(ModuleOp module, HostDecls &decls)
      : ctx(module.getContext()), decls(decls) {}

  LogicalResult lower(TensorMapOp op);

private:
  MLIRContext *ctx;
  HostDecls &decls;
  LLVM::LLVMFuncOp printfFn, fflushFn, abortFn;
  DenseMap<EncodeKind, LLVM::LLVMFuncOp> encodeFns;

  Type i32() { return IntegerType::get(ctx, 32); }
  Type i64() { return IntegerType::get(ctx, 64); }
  Type ptr() { return LLVM::LLVMPointerType::get(ctx); }

  LogicalResult declare(Location loc) {
    if (printfFn)
      return success();
    Type p = ptr(), i = i32();
    auto printfTy = LLVM::LLVMFunctionType::get(i, {p}, /*isVarArg=*/true);
    auto fflushTy = LLVM::LLVMFunctionType::get(i, {p});
    auto abortTy = LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(ctx), {});
    auto pf = decls.func(loc, "printf", printfTy);
    auto ff = decls.func(loc, "fflush", fflushTy);
    auto ab = decls.func(loc, "abort", abortTy);
    if (failed(pf) || failed(ff) || failed(ab))
      return failure();
    printfFn = *pf, fflushFn = *ff, abortFn = *ab;
    return success();
  }

  /// The driver entry point of `encode` (declared on first use).
  FailureOr<LLVM::LLVMFuncOp> encodeFn(Location loc, EncodeKind encode) {
    LLVM::LLVMFuncOp &fn = encodeFns[encode];
    if (fn)
      return fn;
    Type p = ptr(), i = i32();
    // The CUDA driver API signatures (all enums and counts are 32-bit).
    LLVM::LLVMFunctionType type;
    switch (encode) {
    case EncodeKind::tiled:
      type = LLVM::LLVMFunctionType::get(i, {p, i, i, p, p, p, p, p, i, i, i, i});
      break;
    case EncodeKind::im2col:
      type = LLVM::LLVMFunctionType::get(
          i, {p, i, i, p, p, p, p, p, i, i, p, i, i, i, i});
      break;
    case EncodeKind::im2col_wide:
      type = LLVM::LLVMFunctionType::get(
          i, {p, i, i, p, p, p, i, i, i, i, p, i, i, i, i, i});
      break;
    }
    FailureOr<LLVM::LLVMFuncOp> declared =
        decls.func(loc, tensorMapEncodeFunction(encode), type);
    if (succeeded(declared))
      fn = *declared;
    return declared;
  }

  /// One arith.constant per (type, value) for the op being lowered.
  DenseMap<std::pair<Type, int64_t>, Value> constants;
  Value cst(OpBuilder &b, Location loc, Type type, int64_t v) {
    Value &c = constants[{type, v}];
    if (!c)
      c = arith::ConstantIntOp::create(b, loc, type, v);
    return c;
  }
  Value cst64(OpBuilder &b, Location loc, int64_t v) {
    return cst(b, loc, i64(), v);
  }

  static std::optional<int64_t> constant(Value v) {
    APInt value;
    if (matchPattern(v, m_ConstantInt(&value)))
      return value.getSExtValue();
    return std::nullopt;
  }

  /// `if (violated) { printf(format, args...); fflush(NULL); abort(); }`.
  /// A condition the types already decide emits nothing when it holds, and
  /// is a compile-time error (the message with the constant values) when not.
  LogicalResult check(OpBuilder &b, TensorMapOp op, Value violated,
                      StringRef format, ValueRange args) {
    Location loc = op.getLoc();
    if (std::optional<int64_t> known = constant(violated)) {
      if (!*known)
        return success();
      // The same message, with the values substituted.
      std::string text;
      StringRef rest = format;
      unsigned next = 0;
      while (!rest.empty()) {
        size_t pos = rest.find('%');
        text += rest.substr(0, pos).str();
        if (pos == StringRef::npos)
          break;
        rest = rest.drop_front(pos);
        if (rest.starts_with("%%")) {
          text += '%';
          rest = rest.drop_front(2);
          continue;
        }
        size_t end = rest.find_first_of("dxu");
        bool hex = end != StringRef::npos && rest[end] == 'x';
        std::optional<int64_t> value =
            next < args.size() ? constant(args[next]) : std::nullopt;
        ++next;
        text += !value ? std::string("?")
                : hex  ? llvm::formatv("{0:x}", *value).str()
                       : std::to_string(*value);
        rest = end == StringRef::npos ? StringRef() : rest.drop_front(end + 1);
      }
      StringRef message = StringRef(text).trim();
      message.consume_front("tile-mlir: ");
      return op.emitOpError(message);
    }
    auto ifOp = scf::IfOp::create(b, loc, violated, /*withElseRegion=*/false);
    OpBuilder tb = OpBuilder::atBlockTerminator(ifOp.thenBlock());
    // The global is named after the rule: tile_mlir_<rule>[_N].
    StringRef rule = format.split('[').second.split(']').first;
    std::string name = ("tile_mlir_" + rule).str();
    std::replace(name.begin(), name.end(), '-', '_');
    SmallVector<Value> operands = {decls.string(tb, loc, format, name)};
    operands.append(args.begin(), args.end());
    LLVM::CallOp::create(tb, loc, printfFn, operands);
    Value null = LLVM::ZeroOp::create(tb, loc, ptr());
    LLVM::CallOp::create(tb, loc, fflushFn, ValueRange{null});
    LLVM::CallOp::create(tb, loc, abortFn, ValueRange{});
    return success();
  }
};

/// Records what a builder inserts, to drop what folding left unused.
struct Created : public OpBuilder::Listener {
  SmallVector<Operation *> ops;
  void notifyOperationInserted(Operation *op,
                               OpBuilder::InsertPoint previous) override {
    ops.push_back(op);
  }
  void eraseDead() {
    for (Operation *op : llvm::reverse(ops))
      if (isOpTriviallyDead(op))
        op->erase();
  }
};

/// Where the stack slots go: the entry block of the enclosing function (or
/// of the nearest region isolated from above), so that an op inside a loop
/// re-encodes into the same slots instead of growing the stack. (scf.for is
/// an AutomaticAllocationScope, but its lowering adds no stack restore.)
Block *allocaBlock(Operation *op) {
  for (Operation *p = op->getParentOp(); p; p = p->getParentOp()) {
    if (p->hasTrait<OpTrait::SymbolTable>())
      return nullptr; // a module: no code to put slots in
    if (!isa<FunctionOpInterface>(p) &&
        !p->hasTrait<OpTrait::IsIsolatedFromAbove>())
      continue;
    if (p->getNumRegions() == 0 || p->getRegion(0).empty())
      return nullptr;
    return &p->getRegion(0).front();
  }
  return nullptr;
}

/// `@module::@kernel` of the first launch using `op`, for messages.
std::string launchName(TensorMapOp op) {
  for (Operation *user : op->getUsers())
    if (auto launch = dyn_cast<gpu::LaunchFuncOp>(user))
      return ("@" + launch.getKernelModuleName().getValue() + "::@" +
              launch.getKernelName().getValue())
          .str();
  return "";
}

LogicalResult HostLowering::lower(TensorMapOp op) {
  Location loc = op.getLoc();
  // A verified attribute: its fields agree with each other and the contract.
  TensorMapSpecAttr s = op.getSpec();
  bool im2col = s.getEncode() != EncodeKind::tiled;
  auto type = cast<MemRefType>(op.getSource().getType());
  int64_t globalRank = type.getRank();
  if (globalRank != s.getGlobalRank())
    return op.emitOpError("[")
           << ruleName(Rule::GlobalRank) << "] the source has rank "
           << globalRank << ", the spec's global_rank is "
           << s.getGlobalRank();
  if (type.getElementType().isIntOrFloat() &&
      int64_t(type.getElementType().getIntOrFloatBitWidth()) !=
          s.getElemBits())
    return op.emitOpError("[")
           << ruleName(Rule::GlobalDtype) << "] the source element type "
           << type.getElementType() << " has "
           << type.getElementType().getIntOrFloatBitWidth()
           << " bits, the spec's elem_bits is " << s.getElemBits();
  SmallVector<int64_t> staticStrides;
  int64_t staticOffset;
  if (failed(type.getStridesAndOffset(staticStrides, staticOffset)))
    return op.emitOpError("the source layout is not strided: ") << type;
  if (op->getParentOfType<gpu::GPUModuleOp>())
    return op.emitOpError("is device code: tile-lower-tma-host lowers host "
                          "code, after gpu-module-to-binary");
  Block *entry = allocaBlock(op);
  if (!entry)
    return op.emitOpError("is not inside a function (no place for the map)");
  if (failed(declare(loc)))
    return failure();

  // Messages name the launch argument (kernel argument `source`).
  std::string where = llvm::formatv("argument {0}", s.getSource()).str();
  if (std::string kernel = launchName(op); !kernel.empty())
    where += " of " + kernel;
  std::string escaped;
  for (char c : where) {
    if (c == '%')
      escaped += '%';
    escaped += c;
  }
  auto message = [&](Rule rule, const Twine &text) {
    return ("tile-mlir: [" + ruleName(rule) + "] " + escaped + ": " + text +
            "\n")
        .str();
  };

  // Source layout: static values from the type, the rest from the memref.
  OpBuilder b(op);
  constants.clear();
  Created created;
  b.setListener(&created);
  Value source = op.getSource();
  memref::ExtractStridedMetadataOp meta;
  auto metadata = [&]() {
    if (!meta)
      meta = memref::ExtractStridedMetadataOp::create(b, loc, source);
    return meta;
  };
  auto asI64 = [&](Value index) {
    return b.createOrFold<arith::IndexCastOp>(loc, i64(), index);
  };
  Value alignedIndex =
      memref::ExtractAlignedPointerAsIndexOp::create(b, loc, source);
  Value aligned = asI64(alignedIndex);
  Value offset = ShapedType::isDynamic(staticOffset)
                     ? asI64(metadata().getOffset())
                     : cst64(b, loc, staticOffset);
  SmallVector<Value> sizes, strides;
  for (int64_t i = 0; i < globalRank; ++i) {
    sizes.push_back(type.isDynamicDim(i) ? asI64(metadata().getSizes()[i])
                                         : cst64(b, loc, type.getDimSize(i)));
    strides.push_back(ShapedType::isDynamic(staticStrides[i])
                          ? asI64(metadata().getStrides()[i])
                          : cst64(b, loc, staticStrides[i]));
  }

  auto mul = [&](Value x, int64_t k) {
    return b.createOrFold<arith::MulIOp>(loc, x, cst64(b, loc, k));
  };
  auto urem = [&](Value x, int64_t k) {
    return b.createOrFold<arith::RemUIOp>(loc, x, cst64(b, loc, k));
  };
  auto cmp = [&](arith::CmpIPredicate pred, Value x, Value y) {
    return b.createOrFold<arith::CmpIOp>(loc, pred, x, y);
  };
  auto cmpK = [&](arith::CmpIPredicate pred, Value x, int64_t k) {
    return cmp(pred, x, cst64(b, loc, k));
  };
  auto either = [&](Value x, Value y) {
    return b.createOrFold<arith::OrIOp>(loc, x, y);
  };
  using P = arith::CmpIPredicate;
  // Element counts to bytes; for sub-byte elements (packed fp4) through bits,
  // so that a value that is not a whole number of bytes fails the alignment.
  int64_t elemBits = s.getElemBits();
  bool wholeBytes = elemBits % 8 == 0;
  DenseMap<Value, Value> bitsOf;
  auto bits = [&](Value elements) {
    Value &v = bitsOf[elements];
    if (!v)
      v = mul(elements, elemBits);
    return v;
  };
  auto bytes = [&](Value elements) {
    if (wholeBytes)
      return mul(elements, elemBits / 8);
    return b.createOrFold<arith::DivUIOp>(loc, bits(elements),
                                          cst64(b, loc, 8));
  };
  int64_t align = s.getBaseAlignment();
  int64_t strideAlign = s.getStrideAlignment();

  // globalDim / globalStrides, innermost-first.
  SmallVector<Value> dims, byteStrides, elemStrides;
  int64_t descRank = s.getRank();
  for (int64_t i = descRank - 1; i >= 0; --i)
    dims.push_back(sizes[i]);
  int64_t outer = s.getInterleave() ? descRank - 1 : globalRank - 1;
  for (int64_t i = outer - 1; i >= 0; --i) {
    elemStrides.push_back(strides[i]);
    byteStrides.push_back(bytes(strides[i]));
  }
  Value byteOffset = bytes(offset);
  Value address = b.createOrFold<arith::AddIOp>(loc, aligned, byteOffset);

  // The runtime rules, in the order tensormap.check_source applies them.
  Value zero = cst64(b, loc, 0);
  if (failed(check(b, op, cmpK(P::ne, strides[globalRank - 1], 1),
                   message(Rule::GlobalInnerStride,
                           "the innermost stride is %lld elements, expected 1"),
                   {strides[globalRank - 1]})))
    return failure();
  Value baseBad = cmp(P::ne, urem(address, align), zero);
  if (!wholeBytes)
    baseBad = either(baseBad, cmp(P::ne, urem(bits(offset), 8), zero));
  if (failed(check(b, op, baseBad,
                   message(Rule::GlobalBaseAlignment,
                           llvm::formatv("base address 0x%llx is not "
                                         "{0}-byte aligned",
                                         align)),
                   {address})))
    return failure();
  for (auto [i, dim] : llvm::enumerate(dims)) {
    Value small = cmpK(P::slt, dim, 1);
    Value large = cmpK(P::sgt, dim, kMaxGlobalDim);
    Value bad = either(small, large);
    if (failed(check(b, op, bad,
                     message(Rule::GlobalDimRange,
                             llvm::formatv("dimension %lld (innermost-first "
                                           "index {0}) is outside 1..2^32",
                                           i)),
                     {dim})))
      return failure();
  }
  for (auto [i, stride] : llvm::enumerate(byteStrides)) {
    Value rem = wholeBytes ? urem(stride, strideAlign)
                           : urem(bits(elemStrides[i]), strideAlign * 8);
    Value bad = cmp(P::ne, rem, zero);
    if (failed(check(b, op, bad,
                     message(Rule::GlobalStrideAlignment,
                             llvm::formatv("byte stride %lld (innermost-first "
                                           "index {0}) is not a multiple of "
                                           "{1}",
                                           i + 1, strideAlign)),
                     {stride})))
      return failure();
    // Unsigned: a negative stride is out of range too.
    if (failed(check(b, op, cmpK(P::uge, stride, kGlobalStrideBytesBound),
                     message(Rule::GlobalStrideRange,
                             llvm::formatv("byte stride %lld (innermost-first "
                                           "index {0}) is not below 2^40",
                                           i + 1)),
                     {stride})))
      return failure();
  }
  for (auto [i, dim] : llvm::enumerate(dims)) {
    // An im2col box is (channels, pixels): only channels bound a dimension.
    if (im2col && i > 0)
      break;
    int64_t extent = s.getBox()[i];
    if (failed(check(b, op, cmpK(P::slt, dim, extent),
                     message(Rule::BoxWithinDim,
                             llvm::formatv("box extent {0} is larger than "
                                           "dimension %lld (innermost-first "
                                           "index {1})",
                                           extent, i)),
                     {dim})))
      return failure();
  }
  int64_t innerMultiple = s.getInnerMultiple();
  if (innerMultiple > 1 &&
      failed(check(b, op, cmp(P::ne, urem(dims[0], innerMultiple), zero),
                   message(Rule::PackedInnerDim,
                           llvm::formatv("inner dimension %lld is not a "
                                         "multiple of {0}",
                                         innerMultiple)),
                   {dims[0]})))
    return failure();

  // Stack slots, once per function: the map and the four arrays.
  OpBuilder eb = OpBuilder::atBlockBegin(entry);
  auto slot = [&](Type elem, int64_t count, int64_t alignment) {
    Value n = LLVM::ConstantOp::create(eb, loc, i64(), count);
    return LLVM::AllocaOp::create(eb, loc, ptr(), elem, n, alignment)
        .getResult();
  };
  Value map = slot(LLVM::LLVMArrayType::get(b.getI8Type(), kTensorMapBytes), 1,
                   kTensorMapAlign);
  // Rank 1 has no outer stride; the driver still wants a non-null array.
  if (byteStrides.empty())
    byteStrides.push_back(bytes(dims[0]));
  Value dimArray = slot(i64(), dims.size(), 8);
  Value strideArray = slot(i64(), byteStrides.size(), 8);
  // Tiled maps take boxDim; im2col maps take corners, channels and pixels.
  Value boxArray = im2col ? Value() : slot(i32(), descRank, 4);
  Value esArray = slot(i32(), descRank, 4);
  auto fill = [&](Value array, Type elem, ValueRange values) {
    for (auto [i, v] : llvm::enumerate(values)) {
      Value at = LLVM::GEPOp::create(b, loc, ptr(), elem, array,
                                     ArrayRef<LLVM::GEPArg>{int32_t(i)});
      LLVM::StoreOp::create(b, loc, v, at);
    }
  };
  auto i32s = [&](ArrayRef<int64_t> values) {
    SmallVector<Value> out;
    for (int64_t v : values)
      out.push_back(cst(b, loc, i32(), v));
    return out;
  };
  fill(dimArray, i64(), dims);
  fill(strideArray, i64(), byteStrides);
  if (boxArray)
    fill(boxArray, i32(), i32s(s.getBox()));
  fill(esArray, i32(), i32s(s.getElementStrides()));

  SmallVector<Value> fields = i32s({s.getDataType(), descRank});
  Value addressPtr = LLVM::IntToPtrOp::create(b, loc, ptr(), address);
  SmallVector<Value> args = {map, fields[0], fields[1], addressPtr,
                             dimArray, strideArray};
  switch (s.getEncode()) {
  case EncodeKind::tiled:
    args.append({boxArray, esArray});
    llvm::append_range(args, i32s({s.getInterleave(), s.getSwizzle(),
                                   s.getL2Promotion(), s.getOobFill()}));
    break;
  case EncodeKind::im2col: {
    Value lower = slot(i32(), s.getPixelBoxLower().size(), 4);
    Value upper = slot(i32(), s.getPixelBoxUpper().size(), 4);
    fill(lower, i32(), i32s(s.getPixelBoxLower()));
    fill(upper, i32(), i32s(s.getPixelBoxUpper()));
    args.append({lower, upper});
    llvm::append_range(args, i32s({*s.getChannelsPerPixel(),
                                   *s.getPixelsPerColumn()}));
    args.push_back(esArray);
    llvm::append_range(args, i32s({s.getInterleave(), s.getSwizzle(),
                                   s.getL2Promotion(), s.getOobFill()}));
    break;
  }
  case EncodeKind::im2col_wide:
    llvm::append_range(args, i32s({s.getPixelBoxLower()[0],
                                   s.getPixelBoxUpper()[0],
                                   *s.getChannelsPerPixel(),
                                   *s.getPixelsPerColumn()}));
    args.push_back(esArray);
    llvm::append_range(args, i32s({s.getInterleave(), *s.getWideMode(),
                                   s.getSwizzle(), s.getL2Promotion(),
                                   s.getOobFill()}));
    break;
  }
  FailureOr<LLVM::LLVMFuncOp> encode = encodeFn(loc, s.getEncode());
  if (failed(encode))
    return failure();
  Value status = LLVM::CallOp::create(b, loc, *encode, args).getResult();
  Value failedEncode = b.createOrFold<arith::CmpIOp>(
      loc, P::ne, status, cst(b, loc, i32(), 0));
  if (failed(check(b, op, failedEncode,
                   message(Rule::TensorMapEncode,
                           (encode->getSymName() + " returned %d").str()),
                   {status})))
    return failure();

  // Launch operands take the 128 bytes by value, anything else the address.
  auto bytesType = LLVM::LLVMArrayType::get(b.getI8Type(), kTensorMapBytes);
  for (OpOperand &use : llvm::make_early_inc_range(op.getMap().getUses())) {
    if (auto launch = dyn_cast<gpu::LaunchFuncOp>(use.getOwner())) {
      OpBuilder lb(launch);
      use.set(LLVM::LoadOp::create(lb, loc, bytesType, map, kTensorMapAlign));
    } else {
      use.set(map);
    }
  }
  op.erase();
  created.eraseDead();
  return success();
}

struct TileLowerTmaHostPass
    : public mlir::tile::impl::TileLowerTmaHostBase<TileLowerTmaHostPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<TensorMapOp> ops;
    module.walk([&](TensorMapOp op) { ops.push_back(op); });
    if (ops.empty())
      return;
    HostDecls decls(module);
    HostLowering lowering(module, decls);
    bool ok = true;
    for (TensorMapOp op : ops)
      ok &= succeeded(lowering.lower(op));
    if (!ok)
      signalPassFailure();
  }
};

} // namespace
