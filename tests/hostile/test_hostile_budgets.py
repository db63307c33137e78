"""Budgets (class 7 of the third hardening round) that a figure's export meets whatever its text:
a face is cut to each figure's characters (``--embed-fonts``, the web lecture's faces), a new
subset for every new character set, so each costs a small part of the 2 s a figure may take
(read eagerly, Inter's kerning alone took 0.23 s a subset, and a lecture needs one for each face
of every figure)."""

from __future__ import annotations

import time

from gpuviz.export.svg_fonts import subset_bytes

TEXTS = ("Bank conflicts: 32 lanes × 4 B = 128 B (2-way)", "Step 3 · tile 128 × 128, k 64",
         "sectors per request: 4 of 32 (12.5 %)", "warp 7 → lane 31 ⌈n / 32⌉")


def test_a_new_character_set_of_the_largest_face_is_cut_quickly():
    started = time.process_time()
    for text in TEXTS:
        data = subset_bytes("Inter-Regular.otf", frozenset(map(ord, text)))
        assert data[:4] == b"OTTO"
    each = (time.process_time() - started) / len(TEXTS)
    assert each < 0.12, f"{each:.2f} CPU s a subset"
