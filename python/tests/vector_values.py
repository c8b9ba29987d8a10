"""The vectors' typed-value notation (vectors/README.md) as Python values, and the one equality
every vector is checked with. ``vectors/typedValues.ts`` is the same for TypeScript."""

from __future__ import annotations

import math
from typing import Any

import msgpack
import numpy as np

_SPECIAL_FLOATS = {"NaN": math.nan, "Infinity": math.inf, "-Infinity": -math.inf, "-0": -0.0}


def _ndarray(x: dict) -> np.ndarray:
    # Built by hand, not by the codec: the expected side must not lean on the code under test.
    dtype = np.dtype(x["dtype"]).newbyteorder("<")
    raw = bytes.fromhex(x["hex"])
    return np.frombuffer(raw, dtype=dtype).reshape(x["shape"]).astype(dtype.newbyteorder("="))


def _pil(x: dict) -> Any:
    from PIL import Image

    img = Image.fromarray(revive(x["array"]))
    assert img.mode == x["mode"], f"$pil: the array makes a {img.mode} image, not {x['mode']}"
    return img


_TAGS = {
    "$ndarray": _ndarray,
    "$bytes": bytes.fromhex,
    "$float": lambda x: _SPECIAL_FLOATS[x] if isinstance(x, str) else float(x),
    "$set": lambda x: {revive(i) for i in x},
    "$tuple": lambda x: tuple(revive(i) for i in x),
    "$numpy": lambda x: np.dtype(x["dtype"]).type(x["value"]),
    "$entries": lambda x: {k: revive(v) for k, v in x},
    "$pil": _pil,
    "$ext": lambda x: msgpack.ExtType(x["type"], bytes.fromhex(x["hex"])),
}


def revive(v: Any) -> Any:
    """A vector's JSON value as the value it stands for."""
    if isinstance(v, list):
        return [revive(x) for x in v]
    if isinstance(v, dict):
        if len(v) == 1:
            ((k, x),) = v.items()
            if k.startswith("$"):
                if k not in _TAGS:
                    raise ValueError(f"unknown typed-value tag {k} (vectors/README.md lists them)")
                return _TAGS[k](x)
        return {k: revive(x) for k, x in v.items()}
    return v


def _le_bytes(a: np.ndarray) -> bytes:
    return a.astype(a.dtype.newbyteorder("<"), copy=False).tobytes()


def same(a: Any, b: Any) -> bool:
    """Wire equality: what a receiver on either side can tell apart. Numbers by value (JavaScript has
    one number type; NaN equals NaN), booleans apart from numbers, dict keys in any order, arrays by
    dtype, shape and raw bytes. Deliberately not ``reducers.deep_equal``, which the vectors check: a
    checker must not be the code it checks (and this one also knows bytes and ext types)."""
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return (
            isinstance(a, np.ndarray)
            and isinstance(b, np.ndarray)
            and a.dtype.name == b.dtype.name
            and a.shape == b.shape
            and _le_bytes(a) == _le_bytes(b)
        )
    if isinstance(a, msgpack.ExtType) or isinstance(b, msgpack.ExtType):
        return isinstance(a, msgpack.ExtType) and isinstance(b, msgpack.ExtType) and a == b
    if isinstance(a, (bytes, bytearray)) or isinstance(b, (bytes, bytearray)):
        return isinstance(a, (bytes, bytearray)) and isinstance(b, (bytes, bytearray)) and a == b
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b or (math.isnan(a) and math.isnan(b))
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    return type(a) is type(b) and a == b


def shown(v: Any) -> str:
    """Readable text of a value for a failure message."""
    if isinstance(v, np.ndarray):
        return f"ndarray({v.dtype.name}, {list(v.shape)}, {_le_bytes(v).hex()})"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{k!r}: {shown(x)}" for k, x in v.items()) + "}"
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(shown(x) for x in v) + "]"
    return repr(v)
