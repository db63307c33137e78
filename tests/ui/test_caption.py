"""The caption strip shows a caption whole where it can: its own type if the caption fits,
smaller type (at most a quarter smaller) if that fits it into the same height, and only then an
elided last line."""

from __future__ import annotations

from PySide6.QtGui import QFont

from gpuviz.ui.step_bar import CAPTION_SHRINK, CaptionStrip

WORDS = ("The grouped order walks bands of four tile rows column by column, so that the tiles in "
         "flight share A rows and B columns; with room for twelve tiles it loads sixty tiles "
         "against row-major's two hundred and four.")


def strip(qtbot, text: str, lead: str = "") -> CaptionStrip:
    s = CaptionStrip(2)
    qtbot.addWidget(s)
    font = QFont(s.font())
    font.setPixelSize(24)
    s.setFont(font)  # the height follows the font: two lines of 24 px type
    s.set_caption(text, lead)
    return s


def shown(lines) -> str:
    return " ".join(t for t, _ in lines)


def test_a_caption_that_fits_keeps_the_strips_type(qtbot):
    s = strip(qtbot, "Only lanes 0 and 1 are valid.", "Predict:")
    font, lead_w, lines = s.fit(900)
    assert font.pixelSize() == 24 and lead_w > 0
    assert shown(lines) == "Only lanes 0 and 1 are valid."


def test_a_longer_caption_shrinks_its_type_and_is_shown_whole(qtbot):
    s = strip(qtbot, WORDS)
    _, _, at_size = s._wrap(s.font(), 1100, 0.0, 2)
    assert at_size  # two lines of 24 px type do not hold it
    font, _, lines = s.fit(1100)
    assert 24 * CAPTION_SHRINK[-1] - 1 <= font.pixelSize() < 24
    assert shown(lines).split() == WORDS.split() and "…" not in shown(lines)


def test_a_caption_too_long_for_the_smallest_type_ends_elided(qtbot):
    s = strip(qtbot, " ".join([WORDS] * 4))
    font, _, lines = s.fit(900)
    assert font.pixelSize() == round(24 * CAPTION_SHRINK[-1])
    assert lines[-1][0].endswith("…")
    assert s.toolTip() == s.text()  # the whole caption stays one hover away
