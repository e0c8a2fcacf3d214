"""Finding, verifying and isolating the `tile.tma_copy` to explain.

Input is MLIR text (a module, a `// -----`-separated file as the lit tests
write them, or a snippet of op lines without any enclosing function) or an
op from the Python builder. The chosen op is verified, then copied alone into
a fresh kernel (`isolate`): its runtime coordinates become constants (given,
or 0), its shared buffer a 1024-byte aligned `memref.global`, every other
operand a kernel argument. That kernel is verified again and lowered with
`tile-lower-tma`, whose `tile.tensor_maps` entry is the descriptor the host
would encode: the tensor-map fields are read from it, never recomputed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import mlir.ir as ir
from mlir.dialects import arith, gpu, memref

from .. import _native, contract
from ..compiler import CompileError, _tensor_maps, lower_to_nvvm
from ..errors import _OP_DIAGNOSTIC  # what an op verifier's message starts with
from ..errors import (TileError, TileUsageError, TileVerifyError, first_error_diagnostic,
                      from_mlir_error)
from ..spec import TensorMapSpec
from ..tma import find_copies

OP_NAME = "tile.tma_copy"

_SPLIT = re.compile(r"^[ \t]*//[ \t]*-----[ \t]*$", re.M)
_COMMENT = re.compile(r"//.*$", re.M)
_OP_TOKEN = re.compile(r'(?:^|[\s"])tile\.tma_copy(?=[\s"(])')
_ENCLOSING = re.compile(r"(?:^|\s)(?:module|gpu\.module|func\.func|gpu\.func|"
                        r"builtin\.module)\b")
_SSA = r"%[A-Za-z0-9_.$#-]+"
_DEFINED = re.compile(rf"^\s*((?:{_SSA}(?::\d+)?\s*,\s*)*{_SSA}(?::\d+)?)\s*=", re.M)


class ExplainError(TileError):
    """The input cannot be explained (a verifier rejection is TileVerifyError):
    `rule` is [explain-input] for input explain cannot read or that names no
    copy, [explain-supported] for a copy its model does not cover, or the
    range rule ([coord-range], [int-range], [global-dim-range]) of a value
    given out of range."""


def _input_error(message: str, where: str | None = None) -> ExplainError:
    error = ExplainError("explain-input", message)
    error.location = where      # the input's name, where the CLI prints it
    return error


def _supported_error(message: str) -> ExplainError:
    return ExplainError("explain-supported", message)


@dataclass
class Selected:
    """The op picked from the input, with what is needed to describe it."""
    op: ir.Operation              # the op as given (verified)
    index: int                    # its index among the input's copies
    count: int                    # copies in the input
    origin: str                   # where it came from, for the header
    module: object = None         # keeps the parsed module alive
    line: str | None = None       # the op's source line, when parsed from text
    name: str | None = None       # the input's name, for diagnostics
    line_delta: int = 0           # parsed line - input line (snippet wrapper)


@dataclass
class Isolated:
    """The op alone in a verified kernel, with constant coordinates."""
    module: ir.Module
    op: ir.Operation
    spec: TensorMapSpec | None    # its tile.tensor_maps entry (None: opaque map)
    coords: tuple                 # starting coordinates, outer-to-inner
    rows: tuple | None            # gather4/scatter4 row operands
    global_type: ir.Type
    notes: list = field(default_factory=list)
    shared_alignment: int | None = None   # of the original shared buffer, when known
    offsets: tuple | None = None  # im2col offsets operands (None: the op has none)


# ---------------------------------------------------------------------------
# Errors


def _verify_error(err: ir.MLIRError, where: str | None = None,
                  line_delta: int = 0, suffix: str = "") -> TileVerifyError:
    """The first diagnostic of `err` as a rule-named TileVerifyError, its
    `location` as file:line:col of the input (`line_delta`: lines a wrapper
    added before the input's text)."""
    first = first_error_diagnostic(err)
    error = from_mlir_error(err)
    if suffix:
        error = TileVerifyError(error.rule, error.message + suffix)
    error.location = where
    match = first and re.match(r'loc\("([^"]*)":(\d+):(\d+)\)',
                               str(first.location))
    if match:
        line = int(match.group(2)) - line_delta
        error.location = f"{where or match.group(1)}:{line}:{match.group(3)}"
    return error


def _parse_error(err: ir.MLIRError, where: str, line_delta: int) -> TileError:
    """A parse failure: text that does not parse is [mlir-syntax] (as
    compile() names it), a verifier's diagnostic names its rule."""
    error = _verify_error(err, where, line_delta)
    first = first_error_diagnostic(err)
    message = first.message if first is not None else str(err)
    if error.rule != "mlir-verifier" or _OP_DIAGNOSTIC.match(message):
        return error
    syntax = TileUsageError("mlir-syntax", message)
    syntax.location = error.location
    return syntax


def _context(context: ir.Context | None) -> ir.Context:
    ctx = context or ir.Context()
    _native.register_dialect(ctx)
    return ctx


# ---------------------------------------------------------------------------
# Input


def _count_in_text(text: str) -> int:
    code = _COMMENT.sub("", text)
    return sum(1 for line in code.splitlines() if _OP_TOKEN.search(" " + line))


def _line_offset(text: str, chunk_start: int) -> int:
    return text.count("\n", 0, chunk_start)


def select_from_text(text: str, op_index: int = 0, *, name: str = "<input>",
                     context: ir.Context | None = None) -> Selected:
    """Parses the chunk of `text` holding copy number `op_index` (counted over
    the whole text, program order) and returns that op, verified."""
    chunks, starts, pos = [], [], 0
    for match in _SPLIT.finditer(text):
        chunks.append(text[pos:match.start()])
        starts.append(pos)
        pos = match.end()
    chunks.append(text[pos:])
    starts.append(pos)
    counts = [_count_in_text(c) for c in chunks]
    total = sum(counts)
    if total == 0:
        raise _input_error(f"no {OP_NAME} found", name)
    if not 0 <= op_index < total:
        raise _input_error(f"--op-index {op_index} is out of range: the input has "
                           f"{total} {OP_NAME} op(s) (0..{total - 1})", name)
    before = 0
    for chunk, start, count in zip(chunks, starts, counts):
        if op_index < before + count:
            break
        before += count
    # Keep line numbers of diagnostics those of the file.
    offset = _line_offset(text, start)
    padded, delta = "\n" * offset + chunk, 0
    ctx = _context(context)
    with ctx:
        if not _ENCLOSING.search(_COMMENT.sub("", chunk)):
            padded = _wrap_snippet(chunk, name)
            delta = 1 - offset          # the wrapper's first line
        try:
            module = ir.Module.parse(padded, ctx)
        except ir.MLIRError as err:
            raise _parse_error(err, name, delta) from None
        found = find_copies(module)
        local = op_index - before
        if local >= len(found):
            raise _input_error(f"could not locate {OP_NAME} number {op_index} "
                               "after parsing", name)
        origin = name if total == 1 else f"{name}, op {op_index} of {total}"
        return Selected(found[local], op_index, total, origin, module,
                        _source_line(found[local], padded), name, delta)


def _source_line(op: ir.Operation, text: str) -> str | None:
    match = re.match(r'loc\("[^"]*":(\d+):\d+\)', str(op.location))
    if not match:
        return None
    lines = text.splitlines()
    line = int(match.group(1))
    return lines[line - 1].strip() if 0 < line <= len(lines) else None


def _split_types(text: str) -> list[str]:
    """Top-level comma split of a type list (commas inside <>, (), [] kept)."""
    out, depth, cur = [], 0, ""
    for ch in text:
        if ch in "<([{":
            depth += 1
        elif ch in ">)]}":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def _names(text: str) -> list[str]:
    return re.findall(_SSA, text)


def _snippet_types(line: str, name: str) -> dict[str, str]:
    """The type of each SSA operand of one custom-form (or generic) op line."""
    types: dict[str, str] = {}

    def put(n: str, t: str):
        if types.setdefault(n, t) != t:
            raise _input_error(f"{n} is used as both {types[n]} and {t}", name)

    generic = re.search(r'"tile\.tma_copy"\s*\((.*?)\)', line)
    if generic:
        operands = _names(generic.group(1))
        sig = re.search(r":\s*\((.*)\)\s*->\s*\(\s*\)\s*$", line)
        if not sig:
            raise _input_error("cannot read the operand types of the generic op", name)
        for n, t in zip(operands, _split_types(sig.group(1))):
            put(n, t)
        return types
    head, sep, tail = line.rpartition(" : ")
    if not sep:
        raise _input_error("the op line has no ' : <types>' suffix", name)
    tys = _split_types(tail)
    body = re.sub(r"\{.*\}", " ", head)           # the attribute dictionary
    body = re.sub(r'"[^"]*"', " ", body)           # a PTX opcode string
    bufs = re.search(rf"({_SSA})\s*(?:,\s*({_SSA}))?\s*\[(.*?)\]", body)
    if not bufs:
        raise _input_error("cannot find the buffers of the op line", name)
    if bufs.group(2):
        put(bufs.group(1), tys[0])
        put(bufs.group(2), tys[1] if len(tys) > 1 else tys[0])
    else:
        put(bufs.group(1), tys[0])
    for n in _names(bufs.group(3)):
        put(n, "i32")
    for keyword, open_, close, ty in (("rows", r"\[", r"\]", "i32"),
                                      ("offsets", r"\[", r"\]", "i16"),
                                      ("mbar", r"\(", r"\)", "!llvm.ptr<3>"),
                                      ("cta_mask", r"\(", r"\)", "i16"),
                                      ("cache_policy", r"\(", r"\)", "i64")):
        found = re.search(rf"\b{keyword}\s*{open_}(.*?){close}", body)
        if found:
            for n in _names(found.group(1)):
                put(n, ty)
    return types


def _wrap_snippet(chunk: str, name: str) -> str:
    """A gpu.module/gpu.func around op lines that have no function: every
    SSA value used but not defined there becomes a kernel argument, typed by
    its use in the copy."""
    code = _COMMENT.sub("", chunk)
    defined = set()
    for match in _DEFINED.finditer(code):
        defined.update(n.split(":")[0] for n in _names(match.group(1)))
    args: dict[str, str] = {}
    for line in code.splitlines():
        if _OP_TOKEN.search(" " + line):
            for n, t in _snippet_types(line, name).items():
                if n not in defined:
                    args.setdefault(n, t)
    used = set(_names(code))
    unknown = sorted(used - defined - set(args))
    if unknown:
        raise _input_error(f"cannot tell the types of {', '.join(unknown)} (define "
                           "them in the snippet or give the whole module)", name)
    # A shared buffer passed in has no alignment the IR proves: the wrapper
    # declares the 1024-byte base explain assumes (on its first line, so the
    # snippet keeps its line numbers).
    declared = []
    for n, t in list(args.items()):
        if t.startswith("memref<") and (t.endswith(", 3>") or "workgroup" in t):
            args[n + "_arg"] = args.pop(n)
            declared.append(f"{n} = memref.assume_alignment {n}_arg, 1024 : {t}")
    params = ", ".join(f"{n}: {t}" for n, t in args.items())
    head = " ".join(declared)
    return (f"gpu.module @explain {{ gpu.func @explain({params}) kernel {{ {head}\n"
            f"{chunk}\n    gpu.return\n  }}\n}}\n")


def select_from_op(op, op_index: int = 0, *, origin: str = "python",
                   module=None, where: str | None = None) -> Selected:
    """An op of the Python builder (or a module holding copies); `origin`
    names it in the header, `where` (the input's file) in errors, `module`
    is kept alive with the op."""
    operation = getattr(op, "operation", op)
    if operation.name != OP_NAME:
        found = find_copies(operation)
        if not found:
            raise _input_error(f"no {OP_NAME} in the given {operation.name}", where)
        if not 0 <= op_index < len(found):
            raise _input_error(f"--op-index {op_index} is out of range: {len(found)} "
                               f"{OP_NAME} op(s) (0..{len(found) - 1})", where)
        operation = found[op_index]
        index, count = op_index, len(found)
    else:
        index, count = 0, 1
    try:
        operation.verify()
    except ir.MLIRError as err:
        raise _verify_error(err) from None
    if count > 1:
        origin = f"{origin}, op {index} of {count}"
    return Selected(operation, index, count, origin, module)


# ---------------------------------------------------------------------------
# Isolation


def _enclosing(op: ir.Operation, name: str):
    parent = op.parent
    while parent is not None:
        if parent.name == name:
            return parent
        parent = parent.parent
    return None


def _constant(value: ir.Value) -> int | None:
    if isinstance(value, ir.OpResult) and value.owner.name == "arith.constant":
        attr = value.owner.attributes["value"]
        if isinstance(attr, ir.IntegerAttr):
            return ir.IntegerAttr(attr).value
    return None


# Operand groups in ODS order; groups the op does not have (yet) are skipped.
_GROUPS = ("shared", "global", "coords", "rows", "offsets", "mbar", "cta_mask",
           "cache_policy")


def operand_groups(op: ir.Operation) -> dict[str, list[ir.Value]]:
    """The op's operands by ODS group (shared, global, coords, rows, ...)."""
    view = op.opview
    groups = {}
    for group in _GROUPS:
        attr = "global_" if group == "global" else group
        if not hasattr(type(view), attr):
            continue
        value = getattr(view, attr)
        if value is None:
            groups[group] = []
        elif isinstance(value, ir.Value):
            groups[group] = [value]
        else:
            groups[group] = list(value)
    return groups


def _shared_alignment(value: ir.Value) -> int | None:
    if not (isinstance(value, ir.OpResult) and value.owner.name == "memref.get_global"):
        return None
    symbol = ir.FlatSymbolRefAttr(value.owner.attributes["name"]).value
    module = _enclosing(value.owner, "gpu.module") or _enclosing(value.owner,
                                                                 "builtin.module")
    if module is None:
        return None
    for op in module.regions[0].blocks[0].operations:
        op = op.operation
        if op.name == "memref.global" and \
                ir.StringAttr(op.attributes["sym_name"]).value == symbol:
            if "alignment" in op.attributes:
                return ir.IntegerAttr(op.attributes["alignment"]).value
            return None
    return None


def given_ints(values, option: str) -> tuple:
    """`values` (a sequence of ints) as a tuple; anything else is a
    TileUsageError [explain-input] naming `option`."""
    import operator

    try:
        items = tuple(values)
        if any(isinstance(v, bool) for v in items):
            raise TypeError
        return tuple(operator.index(v) for v in items)
    except TypeError:
        raise TileUsageError("explain-input", f"{option} takes a sequence of "
                             f"ints, got {values!r}") from None


def check_range(values: tuple, option: str, kind: str, rule: str, bounds) -> None:
    """Each of `values` lies in `bounds` (lo, hi), else ExplainError(rule)
    naming the value: a value given is never wrapped to fit its type."""
    lo, hi = bounds
    for i, v in enumerate(values):
        if not lo <= v <= hi:
            raise ExplainError(rule, f"{option}: {kind} {i} is {v}, outside "
                               f"{lo}..{hi}")


def _type_bounds(ty: ir.Type) -> tuple[int, int]:
    """The signed range of an integer (or index: 64-bit) operand type."""
    bits = ir.IntegerType(ty).width if isinstance(ty, ir.IntegerType) else 64
    return -(1 << (bits - 1)), (1 << (bits - 1)) - 1


def _static_global(global_type: ir.Type, shape, notes: list) -> ir.Type:
    """`global_type` with its dynamic sizes replaced by `shape`'s."""
    if shape is None:
        return global_type
    if not isinstance(global_type, ir.MemRefType):
        raise _supported_error("--global-shape needs a memref global operand")
    mtype = ir.MemRefType(global_type)
    shape = given_ints(shape, "--global-shape")
    if len(shape) != mtype.rank:
        raise _input_error(f"--global-shape has {len(shape)} sizes, the global "
                           f"memref has rank {mtype.rank}")
    check_range(shape, "--global-shape", "size", "global-dim-range",
                (1, contract.MAX_GLOBAL_DIM))
    dyn = ir.ShapedType.get_dynamic_size()
    for i, (given, declared) in enumerate(zip(shape, mtype.shape)):
        if declared != dyn and declared != given:
            raise _input_error(f"--global-shape: size {i} is {given}, but the "
                               f"memref type fixes it to {declared}")
    if all(d != dyn for d in mtype.shape):
        return global_type
    if not _is_identity(str(mtype.layout)):
        raise _supported_error("--global-shape works on identity-layout memrefs "
                               f"only (got {mtype})")
    notes.append("global sizes from --global-shape: " +
                 ", ".join(str(s) for s in shape))
    return ir.MemRefType.get(list(shape), mtype.element_type,
                             memory_space=mtype.memory_space)


def _is_identity(layout: str) -> bool:
    match = re.match(r"affine_map<\(([^)]*)\)\s*->\s*\(([^)]*)\)>", layout)
    return bool(match) and match.group(1).replace(" ", "") == \
        match.group(2).replace(" ", "")


def isolate(selected: Selected, *, coords=None, rows=None,
            global_shape=None, offsets=None) -> Isolated:
    """The op alone in a fresh, verified kernel (see the module docstring)."""
    op = selected.op
    groups = operand_groups(op)
    if sum(len(vs) for vs in groups.values()) != len(op.operands):
        raise _supported_error(f"explain does not know every operand group of this "
                           f"{OP_NAME} yet")
    notes: list[str] = []
    ctx = op.context
    i32 = ir.IntegerType.get_signless(32, ctx)
    coord_values, row_values, offset_values = _operand_values(groups, coords, rows,
                                                              offsets, notes)
    shared = groups.get("shared", [])
    with ctx, ir.Location.unknown(ctx):
        global_type = _static_global(groups["global"][0].type, global_shape, notes)
    alignment = _shared_alignment(shared[0]) if shared else None

    fixed = {"coords": coord_values}
    if row_values is not None:
        fixed["rows"] = row_values
    if offset_values is not None:
        fixed["offsets"] = offset_values
    with ctx, ir.Location.unknown(ctx):
        module, clone = _isolated_kernel(op, groups, fixed, global_type, i32)
        try:
            module.operation.verify()
        except ir.MLIRError as err:
            given = []
            if coords is not None:
                given.append(f"--coords {','.join(map(str, coord_values))}")
            if rows is not None:
                given.append(f"--gather-rows {','.join(map(str, row_values))}")
            if offsets is not None:
                given.append(f"--offsets {','.join(map(str, offset_values))}")
            if global_shape is not None:
                given.append(f"--global-shape {','.join(map(str, global_shape))}")
            suffix = f" (with {' '.join(given)})" if given else ""
            raise _verify_error(err, selected.name, selected.line_delta,
                                suffix) from None
        spec = _lower_spec(module) if isinstance(global_type, ir.MemRefType) else None
    return Isolated(module, clone, spec, coord_values, row_values, global_type,
                    notes, alignment, offset_values)


def _constants(kind: str, values, given, option: str, notes: list,
               rule: str = "int-range", bounds=None) -> tuple:
    """The values of a group of index operands: `given` (checked against the
    constants the IR has, and against `bounds`, by default the operands'
    type's range, under `rule`), else the IR's constants with each runtime
    value taken as 0 (and noted)."""
    known = [_constant(v) for v in values]
    if given is not None:
        given = given_ints(given, option)
        if len(given) != len(values):
            raise _input_error(f"{option} has {len(given)} values, the op "
                               f"has {len(values)} {kind}")
        if values:
            check_range(given, option, kind.rstrip("s").split()[-1], rule,
                        bounds or _type_bounds(values[0].type))
        for i, (k, g) in enumerate(zip(known, given)):
            if k is not None and k != g:
                raise _input_error(f"{option}: {kind} {i} is the constant {k} "
                                   f"in the IR, not {g}")
        return given
    if any(k is None for k in known):
        runtime = [i for i, k in enumerate(known) if k is None]
        notes.append(f"{kind} {', '.join(map(str, runtime))} (outer-to-inner) "
                     f"are runtime values, taken as 0 here (set them with "
                     f"{option})")
    return tuple(0 if k is None else k for k in known)


def _operand_values(groups: dict, coords, rows, offsets, notes: list):
    """(coordinates, gather4/scatter4 rows or None, im2col offsets or None)
    of the copy, from the IR's constants and the values given."""
    # Coordinates are the instruction's signed 32-bit values, whatever the
    # operands' type (i32 or index).
    coord_values = _constants("coordinates", groups.get("coords", []), coords,
                              "--coords", notes, "coord-range",
                              (contract.COORD_RANGE.min, contract.COORD_RANGE.max))
    row_operands = groups.get("rows", [])
    row_values = (_constants("gather4/scatter4 rows", row_operands, rows,
                             "--gather-rows", notes) if row_operands else None)
    if rows is not None and not row_operands:
        raise _input_error("--gather-rows is for gather4/scatter4 copies only")
    offset_operands = groups.get("offsets", [])
    offset_values = (_constants("im2col offsets", offset_operands, offsets,
                                "--offsets", notes) if offset_operands else None)
    if offsets is not None and not offset_operands:
        raise _input_error("--offsets is for im2col copies with offsets operands "
                           "only")
    return coord_values, row_values, offset_values


def _kernel_arguments(groups: dict, fixed: dict, global_type: ir.Type):
    """Kernel arguments: the global operand, then every other runtime
    operand that is not a coordinate, row or shared buffer."""
    arg_values: list[ir.Value] = [groups["global"][0]]
    arg_types: list[ir.Type] = [global_type]
    for group, values in groups.items():
        if group in ("shared", "global") or group in fixed:
            continue
        for v in values:
            if _constant(v) is None and not any(v == a for a in arg_values):
                arg_values.append(v)
                arg_types.append(v.type)
    return arg_values, arg_types


def _isolated_kernel(op, groups: dict, fixed: dict, global_type: ir.Type, i32):
    """(module, clone): a fresh module, one gpu.module (the op's targets)
    holding one kernel whose body is a clone of `op`, its `fixed` groups
    constants and its other runtime operands kernel arguments. Runs in the
    op's context and a location."""
    shared = groups.get("shared", [])
    gpu_module = _enclosing(op, "gpu.module")
    module = ir.Module.create()
    with ir.InsertionPoint(module.body):
        targets = None
        if gpu_module is not None and "targets" in gpu_module.attributes:
            targets = gpu_module.attributes["targets"]
        gmod = gpu.GPUModuleOp("explain", targets=targets)
        gmod.bodyRegion.blocks.append()
    arg_values, arg_types = _kernel_arguments(groups, fixed, global_type)
    with ir.InsertionPoint(gmod.bodyRegion.blocks[0]):
        if shared:
            memref.GlobalOp(sym_name="explain_smem",
                            type_=ir.TypeAttr.get(shared[0].type),
                            sym_visibility="private", alignment=1024)
        ftype = ir.FunctionType.get(arg_types, [])
        func = gpu.GPUFuncOp(ir.TypeAttr.get(ftype), sym_name="explain",
                             kernel=True)
        entry = func.body.blocks.append(*ftype.inputs)
    with ir.InsertionPoint(entry):
        new_operands = []
        shared_value = (memref.get_global(shared[0].type, "explain_smem")
                        if shared else None)
        for group, values in groups.items():
            for i, v in enumerate(values):
                if group == "shared":
                    new_operands.append(shared_value)
                elif group in fixed:
                    new_operands.append(arith.constant(
                        i32 if group == "coords" else v.type, fixed[group][i]))
                elif _constant(v) is not None:
                    new_operands.append(arith.constant(v.type, _constant(v)))
                else:
                    k = next(k for k, a in enumerate(arg_values) if v == a)
                    new_operands.append(entry.arguments[k])
        clone = op.clone()
        for i, v in enumerate(new_operands):
            clone.operands[i] = v
        gpu.ReturnOp([])
    return module, clone


def _lower_spec(module: ir.Module) -> TensorMapSpec:
    try:
        lowered = lower_to_nvvm(module)
    except CompileError as err:
        raise _supported_error(f"tile-lower-tma failed on the isolated copy: "
                               f"{err.message}") from None
    maps = _tensor_maps(lowered).get("explain", [])
    if len(maps) != 1:
        raise _supported_error(f"expected one tensor map for the isolated copy, got "
                           f"{len(maps)}")
    return TensorMapSpec.from_json(maps[0])


def attribute(op: ir.Operation, name: str, default=None):
    """A plain Python value of one of the op's attributes."""
    if name not in op.attributes:
        return default
    attr = op.attributes[name]
    if isinstance(attr, ir.DenseI64ArrayAttr):
        return tuple(attr)
    if isinstance(attr, ir.IntegerAttr):
        return ir.IntegerAttr(attr).value
    if isinstance(attr, ir.ArrayAttr):
        return tuple(tuple(ir.DenseI64ArrayAttr(a)) for a in attr)
    if isinstance(attr, ir.StringAttr):
        return ir.StringAttr(attr).value
    text = str(attr)
    match = re.fullmatch(r"#tile<\w+ ([\w.]+)>", text)
    return match.group(1) if match else text
