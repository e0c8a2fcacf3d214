"""Errors that carry the name of the contract rule they enforce."""

from __future__ import annotations

import re

_RULE = re.compile(r"\[([a-z0-9-]+)\]\s*(.*)", re.S)


class TileError(ValueError):
    """A rejected input: `rule` is the name listed in docs/rules.md."""

    def __init__(self, rule: str, message: str):
        super().__init__(f"[{rule}] {message}")
        self.rule = rule
        self.message = message


class TileVerifyError(TileError):
    """A verifier rejected the IR: a rule of `tile.tma_copy` or, as
    [mlir-verifier], MLIR's own verifier of some op (the message names it)."""


class TileUsageError(TileError, TypeError):
    """The Python API got an argument it does not take: the wrong kind of
    value, an unknown name, MLIR text that does not parse. Also a TypeError,
    as most such mistakes are."""


# MLIR's own diagnostics carry no rule: an op's verifier starts with
# "'gpu.func' op ...", and the printed op follows in a note.
_OP_DIAGNOSTIC = re.compile(r"(?:custom op '[\w.$-]+' )?'([\w.$-]+)' op ")
_LOC = re.compile(r'loc\("[^"]*":(\d+):(\d+)\)')
_OP_NOTE = re.compile(r'see current operation: (?:%\S+ = )?"?([\w.$-]+)')


def from_diagnostic(text: str, cls=TileVerifyError, op: str | None = None) -> TileError:
    """Builds the error from a verifier diagnostic `... [rule] message`; one
    without a rule (an upstream verifier's) is [mlir-verifier], naming the op
    (`op` where the text does not)."""
    match = _RULE.search(text)
    if match:
        return cls(match.group(1), match.group(2).strip())
    if op is not None and not _OP_DIAGNOSTIC.match(text):
        text = f"'{op}' op {text}"
    return cls("mlir-verifier", text)


# MLIR verification failures. Kept free of an `mlir` import at module level:
# the runtime (which runs without MLIR) imports this module too.

def first_error_diagnostic(err):
    """The first error diagnostic of an `mlir.ir.MLIRError`, or None."""
    diagnostics = list(getattr(err, "error_diagnostics", None) or ())
    return diagnostics[0] if diagnostics else None


def _diagnosed_op(diagnostic) -> str | None:
    """The op a diagnostic's notes print ("see current operation: ...")."""
    for note in getattr(diagnostic, "notes", ()):
        match = _OP_NOTE.search(note.message)
        if match:
            return match.group(1)
    return None


def from_mlir_error(err, cls=TileVerifyError) -> TileError:
    """The rule-named error of an `mlir.ir.MLIRError`'s first diagnostic
    (the error's text when it carries none)."""
    first = first_error_diagnostic(err)
    if first is None:
        return from_diagnostic(str(err), cls)
    return from_diagnostic(first.message, cls, _diagnosed_op(first))


def parse_module(text: str, context):
    """`mlir.ir.Module.parse` with named errors: text that does not parse is
    a TileUsageError [mlir-syntax] with the parser's location; a module that
    parses but does not verify is the verifier's TileVerifyError."""
    import mlir.ir as ir

    try:
        return ir.Module.parse(text, context)
    except ir.MLIRError as err:
        first = first_error_diagnostic(err)
        message = first.message if first is not None else str(err)
        if _RULE.search(message) or _OP_DIAGNOSTIC.match(message):
            raise from_mlir_error(err) from None
        where = _LOC.match(str(first.location)) if first is not None else None
        where = f"line {where.group(1)}:{where.group(2)}: " if where else ""
        raise TileUsageError("mlir-syntax", f"{where}{message}") from None


def verify_operation(operation, erase_on_failure: bool = False) -> None:
    """Runs the verifier of `operation` (an Operation or OpView); a rejection
    raises TileVerifyError naming the rule. `erase_on_failure` removes the
    rejected op first, so it is not left behind in the IR being built."""
    import mlir.ir as ir

    operation = getattr(operation, "operation", operation)
    try:
        operation.verify()
    except ir.MLIRError as err:
        if erase_on_failure:
            operation.erase()
        raise from_mlir_error(err) from None
