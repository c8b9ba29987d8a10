"""Serving a ``NodeService`` with uvicorn.

    python -m statewire_nodes.serve my_module:svc --port 9200
    python -m statewire_nodes.serve path/to/server.py --port 0     # port 0: the OS picks one

or, in a service file, ``svc.run()`` (reads ``--port``, ``--host``, ``--log-level`` from argv). Once the
socket listens, one line goes to stdout:
``statewire-nodes: <name> <version> listening on http://<host>:<port>`` (the real port when 0 was asked).
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import logging
import sys
import threading
import time
from pathlib import Path

import uvicorn

from .service import NodeService

DEFAULT_HOST = "127.0.0.1"


class _Server(uvicorn.Server):
    """A uvicorn server that announces the address it really listens on."""

    def __init__(self, config: uvicorn.Config, label: str, announce: bool = True):
        super().__init__(config)
        self.label = label
        self.announce = announce
        self.port: int | None = None

    async def startup(self, sockets=None) -> None:
        await super().startup(sockets=sockets)
        if not self.started:
            return
        self.port = self.servers[0].sockets[0].getsockname()[1]
        if self.announce:
            print(
                f"statewire-nodes: {self.label} listening on http://{self.config.host}:{self.port}",
                flush=True,
            )


def _config(app, host: str, port: int, log_level: str) -> uvicorn.Config:
    # No access log: a graph run calls /call thousands of times and the run log should stay readable.
    return uvicorn.Config(app, host=host, port=port, log_level=log_level, access_log=False)


def parse_args(argv: list[str] | None, with_target: bool = False) -> argparse.Namespace:
    p = argparse.ArgumentParser(description="Serve a statewire-nodes NodeService over HTTP.")
    if with_target:
        p.add_argument("target", help="module:attr, path/to/file.py[:attr]; attr defaults to the module's NodeService")
    p.add_argument("--port", type=int, default=0, help="port to listen on (0: any free port; default 0)")
    p.add_argument("--host", default=DEFAULT_HOST, help=f"interface to bind (default {DEFAULT_HOST})")
    p.add_argument("--log-level", default="warning", choices=["critical", "error", "warning", "info", "debug"])
    return p.parse_args(argv)


def run_service(
    svc: NodeService, port: int | None = None, host: str | None = None, argv: list[str] | None = None
) -> None:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    if not logging.getLogger("statewire_nodes").handlers:
        logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s", stream=sys.stderr)
        # httpx logs every request to the executor at INFO: one line per container read or write, which
        # would bury the service's own lines in the run log. Its warnings and errors still show.
        logging.getLogger("httpx").setLevel(logging.WARNING)
    config = _config(svc.app, host or args.host, args.port if port is None else port, args.log_level)
    server = _Server(config, f"{svc.name} {svc.version}")
    server.run()


class BackgroundServer:
    """A service (or any ASGI app) served from a thread of this process, for tests and notebooks.

    ``with BackgroundServer(svc) as url: ...`` — port 0 by default, so parallel runs never collide.
    """

    def __init__(self, target, host: str = DEFAULT_HOST, port: int = 0):
        app = target.app if isinstance(target, NodeService) else target
        label = target.name if isinstance(target, NodeService) else "app"
        self.server = _Server(_config(app, host, port, "warning"), label, announce=False)
        self.thread = threading.Thread(target=self.server.run, name=f"statewire-nodes:{label}", daemon=True)
        self.host = host

    def start(self, timeout_s: float = 10.0) -> str:
        self.thread.start()
        deadline = time.monotonic() + timeout_s
        while self.server.port is None:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError(f"service did not start listening within {timeout_s} s")
            time.sleep(0.01)
        return self.url

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.server.port}"

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)

    def __enter__(self) -> str:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


def load_target(target: str) -> NodeService:
    """``module:attr`` or ``file.py[:attr]``; without attr, the module's one NodeService."""
    ref, _, attr = target.partition(":")
    if ref.endswith(".py") or "/" in ref:
        path = Path(ref).resolve()
        if not path.is_file():
            raise SystemExit(f"statewire-nodes: no such file: {path}")
        sys.path.insert(0, str(path.parent))
        spec = importlib.util.spec_from_file_location(path.stem, path)
        assert spec and spec.loader
        module = importlib.util.module_from_spec(spec)
        sys.modules[path.stem] = module
        spec.loader.exec_module(module)
    else:
        sys.path.insert(0, ".")
        module = importlib.import_module(ref)
    if attr:
        svc = getattr(module, attr, None)
        if not isinstance(svc, NodeService):
            raise SystemExit(f"statewire-nodes: {target} is not a NodeService (got {type(svc).__name__})")
        return svc
    found = [v for v in vars(module).values() if isinstance(v, NodeService)]
    if len(found) != 1:
        raise SystemExit(f"statewire-nodes: {ref} defines {len(found)} NodeService objects; name one as {ref}:attr")
    return found[0]


def main(argv: list[str] | None = None) -> None:
    args = parse_args(sys.argv[1:] if argv is None else argv, with_target=True)
    svc = load_target(args.target)
    rest = ["--port", str(args.port), "--host", args.host, "--log-level", args.log_level]
    run_service(svc, argv=rest)


if __name__ == "__main__":
    main()
