"""Both encodings, value by value: the msgpack blob codec and the JSON forms (ndarray maps, PNG)."""

from __future__ import annotations

import base64

import msgpack
import numpy as np
import pytest

from statewire_nodes import codec


def tricky_depth() -> np.ndarray:
    """float32 values whose bits a lossy path would change: -0.0, NaN payloads, subnormals, inf."""
    rng = np.random.default_rng(7)
    a = rng.standard_normal((5, 7)).astype(np.float32)
    bits = a.view(np.uint32)
    bits[0, 0] = 0x80000000  # -0.0
    bits[0, 1] = 0x7FC00001  # a NaN with a payload
    bits[0, 2] = 0x00000001  # the smallest subnormal
    bits[0, 3] = 0x7F800000  # +inf
    return a


def same_bits(a: np.ndarray, b: np.ndarray) -> bool:
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


def test_blob_layout_is_tag_length_header_bytes():
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    ext = codec.encode_blob(a)
    assert ext.code == 1
    data = ext.data
    assert data[0] == 0
    m = int.from_bytes(data[1:5], "big")
    assert msgpack.unpackb(data[5 : 5 + m]) == {"dtype": "float32", "shape": [2, 3]}
    assert data[5 + m :] == a.astype("<f4").tobytes()


def test_msgpack_round_trip_is_bit_exact_and_writable():
    depth = tricky_depth()
    img = np.random.default_rng(1).integers(0, 256, (4, 6, 3), dtype=np.uint8)
    back = codec.unpack(codec.pack({"outputs": {"depth": depth, "image": img, "n": np.int64(3), "s": {1}}}))
    out = back["outputs"]
    assert same_bits(out["depth"], depth)
    assert same_bits(out["image"], img)
    assert out["n"] == 3 and type(out["n"]) is int
    assert out["s"] == [1]
    out["depth"][0, 0] = 1.0  # handlers may write into inputs


def test_big_endian_and_non_contiguous_arrays_travel_little_endian():
    a = np.arange(12, dtype=">f8").reshape(3, 4)[:, ::2]
    back = codec.unpack(codec.pack(a))
    assert back.dtype == np.float64 and np.array_equal(back, a)


@pytest.mark.parametrize("tag", [1, 2])
def test_torch_and_pil_tags_decode_as_plain_arrays(tag):
    a = np.arange(8, dtype=np.uint8).reshape(2, 2, 2)
    # As the reference writes them: numpy's dtype name for both, and the PIL mode for tag 2.
    meta = msgpack.packb({"dtype": "uint8", "shape": [2, 2, 2], **({"mode": "LA"} if tag == 2 else {})})
    ext = msgpack.ExtType(1, bytes([tag]) + len(meta).to_bytes(4, "big") + meta + a.tobytes())
    assert np.array_equal(codec.unpack(msgpack.packb({"x": ext}))["x"], a)


def test_a_blob_whose_bytes_do_not_match_its_shape_is_refused():
    meta = msgpack.packb({"dtype": "float32", "shape": [2, 2]})
    ext = msgpack.ExtType(1, b"\x00" + len(meta).to_bytes(4, "big") + meta + b"\x00" * 12)
    with pytest.raises(codec.CodecError, match="dtype float32 and shape \\[2, 2\\] needs 16 bytes, got 12"):
        codec.unpack(msgpack.packb(ext))


def test_object_arrays_and_unknown_types_are_refused_with_their_name():
    with pytest.raises(codec.CodecError, match="dtype object"):
        codec.pack(np.array([object()]))
    with pytest.raises(codec.CodecError, match="type complex"):
        codec.pack({"x": 1j})


def test_json_ndarray_form_round_trips_bit_exact():
    depth = tricky_depth()
    j = codec.to_json_value({"a": [depth]}, None)
    assert j["a"][0]["dtype"] == "float32" and j["a"][0]["shape"] == [5, 7]
    assert base64.b64decode(j["a"][0]["__ndarray__"]) == depth.astype("<f4").tobytes()
    assert same_bits(codec.from_json_value(j, None)["a"][0], depth)


def test_json_image_port_travels_as_png_and_comes_back_equal():
    rgb = np.random.default_rng(2).integers(0, 256, (9, 11, 3), dtype=np.uint8)
    s = codec.to_json_value(rgb, "IMAGE")
    assert isinstance(s, str) and base64.b64decode(s)[:8] == b"\x89PNG\r\n\x1a\n"
    assert same_bits(codec.from_json_value(s, "IMAGE"), rgb)
    gray = rgb[:, :, 0].copy()
    assert same_bits(codec.from_json_value(codec.to_json_value(gray, "IMAGE"), "IMAGE"), gray)
    # a float "image" is not PNG material: it keeps its exact values in the ndarray form
    f = rgb.astype(np.float32) / 255
    assert "__ndarray__" in codec.to_json_value(f, "IMAGE")
    # LIST[IMAGE] is not IMAGE: its items travel in the lossless ndarray form, as the reference sends them
    both = codec.to_json_value([rgb, gray], "LIST[IMAGE]")
    assert all("__ndarray__" in x for x in both)
    assert same_bits(codec.from_json_value(both, "LIST[IMAGE]")[1], gray)
    # on an IMAGE port a string is a PNG or an error naming where
    with pytest.raises(codec.CodecError, match=r"inputs.image: not a base64 PNG \(not a PNG \(bad signature\)\)"):
        codec.from_json_value(base64.b64encode(b"GIF89a").decode(), "IMAGE", "inputs.image")


def test_json_has_no_nan_so_it_is_an_error_naming_where():
    with pytest.raises(codec.CodecError, match=r"outputs.reward: NaN has no JSON form"):
        codec.to_json_value({"reward": float("nan")}, None, "outputs")


def test_json_scalars_sets_and_tuples_become_plain_values():
    j = codec.to_json_value({"f": np.float32(0.5), "b": np.bool_(True), "s": {3}, "t": (1, 2)}, None)
    assert j == {"f": 0.5, "b": True, "s": [3], "t": [1, 2]}
    assert type(j["b"]) is bool
