"""The one word-wrapper: where a line may break."""

from gpuviz.figures.text_blocks import wrap


def test_a_line_never_starts_with_a_unit_or_a_closing_mark_nor_breaks_at_an_equals_sign():
    title = ("An SM's four schedulers, greedy-then-oldest: 64 warps per SM, 52.2 % of issue "
             "slots used in steady state (H200: 47.1 %), with P = 765 cycles and I = 25")
    for width in range(40, 200, 3):  # mm, at 14 pt: every break this text can take
        lines = wrap(title, 14.0, float(width))
        assert " ".join(lines) == title
        for line in lines[1:]:
            assert not line.startswith(("%", ")", "=", ",")), (width, lines)
        for line in lines[:-1]:
            assert not line.endswith("="), (width, lines)  # "(H200: 47.1" / "%)" before
