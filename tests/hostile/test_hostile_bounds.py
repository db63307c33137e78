"""The second round's hostile corpus (``hostile_bounds.py``) through ``validate``, ``compute``
and ``export`` held to 10 s and 1 GiB of address space (in this process, ``gpuviz_here``: every
case is file content; ``hostile_table.py`` runs them as capped subprocesses): refused with the
JSON path, or accepted and then computed, exported and its captions formatted as the app shows
them.

One ``validate`` call takes every file (it must report each); ``compute`` and ``export`` run on
the representative cases (``Case.compute``)."""

from __future__ import annotations

import pytest
from hostile_bounds import GENERATORS
from hostile_corpus import Case
from hostile_run import (
    assert_clean,
    assert_json,
    assert_svgs_well_formed,
    assert_terminal_safe,
    gpuviz_here,
    text,
)

from gpuviz.scenario import load_scenario
from gpuviz.scenario.fields import format_fields

TIMEOUT = 10
MEMORY = 1024**3
CASES = [case for make in GENERATORS for case in make()]


def run(*args, timeout: float = TIMEOUT):
    return gpuviz_here(*args, timeout=timeout, memory=MEMORY)


def test_validate_reports_every_case_of_every_class(tmp_path):
    paths = [case.materialise(tmp_path) for case in CASES]
    proc = run("validate", *paths, timeout=TIMEOUT * len(paths))
    assert_clean(proc)
    assert_terminal_safe(proc.stderr)
    out, err = text(proc.stdout), text(proc.stderr)
    for case, path in zip(CASES, paths, strict=True):
        said = [line for line in err.splitlines() if line.startswith(f"{path}: ")]
        if case.expect in ("ok", "warn"):
            assert f"{path}: valid (" in out, (case.name, said)
            warned = [line for line in said if ": warning: " in line]
            assert warned == said, (case.name, said)  # a warning line, never a problem
            if case.expect == "ok":
                assert not said, (case.name, said)
            else:  # said once, however many steps repeat it
                assert [case.says in line for line in said].count(True) == 1, (case.name, said)
            scenario = load_scenario(path)
            for k, step in enumerate(scenario.steps):  # every caption as the app shows it
                for shown in (step.caption, step.predict):
                    if shown:
                        assert "{" not in format_fields(shown, scenario.at_step(k)), case.name
        else:
            assert any(case.says in line for line in said), (case.name, case.says, said[:3])


@pytest.mark.parametrize("case", [c for c in CASES if c.compute], ids=lambda c: c.name)
def test_compute_and_export_within_10_s_and_1_gib(case: Case, tmp_path):
    path = case.materialise(tmp_path)
    accepted = case.expect in ("ok", "warn")
    last = len(load_scenario(path).steps) - 1 if accepted else -1
    computed = run("compute", path, *(["--step", last] if last >= 0 else []))
    assert_clean(computed)
    assert computed.returncode == (0 if accepted else 2), text(computed.stderr)[-500:]
    if case.expect == "warn":
        assert case.says in text(computed.stderr)
    if computed.returncode == 0:
        assert isinstance(assert_json(computed), dict)
    out = tmp_path / "figures"
    exported = run("export", path, "--out", out)
    assert_clean(exported)
    assert exported.returncode == computed.returncode
    written = assert_svgs_well_formed(out) if out.exists() else 0
    assert written == (len(text(exported.stdout).splitlines()) if accepted else 0)
    if case.expect == "warn":
        assert case.says in text(exported.stderr)
