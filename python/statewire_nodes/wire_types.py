"""Wire types a port may declare: the same list as Statewire's ``src/domain/flow/wireTypes.ts``.

A port type is ``T`` or ``LIST[T]``. ``ACTION`` is the deprecated alias of ``DISCRETE_ACTION``.
Unknown names are refused at declaration, so a typo fails when the service starts, not in a graph.
"""

from __future__ import annotations

import re

WIRE_TYPES = (
    "IMAGE",
    "DEPTH",
    "POSE",
    "DISCRETE_ACTION",
    "CONTROL",
    "TEXT",
    "BOOL",
    "METRICS",
    "ANY",
)
DEPRECATED_WIRE_TYPES = ("ACTION", "OBSERVATION", "STEP_RESULT")
EXTRA_WIRE_TYPES = ("OCCUPANCY_MAP", "POINTCLOUD", "EMBEDDING", "EPISODE_CONTEXT")
KNOWN_WIRE_TYPES = frozenset(WIRE_TYPES + DEPRECATED_WIRE_TYPES + EXTRA_WIRE_TYPES)

_LIST = re.compile(r"^LIST\[(.+)\]$")


def parse_wire_type(raw: str) -> tuple[str, bool]:
    """``(base, is_list)`` of a wire type string, canonicalised (upper case, ACTION → DISCRETE_ACTION)."""
    t = raw.strip().upper()
    m = _LIST.match(t)
    base = (m.group(1) if m else t).strip()
    if base == "ACTION":
        base = "DISCRETE_ACTION"
    return base, m is not None


def check_wire_type(raw: str, where: str) -> str:
    """Returns ``raw`` normalised (``LIST[T]`` or ``T``); raises ValueError naming ``where`` if unknown."""
    if not isinstance(raw, str) or not raw.strip():
        raise ValueError(f"{where}: wire type must be a non-empty string, got {raw!r}")
    base, is_list = parse_wire_type(raw)
    if base not in KNOWN_WIRE_TYPES:
        known = ", ".join(sorted(KNOWN_WIRE_TYPES))
        raise ValueError(f"{where}: unknown wire type {raw!r} (known: {known}; or LIST[T])")
    return f"LIST[{base}]" if is_list else base
