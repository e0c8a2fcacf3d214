"""Errors that carry the name of the contract rule they enforce."""

from __future__ import annotations

import re

_RULE = re.compile(r"\[([a-z0-9-]+)\]\s*(.*)", re.S)


class TileError(ValueError):
    """A rejected copy: `rule` is the name listed in docs/rules.md."""

    def __init__(self, rule: str, message: str):
        super().__init__(f"[{rule}] {message}")
        self.rule = rule
        self.message = message


class TileVerifyError(TileError):
    """The verifier of `tile.tma_copy` rejected the op."""


def from_diagnostic(text: str, cls=TileVerifyError) -> TileError:
    """Builds the error from a verifier diagnostic `... [rule] message`."""
    match = _RULE.search(text)
    if not match:
        return cls("unnamed", text)
    return cls(match.group(1), match.group(2).strip())


# MLIR verification failures. Kept free of an `mlir` import at module level:
# the runtime (which runs without MLIR) imports this module too.

def first_error_diagnostic(err):
    """The first error diagnostic of an `mlir.ir.MLIRError`, or None."""
    diagnostics = list(getattr(err, "error_diagnostics", None) or ())
    return diagnostics[0] if diagnostics else None


def from_mlir_error(err, cls=TileVerifyError) -> TileError:
    """The rule-named error of an `mlir.ir.MLIRError`'s first diagnostic
    (the error's text when it carries none)."""
    first = first_error_diagnostic(err)
    return from_diagnostic(first.message if first is not None else str(err), cls)


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
