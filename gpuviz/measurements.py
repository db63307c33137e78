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
from functools import cache, lru_cache
from typing import Any

from gpuviz.kernels.measure import load, shipped
from gpuviz.registry import PANELS as REGISTERED
from gpuviz.registry import panel as registered

#: Panels whose sections can be matched to a measurement (the registry's ``measured.by_section``).
PANELS: tuple[str, ...] = tuple(p.id for p in REGISTERED
                                if p.measured is not None and p.measured.by_section)
#: Panels whose compared quantity is a fraction, shown in percent (``measured.fraction``).
PERCENT: tuple[str, ...] = tuple(p.id for p in REGISTERED
                                 if p.measured is not None and p.measured.fraction)


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

    def label(self, value: float | None = None) -> str:
        """E.g. "H200 measured: 4 (agrees)", "H200 measured: 2.21 (model 1.69: 24 % under)";
        for a measured fraction (the scheduler's issue utilisation) "H200 measured: 47.1 %
        (agrees within 10 %)" or "H200 measured: 76.1 % (model 89.5 %, 18 % higher)"."""
        short = self.device.replace("NVIDIA ", "")
        if self.panel not in PERCENT:
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
        text = f"{short} measured: {self.measured:.1%}".replace("%", " %")
        if value is None:
            return text
        if self.agrees_with(value):
            return text + f" (agrees within {self.tolerance:.0%})".replace("%", " %")
        off = self.difference(value)
        return text + (f" (model {float(value):.1%}, {abs(off):.0%} "
                       f"{'higher' if off > 0 else 'lower'})").replace("%", " %")

    def difference(self, value: float) -> float:
        """(model − measured) ÷ measured."""
        return (float(value) - self.measured) / self.measured if self.measured else 0.0


def number(value: float) -> str:
    """A count as it is ("4", "1024"); a ratio to three significant digits ("2.21")."""
    return f"{value:g}" if float(value).is_integer() else f"{value:.3g}"


def format_value(panel: str, value: float) -> str:
    """The model's compared number as the measured line shows it."""
    return f"{value:.1%}".replace("%", " %") if panel in PERCENT else number(value)


NOT_MEASURED = "not measured"


def _key(panel: str, section: dict[str, Any]) -> str:
    return panel + ":" + json.dumps(section, sort_keys=True, separators=(",", ":"))


def section_of(panel: str, params) -> dict[str, Any]:
    """The canonical section of parameters: only fields that differ from the defaults."""
    from gpuviz.scenario.decode import encode_changes

    params = registered(panel).canonical(params)  # fields the measurement does not read, reset
    return encode_changes(type(params)(), params)


@lru_cache(maxsize=1)
def _files() -> tuple[tuple[str, dict[str, Any]], ...]:
    # the shipped files are ours (checked by `gpuviz measure compare` in the tests): read as
    # plain JSON, 0.12 s for the 2.6 MB, where the strict reader of a user's files (load) takes
    # 1.3 s, on the window's thread as its first measured panel is shown
    return tuple((path.name, json.loads(path.read_bytes())) for path in shipped())


@cache
def _index(panel: str) -> dict[str, Measured]:
    """One panel's measurements by canonical section: each panel's cases are decoded the first
    time that panel is looked up (all of them take seconds; the scheduler's alone 0.1 s)."""
    from gpuviz.scenario.io import decode_section

    measured = registered(panel).measured
    if measured is None:
        return {}
    index: dict[str, Measured] = {}
    for name, data in _files():
        known = data.get("known_disagreements", {})
        tolerance = float(data.get("tolerance", 0.0))
        for case in data["cases"]:
            if case["panel"] != panel:
                continue
            params, problems = decode_section(panel, case["section"])
            if problems or params is None:
                continue
            index.setdefault(_key(panel, section_of(panel, params)), Measured(
                panel=panel, quantity=measured.quantity, unit=measured.unit, measured=float(case["measured"]),
                model=case.get("model"), device=data.get("device", ""),
                metric=case.get("metric", ""), file=name, case_id=case["id"],
                known=known.get(case["id"]), tolerance=tolerance))
    return index


def lookup(panel: str, params) -> Measured | None:
    """The shipped measurement of exactly these (effective) parameters, or None."""
    if panel not in PANELS:
        return None
    return _index(panel).get(_key(panel, section_of(panel, params)))


def series(panel: str, params, field: str) -> list[tuple[float, Measured]]:
    """Every shipped measurement of these parameters with ``field`` left free, by its value of
    ``field``: e.g. the scheduler's H200 curve against ``warps_per_sm``."""
    from dataclasses import replace

    if panel not in PANELS:
        return []
    # reset before the field is freed: what the measurement reads may depend on it
    params = registered(panel).canonical(params)
    free = section_of(panel, replace(params, **{field: getattr(type(params)(), field)}))
    return list(_series(panel, json.dumps(free, sort_keys=True), field))


@lru_cache(maxsize=64)
def _series(panel: str, free: str, field: str) -> tuple[tuple[float, Measured], ...]:
    want = json.loads(free)
    out = []
    for key, m in _index(panel).items():
        section = json.loads(key[len(panel) + 1:])
        value = section.pop(field, None)
        if value is not None and section == want:
            out.append((float(value), m))
    return tuple(sorted(out, key=lambda v: v[0]))


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
