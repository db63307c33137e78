"""Help ▸ Keys, Getting Started and About gpuviz (its version); About This Panel comes from
``lecture_menus``. The key list is read from the window's actions, so it names the shortcuts
actually bound."""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING

from PySide6.QtWidgets import QDialog, QDialogButtonBox, QTextBrowser, QVBoxLayout, QWidget

from gpuviz.ui.window_api import as_qt

if TYPE_CHECKING:
    from gpuviz.ui.window_api import WindowApi

# (what, action id) in the order a lecturer needs them
KEY_ROWS = (("Next step (reveals a question first)", "next-step"),
            ("Previous step", "previous-step"),
            ("Overview", "overview"),
            ("Presentation mode on / off", "present"),
            ("Leave presentation mode", "leave-presentation"),
            ("Next panel", "next-panel"),
            ("Play / pause the animation", "play"),
            ("One frame forward / back", "frame-next"),
            ("", "frame-back"),
            ("Undo / redo (anywhere in the window)", "undo"),
            ("", "redo"),
            ("Full screen", "full-screen"),
            ("Fold or unfold the controls", "controls"))

GETTING_STARTED = """
<h2>Getting started</h2>
<p>A <b>scenario</b> is a lecture: the panels it shows, their parameters, and an optional list of
<b>steps</b>. Each step changes some parameters and shows a caption under the figure.</p>
<ol>
<li><b>Open</b> a bundled scenario (File ▸ Open Bundled Scenario, or File ▸ Gallery) or start
from nothing (File ▸ New Lecture).</li>
<li><b>Step</b> through it with PageDown / PageUp (a presenter remote sends these) or
Ctrl+→ / Ctrl+←; the step bar shows “step k of n”. The keys belong to the lecture whatever
control has the focus, except while you are typing in a text field.</li>
<li><b>Present</b> with F5: full screen, one panel, large type, the caption as a subtitle; Esc
leaves. A step that asks the room to predict is veiled until the next PageDown reveals it.</li>
<li><b>Point</b> at the figure to select what you point at (the status names it); Ctrl+click
or a double click applies what it points at to the parameters (for example, launch: that block
becomes the selected block).</li>
<li><b>Author</b> steps: set the parameters, then Steps ▸ Add Step from Current State…; tick
the figure parts the step is about (its Parts list) to give the slide one idea, shown large in
F5. File ▸ Save As writes your own copy (a bundled scenario is never overwritten). A caption marked
“edited since …” may no longer describe the figure: an edit changed what it was written for.</li>
<li><b>Export</b> a figure (File ▸ Export Figure…, Ctrl+E): the preview is the file it writes;
a question step is written veiled (the question alone, as the room sees it before the reveal)
or revealed.</li>
</ol>
<p>Step numbers start at 1 everywhere: the step bar, the file names of <tt>gpuviz export
--all-steps</tt> (<tt>step01</tt> is step 1) and <tt>gpuviz export --step K</tt>.</p>
"""


def keys_html(w: WindowApi) -> str:
    from PySide6.QtGui import QKeySequence

    rows = []
    for what, aid in KEY_ROWS:
        action = w.menus.actions.get(aid)
        if action is None:
            continue
        keys = ", ".join(s.toString(QKeySequence.SequenceFormat.NativeText)
                         for s in action.shortcuts())
        rows.append(f"<tr><td>{escape(what)}</td><td><b>{escape(keys)}</b></td></tr>")
    return ("<h2>Keys</h2><table cellpadding='4'>" + "".join(rows) + "</table>"
            "<p>Shift+drag or the middle button pans a figure, Ctrl+wheel zooms, a double click on "
            "an empty place resets the view.</p>")


def about_html() -> str:
    from gpuviz import __version__

    return (f"<h2>gpuviz {escape(__version__)}</h2><p>GPU execution and memory behaviour, "
            "visible and exact: figures computed from models whose rules cite the CUDA C++ "
            "Programming Guide, the PTX ISA and NVIDIA's tuning guides (Help ▸ About This "
            "Panel names each panel's sources).</p>")


class HelpPage(QDialog):
    def __init__(self, title: str, html: str, parent: QWidget | None = None):
        super().__init__(parent)
        self.setWindowTitle(title)
        self.setObjectName("help-page")
        self.text = QTextBrowser()
        self.text.setHtml(html)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        lay = QVBoxLayout(self)
        lay.addWidget(self.text, 1)
        lay.addWidget(buttons)
        self.resize(560, 480)


def show_page(w: WindowApi, title: str, html: str) -> HelpPage:
    page = HelpPage(title, html, as_qt(w))
    w.help_page = page  # kept while shown
    page.show()
    return page


def build_actions(w: WindowApi) -> None:
    m = w.menus
    m.new("help-keys", "&Keys", lambda: show_page(w, "Keys", keys_html(w)))
    m.new("help-start", "&Getting Started", lambda: show_page(w, "Getting Started",
                                                               GETTING_STARTED))
    m.new("help-about", "&About gpuviz", lambda: show_page(w, "About gpuviz", about_html()))


def build_menu(w: WindowApi) -> None:
    w.menus.add("help", "help-start", "help-keys", "-", "help-about")
