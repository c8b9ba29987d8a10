"""Runs a graph file on the reference system's own executor, for comparing results with Statewire.

Not part of Statewire or its tests: it imports the reference's backend (run it with the reference's
python, from its backend folder). The reference's server needs packages its venv may lack (litellm,
requests), so this drives its GraphExecutor directly: server-mode proxy nodes are generated from the
manifests of node services that are already running (NAME=URL arguments), and the reference's own
internal routers (container callbacks, pushed events) are served on --executor-port, which is what
the services' AGENTCANVAS_EXECUTOR_URL must point to. The reference has no `constant` node; a shim
with Statewire's meaning (emit config.value) is registered. Prints the graphOut values, the final
home containers, the error-bus events and the run's status messages as JSON.

    cd "$REFERENCE_ROOT/agentcanvas/backend"
    PYTHONPATH=. "$REFERENCE_ROOT/.venv/bin/python" path/to/compare_on_reference.py \\
        --executor-port 7150 path/to/graph.json example=http://127.0.0.1:7131 ...
"""

from __future__ import annotations

import argparse
import asyncio
import json
import threading
import time
import types
from typing import Any, ClassVar

import httpx
import uvicorn
from fastapi import FastAPI

from app.agent_loop.builtin_nodes import NODE_HANDLERS
from app.agent_loop.graph_executor import GraphExecutor
from app.agent_loop.loop_runner import get_loop_runner
from app.api.execution import internal_containers, internal_events
from app.components import BaseCanvasNode, PortDef
from app.errors import get_bus
from app.graph_def import GraphDefinition
from app.models import WSMessage
from app.server.manifest import ServerManifest
from app.server.proxy import generate_proxy_nodes

EXECUTION_ID = "ref_exec_1"


class Constant(BaseCanvasNode):
    """Statewire's `constant`: emits its config's value once (the reference has no such node)."""

    node_type = "constant"
    input_ports: ClassVar[list] = []
    output_ports: ClassVar[list] = [PortDef("value", "ANY", "")]

    async def forward(self, inputs: dict, ctx: Any) -> dict:
        return {"value": self.config.get("value")}


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("graph")
    p.add_argument("--executor-port", type=int, required=True)
    p.add_argument("services", nargs="*", help="NAME=URL of a running node service")
    args = p.parse_args()

    NODE_HANDLERS["constant"] = Constant
    for spec in args.services:
        _name, url = spec.split("=", 1)
        manifest = ServerManifest.from_dict(httpx.get(f"{url}/manifest").json())
        for cls in generate_proxy_nodes(url, manifest):
            NODE_HANDLERS[cls.node_type] = cls

    app = FastAPI()
    app.include_router(internal_containers.router, prefix="/api/internal")
    app.include_router(internal_events.router, prefix="/api/internal")
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=args.executor_port, log_level="warning"))
    threading.Thread(target=server.run, daemon=True).start()
    while not server.started:
        time.sleep(0.05)

    events: list[dict] = []
    bus = get_bus()
    emit = bus.emit

    def capture(**kw: Any) -> Any:
        events.append({k: kw.get(k) for k in ("severity", "code", "title", "message", "scope")})
        return emit(**kw)

    bus.emit = capture
    messages: list[dict] = []

    def ws(msg_type: str, data: Any = None) -> WSMessage:
        messages.append({"type": msg_type, "data": data})
        return WSMessage(type=msg_type, data=data, execution_id=EXECUTION_ID)

    with open(args.graph) as f:
        graph = GraphDefinition.from_dict(json.load(f))
    executor = GraphExecutor()
    session = types.SimpleNamespace(
        _ws=ws, _metrics={}, _status="idle", _current_step=0, _execution_id=EXECUTION_ID
    )
    runner = get_loop_runner()  # the internal routers find the live executor here
    runner._executor = executor
    runner._execution_id = EXECUTION_ID
    asyncio.run(executor.run(graph, session, execution_id=EXECUTION_ID, step_delay_ms=0))
    time.sleep(0.5)  # events the services push after their last answer

    outputs = {
        n.config.get("portName", nid): n.state.get("_last_inputs", {}).get("value")
        for nid, n in executor.nodes.items()
        if n.type == "graphOut"
    }
    containers = {
        cid: {slot: c.read(slot) for slot in c.states} for cid, c in executor.containers.items()
    }
    status = [m for m in messages if m["type"] in ("nav_status", "nav_complete")]
    print(json.dumps(
        {"steps": executor.step_counter, "outputs": outputs, "containers": containers,
         "events": events, "status": status},
        default=lambda o: f"<{type(o).__name__}>", indent=1,
    ))


if __name__ == "__main__":
    main()
