"""``NodeService``: functions declared by decorator, service-owned containers, and the call logic.

The HTTP layer (``app.py``) only moves bytes; everything a call means lives here:

    svc = NodeService("gridworld", version="0.1.0")

    @svc.function(inputs={"action": Port("DISCRETE_ACTION")}, outputs={"reward": Port("METRICS")},
                  config={"scale": {"type": "number", "default": 1.0}})
    def step(action, config, ctx):
        return {"reward": config["scale"] * action}

A handler's parameters are bound by name: each input port by its name, ``config`` (the checked
config with defaults), ``ctx`` (the ``Context``) and ``inputs`` (all present inputs as a dict). The
node type in graphs is ``<service>__<function>``. Handlers may be plain or ``async`` functions; plain
ones run in a thread pool, so a slow simulator step does not block other calls.
"""

from __future__ import annotations

import contextvars
import inspect
import logging
import threading
from dataclasses import dataclass, field
from typing import Any, Callable

from . import codec
from .config_schema import ConfigError, apply_config, build_schema
from .containers import ServiceContainer, State
from .context import Context
from .execution import executing
from .firelist import FireList
from .wire_types import check_wire_type

log = logging.getLogger("statewire_nodes")

RESERVED_PARAMS = ("config", "ctx", "inputs")
# Layout of the blobs ``POST /snapshot`` answers with; a restore refuses any other.
SNAPSHOT_VERSION = 1


class CallError(Exception):
    """A call that cannot be answered with outputs; ``status`` is the HTTP status to answer with."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status
        self.message = message


@dataclass
class Port:
    wire_type: str = "ANY"
    description: str = ""
    optional: bool = False


@dataclass
class Function:
    name: str
    description: str
    inputs: dict[str, Port]
    outputs: dict[str, Port]
    config_schema: dict
    ui_config: dict = field(default_factory=dict)
    handler: Callable | None = None
    params: tuple[str, ...] = ()
    takes_all: bool = False
    defaults: dict[str, Any] = field(default_factory=dict)

    def schema(self) -> dict:
        def ports(ps: dict[str, Port]) -> list[dict]:
            return [
                {"name": n, "wire_type": p.wire_type, "description": p.description, "optional": p.optional}
                for n, p in ps.items()
            ]

        return {
            "name": self.name,
            "description": self.description,
            "input_ports": ports(self.inputs),
            "output_ports": ports(self.outputs),
            "config_schema": self.config_schema,
            "ui_config": self.ui_config,
        }


def _ports(spec: dict | None, where: str) -> dict[str, Port]:
    out: dict[str, Port] = {}
    for name, p in (spec or {}).items():
        if not isinstance(name, str) or not name:
            raise ValueError(f"{where}: port names must be non-empty strings, got {name!r}")
        if name in RESERVED_PARAMS:
            raise ValueError(
                f"{where}: port name '{name}' is reserved (handler parameters {', '.join(RESERVED_PARAMS)})"
            )
        port = Port(p) if isinstance(p, str) else p
        if not isinstance(port, Port):
            raise TypeError(f"{where} port '{name}': expected Port(...) or a wire type string, got {p!r}")
        port = Port(check_wire_type(port.wire_type, f"{where} port '{name}'"), port.description, bool(port.optional))
        out[name] = port
    return out


class NodeService:
    def __init__(self, name: str, version: str = "0.1.0", description: str = ""):
        if not isinstance(name, str) or not name.strip() or "__" in name:
            raise ValueError(f"service name must be a non-empty string without '__', got {name!r}")
        self.name = name
        self.version = version
        self.description = description
        self.functions: dict[str, Function] = {}
        self.containers: dict[str, ServiceContainer] = {}
        self._evict_hooks: list[Callable[[str], Any]] = []
        self._snapshot_hook: Callable[[str | None], Any] | None = None
        self._restore_hook: Callable[[str | None, Any], Any] | None = None
        # Execution ids seen in calls (an evict naming no execution runs the hooks in each of them).
        self._executions: set[str | None] = set()
        self._exec_lock = threading.Lock()
        self._app = None

    # ── declaration ───────────────────────────────────────────────────────────────────────────

    def function(
        self,
        fn: Callable | None = None,
        *,
        name: str | None = None,
        inputs: dict | None = None,
        outputs: dict | None = None,
        config: dict | None = None,
        description: str | None = None,
        ui_config: dict | None = None,
    ):
        """Decorator registering ``fn`` as ``<service>__<name or fn.__name__>``."""

        def register(f: Callable) -> Callable:
            self._register(f, name or f.__name__, inputs, outputs, config, description, ui_config)
            return f

        return register(fn) if fn is not None else register

    def declare(self, name: str, *, inputs=None, outputs=None, config=None, description="", ui_config=None) -> Function:
        """A function listed in the manifest without a handler (calls answer 501), e.g. while porting."""
        return self._register(None, name, inputs, outputs, config, description, ui_config)

    def _register(self, f, short, inputs, outputs, config, description, ui_config) -> Function:
        full = f"{self.name}__{short}"
        where = f"function '{full}'"
        if full in self.functions:
            raise ValueError(f"{where} is declared twice")
        fdef = Function(
            name=full,
            description=description if description is not None else inspect.cleandoc(f.__doc__ or "") if f else "",
            inputs=_ports(inputs, f"{where} input"),
            outputs=_ports(outputs, f"{where} output"),
            config_schema=build_schema(config, where),
            ui_config=dict(ui_config or {}),
            handler=f,
        )
        if f is not None:
            self._bind(fdef, f, where)
        self.functions[full] = fdef
        return fdef

    @staticmethod
    def _bind(fdef: Function, f: Callable, where: str) -> None:
        params = []
        for p in inspect.signature(f).parameters.values():
            if p.kind == p.VAR_KEYWORD:
                fdef.takes_all = True
                continue
            if p.kind in (p.VAR_POSITIONAL, p.POSITIONAL_ONLY):
                raise TypeError(f"{where}: parameter '{p.name}' must be passable by name")
            if p.name not in fdef.inputs and p.name not in RESERVED_PARAMS:
                if p.default is p.empty:
                    known = ", ".join([*fdef.inputs, *RESERVED_PARAMS])
                    raise TypeError(f"{where}: parameter '{p.name}' is not an input port nor one of ({known})")
                continue
            if p.default is not p.empty:
                fdef.defaults[p.name] = p.default
            params.append(p.name)
        fdef.params = tuple(params)

    def container(
        self, cid: str, label: str = "", states: dict[str, State] | None = None, position=(0, 0)
    ) -> ServiceContainer:
        """Declares a service-owned container; listed in the manifest, previewed in every call answer."""
        if cid in self.containers:
            raise ValueError(f"container '{cid}' is declared twice in service '{self.name}'")
        c = ServiceContainer(cid, label, states, position)
        self.containers[cid] = c
        return c

    # ── what the endpoints answer ─────────────────────────────────────────────────────────────

    def health(self) -> dict:
        return {"status": "ok", "name": self.name, "version": self.version}

    def manifest(self) -> dict:
        return codec.to_json_value(
            {
                "name": self.name,
                "version": self.version,
                "description": self.description,
                "functions": [f.schema() for f in self.functions.values()],
                "containers": [c.to_dict() for c in self.containers.values()],
                # POST /snapshot and /restore: owned containers are copied per execution, and what
                # lives elsewhere is covered by the @svc.snapshot / @svc.restore hooks.
                "snapshot": True,
            },
            None,
            "manifest",
        )

    def previews(self) -> dict:
        return {cid: {"label": c.label, "states": c.preview()} for cid, c in self.containers.items()}

    def on_evict(self, hook: Callable[[str], Any]) -> Callable[[str], Any]:
        """Decorator: ``hook(key)`` runs on ``POST /containers/evict`` (e.g. to drop an episode's simulator)."""
        self._evict_hooks.append(hook)
        return hook

    def evict(self, key: str, execution_id: str | None = None) -> int:
        """Drops ``key``'s partitions in every owned container; returns how many partitions were dropped.

        With ``execution_id`` only that run's partitions go (and the ``on_evict`` hooks run as that
        execution); without (the reference's evict names no run), every execution's do, and the hooks
        run once in each execution the service has served.
        """
        if execution_id is not None:
            with executing(execution_id):
                removed = sum(c.evict(key) for c in self.containers.values())
                for hook in self._evict_hooks:
                    hook(key)
            return removed
        removed = sum(c.evict_everywhere(key) for c in self.containers.values())
        with self._exec_lock:
            seen = set(self._executions) | {e for c in self.containers.values() for e in c.executions()}
        for eid in seen:
            with executing(eid):
                for hook in self._evict_hooks:
                    hook(key)
        return removed

    # ── snapshots (time travel with the service's state) ──────────────────────────────────────

    def snapshot(self, hook: Callable[[str | None], Any]) -> Callable[[str | None], Any]:
        """Decorator: ``hook(execution_id)`` returns that run's state kept outside owned containers
        (environments, RNGs, caches) as a msgpack-able value (numpy arrays allowed)."""
        if self._snapshot_hook is not None:
            raise ValueError(f"service '{self.name}' already has a snapshot hook ({self._snapshot_hook.__name__})")
        self._snapshot_hook = hook
        return hook

    def restore(self, hook: Callable[[str | None, Any], Any]) -> Callable[[str | None, Any], Any]:
        """Decorator: ``hook(execution_id, value)`` puts back what the snapshot hook returned; ``value`` is
        None when the run is to start fresh (it had not called the service yet at that step)."""
        if self._restore_hook is not None:
            raise ValueError(f"service '{self.name}' already has a restore hook ({self._restore_hook.__name__})")
        self._restore_hook = hook
        return hook

    def take_snapshot(self, execution_id: str | None) -> bytes:
        """One run's state as an opaque blob (``POST /snapshot``): its owned containers and the hook's value."""
        with executing(execution_id):
            state = {
                "v": SNAPSHOT_VERSION,
                "containers": {cid: c.snapshot() for cid, c in self.containers.items()},
                "hook": self._snapshot_hook(execution_id) if self._snapshot_hook else None,
            }
        try:
            return codec.pack(state)
        except codec.CodecError as e:
            raise CallError(500, f"snapshot of execution {execution_id!r}: {e}") from None

    def put_back(self, execution_id: str | None, blob: bytes | None) -> None:
        """``POST /restore``: the run's state becomes what ``blob`` holds (None: fresh, as before its first call)."""
        state = None
        if blob is not None:
            try:
                state = codec.unpack(bytes(blob))
            except codec.CodecError as e:
                raise CallError(400, f"restore of execution {execution_id!r}: unreadable snapshot ({e})") from None
            if not isinstance(state, dict) or state.get("v") != SNAPSHOT_VERSION:
                got = state.get("v") if isinstance(state, dict) else type(state).__name__
                raise CallError(
                    400,
                    f"restore of execution {execution_id!r}: not a snapshot of version {SNAPSHOT_VERSION} (got {got!r})",
                )
        with executing(execution_id):
            saved = (state or {}).get("containers") or {}
            for cid, c in self.containers.items():
                c.restore(saved.get(cid) if state is not None else None)
            if self._restore_hook:
                self._restore_hook(execution_id, state.get("hook") if state is not None else None)

    def broadcast_signal(self, signal: str) -> list[dict]:
        """Clears the owned slots whose lifetime subscribes to ``signal`` (the executor never sends one)."""
        return [ref for c in self.containers.values() for ref in c.on_signal(signal)]

    def container_or_404(self, cid: str) -> ServiceContainer:
        c = self.containers.get(cid)
        if c is None:
            owned = ", ".join(self.containers) or "none"
            raise CallError(404, f"Unknown container: {cid} (service '{self.name}' owns: {owned})")
        return c

    async def call(self, fname: str, body: Any, json_mode: bool) -> dict:
        """The answer body of ``POST /call/{fname}``, already encoded-ready for the request's encoding."""
        from starlette.concurrency import run_in_threadpool

        fdef = self.functions.get(fname)
        if fdef is None:
            raise CallError(404, f"Unknown function: {fname}")
        if fdef.handler is None:
            raise CallError(501, f"No handler for: {fname}")
        if not isinstance(body, dict):
            raise CallError(400, f"{fname}: the body must be an object with 'inputs', got {type(body).__name__}")
        raw_inputs = body.get("inputs") or {}
        if not isinstance(raw_inputs, dict):
            raise CallError(400, f"{fname}: 'inputs' must be an object, got {type(raw_inputs).__name__}")
        try:
            inputs = self._inputs(fdef, raw_inputs, json_mode)
            config = apply_config(fdef.config_schema, body.get("config"), fname)
        except (ConfigError, codec.CodecError) as e:
            raise CallError(400, str(e)) from None
        ctx = Context(self.name, fname, self.containers, body.get("_exec"))
        kwargs = self._kwargs(fdef, inputs, config, ctx)
        with self._exec_lock:
            self._executions.add(ctx.execution_id)
        # The whole call (handler, previews) acts on this run's state; the copied context carries
        # the execution id into the thread-pool worker.
        with executing(ctx.execution_id):
            try:
                if inspect.iscoroutinefunction(fdef.handler):
                    result = await fdef.handler(**kwargs)
                else:
                    result = await run_in_threadpool(contextvars.copy_context().run, fdef.handler, **kwargs)
            except Exception as e:
                log.exception("%s failed", fname)
                raise CallError(500, str(e) or type(e).__name__) from None
            finally:
                await run_in_threadpool(ctx.flush)
            return self._answer(fdef, result, json_mode)

    def _inputs(self, fdef: Function, raw: dict, json_mode: bool) -> dict:
        inputs: dict[str, Any] = {}
        for name, port in fdef.inputs.items():
            v = raw.get(name)
            if v is None:
                if not port.optional:
                    raise codec.CodecError(f"{fdef.name}: missing required input '{name}' ({port.wire_type})")
                continue
            inputs[name] = codec.from_json_value(v, port.wire_type, f"inputs.{name}") if json_mode else v
        return inputs

    @staticmethod
    def _kwargs(fdef: Function, inputs: dict, config: dict, ctx: Context) -> dict:
        special = {"config": config, "ctx": ctx, "inputs": inputs}
        kwargs: dict[str, Any] = {}
        for p in fdef.params:
            if p in special:
                kwargs[p] = special[p]
            elif p in inputs:
                kwargs[p] = inputs[p]
            elif p not in fdef.defaults:
                kwargs[p] = None  # an absent optional input
        if fdef.takes_all:
            for n, v in inputs.items():
                kwargs.setdefault(n, v)
        return kwargs

    def _answer(self, fdef: Function, result: Any, json_mode: bool) -> dict:
        answer: dict[str, Any]
        try:
            if isinstance(result, FireList):
                fl = result.to_dict()
                answer = {"__firelist__": codec.to_json_value(fl, None, "__firelist__") if json_mode else fl}
            else:
                answer = {"outputs": self._outputs(fdef, result, json_mode)}
            previews = self.previews()
            if previews:
                answer["containers"] = codec.to_json_value(previews, None, "containers") if json_mode else previews
        except codec.CodecError as e:
            raise CallError(500, f"{fdef.name}: {e}") from None
        return answer

    @staticmethod
    def _outputs(fdef: Function, result: Any, json_mode: bool) -> dict:
        if result is None:
            result = {}
        if not isinstance(result, dict):
            raise CallError(
                500,
                f"{fdef.name} returned a {type(result).__name__}; return a dict of outputs "
                f"({', '.join(fdef.outputs) or 'none declared'}) or a firelist(...)",
            )
        extra = [k for k in result if k not in fdef.outputs]
        if extra:
            declared = ", ".join(fdef.outputs) or "none"
            raise CallError(
                500, f"{fdef.name} returned undeclared output(s) {', '.join(map(str, extra))} (declared: {declared})"
            )
        outputs: dict[str, Any] = {}
        for name, v in result.items():
            if v is None:
                continue  # None values are not sent
            wt = fdef.outputs[name].wire_type
            outputs[name] = codec.to_json_value(v, wt, f"outputs.{name}") if json_mode else v
        return outputs

    # ── serving ───────────────────────────────────────────────────────────────────────────────

    @property
    def app(self):
        """The FastAPI application (built once)."""
        if self._app is None:
            from .app import build_app

            self._app = build_app(self)
        return self._app

    def run(self, port: int | None = None, host: str | None = None, argv: list[str] | None = None) -> None:
        """Serves until stopped. ``--port``/``--host``/``--log-level`` from ``argv`` (default: sys.argv)."""
        from .serve import run_service

        run_service(self, port=port, host=host, argv=argv)
