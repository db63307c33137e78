"""The caption strip shows a caption whole where it can: its own type if the caption fits,
smaller type (at most a quarter smaller) if that fits it into the same height, then its first
sentences whole, and only a single sentence too long for that has an elided last line."""

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


def test_a_caption_too_long_for_the_smallest_type_keeps_its_first_sentences_whole(qtbot):
    """A scenario's whole description in presentation type: the first sentences that fit, at
    the largest type that holds one, then "…"; never a sentence cut in the middle."""
    first = "Every lane reads the same word."
    second = "All 32 readers share one slot in bank 0's queue (J. Doe, e.g. Fig. 3)."
    text = " ".join([first, second, WORDS, WORDS])
    s = strip(qtbot, text, "Broadcast")
    font, _, lines = s.fit(900)
    assert font.pixelSize() == 24  # one sentence fits the strip's own type
    assert shown(lines).split() == f"{first} {second} …".split()
    assert s.toolTip() == s.text()  # the whole caption stays one hover away


def test_a_sentence_too_long_for_the_smallest_type_ends_elided(qtbot):
    s = strip(qtbot, " ".join([WORDS.rstrip(".")] * 4) + ".")  # one very long sentence
    font, _, lines = s.fit(900)
    assert font.pixelSize() == round(24 * CAPTION_SHRINK[-1])
    assert lines[-1][0].endswith("…")
    assert s.toolTip() == s.text()


def test_sentences_end_at_their_marks_but_not_after_initials_or_abbreviations():
    from gpuviz.ui.step_bar import split_sentences

    assert split_sentences("Lanes 0–3 run, e.g. lane 2. Then 2.5 ms pass! Is it? “Yes.” "
                           "Rectangles (J. Černý) too. Fig. 3 shows it.") == [
        "Lanes 0–3 run, e.g. lane 2.", "Then 2.5 ms pass!", "Is it?", "“Yes.” Rectangles "
        "(J. Černý) too.", "Fig. 3 shows it."]
