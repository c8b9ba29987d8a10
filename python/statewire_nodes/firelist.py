"""Dynamic fire-lists (docs/reference-system.md §3.12): a function may answer with children for the executor to fire.

Return ``firelist(fire("svc__fn", inputs={...}), ..., spawner_outputs={...})`` instead of outputs; the
``/call`` answer then is ``{"__firelist__": {"specs", "spawner_outputs", "aggregator"}}``. Children run
sequentially as ``<spawner>::dyn<i>`` and inherit the spawner's grants.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class FireSpec:
    node_type: str
    inputs: dict = field(default_factory=dict)
    config: dict = field(default_factory=dict)
    label: str = ""
    capture_outputs: list[str] | None = None

    def to_dict(self) -> dict:
        return {
            "node_type": self.node_type,
            "inputs": self.inputs,
            "config": self.config,
            "label": self.label,
            "capture_outputs": self.capture_outputs,
        }


@dataclass
class FireList:
    specs: list[FireSpec] = field(default_factory=list)
    spawner_outputs: dict = field(default_factory=dict)
    # A declarative aggregator as the executor knows them (passthrough_last, passthrough_index,
    # merge_all, rename), passed through as given; None lets the executor use its default.
    aggregator: Any = None

    def to_dict(self) -> dict:
        return {
            "specs": [s.to_dict() for s in self.specs],
            "spawner_outputs": self.spawner_outputs,
            "aggregator": self.aggregator,
        }


def fire(
    node_type: str,
    inputs: dict | None = None,
    config: dict | None = None,
    label: str = "",
    capture_outputs: list[str] | None = None,
) -> FireSpec:
    if not isinstance(node_type, str) or not node_type:
        raise ValueError(f"fire: node_type must be a non-empty string, got {node_type!r}")
    return FireSpec(node_type, dict(inputs or {}), dict(config or {}), label, capture_outputs)


def firelist(*specs: FireSpec, spawner_outputs: dict | None = None, aggregator: Any = None) -> FireList:
    for i, s in enumerate(specs):
        if not isinstance(s, FireSpec):
            raise TypeError(f"firelist: spec [{i}] is a {type(s).__name__}; build specs with fire(...)")
    return FireList(list(specs), dict(spawner_outputs or {}), aggregator)
