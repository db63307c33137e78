"""The ground a text is read against: the last opaque cell drawn before it that holds its
centre, found for all texts at once (numpy) exactly as one text at a time."""

from __future__ import annotations

import random

from gpuviz.figures import legible


def test_the_grounds_of_all_texts_at_once_are_those_of_one_at_a_time():
    rng = random.Random(7)
    for n in (0, 1, 5, 300, 5000):
        cells = []
        for _ in range(n):
            x, y = rng.choice([0.0, 1.0, 2.5]) * rng.randint(0, 8), rng.randint(0, 40) / 4
            cells.append((x, y, x + rng.choice([0.0, 0.5, 3.0]), y + rng.choice([0.0, 0.25, 2.0])))
        centres = [(rng.randint(0, n), rng.randint(0, 40) / 4, rng.randint(0, 48) / 4)
                   for _ in range(700)]
        at_once = legible._under_numpy(cells, centres)
        assert at_once == [legible._last_under(cells, *c) for c in centres], n
        assert any(j >= 0 for j in at_once) or n < 300


def test_a_texts_centre_is_its_boxs_centre_exactly():
    from gpuviz.figures.display import Text, text_box

    rng = random.Random(3)
    for _ in range(2000):
        t = Text(rng.uniform(-50, 300), rng.uniform(-50, 300), rng.choice(["a", "1,024", "Wg ×"]),
                 rng.choice([5.0, 6.5, 7.25, 9.0]), "#000000", font=rng.choice(["sans", "mono"]),
                 bold=rng.random() < 0.5, anchor=rng.choice(["start", "middle", "end"]),
                 baseline=rng.choice(["alphabetic", "middle", "hanging"]),
                 rotate=rng.choice([0.0, 0.0, 90.0, -30.0]))
        x0, y0, x1, y1 = text_box(t)
        assert legible._centre(t) == ((x0 + x1) / 2, (y0 + y1) / 2), t
