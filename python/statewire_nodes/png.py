"""PNG for ``IMAGE`` ports in the JSON encoding (``docs/value-encodings.md``).

Readable here is exactly what Statewire's own decoder (``src/server/services/png.ts``) reads: 8-bit
gray, gray+alpha, RGB or RGBA, not interlaced, every chunk's CRC right. Anything else is refused with
the same words, so an image one side accepts the other accepts too (``vectors/png.json`` pins both).
Pillow turns the bytes into pixels; the chunk walk below is what makes the two sides agree.
"""

from __future__ import annotations

import io
import zlib

import numpy as np

SIGNATURE = b"\x89PNG\r\n\x1a\n"
_CHANNELS_OF_COLOR_TYPE = {0: 1, 2: 3, 4: 2, 6: 4}


class PngError(ValueError):
    """Bytes that are not a PNG this codec reads; the message says why."""


def check_png(data: bytes) -> None:
    """Raises ``PngError`` unless ``data`` is a PNG of the subset both sides read."""
    if len(data) < 8 or data[:8] != SIGNATURE:
        raise PngError("not a PNG (bad signature)")
    pos = 8
    seen_header = False
    while pos + 8 <= len(data):
        length = int.from_bytes(data[pos : pos + 4], "big")
        kind = data[pos + 4 : pos + 8]
        name = kind.decode("latin-1")
        if pos + 12 + length > len(data):
            raise PngError(f"PNG chunk {name} is truncated")
        body = data[pos + 8 : pos + 8 + length]
        if zlib.crc32(kind + body) != int.from_bytes(data[pos + 8 + length : pos + 12 + length], "big"):
            raise PngError(f"PNG chunk {name} has a bad CRC")
        if kind == b"IHDR":
            depth, color_type, interlace = body[8], body[9], body[12]
            if depth != 8:
                raise PngError(f"PNG bit depth {depth} is not supported (8 only)")
            if interlace != 0:
                raise PngError("interlaced PNG is not supported")
            if color_type not in _CHANNELS_OF_COLOR_TYPE:
                raise PngError(f"PNG color type {color_type} is not supported")
            seen_header = True
        elif kind == b"IEND":
            break
        pos += 12 + length
    if not seen_header:
        raise PngError("PNG has no IHDR")


def decode_png(data: bytes) -> np.ndarray:
    """uint8 H×W (gray), H×W×2, H×W×3 or H×W×4."""
    from PIL import Image

    check_png(data)
    try:
        img = Image.open(io.BytesIO(data))
        img.load()
    except (OSError, SyntaxError) as e:  # Pillow's words for damaged image data
        raise PngError(f"PNG image data is damaged ({e})") from None
    return np.array(img)


def png_able(a: np.ndarray) -> bool:
    """What travels as PNG on an IMAGE port: uint8 H×W, H×W×1, H×W×3 or H×W×4 with H, W > 0."""
    if a.dtype != np.uint8 or a.ndim not in (2, 3) or a.shape[0] == 0 or a.shape[1] == 0:
        return False
    return a.ndim == 2 or a.shape[2] in (1, 3, 4)


def encode_png(a: np.ndarray) -> bytes:
    """PNG bytes of a ``png_able`` array (H×W×1 is written as gray and comes back H×W)."""
    from PIL import Image

    if a.ndim == 3 and a.shape[2] == 1:
        a = a[:, :, 0]
    buf = io.BytesIO()
    Image.fromarray(np.ascontiguousarray(a)).save(buf, format="PNG")
    return buf.getvalue()
