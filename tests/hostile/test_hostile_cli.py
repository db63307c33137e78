"""The command line misused: mistyped commands, options given to the app form, no display,
output that cannot be written, a crash in the middle of ``validate``. A closed, full or vanishing
standard output is a process's own, and runs in a subprocess; the rest in this process."""

from __future__ import annotations

import os
import subprocess

import pytest
from hostile_run import assert_clean, assert_terminal_safe, gpuviz, gpuviz_here, text

from gpuviz import cli
from gpuviz.scenario.bundled import scenario_dir

DEFAULT = scenario_dir() / "launch-n130.json"
BIG = scenario_dir() / "traversal-sweep.json"  # a long compute output


@pytest.fixture
def no_display(monkeypatch):
    """gpuviz as started from a terminal without a display (and no platform chosen), in this
    process: an application that started would fail the case at once (as a subprocess, it
    would never exit)."""
    import gpuviz.ui.app

    def started(path):
        raise AssertionError(f"the application was started for {path!r}")

    for name in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(gpuviz.ui.app, "run_app", started)
    return lambda *args: gpuviz_here(*args, timeout=20)


def cli_command():
    import sys

    return [sys.executable, "-m", "gpuviz"]


@pytest.mark.parametrize("argv,suggestion", [
    (["exprot", DEFAULT, "--out", "figs"], "did you mean 'export'?"),
    (["validat", DEFAULT], "did you mean 'validate'?"),
    (["compte"], "did you mean 'compute'?"),
    (["render", DEFAULT, "--format", "svg"], "commands: validate, compute, export"),
])
def test_a_mistyped_command_is_no_such_command(argv, suggestion, tmp_path, no_display,
                                               monkeypatch):
    monkeypatch.chdir(tmp_path)
    proc = no_display(*argv)
    assert proc.returncode == 2
    err = text(proc.stderr)
    assert "no such command" in err and suggestion in err
    assert "Traceback" not in err
    assert not (tmp_path / "figs").exists()


def test_options_given_to_the_app_form_are_refused(no_display):
    proc = no_display(DEFAULT, "--theme", "dark")
    assert proc.returncode == 2
    assert "takes no options" in text(proc.stderr) and "gpuviz export" in text(proc.stderr)


def test_a_word_that_is_no_file_and_no_command(no_display):
    proc = no_display("frobnicate")
    assert proc.returncode == 2
    assert "no such command or file: 'frobnicate'" in text(proc.stderr)


def test_without_a_display_the_app_is_not_started_invisibly(no_display):
    for argv in ([], [DEFAULT], ["missing.json"]):
        proc = no_display(*argv)
        assert proc.returncode == 2, argv
        assert "there is no display" in text(proc.stderr)


def test_export_into_a_folder_that_cannot_be_created(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    proc = gpuviz_here("export", DEFAULT, "--out", blocker / "sub")
    assert_clean(proc)
    assert proc.returncode == 2
    assert "cannot create the output folder" in text(proc.stderr)


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="needs /proc")
def test_export_into_a_folder_that_cannot_be_written():
    # /proc exists and is a folder, yet no file can be made in it (not even by root)
    proc = gpuviz_here("export", DEFAULT, "--out", "/proc")
    assert_clean(proc)
    assert proc.returncode == 2
    assert "cannot write" in text(proc.stderr)


def test_validate_reports_every_file_even_after_one_crashes(tmp_path, monkeypatch, capsys):
    first, second, third = (tmp_path / f"{n}.json" for n in ("first", "second", "third"))
    first.write_text('{"version": 1}')
    second.write_text('{"version": 1}')
    third.write_text('{"version": 1, "launch": {"n": -1}}')
    real = cli._load

    def crash_on_second(path):
        if path.endswith("second.json"):
            raise RuntimeError("a bug")
        return real(path)

    monkeypatch.setattr(cli, "_load", crash_on_second)
    monkeypatch.delenv("GPUVIZ_DEBUG", raising=False)
    status = cli.main(["validate", str(first), str(second), str(third)])
    out, err = capsys.readouterr()
    assert status == 1
    assert f"{first}: valid" in out
    assert f"{second}: internal error: RuntimeError: a bug" in err
    assert f"{third}: launch.n: must be at least" in err


def test_closed_standard_output():
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    proc = subprocess.run(["sh", "-c", 'exec "$@" >&-', "sh", *cli_command(), "compute",
                           str(DEFAULT)], env=env, capture_output=False, stderr=subprocess.PIPE,
                          timeout=20)
    assert proc.returncode == 2
    assert "standard output is closed" in text(proc.stderr)
    assert "Traceback" not in text(proc.stderr)


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_standard_output_on_a_full_disk():
    with open("/dev/full", "wb") as full:
        proc = gpuviz("compute", DEFAULT, stdout=full, stderr=subprocess.PIPE,
                      capture_output=False)
    assert_clean(proc)
    assert proc.returncode == 2
    assert "standard output: cannot write (No space left on device)" in text(proc.stderr)


def test_a_reader_that_goes_away_is_no_error():
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    proc = subprocess.Popen([*cli_command(), "compute", str(BIG)], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout.read(10)
    proc.stdout.close()  # like `| head -c 10`
    err = proc.stderr.read()
    assert proc.wait(timeout=20) == 0
    assert b"Traceback" not in err and b"Exception ignored" not in err and b"Broken" not in err


def test_file_names_with_control_characters_are_escaped(tmp_path):
    path = tmp_path / "evil\x1b[2J\x07.json"
    path.write_text('{"version": 1, "x": 1}')
    proc = gpuviz_here("validate", path)
    assert_clean(proc)
    assert_terminal_safe(proc.stderr)
    assert "evil\\x1b[2J\\x07.json: x: unknown key" in text(proc.stderr)


def test_options_repeated_past_their_use_are_refused_before_parsing_them(tmp_path):
    """argparse's time grows with the square of the options given (30,000 --part took 32 s)."""
    scenario = scenario_dir() / "banks-stride1.json"
    proc = gpuviz_here("export", scenario, *["--part", "rack"] * 30_000, "--out",
                       tmp_path / "out", timeout=10)
    assert_clean(proc)
    assert proc.returncode == 2
    assert "30,001 options given; a command line takes at most 1,024" in text(proc.stderr)
    assert not (tmp_path / "out").exists()


def test_a_part_is_drawn_once_and_a_selection_names_at_most_256_keys():
    from gpuviz.cli_export import selection_problems, unknown_parts

    assert "--part 'rack': given more than once" in unknown_parts(
        ["rack", "lanes", "rack"], ("banks",))
    assert unknown_parts(["rack", "lanes"], ("banks",)) is None
    assert selection_problems([f"lane:{i}" for i in range(257)]) == [
        "--select is given 257 times; a selection names at most 256 keys"]
    assert selection_problems([f"lane:{i}" for i in range(256)]) == []
