"""The printed handout (one multi-page PDF) and the slide deck (PPTX), read back."""

from __future__ import annotations

import json
import re

import pytest

from gpuviz.cli import main
from gpuviz.export.deck import step_figures
from gpuviz.export.lecture import lecture_pages
from gpuviz.scenario import loads_scenario

SCENARIO = "occupancy-register-cliff.json"  # four steps; step 2 is a question


@pytest.fixture(scope="module")
def source(tmp_path_factory):
    from gpuviz.scenario.bundled import scenario_dir

    raw = json.loads((scenario_dir() / SCENARIO).read_text(encoding="utf-8"))
    raw["steps"][1]["notes"] = "Ask who expected three blocks."
    path = tmp_path_factory.mktemp("src") / SCENARIO
    path.write_text(json.dumps(raw), encoding="utf-8")
    return path


def _pdf_pages(data: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page(?![s\w])", data))


@pytest.mark.parametrize(("per_page", "pages"), [(1, 5), (2, 3)])
def test_the_handout_is_one_pdf_a_title_page_and_the_steps(source, tmp_path, per_page, pages):
    assert main(["export", str(source), "--format", "pdf", "--all-steps", "--theme", "print",
                 "--per-page", str(per_page), "--out", str(tmp_path)]) == 0
    files = list(tmp_path.iterdir())
    assert [f.name for f in files] == ["occupancy-register-cliff-handout.pdf"]
    data = files[0].read_bytes()
    assert _pdf_pages(data) == pages
    assert b"/FontFile2" in data, "the faces are embedded"
    assert b"/Type3" not in data and b"/Subtype /Type3" not in data
    assert b"scenario-sha256=" in data


def test_the_deck_has_a_slide_per_step_and_the_question_twice(source, tmp_path):
    from pptx import Presentation
    from pptx.enum.shapes import MSO_SHAPE_TYPE

    assert main(["export", str(source), "--format", "pptx", "--out", str(tmp_path)]) == 0
    deck = Presentation(str(tmp_path / "occupancy-register-cliff.pptx"))
    scenario = loads_scenario(source.read_text(encoding="utf-8"))
    steps = lecture_pages(scenario)[1:]
    slides = list(deck.slides)
    shown = [len(step_figures(p)) for p in steps]
    assert all(k >= 1 for k in shown)
    assert len(slides) == 1 + sum(shown) + 1, "a title slide, each step's pages, the question"
    assert slides[0].shapes.title.text == scenario.title
    titles = [s.shapes.title.text for s in slides[1:]]
    expected = [p.title for p, k in zip(steps, shown, strict=True)
                for _ in range(k + (1 if p.question else 0))]
    assert titles == expected
    ratio = deck.slide_width / deck.slide_height
    assert abs(ratio - 16 / 9) < 0.01
    question, answer = slides[1 + shown[0]], slides[2 + shown[0]]
    assert not [s for s in question.shapes if s.shape_type == MSO_SHAPE_TYPE.PICTURE], \
        "the question slide shows no answer"
    texts = [s.text_frame.text for s in answer.shapes if s.has_text_frame]
    assert steps[1].caption in texts, "the caption is editable text, with its values filled in"
    assert answer.notes_slide.notes_text_frame.text == "Ask who expected three blocks."
    for slide in slides[1:]:
        for pic in (s for s in slide.shapes if s.shape_type == MSO_SHAPE_TYPE.PICTURE):
            assert pic.left >= 0 and pic.top >= 0
            assert pic.left + pic.width <= deck.slide_width
            assert pic.top + pic.height <= deck.slide_height
            assert pic.width > deck.slide_width * 0.4, "the figure is large on the slide"
            px_w, _ = pic.image.size
            assert px_w >= 1600, "a high-resolution picture"


@pytest.mark.parametrize("fmt", ["html", "pptx", "pdf"])
def test_a_lecture_over_its_budget_is_refused_and_nothing_is_written(source, tmp_path, fmt,
                                                                     capsys, monkeypatch):
    from gpuviz.export import lecture

    monkeypatch.setattr(lecture, "MAX_LECTURE_FIGURES", 3)
    assert main(["export", str(source), "--format", fmt, "--all-steps", "--out",
                 str(tmp_path)]) == 2
    assert "at most 3 are built" in capsys.readouterr().err
    monkeypatch.setattr(lecture, "MAX_LECTURE_FIGURES", 480)
    monkeypatch.setattr(lecture, "MAX_LECTURE_ITEMS", 0)
    assert main(["export", str(source), "--format", fmt, "--all-steps", "--out",
                 str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "drew over 0 figure items after" in err and "nothing was written" in err
    assert list(tmp_path.iterdir()) == []


def test_a_handout_that_grows_past_its_size_is_stopped(source, tmp_path, capsys, monkeypatch):
    from gpuviz.export import lecture

    monkeypatch.setattr(lecture, "MAX_LECTURE_BYTES", 1000)
    assert main(["export", str(source), "--format", "pdf", "--all-steps", "--out",
                 str(tmp_path)]) == 2
    assert "grew past 0 MiB after 1 of 5 pages" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def test_long_titles_and_characters_xml_cannot_hold_still_export(source, tmp_path):
    from pptx import Presentation

    raw = json.loads(source.read_text(encoding="utf-8"))
    raw["title"] = "T\x07itle " + "x" * 290  # 297 characters: the schema allows 300
    raw["description"] = "desc \x01 \ufffe end"
    raw["steps"][0]["title"] = "S\x0bone \uffff"
    raw["steps"][0]["caption"] = "cap \ufffe"
    path = tmp_path / "hostile.json"
    path.write_text(json.dumps(raw), encoding="utf-8")
    out = tmp_path / "out"
    for fmt in ("pptx", "html"):
        assert main(["export", str(path), "--format", fmt, "--out", str(out)]) == 0, fmt
    assert main(["export", str(path), "--format", "pdf", "--all-steps", "--out", str(out)]) == 0
    page = (out / "hostile.html").read_text(encoding="utf-8")
    assert not NOT_XML.search(page)
    assert "S\ufffdone \ufffd" in page
    deck = Presentation(str(out / "hostile.pptx"))
    props = deck.core_properties
    assert len(props.title) <= 255 and props.title.startswith("T\ufffditle x")
    assert props.author == props.last_modified_by == "gpuviz", "no template author is left"
    texts = [s.shapes.title.text for s in deck.slides]
    assert texts[0] == "T\ufffditle " + "x" * 290
    assert "S\ufffdone \ufffd" in texts
    from pptx.enum.text import MSO_AUTO_SIZE

    boxes = [sh for s in deck.slides for sh in s.shapes if sh.has_text_frame]
    assert boxes and all(sh.text_frame.auto_size == MSO_AUTO_SIZE.TEXT_TO_FIT_SHAPE
                         for sh in boxes), "every text shrinks to its box"
