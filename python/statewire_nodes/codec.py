"""The two body encodings of the node-service protocol (``docs/value-encodings.md``).

msgpack (``application/msgpack``): one map, ``use_bin_type``; numpy arrays ride ext type 1 ("blob"):
1 byte tag (0 ndarray, 1 torch tensor, 2 PIL image), 4-byte big-endian length m, m bytes of a msgpack
map ``{dtype, shape, mode?}``, then the raw bytes (little-endian unless the dtype says ``>``). Tags 1
and 2 decode as plain arrays.

JSON (``application/json``): an ``IMAGE`` port value that is a uint8 H×W, H×W×1, H×W×3 or H×W×4
array travels as a base64 PNG string; any other array, anywhere in a value (``LIST[IMAGE]`` items
too), as ``{"__ndarray__": base64 of the raw little-endian bytes, "dtype", "shape"}``. JSON has no
NaN and no bytes, so either is an error naming where it is (msgpack carries both).

Both: numpy scalars become plain numbers, sets and tuples become lists. Arrays travel in the dtypes
Statewire has (``DTYPES``). ``vectors/msgpack.json``, ``json-wire.json`` and ``png.json`` pin this
module and Statewire's ``src/server/services/wireCodec.ts`` to the same bytes and values.
"""

from __future__ import annotations

import base64
import json
import math
import re
from typing import Any

import msgpack
import numpy as np

from .jsvalues import number_text
from .png import PngError, decode_png, encode_png, png_able
from .wire_types import parse_wire_type

MSGPACK = "application/msgpack"
JSON = "application/json"
BLOB_EXT = 1
TAG_NDARRAY, TAG_TORCH, TAG_PIL = 0, 1, 2
# The array dtypes Statewire holds (src/domain/services/ndarray.ts DTYPES); no others travel.
DTYPES = (
    "uint8",
    "int8",
    "uint16",
    "int16",
    "uint32",
    "int32",
    "int64",
    "uint64",
    "float16",
    "float32",
    "float64",
    "bool",
)
_DTYPE_CODE = re.compile(r"([<>|=]?)([uifb])([0-9])")  # numpy's dtype.str: "<f4", "|u1", ">i8"
_CODE_KIND = {"u": "uint", "i": "int", "f": "float"}
_BASE64 = re.compile(r"(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?")
_PNG_DATA_URL = "data:image/png;base64,"


class CodecError(ValueError):
    """A body or value that cannot be encoded or decoded; the message says what and where."""


def wants_msgpack(content_type: str | None) -> bool:
    return "msgpack" in (content_type or "").lower()


def _as_array(obj: Any) -> np.ndarray | None:
    """numpy arrays, and array-likes a handler may return (PIL images, CPU torch tensors)."""
    if isinstance(obj, np.ndarray):
        return obj
    if isinstance(obj, np.generic):  # numpy scalars have an array interface too; they travel as numbers
        return None
    if hasattr(obj, "detach") and hasattr(obj, "numpy"):  # a torch tensor, without importing torch
        return obj.detach().cpu().numpy()
    if hasattr(obj, "__array_interface__"):
        return np.asarray(obj)
    return None


def _json_text(v: Any) -> str:
    """A value in an error message as ``JSON.stringify`` shows it (the TS side's messages)."""
    try:
        return json.dumps(v, separators=(",", ":"), ensure_ascii=False)
    except (TypeError, ValueError):
        return repr(v)


def _little_endian(a: np.ndarray, where: str) -> np.ndarray:
    if a.dtype.name not in DTYPES:
        raise CodecError(f"{where}: arrays of dtype {a.dtype} cannot travel (one of {', '.join(DTYPES)})")
    if not a.flags.c_contiguous:
        a = a.copy(order="C")  # not np.ascontiguousarray: it turns a 0-d array into shape [1]
    if a.dtype.byteorder == ">" or (a.dtype.byteorder == "=" and np.little_endian is False):
        a = a.astype(a.dtype.newbyteorder("<"))
    return a


def wire_dtype(raw: Any) -> np.dtype | None:
    """The dtype a wire header names (``float32``, ``<f4``, ``|u1``, ``bool_``; ``>`` = big-endian bytes)."""
    if not isinstance(raw, str):
        return None
    text = raw.strip().lower()
    if text in DTYPES:
        return np.dtype(text).newbyteorder("<")
    if text == "bool_":
        return np.dtype(bool)
    m = _DTYPE_CODE.fullmatch(text)
    if not m:
        return None
    order, kind, size = m.groups()
    name = ("bool" if size == "1" else None) if kind == "b" else f"{_CODE_KIND[kind]}{int(size) * 8}"
    if name not in DTYPES:
        return None
    return np.dtype(name).newbyteorder(">" if order == ">" else "<")


def _shape(raw: Any) -> list[int] | None:
    """A list of non-negative integers (an integral float counts: JavaScript has no other kind)."""
    if not isinstance(raw, (list, tuple)):
        return None
    shape = []
    for n in raw:
        if isinstance(n, bool) or not isinstance(n, (int, float)) or n < 0:
            return None
        if isinstance(n, float) and not n.is_integer():
            return None
        shape.append(int(n))
    return shape


def _array_from(raw: memoryview | bytes, dtype: Any, shape: Any, where: str) -> np.ndarray:
    dt = wire_dtype(dtype)
    if dt is None:
        raise CodecError(f"{where}: unsupported array dtype {_json_text(dtype)}")
    dims = _shape(shape)
    if dims is None:
        raise CodecError(f"{where}: array shape must be a list of non-negative integers, got {_json_text(shape)}")
    expected = math.prod(dims) * dt.itemsize
    if len(raw) != expected:
        raise CodecError(
            f"{where}: array of dtype {dt.name} and shape [{', '.join(map(str, dims))}] "
            f"needs {expected} bytes, got {len(raw)}"
        )
    # A copy in native order: frombuffer over immutable bytes is read-only, and handlers may write
    # into their inputs.
    return np.frombuffer(raw, dtype=dt).reshape(dims).astype(dt.newbyteorder("="), copy=True)


# ── msgpack ────────────────────────────────────────────────────────────────────────────────────


def encode_blob(a: np.ndarray, tag: int = TAG_NDARRAY) -> msgpack.ExtType:
    a = _little_endian(a, "array")
    meta = msgpack.packb({"dtype": a.dtype.name, "shape": list(a.shape)}, use_bin_type=True)
    return msgpack.ExtType(BLOB_EXT, bytes([tag]) + len(meta).to_bytes(4, "big") + meta + a.tobytes())


def decode_blob(data: bytes) -> np.ndarray:
    if len(data) < 5:
        raise CodecError(f"blob ext: a {len(data)}-byte payload is shorter than its 5-byte header")
    tag = data[0]
    if tag not in (TAG_NDARRAY, TAG_TORCH, TAG_PIL):
        raise CodecError(f"blob ext: unknown tag {tag} (0 ndarray, 1 torch, 2 PIL)")
    m = int.from_bytes(data[1:5], "big")
    if 5 + m > len(data):
        raise CodecError(f"blob ext: header length {m} runs past the {len(data)}-byte payload")
    meta = msgpack.unpackb(data[5 : 5 + m], raw=False)
    if not isinstance(meta, dict):
        raise CodecError("blob ext: header is not a map")
    return _array_from(memoryview(data)[5 + m :], meta.get("dtype"), meta.get("shape"), "blob ext")


def _pack_default(obj: Any) -> Any:
    arr = _as_array(obj)
    if arr is not None:
        return encode_blob(arr)
    if isinstance(obj, np.generic):
        return obj.item()
    if isinstance(obj, (set, frozenset)):
        return list(obj)
    raise TypeError(f"cannot encode a value of type {type(obj).__name__} as msgpack")


def _ext_hook(code: int, data: bytes) -> Any:
    return decode_blob(data) if code == BLOB_EXT else msgpack.ExtType(code, data)


def pack(obj: Any) -> bytes:
    try:
        return msgpack.packb(obj, use_bin_type=True, default=_pack_default)
    except TypeError as e:
        raise CodecError(str(e)) from None


def unpack(raw: bytes) -> Any:
    try:
        return msgpack.unpackb(raw, raw=False, ext_hook=_ext_hook, strict_map_key=False)
    except CodecError:
        raise
    except Exception as e:  # msgpack raises several unrelated types for malformed input
        raise CodecError(f"body is not valid msgpack: {e}") from None


# ── JSON ───────────────────────────────────────────────────────────────────────────────────────


def _ndarray_json(a: np.ndarray, where: str) -> dict:
    a = _little_endian(a, where)
    return {"__ndarray__": base64.b64encode(a.tobytes()).decode("ascii"), "dtype": a.dtype.name, "shape": list(a.shape)}


def _base64(s: str) -> bytes | None:
    """Standard padded base64 only (what both sides write); None for anything else."""
    return base64.b64decode(s) if _BASE64.fullmatch(s) else None


def to_json_value(v: Any, wire_type: str | None = None, where: str = "value") -> Any:
    """A value made JSON-safe; ``wire_type`` (the port's) turns an ``IMAGE`` array into a base64 PNG."""
    arr = _as_array(v)
    if arr is not None:
        if wire_type and parse_wire_type(wire_type) == ("IMAGE", False) and png_able(arr):
            return base64.b64encode(encode_png(arr)).decode("ascii")
        return _ndarray_json(arr, where)
    if isinstance(v, np.generic):
        v = v.item()
    if isinstance(v, float) and not math.isfinite(v):
        raise CodecError(f"{where}: {number_text(v)} has no JSON form (use the msgpack encoding)")
    if v is None or isinstance(v, (bool, int, float, str)):
        return v
    if isinstance(v, dict):
        return {str(k): to_json_value(x, None, f"{where}.{k}") for k, x in v.items()}
    if isinstance(v, (list, tuple, set, frozenset)):
        return [to_json_value(x, None, f"{where}[{i}]") for i, x in enumerate(v)]
    if isinstance(v, (bytes, bytearray, memoryview)):
        raise CodecError(f"{where}: bytes have no JSON form (use the msgpack encoding)")
    raise CodecError(f"{where}: a value of type {type(v).__name__} has no JSON form")


def png_string_to_array(s: str, where: str) -> np.ndarray:
    """An IMAGE port's base64 PNG (optionally a ``data:image/png;base64,`` URL) as a uint8 array."""
    data = _base64(s[len(_PNG_DATA_URL) :] if s.startswith(_PNG_DATA_URL) else s)
    try:
        if data is None:
            raise PngError("not valid base64")
        return decode_png(data)
    except PngError as e:
        raise CodecError(f"{where}: not a base64 PNG ({e})") from None


def from_json_value(v: Any, wire_type: str | None = None, where: str = "value") -> Any:
    """Inverse of ``to_json_value``: ``__ndarray__`` maps anywhere; on an ``IMAGE`` port a string is a PNG."""
    if isinstance(v, str) and wire_type and parse_wire_type(wire_type) == ("IMAGE", False):
        return png_string_to_array(v, where)
    if isinstance(v, dict):
        marker = v.get("__ndarray__")
        if isinstance(marker, str):
            raw = _base64(marker)
            if raw is None:
                raise CodecError(f"{where}: __ndarray__ is not valid base64")
            return _array_from(raw, v.get("dtype"), v.get("shape"), where)
        return {k: from_json_value(x, None, f"{where}.{k}") for k, x in v.items()}
    if isinstance(v, list):
        return [from_json_value(x, None, f"{where}[{i}]") for i, x in enumerate(v)]
    return v


def dumps_json(obj: Any) -> bytes:
    """``obj`` must already be JSON-safe (see ``to_json_value``)."""
    return json.dumps(obj, separators=(",", ":"), allow_nan=False, ensure_ascii=False).encode("utf-8")


def loads_json(raw: bytes) -> Any:
    try:
        return json.loads(raw)
    except (ValueError, UnicodeDecodeError) as e:
        raise CodecError(f"body is not valid JSON: {e}") from None
