"""Runs every shared vector (``vectors/*.json``, described in ``vectors/README.md``) against the SDK:
reducers, containers, lifetimes, previews and both wire encodings. ``vectors/vectors.test.ts`` runs the
same files against Statewire's TypeScript. A new file is picked up by its ``kind``; a kind nobody runs
fails here rather than being skipped."""

from __future__ import annotations

import base64
import json
from pathlib import Path

import pytest
from vector_values import revive, same, shown

from statewire_nodes import ReducerError, ServiceContainer, SlotError, State, codec
from statewire_nodes.preview import preview_keyed, preview_value
from statewire_nodes.reducers import deep_equal, initial_value, reduce

VECTORS = Path(__file__).resolve().parents[2] / "vectors"
FILES = {p.name: json.loads(p.read_text("utf-8")) for p in sorted(VECTORS.glob("*.json"))}
CASES = [
    pytest.param(doc["kind"], case, id=f"{name}::{case['name']}")
    for name, doc in FILES.items()
    for case in doc["cases"]
]


def expect_same(actual, expected) -> None:
    assert same(actual, expected), f"\n got:      {shown(actual)}\n expected: {shown(expected)}"


def run_reduce(c: dict) -> None:
    reducer = c["reducer"]
    config = revive(c.get("config", {}))
    cur = revive(c["start"]) if "start" in c else initial_value(reducer, config)
    for i, w in enumerate(c["writes"]):
        if i == len(c["writes"]) - 1 and "error" in c:
            with pytest.raises(ReducerError) as e:
                reduce(reducer, cur, revive(w), config)
            assert c["error"] in str(e.value)
        else:
            cur = reduce(reducer, cur, revive(w), config)
    if "error" not in c:
        expect_same(cur, revive(c["expected"]))


def run_equal(c: dict) -> None:
    a, b = revive(c["a"]), revive(c["b"])
    assert deep_equal(a, b) is c["expected"]
    assert deep_equal(b, a) is c["expected"]


def _state(s: dict) -> State:
    return State(
        type=s.get("type", "lastWrite"),
        value_type=s.get("value_type", "ANY"),
        lifetime=s.get("lifetime", "forever"),
        reset_on=s.get("reset_on", []),
        config=revive(s.get("config", {})),
    )


def run_container(c: dict) -> None:
    box = ServiceContainer("c1", "", {name: _state(s) for name, s in c["states"].items()})
    for op in c["ops"]:
        kind, slot, key = op["op"], op.get("slot"), op.get("key")
        if kind == "write":
            if "error" in op:
                with pytest.raises((ReducerError, SlotError)) as e:
                    box.write(slot, revive(op["data"]), key)
                assert op["error"] in str(e.value)
            else:
                box.write(slot, revive(op["data"]), key)
        elif kind == "read":
            if "error" in op:
                with pytest.raises(SlotError) as e:
                    box.read(slot, key)
                assert op["error"] in str(e.value)
            else:
                expect_same(box.read(slot, key), revive(op["expected"]))
        elif kind == "evict":
            # The SDK counts what it dropped; which slots lost the key shows in the keys/reads after it.
            assert box.evict(key) == len(op["expected"])
        elif kind == "signal":
            refs = box.on_signal(op["signal"])
            assert all(r["container"] == "c1" for r in refs)
            assert [{k: r[k] for k in ("slot", "key") if k in r} for r in refs] == op["expected"]
        elif kind == "keys":
            assert box.keys(slot) == op["expected"]
        elif kind == "clear":
            box.clear()
        elif kind == "preview":
            expect_same(box.preview(), op["expected"])
        else:
            raise AssertionError(f"unknown container op {kind!r}")


def run_preview(c: dict) -> None:
    if "keyed" in c:
        expect_same(preview_keyed({k: revive(v) for k, v in c["keyed"]}), c["expected"])
    else:
        expect_same(preview_value(revive(c["value"])), c["expected"])


def run_msgpack(c: dict) -> None:
    encoded = c.get("encoded", {})
    if "value" in c:
        assert codec.pack(revive(c["value"])).hex() == encoded.get("py", c["msgpack"])
    # Every listed encoding (ours and the other side's) decodes to the same value.
    for hexbytes in [c["msgpack"], *encoded.values()]:
        if "error" in c:
            with pytest.raises(codec.CodecError) as e:
                codec.unpack(bytes.fromhex(hexbytes))
            assert c["error"] in str(e.value)
        else:
            expect_same(codec.unpack(bytes.fromhex(hexbytes)), revive(c.get("decoded", c.get("value"))))


def run_json_wire(c: dict) -> None:
    wire_type = c.get("wire_type")
    expected = revive(c.get("decoded", c.get("value")))
    if "value" in c:
        if "error" in c:
            with pytest.raises(codec.CodecError) as e:
                codec.to_json_value(revive(c["value"]), wire_type, "value")
            assert c["error"] in str(e.value)
        elif "png" in c:
            out = codec.to_json_value(revive(c["value"]), wire_type, "value")
            assert isinstance(out, str)
            png = base64.b64decode(out)
            assert png[:8] == b"\x89PNG\r\n\x1a\n"
            ihdr = (int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big"), png[25])
            assert ihdr == (c["png"]["width"], c["png"]["height"], c["png"]["color_type"])
            expect_same(codec.from_json_value(out, wire_type, "value"), expected)
        else:
            out = codec.to_json_value(revive(c["value"]), wire_type, "value")
            expect_same(json.loads(codec.dumps_json(out)), c["json"])
            expect_same(out, c["json"])
    if "json" in c:
        if "error" in c and "value" not in c:
            with pytest.raises(codec.CodecError) as e:
                codec.from_json_value(c["json"], wire_type, "value")
            assert c["error"] in str(e.value)
        elif "error" not in c:
            expect_same(codec.from_json_value(c["json"], wire_type, "value"), expected)


RUNNERS = {
    "reduce": run_reduce,
    "equal": run_equal,
    "container": run_container,
    "preview": run_preview,
    "msgpack": run_msgpack,
    "json-wire": run_json_wire,
}


def test_every_kind_has_cases_and_every_file_a_known_kind():
    kinds = {doc["kind"] for doc in FILES.values()}
    assert sorted(kinds - RUNNERS.keys()) == []
    assert sorted(RUNNERS.keys() - kinds) == []


@pytest.mark.parametrize(("kind", "case"), CASES)
def test_vector(kind: str, case: dict) -> None:
    assert kind in RUNNERS, f"no runner for kind {kind!r}"
    RUNNERS[kind](case)
