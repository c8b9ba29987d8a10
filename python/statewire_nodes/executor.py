"""The service's way back to the executor that called it (docs/node-services-protocol.md "Calls back into Statewire").

Granted executor containers: ``POST {executor}/api/internal/containers/{execution_id}/{cid}/{read|write|evict}``
with msgpack bodies (409 = the execution id is stale). Log events: ``POST {executor}/api/internal/events``
with JSON ``{"events": [...]}``. The executor's base URL comes from ``STATEWIRE_EXECUTOR_URL`` (or the
reference's ``AGENTCANVAS_EXECUTOR_URL``), read on each use so a restarted executor's URL is seen.
"""

from __future__ import annotations

import json
import logging
import os
import threading
from urllib.parse import quote

import httpx

from . import codec

log = logging.getLogger("statewire_nodes")

ENV_VARS = ("STATEWIRE_EXECUTOR_URL", "AGENTCANVAS_EXECUTOR_URL")
CONTAINER_TIMEOUT_S = 30.0
EVENTS_TIMEOUT_S = 5.0


class ExecutorError(RuntimeError):
    """The executor refused or failed a container operation; ``status`` is its HTTP status (0: unreachable)."""

    def __init__(self, message: str, status: int = 0):
        super().__init__(message)
        self.status = status


class StaleExecutionError(ExecutorError):
    """409: the execution this call belonged to is over (stopped, restored or replaced)."""


def executor_url(override: str | None = None) -> str | None:
    """The call's ``_exec.executor_url`` when Statewire sent one (a headless ``statewire run`` has its own
    endpoints), else the environment (what the reference's executor sets for the services it starts)."""
    if isinstance(override, str) and override.strip():
        return override.strip().rstrip("/")
    for name in ENV_VARS:
        url = os.environ.get(name, "").strip()
        if url:
            return url.rstrip("/")
    return None


_client: httpx.Client | None = None
_client_lock = threading.Lock()


def client() -> httpx.Client:
    """One pooled client per process (httpx.Client is thread-safe); loopback needs no proxy."""
    global _client
    with _client_lock:
        if _client is None:
            _client = httpx.Client(trust_env=False)
        return _client


def _detail(resp: httpx.Response) -> str:
    ctype = resp.headers.get("content-type", "")
    try:
        body = codec.unpack(resp.content) if codec.wants_msgpack(ctype) else json.loads(resp.content)
    except Exception:
        return resp.text[:300]
    if isinstance(body, dict):
        for k in ("detail", "error", "message"):
            if k in body:
                return str(body[k])
    return str(body)[:300]


def container_op(execution_id: str, cid: str, op: str, body: dict, base_url: str | None = None) -> dict:
    base = executor_url(base_url)
    if base is None:
        raise ExecutorError(
            f"container '{cid}' is granted but neither {' nor '.join(ENV_VARS)} is set: "
            "the service cannot reach the executor"
        )
    url = f"{base}/api/internal/containers/{quote(execution_id, safe='')}/{quote(cid, safe='')}/{op}"
    try:
        resp = client().post(
            url,
            content=codec.pack(body),
            headers={"content-type": codec.MSGPACK, "accept": codec.MSGPACK},
            timeout=CONTAINER_TIMEOUT_S,
        )
    except httpx.HTTPError as e:
        raise ExecutorError(f"container '{cid}' {op}: executor at {base} unreachable ({e})") from None
    if resp.status_code == 409:
        raise StaleExecutionError(f"container '{cid}' {op}: execution '{execution_id}' is stale ({_detail(resp)})", 409)
    if resp.status_code >= 400:
        raise ExecutorError(
            f"container '{cid}' {op}: executor answered {resp.status_code}: {_detail(resp)}", resp.status_code
        )
    answer = codec.unpack(resp.content) if resp.content else {}
    return answer if isinstance(answer, dict) else {}


def push_events(events: list[dict], base_url: str | None = None) -> bool:
    """Best effort: a log event must never fail the call that logged it. False if not delivered."""
    base = executor_url(base_url)
    if base is None or not events:
        return False
    try:
        safe = [codec.to_json_value(e, None, "event") for e in events]
        resp = client().post(
            f"{base}/api/internal/events",
            content=codec.dumps_json({"events": safe}),
            headers={"content-type": codec.JSON},
            timeout=EVENTS_TIMEOUT_S,
        )
        if resp.status_code >= 400:
            log.warning("executor refused %d event(s): %s %s", len(events), resp.status_code, _detail(resp))
            return False
        return True
    except (httpx.HTTPError, codec.CodecError) as e:
        log.warning("could not push %d event(s) to the executor: %s", len(events), e)
        return False
