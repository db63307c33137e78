"""The scenario JSON Schema (draft 2020-12), generated from the panels' parameter dataclasses so
that the schema, the loader and the documentation can never disagree."""

from __future__ import annotations

import dataclasses
import typing
from typing import Any

from gpuviz.keys import KEY_PATTERN
from gpuviz.keys import MAX_DIGITS as MAX_KEY_DIGITS
from gpuviz.models.arch import preset_names
from gpuviz.registry import PANELS
from gpuviz.scenario.decode import _is_optional, field_types
from gpuviz.scenario.document import FORMAT_VERSION


def scenario_schema() -> dict[str, Any]:
    props: dict[str, Any] = {
        "version": {"type": "integer", "const": FORMAT_VERSION,
                    "description": "Scenario format version."},
        "title": {"type": "string"},
        "description": {"type": "string"},
        "arch": {"enum": list(preset_names()), "description": "Architecture preset."},
        "panels": {"type": "array", "minItems": 1, "uniqueItems": True,
                   "items": {"enum": [p.id for p in PANELS]},
                   "description": "Panels to show, in order."},
        "steps": {"type": "array", "items": _step_schema()},
    }
    for p in PANELS:
        s = _dataclass_schema(p.params_type)
        s["description"] = f"{p.title}: {p.summary}."
        props[p.id] = s
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://gpuviz.invalid/scenario-v1.schema.json",
        "title": "gpuviz scenario",
        "type": "object",
        "required": ["version"],
        "additionalProperties": False,
        "properties": props,
    }


def _step_schema() -> dict[str, Any]:
    return {
        "type": "object",
        "required": ["title"],
        "additionalProperties": False,
        "properties": {
            "title": {"type": "string"},
            "caption": {"type": "string", "description": "Shown under the figure. May name live "
                        "values, {panel.field} or {panel.field:format}, e.g. {pipeline.tiles}, or a "
                        "computed one, e.g. {pipeline.result.total_time}."},
            "predict": {"type": "string", "description": "A question to answer before the step's "
                        "picture is revealed."},
            "notes": {"type": "string", "description": "Notes for the lecturer, shown on the "
                      "presenter screen only; never in the room's view or in exports."},
            "changes": {"type": "object", "description": "Partial panel sections, merged over the "
                        "state of the previous step.",
                        "propertyNames": {"enum": [p.id for p in PANELS]}},
            "focus": {"enum": [p.id for p in PANELS]},
            "select": {"type": "array", "items": {
                "type": "string", "pattern": KEY_PATTERN,
                "not": {"pattern": f"[0-9]{{{MAX_KEY_DIGITS + 1}}}"}}},
            "parts": {"type": "array", "uniqueItems": True,
                      "description": "The figure parts the step shows (of its focus panel, or of "
                      "the panels that have them), one idea per slide; left out: whole figures.",
                      "items": {"enum": sorted({part for p in PANELS for part in p.parts})}},
        },
    }


def _dataclass_schema(cls: type) -> dict[str, Any]:
    hints = field_types(cls)
    props = {}
    for f in dataclasses.fields(cls):
        s = _type_schema(hints[f.name], f.metadata)
        if f.metadata.get("doc"):
            s["description"] = f.metadata["doc"]
        if f.default is not dataclasses.MISSING:
            s["default"] = _jsonish(f.default)
        props[f.name] = s
    return {"type": "object", "additionalProperties": False, "properties": props}


def _jsonish(v: Any) -> Any:
    return [_jsonish(x) for x in v] if isinstance(v, tuple) else v


def _type_schema(tp: Any, meta: Any) -> dict[str, Any]:
    optional, inner = _is_optional(tp)
    s = _inner_schema(inner, meta)
    if optional:
        return {"anyOf": [s, {"type": "null"}]}
    return s


def _inner_schema(tp: Any, meta: Any) -> dict[str, Any]:
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        return _dataclass_schema(tp)
    if typing.get_origin(tp) is tuple:
        item = typing.get_args(tp)[0]
        s: dict[str, Any] = {"type": "array",
                             "items": _inner_schema(item, {} if dataclasses.is_dataclass(item) else meta)}
        length = meta.get("length")
        if length is not None:
            lo, hi = (length, length) if isinstance(length, int) else length
            s["minItems"], s["maxItems"] = lo, hi
        return s
    scalars: dict[type, dict[str, Any]] = {bool: {"type": "boolean"}, int: {"type": "integer"},
                                           float: {"type": "number"}, str: {"type": "string"}}
    s = scalars[tp].copy()
    if meta.get("choices") is not None:
        s["enum"] = list(meta["choices"])
    if meta.get("minimum") is not None:
        s["minimum"] = meta["minimum"]
    if meta.get("maximum") is not None:
        s["maximum"] = meta["maximum"]
    return s
