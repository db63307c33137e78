"""``gpuviz export --format html|pptx`` and ``--format pdf --all-steps``: a whole lecture in one
file (a web page, a slide deck, a printed handout). Qt is imported only to paint the handout's
pages and the deck's pictures."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from gpuviz.cli_input import EXIT_BAD_INPUT
from gpuviz.export.formats import LECTURE_ONLY_FORMATS
from gpuviz.scenario.document import Scenario
from gpuviz.scenario.problems import printable


def is_lecture(fmt: str, every_step: bool) -> bool:
    return fmt in LECTURE_ONLY_FORMATS or (fmt == "pdf" and every_step)


def export_lecture(args: argparse.Namespace, scenario: Scenario, panels: list[str], stem: str,
                   out: Path, steps: list[int] | None) -> int:
    """Write the lecture of ``scenario`` (its ``steps``, 0-based, or all) into ``out``."""
    from gpuviz.atomic import checked_target, write_atomic
    from gpuviz.export.lecture_file import lecture_bytes

    if args.step is not None:
        print("--step exports one state; a lecture takes every step (or --steps A-B)",
              file=sys.stderr)
        return EXIT_BAD_INPUT
    from gpuviz.export.lecture import LectureTooLarge

    try:
        path = out / (f"{stem}-handout.pdf" if args.format == "pdf" else f"{stem}.{args.format}")
        checked_target(path)  # a target refused is refused before the lecture is built
        write_atomic(path, lecture_bytes(scenario, args.format, theme_name=args.theme,
                                         per_page=args.per_page, steps=steps, panels=panels,
                                         typeface=tuple(args.typeface)))
    except LectureTooLarge as e:
        print(printable(f"{stem}: {e}"), file=sys.stderr)
        return EXIT_BAD_INPUT
    print(printable(str(path)))
    return 0

