"""A measured panel is declared in two places only: its registry entry (the compared quantity)
and its kernel module's ``MEASURE`` (metric, reading, model value); every list of such panels is
derived from the registry."""

from __future__ import annotations

import importlib
import pkgutil

import pytest

import gpuviz.kernels
from gpuviz.registry import MEASURED_PANELS, PANELS, Measure, MeasuredQuantity, Panel

#: An instruction of each kind a measured case names (``op``): loads, stores, ldmatrix, stmatrix.
OPS = ("lds", "sts", "ldsm.x4", "ldg", "stg", "ldsm", "stsm", "launch", "traverse", "")


def measured_problems(panel: Panel) -> list[str]:
    """What is missing or misnamed in a measured panel's declaration."""
    assert panel.measured is not None
    try:
        m = panel.measure
    except (ImportError, AttributeError, TypeError) as e:
        return [f"{panel.id}: no Measure as gpuviz.kernels.{panel.id}.MEASURE ({e})"]
    out = []
    metrics = {m.metric(op) for op in OPS}
    if not all(isinstance(x, str) and x for x in metrics):
        out.append(f"{panel.id}: a metric that is not a profiler metric's name: {metrics}")
    for name in ("read", "value"):
        if getattr(m, name) is not None and not callable(getattr(m, name)):
            out.append(f"{panel.id}: MEASURE.{name} is not callable")
    if m.value is None:  # the model's value is the result field the registry names
        result = panel.compute(panel.params_type())
        if not hasattr(result, panel.measured.quantity):
            out.append(f"{panel.id}: the result has no field {panel.measured.quantity!r}")
    return out


@pytest.mark.parametrize("panel", [p for p in PANELS if p.measured is not None],
                         ids=lambda p: p.id)
def test_every_measured_panel_declares_its_metric_reading_and_model_value(panel: Panel):
    assert measured_problems(panel) == []


def test_a_measured_panel_without_its_record_or_with_a_wrong_field_is_caught():
    no_record = Panel("launch", "t", "s", measured=MeasuredQuantity("blocks", "blocks"))
    wrong_field = Panel("banks", "t", "s", measured=MeasuredQuantity("round", "wavefronts"))
    assert "no Measure" in measured_problems(no_record)[0]
    assert measured_problems(wrong_field) == ["banks: the result has no field 'round'"]


def test_every_measure_record_belongs_to_a_measured_panel():
    for info in pkgutil.iter_modules(gpuviz.kernels.__path__):
        module = importlib.import_module(f"gpuviz.kernels.{info.name}")
        if isinstance(getattr(module, "MEASURE", None), Measure):
            assert info.name in MEASURED_PANELS, f"gpuviz.kernels.{info.name}: not measured"


def test_the_kernel_command_lists_the_panels_with_a_kernel_export(capsys):
    from gpuviz.cli import main
    from gpuviz.registry import KERNEL_PANELS

    with pytest.raises(SystemExit):
        main(["kernel", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert ", ".join(KERNEL_PANELS[:-1]) + " or " + KERNEL_PANELS[-1] in help_text
