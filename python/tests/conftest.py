"""Shared test pieces: real uvicorn servers on free ports, real HTTP, and a minimal executor peer."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from fastapi import FastAPI, Request, Response

from statewire_nodes import ServiceContainer, SlotError, State, codec
from statewire_nodes.serve import BackgroundServer

REPO = Path(__file__).resolve().parents[2]
GRIDWORLD = REPO / "examples" / "services" / "gridworld_py"


# One pooled client: building an httpx client per request costs tens of ms (TLS setup), per call.
http = httpx.Client(timeout=10, trust_env=False)


def post(url: str, body, encoding: str = "msgpack") -> httpx.Response:
    """POSTs ``body`` in the given encoding (msgpack with the blob codec, or plain JSON)."""
    if encoding == "msgpack":
        return http.post(url, content=codec.pack(body), headers={"content-type": codec.MSGPACK})
    return http.post(url, content=json.dumps(body), headers={"content-type": codec.JSON})


def decode(resp: httpx.Response):
    assert resp.status_code < 400, f"{resp.status_code}: {resp.text}"
    if codec.wants_msgpack(resp.headers.get("content-type")):
        return codec.unpack(resp.content)
    return resp.json()


class Executor:
    """The executor's side of the internal endpoints, for real over HTTP (it is the service's peer).

    Holds one live execution id (others answer 409, like a stopped run), home containers folded by
    the same reducers, and the events pushed to it.
    """

    def __init__(self) -> None:
        self.live = "exec-1"
        self.containers = {
            "episode_log": ServiceContainer(
                "episode_log", states={"rewards": State("accumulator"), "note": State("lastWrite")}
            )
        }
        self.events: list[dict] = []
        self.requests: list[str] = []
        app = FastAPI()

        @app.post("/api/internal/containers/{eid}/{cid}/{op}")
        async def op(eid: str, cid: str, op: str, request: Request) -> Response:
            self.requests.append(f"{eid}/{cid}/{op}")
            if request.headers.get("content-type") != codec.MSGPACK:
                return Response(json.dumps({"error": "msgpack only"}), 415, media_type="application/json")
            if eid != self.live:
                return Response(json.dumps({"error": f"stale execution {eid}"}), 409, media_type="application/json")
            c = self.containers.get(cid)
            if c is None:
                return Response(
                    json.dumps({"error": f"container {cid} not granted"}), 403, media_type="application/json"
                )
            body = codec.unpack(await request.body())
            try:
                if op == "read":
                    answer = {"value": c.read(body["name"], body.get("key"))}
                elif op == "write":
                    c.write(body["name"], body["data"], body.get("key"))
                    answer = {"ok": True}
                else:
                    c.evict(body["key"])
                    answer = {"ok": True}
            except SlotError as e:
                return Response(json.dumps({"error": str(e)}), 404, media_type="application/json")
            return Response(codec.pack(answer), media_type=codec.MSGPACK)

        @app.post("/api/internal/events")
        async def events(request: Request) -> dict:
            self.events.extend((await request.json())["events"])
            return {"ok": True}

        self.server = BackgroundServer(app)

    def __enter__(self) -> Executor:
        self.url = self.server.start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.stop()


@pytest.fixture
def executor(monkeypatch):
    with Executor() as ex:
        monkeypatch.setenv("STATEWIRE_EXECUTOR_URL", ex.url)
        monkeypatch.delenv("AGENTCANVAS_EXECUTOR_URL", raising=False)
        yield ex


class ServiceProcess:
    """A service started as its own process, as Statewire starts a ``command`` entry."""

    def __init__(self, argv: list[str], cwd: Path, env: dict | None = None):
        self.proc = subprocess.Popen(
            argv,
            cwd=cwd,
            env={**os.environ, **(env or {})},
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        line = self.proc.stdout.readline()  # blocks until the service announces itself (or exits)
        if "listening on" not in line:
            self.proc.kill()
            raise RuntimeError(f"service did not start: {line!r} {self.proc.stderr.read()}")
        self.url = line.strip().rsplit(" ", 1)[1]

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def start_gridworld(env: dict | None = None, via_cli: bool = False) -> ServiceProcess:
    if via_cli:
        argv = [sys.executable, "-m", "statewire_nodes.serve", str(GRIDWORLD / "server.py") + ":svc", "--port", "0"]
    else:
        argv = [sys.executable, "server.py", "--port", "0"]
    t0 = time.monotonic()
    sp = ServiceProcess(argv, GRIDWORLD, env)
    sp.startup_s = time.monotonic() - t0
    return sp
