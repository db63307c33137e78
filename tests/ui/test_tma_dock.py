"""The tma dock: its summary in words, the links that open the swizzle and tensor-core panels
with the placement's equivalent as one undoable edit, and a chunk's activation."""

from __future__ import annotations

from dataclasses import replace
from types import SimpleNamespace

import pytest

from gpuviz.models import mma
from gpuviz.models.tma import TmaParams
from gpuviz.scenario import Scenario, load_scenario
from gpuviz.scenario.bundled import scenario_dir
from gpuviz.ui.document import Document

OFFSET = scenario_dir() / "tma-swizzle-offset.json"


def extras(doc):
    from gpuviz.ui.panels.tma import TmaExtras

    return TmaExtras(SimpleNamespace(document=doc, parent=lambda: None))  # type: ignore[arg-type]


def tma_doc(**changes) -> Document:
    sc = Scenario(panels=("tma",)).with_section("tma", replace(TmaParams(), **changes))
    return Document(sc)


def settled(links, qtbot):
    """The links' result is known: none asked of the thread pool is still on its way."""
    qtbot.waitUntil(lambda: not links.result._then, timeout=5000)


def test_open_in_swizzle_sets_its_mode_and_shows_it_in_one_undo_step(qapp, qtbot):
    doc = tma_doc(swizzle="64B", box_dims=(32, 8), smem_offset=512)
    links = extras(doc).links
    settled(links, qtbot)
    assert links.swizzle_button.isEnabled()
    links.swizzle_button.click()
    settled(links, qtbot)
    assert doc.scenario.panels == ("tma", "swizzle")
    assert doc.scenario.section("swizzle").swizzle.mode == "64B"
    assert doc.undo_stack.count() == 1 and doc.is_modified()
    doc.undo_stack.undo()
    assert doc.scenario.panels == ("tma",) and "swizzle" not in doc.scenario.sections
    settled(links, qtbot)
    links.swizzle_button.click()  # again: the same edit, not a second panel
    settled(links, qtbot)
    links.swizzle_button.click()
    settled(links, qtbot)
    assert doc.scenario.panels == ("tma", "swizzle") and doc.undo_stack.count() == 1


def test_open_in_tensor_core_panel_reads_the_box_through_its_descriptor(qapp, qtbot):
    doc = tma_doc(smem_offset=384)
    links = extras(doc).links
    settled(links, qtbot)
    links.mma_button.click()
    settled(links, qtbot)
    assert doc.scenario.panels == ("tma", "mma")
    w = doc.scenario.section("mma").warpgroup
    assert (w.swizzle, w.start_address, w.k_steps) == ("128B", 384, 4)
    assert doc.scenario.section("mma").show[0] == "descriptor"  # the page it opens on
    # the tensor-core panel draws the descriptor the tma panel names, less its base offset
    shown = mma.compute(doc.scenario.section("mma")).warpgroup.descriptor
    from gpuviz.models import tma

    ours = tma.compute(doc.scenario.section("tma")).wgmma_descriptor
    assert shown == int(ours.descriptor_hex, 16) and ours.base_offset == 0
    doc.undo_stack.undo()
    assert doc.scenario.panels == ("tma",)


def test_no_swizzle_leaves_the_tensor_core_link_disabled(qapp, qtbot):
    doc = tma_doc(swizzle="none")
    links = extras(doc).links
    settled(links, qtbot)
    assert links.swizzle_button.isEnabled() and not links.mma_button.isEnabled()
    links.mma_button.click()
    settled(links, qtbot)
    assert doc.undo_stack.count() == 0
    # choosing a swizzle enables it (the links follow the section)
    doc.edit_section("tma", replace(doc.scenario.section("tma"), swizzle="128B"))
    settled(links, qtbot)
    assert links.mma_button.isEnabled()


def test_a_link_from_a_step_applies_on_top_of_what_the_room_sees(qapp, qtbot):
    doc = Document(load_scenario(OFFSET))
    doc.go_to_step(1)  # the question at offset 384
    links = extras(doc).links
    settled(links, qtbot)
    links.mma_button.click()
    settled(links, qtbot)
    assert doc.step == -1  # an edit leaves the steps, as any edit does
    assert doc.scenario.section("mma").warpgroup.start_address == 384
    doc.undo_stack.undo()
    assert doc.step == 1 and "mma" not in doc.scenario.panels


def test_summary_states_rule_barrier_bytes_swizzle_and_base_offset(qapp):
    from gpuviz.models import tma

    e = extras(tma_doc())
    text = e.summary_text(tma.compute(replace(TmaParams(), smem_offset=384)))
    assert "accepted" in text and "a 1,024-byte box" in text
    assert "expects 2,048 bytes from 4 copies" in text  # a 2 × 2 multicast of the box's halves
    assert "Swizzle⟨3,4,3⟩" in text and "line 3" in text
    assert "base offset 0 (the TMA swizzles by the absolute address, so none off the " \
        "boundary either, as measured on an H100)" in text
    refused = e.summary_text(tma.compute(replace(TmaParams(), box_dims=(128, 8))))
    assert refused.startswith("Tensor map: refused, box_dims[0]: 256 inner bytes")
    assert "wgmma" not in refused


@pytest.mark.parametrize(("key", "column"), [("chunk:5,3", 3), ("chunk:0,7", 7)])
def test_activating_a_chunk_makes_the_shown_swizzle_panel_read_its_column(qapp, qtbot, key,
                                                                           column):
    sc = Scenario(panels=("tma", "swizzle")).with_section(
        "tma", replace(TmaParams(), swizzle="32B", box_dims=(16, 8)))
    doc = Document(sc)
    e = extras(doc)
    e.activate(key)
    settled(e.links, qtbot)
    s = doc.scenario.section("swizzle")
    assert (s.swizzle.mode, s.column) == ("32B", column)
    e.activate("chunk:x")  # not a chunk's key
    e.activate("event:2")
    settled(e.links, qtbot)
    assert doc.undo_stack.count() == 1


def test_activating_a_chunk_edits_no_panel_the_lecture_does_not_show(qapp):
    doc = tma_doc()
    extras(doc).activate("chunk:5,3")
    assert doc.undo_stack.count() == 0 and "swizzle" not in doc.scenario.sections


def test_in_the_window_the_link_shows_the_swizzle_dock_and_a_question_hides_the_summary(
        make_main_window, qtbot):
    w = make_main_window(OFFSET)
    dock = w.docks["tma"]
    qtbot.waitUntil(lambda: "Swizzle⟨3,4,3⟩" in dock.summary.text(), timeout=10000)
    w.document.go_to_step(1)  # "Predict: chunk 3 of row 5 at offset 384?"
    assert w.document.veiled
    qtbot.wait(50)
    assert not dock.summary.isVisible()
    links = dock.extras.links
    for b in (links.swizzle_button, links.mma_button):  # no number the answer could hide in
        assert not any(ch.isdigit() for ch in b.text() + b.toolTip())
    links.swizzle_button.click()
    qtbot.waitUntil(lambda: "swizzle" in w.docks and w.docks["swizzle"].isVisible())
    assert w.document.shown.section("swizzle").swizzle.mode == "128B"
    w.docks["swizzle"].close()  # its title bar's button takes it out of the lecture, undoably
    qtbot.waitUntil(lambda: "swizzle" not in w.document.scenario.panels)
    count = w.document.undo_stack.count()
    links.swizzle_button.click()  # the link puts it back, one more undo step
    qtbot.waitUntil(lambda: w.docks["swizzle"].isVisible())
    assert "swizzle" in w.document.scenario.panels
    assert w.document.undo_stack.count() == count + 1
    w.action("undo").trigger()
    qtbot.waitUntil(lambda: not w.docks["swizzle"].isVisible())


@pytest.fixture
def tma_threads(monkeypatch):
    """The thread of every call of the tma model (the real one, counted), from an empty
    result cache."""
    import threading

    from gpuviz.models import tma
    from gpuviz.scenario.compute import compute_cached

    calls: list[bool] = []  # on the GUI (main) thread?
    real = tma.compute

    def counted(params):
        calls.append(threading.current_thread() is threading.main_thread())
        return real(params)

    monkeypatch.setattr(tma, "compute", counted)
    compute_cached.cache_clear()
    yield calls
    compute_cached.cache_clear()


def test_the_links_never_compute_a_tma_result_on_the_gui_thread(qapp, qtbot, tma_threads):
    doc = tma_doc(swizzle="64B", box_dims=(32, 8), smem_offset=512)
    e = extras(doc)
    links = e.links
    settled(links, qtbot)
    assert links.swizzle_button.isEnabled() and links.mma_button.isEnabled()
    for offset in (640, 768):  # each edit: the links follow it, from the thread pool
        doc.edit_section("tma", replace(doc.scenario.section("tma"), smem_offset=offset))
        settled(links, qtbot)
    links.mma_button.click()
    settled(links, qtbot)
    assert doc.scenario.section("mma").warpgroup.start_address == 768
    assert tma_threads and not any(tma_threads), tma_threads
    assert links.result.computed >= len(tma_threads)  # the rest were the pool's cache hits


def test_in_the_window_the_links_use_the_docks_result(make_main_window, qtbot, tma_threads):
    w = make_main_window(OFFSET)
    dock = w.docks["tma"]
    qtbot.waitUntil(lambda: "Swizzle⟨3,4,3⟩" in dock.summary.text(), timeout=10000)
    links = dock.extras.links
    settled(links, qtbot)
    before, asked = list(tma_threads), links.result.computed
    links.mma_button.click()
    settled(links, qtbot)
    assert "mma" in w.document.scenario.panels
    assert tma_threads == before, "the click computed a tma result again"
    assert links.result.computed == asked, "the dock's own result was not used"
