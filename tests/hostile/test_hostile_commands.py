"""Command-line paths of the second round: options out of range (--fps, --out, --select), an
animation larger than gpuviz paints, ``gpuviz measure`` on wrong shapes and pipes, and saving
onto what is not a regular file. Each is refused with a message naming what is wrong, exit 2,
no traceback, and nothing written."""

from __future__ import annotations

import json
import os
import stat

import pytest

from gpuviz import cli
from gpuviz.atomic import write_atomic
from gpuviz.scenario import Scenario, save_scenario
from gpuviz.scenario.bundled import scenario_dir

LINKED = scenario_dir() / "linked-launch-sectors.json"
PIPELINE = scenario_dir() / "pipeline-double-buffer.json"
HUGE = "9" * 5000


def refused(argv: list[str], capsys) -> str:
    """``gpuviz argv`` in this process: exit 2 (from argparse or the command) and its message."""
    try:
        status = cli.main([str(a) for a in argv])
    except SystemExit as e:
        status = e.code
    err = capsys.readouterr().err
    assert status == 2, err
    assert "Traceback" not in err
    return err


@pytest.mark.parametrize("fps", ["0", "0.001", "0.0015", "1e-300", "-4", "nan", "inf", "50.5"])
def test_an_fps_a_gif_cannot_store_is_refused_by_the_parser(fps, tmp_path, capsys):
    err = refused(["export", PIPELINE, "--format", "gif", "--fps", fps, "--out", tmp_path / "o"],
                  capsys)
    assert "--fps: must be from 0.002 to 50" in err
    assert not (tmp_path / "o").exists()


def test_the_extreme_frame_rates_are_stored_exactly(qapp, tmp_path):
    from PIL import Image

    from gpuviz.export.animate import FramePlan, write_animation
    from gpuviz.figures.scene import figure_for
    from gpuviz.figures.theme import SCREEN
    from gpuviz.keys import at_frame
    from gpuviz.scenario import load_scenario

    scenario = load_scenario(PIPELINE)
    for fps, ms in ((0.002, 500_000), (50.0, 20)):
        path = tmp_path / f"{fps}.gif"
        plan = FramePlan(2, lambda i: figure_for(scenario, "pipeline", SCREEN,
                                                 at_frame((), i)), fps)
        assert write_animation(plan, path, "gif", dpi=36) == 2
        with Image.open(path) as im:
            assert im.info["duration"] == ms


@pytest.mark.parametrize("keys", [[f"lane:{HUGE}"], ["lane:3", "lane:3\n"], ["lane:1", ""],
                                  [f"tile:1,{'1' * 19}"]])
def test_select_keys_are_checked_before_any_file_is_written(keys, tmp_path, capsys):
    argv = ["export", LINKED, "--out", tmp_path / "o"]
    for k in keys:
        argv += ["--select", k]
    err = refused(argv, capsys)
    assert "--select" in err and len(err) < 500
    assert not (tmp_path / "o").exists()


@pytest.mark.parametrize("option", [["export", LINKED, "--out", ""],
                                    ["kernel", LINKED, "--out", " "],
                                    ["measure", "import", "x.csv", "--cases", "c.json", "--out", ""]])
def test_an_empty_output_path_is_refused(option, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert "is empty" in refused(option, capsys)
    assert list(tmp_path.iterdir()) == []


def test_an_animation_over_the_pixel_budget_is_refused_before_painting(tmp_path, capsys):
    traversal = tmp_path / "t.json"
    traversal.write_text(json.dumps({"version": 1, "panels": ["traversal"], "traversal": {
        "rows": 256, "cols": 256, "k_tiles": 2, "order": "hilbert"}}))
    for extra, says in ((["--format", "gif"], "use --max-frames 38"),
                        (["--format", "apng", "--dpi", "1200", "--max-frames", "3"],
                         "use at most 430 dpi")):
        err = refused(["export", traversal, "--out", tmp_path / "o", *extra], capsys)
        assert says in err
        assert not any((tmp_path / "o").iterdir())


MEASUREMENTS = [
    ([1, 2], "$: a measurement file is a JSON object"),
    ({"cases": 5}, "cases: expected a list of cases, got the number 5"),
    ({"format": 1}, "cases: missing"),
    ({"cases": [{}]}, "cases[0].id: missing"),
    ({"cases": [7]}, "cases[0]: a case is an object"),
    ({"cases": [{"id": 1, "panel": "launch", "section": [], "measured": "5"}]},
     "cases[0].id: expected text"),
    ({"cases": [{"id": "a", "panel": "traversal", "section": {}, "measured": 1,
                 "tile_bytes": 0, "operand_bytes": 1}]}, "cases[0].tile_bytes: must be positive"),
    ({"cases": [{"id": "a", "panel": "sectors", "section": {"warp": -1}, "measured": 1}]},
     "cases[0].section.warp"),
    ({"cases": [], "tolerance": "5%"}, "tolerance: expected a number"),
]


@pytest.mark.parametrize(("data", "says"), MEASUREMENTS, ids=[m[1][:24] for m in MEASUREMENTS])
def test_measure_compare_names_what_is_wrong(data, says, tmp_path, capsys):
    path = tmp_path / "m.json"
    path.write_text(json.dumps(data))
    assert f"{path}: {says}" in refused(["measure", "compare", path], capsys)


def test_measure_compare_reports_every_file(tmp_path, capsys):
    bad, good = tmp_path / "bad.json", tmp_path / "good.json"
    bad.write_text("[1, 2]")
    good.write_text(json.dumps({"cases": []}))
    err = refused(["measure", "compare", bad, good], capsys)
    assert f"{bad}: $: a measurement file is a JSON object" in err


def test_measure_refuses_pipes_at_once(tmp_path, capsys):
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)  # reading it would block for ever
    cases = tmp_path / "case.json"
    cases.write_text(json.dumps({"id": "a", "panel": "sectors", "section": {}}))
    assert "a pipe (FIFO)" in refused(["measure", "compare", fifo], capsys)
    assert "a pipe (FIFO)" in refused(["measure", "import", fifo, "--cases", cases, "--out",
                                       tmp_path / "m.json"], capsys)
    assert "a pipe (FIFO)" in refused(["measure", "import", fifo, "--cases", fifo, "--out",
                                       tmp_path / "m.json"], capsys)
    assert not (tmp_path / "m.json").exists()


def _no_temporary_files(folder) -> None:
    assert not [p.name for p in folder.iterdir() if p.name.endswith(".tmp")]


def test_saving_onto_a_pipe_refuses_and_keeps_it(tmp_path):
    fifo = tmp_path / "s.json"
    os.mkfifo(fifo)
    with pytest.raises(OSError) as err:
        save_scenario(Scenario(), fifo)
    assert err.value.filename == str(fifo) and "pipe (FIFO)" in str(err.value)
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)
    _no_temporary_files(tmp_path)


def test_export_onto_a_pipe_names_the_target(tmp_path, capsys):
    os.mkfifo(tmp_path / "linked-launch-sectors-launch.svg")
    err = refused(["export", LINKED, "--out", tmp_path], capsys)
    assert f"{tmp_path / 'linked-launch-sectors-launch.svg'}: cannot write" in err
    _no_temporary_files(tmp_path)


def test_kernel_onto_a_pipe_names_it_and_does_not_block(tmp_path, capsys):
    os.mkfifo(tmp_path / "run.sh")  # writing it would wait for a reader for ever
    err = refused(["kernel", scenario_dir() / "sectors-shifted.json", "--out", tmp_path], capsys)
    assert f"{tmp_path / 'run.sh'}: cannot write (this is a pipe (FIFO)" in err
    assert stat.S_ISFIFO(os.stat(tmp_path / "run.sh").st_mode)


def test_a_folder_as_the_target_is_named_not_the_temporary_file(tmp_path):
    (tmp_path / "f.svg").mkdir()
    with pytest.raises(IsADirectoryError) as err:
        write_atomic(tmp_path / "f.svg", b"<svg/>")
    assert err.value.filename == str(tmp_path / "f.svg")
    _no_temporary_files(tmp_path)


def test_a_failed_save_onto_a_hard_linked_file_leaves_nothing_behind(tmp_path, monkeypatch):
    one, two = tmp_path / "one.json", tmp_path / "two.json"
    one.write_text('{"version": 1}')
    os.link(one, two)
    real_open = open

    def immutable(path, mode="r", *a, **k):  # as the kernel answers for chattr +i
        if os.fspath(path) == str(one) and "+" in mode:
            raise PermissionError(1, "Operation not permitted", str(one))
        return real_open(path, mode, *a, **k)

    monkeypatch.setattr("gpuviz.atomic.open", immutable, raising=False)
    with pytest.raises(PermissionError) as err:
        write_atomic(one, b'{"version": 1, "title": "new"}')
    assert err.value.filename == str(one)
    assert two.read_text() == '{"version": 1}'
    _no_temporary_files(tmp_path)


def test_a_folder_with_one_bad_file_writes_nothing(tmp_path, capsys):
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "a.json").write_bytes(LINKED.read_bytes())  # sorted first: it would be written
    (folder / "b.json").write_text(json.dumps({"version": 1, "steps": [
        {"title": "s", "select": [f"lane:{HUGE}"]}]}))
    err = refused(["export", folder, "--out", tmp_path / "o", "--all-steps"], capsys)
    assert "b.json: steps[0].select[0]: a number of 5,000 digits" in err
    assert not (tmp_path / "o").exists()
