"""Per-execution state and snapshots: POST /snapshot and /restore, the @svc.snapshot/@svc.restore hooks,
and the gridworld example put back exactly (its grids, RNGs and stats)."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import decode, http, post, start_gridworld

from statewire_nodes import NodeService, PerExecution, Port, State, codec, current_execution
from statewire_nodes.serve import BackgroundServer


def _counter_service():
    svc = NodeService("counter")
    box = svc.container("box", states={"n": State("counter"), "seen": State("accumulator")})
    rngs = PerExecution(lambda: np.random.default_rng(7))
    hooks: list[tuple] = []

    @svc.function(outputs={"n": Port("METRICS"), "draw": Port("METRICS"), "eid": Port("TEXT")})
    def tick(ctx):
        n = box.write("n", 1)
        box.write("seen", n, key="k")
        return {"n": n, "draw": float(rngs.get().random()), "eid": current_execution() or "-"}

    @svc.snapshot
    def _save(execution_id):
        hooks.append(("save", execution_id))
        return {"full": str(rngs.get().bit_generator.state)}  # its 128-bit ints as text

    @svc.restore
    def _load(execution_id, saved):
        hooks.append(("load", execution_id, saved is None))
        if saved is None:
            rngs.drop()
            return
        import ast

        r = np.random.default_rng()
        r.bit_generator.state = ast.literal_eval(saved["full"])
        rngs.set(r)

    return svc, hooks


@pytest.fixture
def counter():
    svc, hooks = _counter_service()
    server = BackgroundServer(svc.app)
    url = server.start()
    yield url, svc, hooks
    server.stop()


def _tick(url: str, eid: str | None) -> dict:
    body = {"inputs": {}, **({"_exec": {"execution_id": eid, "grants": []}} if eid else {})}
    return decode(post(f"{url}/call/counter__tick", body))


def _snapshot(url: str, eid: str | None) -> bytes:
    resp = post(f"{url}/snapshot", {"execution_id": eid})
    assert resp.status_code == 200 and resp.headers["content-type"].startswith(codec.MSGPACK)
    blob = codec.unpack(resp.content)["snapshot"]
    assert isinstance(blob, bytes)
    return blob


def test_manifest_advertises_snapshots(counter):
    url, _, _ = counter
    assert http.get(f"{url}/manifest").json()["snapshot"] is True


def test_each_execution_has_its_own_containers_and_values(counter):
    url, _, _ = counter
    a = [_tick(url, "run-a")["outputs"] for _ in range(3)]
    b = _tick(url, "run-b")["outputs"]
    assert [o["n"] for o in a] == [1, 2, 3] and b["n"] == 1
    assert b["eid"] == "run-b" and a[0]["eid"] == "run-a"
    # the same seed per run: run-b's first draw is run-a's first, not its fourth
    assert b["draw"] == a[0]["draw"]
    # previews in the answer are the caller's own
    assert _tick(url, "run-b")["containers"]["box"]["states"]["n"]["value"] == 2
    # a call without an execution id has a state of its own too
    assert _tick(url, None)["outputs"]["n"] == 1


def test_restore_puts_containers_and_hook_state_back(counter):
    url, _, hooks = counter
    for _ in range(2):
        _tick(url, "run-a")
    blob = _snapshot(url, "run-a")
    later = [_tick(url, "run-a")["outputs"] for _ in range(3)]
    ok = decode(post(f"{url}/restore", {"execution_id": "run-a", "snapshot": blob}))
    assert ok == {"ok": True, "execution_id": "run-a"}
    again = [_tick(url, "run-a")["outputs"] for _ in range(3)]
    assert again == later  # counter, keyed accumulator and RNG all continue as they did
    assert ("save", "run-a") in hooks and ("load", "run-a", False) in hooks
    # the same blob put into another run: a fork that continues like its original
    decode(post(f"{url}/restore", {"execution_id": "fork-1", "snapshot": blob}))
    assert [_tick(url, "fork-1")["outputs"] | {"eid": "run-a"} for _ in range(3)] == later
    read = decode(post(f"{url}/containers/box/read", {"name": "seen", "key": "k", "execution_id": "fork-1"}))
    assert read["value"] == [1, 2, 3, 4, 5]  # the two before the snapshot, three after


def test_restore_null_starts_the_run_fresh(counter):
    url, _, hooks = counter
    first = _tick(url, "run-c")["outputs"]
    _tick(url, "run-c")
    decode(post(f"{url}/restore", {"execution_id": "run-c", "snapshot": None}))
    assert ("load", "run-c", True) in hooks
    assert _tick(url, "run-c")["outputs"] == first


def test_snapshot_is_deterministic_for_equal_states(counter):
    url, _, _ = counter
    _tick(url, "x")
    blob = _snapshot(url, "x")
    assert _snapshot(url, "x") == blob  # nothing changed: the same bytes (the server dedups them)


def test_bad_restores_name_the_problem(counter):
    url, _, _ = counter
    bad = post(f"{url}/restore", {"execution_id": "x", "snapshot": b"\x93\x01\x02\x03"})
    assert bad.status_code == 400 and "not a snapshot of version 1" in bad.json()["detail"]
    wrong = post(f"{url}/restore", {"execution_id": "x", "snapshot": 12}, "json")
    assert wrong.status_code == 400 and "'snapshot' must be the bytes" in wrong.json()["detail"]
    eid = post(f"{url}/snapshot", {"execution_id": 5}, "json")
    assert eid.status_code == 400 and "'execution_id' must be a string" in eid.json()["detail"]


def test_evict_with_an_execution_id_touches_only_that_run():
    svc = NodeService("ev")
    c = svc.container("c", states={"t": State("accumulator")})
    dropped: list[tuple] = []

    @svc.on_evict
    def _hook(key):
        dropped.append((current_execution(), key))

    from statewire_nodes import executing

    for eid in ("a", "b"):
        with executing(eid):
            c.write("t", 1, key="ep1")
    svc._executions.update({"a", "b"})
    assert svc.evict("ep1", "a") == 1 and dropped == [("a", "ep1")]
    with executing("b"):
        assert c.read("t", key="ep1") == [1]
    dropped.clear()
    assert svc.evict("ep1") == 1  # no execution named: every run's partitions (b's is the one left)
    assert sorted(d[0] for d in dropped) == ["a", "b"]


def test_only_one_hook_of_each_kind():
    svc = NodeService("h")
    svc.snapshot(lambda eid: None)
    with pytest.raises(ValueError, match="already has a snapshot hook"):
        svc.snapshot(lambda eid: None)


@pytest.fixture(scope="module")
def gridworld():
    sp = start_gridworld()
    yield sp
    sp.stop()


def _episode_steps(url: str, eid: str, n: int) -> list[dict]:
    """n policy→step rounds of the demo loop (auto reset, epsilon so the RNG matters)."""
    exec_ = {"execution_id": eid, "grants": []}
    out = []
    for _ in range(n):
        act = decode(
            post(
                f"{url}/call/gridworld__policy",
                {"inputs": {"trigger": 1}, "config": {"epsilon": 0.5, "seed": 3}, "_exec": exec_},
            )
        )["outputs"]["action"]
        ans = decode(
            post(
                f"{url}/call/gridworld__step",
                {"inputs": {"action": act}, "config": {"auto_reset": True}, "_exec": exec_},
            )
        )
        o = ans["outputs"]
        out.append(
            {
                "action": act,
                "position": o["position"],
                "episode": o["episode"],
                "reward": o["reward"],
                "frame": o["observation"].tobytes(),
                "stats": ans["containers"]["gridworld_stats"]["states"],
            }
        )
        if "ended" in o:  # as Statewire does at episode_reset
            decode(post(f"{url}/containers/evict", {"key": o["ended"], "execution_id": eid}, "json"))
    return out


def test_gridworld_restore_and_fork_reach_the_same_states(gridworld):
    url = gridworld.url
    decode(
        post(
            f"{url}/call/gridworld__reset",
            {"inputs": {}, "config": {"size": 4, "max_steps": 6}, "_exec": {"execution_id": "g1", "grants": []}},
        )
    )
    _episode_steps(url, "g1", 5)
    blob = _snapshot(url, "g1")
    original = _episode_steps(url, "g1", 12)  # crosses episode ends, evictions and auto resets
    assert len({s["episode"] for s in original}) >= 2
    # restore the original run, and fork into a new execution id: both replay exactly
    decode(post(f"{url}/restore", {"execution_id": "g1", "snapshot": blob}))
    assert _episode_steps(url, "g1", 12) == original
    decode(post(f"{url}/restore", {"execution_id": "g1-fork", "snapshot": blob}))
    assert _episode_steps(url, "g1-fork", 12) == original
    # another run meanwhile is unaffected and starts from nothing
    fresh = post(f"{url}/call/gridworld__step", {"inputs": {"action": 0}, "_exec": {"execution_id": "g2"}})
    assert fresh.status_code == 500 and "no episode yet" in fresh.json()["detail"]
