"""One colour language across the product, checked over every bundled figure (each scenario,
before its steps and after the last, natural size) in the screen, dark and print themes: vermillion for
bad states only, no two legend entries of a figure on one swatch or on two swatches a reader
cannot tell apart, and one swatch per meaning in every figure of a theme (the role table's states in their role's colour)."""

from __future__ import annotations

from functools import cache

import pytest

from gpuviz.figures.lint import legend_marks, lint_across, lint_colours
from gpuviz.figures.scene import build_figure
from gpuviz.figures.targets import NATURAL
from gpuviz.figures.theme import OKABE_ITO, THEMES
from gpuviz.scenario import bundled_scenarios, compute_all, load_scenario

THEME_NAMES = ("screen", "dark", "print")


@cache
def _results():
    """``(name, panel, result, selection)`` for every bundled figure before its scenario's steps
    and after its last one (what a legend lists hardly changes between steps; the figure lint's
    sweep checks each figure's own colour rules at every step, size and theme), computed once
    for all themes."""
    out = []
    for path in bundled_scenarios():
        scenario = load_scenario(path)
        states = [(-1, scenario, frozenset())]
        if scenario.steps:
            k = len(scenario.steps) - 1
            states.append((k, scenario.at_step(k), scenario.step_selection(k)))
        for k, state, selection in states:
            results = compute_all(state, state.panels)
            out += [(f"{path.stem}/{pid}/step {k + 1}", pid, results[pid], selection)
                    for pid in state.panels]
    return out


@cache
def figures(theme_name: str):
    """``(name, figure)`` for every bundled figure drawn in ``theme_name`` at its natural size."""
    theme = THEMES[theme_name]
    return [(name, build_figure(pid, result, selection, theme, NATURAL))
            for name, pid, result, selection in _results()]


def _report(findings, limit=12):
    return "\n".join(f"{where}: {f}" for where, f in findings[:limit])


@pytest.mark.parametrize("theme_name", THEME_NAMES)
def test_vermillion_means_a_bad_state_and_nothing_else(theme_name):
    theme = THEMES[theme_name]
    found = sorted({(name.split("/")[1], str(f)) for name, fig in figures(theme_name)
                    for f in lint_colours(fig, theme) if f.rule == "vermillion"})
    assert not found, f"{len(found)} entries:\n" + _report(found, 30)


@pytest.mark.parametrize("theme_name", THEME_NAMES)
def test_no_two_legend_entries_of_a_figure_share_a_swatch(theme_name):
    theme = THEMES[theme_name]
    found = [(name, f) for name, fig in figures(theme_name)
             for f in lint_colours(fig, theme) if f.rule in ("swatch", "legend")]
    assert not found, f"{len(found)} findings:\n" + _report(found)


@pytest.mark.parametrize("theme_name", THEME_NAMES)
def test_two_legend_swatches_of_a_figure_look_like_two_colours(theme_name):
    """At least ΔE 10 apart on a screen, 0.1 apart in gray in print (or hatched apart) and,
    flat cells, 12 L* apart as printed (``lightness``; test_print_lightness shows it firing): the
    dark scheduler's "waiting on memory" and "waiting on math" were ΔE 8.0 apart, the screen's
    masked lanes ΔE 8.8 from white, historic values ΔE 6.5 from the inputs beside them."""
    theme = THEMES[theme_name]
    found = [(name, f) for name, fig in figures(theme_name)
             for f in lint_colours(fig, theme) if f.rule in ("distinct", "lightness")]
    assert not found, f"{len(found)} findings:\n" + _report(found)


@pytest.mark.parametrize("theme_name", THEME_NAMES)
def test_a_meaning_is_drawn_the_same_way_in_every_figure_of_a_theme(theme_name):
    entries = [(name.split("/")[1], label, mark) for name, fig in figures(theme_name)
               for label, marks in legend_marks(fig).items() for mark in marks]
    found = sorted({str(f) for f in lint_across(entries, THEMES[theme_name])})
    assert not found, f"{len(found)} findings:\n" + "\n".join(found[:30])


def test_categorical_series_keep_their_hue_in_every_theme():
    """Category k is one Okabe–Ito hue in every theme (lighter or darker for the ground), and
    no category is vermillion, which is kept for bad states."""
    def hue(c):
        import colorsys
        r, g, b = (int(c[i:i + 2], 16) / 255 for i in (1, 3, 5))
        h, _, s = colorsys.rgb_to_hls(r, g, b)
        return None if s < 0.15 or max(r, g, b) - min(r, g, b) < 0.1 else h

    palettes = {name: THEMES[name].palette for name in THEMES}
    assert len({len(p) for p in palettes.values()}) == 1
    for k in range(len(palettes["screen"])):
        hues = {name: hue(p[k]) for name, p in palettes.items()}
        ref = hues["screen"]
        for name, h in hues.items():
            if ref is None:
                assert h is None, (k, name)
            else:
                assert h is not None and min(abs(h - ref), 1 - abs(h - ref)) < 0.05, (k, name)
    vermillion = OKABE_ITO[3]
    for name, p in palettes.items():
        assert hue(vermillion) not in {hue(c) for c in p}, name


def test_the_role_names_type_is_the_role_table():
    """``RoleName`` lists exactly the table's roles, their old names and ``selected``, and
    ``Token`` the theme's structural colours: every name a theme answers, and no other."""
    from typing import get_args

    from gpuviz.figures.theme import ROLE_ALIASES, ROLE_TABLE, TOKENS, RoleName

    names = [r.name for r in ROLE_TABLE] + list(ROLE_ALIASES) + ["selected"]
    assert sorted(get_args(RoleName)) == sorted(names)
    for t in THEMES.values():
        assert set(t.roles) == set(names)
        assert all(t.color(tok).startswith("#") for tok in TOKENS)
