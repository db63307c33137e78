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
PANELS = ("banks", "sectors", "occupancy", "traversal")
#: Fields that do not change a panel's measured quantity, left out when sections are matched
#: (the traversal's DRAM traffic is the main order's at the cache's size: the sweep and the
#: order drawn beside it change nothing of it)
IGNORED = {"traversal": ("sweep", "sweep_capacities", "compare_order")}


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
    tolerance: float = 0.0  # relative: the file's agreement rule (0: exactly equal)

    def agrees_with(self, value: float) -> bool:
        if self.tolerance:
            return abs(float(value) - self.measured) <= self.tolerance * abs(self.measured)
        return float(value) == self.measured

    def difference(self, value: float) -> float:
        """(model − measured) ÷ measured."""
        return (float(value) - self.measured) / self.measured if self.measured else 0.0

    def label(self, value: float | None = None) -> str:
        """E.g. "H200 measured: 4 (agrees)", "H200 measured: 2.21 (model 1.69: 24 % under)"."""
        short = self.device.replace("NVIDIA ", "")
        text = f"{short} measured: {number(self.measured)}"
        if value is None:
            return text
        if self.agrees_with(value):
            return text + " (agrees)"
        if not self.tolerance:
            return text + f" (model {number(value)} differs)"
        off = self.difference(value)
        return text + (f" (model {number(value)}: {abs(off) * 100:.0f} % "
                       f"{'over' if off > 0 else 'under'})")


def number(value: float) -> str:
    """A count as it is ("4", "1024"); a ratio to three significant digits ("2.21")."""
    return f"{value:g}" if float(value).is_integer() else f"{value:.3g}"


NOT_MEASURED = "not measured"


def _key(panel: str, section: dict[str, Any]) -> str:
    return panel + ":" + json.dumps(section, sort_keys=True, separators=(",", ":"))


def section_of(panel: str, params) -> dict[str, Any]:
    """The canonical section of parameters: only fields that differ from the defaults."""
    from gpuviz.scenario.decode import encode_changes

    section = encode_changes(type(params)(), params)
    for name in IGNORED.get(panel, ()):
        section.pop(name, None)
    if panel == "traversal":
        if section.get("cache", "tiles") != "tiles":
            section.pop("capacity", None)  # the L2 sizes the cache
        if params.order != "grouped":
            section.pop("group_m", None)  # only the grouped order reads it
        if params.order != "explicit":
            section.pop("explicit", None)
    return section


@lru_cache(maxsize=len(PANELS))
def _index(wanted: str) -> dict[str, Measured]:
    """The cases of one panel, by key (decoding every panel's sections would cost seconds: the
    occupancy files hold thousands)."""
    from gpuviz.scenario.io import decode_section

    index: dict[str, Measured] = {}
    for path in shipped():
        data = load(path)
        known = data.get("known_disagreements", {})
        tol = float(data.get("tolerance", 0.0))
        for case in data["cases"]:
            panel = case["panel"]
            if panel != wanted:
                continue
            params, problems = decode_section(panel, case["section"])
            if problems or params is None:
                continue
            quantity, unit = QUANTITY[panel]
            index.setdefault(_key(panel, section_of(panel, params)), Measured(
                panel=panel, quantity=quantity, unit=unit, measured=float(case["measured"]),
                model=case.get("model"), device=data.get("device", ""),
                metric=case.get("metric", ""), file=path.name, case_id=case["id"],
                known=known.get(case["id"]), tolerance=tol))
    return index


def lookup(panel: str, params) -> Measured | None:
    """The shipped measurement of exactly these (effective) parameters, or None."""
    if panel not in PANELS:
        return None
    return _index(panel).get(_key(panel, section_of(panel, params)))


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
