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
    assert ldm.texts()[0].startswith("Banks: 32 lanes give ldmatrix 16-byte row addresses")


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


@pytest.mark.parametrize("view", [((125, 0.97), (637, 659)), ((124, 0.96), (634, 659))])
def test_the_rack_alone_beside_the_swizzle_panel_reaches_the_rooms_type(view):
    """The rack part beside the swizzle panel in F5 on a 1280×720 projector: half the screen,
    about 636 × 659 px, 125 mm at the room's type. Sized from the 32-bank rack with lanes the
    type was 12.4 px; sized from the rack drawn, 16.2 px, the 16 rounds in one line too wide
    for 18 px. The phases now stand one under another under one bank header with the legend
    beside them, the 32 banks of one round a phase have "bank" running up beside their
    numbers instead of a header line, and a title that would take two lines is the short one:
    18 px, the least type of a presented figure, in one design for both steps."""
    from dataclasses import replace

    from gpuviz.figures.scene import build_figure
    from gpuviz.figures.targets import view_target
    from gpuviz.ui.presentation import PRESENT_MIN_PX
    from gpuviz.ui.view_layout import lay_out_view

    (width, aspect), px = view
    room = theme("presentation")
    states = [result_of("banks-swizzled-columns.json", k) for k in (3, 4)]
    assert [r.rounds for r in states] == [4, 16]
    layout = lay_out_view(lambda r, t: build_figure("banks", r, frozenset(), room, t), states,
                          view_target(width, aspect), px, PRESENT_MIN_PX, room.title_pt,
                          ("rack",))
    assert layout.type_px >= PRESENT_MIN_PX, layout
    for r in states:  # each queued word still drawn, in the design the lecture keeps
        kept = replace(view_target(width, aspect).showing(["rack"]), design=layout.design)
        fig = banks_figure.build(r, frozenset(), room, kept)
        assert {t.key for t in texts_with_key(fig, "word:")} == {f"word:{s.word}" for s in r.slots}


def test_phases_one_a_line_share_one_bank_header():
    """16 rounds in four phases of 8 banks, at a width that holds one phase a line: one bank
    header over the four phases (each phase's name beside its rounds), not a header a phase,
    so the rack is shorter by three header rows and the gaps between blocks."""
    from gpuviz.figures.banks_rack import (
        ROW_GAP,
        _stretch,
        depths,
        rack_alone,
        stretches,
    )

    r = result_of("banks-swizzled-columns.json", 4)
    assert (r.rounds, r.phases) == (16, 4)
    room = theme("presentation")
    geo = banks_figure._Geometry(r, room, SLIDE)
    block = rack_alone(r, frozenset(), room, 90.0, geo.pt, geo.floor, geo.row_h, geo.column)
    texts = [i for i in walk(block.items) if isinstance(i, Text)]
    assert [t.text for t in texts].count("bank") == 1
    assert {t.key for t in texts if t.key and t.key.startswith("bank:")} == \
        {f"bank:{b}" for b in range(8, 16)}
    phases = [t for t in texts if (t.key or "").startswith("phase:")]
    assert len(phases) == 4 and all(t.rotate == -90 for t in phases)
    # the phases in round order down the rack, apart from one another
    rounds = sorted((t for t in texts if (t.key or "").startswith("round:")),
                    key=lambda t: int(t.key.split(":")[1]))
    assert [t.y for t in rounds] == sorted(t.y for t in rounds)
    # three header rows and the gaps between blocks less than four blocks of a header each
    spans = stretches(r, tuple(range(8, 16)), 8)
    apart = [_stretch(r, frozenset(), room, [s], geo.pt, geo.floor, geo.row_h, 7.0, depths(r))
             for s in spans]
    drawn = max(t.y for t in rounds) - min(t.y for t in texts if t.text == "bank")
    assert drawn + geo.row_h < sum(b.height for b in apart) + 3 * ROW_GAP - 3 * geo.row_h
    assert block.width < 90.0


def test_a_half_of_banks_down_names_its_banks_beside_them():
    """Banks down, rounds across (32 banks of one round a phase, two halves of 16): "bank" runs
    up beside the bank numbers, inside the column "round" makes wide, not on a header line of
    its own, so the rack is a line shorter and no wider."""
    from gpuviz.figures.banks_rack import transposed

    r = result_of("banks-swizzled-columns.json", 3)
    assert (r.rounds, r.phases) == (4, 4)
    room = theme("print")
    geo = banks_figure._Geometry(r, room, SINGLE)
    col = max(geo.column(geo.floor), geo.column(geo.pt))
    block = transposed(r, frozenset(), room, range(32), geo.pt, geo.floor, geo.row_h, col)
    texts = [i for i in walk(block.items) if isinstance(i, Text)]
    named = [t for t in texts if t.text == "bank"]
    assert len(named) == 2 and all(t.rotate == -90 for t in named)
    numbers = [t for t in texts if (t.key or "").startswith("bank:")]
    # every bank number right of its half's "bank", and the first row just under the header
    for half in (range(0, 16), range(16, 32)):
        xs = [t.x for t in numbers if int(t.key.split(":")[1]) in half]
        label = min(named, key=lambda t: abs(t.x - min(xs)))
        assert all(x > label.x for x in xs)
    rounds = [t for t in texts if (t.key or "").startswith("round:")]
    first = min(t.y for t in numbers)
    assert first - max(t.y for t in rounds) < 1.5 * geo.row_h


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


@pytest.mark.parametrize("name", ["screen", "print", "dark", "presentation"])
def test_the_rack_alone_of_every_swizzled_step_fits_a_single_column(name):
    """16 rounds in four phases of 8 banks took 124 mm at 85 mm wide: a phase's name on a line
    above its block (one block a line either way) and a title on two lines. The name now runs
    up beside its rounds, and the column sets the shorter title. In the presentation theme's
    larger type it still took 135 mm: the phases now share one bank header, and the note on
    the banks not drawn takes the column's width (one line, not two)."""
    from gpuviz.figures.budget import over_budget

    t = SINGLE.showing(["rack"])
    for step in range(5):
        fig = banks_figure.build(result_of("banks-swizzled-columns.json", step), frozenset(),
                                 theme(name), t)
        assert over_budget(fig, t) == [], (step, fig.height)


@pytest.mark.parametrize("step", [0, 1])
def test_a_selected_bank_is_outlined_around_its_lanes_count_not_through_it(step):
    """banks-broadcast selects bank 0: its double outline started at the lanes-per-bank row's
    top, so its thick top edge ran through the "32" under the bank's number; it now starts at
    the number. The 32 selected lines into bank 0 (every line drawn) were each drawn in the
    selection's thick ink and merged into one black wedge on a slide."""
    t = theme("presentation")
    r = result_of("banks-broadcast.json", step)
    fig = banks_figure.build(r, frozenset({"bank:0"}), t, SLIDE)
    count = next(i for i in walk(fig.items) if isinstance(i, Text) and i.text == "32"
                 and i.key == "bank:0")
    x0, y0, x1, y1 = text_box(count)
    # the selection's outer line (the figure is scaled to the slide, its widths with it)
    outline = [i for i in walk(fig.items) if isinstance(i, Rect) and i.style.fill is None
               and i.style.stroke == t.foreground]
    assert len(outline) == 1
    for o in outline:
        half = o.style.stroke_width / 2
        assert not (o.y - half < y1 and y0 < o.y + half), "the outline's top edge crosses 32"
        assert o.y < y0 and o.x < x0 and x1 < o.x + o.w
    wide = [i for i in walk(fig.items) if isinstance(i, Segments)
            and i.style.stroke_width >= outline[0].style.stroke_width - 1e-9]
    assert not wide, "a fan of selected lines in the selection's thick ink"


@pytest.mark.parametrize("name", ["screen", "print", "dark", "presentation"])
def test_a_selected_bank_down_the_rack_leaves_its_neighbours_numbers_clear(name):
    """Banks down, rounds across (banks-swizzled-columns step 2 selects bank 12): the selected
    row's outline ran from the page's left edge through the numbers, its thick edges crossing
    "11" and "12" on a slide. It now outlines the bank's queue, the number set bold."""
    from gpuviz.figures.lint import lint

    s = load_scenario(SCENARIOS / "banks-swizzled-columns.json")
    t = SLIDE.showing(["rack"])
    fig = banks_figure.build(result_of("banks-swizzled-columns.json", 1),
                             s.step_selection(1), theme(name), t)
    assert s.step_selection(1) == frozenset({"bank:12"})
    assert not [f for f in lint(fig, t) if f.rule in ("crossing", "overlap")]
    twelve = [i for i in walk(fig.items) if isinstance(i, Text) and i.key == "bank:12"
              and i.text == "12"]
    assert twelve and all(i.bold for i in twelve)


def test_lanes_in_a_column_carry_each_lanes_bank_where_no_line_can_reach_it():
    """At one column the lanes wrap into rows of 8 and no line joins a lane to its bank (they
    were drawn only with the banks in one row): each lane's bank, its word mod 32, is written
    under its word, so the lanes part still maps lanes to banks."""
    r = result_of("banks-padded33.json")
    fig = banks_figure.build(r, frozenset(), theme("print"), SINGLE.showing(["lanes"]))
    assert not [i for i in walk(fig.items) if isinstance(i, Segments)]
    for lane in range(32):
        word = r.word_of_lane[lane]
        shown = [t.text for t in walk(fig.items)
                 if isinstance(t, Text) and t.key == f"lane:{lane}"]
        assert shown == [str(lane), str(word), str(word % 32)], (lane, shown)
