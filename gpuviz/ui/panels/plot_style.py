"""The docks' interactive plots in the figures' style: the same ``Series`` and ``Mark`` data the
figure draws (``gpuviz.figures.plot``), the theme's colours, the figure's dash patterns, axis
labels and units, drawn with pyqtgraph so a user can zoom, pan and hover.

One plot per meaning: a dock never invents a second, differently styled version of a plot that
its figure shows; it draws the figure module's own series here."""

from __future__ import annotations

from collections.abc import Sequence

from gpuviz.figures.plot import DASHES, Mark, Series
from gpuviz.figures.theme import Theme

PX_PER_MM = 96 / 25.4


def style_plot(plot, theme: Theme, x_label: str, y_label: str) -> None:
    """Background, axes, grid and labels of a pyqtgraph PlotWidget in the theme's colours."""
    plot.setBackground(theme.background)
    for name in ("left", "bottom"):
        axis = plot.getAxis(name)
        axis.setPen(theme.foreground)
        axis.setTextPen(theme.foreground)
    plot.setLabel("bottom", x_label, color=theme.foreground)
    plot.setLabel("left", y_label, color=theme.foreground)
    plot.showGrid(x=False, y=True, alpha=0.35)


def pen_for(theme: Theme, index: int, color_index: int):
    """The figure's line for the i-th series: its category colour and dash pattern."""
    import pyqtgraph as pg  # type: ignore[import-untyped]  # no type information shipped
    from PySide6.QtCore import Qt

    width_mm = theme.line_mm * 1.3
    pen = pg.mkPen(theme.category(color_index), width=max(1.5, width_mm * PX_PER_MM))
    dash = DASHES[index % len(DASHES)]
    if dash:
        pen.setStyle(Qt.PenStyle.CustomDashLine)
        pen.setDashPattern([max(0.5, d / width_mm) for d in dash])
    return pen


def draw_series(plot, series: Sequence[Series], marks: Sequence[Mark], theme: Theme,
                x_label: str, y_label: str) -> None:
    """Replace the plot's contents by ``series`` and ``marks`` as the figure draws them."""
    import pyqtgraph as pg

    plot.clear()
    style_plot(plot, theme, x_label, y_label)
    legend = plot.plotItem.legend
    if legend is None and len(series) > 1:
        legend = plot.addLegend(offset=(-10, 10), labelTextColor=theme.foreground)
    if legend is not None:
        legend.clear()
        legend.setLabelTextColor(theme.foreground)
        legend.setBrush(pg.mkBrush(theme.background))
    for i, s in enumerate(series):
        color = theme.category(s.color_index)
        kw = {}
        if s.markers:
            kw = {"symbol": "o", "symbolSize": 5, "symbolBrush": color, "symbolPen": None}
        plot.plot([float(v) for v in s.x], [float(v) for v in s.y], pen=pen_for(theme, i, s.color_index),
                  name=s.label, stepMode=None, **kw)
    for m in marks:
        plot.plot([m.x], [m.y], pen=None, symbol="o", symbolSize=10, symbolBrush=theme.accent,
                  symbolPen=pg.mkPen(theme.background))

