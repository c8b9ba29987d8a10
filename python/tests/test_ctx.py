"""``ctx``: granted executor containers and log events, through a real executor peer over HTTP."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import decode, post

from statewire_nodes import NodeService, Port, State
from statewire_nodes.serve import BackgroundServer

svc = NodeService("probe")
own = svc.container("own", states={"n": State("counter")})


@svc.function(inputs={"value": Port("ANY")}, outputs={"rewards": Port("ANY")}, config={"key": {"type": "string"}})
def remember(value, config, ctx):
    ctx.write("episode_log", "rewards", value, key=config.get("key"))
    return {"rewards": ctx.read("episode_log", "rewards", key=config.get("key"))}


@svc.function(outputs={"n": Port("ANY")})
def count(ctx):
    ctx.containers["own"].write("n", 1)
    return {"n": ctx.read("own", "n")}


@svc.function(inputs={"msg": Port("TEXT")})
def tell(msg, ctx):
    ctx.log("warning", msg, code="LOW_BATTERY", level=0.1)
    ctx.log("info", "second")


@svc.function()
def clean(ctx):
    ctx.evict("episode_log", "ep1")


@pytest.fixture(scope="module")
def url():
    with BackgroundServer(svc) as u:
        yield u


def exec_info(eid="exec-1", grants=("episode_log",), **extra):
    return {"execution_id": eid, "grants": list(grants), **extra}


@pytest.mark.parametrize("encoding", ["msgpack", "json"])
def test_granted_container_is_written_and_read_through_the_executor(url, executor, encoding):
    for r in (1.0, 0.5):
        body = decode(post(f"{url}/call/probe__remember", {"inputs": {"value": r}, "_exec": exec_info()}, encoding))
    assert body["outputs"]["rewards"] == [1.0, 0.5]
    assert executor.containers["episode_log"].read("rewards") == [1.0, 0.5]
    assert executor.requests[:2] == ["exec-1/episode_log/write", "exec-1/episode_log/read"]


def test_arrays_and_keys_cross_to_the_executor_intact(url, executor):
    depth = np.linspace(0, 1, 12, dtype=np.float32).reshape(3, 4)
    body = {"inputs": {"value": depth}, "config": {"key": "ep1"}, "_exec": exec_info()}
    rewards = decode(post(f"{url}/call/probe__remember", body))["outputs"]["rewards"]
    assert len(rewards) == 1 and rewards[0].tobytes() == depth.tobytes()
    assert executor.containers["episode_log"].read("rewards") == []  # only the ep1 partition was written
    decode(post(f"{url}/call/probe__clean", {"_exec": exec_info()}))
    assert executor.containers["episode_log"].keys("rewards") == []


def test_a_container_not_granted_is_refused_before_any_request(url, executor):
    resp = post(f"{url}/call/probe__remember", {"inputs": {"value": 1}, "_exec": exec_info(grants=())})
    assert resp.status_code == 500
    assert resp.json()["detail"] == (
        "probe__remember: container 'episode_log' is not granted to this node (granted: none; owned by probe: own)"
    )
    assert executor.requests == []


def test_a_stale_execution_id_is_an_error_naming_it(url, executor):
    resp = post(f"{url}/call/probe__remember", {"inputs": {"value": 1}, "_exec": exec_info(eid="exec-0")})
    assert resp.status_code == 500
    assert (
        "container 'episode_log' write: execution 'exec-0' is stale (stale execution exec-0)" == resp.json()["detail"]
    )


def test_owned_containers_need_no_grant(url, executor):
    assert decode(post(f"{url}/call/probe__count", {}))["outputs"]["n"] >= 1
    assert executor.requests == []


def test_log_events_reach_the_executor_with_node_and_step(url, executor):
    body = {"inputs": {"msg": "battery at 10%"}, "_exec": exec_info(node_id="n7", step=4)}
    assert decode(post(f"{url}/call/probe__tell", body, "json"))["outputs"] == {}
    first, second = executor.events
    assert first == {
        "severity": "warning",
        "message": "battery at 10%",
        "code": "LOW_BATTERY",
        "node_id": "n7",
        "step": 4,
        "nodeset": "probe",
        "execution_id": "exec-1",
        "details": {"function": "probe__tell", "level": 0.1},
    }
    assert (second["severity"], second["code"]) == ("info", "SERVICE_LOG")


def test_the_reference_variable_names_the_executor_too(url, executor, monkeypatch):
    monkeypatch.delenv("STATEWIRE_EXECUTOR_URL")
    monkeypatch.setenv("AGENTCANVAS_EXECUTOR_URL", executor.url)
    decode(post(f"{url}/call/probe__remember", {"inputs": {"value": 2}, "_exec": exec_info()}))
    assert executor.containers["episode_log"].read("rewards") == [2]


def test_without_an_executor_url_logging_is_local_and_grants_fail_clearly(url, monkeypatch):
    monkeypatch.delenv("STATEWIRE_EXECUTOR_URL", raising=False)
    monkeypatch.delenv("AGENTCANVAS_EXECUTOR_URL", raising=False)
    assert post(f"{url}/call/probe__tell", {"inputs": {"msg": "hi"}}).status_code == 200
    resp = post(f"{url}/call/probe__remember", {"inputs": {"value": 1}, "_exec": exec_info()})
    assert (
        resp.status_code == 500
        and "STATEWIRE_EXECUTOR_URL nor AGENTCANVAS_EXECUTOR_URL is set" in resp.json()["detail"]
    )
