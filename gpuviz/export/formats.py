"""The one table of export formats: what each writes and which writer takes it. The command
line, the export dialog, the Python API and the writers read it; a format not in it is refused
before anything is written, never written as another."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ExportFormat:
    name: str  # the file suffix and the --format value
    what: str  # in words, for help texts and dialogs
    figure: bool = False  # one figure a file (export_figure)
    animated: bool = False  # a playback as one file of frames (export/animate.py)
    lecture: bool = False  # a whole lecture in one file (export/lecture_file.py)


FORMATS: dict[str, ExportFormat] = {f.name: f for f in (
    ExportFormat("svg", "SVG, vector, text as text or as paths", figure=True),
    ExportFormat("pdf", "PDF, vector; with every step, a printed handout", figure=True,
                 lecture=True),
    ExportFormat("png", "PNG, pixels at the chosen resolution", figure=True),
    ExportFormat("gif", "GIF animation of the playback or the steps", animated=True),
    ExportFormat("apng", "animated PNG of the playback or the steps", animated=True),
    ExportFormat("html", "a web page of the whole lecture", lecture=True),
    ExportFormat("pptx", "a slide deck of the whole lecture", lecture=True),
)}
FIGURE_FORMATS = tuple(n for n, f in FORMATS.items() if f.figure)
RASTER_FORMATS = ("pdf", "png")  # the figure formats Qt paints (export/raster.py)
ANIMATED_FORMATS = tuple(n for n, f in FORMATS.items() if f.animated)
LECTURE_FORMATS = tuple(n for n, f in FORMATS.items() if f.lecture)
# the formats that are a lecture whatever is asked (pdf is one only with every step)
LECTURE_ONLY_FORMATS = tuple(n for n, f in FORMATS.items() if f.lecture and not f.figure)


def check_format(fmt: str, kinds: tuple[str, ...] = FIGURE_FORMATS) -> str:
    """``fmt`` if it is one of ``kinds``; else a ValueError naming the formats there are."""
    if fmt not in kinds:
        raise ValueError(f"cannot write {fmt!r}: the formats here are {', '.join(kinds)}")
    return fmt
