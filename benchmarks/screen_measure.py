"""What the app shows on an offscreen screen, measured inside the child program that
``offscreen_screen.run_on_screen`` starts (bench_hall.py, bench_screen.py): waiting until the
shown docks have their final layouts, and the share of the screen and the type size the
figures on it get.

- pages: the area of the figures' pages (each page's painted rectangle, clipped to its view and
  to the screen) over the screen's area;
- views: the area of the figure views themselves over the screen's area;
- type: the median size, in screen pixels, of the text items of the figures on screen (a text
  item's size in points × mm per point × the view's pixels per mm);
- title: the least, over the figures on screen, of their first text's size in pixels (a view's
  title, set at the theme's title size × the layout's scale): it moves only when the scale
  does, where the median also moves when a state's mix of text sizes does.
"""

from __future__ import annotations

import statistics
import time

from PySide6.QtCore import QRectF
from PySide6.QtWidgets import QApplication

from gpuviz.figures.display import PT_TO_MM, Text, walk
from gpuviz.ui.figure_view import FigureView


def settle(seconds: float) -> None:
    """Run the event loop for ``seconds``."""
    app = QApplication.instance()
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        app.processEvents()
        time.sleep(0.01)


def laid_out(window, seconds: float = 0.8, cap: float = 15.0) -> None:
    """At least ``seconds``, then until every shown dock has its final layout and the window
    paints (at most ``cap`` seconds): what a room sees once the app has settled, not a picture
    on its way."""
    settle(seconds)
    end = time.perf_counter() + cap
    while time.perf_counter() < end and not (not window.presentation.waiting and all(
            d.settled() for d in window.docks.values() if d.isVisible())):
        settle(0.05)  # updates off: presentation mode waits for its final layout


def measure(window) -> dict:
    """pages, views (shares of the screen), type (median px), the views' count and targets."""
    screen = window.screen().geometry()
    area, views, sizes, titles = 0.0, 0.0, [], []
    shown = [v for v in window.findChildren(FigureView)
             if v.figure() is not None and v.isVisible() and not v.visibleRegion().isEmpty()]
    for view in shown:
        fig = view.figure()
        scale, origin = view.scale(), view.page_rect().topLeft()
        rect = QRectF(view.mapToGlobal(view.rect().topLeft()), view.rect().size().toSizeF())
        rect = rect.intersected(QRectF(screen))
        views += rect.width() * rect.height()
        page = QRectF(origin.x(), origin.y(), fig.width * scale, fig.height * scale)
        page = page.intersected(QRectF(view.rect()))
        top_left = view.mapToGlobal(page.topLeft().toPoint())
        page = QRectF(top_left.x(), top_left.y(), page.width(), page.height())
        page = page.intersected(QRectF(screen))
        area += page.width() * page.height()
        texts = [t.size * PT_TO_MM * scale for t in walk(fig.items) if isinstance(t, Text)]
        sizes += texts
        titles += texts[:1]
    screen_area = screen.width() * screen.height()
    return {"pages": area / screen_area, "views_share": views / screen_area,
            "type": statistics.median(sizes) if sizes else 0.0,
            "title": min(titles) if titles else 0.0,
            "targets": sorted(v.objectName().removeprefix("figure-") for v in shown),
            "window": [window.width(), window.height()], "views": len(shown)}
