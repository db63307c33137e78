"""The window's colours follow the figures' theme: a dark theme darkens the whole application
(menus, controls, the step bar and the caption), not only the figures."""

from __future__ import annotations

from typing import cast

from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication

from gpuviz.figures.theme import Theme


def is_dark(theme: Theme) -> bool:
    return QColor(theme.background).lightnessF() < 0.5


def palette_for(theme: Theme) -> QPalette:
    """The application palette for ``theme``: the style's own for a light theme, else one made
    from the theme's structural colours."""
    app = cast(QApplication, QApplication.instance())  # the window's (a QApplication)
    if not is_dark(theme):
        return app.style().standardPalette()
    R, G = QPalette.ColorRole, QPalette.ColorGroup
    window, base = QColor(theme.surface), QColor(theme.background)
    text, muted = QColor(theme.foreground), QColor(theme.muted)
    accent = QColor(theme.accent)
    pal = QPalette()
    for role, color in ((R.Window, window), (R.WindowText, text), (R.Base, base),
                        (R.AlternateBase, window), (R.ToolTipBase, window), (R.ToolTipText, text),
                        (R.PlaceholderText, muted), (R.Text, text), (R.Button, window),
                        (R.ButtonText, text), (R.BrightText, QColor("#FFFFFF")),
                        (R.Light, window.lighter(150)), (R.Midlight, window.lighter(125)),
                        (R.Mid, window.darker(120)), (R.Dark, window.darker(150)),
                        (R.Shadow, QColor("#000000")), (R.Highlight, accent),
                        (R.HighlightedText, QColor(theme.ink_on(theme.accent))),
                        (R.Link, accent.lighter(130)), (R.LinkVisited, accent)):
        pal.setColor(role, color)
    for role in (R.WindowText, R.Text, R.ButtonText):
        pal.setColor(G.Disabled, role, muted)
    return pal


# the style's own icons (a dock's float and close buttons, the media icons of the playback bar)
# are dark: in a dark theme they sit on a light plate, else they are dark on dark
DARK_ICON_PLATES = """
QDockWidget::close-button, QDockWidget::float-button {
    background: #C9D1D9; border-radius: 3px; }
QToolButton[styleIcon="true"] { background: #C9D1D9; border-radius: 3px; padding: 1px; }
"""

_darkened = False  # whether a dark theme's palette is set (else the style's own is in use)


def apply_palette(theme: Theme) -> None:
    """Set the application-wide palette for ``theme`` (every window, menu and control). A light
    theme over the style's own palette changes nothing, and is not set again: asking Qt for the
    style's palette costs start-up ~25 ms (the QStyle type and its enums)."""
    global _darkened
    app = cast("QApplication | None", QApplication.instance())
    if app is None or (not is_dark(theme) and not _darkened):
        return
    app.setPalette(palette_for(theme))
    _darkened = is_dark(theme)
    app.setStyleSheet(DARK_ICON_PLATES if _darkened else "")
