"""The spacing a figure is laid out with, one record per kind of target (:class:`Spacing`,
:data:`SPACINGS`; a theme's ``spacing(target)``): the margins, gaps and row paddings that several
figures share, so that a spacing rule is changed in one place."""

from __future__ import annotations

from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Mapping

    from gpuviz.figures.targets import Kind


@dataclass(frozen=True)
class Spacing:
    """Spacing in mm at a figure's size in points (a slide's or a view's layout scales it with
    the figure)."""

    margin: float = 2.0  # around a figure's content
    gap: float = 3.5  # between two blocks of the composition, and between a drawing and its side
    heading_gap: float = 2.0  # under a part's name (``Target.part_title``): it heads its part
    # how much taller than its labels' ink a row of cells is: a cell of a row of slots, a
    # barrier's event or a tile's load (``ink_height(pt) + cell_pad``)
    cell_pad: float = 1.6
    # how much taller than its labels' ink a timeline's row is where the page has height to
    # spare (a journal column has none: the rows are only cell-high there)
    row_pad: float = 2.2


ROOMY = Spacing()
# a journal column is short of height: a timeline's rows are just taller than their labels
COLUMN = replace(ROOMY, row_pad=ROOMY.cell_pad)
SPACINGS: Mapping[Kind, Spacing] = MappingProxyType({
    "natural": ROOMY, "column": COLUMN, "page": ROOMY, "slide": ROOMY, "view": ROOMY})
