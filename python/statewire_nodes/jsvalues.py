"""JavaScript's value semantics, where Statewire's TypeScript side gets them for free.

A slot folded here must fold as Statewire folds it, and a preview must read the same whichever side
made it, so four JavaScript rules are spelled out once (the shared test vectors in ``vectors/`` pin
each of them on both sides; ``docs/value-encodings.md`` describes them):

- ``js_number(v)``: ``Number(v)`` (what a ``counter`` slot makes of ``"0x10"``, ``[7]`` or ``true``);
- ``number_text(x)``: ``String(x)`` for a number (``1`` not ``1.0``, ``1e-7``, ``1e+21``);
- ``js_key_order(d)``: the order of ``Object.keys`` (integer-like keys first, ascending);
- ``utf16_len(s)``: ``s.length``, which counts UTF-16 code units (an emoji is 2).
"""

from __future__ import annotations

import math
import re
from typing import Any, Iterable

import numpy as np

# The characters JavaScript's StringToNumber trims (WhiteSpace and LineTerminator).
_JS_SPACE = (
    " \t\n\v\f\r\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
    "\u2028\u2029\u202f\u205f\u3000\ufeff"
)
_DECIMAL = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
_RADIX = {"x": (16, re.compile(r"[0-9a-fA-F]+")), "o": (8, re.compile(r"[0-7]+")), "b": (2, re.compile(r"[01]+"))}
_INFINITY = {"Infinity": math.inf, "+Infinity": math.inf, "-Infinity": -math.inf}
_ARRAY_INDEX = re.compile(r"0|[1-9][0-9]*")
_DIGITS = frozenset("0123456789")
_STARTS_WITH_DIGIT = re.compile(r"\x00[0-9]")  # in "\0" + "\0".join(keys); a literal start scans fast
_MAX_ARRAY_INDEX = 2**32 - 2
_MAX_EXACT_INT = 2**53


def _string_to_number(text: str) -> float | int:
    s = text.strip(_JS_SPACE)
    if s == "":
        return 0
    if s in _INFINITY:
        return _INFINITY[s]
    if len(s) > 2 and s[0] == "0" and s[1].lower() in _RADIX:
        base, digits = _RADIX[s[1].lower()]
        return int(s[2:], base) if digits.fullmatch(s[2:]) else math.nan
    if not _DECIMAL.fullmatch(s):
        return math.nan
    f = float(s)
    return int(f) if f.is_integer() and "." not in s and "e" not in s.lower() else f


def js_number(v: Any) -> float | int:
    """JavaScript's ``Number(v)`` for the values a slot can hold; ``nan`` where JavaScript gives NaN."""
    if isinstance(v, np.generic) and np.ndim(v) == 0:
        v = v.item()
    if isinstance(v, bool):
        return int(v)
    if isinstance(v, (int, float)):
        return v
    if v is None:
        return 0
    if isinstance(v, str):
        return _string_to_number(v)
    if isinstance(v, (list, tuple)):
        # Number([]) is 0 and Number([x]) is Number(String(x)); two or more items join with "," (NaN).
        if len(v) == 0:
            return 0
        if len(v) == 1:
            item = v[0]
            if item is None:
                return 0
            if isinstance(item, (str, list, tuple)) or (isinstance(item, (int, float)) and not isinstance(item, bool)):
                return js_number(item)
        return math.nan
    return math.nan  # objects, arrays of numbers, bytes: "[object Object]" and the like


def _shortest_digits(x: float) -> tuple[str, int]:
    """``(digits, n)`` with ``x == 0.<digits> * 10**n``: the shortest digits that round-trip (``repr``'s)."""
    mantissa, _, exponent = repr(x).partition("e")
    whole, _, fraction = mantissa.partition(".")
    digits = whole + fraction
    n = len(whole) + (int(exponent) if exponent else 0)
    significant = digits.lstrip("0")
    n -= len(digits) - len(significant)
    return significant.rstrip("0"), n


def number_text(x: float | int | bool) -> str:
    """JavaScript's ``String(x)`` for a number (Number::toString, radix 10)."""
    if isinstance(x, bool):
        return "true" if x else "false"
    if isinstance(x, int):
        if abs(x) <= _MAX_EXACT_INT:
            return str(x)
        try:
            x = float(x)  # JavaScript has only doubles; past 2**53 it shows the nearest one
        except OverflowError:
            return "Infinity" if x > 0 else "-Infinity"
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "Infinity" if x > 0 else "-Infinity"
    if x == 0:
        return "0"  # also for -0
    sign = "-" if x < 0 else ""
    digits, n = _shortest_digits(abs(x))
    k = len(digits)
    if k <= n <= 21:
        return sign + digits + "0" * (n - k)
    if 0 < n <= 21:
        return sign + digits[:n] + "." + digits[n:]
    if -6 < n <= 0:
        return sign + "0." + "0" * (-n) + digits
    e = n - 1
    exp = f"e{'+' if e >= 0 else '-'}{abs(e)}"
    return sign + (digits if k == 1 else digits[0] + "." + digits[1:]) + exp


def _index_of(key: Any) -> int | None:
    """The array index a key names (``"17"``, or a Python int key), else None."""
    if isinstance(key, bool):
        return None
    if isinstance(key, int):
        key = str(key)
    elif not (isinstance(key, str) and key[:1] in _DIGITS):
        return None
    if _ARRAY_INDEX.fullmatch(key) and int(key) <= _MAX_ARRAY_INDEX:
        return int(key)
    return None


def js_key_order(keys: Iterable[Any]) -> list:
    """Keys in ``Object.keys`` order: array-index keys (``"0"``, ``"17"``) ascending, then the rest as given."""
    keys = list(keys)
    try:
        # The common case, a big map none of whose keys starts with a digit, at C speed: previews run
        # on every call answer and must not walk 100k keys in Python.
        if not _STARTS_WITH_DIGIT.search("\x00" + "\x00".join(keys)):
            return keys
    except TypeError:
        pass  # a key that is not a string (a Python int): the walk below
    indexed: list[tuple[int, Any]] = []
    named: list[Any] = []
    for k in keys:
        i = _index_of(k)
        if i is None:
            named.append(k)
        else:
            indexed.append((i, k))
    if not indexed:
        return named
    indexed.sort(key=lambda pair: pair[0])
    return [k for _, k in indexed] + named


def utf16_len(s: str) -> int:
    """JavaScript's ``s.length``: characters outside the Basic Multilingual Plane count twice."""
    if s.isascii():
        return len(s)
    return len(s) + sum(1 for ch in s if ord(ch) > 0xFFFF)


def utf16_prefix(s: str, units: int) -> str:
    """The longest prefix of ``s`` within ``units`` UTF-16 code units that does not split a pair."""
    if s.isascii():
        return s[:units]
    used = 0
    for i, ch in enumerate(s):
        used += 2 if ord(ch) > 0xFFFF else 1
        if used > units:
            return s[:i]
    return s
