"""The values a debug build records for a fault of tile.tensormap_derive
(docs/device-tensor-maps.md): which replaced field, its axis, the value's
two 32-bit halves, and the multiple or bound the rule asks for
(passes/lib/Conversion/LowerTensorMapDerive.h, DeriveFaultField)."""

from __future__ import annotations

FIELDS = ("destination", "staging", "new_address", "new_dims", "new_strides")
# The rules a derivation records; the same names can come from copies
# (global-* never do), so the site says which it was.
RULES = ("tensormap-alignment", "global-base-alignment", "global-dim-range",
         "global-stride-alignment", "global-stride-range")


def describe(rule: str, v: list) -> tuple[dict, str] | None:
    """(values by name, message) of a derivation's record, or None when
    `rule` is not one a derivation records."""
    if rule not in RULES:
        return None
    field = FIELDS[v[0]] if v[0] < len(FIELDS) else f"field {v[0]}"
    value = v[2] | (v[3] << 32)
    d = {"field": field, "axis": v[1], "value": value, "bound": v[4]}
    what = field if field in ("destination", "staging", "new_address") \
        else f"{field}[{v[1]}]"
    if rule == "global-dim-range":
        text = f"{what} = {value} is outside 1..2^32"
    elif rule == "global-stride-range":
        text = f"{what} = {value} bytes is not below 2^{v[4]}"
    else:
        unit = " bytes" if field == "new_strides" else ""
        shown = f"{value}{unit}" if field == "new_strides" else f"{value:#x}"
        text = f"{what} = {shown} is not a multiple of {v[4]}"
    return d, (f"{text}; the map was not written and no copy through a derived "
               "map was issued after it")
