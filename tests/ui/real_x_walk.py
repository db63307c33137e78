"""A walk through the lecture hall in the running application, under a real X server with a
window manager, driven by real X input (xdotool: key presses and mouse clicks as a presenter's
remote and hand send them). ``python tests/ui/real_x_walk.py OUT.json`` starts the application
once, goes through each class of failure a live lecture must not have, and writes what it saw
as JSON for ``test_real_x_server.py`` to judge:

- step keys (PageDown, PageUp, Ctrl+→) past both ends of the steps, the focus in a spin box;
- Ctrl+Z with the focus in a control, after an edit typed into it;
- a click on the figure, which selects only;
- F5 and Esc, which keep the playback position, the dark theme and the docks' layout; F11;
- a question step, which veils the figure and every answer in the controls until PageDown.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def main(out: Path) -> int:
    seen: dict[str, object] = {}
    try:
        return walk(seen)
    except Exception:  # what was seen so far, and where the walk broke off
        import traceback

        seen["error"] = traceback.format_exc()[-1500:]
        return 1
    finally:
        out.write_text(json.dumps(seen, indent=1))


def walk(seen: dict[str, object]) -> int:
    from PySide6.QtCore import QPoint
    from PySide6.QtGui import QColor
    from PySide6.QtWidgets import QApplication

    from gpuviz.ui.app import start

    w = start(str(ROOT / "scenarios" / "pipeline-double-buffer.json"))
    app = QApplication.instance()

    def pump(until=lambda: False, timeout: float = 3.0) -> bool:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            app.processEvents()
            if until():
                return True
            time.sleep(0.005)
        return bool(until())

    def xdo(*args: str) -> None:
        subprocess.run(["xdotool", *args], check=True, timeout=20)

    def key(*keys: str, until=lambda: False, timeout: float = 0.15) -> None:
        """Press ``keys`` in turn, then let the application take them (until ``until``)."""
        xdo("key", "--clearmodifiers", "--delay", "12", *keys)
        pump(until, timeout)
        pump(timeout=0.05)  # a key still queued behind the one that met ``until``

    def click(widget, pos: QPoint) -> None:
        at = widget.mapToGlobal(pos)
        xdo("mousemove", "--sync", str(at.x()), str(at.y()))
        xdo("click", "1")

    t0 = time.monotonic()
    if not pump(lambda: w.is_complete() and w.isVisible(), 30):
        seen["error"] = "the window was not complete within 30 s"
        return 1
    xdo("windowactivate", "--sync", str(int(w.winId())))
    pump(lambda: QApplication.activeWindow() is w, 3)
    doc, dock = w.document, w.docks["pipeline"]
    last = len(doc.scenario.steps) - 1

    # --- step keys past the ends with the focus in a spin box -------------------------------
    tiles = dock.form.editor("tiles")
    click(tiles, tiles.rect().center())
    pump(lambda: tiles.hasFocus() or tiles.isAncestorOf(QApplication.focusWidget()), 2)
    tiles_before = doc.shown.section("pipeline").tiles
    key(*["Next"] * (last + 3), "ctrl+Right", timeout=0.25)
    seen["page_keys"] = {
        "focus_in_spin_box": tiles.hasFocus() or tiles.isAncestorOf(QApplication.focusWidget()),
        "step_past_the_end": doc.step, "last": last,
        "tiles_at_the_end": doc.shown.section("pipeline").tiles,
        "tiles_of_the_step": doc.scenario.at_step(last).section("pipeline").tiles,
        "modified_at_the_end": doc.is_modified()}
    key(*["Prior"] * (last + 3), timeout=0.25)
    seen["page_keys"] |= {"step_before_the_start": doc.step,
                          "tiles_at_the_start": doc.shown.section("pipeline").tiles,
                          "tiles_before": tiles_before, "modified_at_the_start": doc.is_modified()}

    # --- Ctrl+Z with the focus in a control ----------------------------------------------------
    key("ctrl+a", "8", "Return", until=lambda: doc.is_modified())
    typed = doc.shown.section("pipeline").tiles
    key("ctrl+z", until=lambda: not doc.is_modified())
    seen["undo"] = {"typed": typed, "after_ctrl_z": doc.shown.section("pipeline").tiles,
                    "before": tiles_before, "modified": doc.is_modified(),
                    "focus_in_spin_box": tiles.hasFocus()
                    or tiles.isAncestorOf(QApplication.focusWidget())}

    # --- a click that points at something selects only ------------------------------------------
    doc.go_to_step(0)
    view = dock.view
    pump(lambda: view.figure() is not None and view.scale() > 0 and dock.settled(), 5)
    target = _keyed_point(view)
    shown, step = doc.shown, doc.step
    if target is None:
        seen["click"] = {"error": "no keyed shape in the pipeline figure"}
    else:
        wanted = view.key_at(target)
        click(view, target.toPoint())
        pump(lambda: wanted in doc.selection, 2)
        seen["click"] = {"key": wanted, "selected": wanted in doc.selection,
                         "same_state": doc.shown == shown, "step": doc.step, "step_before": step,
                         "modified": doc.is_modified()}

    # --- F5 keeps the frame, the dark theme and the layout; Esc gives them back; F11 -------
    w.set_theme("dark")
    w.clock.seek(5)
    pump(timeout=0.3)
    layout = _layout(w)
    xdo("key", "--clearmodifiers", "F5")
    pump(lambda: w.presentation.active, 2)
    covered = []  # what the screen showed over the window while the room waited
    end = time.monotonic() + 6
    while w.presentation.waiting and time.monotonic() < end:
        pump(timeout=0.05)
        if w.presentation.waiting and len(covered) < 40:
            covered.append(_colours(w))
    pump(lambda: w.isFullScreen() and not w.presentation.waiting, 5)
    presented = dock if dock.isVisible() else next(d for d in w.docks.values() if d.isVisible())
    pump(lambda: presented.settled(), 5)
    figure = presented.view.figure()
    seen["f5"] = {"active": w.presentation.active, "full_screen": w.isFullScreen(),
                  "frame": w.clock.frame, "dark": "dark" in w.theme.name,
                  "figure_dark": figure is not None and _dark(figure.background),
                  "waited": not w.presentation.waiting, "covered": covered,
                  "room_background": QColor(w.theme.background).name()}
    key("Escape", until=lambda: not w.presentation.active and not w.isFullScreen(), timeout=5)
    pump(lambda: _layout(w) == layout, 3)
    seen["esc"] = {"active": w.presentation.active, "frame": w.clock.frame,
                   "theme": w.theme.name, "same_layout": _layout(w) == layout}
    windowed = w.size().toTuple()
    screen = w.screen().geometry().size().toTuple()
    key("F11", until=lambda: w.isFullScreen() and w.size().toTuple() == screen, timeout=5)
    full = w.size().toTuple()
    key("F11", until=lambda: not w.isFullScreen() and w.size().toTuple() == windowed, timeout=5)
    seen["f11"] = {"full": full, "screen": screen, "windowed": windowed,
                   "back": w.size().toTuple()}

    # --- a question veils the figure and the controls' answer until PageDown ------------------
    w.set_theme("screen")
    doc.undo_stack.setClean()  # opening another file asks nothing (an edit above was kept)
    w.open_path(ROOT / "scenarios" / "occupancy-register-cliff.json")
    doc = w.document
    occupancy = w.docks["occupancy"]
    ask = next(k for k, s in enumerate(doc.scenario.steps) if s.predict)
    pump(lambda: bool(occupancy.measured.text()), 5)
    key(*["Next"] * (ask + 1), until=lambda: doc.step == ask, timeout=1)
    pump(lambda: occupancy.settled(), 3)
    title = subprocess.run(["xdotool", "getwindowname", str(int(w.winId()))],
                           capture_output=True, text=True, timeout=20).stdout.strip()
    seen["veiled"] = {"step": doc.step, "ask": ask, "veiled": doc.veiled,
                      "measured_shown": occupancy.measured.isVisible(),
                      "summary_shown": occupancy.summary.isVisible(),
                      "figure_veiled": bool(occupancy.view.veil()),
                      "step_title_in_window_title": doc.scenario.steps[ask].title in title,
                      "step_title_in_step_bar": doc.scenario.steps[ask].title
                      in w.step_bar_widget.text(),
                      "figure_pixels": _figure_pixels(occupancy.view)}
    key("Next", until=lambda: not doc.veiled, timeout=2)
    pump(lambda: occupancy.settled() and occupancy.measured.isVisible(), 3)
    pump(timeout=0.3)
    seen["revealed"] = {"step": doc.step, "veiled": doc.veiled,
                        "measured_shown": occupancy.measured.isVisible(),
                        "figure_pixels": _figure_pixels(occupancy.view)}
    seen["walk_s"] = round(time.monotonic() - t0, 2)
    doc.undo_stack.setClean()
    w.close()
    return 0


def _keyed_point(view):
    """The centre, in view pixels, of the first keyed rectangle in the view's figure."""
    from PySide6.QtCore import QPointF

    from gpuviz.figures.display import Rect, Rects, walk

    for item in walk(view.figure().items):
        boxes = []
        if isinstance(item, Rects) and item.keys:
            boxes = [(k, tuple(r)) for k, r in zip(item.keys, item.xywh, strict=True) if k]
        elif isinstance(item, Rect) and item.key:
            boxes = [(item.key, (item.x, item.y, item.w, item.h))]
        for _key, (x, y, w, h) in boxes:
            page = view.page_rect()
            point = QPointF(page.x() + (x + w / 2) * view.scale(),
                            page.y() + (y + h / 2) * view.scale())
            if w * view.scale() >= 6 and h * view.scale() >= 6 and view.key_at(point):
                return point
    return None


def _layout(w) -> dict[str, tuple]:
    return {pid: (d.mapTo(w, d.rect().topLeft()).toTuple(), d.size().toTuple())
            for pid, d in w.docks.items() if d.isVisible()}


def _dark(color: str) -> bool:
    from PySide6.QtGui import QColor

    return QColor(color).lightnessF() < 0.5


def _colours(w) -> list[str]:
    """The colours on a sparse grid of the screen where the window is: one colour while the
    room waits (the curtain), never the windowed picture."""
    at = w.mapToGlobal(w.rect().topLeft())
    image = w.screen().grabWindow(0, at.x(), at.y(), w.width(), w.height()).toImage()
    return sorted({image.pixelColor(x, y).name() for x in range(2, image.width() - 2, 41)
                   for y in range(2, image.height() - 2, 29)})


def _figure_pixels(view) -> int:
    """Pixels of the screen theme's blue (#0072B2, the occupancy figure's bars) where the view
    is on the screen: the figure as the room sees it."""
    import numpy as np
    from PySide6.QtGui import QImage

    at = view.mapToGlobal(view.rect().topLeft())
    image = view.screen().grabWindow(0, at.x(), at.y(), view.width(), view.height()).toImage()
    image = image.convertToFormat(QImage.Format.Format_RGB888)
    w, h = image.width(), image.height()
    raw = np.frombuffer(bytes(image.constBits()), dtype=np.uint8).reshape(h, image.bytesPerLine())
    px = raw[:, : w * 3].reshape(h, w, 3).astype(int)
    return int((np.abs(px - np.array([0x00, 0x72, 0xB2])).sum(axis=2) < 30).sum())


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1])))
