"""Budgets (class 7 of the third hardening round) that a figure's export meets whatever its text:
a face is cut to each figure's characters (``--embed-fonts``, the web lecture's faces), a new
subset for every new character set, so each costs a small part of the 2 s a figure may take
(read eagerly, Inter's kerning alone took 0.23 s a subset, and a lecture needs one for each face
of every figure)."""

from __future__ import annotations

from gpuviz.export.svg_fonts import subset_bytes

TEXTS = ("Bank conflicts: 32 lanes × 4 B = 128 B (2-way)", "Step 3 · tile 128 × 128, k 64",
         "sectors per request: 4 of 32 (12.5 %)", "warp 7 → lane 31 ⌈n / 32⌉")


def test_a_new_character_set_of_the_largest_face_is_cut_from_a_lazily_read_face(monkeypatch):
    # the cost is in benchmarks/bench_limits.py (0.23 -> 0.06 CPU s a subset); here, that the
    # face is read lazily, so a subset reads only the layout it keeps, and the bytes are a face
    import fontTools.ttLib

    opened = []
    real = fontTools.ttLib.TTFont

    class Recording(real):  # type: ignore[misc, valid-type]
        def __init__(self, *a, **k):
            opened.append(k.get("lazy"))
            super().__init__(*a, **k)

    monkeypatch.setattr(fontTools.ttLib, "TTFont", Recording)
    for text in TEXTS:
        data = subset_bytes("Inter-Regular.otf", frozenset(map(ord, text)) | {0x2060})
        assert data[:4] == b"OTTO"
    assert opened and all(lazy is True for lazy in opened), opened


def test_a_paper_face_is_parsed_once_for_the_same_bytes(tmp_path, monkeypatch):
    """An export sets the paper's typeface for each figure it writes; reading every table of
    Inter again took 1.1 s a figure. A file whose bytes change is parsed again."""
    import fontTools.ttLib
    from hostile_fonts import font_bytes, write_font

    from gpuviz.figures.metrics import read_typeface

    opened = []
    real = fontTools.ttLib.TTFont
    monkeypatch.setattr(fontTools.ttLib, "TTFont",
                        lambda *a, **k: opened.append(1) or real(*a, **k))
    font = write_font(tmp_path, "paper.ttf", font_bytes("PaperOne"))
    assert [read_typeface(str(font))[1] for _ in range(3)] == ["PaperOne"] * 3
    assert len(opened) == 1
    font.write_bytes(font_bytes("PaperTwo", chars="ABC "))
    assert read_typeface(str(font))[1] == "PaperTwo" and len(opened) == 2
