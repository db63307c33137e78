"""Writing one panel's figure to a file in any format: the single entry point for the GUI's
Export dialog and ``gpuviz export``."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from pathlib import Path

from gpuviz import __version__
from gpuviz.atomic import write_atomic
from gpuviz.export.formats import check_format
from gpuviz.export.svg import figure_to_svg
from gpuviz.figures.budget import budget_pages_of, over_budget
from gpuviz.figures.display import Figure, Text, walk
from gpuviz.figures.metrics import fallback_room, use_typeface
from gpuviz.figures.scene import drawn_parts, figure_for
from gpuviz.figures.targets import TARGETS, Chrome, Target
from gpuviz.figures.theme import Theme, theme
from gpuviz.scenario.document import Scenario
from gpuviz.scenario.encode import dumps_scenario

SMALLEST_LEGIBLE_PT = 5.0


class PartsError(OSError):
    """Parts asked for that this scenario's figure does not draw, or a figure over the budget
    of its size; nothing is written. An OSError, like :class:`ExportLimitError`, so that whoever
    reports a file that cannot be written reports this one the same way."""


def export_figure(scenario: Scenario, panel_id: str, path: Path, *, fmt: str = "svg",
                  theme_name: str = "screen", size: str = "natural", dpi: int = 200,
                  selection: frozenset[str] = frozenset(), text_as_paths: bool = False,
                  parts: Sequence[str] | None = None, chrome: Chrome = "full",
                  embed_fonts: bool = False, typeface: Sequence[str] = (),
                  check_only: bool = False, question: str = "",
                  step: tuple[str, str] = ("", "")) -> str:
    """Write the figure (only ``parts``, in that order, if given, inside ``chrome``); returns
    a note for the user ("", a warning about small type, or that an SVG with text as text kept
    the layout in the shipped faces). ``check_only``: raise what writing would raise (parts,
    budget, the PNG pixel cap) and write nothing, so that a command writing many files can
    refuse before the first.

    ``question``: write the figure veiled, as the room sees a question step before the reveal
    (``export.veiled``): the revealed figure's page holding only this question.

    ``step``: a lecture step's heading and caption, drawn with ``chrome`` "full" (above the
    figure's title and under the figure: ``Target.titled``).

    ``typeface``: the font files (regular, then bold) of a paper's own typeface for the text
    that is not monospaced: the figure is measured and laid out with it, never scaled.

    Every file names the gpuviz version and the scenario's hash in its metadata; the same
    inputs give the same bytes (SVG and PNG)."""
    check_format(fmt)  # before anything is laid out or written
    if typeface:
        use_typeface(typeface[0], typeface[1] if len(typeface) > 1 else None)
        try:
            return export_figure(scenario, panel_id, path, fmt=fmt, theme_name=theme_name,
                                 size=size, dpi=dpi, selection=selection,
                                 text_as_paths=text_as_paths, parts=parts, chrome=chrome,
                                 embed_fonts=embed_fonts, check_only=check_only,
                                 question=question, step=step)
        finally:
            use_typeface(None)
    metadata = export_metadata(scenario, panel_id, theme_name, size)
    if parts is not None or chrome != "full":
        metadata |= {"parts": " ".join(parts or ()) or "all", "chrome": chrome}
    if question:
        metadata |= {"question": "veiled"}
    figure, note = export_figure_of(scenario, panel_id, theme_name=theme_name, size=size,
                                    selection=selection, parts=parts, chrome=chrome,
                                    question=question, room=fmt == "svg" and not text_as_paths,
                                    step=step)
    if check_only:
        if fmt == "png":
            from gpuviz.export.raster import check_png_size

            check_png_size(figure, None, dpi)
        return ""
    if fmt == "svg":
        svg = figure_to_svg(figure, None, text_as_paths=text_as_paths, metadata=metadata,
                            embed_fonts=embed_fonts)
        write_atomic(Path(path), svg.encode("utf-8"))
    else:
        from gpuviz.export.raster import write_raster  # Qt only for PDF and PNG

        write_raster(figure, Path(path), fmt, None, dpi, metadata)
    smallest = smallest_text_pt(figure)
    if smallest and smallest < SMALLEST_LEGIBLE_PT:
        return f"  (note: smallest text is {smallest:.1f} pt at this size)" + note
    return note


def export_figure_of(scenario: Scenario, panel_id: str, *, theme_name: str = "screen",
                     size: str = "natural", selection: frozenset[str] = frozenset(),
                     parts: Sequence[str] | None = None, chrome: Chrome = "full",
                     question: str = "", room: bool = False,
                     step: tuple[str, str] = ("", "")) -> tuple[Figure, str]:
    """The figure :func:`export_figure` writes, and its note: what the Export dialog previews.
    ``room``: an SVG with text as text. Raises :class:`PartsError` as the export does."""
    # laid out for the size, at its real type sizes: never scaled; as SVG with text as text,
    # with room for a wider face where the viewer lacks the shipped ones (metrics.fallback_room)
    target = TARGETS[size].showing(parts, chrome).titled(*step)
    with fallback_room(room):
        figure = figure_for(scenario, panel_id, theme(theme_name), selection, target)
    missing = [p for p in parts or () if p not in figure.parts]
    if missing:
        raise PartsError(f"the {panel_id} figure of this scenario draws no "
                         f"{' or '.join(repr(p) for p in missing)} part (it draws: "
                         f"{', '.join(drawn_parts(scenario, panel_id, selection))})")
    over = over_budget(figure, target)
    note = ""
    if over and room:  # the room misses the budget: the layout in the shipped faces may not
        shipped = figure_for(scenario, panel_id, theme(theme_name), selection, target)
        if not over_budget(shipped, target):
            figure, over = shipped, []
            note = ("  (note: laid out for the shipped faces, as room for a wider face would "
                    "miss this size's budget; install them or write --text-as-paths)")
    if over and step != ("", ""):
        # a step's heading and caption where they fit: a figure that fills a slide keeps its
        # type (or is refused as without them), and the file says what it left out
        figure, note = export_figure_of(scenario, panel_id, theme_name=theme_name, size=size,
                                        selection=selection, parts=parts, chrome=chrome,
                                        question=question, room=room)
        return figure, note + (f"  (note: the step's title and caption left out: with them "
                               f"the figure misses the {size} size's budget)")
    if over:  # the parts that fit in the shipped faces (each is written, with room if it fits)
        fit = fitting_parts(scenario, panel_id, theme(theme_name), selection, target)
        what = f"the {'whole ' if parts is None else ''}{panel_id} figure"
        raise PartsError(f"{what} at {size} size misses its budget: "
                         f"{'; '.join(m for _, m in over)}. "
                         + (f"Parts that fit: {', '.join(fit)} (--part NAME)" if fit else
                            "No part alone fits; try another size"))
    if question:
        from gpuviz.export.veiled import veiled_figure
        from gpuviz.registry import panel

        figure = veiled_figure(figure, question, theme(theme_name), panel(panel_id).title,
                               fill_page=TARGETS[size].paged)
    return figure, note


def smallest_text_pt(figure: Figure) -> float:
    """The smallest type size in the figure, in points (a figure is laid out for its size,
    never scaled)."""
    sizes = [t.size for t in walk(figure.items) if isinstance(t, Text)]
    return min(sizes) if sizes else 0.0


def budget_pages(scenario: Scenario, panel_id: str, theme_name: str, size: str,
                 selection: frozenset[str] = frozenset(), chrome: Chrome = "full",
                 parts: Sequence[str] | None = None,
                 step: tuple[str, str] = ("", ""),
                 built: dict[tuple[str, ...] | None, Figure] | None = None
                 ) -> tuple[tuple[str, ...], ...] | None:
    """The pages a figure (or the ``parts`` a step names) too large for ``size``'s budget is
    written as, one file each: the parts in order, each page as many as meet the budget
    together (a part that meets it alone in no page is a page of its own, and refused as
    before). None where the whole (or the parts named) meets the budget, or the size has none:
    it is written as one file. What presentation mode does for a view, ``gpuviz export
    --all-steps`` does for a slide or a journal column. ``step``: the heading and caption the
    pages carry. On a slide a page meets the budget on the title-safe grid (a figure laid out
    off it, centred on the page, is split into pages where they meet it on the grid).
    ``built``, where given, keeps each figure built to try a page, by its parts (None: the
    whole), for a writer that draws those pages to take instead of building them again."""
    target = TARGETS[size].titled(*step)
    if target.kind == "natural":
        return None
    th = theme(theme_name)

    def figure_of(shown: tuple[str, ...] | None) -> Figure:
        figure = figure_for(scenario, panel_id, th, selection, target.showing(shown, chrome))
        if built is not None:
            built[shown] = figure
        return figure

    candidates = tuple(parts) if parts else drawn_parts(scenario, panel_id, selection)
    return budget_pages_of(figure_of, target, candidates, parts)


def fitting_parts(scenario: Scenario, panel_id: str, th: Theme, selection: frozenset[str],
                  target: Target) -> list[str]:
    """The parts of the panel's figure that, drawn alone for ``target``, meet its budget."""
    out = []
    for part in drawn_parts(scenario, panel_id, selection):
        alone = figure_for(scenario, panel_id, th, selection, target.showing([part],
                                                                             target.chrome))
        if not over_budget(alone, target):
            out.append(part)
    return out


def scenario_hash(scenario: Scenario) -> str:
    """SHA-256 of the scenario's canonical JSON: the same state, the same hash."""
    return hashlib.sha256(dumps_scenario(scenario).encode("utf-8")).hexdigest()


def export_metadata(scenario: Scenario, panel_id: str, theme_name: str, size: str) -> dict[str, str]:
    return {"version": __version__, "scenario-sha256": scenario_hash(scenario), "panel": panel_id,
            "theme": theme_name, "size": size}
