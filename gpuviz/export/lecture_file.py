"""A whole lecture in one file, by format: the one dispatch behind ``gpuviz export --format
html|pptx`` (and ``pdf --all-steps``), File ▸ Export Lecture… and the Python API."""

from __future__ import annotations

from collections.abc import Sequence

from gpuviz.export.formats import LECTURE_FORMATS, check_format
from gpuviz.scenario.document import Scenario


def lecture_bytes(scenario: Scenario, fmt: str, *, theme_name: str = "screen",
                  per_page: int = 1, steps: Sequence[int] | None = None,
                  panels: Sequence[str] | None = None, typeface: Sequence[str] = ()) -> bytes:
    """The lecture as ``fmt``: a web page (light and dark both inside; ``theme_name`` unused), a
    handout (PDF, in ``theme_name``, ``per_page`` steps a page) or a deck (PPTX). Raises
    :class:`~gpuviz.export.lecture.LectureTooLarge` over the budget, before anything is
    written. ``typeface``: the font files (regular, then bold) of a paper's own typeface, which
    sets the figures' text that is not monospaced, as ``export_figure`` does (the web page
    embeds its subset)."""
    if typeface:
        from gpuviz.figures.metrics import use_typeface

        use_typeface(typeface[0], typeface[1] if len(typeface) > 1 else None)
        try:
            return lecture_bytes(scenario, fmt, theme_name=theme_name, per_page=per_page,
                                 steps=steps, panels=panels)
        finally:
            use_typeface(None)
    from gpuviz import __version__
    from gpuviz.export.files import scenario_hash

    check_format(fmt, LECTURE_FORMATS)
    sha = scenario_hash(scenario)
    if fmt == "html":
        from gpuviz.export.lecture_html import lecture_html

        return lecture_html(scenario, sha, steps, panels=panels).encode("utf-8")
    if fmt == "pptx":
        from gpuviz.export.deck import lecture_deck

        return lecture_deck(scenario, sha, theme_name=theme_name, steps=steps, panels=panels)
    if fmt == "pdf":
        from gpuviz.export.handout import write_handout

        meta = {"version": __version__, "scenario-sha256": sha, "theme": theme_name}
        return write_handout(scenario, sha, meta, per_page=per_page, theme_name=theme_name,
                             steps=steps, panels=panels)
    raise AssertionError(f"{fmt} is a lecture format without a writer")
