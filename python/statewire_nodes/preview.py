"""Slot previews: the rules of Statewire's ``src/domain/preview.ts`` (REFERENCE 3.8 ``get_preview``).

list → ``size`` + the first 3 items; number/bool → ``value``; string → first 100 chars + ``...``;
None → ``"null"``; other → first 100 chars of its JSON text. A keyed slot shows the key count and the
first key's value prefixed ``[<key>] ``. Text is rendered as JavaScript would (``1`` not ``1.0``,
``true`` not ``True``) so a preview reads the same whichever side produced it. A numpy array shows
its dtype and shape plus the first values, since its full text could be megabytes.
"""

from __future__ import annotations

import json
import math
from typing import Any

import numpy as np

MAX_TEXT = 100


def js_number(x: float | int) -> str:
    if isinstance(x, bool):
        return "true" if x else "false"
    if isinstance(x, int):
        return str(x)
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "Infinity" if x > 0 else "-Infinity"
    if x.is_integer() and abs(x) < 1e21:
        return str(int(x))
    return repr(x)


def _array_text(a: np.ndarray) -> str:
    head = a.reshape(-1)[:3].tolist()
    items = ", ".join(bounded_json(v) for v in head)
    more = ", ..." if a.size > 3 else ""
    return f"ndarray {a.dtype.name} {list(a.shape)} [{items}{more}]"


def bounded_json(v: Any, limit: int = MAX_TEXT + 1) -> str:
    """JSON text of ``v`` that stops once ``limit`` characters are produced (no full serialisation)."""
    out: list[str] = []
    size = 0
    seen: list[int] = []

    def emit(s: str) -> None:
        nonlocal size
        out.append(s)
        size += len(s)

    def write(x: Any) -> None:
        if size > limit:
            return
        if isinstance(x, np.generic) and not isinstance(x, np.ndarray):
            x = x.item()
        if x is None:
            emit("null")
        elif isinstance(x, (bool, int, float)):
            emit(js_number(x))
        elif isinstance(x, str):
            emit(json.dumps(x, ensure_ascii=False))
        elif isinstance(x, np.ndarray):
            emit(json.dumps(_array_text(x)))
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
            for k, val in x.items():
                if size > limit:
                    break
                emit(("" if first else ",") + json.dumps(str(k), ensure_ascii=False) + ":")
                first = False
                write(val)
            emit("}")
            seen.pop()
        else:
            emit(json.dumps(str(x)))

    write(v)
    return "".join(out)


def _truncate(s: str) -> str:
    return s[:MAX_TEXT] + "..." if len(s) > MAX_TEXT else s


def preview_value(v: Any) -> dict:
    if isinstance(v, np.generic) and not isinstance(v, np.ndarray):
        v = v.item()
    if isinstance(v, (list, tuple)):
        head = ", ".join(bounded_json(x) for x in v[:3])
        return {"size": len(v), "preview": f"[{head}{', ...' if len(v) > 3 else ''}]"}
    if isinstance(v, float) and not math.isfinite(v):
        # JSON has no NaN/Infinity; the text form survives both encodings.
        return {"preview": js_number(v)}
    if isinstance(v, (bool, int, float)):
        return {"value": v}
    if isinstance(v, str):
        return {"preview": _truncate(v)}
    if v is None:
        return {"preview": "null"}
    if isinstance(v, np.ndarray):
        return {"preview": _truncate(_array_text(v))}
    return {"preview": _truncate(bounded_json(v))}


def preview_keyed(keyed: dict) -> dict:
    """Preview of a keyed slot: the key count plus the first key's value rendered with a ``[key] `` prefix."""
    if not keyed:
        return {"keys": 0, "preview": "null"}
    first = next(iter(keyed))
    p = preview_value(keyed[first])
    shown = p["preview"] if "preview" in p else js_number(p["value"])
    out = {"keys": len(keyed), "preview": f"[{first}] {shown}"}
    if "size" in p:
        out["size"] = p["size"]
    return out
