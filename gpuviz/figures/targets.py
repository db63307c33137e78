"""What a figure is laid out for: the panel's natural width, a journal column, a 16:9 slide, or
the shape of a view in the app (:class:`Target`), and which of its parts inside which chrome."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Literal

Chrome = Literal["full", "legend", "none"]
CHROMES: tuple[Chrome, ...] = ("full", "legend", "none")
Design = tuple[str, float]  # (arrangement, design width factor) of a slide or view layout
DESIGN_FACTORS = (0.6, 0.8, 1.0, 1.25, 1.6, 2.0)  # design widths tried, × the natural width


@dataclass(frozen=True)
class Target:
    """What a figure is laid out for: a page width in mm (None: the panel's natural width) and,
    for slides and views, the page's aspect (width / height)."""

    name: str = "natural"
    width: float | None = None
    aspect: float | None = None
    # for a slide or a view: lay out with this arrangement ("stacked" or "beside") and design
    # width factor only, instead of searching them; the app's redraw while a control is dragged
    # or a figure plays keeps the design its last full layout chose (Figure.design)
    design: Design | None = None
    # the panel's parts to draw, in this order (None: all, in the panel's own arrangement)
    parts: tuple[str, ...] | None = None
    # what surrounds the parts: "full" (title, subtitle, notes, legend), "legend" (the parts'
    # legend entries and nothing else) or "none" (the drawing alone, for a caption set elsewhere)
    chrome: Chrome = "full"
    # a lecture step's page (full chrome only): its heading ("Step 2 · Padding by one word")
    # above the figure's title and its caption under the figure, laid out with the figure
    heading: str = ""
    caption: str = ""
    # what a figure of some of its parts inside full chrome is headed with instead of the whole
    # figure's title and subtitle: the parts' own name ("Occupancy limits"), one line
    # (:func:`gpuviz.figures.part_titles.part_title`, filled in by ``scene.build_figure``)
    part_title: str = ""

    def searched(self) -> Target:
        """This target without a design: the full search."""
        return replace(self, design=None) if self.design is not None else self

    @property
    def on_screen(self) -> bool:
        """Whether this is a view in the app (:func:`view_target`): painted in the shipped
        faces, so laid out without room for a wider one."""
        return self.name == "view"

    @property
    def gridded(self) -> bool:
        """Whether this is a slide, laid out on the title-safe grid (``figures.slide_grid``)."""
        return self.name == "slide" and self.aspect is not None

    @property
    def whole(self) -> bool:
        """Whether this is the panel's whole figure: every part, with full chrome."""
        return self.parts is None and self.chrome == "full"

    def shows(self, *parts: str) -> bool:
        """Whether a block of ``parts`` is drawn: one of them is shown (none named: a block of
        every part)."""
        return not parts or self.parts is None or any(p in self.parts for p in parts)

    def showing(self, parts: Sequence[str] | None = None, chrome: Chrome = "full") -> Target:
        """This target drawing only ``parts`` (None: all) inside ``chrome`` (headed as the figure
        module names them: :attr:`part_title` is for the parts it was given)."""
        return replace(self, parts=None if parts is None else tuple(parts), chrome=chrome,
                       part_title="")

    def titled(self, heading: str, caption: str) -> Target:
        """This target carrying a lecture step's heading and caption (drawn with full chrome
        only)."""
        return replace(self, heading=heading, caption=caption)

    @property
    def min_pt(self) -> float:
        """The smallest type allowed at this size: 7 pt (a journal's least, in a single column
        as well)."""
        return 7.0


NATURAL = Target()
SINGLE = Target("single", 85.0)
DOUBLE = Target("double", 178.0)
SLIDE = Target("slide", 254.0, 16.0 / 9.0)  # 10 × 5.625 in
TARGETS: dict[str, Target] = {t.name: t for t in (NATURAL, SINGLE, DOUBLE, SLIDE)}


def view_target(width_mm: float, aspect: float) -> Target:
    """The target of a view in the app: its width in mm at the chosen zoom, and its shape."""
    return Target("view", max(40.0, float(width_mm)), max(0.2, min(6.0, float(aspect))))

