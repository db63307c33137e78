"""What the H200 measured for a panel section, if anything: the lookup behind "H200 measured".

The shipped measurement files (``resources/measurements/*.json``, see
:mod:`gpuviz.kernels.measure` and docs/hardware-notes.md) record, per case, the panel section
(scenario JSON of the effective parameters, only the fields that differ from the defaults), the
measured value and the model's value when the file was made. :func:`lookup` finds the case whose
section equals the given parameters. Qt-free.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from gpuviz.kernels.measure import QUANTITY, load, shipped

#: Panels whose sections can be matched to a measurement.
PANELS = ("banks", "sectors", "occupancy", "mma")


def _measured_part(panel: str, params):
    """The parameters a measurement depends on: for mma, the fragment load (feed) alone."""
    if panel == "mma":
        return type(params)(feed=params.feed)
    return params


@dataclass(frozen=True)
class Measured:
    panel: str
    quantity: str  # the model's result field, e.g. "rounds"
    unit: str  # in words, e.g. "shared-memory wavefronts"
    measured: float
    model: float | None  # the model's value when the file was made
    device: str
    metric: str
    file: str
    case_id: str
    known: str | None  # why the model and the device differ, when they are known to

    def agrees_with(self, value: float) -> bool:
        return float(value) == self.measured

    def label(self, value: float | None = None) -> str:
        """E.g. "H200 measured: 4 (agrees)"."""
        short = self.device.replace("NVIDIA ", "")
        text = f"{short} measured: {self.measured:g}"
        if value is not None:
            text += " (agrees)" if self.agrees_with(value) else f" (model {value:g} differs)"
        return text


NOT_MEASURED = "not measured"


def _key(panel: str, section: dict[str, Any]) -> str:
    return panel + ":" + json.dumps(section, sort_keys=True, separators=(",", ":"))


def section_of(panel: str, params) -> dict[str, Any]:
    """The canonical section of parameters: only fields that differ from the defaults."""
    from gpuviz.scenario.decode import encode_changes

    return encode_changes(type(params)(), params)


@lru_cache(maxsize=1)
def _index() -> dict[str, Measured]:
    from gpuviz.scenario.io import decode_section

    index: dict[str, Measured] = {}
    for path in shipped():
        data = load(path)
        known = data.get("known_disagreements", {})
        for case in data["cases"]:
            panel = case["panel"]
            if panel not in PANELS:
                continue
            params, problems = decode_section(panel, case["section"])
            if problems or params is None:
                continue
            quantity, unit = QUANTITY[panel]
            index.setdefault(_key(panel, section_of(panel, _measured_part(panel, params))), Measured(
                panel=panel, quantity=quantity, unit=unit, measured=float(case["measured"]),
                model=case.get("model"), device=data.get("device", ""),
                metric=case.get("metric", ""), file=path.name, case_id=case["id"],
                known=known.get(case["id"])))
    return index


def lookup(panel: str, params) -> Measured | None:
    """The shipped measurement of exactly these (effective) parameters, or None."""
    if panel not in PANELS:
        return None
    return _index().get(_key(panel, section_of(panel, _measured_part(panel, params))))


def label(panel: str, params, value: float) -> str:
    """"H200 measured: 4 (agrees)", or "not measured"."""
    m = lookup(panel, params)
    return m.label(value) if m else NOT_MEASURED


def all_cases() -> list[dict[str, Any]]:
    """Every shipped case with its file's device, for the Measurements dock: file, id, panel,
    source, metric, model (as stored), measured, agrees, known."""
    out = []
    for path in shipped():
        data = load(path)
        known = data.get("known_disagreements", {})
        tol = float(data.get("tolerance", 0.0))
        for c in data["cases"]:
            model = c.get("model")
            measured = float(c["measured"])
            if model is None:
                agrees = None
            elif tol:
                agrees = abs(model - measured) <= tol * max(abs(measured), 1e-12)
            else:
                agrees = model == measured
            out.append({"file": path.name, "device": data.get("device", ""), "id": c["id"],
                        "panel": c["panel"], "source": c.get("source", ""),
                        "metric": c.get("metric", ""), "model": model, "measured": measured,
                        "agrees": agrees, "known": known.get(c["id"])})
    return out
