"""The bank queue figure: keys, rounds, broadcasts, phases, selection and themes."""


import pytest

from gpuviz.figures import banks as banks_figure
from gpuviz.figures.display import Polyline, Rect, Rects, Segments, Text, text_box, walk
from gpuviz.figures.targets import DOUBLE, SINGLE, SLIDE
from gpuviz.figures.theme import THEMES, theme
from gpuviz.scenario import compute_all, load_scenario
from gpuviz.scenario.bundled import scenario_dir

SCENARIOS = scenario_dir()


def result_of(name, step=-1):
    return compute_all(load_scenario(SCENARIOS / name).at_step(step), ("banks",))["banks"]


def build(name="banks-stride1.json", selection=frozenset(), theme_name="screen", step=-1):
    return banks_figure.build(result_of(name, step), selection, theme(theme_name))


def receipt(fig, label):
    """The value of the receipt row ``label`` (rows are monospaced ``label   value`` lines)."""
    [row] = [t for t in fig.texts() if t.startswith(label + "  ")]
    return row[len(label):].strip()


def texts_with_key(fig, prefix):
    return [t for t in walk(fig.items) if isinstance(t, Text) and (t.key or "").startswith(prefix)]


def slots_by_style(fig, t, role):
    fill = t.color(role)
    return [i for i in walk(fig.items) if isinstance(i, Rects) and i.style.fill == fill
            and i.keys and all(k.startswith("word:") for k in i.keys)]


def test_lanes_banks_and_words_are_pointable():
    keys = set(build().keys())
    assert {f"lane:{i}" for i in range(32)} <= keys
    assert {f"bank:{b}" for b in range(32)} <= keys
    assert {f"word:{w}" for w in range(32)} <= keys


def test_column_of_32_wide_array_draws_32_rounds_in_bank_0():
    fig = build("banks-column32.json")
    assert "Banks: 32 lanes read 4-byte elements — 32 rounds" in fig.texts()
    [conflicts] = slots_by_style(fig, theme("screen"), "conflict")
    assert len(conflicts.xywh) == 32
    assert len({round(x, 6) for x in (row[0] for row in conflicts.xywh)}) == 1  # one column: bank 0
    assert receipt(fig, "conflict degree") == "32-way (bank 0)"


def test_broadcast_is_one_slot_labelled_with_its_readers():
    fig = build("banks-broadcast.json")
    [bc] = slots_by_style(fig, theme("screen"), "broadcast")
    assert bc.keys == ("word:0",)
    assert receipt(fig, "broadcasts") == "1 (largest: 32 readers)"


def test_wide_access_names_its_phases():
    fig = build("banks-wide-access.json")
    texts = fig.texts()
    assert "phase 1" in texts and "phase 2" in texts
    assert any("2 half-warps of 16 lanes" in t for t in texts)
    assert receipt(fig, "rounds per phase") == "1 + 1"


def test_swizzled_figure_states_the_formula():
    fig = build("banks-swizzled-columns.json", step=1)
    assert any("address ^ ((address & 0x380) >> 3)" in t for t in fig.texts())


def test_selecting_a_bank_highlights_its_column_and_the_lanes_reading_it():
    t = theme("screen")
    fig = build("banks-padded33.json", frozenset({"bank:5"}))
    accented = [i for i in walk(fig.items) if isinstance(i, Rect) and i.style.stroke == t.accent]
    assert len(accented) == 1
    hi = [i for i in walk(fig.items) if hasattr(i, "xyxy") and i.style.stroke == t.accent]
    assert len(hi) == 1 and len(hi[0].xyxy) == 1  # lane 5's connection


@pytest.mark.parametrize("name", list(THEMES))
def test_every_theme_builds_from_theme_colours_only(name):
    t = theme(name)
    allowed = t.colours()
    fig = build("banks-wide-access.json", frozenset({"lane:3", "bank:0", "word:2"}), name)
    used = fig.colours()
    assert used <= allowed, used - allowed


def test_every_word_is_printed_in_its_slot_even_four_digit_ones():
    r = result_of("banks-padded33.json")
    fig = banks_figure.build(r, frozenset(), theme("screen"))
    printed = {t.key: t.text for t in texts_with_key(fig, "word:")}
    for s in r.slots:
        assert printed[f"word:{s.word}"] == str(s.word)
    assert printed["word:1023"] == "1023"  # bank 31 is not blank


@pytest.mark.parametrize("target", [SINGLE, DOUBLE, SLIDE], ids=lambda t: t.name)
def test_stacked_requests_name_their_word_at_every_size(target):
    r = result_of("banks-column32.json")
    fig = banks_figure.build(r, frozenset(), theme("screen"), target)
    words = sorted(int(t.text) for t in texts_with_key(fig, "word:"))
    assert words == sorted(s.word for s in r.slots) and len(words) == 32
    # the lane row says which lane reads each of them
    lanes = {t.key for t in texts_with_key(fig, "lane:")}
    assert lanes == {f"lane:{i}" for i in range(32)}


def test_every_round_is_numbered_and_no_phase_line_touches_a_number():
    fig = build("banks-swizzled-columns.json")
    rounds = {int(t.text): t for t in texts_with_key(fig, "round:")}
    assert sorted(rounds) == list(range(1, 33))
    dashed = [i for i in walk(fig.items) if isinstance(i, Polyline) and i.style.dash]
    line_ys = {round(y, 3) for line in dashed for _, y in line.points}
    assert len(line_ys) == 3  # between the four phases
    min_x = min(x for line in dashed for x, _ in line.points)
    for t in rounds.values():
        _x0, y0, x1, y1 = text_box(t)
        assert x1 < min_x  # the lines start right of the round numbers
        assert all(not (y0 < y < y1) for y in line_ys)


def test_degree_one_says_no_conflict_and_hex_stays_hex():
    assert receipt(build("banks-stride1.json"), "conflict degree") == "1: no conflict"
    fig = build("banks-swizzled-columns.json", step=1)
    [formula] = [t for t in walk(fig.items) if isinstance(t, Text) and "0x380" in t.text]
    assert formula.font == "mono"  # the sans face sets "0x3" as "0×3"


def test_empty_queues_stay_visible_in_print():
    t = theme("print")
    fig = build("banks-column32.json", theme_name="print")
    columns = [i for i in walk(fig.items) if isinstance(i, Rects) and i.keys
               and len(i.xywh) == 32 and all(k.startswith("bank:") for k in i.keys)
               and i.style.fill == t.surface]
    assert columns and all(c.style.stroke and c.style.stroke_width > 0 for c in columns)
    assert any(c.xywh[0][3] > 30 for c in columns)  # the rack column, not the header


def test_merged_phases_are_shown_with_the_fixed_count_and_the_lane_pairs():
    from gpuviz.figures.lint import lint
    from gpuviz.models.banks import BankPattern, BanksParams, compute

    r = compute(BanksParams(access_bytes=8, pattern=BankPattern(
        kind="explicit", indices=tuple(i // 2 for i in range(32)))))
    assert r.merged_by == 1
    fig = banks_figure.build(r, frozenset(), theme("print"))
    assert receipt(fig, "merged phases") == "lanes i and i XOR 1 share slots"
    assert receipt(fig, "lane pairs") == "0+1, 2+3, 4+5, 6+7, …"
    assert receipt(fig, "fixed phases would take") == (
        f"{r.fixed_phase_rounds} round{'s' if r.fixed_phase_rounds != 1 else ''}")
    assert any("merged phases: lanes i and i XOR 1" in t for t in fig.texts())
    assert lint(fig) == []


def test_a_store_writes_and_ldmatrix_gives_rows():
    from gpuviz.models.banks import BanksParams, compute

    store = banks_figure.build(compute(BanksParams(op="store")), frozenset(), theme("screen"))
    assert store.texts()[0].startswith("Banks: 32 lanes write 4-byte elements")
    ldm = banks_figure.build(compute(BanksParams(op="ldmatrix")), frozenset(), theme("screen"))
    assert ldm.texts()[0].startswith("Banks: ldmatrix, 32 lanes give 16-byte row addresses")


@pytest.mark.parametrize("name", ["banks-column32.json", "banks-swizzled-columns.json"])
def test_a_deep_queue_alone_fits_a_column_and_a_slide_in_blocks_of_rounds(name):
    """32 rounds do not fit 120 mm as one rack: the rack part is cut into blocks of rounds
    (a phase each, or 8 rounds each) side by side, only the busy banks drawn and the others
    named; every queued word is still drawn."""
    from gpuviz.figures.budget import over_budget

    r = result_of(name, 0)
    assert r.rounds == 32
    print_ = theme("print")
    for target in (SINGLE, SLIDE):
        t = target.showing(["rack"])
        fig = banks_figure.build(r, frozenset(), print_, t)
        assert over_budget(fig, t) == []
        words = {t.key for t in texts_with_key(fig, "word:")}
        assert words == {f"word:{s.word}" for s in r.slots}
        rounds = {t.key for t in texts_with_key(fig, "round:")}
        assert rounds == {f"round:{k}" for k in range(1, 33)}
        busy = sorted({s.bank for s in r.slots})
        banks = {t.key for t in texts_with_key(fig, "bank:")}
        assert banks == {f"bank:{b}" for b in busy}
        assert any(t.endswith("no word queued (not drawn)") for t in fig.texts())


def _connections(fig):
    return [s for g in walk(fig.items) if isinstance(g, Segments) and g.keys
            and all(k.startswith("lane:") for k in g.keys) for s in g.xyxy]


def test_lane_to_bank_lines_show_the_deepest_queue_and_count_the_rest():
    """16-byte reads down a chunk column: 32 lanes × 4 words would be 128 lines merging into
    a band; the lines drawn are the 32 lanes reaching bank 12 (the deepest queue), and a row
    under the banks counts each bank's lanes; a selected lane draws its own 4."""
    r = result_of("banks-swizzled-columns.json", 0)
    fig = banks_figure.build(r, frozenset(), theme("print"))
    lines = _connections(fig)
    assert len(lines) == 32
    assert len({round(x1, 6) for _, _, x1, _ in lines}) == 1  # one bank: all end at bank 12
    counts = {t.key: t.text for t in texts_with_key(fig, "bank:") if t.text in ("0", "32")}
    assert {k for k, v in counts.items() if v == "32"} == {f"bank:{b}" for b in (12, 13, 14, 15)}
    assert any("the deepest queue" in t for t in fig.texts())
    mine = _connections(banks_figure.build(r, frozenset({"lane:5"}), theme("print")))
    assert len(mine) == len(r.words_of_lane[5]) == 4


def test_a_phased_queue_alone_at_a_column_runs_banks_down_and_rounds_across():
    """16-byte reads of every other element: 4 phases of 2 rounds over 16 banks took 158 mm
    as rows of 8 banks; with banks down and rounds across, grouped by phase, it fits."""
    from gpuviz.figures.budget import over_budget

    r = result_of("banks-wide-access.json", 2)
    assert (r.rounds, r.phases) == (8, 4)
    t = SINGLE.showing(["rack"])
    fig = banks_figure.build(r, frozenset(), theme("print"), t)
    assert over_budget(fig, t) == []
    assert {t.key for t in texts_with_key(fig, "word:")} == {f"word:{s.word}" for s in r.slots}
    assert {t.key for t in texts_with_key(fig, "phase:")} == {f"phase:{p}" for p in range(4)}


def test_the_rack_alone_in_a_square_view_is_laid_out_for_the_rack_not_for_32_banks_across():
    """The rack part beside the swizzle panel in F5 on a 1280×720 projector: half the screen,
    634 × 659 px, 124 mm at the room's type. The designs were sized from the 32-bank rack
    with lanes (256 mm), so even the narrowest (0.6 ×) set the title 152 mm wide and the whole
    was shrunk to 12.4 px; sized from the rack drawn, the type is about 16 px."""
    from dataclasses import replace

    from gpuviz.figures.scene import build_figure
    from gpuviz.figures.targets import view_target
    from gpuviz.ui.view_layout import lay_out_view

    room = theme("presentation")
    states = [result_of("banks-swizzled-columns.json", k) for k in (3, 4)]
    assert [r.rounds for r in states] == [4, 16]
    layout = lay_out_view(lambda r, t: build_figure("banks", r, frozenset(), room, t), states,
                          view_target(124, 0.96), (634, 659), 18.0, room.title_pt, ("rack",))
    assert layout.type_px >= 15.5, layout
    for r in states:  # each queued word still drawn, in the design the lecture keeps
        kept = replace(view_target(124, 0.96).showing(["rack"]), design=layout.design)
        fig = banks_figure.build(r, frozenset(), room, kept)
        assert {t.key for t in texts_with_key(fig, "word:")} == {f"word:{s.word}" for s in r.slots}


@pytest.mark.parametrize("name", ["screen", "print", "dark", "presentation"])
def test_the_rack_alone_on_a_slide_keeps_every_word_inside_its_slot(name):
    """Banks down and rounds across on a slide (16 rounds of 3-digit words, scaled 1.66 ×):
    each bank's row took the pad between rows out of its slot, which came out shorter than its
    word's ink, and the lint found every word straddling its slot's edge."""
    from gpuviz.figures.lint import lint

    t = SLIDE.showing(["rack"])
    for step in range(5):
        fig = banks_figure.build(result_of("banks-swizzled-columns.json", step), frozenset(),
                                 theme(name), t)
        assert [f for f in lint(fig, t) if f.rule == "crossing"] == [], step


def test_the_rack_alone_of_a_swizzled_access_names_only_the_rack():
    # its "swizzled: …" line was tagged as both parts, so a single column drawing the rack
    # alone counted two parts where it holds one
    t = SINGLE.showing(["rack"])
    fig = banks_figure.build(result_of("banks-swizzled-columns.json", 3), frozenset(),
                             theme("print"), t)
    assert fig.parts == ("rack",)
    assert any(t.startswith("swizzled:") for t in fig.texts())


@pytest.mark.parametrize("name", ["screen", "print", "dark"])
def test_the_rack_alone_of_every_swizzled_step_fits_a_single_column(name):
    """16 rounds in four phases of 8 banks took 124 mm at 85 mm wide: a phase's name on a line
    above its block (one block a line either way) and a title on two lines. The name now runs
    up beside its rounds, and the column sets the shorter title."""
    from gpuviz.figures.budget import over_budget

    t = SINGLE.showing(["rack"])
    for step in range(5):
        fig = banks_figure.build(result_of("banks-swizzled-columns.json", step), frozenset(),
                                 theme(name), t)
        assert over_budget(fig, t) == [], (step, fig.height)
