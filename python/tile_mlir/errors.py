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
