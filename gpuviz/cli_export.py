"""``gpuviz export``: an author's export workflow, headless.

One call exports every panel of a scenario (or ``--panel``), every scenario of a folder, every
step (``--all-steps``, one numbered file per step), every playback frame (``--frames``), or an
animation (``--format gif|apng``) of the playback or of the steps. SVG text can be glyph outlines
(``--text-as-paths``). Every file names the gpuviz version and the scenario's hash in its
metadata. Qt is imported only to paint PDF, PNG and animation frames.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING

from gpuviz.cli_input import EXIT_BAD_INPUT, STEP_HELP, step_suffix
from gpuviz.cli_lecture import export_lecture, is_lecture
from gpuviz.export.raster import MAX_DPI, MIN_DPI, dpi_argument
from gpuviz.figures.layout import CHROMES
from gpuviz.scenario.problems import printable

if TYPE_CHECKING:
    from collections.abc import Sequence

    from gpuviz.export.lecture import Page
    from gpuviz.scenario.document import Scenario

FORMATS = ("svg", "pdf", "png", "gif", "apng", "html", "pptx")
ANIMATED = ("gif", "apng")


def add_arguments(e: argparse.ArgumentParser) -> None:
    e.add_argument("scenario", metavar="SCENARIO",
                   help="a scenario file, or a folder: every *.json in it")
    e.add_argument("--panel", metavar="ID", help="only this panel (default: the scenario's panels)")
    e.add_argument("--step", type=int, metavar="K", help=STEP_HELP)
    e.add_argument("--all-steps", action="store_true",
                   help="one numbered file per step (<scenario>-<panel>-step01.<format> …); "
                        "with gif/apng, one frame per step")
    e.add_argument("--steps", metavar="A-B",
                   help="only steps A to B (1-based, inclusive); implies --all-steps")
    e.add_argument("--out", required=True, type=path_argument, metavar="DIR",
                   help="folder to write into (created)")
    e.add_argument("--format", choices=FORMATS, default="svg",
                   help="svg, pdf, png, an animation (gif, apng), or a whole lecture in one "
                        "file: html (a web page), pptx (a slide deck); pdf with --all-steps "
                        "is a printed handout")
    e.add_argument("--per-page", type=int, choices=(1, 2), default=1,
                   help="handout: steps per page (default 1)")
    e.add_argument("--theme", choices=("screen", "print", "dark", "presentation"), default="screen")
    e.add_argument("--size", choices=("natural", "single", "double", "slide"), default="natural",
                   help="lay the figure out for: single column 85 mm, double column 178 mm, "
                        "16:9 slide (default: the figure's natural size)")
    e.add_argument("--dpi", type=dpi_argument, default=None,
                   help=f"PNG and animation resolution, {MIN_DPI}–{MAX_DPI} (default 200 for PNG, "
                        "110 for animations)")
    e.add_argument("--select", action="append", default=[], metavar="KEY",
                   help="highlight a key such as lane:3 (repeatable)")
    e.add_argument("--frames", action="store_true",
                   help="write every playback frame as a numbered sequence "
                        "(<scenario>-<panel>-0001.<format> …) for slides")
    e.add_argument("--fps", type=fps_argument, default=None,
                   help="animation frame rate, 0.002–50 (default 4 for playback, 0.5 for steps)")
    e.add_argument("--max-frames", type=int, default=None, metavar="N",
                   help="at most N frames in an animation (default and limit: 2000)")
    e.add_argument("--text-as-paths", action="store_true",
                   help="SVG text as glyph outlines, identical without the fonts installed")
    e.add_argument("--font", action="append", default=[], metavar="FILE", dest="typeface",
                   help="set the figure's text (a lecture's figures too) in a paper's own "
                        "typeface: an OTF or TTF file "
                        "(give a second --font for its bold); measured with its metrics and "
                        "laid out for it, never scaled")
    e.add_argument("--embed-fonts", action="store_true",
                   help="SVG text as text with its faces embedded (subsets): for web pages, "
                        "set as laid out even without the fonts installed")
    e.add_argument("--part", action="append", default=None, metavar="NAME", dest="parts",
                   help="only this part of the figure (repeatable, drawn in the order given; "
                        "'gpuviz list --parts' lists them); default: the step's parts, else all")
    e.add_argument("--veiled", action="store_true",
                   help="a question step as the room sees it before the reveal: its question "
                        "alone, nothing that gives the answer (<…>-step02-veiled.<format>); "
                        "with --all-steps, each question step gets a veiled file before its own")
    e.add_argument("--chrome", choices=CHROMES, default="full", action=Once,
                   help="full: title, subtitle, notes and legend; legend: the parts' legend "
                        "only; none: the drawing alone, for a caption set by the paper")


def path_argument(text: str) -> str:
    """A path option: not empty (an empty --out would write into the current folder)."""
    if not text.strip():
        raise argparse.ArgumentTypeError("is empty; name a folder or file")
    return text


def fps_argument(text: str) -> float:
    """``--fps``: a number from MIN_FPS to MAX_FPS (a GIF or APNG cannot store a longer or
    shorter frame delay)."""
    from gpuviz.export.animate import MAX_FPS, MIN_FPS

    try:
        fps = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a number of frames per second, got "
                                         f"{text[:40]!r}") from None
    if not MIN_FPS <= fps <= MAX_FPS:  # NaN fails too
        raise argparse.ArgumentTypeError(f"must be from {MIN_FPS:g} to {MAX_FPS:g} frames per "
                                         f"second, got {text[:40]}")
    return fps


def selection_problems(keys: list[str]) -> list[str]:
    """What is wrong with the ``--select`` keys, checked before any file is written."""
    from gpuviz.keys import MAX_SELECTED, key_problem

    if len(keys) > MAX_SELECTED:
        return [f"--select is given {len(keys):,} times; a selection names at most "
                f"{MAX_SELECTED} keys"]
    out = []
    for text in keys:
        why = key_problem(text)
        if why is not None:
            shown = text if len(text) <= 40 else text[:40] + "…"
            out.append(f"--select {shown!r}: {why}")
    return out


def ignored_combination(args: argparse.Namespace) -> str | None:
    """A sentence refusing options that the export asked for would not apply, or None: a paper's
    typeface sets figures and a lecture's figures (its web page, deck and handout), not an
    animation, whose frames are painted for a screen; --frames writes one step's playback."""
    every_step = args.all_steps or args.steps is not None
    if args.typeface and args.format in ANIMATED:
        return ("--font sets figure files (svg, pdf, png) and lectures (html, pptx, pdf "
                "--all-steps); an animation is set in the shipped faces: leave --font out")
    if args.frames and every_step:
        return ("--frames writes one step's playback frames and --all-steps/--steps one file per "
                "step: give one of them (--step K with --frames for a step's playback)")
    return None


class Once(argparse.Action):
    """An option that takes one value: given twice, the command refuses it rather than keep the
    last silently."""

    def __call__(self, parser, namespace, values, option_string=None):
        if getattr(namespace, f"_{self.dest}_given", False):
            parser.error(f"{option_string} is given more than once; give it once")
        setattr(namespace, f"_{self.dest}_given", True)
        setattr(namespace, self.dest, values)


def font_problem(path: str) -> str | None:
    """Why the font file at ``path`` cannot set a figure, or None (read in full, as the export
    reads it: a file that passes here cannot fail later)."""
    from gpuviz.figures.metrics import TypefaceError, read_typeface

    try:
        read_typeface(path)
    except TypefaceError as e:
        return str(e)
    return None


def scenario_files(arg: str) -> list[Path]:
    path = Path(arg)
    if path.is_dir():
        return sorted(p for p in path.glob("*.json") if p.is_file())
    return [path]


def step_range(spec: str | None, count: int) -> tuple[list[int], str | None]:
    """0-based step indices of ``A-B`` (1-based, inclusive), or every step."""
    if spec is None:
        return list(range(count)), None
    head, sep, tail = spec.partition("-")
    try:
        a = int(head)
        b = int(tail) if sep else a
    except ValueError:
        return [], f"--steps {spec!r} is not a range like 2-5"
    if not 1 <= a <= b <= count:
        have = f"steps 1 … {count}" if count else "no steps"
        return [], f"--steps {spec} is outside this scenario's {have}"
    return list(range(a - 1, b)), None


def run(args: argparse.Namespace) -> int:
    files = scenario_files(args.scenario)
    if not files:
        print(f"{args.scenario}: no *.json scenario files in this folder", file=sys.stderr)
        return EXIT_BAD_INPUT
    if args.format in ANIMATED and args.frames:
        print("--frames writes numbered files; for an animation leave it out", file=sys.stderr)
        return EXIT_BAD_INPUT
    refused = ignored_combination(args)
    if refused:
        print(refused, file=sys.stderr)
        return EXIT_BAD_INPUT
    if (args.text_as_paths or args.embed_fonts) and args.format != "svg":
        which = "--text-as-paths" if args.text_as_paths else "--embed-fonts"
        print(f"{which} applies to SVG only", file=sys.stderr)
        return EXIT_BAD_INPUT
    if len(args.typeface) > 2:
        print("--font takes a regular face and at most one bold face", file=sys.stderr)
        return EXIT_BAD_INPUT
    for font in args.typeface:
        problem = font_problem(font)
        if problem:
            print(printable(f"--font {font}: {problem}"), file=sys.stderr)
            return EXIT_BAD_INPUT
    if args.text_as_paths and args.embed_fonts:
        print("--text-as-paths and --embed-fonts exclude each other (outlines need no fonts)",
              file=sys.stderr)
        return EXIT_BAD_INPUT
    bad_keys = selection_problems(args.select)
    if bad_keys:
        for line in bad_keys:
            print(printable(line), file=sys.stderr)
        return EXIT_BAD_INPUT
    # every file is read and checked before anything is written: a bad file, step, panel or
    # part found late must not leave the files written before it
    checked = [_checked(args, path) for path in files]
    if any(c is None for c in checked):
        return EXIT_BAD_INPUT
    # so is every limit of every file to be written (the PNG pixel cap, a part's budget, an
    # animation's frames and pixels): a later step over the cap must not leave earlier files
    if _may_refuse_late(args, checked):
        for path, c in zip(files, checked, strict=True):
            assert c is not None
            status = _one(args, path, Path(args.out), *c, check_only=True)
            if status:
                return status
    out = Path(args.out)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        print(f"{out}: cannot create the output folder ({e.strerror})", file=sys.stderr)
        return EXIT_BAD_INPUT
    try:  # an unwritable folder is found before a lecture is built, not after
        tempfile.TemporaryFile(dir=out).close()
    except OSError as e:
        print(printable(f"{out}: cannot write into this folder ({e.strerror}); nothing was "
                        "written"), file=sys.stderr)
        return EXIT_BAD_INPUT
    from gpuviz.atomic import protecting

    status = 0
    with protecting(files):  # an output linked to its own scenario never overwrites it
        for path, c in zip(files, checked, strict=True):
            assert c is not None
            status = max(status, _one(args, path, out, *c))
    return status


def _checked(args: argparse.Namespace, source: Path) -> tuple[Scenario, tuple[str, ...]] | None:
    """(scenario, panels) of one file, or None once its problems are printed: the file, its
    panels, parts and steps as the options ask for them."""
    from gpuviz import cli_input  # the shared loading and reporting of the commands

    scenario, err = cli_input.load(str(source))
    if err:
        cli_input.report(err)
        return None
    panels, err = cli_input.panels(scenario, args.panel, str(source))
    if not err and args.step is not None and not (args.all_steps or args.steps is not None):
        _, err = cli_input.at_step(scenario, args.step, str(source))
    if err:
        cli_input.report(err)
        return None
    problem = unknown_parts(args.parts, panels)
    if problem is None and (args.all_steps or args.steps is not None):
        _, problem = step_range(args.steps, len(scenario.steps))
    if problem is None and args.veiled:
        problem = veiled_problem(args, scenario)
    if problem:
        print(printable(f"{source}: {problem}"), file=sys.stderr)
        return None
    return scenario, tuple(panels)


def _may_refuse_late(args: argparse.Namespace, checked) -> bool:
    """Whether an export writes more than one file, any of which a limit known before writing
    may refuse: a PNG (the pixel cap), parts or a size with a budget (asked for, or a step's
    own parts), an animation (its frames and pixels). SVG and PDF of whole figures at their
    natural size have no such limit, and are not built twice."""
    every_step = args.all_steps or args.steps is not None
    many = (len(checked) > 1 or any(len(c[1]) > 1 for c in checked) or every_step
            or args.frames)
    step_parts = every_step and any(step.parts for c in checked for step in c[0].steps)
    return many and (args.format in ("png", *ANIMATED) or bool(args.parts) or step_parts
                     or args.size != "natural") and not is_lecture(args.format, every_step)


def _one(args: argparse.Namespace, source: Path, out: Path, scenario: Scenario,
         panels: tuple[str, ...], check_only: bool = False) -> int:
    from gpuviz.export.files import PartsError
    from gpuviz.export.raster import ExportLimitError

    try:
        return _write(args, scenario, panels, source, out, check_only)
    except (PartsError, ExportLimitError) as e:
        print(printable(f"{source}: {e}"), file=sys.stderr)
        return EXIT_BAD_INPUT


def veiled_problem(args: argparse.Namespace, scenario: Scenario) -> str | None:
    """Why ``--veiled`` cannot apply: no question step is exported."""
    from gpuviz.export.veiled import question_steps

    asking = question_steps(scenario)
    which = (f"steps with a question: {', '.join(map(str, asking))}" if asking
             else "no step asks a question")
    if args.format in ANIMATED or args.frames or is_lecture(args.format, True):
        return "--veiled writes one step's figures (a lecture or animation veils on its own)"
    if args.all_steps or args.steps is not None:
        chosen, _ = step_range(args.steps, len(scenario.steps))
        return None if any(k + 1 in asking for k in chosen) else f"--veiled: {which}"
    if args.step is None or args.step not in asking:
        return f"--veiled needs --step K of a question step ({which})"
    return None


def unknown_parts(parts: list[str] | None, panels) -> str | None:
    """A sentence naming each ``--part`` that a panel exported does not have, and its parts."""
    from gpuviz.registry import panel

    twice = [p for p, n in Counter(parts or ()).items() if n > 1]
    if twice:
        names = ", ".join(f"'{p}'" for p in twice[:5]) + (", …" if len(twice) > 5 else "")
        return f"--part {names}: given more than once (each part is drawn once)"
    for pid in panels:
        own = panel(pid).parts
        missing = [p for p in parts or () if p not in own]
        if missing:
            names = ", ".join(f"'{p}'" for p in missing)
            return (f"--part {names}: the {pid} figure has no such part (its parts: "
                    f"{', '.join(own)})")
    return None


def _checked_file(path: Path, where: str, write, check_only: bool) -> str:
    """``write(check_only)`` for one file; a limit met while checking names the file (and the
    step or frame) and says that nothing was written."""
    from gpuviz.export.files import PartsError
    from gpuviz.export.raster import ExportLimitError

    if not check_only:
        return write(False)
    try:
        return write(True)
    except (PartsError, ExportLimitError) as e:
        raise type(e)(f"{where}{path.name}: {e}; nothing was written") from None


def _write(args: argparse.Namespace, scenario: Scenario, panels, source: Path, out: Path,
           check_only: bool = False) -> int:
    from gpuviz import cli_input
    from gpuviz.export.files import export_figure
    from gpuviz.export.lecture import lecture_page, lecture_pages

    stem = source.stem
    every_step = args.all_steps or args.steps is not None
    if every_step:
        steps, problem = step_range(args.steps, len(scenario.steps))
        if problem:
            print(f"{source}: {problem}", file=sys.stderr)
            return EXIT_BAD_INPUT
        if args.step is not None:
            print("--step and --all-steps/--steps exclude each other", file=sys.stderr)
            return EXIT_BAD_INPUT
    if is_lecture(args.format, every_step):
        return 0 if check_only else export_lecture(args, scenario, panels, stem, out,
                                                   steps if every_step else None)
    if args.format in ANIMATED:
        return _animate(args, scenario, panels, stem, out, steps if every_step else None,
                        check_only)
    dpi = args.dpi or 200
    kw = dict(fmt=args.format, theme_name=args.theme, size=args.size, dpi=dpi,
              text_as_paths=args.text_as_paths, chrome=args.chrome, embed_fonts=args.embed_fonts,
              typeface=tuple(args.typeface))
    named = "-" + "-".join(args.parts) if args.parts else ""
    if every_step:
        # each step's file is its page as the lecture model shows it for an export: the
        # step's panels (of --panel, if given), parts, frame, selection, title and caption
        # (the overview only where there are no steps: it is written only then)
        pages = lecture_pages(scenario, steps, panels, overview=not steps)
        digits = max(2, len(str(len(scenario.steps))))
        for page, pid, part_page in _step_files(args, scenario, pages):
            k = page.step if page.step >= 0 else None
            suffix = f"-step{k + 1:0{digits}d}" if k is not None else ""
            paged = "-" + "-".join(part_page) if part_page else ""
            path = out / f"{stem}-{pid}{named}{paged}{suffix}.{args.format}"
            parts = args.parts or part_page or page.parts(pid)
            question = page.question if args.veiled else ""
            for veil in (question, "") if question else ("",):
                named_path = path.with_name(f"{path.stem}-veiled{path.suffix}") if veil \
                    else path

                def write(check, page=page, pid=pid, path=named_path, parts=parts, veil=veil):
                    return export_figure(page.state, pid, path, parts=parts, check_only=check,
                                         question=veil,
                                         step=("", "") if veil else page.heading(args.chrome),
                                         selection=page.selection_for(pid) | set(args.select),
                                         **kw)

                where = f"step {k + 1} of {len(scenario.steps)} " if k is not None else ""
                note = _checked_file(named_path, where, write, check_only)
                if not check_only:
                    print(printable(f"{named_path}{note}"))
        return 0
    # --step K: that step's page, as --all-steps writes it (K 0: the overview)
    steps_of = scenario
    scenario, err = cli_input.at_step(scenario, args.step, str(source))
    if err:
        return cli_input.report(err)
    page = None if args.step is None else lecture_page(steps_of, args.step - 1, panels)
    selection = frozenset(args.select)
    if page is not None:
        panels = page.panels
    if args.frames:
        from gpuviz.export.sequence import export_sequence

        for pid in panels:
            paths = export_sequence(scenario, pid, out, stem, fmt=args.format,
                                    theme_name=args.theme, size=args.size, dpi=dpi,
                                    selection=selection | (page.selection_for(pid) if page
                                                           else frozenset()),
                                    check_only=check_only,
                                    checked=not check_only,  # run() checked what can fail
                                    text_as_paths=args.text_as_paths, chrome=args.chrome,
                                    embed_fonts=args.embed_fonts,
                                    parts=args.parts or (page.parts(pid) if page else None),
                                    typeface=tuple(args.typeface))
            for path in () if check_only else paths:
                print(printable(str(path)))
        return 0
    for pid, part_page, parts, of in _single_files(args, scenario, page, panels, selection):
        suffix = step_suffix(args.step, len(steps_of.steps)) + ("-veiled" if args.veiled else "")
        paged = "-" + "-".join(part_page) if part_page else ""
        path = out / f"{stem}-{pid}{named}{paged}{suffix}.{args.format}"
        question = page.question if args.veiled and page is not None else ""
        # a step's file is its page, as --all-steps writes it: its heading and caption
        heading = page.heading(args.chrome) if page is not None else ("", "")
        chosen = selection | (page.selection_for(pid) if page is not None else frozenset())

        def write_one(check, pid=pid, path=path, parts=parts, question=question,
                      heading=heading, chosen=chosen):
            return export_figure(scenario, pid, path, selection=chosen, parts=parts,
                                 check_only=check, question=question,
                                 step=("", "") if question else heading, **kw)

        note = _checked_file(path, "", write_one, check_only)
        if not check_only:
            print(printable(f"{path}{note}" + (f"  (page {of[0]} of {of[1]}: the whole figure "
                                               f"misses the {args.size} budget)" if of else "")))
    return 0


def _single_files(args: argparse.Namespace, scenario: Scenario, page: Page | None,
                  panels: tuple[str, ...], selection: frozenset[str]):
    """(panel, page of parts, parts, (page number, pages) or None) for each file one state's
    export writes: the figure (or the parts its step's ``page`` names) in one file; where that
    misses the size's budget and no ``--part`` was asked for, one file a page
    (``budget_pages``), as ``--all-steps`` writes a step, instead of refusing the obvious
    command."""
    from gpuviz.export.files import budget_pages

    for pid in panels:
        parts = args.parts or (page.parts(pid) if page is not None else None)
        chosen = selection | (page.selection_for(pid) if page is not None else frozenset())
        heading = page.heading(args.chrome) if page is not None else ("", "")
        pages = None if args.parts else budget_pages(scenario, pid, args.theme, args.size,
                                                     chosen, args.chrome, parts, heading)
        if not pages:
            yield pid, None, parts, None
            continue
        for n, part_page in enumerate(pages, 1):
            yield pid, part_page, part_page, (n, len(pages))


def _step_files(args: argparse.Namespace, scenario: Scenario, pages: Sequence[Page]):
    """(page, panel, page of parts) for each file ``--all-steps`` writes: each step's
    panels, the figure or the parts the step names in one file; where that misses the size's
    budget, in one file a page of parts (``budget_pages``), as presentation mode shows a
    figure a page at a time, instead of refusing the whole lecture (None: one file). Parts
    asked for with ``--part`` are written as asked, or refused."""
    from gpuviz.export.files import budget_pages

    held = _PAGED[1] if _PAGED[0] is scenario else {}
    _PAGED[:] = [scenario, held]  # the check before writing and the writing page alike
    for page in pages:
        for pid in page.panels:
            key = (page.step, pid, args.theme, args.size, tuple(sorted(args.select)),
                   args.chrome)
            if args.parts:
                part_pages = None
            elif key in held:
                part_pages = held[key]
            else:
                part_pages = held[key] = budget_pages(
                    page.state, pid, args.theme, args.size,
                    page.selection_for(pid) | set(args.select), args.chrome, page.parts(pid),
                    page.heading(args.chrome))
            for part_page in part_pages or (None,):
                yield page, pid, part_page


# the pages of the lecture exported last (its scenario, {(step, panel, options): pages}): each
# step is paged once, not once to check and again to write
_PAGED: list = [None, {}]


def _animate(args, scenario, panels, stem: str, out: Path, steps: list[int] | None,
             check_only: bool = False) -> int:
    from gpuviz.export.animate import MAX_FRAMES, FramePlan, check_animation, write_animation
    from gpuviz.export.lecture import lecture_pages
    from gpuviz.export.raster import ExportLimitError
    from gpuviz.figures.layout import TARGETS
    from gpuviz.figures.scene import figure_for, frame_count
    from gpuviz.figures.theme import theme
    from gpuviz.keys import at_frame, without_frame

    th = theme(args.theme)
    target = TARGETS[args.size].showing(args.parts, args.chrome)
    cap = args.max_frames if args.max_frames is not None else MAX_FRAMES
    if not 1 <= cap <= MAX_FRAMES:
        print(f"--max-frames must be 1 … {MAX_FRAMES}", file=sys.stderr)
        return EXIT_BAD_INPUT
    dpi = args.dpi or 110
    kept = without_frame(args.select)
    for pid in panels:
        if steps is not None:
            chosen = steps[:cap] or [-1]

            shown = lecture_pages(scenario, [k for k in chosen if k >= 0], (pid,),
                                  overview=chosen[0] < 0)

            def step_figure(i, pid=pid, shown=shown):
                page = shown[i]  # each step as the lecture model shows it
                parts = args.parts or page.parts(pid)
                return figure_for(page.state, pid, th, page.selection_for(pid) | kept,
                                  target.showing(parts, args.chrome))

            plan = FramePlan(len(chosen), step_figure, 0.5 if args.fps is None else args.fps)
            name = f"{stem}-{pid}-steps.{args.format}"
        else:
            total = min(frame_count(scenario, pid), cap)

            def frame_figure(i, pid=pid):
                return figure_for(scenario, pid, th, at_frame(kept, i), target)

            plan = FramePlan(total, frame_figure, 4.0 if args.fps is None else args.fps)
            name = f"{stem}-{pid}.{args.format}"
        path = out / name
        try:
            if check_only:
                check_animation(plan, dpi=dpi)
                continue
            count = write_animation(plan, path, args.format, dpi=dpi, background=th.background)
        except ValueError as e:
            print(f"{path}: {e}", file=sys.stderr)
            return EXIT_BAD_INPUT
        except ExportLimitError as e:
            if not check_only:
                raise
            raise ExportLimitError(f"{path.name}: {e}; nothing was written") from None
        print(printable(f"{path}  ({count} frames at {plan.fps:g} fps)"))
    return 0
