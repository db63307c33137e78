"""The web page scrolls a step into view on navigation (Next, Previous, keys, the address):
its caption shows above the sticky bar at 1280×720 and on a phone (390×844), and at 1280×720
the bar leaves the foot of the figure in view."""

from __future__ import annotations

import shutil

import pytest

from gpuviz.cli import main

pytestmark = pytest.mark.skipif(shutil.which("chromium") is None,
                                reason="Debian's chromium is not installed (tools/system-deps.sh)")

NAMES = ("traversal-grouped", "occupancy-register-cliff")  # tall figures; a question step

_PLACE = """(function () {
  var p = document.querySelector('.page.current');
  function box(el) { if (!el) { return null; } var r = el.getBoundingClientRect();
    return r.height > 0 ? {top: r.top, bottom: r.bottom} : null; }
  return {page: p.id, caption: box(p.querySelector('.answer .caption')),
          question: box(p.querySelector('.question')), title: box(p.querySelector('h2')),
          figures: box(p.querySelector('.figures')),
          bar: document.querySelector('.bar').getBoundingClientRect().top, vh: innerHeight};
})()"""


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    from gpuviz.scenario.bundled import scenario_dir

    out = tmp_path_factory.mktemp("web")
    for name in NAMES:
        assert main(["export", str(scenario_dir() / f"{name}.json"), "--format", "html",
                     "--out", str(out)]) == 0
    return [out / f"{name}.html" for name in NAMES]


def _check(s: dict, wide: bool, where: str) -> None:
    text = s["caption"] or s["question"]  # a veiled question shows the question
    assert text is not None, where
    assert text["top"] >= 0 and text["bottom"] <= s["bar"] + 0.5, (where, s)
    assert s["title"]["top"] >= 0, (where, s)
    if wide:  # the whole step fits: the bar covers no part of the figure
        assert s["figures"]["bottom"] <= s["bar"] + 0.5, (where, s)


@pytest.mark.parametrize("size", [(1280, 720), (390, 844)], ids=["1280x720", "phone"])
def test_navigation_brings_the_steps_caption_into_view(pages, size):
    from browser import Browser

    wide = size[0] > 700
    for path in pages:
        with Browser(*size, mobile=not wide) as b:
            b.open(path)
            n = b.eval("document.querySelectorAll('.page').length")
            for k in range(1, n):
                b.press("PageDown") if k % 2 else b.click(".bar .next")
                s = b.eval(_PLACE)
                _check(s, wide, f"{path.stem} Next to p{k}")
                if s["page"] != f"p{k}":
                    continue
                if s["question"] is not None and s["caption"] is None:
                    b.press("PageDown")  # reveal: the answer's caption comes into view
                    _check(b.eval(_PLACE), wide, f"{path.stem} p{k} revealed")
            b.press("PageUp")
            _check(b.eval(_PLACE), wide, f"{path.stem} Previous")
            b.eval("location.hash = '#p1'")
            b.wait_for("document.querySelector('.page.current').id === 'p1'")
            _check(b.eval(_PLACE), wide, f"{path.stem} #p1")
            assert b.console_errors() == []
