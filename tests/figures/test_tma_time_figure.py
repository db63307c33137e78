"""The tma figure's drawn barrier, ring and cluster parts show the model's state: the signed
tx-count, phase completions, parity answers, the parities of each round, a hang as a wait that
runs off the end, the slices reaching each CTA and the bytes each barrier expects."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

from gpuviz.figures import tma as figure
from gpuviz.figures.display import Polyline, Text, walk
from gpuviz.figures.lint import lint
from gpuviz.figures.targets import SINGLE, SLIDE
from gpuviz.figures.theme import theme
from gpuviz.models import tma
from gpuviz.models.tma_barrier import MISTAKES

EARLY_BYTES = (tma.TmaEvent("complete_tx", bytes=512), tma.TmaEvent("arrive"),
               tma.TmaEvent("test_wait", parity=0), tma.TmaEvent("expect_tx", bytes=512),
               tma.TmaEvent("test_wait", parity=0))


def build(params, part, target=SINGLE, name="print"):
    return figure.build(tma.compute(params), frozenset(), theme(name),
                        replace(target, parts=(part,)))


def keyed(fig, k):
    return [t.text for t in walk(fig.items) if isinstance(t, Text) and t.key == k]


def with_events(events, count=1):
    return replace(tma.TmaParams(), barrier=tma.TmaBarrier(count=count, events=events))


def with_mistake(mistake, **kw):
    p = tma.TmaParams()
    return replace(p, pipeline=replace(p.pipeline, mistake=mistake, iterations=9, **kw))


def test_tx_count_drawn_negative_when_complete_tx_comes_first():
    p = with_events(EARLY_BYTES)
    trace = tma.compute(p).barrier_trace
    fig = build(p, "barrier")
    for i, step in enumerate(trace):
        drawn = keyed(fig, f"event:{i}")
        assert step.tx < 0 or i >= 3
        # the tx-count cell prints the model's signed count, with a true minus sign
        assert f"{step.tx:,}".replace("-", "−") in drawn, (i, drawn)
    assert "−512" in keyed(fig, "event:0")


def test_phase_completion_and_parity_answers_follow_the_trace():
    p = with_events(EARLY_BYTES)
    trace = tma.compute(p).barrier_trace
    fig = build(p, "barrier")
    done = [i for i, s in enumerate(trace) if s.completed]
    assert done == [3]  # the expect-tx brings tx back to 0 with the arrival made
    assert "0→1" in keyed(fig, "event:3")
    thick = theme("print").thick_mm
    lines = [it for it in walk(fig.items) if isinstance(it, Polyline)
             and it.style.stroke_width == thick and it.points[0][0] == it.points[1][0]]
    assert len(lines) == len(done)
    for i, s in enumerate(trace):
        if s.wait is not None:
            assert ("true" if s.wait else "false") in keyed(fig, f"event:{i}")
    assert [s.wait for s in trace if s.wait is not None] == [False, True]


def test_a_long_script_is_summarised_within_the_single_column():
    p = with_events((tma.TmaEvent("arrive"),) * 64, count=4)
    fig = build(p, "barrier")
    texts = fig.texts()
    shown = {int(k.split(":")[1]) for k in set(fig.keys()) if k.startswith("event:")}
    assert len(shown) < 64 and 63 in shown and 0 in shown
    hidden = 64 - len(shown)
    assert str(hidden) in texts  # the elision column says how many events it stands for
    assert not lint(fig, replace(SINGLE, parts=("barrier",)), budget=True)


def test_round_two_parities_are_read_from_the_ring():
    p = replace(tma.TmaParams(), pipeline=tma.TmaPipeline(stages=3, iterations=9))
    r = tma.compute(p)
    fig = build(p, "ring")
    for s in r.ring:
        drawn = keyed(fig, f"iteration:{s.iteration}")
        # iteration, round, the consumer's full parity, the producer's empty parity
        assert drawn == [str(s.iteration), str(s.round), str(s.full_parity),
                         str(s.empty_parity)]
    round2 = {s.full_parity for s in r.ring if s.round == 2}
    assert round2 == {0}


@pytest.mark.parametrize("mistake", ["expect_tx_large", "expect_tx_twice", "wrong_count"])
def test_a_hang_is_a_wait_that_runs_off_the_end(mistake):
    p = with_mistake(mistake)
    r = tma.compute(p)
    fig = build(p, "ring")
    hang = next(s for s in r.ring if s.outcome == "hang")
    arrows = [it for it in walk(fig.items) if isinstance(it, Polyline) and it.arrow_end]
    assert len(arrows) == 1
    tips = [t.x for t in walk(fig.items) if isinstance(t, Text)
            and t.key and t.key.startswith("iteration:")]
    # it starts in the hung iteration and ends past the last iteration's column
    assert arrows[0].points[1][0] > max(tips)
    assert arrows[0].points[0][0] >= min(tips) - 3
    assert all(keyed(fig, f"iteration:{i}") == [str(i)] for i in range(hang.iteration + 1, 9))
    assert any("forever" in t for t in fig.texts())


def test_no_mistake_draws_no_hang_nor_hazard():
    fig = build(with_mistake("none"), "ring")
    assert not [it for it in walk(fig.items) if isinstance(it, Polyline) and it.arrow_end]
    assert not any("hazard" in t or "hang" in t for t in fig.texts())


@pytest.mark.parametrize("mistake", ["expect_tx_small", "stale_parity", "early_release"])
def test_a_broken_read_is_drawn_as_a_hazard(mistake):
    fig = build(with_mistake(mistake), "ring", name="screen")
    hazard = theme("screen").color("hazard")
    assert hazard in fig.colours()
    assert theme("screen").color("hazard") not in build(with_mistake("none"), "ring",
                                                        name="screen").colours()


def expected_number(fig) -> int:
    text = " ".join(keyed(fig, "cluster:expected"))
    return int(re.search(r"expects ([\d,]+) bytes", text).group(1).replace(",", ""))


@pytest.mark.parametrize("multicast", [True, False])
def test_cluster_expected_bytes_are_the_models(multicast):
    p = replace(tma.TmaParams(), cluster=tma.TmaCluster(dims=(2, 2, 1), multicast=multicast,
                                                        a_bytes=16384, b_bytes=16384))
    r = tma.compute(p)
    fig = build(p, "cluster")
    assert expected_number(fig) == r.expected_tx_per_cta == 32768
    # every CTA's box holds one slice per copy that reaches its barrier
    for rank in range(4):
        slices = [t for t in keyed(fig, f"cta:{rank}") if t.isdigit()]
        assert len(slices) == r.copies_per_barrier
    if multicast:
        assert f"{r.issued_bytes_per_cta:,}" in " ".join(fig.texts())
        assert r.issued_bytes_per_cta != r.expected_tx_per_cta


def test_cluster_draws_resident_clusters_beside_the_naive_count():
    r = tma.compute(tma.TmaParams())
    texts = build(tma.TmaParams(), "cluster").texts()
    assert str(r.max_active_clusters) in texts and str(r.max_active_clusters_naive) in texts


CASES = [("none", tma.TmaParams()), ("early", with_events(EARLY_BYTES)),
         ("long", replace(with_events((tma.TmaEvent("arrive"),) * 64, count=4),
                          pipeline=tma.TmaPipeline(stages=8, iterations=32,
                                                   mistake="early_release"),
                          cluster=tma.TmaCluster(dims=(16, 1, 1)))),
         ("4x4", replace(tma.TmaParams(), cluster=tma.TmaCluster(dims=(4, 4, 1)))),
         *[(m, with_mistake(m)) for m in MISTAKES[1:]]]


@pytest.mark.parametrize("name,params", CASES, ids=[c[0] for c in CASES])
@pytest.mark.parametrize("target", [SINGLE, SLIDE], ids=["single", "slide"])
def test_drawn_parts_are_lint_clean(name, params, target):
    for part in ("barrier", "ring", "cluster"):
        for th in ("screen", "print", "dark"):
            fig = build(params, part, target, th)
            found = lint(fig, replace(target, parts=(part,)), theme=theme(th), budget=True)
            assert not found, (part, th, [str(f) for f in found[:3]])


def test_a_cluster_too_wide_for_slices_lists_none_in_its_legend():
    wide = replace(tma.TmaParams(), cluster=tma.TmaCluster(dims=(16, 1, 1)))
    texts = " ".join(build(wide, "cluster").texts())
    assert "A slice" not in texts and "too many CTAs" in texts
    assert expected_number(build(wide, "cluster")) == tma.compute(wide).expected_tx_per_cta
    assert "A slice" in " ".join(build(tma.TmaParams(), "cluster").texts())


def test_arrivals_past_the_count_draw_the_models_negative_pending():
    p = with_events((tma.TmaEvent("arrive", count=3),))
    pending = tma.compute(p).barrier_trace[0].pending
    assert pending == -2
    assert "−2" in keyed(build(p, "barrier"), "event:0")  # a true minus, as the tx-count's


def test_a_stale_parity_draws_the_parity_waited_on_as_the_hazard_in_every_round():
    """The consumer's row shows the parity it does wait on (last round's), in the hazard's
    fill, in every iteration; it showed the right parity, and only iteration 0 as stale."""
    from gpuviz.figures.display import Rect

    p = with_mistake("stale_parity")
    r = tma.compute(p)
    fig = build(p, "ring", name="screen")
    hazard = theme("screen").fill("hazard").fill
    for s in r.ring:
        assert keyed(fig, f"iteration:{s.iteration}")[2] == str((s.round + 1) % 2)
        cells = [it for it in walk(fig.items) if isinstance(it, Rect)
                 and it.key == f"iteration:{s.iteration}" and it.style.fill == hazard]
        assert len(cells) >= 2, s  # the parity cell and the read


@pytest.mark.parametrize("part,selected", [("ring", "iteration:4"), ("ring", "stage:1"),
                                           ("barrier", "event:3"), ("cluster", "cta:2")])
def test_a_selected_iteration_event_stage_or_cta_is_outlined(part, selected):
    """The ring, barrier and cluster drew their keys but outlined none: a selected key now gets
    the selection's double outline around the cells it draws, and only it."""
    from gpuviz.figures.display import Rect

    p = tma.TmaParams()
    r = tma.compute(p)
    t = theme("screen")
    outer = t.selection()[0]
    fig = figure.build(r, frozenset({selected}), t, replace(SINGLE, parts=(part,)))
    marks = [it for it in walk(fig.items) if isinstance(it, Rect) and it.style == outer]
    assert [m.key for m in marks] == [selected]
    plain = figure.build(r, frozenset(), t, replace(SINGLE, parts=(part,)))
    assert not [it for it in walk(plain.items) if isinstance(it, Rect) and it.style == outer]
    assert not lint(fig, replace(SINGLE, parts=(part,)), budget=True)
