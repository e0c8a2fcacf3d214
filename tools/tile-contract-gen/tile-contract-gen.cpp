//===- tile-contract-gen.cpp - the contract tables as a Python module -----===//
//
// Writes tile_mlir/_contract.py from the tables the dialect is compiled from
// (Formats.def, ElementTypes.def, Reductions.def, DriverEnums.def, Limits.def,
// Rules.def and the TableGen enums), asking the same Contract.h functions the
// verifier and the lowering ask. tile_mlir.contract wraps the module; Python
// keeps no copy of these facts.
//
//   tile-contract-gen --digest <sha256> --sources <path,...> -o <file>
//
//===----------------------------------------------------------------------===//

#include "Tile/Contract/Contract.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

using namespace mlir;
using namespace mlir::tile;

namespace {
/// A Python string literal.
std::string str(llvm::StringRef text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '\\' || c == '"')
      out += '\\';
    out += c;
  }
  return out + "\"";
}

std::string boolean(bool value) { return value ? "True" : "False"; }

/// A Python tuple of the already-spelled `items`.
std::string tuple(llvm::ArrayRef<std::string> items) {
  if (items.size() == 1)
    return "(" + items[0] + ",)";
  return "(" + llvm::join(items, ", ") + ")";
}

std::string pair(int64_t a, int64_t b) {
  return "(" + std::to_string(a) + ", " + std::to_string(b) + ")";
}

std::string swizzles(unsigned mask) {
  llvm::SmallVector<std::string> items;
  for (unsigned s = 0; s < 32; ++s)
    if (mask >> s & 1)
      items.push_back(std::to_string(s));
  return tuple(items);
}

/// The names of a TableGen enum, by value.
template <typename Enum>
std::string enumNames(unsigned max, llvm::StringRef (*stringify)(Enum)) {
  llvm::SmallVector<std::string> names;
  for (unsigned v = 0; v <= max; ++v)
    names.push_back(str(stringify(static_cast<Enum>(v))));
  return tuple(names);
}

const char *kindName(RuleKind kind) {
  switch (kind) {
  case RuleKind::Verify:
    return "verify";
  case RuleKind::Host:
    return "host";
  case RuleKind::Runtime:
    return "runtime";
  case RuleKind::Python:
    return "python";
  case RuleKind::Device:
    return "device";
  }
  return "?";
}

void writeFormats(llvm::raw_ostream &os) {
  os << "# Formats.def, in TileEnums.td's Format order.\nFORMATS = (\n";
  for (const FormatFacts &f : formatTable()) {
    os << "    dict(name=" << str(stringifyFormat(f.format))
       << ", enum=" << static_cast<unsigned>(f.format)
       << ", cu_data_type=" << f.cuDataType << ", cu_name=" << str(f.cuName)
       << ",\n         bits=" << f.bits << ", is_float=" << boolean(f.isFloat)
       << ", signed=" << boolean(f.isSigned) << ", storage=" << str(f.storage)
       << ", numpy=" << str(f.numpy) << ",\n         packed="
       << boolean(f.packed) << ", padded_packed=" << boolean(f.paddedPacked)
       << ", alignment=" << formatAlignment(f.format)
       << ", inner_multiple=" << formatInnerMultiple(f.format)
       << ",\n         packing="
       << pair(formatPacking(f.format).values, formatPacking(f.format).bytes)
       << ", group=" << pair(f.groupDataBytes, f.groupSlotBytes)
       << ", load_only=" << boolean(f.loadOnly)
       << ", nan_fill=" << boolean(f.nanFill) << ",\n         load_swizzles="
       << swizzles(f.loadSwizzles)
       << ", store_swizzles=" << swizzles(f.storeSwizzles)
       << ",\n         store_unpacked=" << boolean(f.storeUnpacked)
       << ", flushes_subnormals=" << boolean(f.flushesSubnormals)
       << ", rounds_tf32=" << boolean(f.roundsToTf32) << "),\n";
  }
  os << ")\n\nFORMAT_ALIASES = {\n";
  for (auto [alias, format] : formatAliases())
    os << "    " << str(alias) << ": " << str(stringifyFormat(format)) << ",\n";
  os << "}\n\n";
}

void writeElementTypes(llvm::raw_ostream &os, MLIRContext &context) {
  os << "# ElementTypes.def; `formats` are those formatMatches accepts, the "
        "default first.\nELEMENT_TYPES = (\n";
  for (const ElementTypeFacts &e : elementTypeTable()) {
    Type type = parseType(e.mlir, &context);
    llvm::SmallVector<std::string> formats = {str(stringifyFormat(e.format))};
    for (const FormatFacts &f : formatTable())
      if (f.format != e.format && formatMatches(type, f.format))
        formats.push_back(str(stringifyFormat(f.format)));
    os << "    dict(name=" << str(e.name) << ", mlir=" << str(e.mlir)
       << ", default_format=" << str(stringifyFormat(e.format))
       << ", numpy=" << str(e.numpy) << ", signless=" << boolean(e.signless)
       << ",\n         formats=" << tuple(formats) << "),\n";
  }
  os << ")\n\n";
}

void writeReductions(llvm::raw_ostream &os) {
  os << "# Reductions.def, by operator in TileEnums.td's order.\n"
        "REDUCTIONS = {\n";
  llvm::SmallVector<std::string> signedOps;
  for (unsigned v = 0; v <= getMaxEnumValForReduction(); ++v) {
    auto op = static_cast<Reduction>(v);
    llvm::SmallVector<std::string> formats;
    for (Format f : reductionFormats(op))
      formats.push_back(str(stringifyFormat(f)));
    os << "    " << str(stringifyReduction(op)) << ": " << tuple(formats)
       << ",\n";
    if (isSignedReduction(op))
      signedOps.push_back(str(stringifyReduction(op)));
  }
  os << "}\nSIGNED_REDUCTIONS = " << tuple(signedOps) << "\n\n";
}

void writeEnums(llvm::raw_ostream &os) {
  os << "# TableGen enum orders (TileEnums.td, TileAttrs.td).\n"
     << "DIRECTIONS = "
     << enumNames<Direction>(getMaxEnumValForDirection(), stringifyDirection)
     << "\nMODES = " << enumNames<Mode>(getMaxEnumValForMode(), stringifyMode)
     << "\nREDUCTION_OPERATORS = "
     << enumNames<Reduction>(getMaxEnumValForReduction(), stringifyReduction)
     << "\nENCODE_KINDS = "
     << enumNames<EncodeKind>(getMaxEnumValForEncodeKind(),
                              stringifyEncodeKind)
     << "\n\n# DriverEnums.def.\nDRIVER_ENUMS = {\n";
  llvm::StringRef field;
  for (const DriverEnumFacts &e : driverEnumTable()) {
    if (e.field != field) {
      if (!field.empty())
        os << "),\n";
      field = e.field;
      os << "    " << str(field) << ": (";
    } else {
      os << ", ";
    }
    os << str(e.name);
  }
  os << "),\n}\nENCODE_FUNCTIONS = {\n";
  for (unsigned v = 0; v <= getMaxEnumValForEncodeKind(); ++v) {
    auto kind = static_cast<EncodeKind>(v);
    os << "    " << str(stringifyEncodeKind(kind)) << ": "
       << str(tensorMapEncodeFunction(kind)) << ",\n";
  }
  os << "}\nMODE_ENCODE = {\n";
  for (unsigned v = 0; v <= getMaxEnumValForMode(); ++v) {
    auto mode = static_cast<Mode>(v);
    os << "    " << str(stringifyMode(mode)) << ": "
       << str(stringifyEncodeKind(tensorMapEncodeKind(mode))) << ",\n";
  }
  os << "}\n\n";
}

void writeLimits(llvm::raw_ostream &os) {
  os << "# Limits.def; the driver enum fields' ranges are their "
        "DriverEnums.def rows.\nRANGES = {\n";
  auto range = [&](llvm::StringRef name, IntRange r) {
    os << "    " << str(name) << ": " << pair(r.min, r.max) << ",\n";
  };
#define TILE_RANGE(ID, NAME, MIN, MAX) range(NAME, ID);
#include "Tile/Contract/Limits.def"
  llvm::StringRef field;
  for (const DriverEnumFacts &e : driverEnumTable())
    if (e.field != field) {
      field = e.field;
      range(field, driverEnumRange(field));
    }
  os << "}\n";
#define TILE_LIMIT(ID, NAME, VALUE) os << NAME << " = " << ID << "\n";
#include "Tile/Contract/Limits.def"
  os << "# (mode, rank) -> the range of one pixel-box corner entry; rank -> "
        "the range of one im2col offset.\nIM2COL_CORNER_RANGES = {\n";
  for (unsigned v = 0; v <= getMaxEnumValForMode(); ++v) {
    auto mode = static_cast<Mode>(v);
    if (!isIm2colMode(mode))
      continue;
    for (int rank = kIm2colRankRange.min; rank <= kIm2colRankRange.max;
         ++rank) {
      IntRange r = im2colCornerRange(mode, rank);
      os << "    (" << str(stringifyMode(mode)) << ", " << rank
         << "): " << pair(r.min, r.max) << ",\n";
    }
  }
  os << "}\nIM2COL_OFFSET_RANGES = {\n";
  for (int rank = kIm2colRankRange.min; rank <= kIm2colRankRange.max; ++rank) {
    IntRange r = im2colOffsetRange(rank);
    os << "    " << rank << ": " << pair(r.min, r.max) << ",\n";
  }
  os << "}\n\n";
}

void writeSwizzles(llvm::raw_ostream &os) {
  os << "# DriverEnums.def TILE_SWIZZLE rows, by value.\nSWIZZLE_TABLE = (\n";
  for (const SwizzleFacts &s : swizzleTable())
    os << "    dict(value=" << s.value << ", cu_name=" << str(s.cuName)
       << ", name=" << str(swizzleShortName(s.value))
       << ",\n         span_bytes=" << swizzleSpanBytes(s.value)
       << ", period_bytes=" << swizzlePeriodBytes(s.value)
       << ", load_only=" << boolean(s.loadOnly)
       << ", im2col_wide=" << boolean(s.im2colWide)
       << ", sm100=" << boolean(s.sm100) << "),\n";
  os << ")\n\n";
}

void writeRules(llvm::raw_ostream &os) {
  os << "# Rules.def: every rule, in its order (a rule's position is its "
        "Rule enum value). `dynamic`: what the host checks of a verifier "
        "rule's runtime values; `device`: what a debug build checks of them on "
        "the device.\nRULES = (\n";
  auto row = [&](Rule rule) {
    os << "    dict(name=" << str(ruleName(rule))
       << ", kind=" << str(kindName(ruleKind(rule)))
       << ",\n         text=" << str(ruleText(rule));
    if (!ruleDynamicText(rule).empty())
      os << ",\n         dynamic=" << str(ruleDynamicText(rule));
    if (!ruleDeviceText(rule).empty())
      os << ",\n         device=" << str(ruleDeviceText(rule));
    os << "),\n";
  };
#define TILE_RULE(ID, NAME, TEXT) row(Rule::ID);
#define TILE_HOST_RULE(ID, NAME, TEXT) row(Rule::ID);
#define TILE_RUNTIME_RULE(ID, NAME, TEXT) row(Rule::ID);
#define TILE_PYTHON_RULE(ID, NAME, TEXT) row(Rule::ID);
#define TILE_DEVICE_RULE(ID, NAME, TEXT) row(Rule::ID);
#include "Tile/Contract/Rules.def"
  os << ")\n";
}
} // namespace

int main(int argc, char **argv) {
  std::string digest, sources, output;
  for (int i = 1; i + 1 < argc; i += 2) {
    llvm::StringRef flag = argv[i];
    if (flag == "--digest")
      digest = argv[i + 1];
    else if (flag == "--sources")
      sources = argv[i + 1];
    else if (flag == "-o")
      output = argv[i + 1];
  }
  if (digest.empty() || sources.empty() || output.empty()) {
    llvm::errs() << "usage: tile-contract-gen --digest <sha256> --sources "
                    "<path,...> -o <file>\n";
    return 2;
  }
  llvm::SmallVector<llvm::StringRef> paths;
  llvm::StringRef(sources).split(paths, ',');
  llvm::SmallVector<std::string> sourceItems;
  for (llvm::StringRef path : paths)
    sourceItems.push_back(str(path));
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "\"\"\"The contract tables of tile-mlir, generated at build time by "
        "tools/tile-contract-gen\nfrom dialect/include/Tile/Contract/*.def and the "
        "TableGen enums. Do not edit; read them\nthrough tile_mlir.contract."
        "\"\"\"\n\n"
     << "# sha256 over `<sha256>  <path>` lines of SOURCES "
        "(test_contract_tables.py recomputes it).\n"
     << "SOURCE_DIGEST = " << str(digest) << "\n"
     << "SOURCES = " << tuple(sourceItems) << "\n\n";
  MLIRContext context;
  writeFormats(os);
  writeElementTypes(os, context);
  writeReductions(os);
  writeEnums(os);
  writeSwizzles(os);
  writeLimits(os);
  writeRules(os);

  std::error_code error;
  llvm::raw_fd_ostream file(output, error, llvm::sys::fs::OF_Text);
  if (error) {
    llvm::errs() << "tile-contract-gen: " << output << ": " << error.message()
                 << "\n";
    return 1;
  }
  file << text;
  return 0;
}
