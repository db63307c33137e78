"""Every playback frame of a panel as a numbered sequence of files, for slides and animations.

Frames reach a figure as the selection key ``frame:<n>`` (see ``gpuviz.figures.scene``); this
module walks n over the panel's frames and writes each through the single-figure export
(``gpuviz.export.files.export_figure``), so a frame file is byte-identical to exporting that one
frame by hand. Files are named ``<stem>-<panel>-0001.<fmt>`` … numbered from 1, zero-padded to
at least four digits so that a file listing sorts in playback order. At most MAX_FRAMES files
are written: a longer playback, or a frame over a limit (the PNG pixel cap, its parts' budget),
is refused before the first file.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from gpuviz.export.files import PartsError, export_figure
from gpuviz.export.raster import ExportLimitError
from gpuviz.figures.scene import frame_count
from gpuviz.keys import at_frame
from gpuviz.scenario.document import Scenario

# Files one sequence writes: a slide deck or an animation needs hundreds, not the 262,145 steps
# of the largest traversal (each frame is a whole figure export).
MAX_FRAMES = 2000


def frame_file_name(stem: str, panel_id: str, frame: int, total: int, fmt: str) -> str:
    """The file name of 0-based ``frame`` out of ``total`` frames."""
    digits = max(4, len(str(total)))
    return f"{stem}-{panel_id}-{frame + 1:0{digits}d}.{fmt}"


def export_sequence(scenario: Scenario, panel_id: str, out_dir: Path, stem: str, *,
                    fmt: str = "svg", theme_name: str = "screen", size: str = "natural",
                    dpi: int = 200, selection: frozenset[str] = frozenset(),
                    checked: bool = False, check_only: bool = False,
                    **figure_options: Any) -> list[Path]:
    """Write one file per frame into ``out_dir`` (created); returns the paths in frame order.

    Every frame is checked before the first file is written (the frame count, each frame's
    parts, budget and PNG pixel cap): an ExportLimitError or PartsError names the frame, and
    nothing is written. ``checked``: the caller has checked already; ``check_only``: check and
    write nothing. ``figure_options``: what else :func:`export_figure` takes for every frame
    (``text_as_paths``, ``embed_fonts``, ``chrome``, ``parts``, ``typeface``).

    A ``frame:`` key already in ``selection`` (a scenario step may carry one) is replaced by each
    frame in turn; every other selected key stays highlighted in every frame."""
    total = frame_count(scenario, panel_id)
    if total > MAX_FRAMES:
        raise ExportLimitError(f"{panel_id} has {total} playback frames; a sequence is at most "
                               f"{MAX_FRAMES} files (export single frames, --select frame:N, instead)")
    out_dir = Path(out_dir)
    paths = [out_dir / frame_file_name(stem, panel_id, n, total, fmt) for n in range(total)]

    def export(n: int, path: Path, check: bool) -> None:
        export_figure(scenario, panel_id, path, fmt=fmt, theme_name=theme_name, size=size,
                      dpi=dpi, selection=at_frame(selection, n), check_only=check,
                      **figure_options)

    for n, path in enumerate(paths if not checked else ()):
        try:
            export(n, path, True)
        except (ExportLimitError, PartsError) as e:
            raise type(e)(f"frame {n + 1} of {total} ({path.name}): {e}; nothing was "
                          "written") from None
    if check_only:
        return paths
    out_dir.mkdir(parents=True, exist_ok=True)
    for n, path in enumerate(paths):
        export(n, path, False)
    return paths
