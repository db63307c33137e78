"""The dock's redraw decision, without widgets: what is drawn, computed off the GUI thread,
searched for a new view shape, and which late results are stale."""

from __future__ import annotations

from gpuviz.figures.targets import NATURAL, view_target
from gpuviz.ui.redraw_plan import SLOW_COMPUTE_S, DrawKey, Redraw, RedrawPlan

WIDE, NARROW = view_target(300, 1.6), view_target(200, 1.2)


def key(n: int = 1, selection: frozenset[str] = frozenset(), target=WIDE) -> DrawKey:
    return DrawKey(("params", n), selection, "screen", target)


def test_what_is_shown_computed_or_searched_is_not_drawn_again():
    plan = RedrawPlan()
    assert plan.decide(key(), on_screen=True) is Redraw.DRAW
    plan.shown_now(key(), "result")
    assert plan.decide(key(), on_screen=True) is Redraw.NOTHING
    plan.slow = True
    assert plan.decide(key(2), on_screen=True) is Redraw.COMPUTE_OFF
    assert plan.decide(key(2), on_screen=True) is Redraw.NOTHING  # already on its way


def test_a_model_slower_than_a_frame_computes_off_the_gui_thread_from_then_on():
    plan = RedrawPlan()
    plan.computed_in(SLOW_COMPUTE_S / 2)
    assert plan.decide(key(), on_screen=True) is Redraw.DRAW
    plan.computed_in(SLOW_COMPUTE_S * 2)
    assert plan.decide(key(2), on_screen=True) is Redraw.COMPUTE_OFF


def test_only_the_latest_computation_is_drawn():
    plan = RedrawPlan(slow=True)
    plan.decide(key(1), on_screen=True)
    first = plan.generation
    plan.decide(key(2), on_screen=True)
    assert plan.take_computed(first) == (False, None)  # stale: dropped
    assert plan.take_computed(plan.generation) == (True, key(2))
    assert plan.computing is None


def test_a_new_view_shape_keeps_the_picture_and_searches_until_its_design_is_known():
    plan = RedrawPlan()
    plan.shown_now(key(target=WIDE), "result")
    assert plan.decide(key(target=NARROW), on_screen=True) is Redraw.SEARCH_SHAPE
    assert plan.decide(key(target=NARROW), on_screen=False) is Redraw.DRAW  # not painted yet
    plan.designs[NARROW] = ("stacked", 1.0)
    assert plan.decide(key(target=NARROW), on_screen=True) is Redraw.DRAW
    assert plan.decide(key(target=NATURAL), on_screen=True) is Redraw.DRAW  # not a view


def test_a_drawing_meanwhile_drops_the_search_and_the_settle_after_it():
    plan = RedrawPlan()
    plan.shown_now(key(1), "result")
    generation = plan.start_search(key(1), "result")
    assert not plan.should_settle(key(1))  # a search is under way already
    plan.decide(key(2), on_screen=True)  # an edit is drawn before the search comes back
    assert plan.take_searched(generation) is None
    plan.shown_now(key(2), "result 2")
    assert plan.should_settle(key(2)) and not plan.should_settle(key(1))
    generation = plan.start_search(key(2), "result 2")
    assert plan.take_searched(generation) == (key(2), "result 2")


def test_a_computed_result_for_another_selection_asks_for_a_redraw():
    plan = RedrawPlan()
    lane = frozenset({"lane:3"})
    assert plan.stale_for(key(selection=lane), frozenset(), "screen", WIDE)
    assert not plan.stale_for(key(selection=lane), lane, "screen", WIDE)
    assert plan.stale_for(key(), frozenset(), "dark", WIDE)
