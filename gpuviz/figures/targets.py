"""What a figure is laid out for: the panel's natural width, a journal column, a 16:9 slide, or
the shape of a view in the app (:class:`Target` and its :data:`Kind`), and which of its parts
inside which chrome."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Literal

Chrome = Literal["full", "legend", "none"]
CHROMES: tuple[Chrome, ...] = ("full", "legend", "none")
Design = tuple[str, float]  # (arrangement, design width factor) of a slide or view layout
DESIGN_FACTORS = (0.6, 0.8, 1.0, 1.25, 1.6, 2.0)  # design widths tried, × the natural width
# what kind of room a target gives, which decides how a figure is laid out for it:
#   natural  the panel's own width, as tall as it takes (no width, no aspect)
#   column   a journal's column width, as tall as it takes (a width, no aspect)
#   page     a page of a fixed shape, filled at the largest scale, centred (a width and aspect)
#   slide    a page on the slide's title-safe grid (``figures.slide_grid``), projected
#   view     a page that is a view in the app, painted on screen in the shipped faces
Kind = Literal["natural", "column", "page", "slide", "view"]
KINDS: tuple[Kind, ...] = ("natural", "column", "page", "slide", "view")
PAGED: tuple[Kind, ...] = ("page", "slide", "view")  # the kinds with a shape to fill
SINGLE_COLUMN_MM = 100.0  # a column narrower than this is a single journal column


@dataclass(frozen=True)
class Target:
    """What a figure is laid out for: a page width in mm (None: the panel's natural width) and,
    for slides and views, the page's aspect (width / height). Figures ask its :attr:`kind` (or
    a predicate on it: :attr:`paged`, :attr:`single_column`), never its :attr:`name`, which is
    what the user calls the size ("single", "slide")."""

    name: str = "natural"
    width: float | None = None
    aspect: float | None = None
    kind: Kind = "natural"
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

    def __post_init__(self) -> None:
        shaped = (self.width is not None, self.aspect is not None)
        wanted = {"natural": (False, False), "column": (True, False)}.get(self.kind, (True, True))
        if shaped != wanted:
            raise ValueError(f"a {self.kind} target has {'a' if wanted[0] else 'no'} width and "
                             f"{'an' if wanted[1] else 'no'} aspect: {self}")

    @property
    def paged(self) -> bool:
        """Whether this is a page of a fixed shape (a slide, a view, a slide's page off its
        grid), filled at the largest scale, not a width the figure is as tall as it takes."""
        return self.kind in PAGED

    @property
    def single_column(self) -> bool:
        """Whether this is a single journal column (under :data:`SINGLE_COLUMN_MM`)."""
        return self.kind == "column" and self.width is not None \
            and self.width < SINGLE_COLUMN_MM

    @property
    def width_mm(self) -> float:
        """The width a column or a page lays its figure out to, in mm (a natural target has
        none: its figure is as wide as the panel makes it)."""
        if self.width is None:
            raise ValueError(f"a {self.kind} target has no width")
        return self.width

    @property
    def page(self) -> tuple[float, float]:
        """A paged target's page: its width and height in mm."""
        if self.width is None or self.aspect is None:
            raise ValueError(f"a {self.kind} target has no page")
        return self.width, self.width / self.aspect

    @property
    def shape(self) -> float:
        """A paged target's aspect: its page's width / height."""
        if self.aspect is None:
            raise ValueError(f"a {self.kind} target has no shape")
        return self.aspect

    def searched(self) -> Target:
        """This target without a design: the full search."""
        return replace(self, design=None) if self.design is not None else self

    @property
    def on_screen(self) -> bool:
        """Whether this is a view in the app (:func:`view_target`): painted in the shipped
        faces, so laid out without room for a wider one."""
        return self.kind == "view"

    @property
    def gridded(self) -> bool:
        """Whether this is a slide, laid out on the title-safe grid (``figures.slide_grid``)."""
        return self.kind == "slide"

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
SINGLE = Target("single", 85.0, kind="column")
DOUBLE = Target("double", 178.0, kind="column")
SLIDE = Target("slide", 254.0, 16.0 / 9.0, kind="slide")  # 10 × 5.625 in
TARGETS: dict[str, Target] = {t.name: t for t in (NATURAL, SINGLE, DOUBLE, SLIDE)}


def view_target(width_mm: float, aspect: float) -> Target:
    """The target of a view in the app: its width in mm at the chosen zoom, and its shape."""
    return Target("view", max(40.0, float(width_mm)), max(0.2, min(6.0, float(aspect))),
                  kind="view")

