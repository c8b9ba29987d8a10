"""The endpoints of docs/node-services-protocol.md over real HTTP against a real uvicorn server, in both encodings."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import decode, http, post
from test_codec import same_bits, tricky_depth

from statewire_nodes import NodeService, Port, State, codec, fire, firelist
from statewire_nodes.serve import BackgroundServer

svc = NodeService("toy", version="1.2.3", description="test service")
memo = svc.container(
    "memo",
    label="Memo",
    states={"calls": State("counter"), "seen": State("accumulator", max_size=3), "blob": State(value_type="DEPTH")},
)


@svc.function(
    inputs={"image": Port("IMAGE"), "depth": Port("DEPTH"), "scale": Port("METRICS", optional=True)},
    outputs={"image": Port("IMAGE"), "depth": Port("DEPTH"), "mean": Port("METRICS"), "tags": Port("ANY")},
    config={"label": {"type": "string", "default": "x"}, "mode": {"enum": ["a", "b"], "default": "a"}},
)
def echo(image, depth, scale, config):
    """Returns its arrays unchanged, plus a numpy scalar and a set."""
    memo.write("calls", 1)
    memo.write("seen", config["label"])
    s = 1.0 if scale is None else scale
    return {
        "image": image,
        "depth": depth * np.float32(s),
        "mean": np.float32(depth[np.isfinite(depth)].mean()),
        "tags": {config["mode"]},
    }


@svc.function(inputs={"n": Port("METRICS")}, outputs={"items": Port("LIST[ANY]")})
def spread(n):
    return firelist(
        *(fire("toy__echo", inputs={"k": i}, label=f"child {i}") for i in range(int(n))), spawner_outputs={"n": n}
    )


@svc.function(outputs={"x": Port("ANY")})
def boom():
    raise RuntimeError("the simulator fell over")


@svc.function(outputs={"x": Port("ANY")})
def sneaky():
    return {"x": 1, "y": 2}


@svc.function(outputs={"x": Port("ANY")})
async def nan_out():
    return {"x": float("nan")}


svc.declare("later", inputs={"a": "ANY"}, description="declared, not written yet")


@pytest.fixture(scope="module")
def url():
    with BackgroundServer(svc) as u:
        yield u


def test_health_and_manifest(url):
    assert http.get(f"{url}/health").json() == {"status": "ok", "name": "toy", "version": "1.2.3"}
    m = http.get(f"{url}/manifest").json()
    assert (m["name"], m["version"], m["description"]) == ("toy", "1.2.3", "test service")
    fns = {f["name"]: f for f in m["functions"]}
    assert set(fns) == {"toy__echo", "toy__spread", "toy__boom", "toy__sneaky", "toy__nan_out", "toy__later"}
    echo_fn = fns["toy__echo"]
    assert echo_fn["description"] == "Returns its arrays unchanged, plus a numpy scalar and a set."
    assert echo_fn["input_ports"][2] == {"name": "scale", "wire_type": "METRICS", "description": "", "optional": True}
    assert [p["name"] for p in echo_fn["output_ports"]] == ["image", "depth", "mean", "tags"]
    assert echo_fn["config_schema"]["properties"]["mode"] == {"enum": ["a", "b"], "default": "a"}
    assert m["containers"][0]["id"] == "memo" and m["containers"][0]["states"]["seen"]["config"] == {"max_size": 3}


@pytest.mark.parametrize("encoding", ["msgpack", "json"])
def test_arrays_round_trip_bit_exact(url, encoding):
    depth = tricky_depth()
    image = np.random.default_rng(3).integers(0, 256, (6, 8, 3), dtype=np.uint8)
    if encoding == "msgpack":
        inputs = {"image": image, "depth": depth}
    else:
        inputs = {"image": codec.to_json_value(image, "IMAGE"), "depth": codec.to_json_value(depth, "DEPTH")}
    resp = post(f"{url}/call/toy__echo", {"inputs": inputs, "config": {"label": encoding}}, encoding)
    assert resp.headers["content-type"] == (codec.MSGPACK if encoding == "msgpack" else codec.JSON)
    body = decode(resp)
    out = body["outputs"]
    if encoding == "json":
        assert isinstance(out["image"], str)  # base64 PNG
        assert set(out["depth"]) == {"__ndarray__", "dtype", "shape"}
        out = {k: codec.from_json_value(v, "IMAGE" if k == "image" else None) for k, v in out.items()}
    assert same_bits(out["depth"], depth)
    assert same_bits(out["image"], image)
    assert out["mean"] == pytest.approx(float(depth[np.isfinite(depth)].mean()))
    assert type(out["mean"]) is float  # a numpy scalar travels as a plain number
    assert out["tags"] == ["a"]
    memo_preview = body["containers"]["memo"]
    assert memo_preview["label"] == "Memo"
    assert memo_preview["states"]["seen"]["preview"].endswith(f'"{encoding}"]')
    assert memo_preview["states"]["calls"]["type"] == "counter"


def test_optional_inputs_may_be_absent_or_none(url):
    depth = np.ones((2, 2), np.float32)
    img = np.zeros((2, 2), np.uint8)
    a = decode(post(f"{url}/call/toy__echo", {"inputs": {"image": img, "depth": depth, "scale": None}}))
    b = decode(post(f"{url}/call/toy__echo", {"inputs": {"image": img, "depth": depth, "scale": 3.0}}))
    assert a["outputs"]["depth"][0, 0] == 1.0 and b["outputs"]["depth"][0, 0] == 3.0


@pytest.mark.parametrize("encoding", ["msgpack", "json"])
def test_errors_carry_fastapi_detail(url, encoding):
    cases = [
        ("toy__nope", {}, 404, "Unknown function: toy__nope"),
        ("toy__later", {"inputs": {"a": 1}}, 501, "No handler for: toy__later"),
        ("toy__boom", {}, 500, "the simulator fell over"),
        ("toy__sneaky", {}, 500, "toy__sneaky returned undeclared output(s) y (declared: x)"),
        ("toy__echo", {"inputs": {"image": 1}}, 400, "toy__echo: missing required input 'depth' (DEPTH)"),
        (
            "toy__echo",
            {"inputs": {"image": 1, "depth": 2}, "config": {"mode": "c"}},
            400,
            "toy__echo: config.mode = 'c' is not one of ['a', 'b']",
        ),
    ]
    for fn, body, status, detail in cases:
        resp = post(f"{url}/call/{fn}", body, encoding)
        assert (resp.status_code, resp.json()) == (status, {"detail": detail}), fn


def test_nan_travels_in_msgpack_and_is_a_named_error_in_json(url):
    assert np.isnan(decode(post(f"{url}/call/toy__nan_out", {}))["outputs"]["x"])
    resp = post(f"{url}/call/toy__nan_out", {}, "json")
    assert resp.status_code == 500 and "outputs.x: NaN has no JSON form" in resp.json()["detail"]


def test_malformed_bodies_are_400(url):
    resp = http.post(f"{url}/call/toy__echo", content=b"\xc1", headers={"content-type": codec.MSGPACK})
    assert resp.status_code == 400 and "not valid msgpack" in resp.json()["detail"]
    resp = http.post(f"{url}/call/toy__echo", content=b"{", headers={"content-type": codec.JSON})
    assert resp.status_code == 400 and "not valid JSON" in resp.json()["detail"]


@pytest.mark.parametrize("encoding", ["msgpack", "json"])
def test_a_firelist_answers_instead_of_outputs(url, encoding):
    body = decode(post(f"{url}/call/toy__spread", {"inputs": {"n": 2}}, encoding))
    assert "outputs" not in body
    fl = body["__firelist__"]
    assert fl["spawner_outputs"] == {"n": 2} and fl["aggregator"] is None
    assert fl["specs"][1] == {
        "node_type": "toy__echo",
        "inputs": {"k": 1},
        "config": {},
        "label": "child 1",
        "capture_outputs": None,
    }


def test_owned_container_endpoints(url):
    blob = tricky_depth()
    assert decode(post(f"{url}/containers/memo/write", {"name": "blob", "data": blob})) == {"ok": True}
    read = post(f"{url}/containers/memo/read", {"name": "blob"})
    assert read.headers["content-type"] == codec.MSGPACK
    assert same_bits(decode(read)["value"], blob)
    post(f"{url}/containers/memo/write", {"name": "seen", "data": "ep-a", "key": "ep1"})
    post(f"{url}/containers/memo/write", {"name": "seen", "data": "ep-b", "key": "ep2"})
    assert decode(post(f"{url}/containers/memo/read", {"name": "seen", "key": "ep1"}))["value"] == ["ep-a"]
    assert decode(post(f"{url}/containers/memo/evict", {"key": "ep1"})) == {"ok": True}
    assert decode(post(f"{url}/containers/memo/read", {"name": "seen", "key": "ep1"}))["value"] == []
    assert decode(post(f"{url}/containers/memo/read", {"name": "seen", "key": "ep2"}))["value"] == ["ep-b"]
    unknown = post(f"{url}/containers/nope/read", {"name": "x"})
    assert unknown.status_code == 404 and unknown.json()["detail"].startswith("Unknown container: nope")
    slot = post(f"{url}/containers/memo/read", {"name": "zz"})
    assert slot.status_code == 404 and "undeclared slot 'zz'" in slot.json()["detail"]
    bad = post(f"{url}/containers/memo/write", {"name": "calls", "data": "many"})
    assert bad.status_code == 400 and "counter expects a number" in bad.json()["detail"]


@pytest.mark.parametrize("encoding", ["json", "msgpack"])
def test_evict_by_key_across_owned_containers(url, encoding):
    post(f"{url}/containers/memo/write", {"name": "seen", "data": 1, "key": "gone"})
    post(f"{url}/containers/memo/write", {"name": "calls", "data": 1, "key": "gone"})
    assert decode(post(f"{url}/containers/evict", {"key": "gone"}, encoding)) == {"evicted": 2, "key": "gone"}
    assert decode(post(f"{url}/containers/evict", {"key": "gone"}, encoding)) == {"evicted": 0, "key": "gone"}
    missing = post(f"{url}/containers/evict", {}, encoding)
    assert missing.status_code == 400 and missing.json() == {"detail": "evict requires 'key'"}
