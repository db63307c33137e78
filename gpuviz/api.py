"""gpuviz as a library, for scripts and notebooks.

    import gpuviz.api as gv

    lecture = gv.load("banks-padded33")              # a bundled scenario, or a path
    lecture = lecture.with_params("banks", access_bytes=8)  # validated as a file is
    lecture.compute("banks")["rounds"]                # the numbers `gpuviz compute` prints
    fig = lecture.figure("banks", theme="print", size="single")
    fig.save("banks.pdf")                             # .svg, .pdf or .png (dpi=…)
    fig                                               # in Jupyter: the figure itself

    gv.scenario("occupancy", threads_per_block=256)   # a one-panel scenario from nothing
    lecture.save_html("lecture.html")                 # the whole lecture, one file
    lecture.save_handout("handout.pdf"); lecture.save_deck("lecture.pptx")

Every value goes through the scenario loader, so a script gets the same validation, messages
and results as a scenario file; a bad value raises :class:`ScenarioError` naming its JSON path.
:class:`Lecture` and :class:`FigureFile` display themselves in Jupyter (``_repr_html_`` /
``_repr_svg_``). Qt is imported only to write PDF and PNG.
"""

from __future__ import annotations

import html
import json
import os
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from gpuviz.figures.display import Figure
from gpuviz.lecture.show import StepShow
from gpuviz.scenario.document import Scenario
from gpuviz.scenario.problems import ScenarioError

__all__ = ["FigureFile", "Lecture", "ScenarioError", "bundled", "load", "panels", "scenario"]


def load(source: str | os.PathLike[str]) -> Lecture:
    """A scenario file, or a bundled scenario by name (``"banks-padded33"``)."""
    from gpuviz.scenario import bundled_scenarios, load_scenario

    path = Path(source)
    if not path.exists():
        named = {p.stem: p for p in bundled_scenarios()}
        stem = path.stem if path.suffix == ".json" else str(source)
        if stem in named:
            path = named[stem]
    lecture = Lecture(load_scenario(path))
    object.__setattr__(lecture, "_source", str(path))  # a lecture file never overwrites it
    return lecture


def scenario(panel: str, *, title: str = "", arch: str | None = None,
             **params: Any) -> Lecture:
    """A one-panel scenario from nothing: ``scenario("banks", stride=33)``."""
    from gpuviz.scenario import FORMAT_VERSION

    raw: dict[str, Any] = {"version": FORMAT_VERSION, "title": title or f"{panel} scenario", "panels": [panel],
                           panel: _plain(params)}
    if arch is not None:
        raw["arch"] = arch
    return Lecture(_loads(raw, f"scenario({panel!r})"))


def bundled() -> list[str]:
    """The bundled scenarios' names, for :func:`load`."""
    from gpuviz.scenario import bundled_scenarios

    return [p.stem for p in bundled_scenarios()]


def panels() -> dict[str, tuple[str, ...]]:
    """Every panel id, with its parameters' names."""
    from dataclasses import fields

    from gpuviz.registry import PANELS, panel

    return {p.id: tuple(f.name for f in fields(panel(p.id).params_type)) for p in PANELS}


@dataclass(frozen=True)
class Lecture:
    """A scenario and its steps. Immutable: every change returns a new one."""

    state: Scenario
    # what the step it was taken at shows (``at_step``; the lecture model's answer)
    shown: StepShow | None = field(default=None, compare=False, repr=False)

    # -- what it is -----------------------------------------------------------------------
    @property
    def title(self) -> str:
        return self.state.title

    @property
    def panels(self) -> tuple[str, ...]:
        return self.state.panels

    @property
    def steps(self) -> list[str]:
        """The steps' titles, in order (step 1 first)."""
        return [s.title for s in self.state.steps]

    def params(self, panel: str) -> dict[str, Any]:
        """The panel's parameters as the scenario file writes them."""
        from gpuviz.scenario import to_json

        return dict(to_json(self.state.at_step(-1)).get(panel, {}))

    # -- changing it ----------------------------------------------------------------------
    def with_params(self, panel: str, **changes: Any) -> Lecture:
        """The same lecture with ``changes`` made to the panel's section (validated). A nested
        record is changed field by field: ``with_params("banks", pattern={"padding": 0})``."""
        from gpuviz.scenario import to_json

        raw = to_json(self.state)
        raw[panel] = _merged(raw.get(panel, {}), _plain(changes))
        if panel not in raw.get("panels", []):
            raw["panels"] = [*raw.get("panels", []), panel]
        return Lecture(_loads(raw, f"with_params({panel!r})"))

    def at_step(self, step: int) -> Lecture:
        """The lecture as it stands at ``step`` (1 = the first step; 0 = the overview)."""
        _check_int("step", step)
        if not 0 <= step <= len(self.state.steps):
            raise IndexError(f"step {step}: this lecture has steps 1 … {len(self.state.steps)}")
        from gpuviz.lecture import Lecture as Model
        from gpuviz.lecture import show

        shown = show(Model(self.state), step - 1, "api")
        return Lecture(_without_steps(shown.state), shown)

    # -- numbers and pictures -------------------------------------------------------------
    def compute(self, panel: str | None = None) -> dict[str, Any]:
        """The results as ``gpuviz compute`` prints them: ``{panel: {...}}``, or one panel's."""
        from gpuviz.models.jsonable import to_jsonable
        from gpuviz.scenario import compute_all

        ids = (panel,) if panel else self.state.panels
        results = {pid: json.loads(json.dumps(to_jsonable(r)))
                   for pid, r in compute_all(self.state, ids).items()}
        return results[panel] if panel else results

    def figure(self, panel: str | None = None, *, theme: str = "screen", size: str = "natural",
               select: Iterable[str] = (), step: int | None = None) -> FigureFile:
        """The panel's figure (the first panel's by default) in a theme and a size preset
        (``natural``, ``single``, ``double``, ``slide``), optionally at a step (1-based)."""
        from gpuviz.figures.scene import figure_for
        from gpuviz.figures.targets import TARGETS
        from gpuviz.figures.theme import theme as make_theme

        pid = self._checked_figure_arguments(panel, theme, size, select, step)
        at = self if step is None else self.at_step(step)  # figure(step=k) is at_step(k)'s
        state, selection, shown = at.state, frozenset(select), at.shown
        if size not in TARGETS:
            raise ValueError(f"size {size!r}: one of {', '.join(TARGETS)}")
        target = TARGETS[size]
        if shown is not None and pid in shown.panel_ids:
            # taken at a step: that step's selection, frame and parts
            selection |= shown.selection_for(pid)
            target = target.showing(shown.parts(pid))
        figure = figure_for(state, pid, make_theme(theme), selection, target)

        def relayout() -> Figure:
            from gpuviz.figures.metrics import fallback_room

            with fallback_room(True):
                return figure_for(state, pid, make_theme(theme), selection, target)

        return FigureFile(figure, _metadata(state, pid, theme, size), relayout)

    def _checked_figure_arguments(self, panel: str | None, theme: str, size: str,
                                  select: Iterable[str], step: int | None) -> str:
        """The panel id, once every argument of :meth:`figure` is checked as the command line
        checks its options; a wrong one raises TypeError or ValueError naming it."""
        from gpuviz.cli_export import selection_problems
        from gpuviz.figures.targets import TARGETS
        from gpuviz.figures.theme import THEMES

        if panel is not None and panel not in self.state.panels:
            raise ValueError(f"panel {panel!r}: this lecture's panels are "
                             f"{', '.join(self.state.panels)}")
        if theme not in THEMES:
            raise ValueError(f"theme {theme!r}: one of {', '.join(THEMES)}")
        if size not in TARGETS:
            raise ValueError(f"size {size!r}: one of {', '.join(TARGETS)}")
        if isinstance(select, str):
            raise TypeError(f"select={select!r}: give a list of keys, such as [{select!r}]")
        keys = list(select)
        for key in keys:
            if not isinstance(key, str):
                raise TypeError(f"select: {key!r} is not a key (a string such as 'lane:3')")
        problems = selection_problems(keys)
        if problems:
            raise ValueError(problems[0].replace("--select", "select", 1))
        if step is not None:
            _check_int("step", step)
        return panel or self.state.panels[0]

    # -- files ----------------------------------------------------------------------------
    def save(self, path: str | os.PathLike[str]) -> Path:
        """The scenario file (atomically)."""
        from gpuviz.scenario import save_scenario

        save_scenario(self.state, path)
        return Path(path)

    def save_html(self, path: str | os.PathLike[str]) -> Path:
        """The lecture as one self-contained web page."""
        return self._lecture(path, "html")

    def save_handout(self, path: str | os.PathLike[str], *, per_page: int = 1,
                     theme: str = "print") -> Path:
        """The lecture as a printed handout (PDF): a title page, then the steps."""
        return self._lecture(path, "pdf", theme_name=theme, per_page=per_page)

    def save_deck(self, path: str | os.PathLike[str], *, theme: str = "screen") -> Path:
        """The lecture as a 16:9 slide deck (PPTX), notes as speaker notes."""
        return self._lecture(path, "pptx", theme_name=theme)

    def _lecture(self, path: str | os.PathLike[str], fmt: str, **options: Any) -> Path:
        from gpuviz.atomic import checked_target, protecting
        from gpuviz.export.lecture_file import lecture_bytes

        with protecting([getattr(self, "_source", None)]):
            checked_target(path)  # a target refused is refused before the lecture is built
            return _write(path, lecture_bytes(self.state, fmt, **options))

    # -- Jupyter --------------------------------------------------------------------------
    def _repr_html_(self) -> str:
        if self.shown is not None and self.shown.step >= 0:
            return self._step_html(self.shown)
        first = 1 if self.state.steps else 0
        fig = self.figure(step=first)
        items = "".join(f"<li>{html.escape(t)}</li>" for t in self.steps)
        steps = f"<ol>{items}</ol>" if items else "<p>No steps.</p>"
        shown = f"Step 1: {html.escape(self.steps[0])}" if self.steps else "Overview"
        return (f"<div><h3>{html.escape(self.title)}</h3>"
                f"<p>{html.escape(self.state.description)}</p>"
                f"<p>Panels: {html.escape(', '.join(self.panels))}</p>{steps}"
                f"<p><em>{shown}</em></p>{fig.svg(inline=True)}</div>")

    def _step_html(self, s: StepShow) -> str:
        """A lecture taken at a step: the step's title, its question (to predict before the
        picture) and its caption, over the step's figure."""
        question = (f"<p><strong>Predict:</strong> {html.escape(s.question)}</p>"
                    if s.question else "")
        return (f"<div><h3>{html.escape(s.label)}: {html.escape(s.title)}</h3>{question}"
                f"<p>{html.escape(s.caption)}</p>"
                f"{self.figure(s.panel_ids[0]).svg(inline=True)}</div>")

    def __repr__(self) -> str:
        return (f"<Lecture {self.title!r}: panels {', '.join(self.panels)}; "
                f"{len(self.steps)} step{'' if len(self.steps) == 1 else 's'}>")


@dataclass(frozen=True)
class FigureFile:
    """A built figure, ready to write or to show. Its SVG with text as text is laid out again
    with room for a wider fallback face (``text_figure``), as ``gpuviz export`` lays it out."""

    figure: Figure
    metadata: Mapping[str, str]
    # lays the figure out again with room for a wider fallback face (None: use ``figure``)
    relayout: Callable[[], Figure] | None = field(default=None, compare=False, repr=False)

    @cached_property
    def text_figure(self) -> Figure:
        """The figure as an SVG with text as text draws it."""
        return self.figure if self.relayout is None else self.relayout()

    @property
    def size_mm(self) -> tuple[float, float]:
        return (self.figure.width, self.figure.height)

    def svg(self, *, text_as_paths: bool = False, inline: bool = False) -> str:
        from gpuviz.export.svg import figure_to_svg

        drawn = self.figure if text_as_paths else self.text_figure
        text = figure_to_svg(drawn, text_as_paths=text_as_paths, metadata=self.metadata)
        if inline:
            from gpuviz.export.lecture_html import inline_svg

            return inline_svg(text, f"g{id(self):x}-")
        return text

    def save(self, path: str | os.PathLike[str], *, dpi: int = 200,
             text_as_paths: bool = False) -> Path:
        """Write ``.svg``, ``.pdf`` or ``.png`` (by the file's suffix)."""
        target = Path(path)
        fmt = target.suffix.lower().lstrip(".")
        if fmt == "svg":
            return _write(target, self.svg(text_as_paths=text_as_paths).encode("utf-8"))
        from gpuviz.export.formats import FIGURE_FORMATS

        if fmt not in FIGURE_FORMATS:
            *others, last = ("." + f for f in FIGURE_FORMATS)
            raise ValueError(f"{target.name}: write {', '.join(others)} or {last}")
        from gpuviz.export.raster import check_dpi, write_raster

        check_dpi(dpi)
        write_raster(self.figure, target, fmt, None, dpi, self.metadata)
        return target

    def _repr_svg_(self) -> str:
        return self.svg(inline=True)

    def __repr__(self) -> str:
        w, h = self.size_mm
        return f"<FigureFile {self.figure.title!r}: {w:.0f} × {h:.0f} mm>"


def _check_int(name: str, value: object) -> None:
    """TypeError unless ``value`` is an int (True is not step 1)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name}={value!r}: give a whole number")


def _loads(raw: Mapping[str, Any], source: str) -> Scenario:
    """The scenario of ``raw``; a bad value raises ScenarioError naming ``source`` (the call
    that gave it) and the value's JSON path."""
    from gpuviz.scenario import loads_scenario

    return loads_scenario(json.dumps(raw), source)


def _without_steps(state: Scenario) -> Scenario:
    from gpuviz.scenario import to_json

    raw = to_json(state)
    raw.pop("steps", None)
    return _loads(raw, "at_step")


def _merged(base: Mapping[str, Any], changes: Mapping[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for key, value in changes.items():
        old = out.get(key)
        out[key] = (_merged(old, value) if isinstance(old, Mapping) and isinstance(value, Mapping)
                    else value)
    return out


def _plain(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    return value


def _metadata(state: Scenario, panel: str, theme: str, size: str) -> dict[str, str]:
    from gpuviz.export.files import export_metadata

    return export_metadata(state, panel, theme, size)


def _write(path: str | os.PathLike[str], data: bytes) -> Path:
    from gpuviz.scenario import write_atomic

    write_atomic(Path(path), data)
    return Path(path)
