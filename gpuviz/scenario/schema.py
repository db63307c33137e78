"""The scenario JSON Schema (draft 2020-12), generated from the panels' parameter dataclasses so
that the schema, the loader and the documentation can never disagree."""

from __future__ import annotations

from typing import Any

from gpuviz.keys import KEY_PATTERN, MAX_SELECTED
from gpuviz.keys import MAX_DIGITS as MAX_KEY_DIGITS
from gpuviz.models.arch import preset_names
from gpuviz.models.params import FieldSpec, field_specs
from gpuviz.registry import PANELS
from gpuviz.scenario.document import FORMAT_VERSION
from gpuviz.scenario.io import MAX_TEXT, MAX_TITLE


def scenario_schema() -> dict[str, Any]:
    props: dict[str, Any] = {
        "version": {"type": "integer", "const": FORMAT_VERSION,
                    "description": "Scenario format version."},
        "title": {"type": "string", "maxLength": MAX_TITLE},
        "description": {"type": "string", "maxLength": MAX_TEXT},
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
        "description": "A lecture of GPU pictures. `gpuviz validate` refuses a file that breaks "
                       "this schema or a model's rules (file: json.path: message, exit 2) and "
                       "accepts, with a warning, values computed exactly but likely not meant, "
                       "such as a grid that leaves elements unprocessed (file: json.path: "
                       "warning: message on standard error, exit 0).",
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
            "title": {"type": "string", "maxLength": MAX_TITLE},
            "caption": {"type": "string", "maxLength": MAX_TEXT, "description": "Shown under the figure. May name live "
                        "values, {panel.field} or {panel.field:format}, e.g. {pipeline.tiles}, or a "
                        "computed one, e.g. {pipeline.result.total_time}."},
            "predict": {"type": "string", "maxLength": MAX_TEXT, "description": "A question to answer before the step's "
                        "picture is revealed."},
            "notes": {"type": "string", "maxLength": MAX_TEXT, "description": "Notes for the lecturer, shown on the "
                      "presenter screen only; never in the room's view or in exports."},
            "changes": {"type": "object", "description": "Partial panel sections, merged over the "
                        "state of the previous step.",
                        "propertyNames": {"enum": [p.id for p in PANELS]}},
            "focus": {"enum": [p.id for p in PANELS]},
            "select": {"type": "array", "maxItems": MAX_SELECTED, "items": {
                "type": "string", "pattern": KEY_PATTERN,
                "not": {"pattern": f"[0-9]{{{MAX_KEY_DIGITS + 1}}}"}}},
            "parts": {"type": "array", "uniqueItems": True,
                      "maxItems": len({part for p in PANELS for part in p.parts}),
                      "description": "The figure parts the step shows (of its focus panel, or of "
                      "the panels that have them), one idea per slide; left out: whole figures.",
                      "items": {"enum": sorted({part for p in PANELS for part in p.parts})}},
        },
    }


def _dataclass_schema(cls: type) -> dict[str, Any]:
    props = {}
    for spec in field_specs(cls):
        s = _type_schema(spec)
        if spec.doc:
            s["description"] = spec.doc
        if spec.has_default:
            s["default"] = _jsonish(spec.default)
        props[spec.name] = s
    return {"type": "object", "additionalProperties": False, "properties": props}


def _jsonish(v: Any) -> Any:
    return [_jsonish(x) for x in v] if isinstance(v, tuple) else v


def _type_schema(spec: FieldSpec) -> dict[str, Any]:
    s = _inner_schema(spec)
    if spec.optional:
        return {"anyOf": [s, {"type": "null"}]}
    return s


def _inner_schema(spec: FieldSpec) -> dict[str, Any]:
    record = spec.record
    if record is not None:
        return _dataclass_schema(record)
    if spec.is_tuple:
        s: dict[str, Any] = {"type": "array", "items": _type_schema(spec.item)}
        bounds = spec.length_range
        if bounds is not None:
            s["minItems"], s["maxItems"] = bounds
        return s
    scalars: dict[type, dict[str, Any]] = {bool: {"type": "boolean"}, int: {"type": "integer"},
                                           float: {"type": "number"}, str: {"type": "string"}}
    s = scalars[spec.type].copy()
    if spec.choices is not None:
        s["enum"] = list(spec.choices)
    if spec.minimum is not None:
        s["minimum"] = spec.minimum
    if spec.maximum is not None:
        s["maximum"] = spec.maximum
    return s
