"""The lecture as one web page, in a real headless browser: loaded from disk, stepped with the
keys a reader (or a presenter remote) sends, a question revealed, in light, dark and on a phone;
self-contained and free of console errors."""

from __future__ import annotations

import json
import re
import shutil

import pytest

from gpuviz.cli import main

pytestmark = pytest.mark.skipif(shutil.which("chromium") is None,
                                reason="Debian's chromium is not installed (tools/system-deps.sh)")

SCENARIO = "occupancy-register-cliff.json"  # four steps; step 2 is a question


@pytest.fixture(scope="module")
def page(tmp_path_factory, request):
    from gpuviz.scenario.bundled import scenario_dir

    raw = json.loads((scenario_dir() / SCENARIO).read_text(encoding="utf-8"))
    raw["steps"][0]["notes"] = "SECRET-NOTE: say the 2,048 out loud"
    src = tmp_path_factory.mktemp("src") / SCENARIO
    src.write_text(json.dumps(raw), encoding="utf-8")
    out = tmp_path_factory.mktemp("out")
    assert main(["export", str(src), "--format", "html", "--out", str(out)]) == 0
    return out / SCENARIO.replace(".json", ".html")


def test_the_page_is_one_self_contained_file_without_the_notes(page):
    text = page.read_text(encoding="utf-8")
    assert not re.search(r"""(src|href)=["'](https?:)?//""", text)
    assert not re.search(r"url\((?!data:|#)", text), "every url() is inline data or a fragment"
    assert "<link" not in text and "<img" not in text and "@import" not in text
    assert "SECRET-NOTE" not in text
    assert re.search(r'<meta name="gpuviz-version" content="[^"]+">', text)
    assert re.search(r'<meta name="gpuviz-scenario-sha256" content="[0-9a-f]{64}">', text)
    ids = re.findall(r'\bid="([^"]+)"', text)
    assert len(ids) == len(set(ids)), "figures inlined in one page keep their ids apart"


def _state(b):
    return b.eval("""(function () {
      var p = document.querySelector('.page.current');
      var svg = p.querySelector('.fig .v svg');
      var shown = Array.prototype.filter.call(p.querySelectorAll('.fig .v'),
        function (v) { return getComputedStyle(v).display !== 'none'; });
      return {hash: location.hash, page: p.id,
              visible: svg ? getComputedStyle(svg.parentNode.parentNode).visibility : 'absent',
              answer: p.querySelector('.answer') ?
                getComputedStyle(p.querySelector('.answer')).display : null,
              variant: shown.length === 1 ? shown[0].className : shown.length,
              where: document.querySelector('.bar .where').textContent,
              overflow: document.documentElement.scrollWidth > window.innerWidth};
    })()""")


def test_stepping_with_keys_and_revealing_a_question(page, tmp_path):
    from browser import Browser

    with Browser(1280, 720) as b:
        b.open(page)
        s = _state(b)
        assert (s["page"], s["where"], s["variant"]) == ("p0", "Overview", "v light wide")
        b.press("PageDown")
        assert _state(b)["where"] == "Step 1 of 4"
        b.press("ArrowRight")
        s = _state(b)
        assert (s["page"], s["visible"], s["answer"]) == ("p2", "absent", "none"), \
            "a question's figures and caption are veiled"
        veiled = b.screenshot(tmp_path / "veiled.png")
        b.press("PageDown")  # the first press reveals, and stays
        s = _state(b)
        assert (s["page"], s["visible"], s["answer"]) == ("p2", "visible", "block")
        assert b.screenshot(tmp_path / "revealed.png") != veiled
        b.press("PageDown")
        assert _state(b)["page"] == "p3"
        b.press("PageUp")
        assert _state(b)["visible"] == "visible", "once revealed, a question stays revealed"
        b.press("End")
        assert _state(b)["where"] == "Step 4 of 4"
        b.press("PageDown")  # past the end: stays
        assert _state(b)["page"] == "p4"
        b.click("nav a[data-page='1']")
        assert _state(b)["hash"] == "#p1"
        assert not _state(b)["overflow"]
        b.call("Page.navigate", session=True, url=page.resolve().as_uri() + "#p3")
        b.wait_for("document.querySelector('.page.current') !== null")
        assert _state(b)["where"] == "Step 3 of 4", "a reload returns to the step in the address"
        assert b.console_errors() == []


def test_dark_and_phone_take_their_own_layouts(page):
    from browser import Browser

    with Browser(1280, 720, dark=True) as b:
        b.open(page)
        assert _state(b)["variant"] == "v dark wide"
        assert b.console_errors() == []
    with Browser(390, 844, mobile=True) as b:
        b.open(page)
        b.press("PageDown")
        s = _state(b)
        assert (s["variant"], s["overflow"]) == ("v light narrow", False)
        assert b.console_errors() == []

