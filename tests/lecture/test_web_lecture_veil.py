"""A question's answer stays out of the web page until the reader reveals it: the revealed
figure and caption are neither in the page source nor in print while the step is veiled, and
the page's script shows them on reveal."""

from __future__ import annotations

import html
import shutil

import pytest

from gpuviz.cli import main

SCENARIO = "occupancy-register-cliff.json"  # step 2 asks: 65 registers, how many blocks fit?
CAPTION = "rounded up to the 256-register allocation unit"  # step 2's caption only
FIGURE = "2,304 allocated per warp"  # only step 2's occupancy figure sets this number


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    from gpuviz.scenario.bundled import scenario_dir

    out = tmp_path_factory.mktemp("out")
    assert main(["export", str(scenario_dir() / SCENARIO), "--format", "html",
                 "--out", str(out)]) == 0
    return out / SCENARIO.replace(".json", ".html")


def test_the_answer_is_not_in_the_page_source(page):
    text = html.unescape(page.read_text(encoding="utf-8"))
    assert "One register more per thread (65)" in text, "the question itself is in the page"
    assert "At 32 registers four blocks fit" in text, "an unveiled step's caption is in the page"
    assert CAPTION not in text
    assert FIGURE not in text
    assert "2,304" not in text


@pytest.mark.skipif(shutil.which("chromium") is None,
                    reason="Debian's chromium is not installed (tools/system-deps.sh)")
def test_print_shows_the_veil_and_reveal_shows_the_answer(page):
    from browser import Browser

    shown = """(function () {
      var p = document.querySelector('#p2');
      return {text: p.innerText, svgs: p.querySelectorAll('.fig svg').length,
              veil: p.querySelector('.veil') !== null};
    })()"""
    with Browser(1280, 720) as b:
        b.open(page)
        b.click("nav a[data-page='2']")
        b.call("Emulation.setEmulatedMedia", session=True, media="print")
        s = b.eval(shown)
        assert "One register more" in s["text"] and s["veil"] and s["svgs"] == 0
        assert CAPTION not in s["text"] and "2,304" not in s["text"], "print shows the veil"
        b.call("Emulation.setEmulatedMedia", session=True, media="")
        b.click("#p2 .reveal")
        s = b.eval(shown)
        assert CAPTION in s["text"] and not s["veil"] and s["svgs"] == 4
        figure = b.eval("document.querySelector('#p2 .fig .v svg').textContent")
        assert FIGURE in figure
        assert b.eval("getComputedStyle(document.querySelector('#p2 .fig .light.wide'))"
                      ".display") == "block"
        b.call("Emulation.setEmulatedMedia", session=True, media="print")
        assert CAPTION in b.eval(shown)["text"], "a revealed step prints its answer"
        assert b.console_errors() == []


def test_the_revealed_wide_figure_keeps_its_note_where_dropping_it_frees_no_room(page):
    """The revealed step's wide (slide) figure still sets the note that answers the question:
    on a slide notes give way only for type the drawing gains, and this one frees none."""
    import base64
    import re

    text = page.read_text(encoding="utf-8")
    section = text.split('id="p2"', 1)[1].split("</section>", 1)[0]
    data = re.search(r'data-into="figures">([^<]+)<', section)
    assert data, "step 2's figures are a payload"
    figures = base64.b64decode(data.group(1)).decode("utf-8")
    wide = figures.split('<div class="v light wide">', 1)[1].split("</div>", 1)[0]
    assert FIGURE in html.unescape(wide)
