"""``gpuviz export --format html|pptx`` and ``--format pdf --all-steps``: a whole lecture in one
file (a web page, a slide deck, a printed handout). Qt is imported only to paint the handout's
pages and the deck's pictures."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from gpuviz import __version__
from gpuviz.scenario.document import Scenario
from gpuviz.scenario.problems import printable

LECTURE_FORMATS = ("html", "pptx")
EXIT_BAD_INPUT = 2


def is_lecture(fmt: str, every_step: bool) -> bool:
    return fmt in LECTURE_FORMATS or (fmt == "pdf" and every_step)


def export_lecture(args: argparse.Namespace, scenario: Scenario, panels: list[str], stem: str,
                   out: Path, steps: list[int] | None) -> int:
    """Write the lecture of ``scenario`` (its ``steps``, 0-based, or all) into ``out``."""
    from gpuviz.export.files import scenario_hash

    if args.step is not None:
        print("--step exports one state; a lecture takes every step (or --steps A-B)",
              file=sys.stderr)
        return EXIT_BAD_INPUT
    from gpuviz.export.lecture import LectureTooLarge

    try:
        path = _write(args, scenario, tuple(panels), stem, out, steps, scenario_hash(scenario))
    except LectureTooLarge as e:
        print(printable(f"{stem}: {e}"), file=sys.stderr)
        return EXIT_BAD_INPUT
    print(printable(str(path)))
    return 0


def _write(args: argparse.Namespace, scenario: Scenario, shown: tuple[str, ...], stem: str,
           out: Path, steps: list[int] | None, sha: str) -> Path:
    from gpuviz.atomic import write_atomic

    if args.format == "html":
        from gpuviz.export.lecture_html import lecture_html

        path = out / f"{stem}.html"
        write_atomic(path, lecture_html(scenario, sha, steps, panels=shown).encode("utf-8"))
    elif args.format == "pptx":
        from gpuviz.export.deck import lecture_deck

        path = out / f"{stem}.pptx"
        write_atomic(path, lecture_deck(scenario, sha, theme_name=args.theme, steps=steps,
                                        panels=shown))
    else:
        from gpuviz.export.handout import write_handout

        path = out / f"{stem}-handout.pdf"
        meta = {"version": __version__, "scenario-sha256": sha, "theme": args.theme}
        write_atomic(path, write_handout(scenario, sha, meta, per_page=args.per_page,
                                         theme_name=args.theme, steps=steps, panels=shown))
    return path
