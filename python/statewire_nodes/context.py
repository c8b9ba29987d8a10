"""The per-call context a function receives as ``ctx`` (docs/reference-system.md §3.7; ``_exec`` in docs/node-services-protocol.md "A call").

``ctx.containers`` maps container ids to handles: the service's own containers, overlaid (as in the
reference) with one remote handle per executor container granted to the calling node. A container
that is neither owned nor granted is refused here, before any request leaves the process.
"""

from __future__ import annotations

import logging
from typing import Any

from . import executor
from .containers import ServiceContainer

log = logging.getLogger("statewire_nodes")

SEVERITIES = ("error", "warning", "info", "debug")
_LOG_LEVELS = {"error": logging.ERROR, "warning": logging.WARNING, "info": logging.INFO, "debug": logging.DEBUG}
_MAX_BUFFERED = 100


class NotGrantedError(PermissionError):
    """The function touched a container that is neither the service's nor granted to the calling node."""


class RemoteContainer:
    """An executor container granted to the calling node, read and written through the executor."""

    def __init__(self, cid: str, execution_id: str, executor_url: str | None = None):
        self.id = cid
        self.execution_id = execution_id
        self.executor_url = executor_url

    def read(self, name: str, key: str | None = None) -> Any:
        body: dict[str, Any] = {"name": name}
        if key is not None:
            body["key"] = key
        return executor.container_op(self.execution_id, self.id, "read", body, self.executor_url).get("value")

    def write(self, name: str, data: Any, key: str | None = None) -> None:
        body: dict[str, Any] = {"name": name, "data": data}
        if key is not None:
            body["key"] = key
        executor.container_op(self.execution_id, self.id, "write", body, self.executor_url)

    def evict(self, key: str) -> None:
        executor.container_op(self.execution_id, self.id, "evict", {"key": key}, self.executor_url)


class Context:
    def __init__(
        self,
        service: str,
        function: str,
        owned: dict[str, ServiceContainer],
        exec_info: dict | None = None,
    ):
        info = exec_info if isinstance(exec_info, dict) else {}
        self.service = service
        self.function = function
        self.execution_id: str | None = info.get("execution_id")
        grants = info.get("grants") or []
        self.grants: tuple[str, ...] = tuple(str(g) for g in grants) if isinstance(grants, (list, tuple)) else ()
        self.node_id: str | None = info.get("node_id")
        self.step: int | None = info.get("step")
        # The call's idempotency key: the executor sends the same one again when it re-sends this
        # call after a crash (a handler with side effects outside Statewire can deduplicate on it).
        call_id = info.get("call_id")
        self.call_id: str | None = call_id if isinstance(call_id, str) else None
        url = info.get("executor_url")
        self.executor_url: str | None = url if isinstance(url, str) else None
        self.containers: dict[str, Any] = dict(owned)
        if self.execution_id:
            for cid in self.grants:
                self.containers[cid] = RemoteContainer(cid, str(self.execution_id), self.executor_url)
        self._events: list[dict] = []

    def container(self, cid: str) -> Any:
        handle = self.containers.get(cid)
        if handle is None:
            granted = ", ".join(self.grants) or "none"
            owned = ", ".join(c for c, h in self.containers.items() if isinstance(h, ServiceContainer)) or "none"
            why = " (no execution id in this call's _exec)" if cid in self.grants else ""
            raise NotGrantedError(
                f"{self.function}: container '{cid}' is not granted to this node{why} "
                f"(granted: {granted}; owned by {self.service}: {owned})"
            )
        return handle

    def read(self, cid: str, name: str, key: str | None = None) -> Any:
        return self.container(cid).read(name, key)

    def write(self, cid: str, name: str, data: Any, key: str | None = None) -> None:
        self.container(cid).write(name, data, key)

    def evict(self, cid: str, key: str) -> None:
        self.container(cid).evict(key)

    def log(self, severity: str, message: str, code: str = "SERVICE_LOG", **details: Any) -> None:
        """Queues an event for the executor's Log panel (sent when the call ends) and logs it locally."""
        if severity not in SEVERITIES:
            raise ValueError(f"ctx.log: severity must be one of {', '.join(SEVERITIES)}, got {severity!r}")
        log.log(_LOG_LEVELS[severity], "%s: %s", self.function, message)
        self._events.append(
            {
                "severity": severity,
                "message": str(message),
                "code": code,
                "node_id": self.node_id,
                "step": self.step,
                "nodeset": self.service,
                "execution_id": self.execution_id,
                "details": {"function": self.function, **details},
            }
        )
        if len(self._events) >= _MAX_BUFFERED:
            self.flush()

    def flush(self) -> None:
        events, self._events = self._events, []
        executor.push_events(events, self.executor_url)
