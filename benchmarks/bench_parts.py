"""Parts against their budgets: for every panel, each part alone at single column (height in mm,
against 120 mm) and on a 16:9 slide (median body and title type in pixels at 1280 × 720, against
20 and 28 px), over every bundled scenario that draws it, in the print theme; with ``--lint``,
the lint's findings over every part of every bundled scenario, theme and size (with
``--steps``, in every step's state as well). Prints figures.
Run: ``python benchmarks/bench_parts.py [--lint [--steps]] [PANEL …]``."""

from __future__ import annotations

import statistics
import sys
import time
from collections import Counter

from gpuviz.figures.budget import BODY_PX, TITLE_PX, px
from gpuviz.figures.display import Text, walk
from gpuviz.figures.lint import lint
from gpuviz.figures.scene import figure_for
from gpuviz.figures.targets import DOUBLE, SINGLE, SLIDE
from gpuviz.figures.theme import THEMES, theme
from gpuviz.registry import PANELS
from gpuviz.scenario import bundled_scenarios, load_scenario

PRINT = theme("print")


def body_and_title(figure) -> tuple[float, float]:
    sizes = sorted(t.size for t in walk(figure.items) if isinstance(t, Text))
    if not sizes:
        return 0.0, 0.0
    return px(figure, statistics.median(sizes)), px(figure, sizes[-1])


def main() -> None:
    t0 = time.perf_counter()
    named = [(p.stem, load_scenario(p)) for p in bundled_scenarios()]
    scenarios = [s for _, s in named]
    stem = {id(s): n for n, s in named}
    print(f"{'panel':<11}{'part':<14}{'single mm':>10}{'slide body px':>15}{'title px':>9}"
          "  worst scenario")
    over = 0
    wanted = [a for a in sys.argv[1:] if not a.startswith("-")]
    panels = [p for p in PANELS if not wanted or p.id in wanted]
    for p in panels:
        shown = [s for s in scenarios if p.id in s.panels]
        for part in p.parts:
            worst = (0.0, "", 1e9, 1e9)
            for s in shown:
                single = figure_for(s, p.id, PRINT, frozenset(), SINGLE.showing([part]))
                if single.parts != (part,):
                    continue
                slide = figure_for(s, p.id, PRINT, frozenset(), SLIDE.showing([part]))
                body, title = body_and_title(slide)
                if single.height > worst[0]:
                    worst = (single.height, stem[id(s)], body, title)
            flag = " *" if worst[0] > 120 or worst[2] < BODY_PX or worst[3] < TITLE_PX else ""
            over += bool(flag)
            print(f"{p.id:<11}{part:<14}{worst[0]:>10.0f}{worst[2]:>15.1f}{worst[3]:>9.1f}"
                  f"  {worst[1]}{flag}")
    print(f"parts over a budget (120 mm single, {BODY_PX:g}/{TITLE_PX:g} px slide): {over}")
    if "--lint" not in sys.argv:
        print(f"({time.perf_counter() - t0:.1f} s; --lint also counts lint findings)")
        return
    failing, total = Counter(), 0
    rules: Counter[str] = Counter()
    states = [(s, frozenset()) for s in scenarios]
    if "--steps" in sys.argv:  # every step's state too, with its selection
        states += [(s.at_step(k), s.step_selection(k)) for s in scenarios
                   for k in range(len(s.steps))]
    for s, selection in states:
        for pid in s.panels:
            if wanted and pid not in wanted:
                continue
            for part in next(p for p in PANELS if p.id == pid).parts:
                for tname in THEMES:
                    th = theme(tname)
                    for target in (SINGLE, DOUBLE, SLIDE):
                        t = target.showing([part])
                        fig = figure_for(s, pid, th, selection, t)
                        if fig.parts != (part,):
                            continue
                        found = lint(fig, t, theme=th, budget=True)
                        total += 1
                        if found:
                            failing[pid] += 1
                            rules.update({f.rule for f in found})
    print(f"part figures linted: {total}; failing: {sum(failing.values())}")
    print("  by panel: " + ", ".join(f"{k} {v}" for k, v in sorted(failing.items())))
    print("  by rule:  " + ", ".join(f"{k} {v}" for k, v in rules.most_common()))
    print(f"({time.perf_counter() - t0:.1f} s)")


if __name__ == "__main__":
    main()
