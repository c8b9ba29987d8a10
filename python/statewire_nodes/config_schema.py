"""A function's ``config_schema``: the JSON-Schema subset Statewire renders as a form.

Fields of type string / number / integer / boolean, ``enum`` and arrays of those become form fields;
anything else is kept and shown as raw JSON. At a call, missing fields get their ``default`` and the
fields the schema types are checked, so a wrong config is a clear 400 naming the field, not a crash
deep in the handler. Keys the schema does not declare pass through untouched.
"""

from __future__ import annotations

import copy
from typing import Any

JSON_TYPES = ("string", "number", "integer", "boolean", "array", "object", "null")
_PRIMITIVES = ("string", "number", "integer", "boolean")


class ConfigError(ValueError):
    pass


def build_schema(config: dict | None, where: str) -> dict:
    """``{name: property}`` or a whole ``{"type": "object", "properties": …}`` → a checked object schema."""
    if config is None:
        return {"type": "object", "properties": {}}
    if not isinstance(config, dict):
        raise ConfigError(f"{where}: config must be a dict of fields, got {type(config).__name__}")
    schema = (
        copy.deepcopy(config) if "properties" in config else {"type": "object", "properties": copy.deepcopy(config)}
    )
    props = schema.get("properties")
    if not isinstance(props, dict):
        raise ConfigError(f"{where}: config 'properties' must be a dict")
    for name, prop in props.items():
        at = f"{where}: config field '{name}'"
        if not isinstance(prop, dict):
            raise ConfigError(f"{at} must be a JSON-Schema dict like {{'type': 'number'}}, got {prop!r}")
        t = prop.get("type")
        if t is not None and t not in JSON_TYPES:
            raise ConfigError(f"{at}: unknown type {t!r} (one of {', '.join(JSON_TYPES)})")
        if "enum" in prop and (not isinstance(prop["enum"], list) or not prop["enum"]):
            raise ConfigError(f"{at}: enum must be a non-empty list")
        if "default" in prop:
            problem = _problem(prop["default"], prop)
            if problem:
                raise ConfigError(f"{at}: default {prop['default']!r} {problem}")
    required = schema.get("required", [])
    missing = [r for r in required if r not in props] if isinstance(required, list) else ["(not a list)"]
    if missing:
        raise ConfigError(f"{where}: config 'required' names undeclared fields {missing}")
    return schema


def _type_ok(v: Any, t: str) -> bool:
    if t == "string":
        return isinstance(v, str)
    if t == "boolean":
        return isinstance(v, bool)
    if t == "integer":
        return not isinstance(v, bool) and (isinstance(v, int) or (isinstance(v, float) and v.is_integer()))
    if t == "number":
        return not isinstance(v, bool) and isinstance(v, (int, float))
    if t == "array":
        return isinstance(v, list)
    if t == "object":
        return isinstance(v, dict)
    return v is None  # "null"


def _problem(v: Any, prop: dict) -> str | None:
    """Why ``v`` does not fit ``prop``, or None."""
    if "enum" in prop and v not in prop["enum"]:
        return f"is not one of {prop['enum']}"
    t = prop.get("type")
    if t is not None and not _type_ok(v, t):
        return f"is not of type {t}"
    if t in ("number", "integer"):
        if "minimum" in prop and v < prop["minimum"]:
            return f"is below the minimum {prop['minimum']}"
        if "maximum" in prop and v > prop["maximum"]:
            return f"is above the maximum {prop['maximum']}"
    if t == "array" and isinstance(prop.get("items"), dict):
        items = prop["items"]
        if items.get("type") in _PRIMITIVES or "enum" in items:
            for i, x in enumerate(v):
                p = _problem(x, items)
                if p:
                    return f"has item [{i}] = {x!r} that {p}"
    return None


def apply_config(schema: dict, config: Any, where: str) -> dict:
    """The config a handler sees: the caller's values, checked, with defaults for absent fields."""
    if config is None:
        config = {}
    if not isinstance(config, dict):
        raise ConfigError(f"{where}: config must be an object, got {type(config).__name__}")
    out = dict(config)
    for name, prop in schema.get("properties", {}).items():
        if name not in out or out[name] is None:
            if "default" in prop:
                out[name] = copy.deepcopy(prop["default"])
            continue
        problem = _problem(out[name], prop)
        if problem:
            raise ConfigError(f"{where}: config.{name} = {out[name]!r} {problem}")
    missing = [r for r in schema.get("required", []) if r not in out]
    if missing:
        raise ConfigError(f"{where}: config is missing required field(s) {', '.join(missing)}")
    return out
