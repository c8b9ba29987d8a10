"""The example service examples/services/gridworld_py, started as its own process like Statewire does."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import decode, http, post, start_gridworld

from statewire_nodes import codec


@pytest.fixture(scope="module")
def gridworld():
    sp = start_gridworld()
    yield sp
    sp.stop()


def test_manifest_lists_its_functions_and_container(gridworld):
    m = http.get(f"{gridworld.url}/manifest").json()
    assert [f["name"] for f in m["functions"]] == [
        "gridworld__reset",
        "gridworld__step",
        "gridworld__policy",
        "gridworld__record_reward",
    ]
    assert m["containers"][0]["id"] == "gridworld_stats"
    assert m["containers"][0]["states"]["last_reward"]["lifetime"] == "episode"


def test_a_greedy_episode_reaches_the_goal(gridworld):
    url = gridworld.url
    first = decode(post(f"{url}/call/gridworld__reset", {"inputs": {}, "config": {"size": 4, "max_steps": 20}}))
    obs = first["outputs"]
    assert obs["observation"].dtype == np.uint8 and obs["observation"].shape == (64, 64, 3)
    assert obs["depth"].dtype == np.float32 and obs["depth"].shape == (64, 64)
    assert obs["depth"].min() == pytest.approx(np.sqrt(2) / 32, rel=1e-5)  # the pixel nearest the agent's centre
    ep = obs["episode"]
    steps = 0
    while not obs["done"]:
        act = decode(
            post(
                f"{url}/call/gridworld__policy",
                {"inputs": {"position": obs["position"], "goal": obs["goal"]}, "config": {"epsilon": 0}},
            )
        )
        answer = decode(
            post(f"{url}/call/gridworld__step", {"inputs": {"action": act["outputs"]["action"], "episode": ep}})
        )
        obs = answer["outputs"]
        steps += 1
    assert steps == 6 and obs["position"] == [3, 3] and obs["reward"] == 1.0
    stats = answer["containers"]["gridworld_stats"]["states"]
    assert stats["last_reward"]["value"] == 1.0
    assert stats["visit_counts"]["keys"] >= 1
    # the executor's episode-end cleanup drops this episode's partitions only
    evicted = decode(post(f"{url}/containers/evict", {"key": ep}, "json"))
    assert evicted == {"evicted": 2, "key": ep}
    read = decode(post(f"{url}/containers/gridworld_stats/read", {"name": "trail", "key": ep}))
    assert read["value"] == []
    # ... and the service's on_evict hook dropped the episode's grid with them
    gone = post(f"{url}/call/gridworld__step", {"inputs": {"action": 0, "episode": ep}})
    assert gone.status_code == 500 and f"unknown or evicted episode '{ep}'" in gone.json()["detail"]


def test_json_encoding_sends_the_observation_as_png(gridworld):
    body = decode(post(f"{gridworld.url}/call/gridworld__reset", {"inputs": {}, "config": {"size": 3}}, "json"))
    out = body["outputs"]
    img = codec.from_json_value(out["observation"], "IMAGE")
    assert img.shape == (48, 48, 3) and tuple(img[24, 24]) != tuple(img[40, 40])
    depth = codec.from_json_value(out["depth"])
    assert depth.dtype == np.float32 and depth.shape == (48, 48)


def test_bad_actions_and_config_name_the_problem(gridworld):
    decode(post(f"{gridworld.url}/call/gridworld__reset", {"inputs": {}}))
    bad = post(f"{gridworld.url}/call/gridworld__step", {"inputs": {"action": 9}})
    assert bad.status_code == 500 and "action must be 0 up, 1 right, 2 down or 3 left; got 9" in bad.json()["detail"]
    size = post(f"{gridworld.url}/call/gridworld__reset", {"inputs": {}, "config": {"size": 99}}, "json")
    assert (
        size.status_code == 400
        and size.json()["detail"] == "gridworld__reset: config.size = 99 is above the maximum 32"
    )


def test_record_reward_writes_the_granted_executor_container(executor):
    sp = start_gridworld(env={"STATEWIRE_EXECUTOR_URL": executor.url}, via_cli=True)
    try:
        grant = {"execution_id": "exec-1", "grants": ["episode_log"], "node_id": "rec", "step": 3}
        decode(post(f"{sp.url}/call/gridworld__record_reward", {"inputs": {"reward": -0.01}, "_exec": grant}))
        last = decode(
            post(f"{sp.url}/call/gridworld__record_reward", {"inputs": {"reward": 1.0, "done": True}, "_exec": grant})
        )
    finally:
        sp.stop()
    assert last["outputs"]["total"] == pytest.approx(0.99)
    assert executor.containers["episode_log"].read("rewards") == [-0.01, 1.0]
    (event,) = executor.events
    assert (event["code"], event["node_id"], event["step"], event["nodeset"]) == ("EPISODE_DONE", "rec", 3, "gridworld")
    assert event["message"] == "episode finished with return 0.99"
