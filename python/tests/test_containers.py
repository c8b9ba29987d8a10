"""Reducers, lifetimes, keyed partitions and previews: the behaviour of Statewire's TS containers
(src/domain/state/reducers.ts, src/engine/container.ts, src/domain/state/preview.ts); the shared vectors
in vectors/ (test_vectors.py) pin the same rules case by case."""

from __future__ import annotations

import numpy as np
import pytest

from statewire_nodes import ReducerError, ServiceContainer, SlotError, State
from statewire_nodes.reducers import reduce


def box(**states) -> ServiceContainer:
    return ServiceContainer("c1", "Box", states)


def test_accumulator_trims_to_max_size_and_keeps_all_without_it():
    c = box(trimmed=State("accumulator", max_size=3), all=State("accumulator"))
    for i in range(5):
        c.write("trimmed", i)
        c.write("all", i)
    assert c.read("trimmed") == [2, 3, 4]
    assert c.read("all") == [0, 1, 2, 3, 4]


def test_last_write_counter_merge_union():
    c = box(last=State(), n=State("counter"), m=State("merge"), u=State("union"))
    c.write("last", 1)
    c.write("last", "two")
    c.write("n", 2)
    c.write("n", 3)
    c.write("m", {"a": 1})
    c.write("m", {"b": 2, "a": 3})
    c.write("u", [1, 2])
    c.write("u", [2, {"x": 1}])
    c.write("u", {"x": 1})
    assert (c.read("last"), c.read("n"), c.read("m"), c.read("u")) == ("two", 5, {"a": 3, "b": 2}, [1, 2, {"x": 1}])


def test_counter_refuses_a_non_number_naming_the_slot():
    c = box(n=State("counter"))
    c.write("n", "4")  # JavaScript's Number("4")
    with pytest.raises(ReducerError, match="container 'c1' slot 'n': counter expects a number"):
        c.write("n", "four")
    assert c.read("n") == 4


def test_union_tells_true_from_1_as_javascript_does():
    assert reduce("union", [1], [True, 1.0], {}) == [1, True]


def test_by_key_folds_each_field_with_its_reducer_and_refuses_undeclared_fields():
    c = box(stats=State("byKey", fields={"hits": "counter", "seen": "union", "last": "lastWrite"}))
    assert c.read("stats") == {"hits": 0, "seen": [], "last": None}
    c.write("stats", {"hits": 2, "seen": "a"})
    c.write("stats", {"hits": 1, "seen": ["a", "b"], "last": 7})
    assert c.read("stats") == {"hits": 3, "seen": ["a", "b"], "last": 7}
    with pytest.raises(ReducerError, match="undeclared field 'nope' \\(declared fields: hits, seen, last\\)"):
        c.write("stats", {"nope": 1})


def test_unknown_reducer_folds_as_last_write():
    c = box(x=State("ephemeral"))
    c.write("x", 1)
    c.write("x", 2)
    assert c.read("x") == 2


def test_initial_value_is_an_isolated_copy_across_writes_and_clears():
    c = box(seeded=State("accumulator", initial_value=["seed"]), ten=State("counter", initial_value=10))
    c.write("seeded", "a")
    c.clear()
    c.read("seeded").append("leak")  # mutating a read must not reach the template
    c.clear()
    assert c.read("seeded") == ["seed"]
    c.write("ten", 1)
    assert c.read("ten") == 11


def test_undeclared_slot_names_the_declared_ones():
    c = box(a=State(), b=State())
    with pytest.raises(SlotError, match="write of undeclared slot 'zz' \\(declared slots: a, b\\)"):
        c.write("zz", 1)
    with pytest.raises(SlotError, match="read of undeclared slot"):
        c.read("zz")


def test_keyed_partitions_are_isolated_lazily_cloned_and_evicted_alone():
    c = box(hist=State("accumulator", initial_value=["start"]))
    c.write("hist", 1, key="ep1")
    c.write("hist", 2, key="ep2")
    c.write("hist", 3, key="ep1")
    assert c.read("hist", key="ep1") == ["start", 1, 3]
    assert c.read("hist", key="ep2") == ["start", 2]
    assert c.read("hist") == ["start"]  # the template is untouched
    fresh = c.read("hist", key="never")
    fresh.append("x")
    assert c.read("hist", key="never") == ["start"]
    assert c.evict("ep1") == 1
    assert c.read("hist", key="ep1") == ["start"]
    assert c.read("hist", key="ep2") == ["start", 2]
    assert c.keys("hist") == ["ep2"]


def test_lifetimes_clear_only_subscribed_slots_including_their_keys():
    c = box(
        s=State(lifetime="step"),
        e=State(lifetime="episode"),
        f=State(),
        custom=State(lifetime="custom", reset_on=["goal_reached"]),
        odd=State(lifetime="sometimes"),
    )
    for name in c.states:
        c.write(name, 1)
    c.write("e", 2, key="ep1")
    assert c.on_signal("step_end") == [{"container": "c1", "slot": "s"}]
    cleared = c.on_signal("episode_reset")
    assert cleared == [{"container": "c1", "slot": "e"}, {"container": "c1", "slot": "e", "key": "ep1"}]
    assert c.read("e", key="ep1") is None and c.read("f") == 1
    c.on_signal("goal_reached")
    c.on_signal("run_end")
    assert (c.read("custom"), c.read("odd"), c.read("s")) == (None, 1, None)


def test_preview_shapes_follow_the_reference():
    c = box(
        lst=State("accumulator"),
        txt=State(),
        num=State("counter"),
        empty=State(),
        obj=State("merge"),
        keyed=State("accumulator", value_type="POSE"),
        arr=State(value_type="DEPTH"),
    )
    for i in range(5):
        c.write("lst", i * 1.0)
    c.write("txt", "x" * 150)
    c.write("num", 2.5)
    c.write("obj", {"a": True, "b": None})
    c.write("keyed", [0, 1], key="ep1")
    c.write("arr", np.zeros((2, 3), np.float32))
    p = c.preview()
    assert p["lst"] == {
        "type": "accumulator",
        "value_type": "ANY",
        "lifetime": "forever",
        "size": 5,
        "preview": "[0, 1, 2, ...]",
    }
    assert p["txt"]["preview"] == "x" * 100 + "..."
    assert p["num"]["value"] == 2.5
    assert p["empty"]["preview"] == "null"
    assert p["obj"]["preview"] == '{"a":true,"b":null}'
    assert p["keyed"]["keys"] == 1 and p["keyed"]["size"] == 1 and p["keyed"]["preview"] == "[ep1] [[0,1]]"
    assert p["arr"]["preview"] == "ndarray float32 [2, 3]"


def test_manifest_form_is_the_canonical_container_def():
    c = ServiceContainer(
        "stats", "Stats", {"n": State("counter"), "e": State(lifetime="episode", max_size=2)}, position=(10, 20)
    )
    assert c.to_dict() == {
        "id": "stats",
        "label": "Stats",
        "position": {"x": 10, "y": 20},
        "states": {
            "n": {"type": "counter", "value_type": "ANY"},
            "e": {"type": "lastWrite", "value_type": "ANY", "config": {"max_size": 2}, "lifetime": "episode"},
        },
    }
