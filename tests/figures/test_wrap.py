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


def test_a_receipt_too_narrow_to_align_keeps_its_values_in_a_column():
    """Where label and value do not fit one line, the value wraps in its column (or goes
    under its label, indented), never ``label: value`` lines run together as prose."""
    from gpuviz.figures.display import Text, walk
    from gpuviz.figures.lint_chrome import paragraphs, prose
    from gpuviz.figures.text_blocks import receipt_block
    from gpuviz.figures.theme import THEMES

    rows = [("warps", "0–3 of 8"), ("warpgroup", "valid"),
            ("accumulators", "32 f32 registers per thread"),
            ("A from", "registers (4 per thread)")]
    for width in (40.0, 24.0):
        block = receipt_block(rows, THEMES["print"], width)
        texts = [t for t in walk(block.items) if isinstance(t, Text)]
        # each label its own text, its value beside or under it: never one "label: value"
        assert not any(t.text.startswith(("warps:", "accumulators:"))
                       and t.text not in ("warps:", "accumulators:") for t in texts)
        from gpuviz.figures.display import Figure

        fig = Figure(width, block.height, "#FFFFFF", block.items)
        assert not [p for p in paragraphs(fig) if prose(p)]
