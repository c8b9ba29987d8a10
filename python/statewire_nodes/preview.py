"""Slot previews: the rules of Statewire's ``src/domain/state/preview.ts`` (``docs/value-encodings.md``).

list → ``size`` + the first 3 items; finite number/bool → ``value``; NaN/Infinity → their text;
string → first 100 characters + ``...``; None → ``"null"``; an array → ``ndarray <dtype> [<shape>]``;
bytes → ``<n bytes>``; other → first 100 characters of its JSON text. A keyed slot shows the key
count and the first key's value prefixed ``[<key>] ``. Text is rendered as JavaScript renders it
(``1`` not ``1.0``, ``true`` not ``True``, keys in ``Object.keys`` order, lengths in UTF-16 units) so
a preview reads the same whichever side produced it; ``vectors/previews.json`` pins both sides.
"""

from __future__ import annotations

import json
import math
from typing import Any

import numpy as np

from .jsvalues import js_key_order, number_text, utf16_len, utf16_prefix

MAX_TEXT = 100


def array_text(a: np.ndarray) -> str:
    """What an array is, not its bytes: ``ndarray float32 [2, 3]``."""
    return f"ndarray {a.dtype.name} [{', '.join(str(n) for n in a.shape)}]"


def bounded_json(v: Any, limit: int = MAX_TEXT + 1) -> str:
    """JSON text of ``v`` that stops once ``limit`` characters are produced (no full serialisation)."""
    out: list[str] = []
    size = 0
    seen: list[int] = []

    def emit(s: str) -> None:
        nonlocal size
        out.append(s)
        size += utf16_len(s)

    def write(x: Any) -> None:
        if size > limit:
            return
        if isinstance(x, np.generic):
            x = x.item()
        if x is None:
            emit("null")
        elif isinstance(x, (bool, int, float)):
            emit(number_text(x))
        elif isinstance(x, str):
            emit(json.dumps(x, ensure_ascii=False))
        elif isinstance(x, np.ndarray):
            emit(json.dumps(array_text(x)))
        elif isinstance(x, (bytes, bytearray)):
            emit(json.dumps(f"<{len(x)} bytes>"))
        elif id(x) in seen:
            emit('"[circular]"')
        elif isinstance(x, (list, tuple, set, frozenset)):
            seen.append(id(x))
            emit("[")
            for i, item in enumerate(x):
                if size > limit:
                    break
                if i > 0:
                    emit(",")
                write(item)
            emit("]")
            seen.pop()
        elif isinstance(x, dict):
            seen.append(id(x))
            emit("{")
            first = True
            for k in js_key_order(x):
                if size > limit:
                    break
                emit(("" if first else ",") + json.dumps(str(k), ensure_ascii=False) + ":")
                first = False
                write(x[k])
            emit("}")
            seen.pop()
        else:
            emit(json.dumps(str(x), ensure_ascii=False))

    write(v)
    return "".join(out)


def _truncate(s: str) -> str:
    # Cut at 100 UTF-16 units (JavaScript's length) but never inside a surrogate pair.
    if len(s) <= MAX_TEXT // 2 or utf16_len(s) <= MAX_TEXT:
        return s
    return utf16_prefix(s, MAX_TEXT) + "..."


def preview_value(v: Any) -> dict:
    if isinstance(v, np.generic):
        v = v.item()
    if isinstance(v, np.ndarray):
        return {"preview": array_text(v)}
    if isinstance(v, (bytes, bytearray)):
        return {"preview": f"<{len(v)} bytes>"}
    if isinstance(v, (list, tuple, set, frozenset)):
        items = list(v)
        head = ", ".join(bounded_json(x) for x in items[:3])
        return {"size": len(items), "preview": f"[{head}{', ...' if len(items) > 3 else ''}]"}
    if isinstance(v, float) and not math.isfinite(v):
        # Neither JSON nor the live stream carries NaN/Infinity; their text survives both.
        return {"preview": number_text(v)}
    if isinstance(v, (bool, int, float)):
        return {"value": v}
    if isinstance(v, str):
        return {"preview": _truncate(v)}
    if v is None:
        return {"preview": "null"}
    return {"preview": _truncate(bounded_json(v))}


def preview_keyed(keyed: dict) -> dict:
    """Preview of a keyed slot: the key count plus the first key's value rendered with a ``[key] `` prefix."""
    if not keyed:
        return {"keys": 0, "preview": "null"}
    first = js_key_order(keyed)[0]
    p = preview_value(keyed[first])
    shown = p["preview"] if "preview" in p else number_text(p["value"])
    out = {"keys": len(keyed), "preview": f"[{first}] {shown}"}
    if "size" in p:
        out["size"] = p["size"]
    return out
