"""Which lanes of the reduction tree a folded grid leaves out, and the note that says so.

A journal column or a slide has room for 16 rows of lanes, not 32. The folded grid draws lanes
16–31 beside lanes 0–15 for the tracks where they hold values of their own (the inputs), and
leaves them out where the model's values only repeat what is drawn: a butterfly's lane l + 16
holds lane l's value from the first exchange on; a shuffle down's lanes 16–31 keep their
inputs (the faded suffix); at block scope, lanes and shared entries past the warps' partials
hold 0. The grid is not folded where any left-out value would be new.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from gpuviz.models.reduction import WARP, ReductionResult

HALF = WARP // 2  # the folded grid's rows


class State(Protocol):
    """What the fold reads of a build's state (``figures.reduction_tree.State``)."""

    @property
    def result(self) -> ReductionResult: ...
    @property
    def block(self) -> bool: ...
    @property
    def folded(self) -> list[int]: ...


class Track(Protocol):
    """What the fold reads of a track (``figures.reduction_tree.Track``)."""

    @property
    def level(self) -> int | None: ...
    @property
    def values(self) -> tuple[float | None, ...]: ...


def fold_plan(st: State, tr: Sequence[Track]) -> list[bool] | None:
    """Per track, whether its lanes 16–31 need a column of their own in the folded grid, or
    None where the model's lanes 16–31 of a later track hold a value not drawn elsewhere
    (then the grid is not folded). A track's upper lanes are left out where they repeat the
    lower ones (lane l + 16 holds lane l's value: a butterfly) or keep the track before's
    values (the faded suffix of a shuffle down)."""
    r = st.result
    out = []
    previous: tuple[float | None, ...] | None = None
    for track in tr:
        v = track.values
        k = track.level
        if len(v) < WARP:
            return None
        mirror = all(v[lane] == v[lane - HALF] for lane in range(HALF, WARP))
        kept = (k is not None and k >= 1 and r.active_prefix[k] <= HALF and previous is not None
                and v[HALF:] == previous[HALF:])
        own = k is None or k == 0
        if own and _unread_upper(st, v):
            own = False
        elif not own and not ((mirror and k is not None and r.active_prefix[k] == WARP) or kept):
            return None
        out.append(own)
        previous = v
    return out


def _unread_upper(st: State, values: tuple[float | None, ...]) -> bool:
    """At block scope with at most 16 warps: shared entries 16–31 that no warp stores to and
    the final warp's lanes 16–31 reading 0 from them."""
    return (st.block and st.result.warps <= HALF
            and all(v == 0.0 for v in values[HALF:WARP]))


def fold_note(st: State, tr: Sequence[Track]) -> str:
    """What the folded grid leaves out, in words."""
    r = st.result
    rows = st.folded[0] if st.folded else HALF
    if st.block and not any(fold_plan(st, tr) or ()):  # the upper lanes all read 0
        return (f"Lanes and shared entries {rows}–31 hold 0 (no warp's partial) and are not "
                "drawn.")
    if all(prefix == WARP for prefix in r.active_prefix[1:]):
        return "Lanes 16–31: inputs only (later, lane l + 16 holds lane l's value)."
    return "Lanes 16–31 drawn as inputs only (later levels keep them)."
