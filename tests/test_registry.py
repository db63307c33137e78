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


#: The names Panel reads of a model module and of a figure module (registry.ModelModule and
#: FigureModule), the optional ones read only where present.
MODEL_HOOKS = frozenset({"PARAMS", "compute", "DEPENDS_ON", "link", "problems", "warnings",
                         "canonical", "SLOW"})
FIGURE_HOOKS = frozenset({"build", "frame_count"})


def misspelt_hooks(module, hooks: frozenset[str]) -> list[str]:
    """Public names of a module that look like one of ``hooks`` and are not it (``problem``,
    ``depends_on``, ``frames_count``): an optional hook spelt so is silently never read."""
    import difflib

    out = []
    for name in sorted(n for n in vars(module) if not n.startswith("_") and n not in hooks):
        close = [h for h in hooks if h.lower() == name.lower()] or difflib.get_close_matches(
            name, hooks, n=1, cutoff=0.8)
        if close:
            out.append(f"{module.__name__}.{name} (is it {close[0]}?)")
    return out


@pytest.mark.parametrize("panel", PANELS, ids=lambda p: p.id)
def test_every_model_and_figure_module_spells_its_optional_hooks_right(panel: Panel):
    from gpuviz.registry import PANEL_IDS

    model, figure = panel.model, panel.figure
    assert misspelt_hooks(model, MODEL_HOOKS) + misspelt_hooks(figure, FIGURE_HOOKS) == []
    assert set(panel.depends_on) <= set(PANEL_IDS) - {panel.id}
    if panel.depends_on:
        assert callable(model.link)  # type: ignore[attr-defined]
    for name in ("problems", "warnings", "canonical", "link"):
        assert callable(getattr(model, name, len)), f"{model.__name__}.{name} is not callable"
    assert isinstance(getattr(model, "SLOW", False), bool)
    assert callable(getattr(figure, "frame_count", len))


def test_a_misspelt_model_hook_is_caught():
    from types import ModuleType

    m = ModuleType("gpuviz.models.example")
    m.problem = lambda params: ()  # type: ignore[attr-defined]  # the hook is problems
    m.depends_on = ("launch",)  # type: ignore[attr-defined]  # the hook is DEPENDS_ON
    m.compute_all = len  # type: ignore[attr-defined]  # a helper, not a hook
    assert misspelt_hooks(m, MODEL_HOOKS) == [
        "gpuviz.models.example.depends_on (is it DEPENDS_ON?)",
        "gpuviz.models.example.problem (is it problems?)"]
