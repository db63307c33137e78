"""What a dock does when something it may show changed: the redraw decision, without Qt.

A dock's picture is named by a :class:`DrawKey` (the panel's linked parameters, the selection,
the theme, the view's target). :class:`RedrawPlan` remembers what is shown, what is being
computed and what layout is being searched off the GUI thread, and answers, for a new key,
one of the :class:`Redraw` actions; the dock (``ui/panel_dock.py``) carries them out with
widgets and the thread pool. Work handed to a worker carries a generation; a result whose
generation is not the latest is stale and dropped.
"""

from __future__ import annotations

import enum
from typing import Any, NamedTuple

from gpuviz.figures.targets import Design, Target

SLOW_COMPUTE_S = 0.012  # past this a panel's model runs off the GUI thread from then on


class DrawKey(NamedTuple):
    """What one picture of a dock shows."""

    params: Any  # the panel's effective (linked) parameters
    selection: frozenset[str]
    theme: str
    target: Target

    def same_content(self, other: DrawKey) -> bool:
        """Whether the two differ at most in the view's shape."""
        return (self.params, self.selection, self.theme) == \
            (other.params, other.selection, other.theme)


class Redraw(enum.Enum):
    NOTHING = "nothing"  # shown, being computed, or being laid out already
    SEARCH_SHAPE = "search shape"  # only the view's shape changed: keep the picture, search
    COMPUTE_OFF = "compute off"  # compute on the thread pool, keep the picture meanwhile
    DRAW = "draw"  # compute and build now, on the GUI thread


class RedrawPlan:
    """One dock's redraw state. ``slow`` starts as the panel declares and turns on for good
    once its model took longer than :data:`SLOW_COMPUTE_S`. (Plain classes: a dataclass costs
    start-up a millisecond or so to define.)"""

    def __init__(self, slow: bool = False):
        self.slow = slow
        self.shown: DrawKey | None = None
        self.shown_result: object = None
        self.computing: DrawKey | None = None
        self.searching: DrawKey | None = None
        self.searching_result: object = None
        self.generation = 0
        self.search_generation = 0
        # the searched design per view target (also fed from designs remembered across sessions)
        self.designs: dict[Target, Design] = {}

    def decide(self, key: DrawKey, on_screen: bool) -> Redraw:
        """What to do for ``key``; a draw or computation started here is recorded."""
        if key in (self.shown, self.computing, self.searching):
            return Redraw.NOTHING
        if (on_screen and self.shown is not None and self.shown.same_content(key)
                and self.shown_result is not None and key.target.paged
                and key.target not in self.designs):
            # only the view's shape changed (a resize, a dock moved or tabbed): the picture on
            # screen stays up, scaled to the view, while the layout for the new shape is
            # searched off the GUI thread (a dozen builds, 20-130 ms)
            return Redraw.SEARCH_SHAPE
        self.searching = None  # what is drawn now replaces a layout still being searched
        if self.slow:
            self.generation += 1
            self.computing = key
            return Redraw.COMPUTE_OFF
        return Redraw.DRAW

    def computed_in(self, seconds: float) -> None:
        """The model ran on the GUI thread for ``seconds``."""
        if seconds > SLOW_COMPUTE_S:
            self.slow = True

    def take_computed(self, generation: int) -> tuple[bool, DrawKey | None]:
        """A computation came back: (whether it is the latest, the key it was for)."""
        if generation != self.generation:
            return False, None  # a newer change is already on its way
        key, self.computing = self.computing, None
        return True, key

    def start_search(self, key: DrawKey, result: object) -> int:
        """A full layout search for ``key`` goes to the thread pool; returns its generation."""
        self.searching, self.searching_result = key, result
        self.search_generation += 1
        return self.search_generation

    def take_searched(self, generation: int) -> tuple[DrawKey, object] | None:
        """A search came back: its key and result, or None when it was asked again since or
        something newer was drawn meanwhile."""
        if generation != self.search_generation or self.searching is None:
            return None
        key, result = self.searching, self.searching_result
        self.searching = self.searching_result = None
        return key, result

    def should_settle(self, key: DrawKey | None) -> bool:
        """Whether the search after a run of kept-design redraws still applies to ``key``:
        not when something newer is shown, computed or laid out (that settles itself)."""
        return key is not None and key == self.shown and key != self.computing \
            and self.searching is None

    def shown_now(self, key: DrawKey | None, result: object) -> None:
        self.shown, self.shown_result = key, result

    def stale_for(self, key: DrawKey | None, selection: frozenset[str], theme: str,
                  target: Target) -> bool:
        """Whether a computed key no longer matches what the dock shows now (then it draws the
        result, and asks for another redraw)."""
        return key is None or (key.selection, key.theme, key.target) != (selection, theme, target)
