"""The two body encodings of the node-service protocol (NODE-SERVICES.md "Encodings").

msgpack (``application/msgpack``): one map, ``use_bin_type``; numpy arrays ride ext type 1 ("blob"):
1 byte tag (0 ndarray, 1 torch tensor, 2 PIL image), 4-byte big-endian length m, m bytes of a msgpack
map ``{dtype, shape, mode?}``, then the raw little-endian bytes. Tags 1 and 2 decode as plain arrays.

JSON (``application/json``): an ``IMAGE`` port value that is a uint8 H×W, H×W×1, H×W×3 or H×W×4
array travels as a base64 PNG string; any other array, anywhere in a value, as
``{"__ndarray__": base64 of the raw little-endian bytes, "dtype", "shape"}``. JSON has no NaN, so a
non-finite float is an error naming where it is (msgpack carries it).

Both: numpy scalars become plain numbers, sets and tuples become lists.
"""

from __future__ import annotations

import base64
import io
import json
import math
from typing import Any

import msgpack
import numpy as np

from .wire_types import parse_wire_type

MSGPACK = "application/msgpack"
JSON = "application/json"
BLOB_EXT = 1
TAG_NDARRAY, TAG_TORCH, TAG_PIL = 0, 1, 2
_NUMERIC_KINDS = "biufc"


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


def _little_endian(a: np.ndarray, where: str) -> np.ndarray:
    if a.dtype.kind not in _NUMERIC_KINDS:
        raise CodecError(f"{where}: arrays of dtype {a.dtype} cannot travel (numeric and bool dtypes only)")
    a = np.ascontiguousarray(a)
    if a.dtype.byteorder == ">" or (a.dtype.byteorder == "=" and np.little_endian is False):
        a = a.astype(a.dtype.newbyteorder("<"))
    return a


def _dtype(name: Any, where: str) -> np.dtype:
    text = str(name)
    if text.startswith("torch."):
        text = text[len("torch.") :]
    try:
        dt = np.dtype(text)
    except TypeError:
        raise CodecError(f"{where}: unsupported dtype {name!r}") from None
    if dt.kind not in _NUMERIC_KINDS:
        raise CodecError(f"{where}: unsupported dtype {name!r}")
    return dt.newbyteorder("<") if dt.itemsize > 1 else dt


def _array_from(raw: memoryview | bytes, dtype: Any, shape: Any, where: str) -> np.ndarray:
    dt = _dtype(dtype, where)
    if not isinstance(shape, (list, tuple)) or not all(isinstance(n, int) and n >= 0 for n in shape):
        raise CodecError(f"{where}: bad shape {shape!r}")
    expected = int(np.prod(shape, dtype=np.int64)) * dt.itemsize
    if len(raw) != expected:
        raise CodecError(f"{where}: {len(raw)} bytes for dtype {dt.name} shape {list(shape)} (expected {expected})")
    # A copy: frombuffer over immutable bytes is read-only, and handlers may write into their inputs.
    return np.frombuffer(raw, dtype=dt).reshape(shape).astype(dt.newbyteorder("="), copy=True)


# ── msgpack ────────────────────────────────────────────────────────────────────────────────────


def encode_blob(a: np.ndarray, tag: int = TAG_NDARRAY) -> msgpack.ExtType:
    a = _little_endian(a, "array")
    meta = msgpack.packb({"dtype": a.dtype.name, "shape": list(a.shape)}, use_bin_type=True)
    return msgpack.ExtType(BLOB_EXT, bytes([tag]) + len(meta).to_bytes(4, "big") + meta + a.tobytes())


def decode_blob(data: bytes) -> np.ndarray:
    if len(data) < 5:
        raise CodecError(f"blob ext: {len(data)} bytes is too short for a header")
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


def encode_png(a: np.ndarray) -> bytes:
    from PIL import Image

    if a.ndim == 3 and a.shape[2] == 1:
        a = a[:, :, 0]
    img = Image.fromarray(np.ascontiguousarray(a))
    buf = io.BytesIO()
    img.save(buf, format="PNG")
    return buf.getvalue()


def decode_png(data: bytes, where: str) -> np.ndarray:
    from PIL import Image, UnidentifiedImageError

    try:
        img = Image.open(io.BytesIO(data))
        img.load()
    except (UnidentifiedImageError, OSError) as e:
        raise CodecError(f"{where}: not a readable PNG ({e})") from None
    if img.mode not in ("L", "LA", "RGB", "RGBA", "I;16"):
        img = img.convert("RGBA" if "transparency" in img.info else "RGB")
    return np.array(img)


def _png_able(a: np.ndarray) -> bool:
    return a.dtype == np.uint8 and (a.ndim == 2 or (a.ndim == 3 and a.shape[2] in (1, 3, 4)))


def _ndarray_json(a: np.ndarray, where: str) -> dict:
    a = _little_endian(a, where)
    return {"__ndarray__": base64.b64encode(a.tobytes()).decode("ascii"), "dtype": a.dtype.name, "shape": list(a.shape)}


def to_json_value(v: Any, wire_type: str | None = None, where: str = "value") -> Any:
    """A value made JSON-safe; ``wire_type`` (the port's) turns IMAGE arrays into base64 PNG."""
    base, is_list = parse_wire_type(wire_type) if wire_type else ("ANY", False)
    if base == "IMAGE" and is_list and isinstance(v, (list, tuple)):
        return [to_json_value(x, "IMAGE", f"{where}[{i}]") for i, x in enumerate(v)]
    arr = _as_array(v)
    if arr is not None:
        if base == "IMAGE" and not is_list and _png_able(arr):
            return base64.b64encode(encode_png(arr)).decode("ascii")
        return _ndarray_json(arr, where)
    if isinstance(v, np.generic):
        v = v.item()
    if isinstance(v, float) and not math.isfinite(v):
        raise CodecError(f"{where}: {v} has no JSON form (use the msgpack encoding)")
    if v is None or isinstance(v, (bool, int, float, str)):
        return v
    if isinstance(v, dict):
        return {str(k): to_json_value(x, None, f"{where}.{k}") for k, x in v.items()}
    if isinstance(v, (list, tuple, set, frozenset)):
        return [to_json_value(x, None, f"{where}[{i}]") for i, x in enumerate(v)]
    raise CodecError(f"{where}: a value of type {type(v).__name__} has no JSON form")


def _png_string(s: str) -> bytes | None:
    if s.startswith("data:"):
        s = s.split(",", 1)[1] if "," in s else ""
    try:
        data = base64.b64decode(s, validate=True)
    except ValueError:
        return None
    return data if data.startswith(b"\x89PNG\r\n\x1a\n") else None


def from_json_value(v: Any, wire_type: str | None = None, where: str = "value") -> Any:
    """Inverse of ``to_json_value``: ``__ndarray__`` maps anywhere, PNG strings on IMAGE ports."""
    base, is_list = parse_wire_type(wire_type) if wire_type else ("ANY", False)
    if base == "IMAGE" and isinstance(v, str):
        png = _png_string(v)
        return decode_png(png, where) if png is not None else v
    if base == "IMAGE" and is_list and isinstance(v, list):
        return [from_json_value(x, "IMAGE", f"{where}[{i}]") for i, x in enumerate(v)]
    if isinstance(v, dict):
        if "__ndarray__" in v:
            try:
                raw = base64.b64decode(v["__ndarray__"], validate=True)
            except (ValueError, TypeError):
                raise CodecError(f"{where}: __ndarray__ is not valid base64") from None
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
