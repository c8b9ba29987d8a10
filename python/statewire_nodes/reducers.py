"""Slot reducers: the same folds as Statewire's ``src/domain/state/reducers.ts`` (``docs/value-encodings.md``).

A reducer never mutates ``current`` or ``update``; it returns a new value. Unknown reducer names
fold as ``lastWrite`` (the reference's behaviour; the container warns once at declaration).
``vectors/reducers.json`` and ``vectors/containers.json`` pin both sides to the same results.
"""

from __future__ import annotations

import copy
import json
import math
from typing import Any, Callable

import numpy as np

from .jsvalues import js_number


class ReducerError(ValueError):
    """A write the slot's reducer cannot fold (e.g. a non-number into a counter)."""


def _shown(v: Any) -> str:
    """A value in an error message as ``JSON.stringify`` shows it (the TS side's messages)."""
    try:
        return json.dumps(v, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError):
        return repr(v)


def deep_equal(a: Any, b: Any) -> bool:
    """Structural equality as the TS ``deepEqual``: NaN equals NaN, booleans are not numbers, dict key
    order does not count, and arrays are equal when dtype, shape and raw bytes are (as their
    ``{dtype, shape, data}`` values are in TypeScript: a -0.0 is not a 0.0 there)."""
    if isinstance(a, np.generic):
        a = a.item()
    if isinstance(b, np.generic):
        b = b.item()
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return (
            isinstance(a, np.ndarray)
            and isinstance(b, np.ndarray)
            and a.dtype.name == b.dtype.name
            and a.shape == b.shape
            and _le_bytes(a) == _le_bytes(b)
        )
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b or (isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b))
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(deep_equal(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(deep_equal(a[k], b[k]) for k in a)
    if type(a) is not type(b):
        return False
    return bool(a == b)


def _le_bytes(a: np.ndarray) -> bytes:
    return a.astype(a.dtype.newbyteorder("<"), copy=False).tobytes()


class Reducer:
    def __init__(self, initial: Callable[[dict], Any], reduce: Callable[[Any, Any, dict], Any]):
        self.initial = initial
        self.reduce = reduce


def _accumulate(current: Any, update: Any, config: dict) -> list:
    base = current if isinstance(current, list) else ([] if current is None else [current])
    nxt = [*base, update]
    max_size = config.get("max_size")
    if isinstance(max_size, int) and not isinstance(max_size, bool) and max_size > 0 and len(nxt) > max_size:
        nxt = nxt[len(nxt) - max_size :]
    return nxt


def _count(current: Any, update: Any, _config: dict) -> float | int:
    # JavaScript's Number() on both sides: "0x10" is 16, [7] is 7, true is 1, null is 0.
    c = js_number(current)
    u = js_number(update)
    if isinstance(u, float) and math.isnan(u):
        raise ReducerError(f"counter expects a number, got {_shown(update)}")
    return (0 if isinstance(c, float) and math.isnan(c) else c) + u


def _merge(current: Any, update: Any, _config: dict) -> dict:
    if not isinstance(update, dict):
        raise ReducerError(f"merge expects an object update, got {_shown(update)}")
    return {**(current if isinstance(current, dict) else {}), **update}


def _union(current: Any, update: Any, _config: dict) -> list:
    pool = current if isinstance(current, list) else []
    items = update if isinstance(update, list) else [update]
    nxt: list | None = None
    for item in items:
        existing = nxt if nxt is not None else pool
        if any(deep_equal(x, item) for x in existing):
            continue
        nxt = [*existing, item]
    return nxt if nxt is not None else pool


def by_key_fields(config: dict) -> dict:
    """The field policy of a byKey slot: ``{field: reducerName}``."""
    fields = config.get("fields")
    return fields if isinstance(fields, dict) else {}


def _field_reducer(name: str) -> Reducer:
    # byKey does not nest; a nested byKey field folds as lastWrite.
    return REDUCERS["lastWrite"] if name == "byKey" else get_reducer(name)


def _by_key_initial(config: dict) -> dict:
    return {field: _field_reducer(r).initial({}) for field, r in by_key_fields(config).items()}


def _by_key(current: Any, update: Any, config: dict) -> dict:
    fields = by_key_fields(config)
    if not isinstance(update, dict):
        raise ReducerError(f"byKey expects an object update {{field: value}}, got {_shown(update)}")
    base = current if isinstance(current, dict) else _by_key_initial(config)
    nxt = dict(base)
    for field, value in update.items():
        if field not in fields:
            declared = ", ".join(fields) or "none"
            raise ReducerError(f"byKey: write to undeclared field '{field}' (declared fields: {declared})")
        red = _field_reducer(fields[field])
        cur = base[field] if field in base else red.initial({})
        nxt[field] = red.reduce(cur, value, {})
    return nxt


REDUCERS: dict[str, Reducer] = {
    "accumulator": Reducer(lambda _c: [], _accumulate),
    "lastWrite": Reducer(lambda _c: None, lambda _cur, update, _c: update),
    "counter": Reducer(lambda _c: 0, _count),
    "merge": Reducer(lambda _c: {}, _merge),
    "union": Reducer(lambda _c: [], _union),
    "byKey": Reducer(_by_key_initial, _by_key),
}


def is_known_reducer(name: str) -> bool:
    return name in REDUCERS


def get_reducer(name: str) -> Reducer:
    return REDUCERS.get(name, REDUCERS["lastWrite"])


def initial_value(reducer: str, config: dict) -> Any:
    """A deep copy of ``config['initial_value']`` when present, else the reducer's initial value."""
    if "initial_value" in config:
        return copy.deepcopy(config["initial_value"])
    return get_reducer(reducer).initial(config)


def reduce(reducer: str, current: Any, update: Any, config: dict) -> Any:
    return get_reducer(reducer).reduce(current, update, config)
