"""Which run (execution id) the code running now serves.

Statewire sends each call's ``_exec.execution_id``; the service keeps its state per execution id, so
two runs (an original and its fork, two batch episodes) never see each other's grids, RNGs or
container slots, and one run's state can be snapshotted and put back alone (``POST /snapshot`` and
``POST /restore``, docs/node-services-protocol.md). The id lives in a context variable: it follows
a call into its thread-pool worker and into async code, and is ``None`` for calls that carry none
(a reference executor, a hand-made request), which share one default state.
"""

from __future__ import annotations

import contextvars
import threading
from contextlib import contextmanager
from typing import Callable, Generic, Iterator, TypeVar

T = TypeVar("T")

_current: contextvars.ContextVar[str | None] = contextvars.ContextVar("statewire_execution", default=None)


def current_execution() -> str | None:
    """The execution id of the call (or snapshot/restore/evict) being served; None outside one."""
    return _current.get()


@contextmanager
def executing(execution_id: str | None) -> Iterator[None]:
    """Runs the block as execution ``execution_id`` (containers and ``PerExecution`` values follow it)."""
    token = _current.set(None if execution_id is None else str(execution_id))
    try:
        yield
    finally:
        _current.reset(token)


class PerExecution(Generic[T]):
    """A value per execution id, made by ``factory()`` on first use: the home of a service's own state
    (environments, RNGs, caches) so each run has its own. Snapshot it with ``@svc.snapshot`` hooks.
    """

    def __init__(self, factory: Callable[[], T]):
        self._factory = factory
        self._values: dict[str | None, T] = {}
        self._lock = threading.Lock()

    def get(self) -> T:
        """The current execution's value (created on first use)."""
        eid = current_execution()
        with self._lock:
            if eid not in self._values:
                self._values[eid] = self._factory()
            return self._values[eid]

    def set(self, value: T) -> None:
        with self._lock:
            self._values[current_execution()] = value

    def drop(self) -> None:
        """Forgets the current execution's value (the next ``get`` makes a fresh one)."""
        with self._lock:
            self._values.pop(current_execution(), None)
