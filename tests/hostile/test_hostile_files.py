"""Every file of the generated hostile corpus, through ``validate``, ``compute`` and ``export``
held to 2 GiB of address space and 20 s: exit 0 or 2 as the case expects, the problem named with
its path, no traceback, output that parses (JSON, well-formed SVG). Files are read in this
process (``gpuviz_here``); what only a process shows, a device or a FIFO that a wrong reader
would block on for ever, runs in a subprocess (``gpuviz``).

``validate`` takes one class's files in one call (it must report every file); ``compute`` and
``export`` run on the representative cases (``Case.compute``) to keep the suite short."""

from __future__ import annotations

import pytest
from hostile_corpus import GENERATORS, Case, corpus
from hostile_run import (
    assert_clean,
    assert_json,
    assert_svgs_well_formed,
    assert_terminal_safe,
    gpuviz,
    gpuviz_here,
    text,
)

CASES = corpus()


def _runner(cases):
    """A subprocess for a device, a FIFO or a folder (a reader that blocks is killed at the
    timeout there, and would hang this process); this process for a file's content."""
    return gpuviz if any(case.special for case in cases) else gpuviz_here


def _expected_status(case: Case) -> tuple[int, ...]:
    return {"bad": (2,), "ok": (0,), "any": (0, 2)}[case.expect]


@pytest.mark.parametrize("make", GENERATORS, ids=[g.__name__ for g in GENERATORS])
def test_validate_reports_every_file_of_a_class(make, tmp_path):
    cases = make()
    paths = [case.materialise(tmp_path) for case in cases]
    proc = _runner(cases)("validate", *paths, timeout=20 * len(paths))  # 20 s a file
    assert_clean(proc)
    assert_terminal_safe(proc.stderr)
    assert_terminal_safe(proc.stdout)
    out, err = text(proc.stdout), text(proc.stderr)
    for case, path in zip(cases, paths, strict=True):
        said = [line for line in err.splitlines() if line.startswith(f"{path}: ")]
        valid = f"{path}: valid (" in out
        if case.expect == "ok":
            assert valid and not said, (case.name, said)
        elif case.expect == "bad":
            assert said and not valid, (case.name, out, err[:2000])
            assert len(said) <= 51, "a report is capped at 50 problems and one summary line"
            assert all(len(line) < 2000 for line in said), "no line floods the terminal"
            assert any(case.says in line for line in said), (case.name, case.says, said[:3])
        else:
            assert valid != bool(said), case.name
    bad = any(c.expect == "bad" for c in cases)
    assert proc.returncode == (2 if bad else 0) or any(c.expect == "any" for c in cases)


@pytest.mark.parametrize("case", [c for c in CASES if c.compute], ids=lambda c: c.name)
def test_compute_and_export(case, tmp_path):
    path = case.materialise(tmp_path)
    status = _expected_status(case)
    run = _runner([case])

    computed = run("compute", path)
    assert_clean(computed)
    assert_terminal_safe(computed.stdout)
    assert_terminal_safe(computed.stderr)
    assert computed.returncode in status, (case.name, text(computed.stderr)[-1000:])
    if computed.returncode == 0:
        assert isinstance(assert_json(computed), dict)
    else:
        assert text(computed.stderr).startswith(f"{path}: ")

    out = tmp_path / "figures"
    exported = run("export", path, "--out", out)
    assert_clean(exported)
    assert_terminal_safe(exported.stdout)
    assert exported.returncode == computed.returncode
    if exported.returncode == 0:
        assert assert_svgs_well_formed(out) == len(text(exported.stdout).splitlines()) >= 1
