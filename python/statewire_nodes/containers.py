"""Service-owned containers (docs/reference-system.md §3.8, §3.11): named slots folded by reducers, keyed partitions.

They live in the service's process and are shown by Statewire with ``owner`` = the service name from
the previews each ``/call`` answer carries. The executor sends them no signals; per-episode cleanup is
``evict(key)`` (``POST /containers/evict``). A service may still clear lifetimes itself with
``NodeService.broadcast_signal`` (e.g. ``episode_reset`` from its own reset function). Any value type
is allowed here (numpy arrays included): these containers are never checkpointed by the executor.
Their values are kept per execution id (execution.py): each run sees its own slots, and
``snapshot``/``restore`` copy out and put back one run's values (``POST /snapshot``, ``/restore``).
"""

from __future__ import annotations

import copy
import logging
import threading
from dataclasses import dataclass, field
from typing import Any

from .execution import current_execution
from .jsvalues import js_key_order
from .preview import preview_keyed, preview_value
from .reducers import ReducerError, initial_value, is_known_reducer, reduce

log = logging.getLogger("statewire_nodes")

LIFETIME_SIGNALS: dict[str, tuple[str, ...]] = {
    "forever": (),
    "step": ("step_end",),
    "episode": ("episode_reset",),
    "run": ("run_end",),
    "custom": (),
}

_UNSET: Any = object()


class SlotError(KeyError):
    """Read or write of a slot the container does not declare (an HTTP 404 on the container endpoints)."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else ""


@dataclass
class State:
    """One named slot (the graph format's ``StateDef``).

    ``initial_value``, ``max_size`` and ``fields`` are shortcuts for the matching ``config`` keys.
    """

    type: str = "lastWrite"
    value_type: str = "ANY"
    lifetime: str = "forever"
    reset_on: list[str] = field(default_factory=list)
    config: dict = field(default_factory=dict)
    initial_value: Any = _UNSET
    max_size: int | None = None
    fields: dict[str, str] | None = None

    def __post_init__(self) -> None:
        self.config = dict(self.config)
        if self.initial_value is not _UNSET:
            self.config["initial_value"] = self.initial_value
        if self.max_size is not None:
            self.config["max_size"] = self.max_size
        if self.fields is not None:
            self.config["fields"] = dict(self.fields)
        self.reset_on = list(self.reset_on)

    def reset_signals(self) -> tuple[str, ...]:
        """Signals that clear this slot. Unknown lifetimes act as forever; reset_on counts only for custom."""
        if self.lifetime == "custom":
            return tuple(self.reset_on)
        return LIFETIME_SIGNALS.get(self.lifetime, ())

    def to_dict(self) -> dict:
        """Canonical ``StateDef``: ``config``/``lifetime``/``reset_on`` only when not default."""
        out: dict[str, Any] = {"type": self.type, "value_type": self.value_type}
        if self.config:
            out["config"] = copy.deepcopy(self.config)
        if self.lifetime != "forever":
            out["lifetime"] = self.lifetime
        if self.reset_on:
            out["reset_on"] = list(self.reset_on)
        return out


def _key(key: Any) -> str | None:
    if key is None or isinstance(key, str):
        return key
    if isinstance(key, int) and not isinstance(key, bool):
        return str(key)  # keys are strings on the wire; 3 and "3" name one partition, as in Statewire
    raise TypeError(f"container key must be a string, got {type(key).__name__} {key!r}")


class _Slots:
    """One execution's values: the unkeyed slots and the keyed partitions."""

    __slots__ = ("values", "keyed")

    def __init__(self, values: dict[str, Any], keyed: dict[str, dict[str, Any]] | None = None):
        self.values = values
        self.keyed = keyed if keyed is not None else {}


class ServiceContainer:
    """A live container. Thread-safe: sync handlers run concurrently in a thread pool.

    Every operation acts on the values of the current execution (``current_execution()``), created
    fresh on first use.
    """

    def __init__(self, cid: str, label: str = "", states: dict[str, State] | None = None, position=(0, 0)):
        if not isinstance(cid, str) or not cid:
            raise ValueError(f"container id must be a non-empty string, got {cid!r}")
        self.id = cid
        self.label = label
        self.position = {"x": position[0], "y": position[1]}
        self.states: dict[str, State] = {}
        for name, st in (states or {}).items():
            if isinstance(st, str):
                st = State(type=st)
            if not isinstance(st, State):
                raise TypeError(f"container '{cid}' slot '{name}': expected State(...), got {type(st).__name__}")
            if not is_known_reducer(st.type):
                log.warning("container '%s' slot '%s': unknown reducer '%s' folds as lastWrite", cid, name, st.type)
            if st.lifetime not in LIFETIME_SIGNALS:
                log.warning("container '%s' slot '%s': unknown lifetime '%s' acts as forever", cid, name, st.lifetime)
            self.states[name] = st
        self._lock = threading.RLock()
        self._runs: dict[str | None, _Slots] = {}

    @property
    def _values(self) -> dict[str, Any]:
        return self._slots().values

    @property
    def _keyed(self) -> dict[str, dict[str, Any]]:
        return self._slots().keyed

    def _slots(self) -> _Slots:
        eid = current_execution()
        with self._lock:
            slots = self._runs.get(eid)
            if slots is None:
                slots = self._runs[eid] = _Slots({n: self._fresh(n) for n in self.states})
            return slots

    def _fresh(self, name: str) -> Any:
        st = self.states[name]
        return initial_value(st.type, st.config)

    def _spec(self, name: Any, action: str) -> State:
        st = self.states.get(name) if isinstance(name, str) else None
        if st is None:
            declared = ", ".join(self.states) or "none"
            raise SlotError(f"container '{self.id}': {action} of undeclared slot {name!r} (declared slots: {declared})")
        return st

    def read(self, name: str, key: Any = None) -> Any:
        """The slot's value; with ``key``, that key's partition (a fresh initial value if never written)."""
        self._spec(name, "read")
        k = _key(key)
        with self._lock:
            if k is None:
                return self._values[name]
            part = self._keyed.get(name, {})
            return part[k] if k in part else self._fresh(name)

    def write(self, name: str, data: Any, key: Any = None) -> Any:
        """Folds ``data`` with the slot's reducer (per key when given); returns the new value."""
        st = self._spec(name, "write")
        k = _key(key)
        with self._lock:
            before = self.read(name, k)
            try:
                after = reduce(st.type, before, data, st.config)
            except ReducerError as e:
                raise ReducerError(f"container '{self.id}' slot '{name}': {e}") from None
            if k is None:
                self._values[name] = after
            else:
                self._keyed.setdefault(name, {})[k] = after
            return after

    def evict(self, key: Any) -> int:
        """Drops every keyed partition of ``key`` (siblings untouched); returns how many were dropped."""
        k = _key(key)
        removed = 0
        with self._lock:
            for part in self._keyed.values():
                if k in part:
                    del part[k]
                    removed += 1
        return removed

    def evict_everywhere(self, key: Any) -> int:
        """``evict(key)`` in every execution (an evict that names no execution, as the reference sends)."""
        k = _key(key)
        removed = 0
        with self._lock:
            for slots in self._runs.values():
                for part in slots.keyed.values():
                    if k in part:
                        del part[k]
                        removed += 1
        return removed

    def clear(self) -> None:
        """Back to initial values (the current execution's)."""
        with self._lock:
            self._runs.pop(current_execution(), None)

    def executions(self) -> list[str | None]:
        with self._lock:
            return list(self._runs)

    def snapshot(self) -> dict:
        """The current execution's values, deep-copied: ``{"values": {...}, "keyed": {...}}``."""
        with self._lock:
            slots = self._runs.get(current_execution())
            if slots is None:
                return {"values": {}, "keyed": {}}
            return copy.deepcopy({"values": slots.values, "keyed": slots.keyed})

    def restore(self, data: dict | None) -> None:
        """Puts back what ``snapshot`` returned (None: the execution starts fresh). Unknown slots are left
        out (the service no longer declares them); slots the snapshot lacks start fresh."""
        eid = current_execution()
        with self._lock:
            if data is None:
                self._runs.pop(eid, None)
                return
            values = {n: self._fresh(n) for n in self.states}
            for n, v in (data.get("values") or {}).items():
                if n in self.states:
                    values[n] = copy.deepcopy(v)
            keyed = {n: copy.deepcopy(p) for n, p in (data.get("keyed") or {}).items() if n in self.states}
            self._runs[eid] = _Slots(values, keyed)

    def on_signal(self, signal: str) -> list[dict]:
        """Clears every slot subscribed to ``signal`` and its keyed partitions; returns what was cleared."""
        cleared: list[dict] = []
        with self._lock:
            for name, st in self.states.items():
                if signal not in st.reset_signals():
                    continue
                self._values[name] = self._fresh(name)
                cleared.append({"container": self.id, "slot": name})
                for k in js_key_order(self._keyed.get(name, {})):
                    self._keyed[name][k] = self._fresh(name)
                    cleared.append({"container": self.id, "slot": name, "key": k})
        return cleared

    def keys(self, name: str) -> list[str]:
        self._spec(name, "read")
        with self._lock:
            return js_key_order(self._keyed.get(name, {}))

    def preview(self) -> dict:
        """``{name: {type, value_type, lifetime, size?/value?/preview, keys?}}`` (docs/reference-system.md §3.8)."""
        out: dict[str, dict] = {}
        with self._lock:
            for name, st in self.states.items():
                slot = {"type": st.type, "value_type": st.value_type, "lifetime": st.lifetime}
                slot.update(preview_value(self._values[name]))
                part = self._keyed.get(name)
                if part:
                    # As Statewire's snapshot: the template's preview fields stay, keyed ones override.
                    slot.update(preview_keyed(part))
                out[name] = slot
        return out

    def to_dict(self) -> dict:
        """The graph format's ``ContainerDef``, as the manifest lists it."""
        return {
            "id": self.id,
            "label": self.label,
            "position": dict(self.position),
            "states": {n: st.to_dict() for n, st in self.states.items()},
        }
