"""Limits known before writing are checked for every file first: an export of many files
(every step, every panel, every scenario of a folder, every animation) that would meet a limit
at a later file (the PNG pixel cap, a part the state does not draw, a part over its size's
budget, an animation's pixels) is refused naming that step and file, and writes nothing.
Generated cases, one per member of the class (``hostile_table.py`` runs them under 10 s and
1 GiB)."""

from __future__ import annotations

import json

import pytest

from gpuviz import cli

ALL_PARTS = ["fragment-a", "fragment-b", "fragment-c", "feed", "warpgroup", "descriptor",
             "completion", "hierarchy"]
ONE_PART = {"show": ["fragment-a"]}  # 175 × 91 mm: 21 million pixels at 900 dpi
EVERY_PART = {"show": ALL_PARTS}  # 175 × 468 mm: 106 million, over the 50 million cap


def _steps(*changes: dict) -> list[dict]:
    return [{"title": f"s{k}", "changes": c} for k, c in enumerate(changes)]


CASES = {
    # name: (files {stem: scenario}, export options, text the refusal names)
    "all-steps-png-later-step-over-pixel-cap": (
        {"grows": {"version": 1, "panels": ["mma"], "mma": ONE_PART,
                   "steps": _steps({}, {"mma": EVERY_PART})}},
        ["--all-steps", "--format", "png", "--dpi", "900"],
        "step 2 of 2 grows-mma-step02.png: a "),
    "later-panel-png-over-pixel-cap": (
        {"two": {"version": 1, "panels": ["launch", "mma"], "mma": EVERY_PART}},
        ["--format", "png", "--dpi", "900"], "two-mma.png: a "),
    "later-file-of-a-folder-over-pixel-cap": (
        {"a-small": {"version": 1, "panels": ["mma"], "mma": ONE_PART},
         "b-large": {"version": 1, "panels": ["mma"], "mma": EVERY_PART}},
        ["--format", "png", "--dpi", "900"], "b-large.json: b-large-mma.png: a "),
    "all-steps-later-step-draws-no-such-part": (
        {"scope": {"version": 1, "panels": ["reduction"],
                   "reduction": {"values": [1.0] * 64, "scope": "block"},
                   "steps": _steps({}, {"reduction": {"values": [1.0] * 8,
                                                      "scope": "warp"}})}},
        ["--all-steps", "--part", "block"], "step 2 of 2 scope-reduction-block-step02.svg"),
    "later-animation-over-its-pixels": (
        {"anim": {"version": 1, "panels": ["launch", "mma"], "mma": EVERY_PART,
                  "steps": _steps({}, {})}},
        ["--all-steps", "--format", "gif", "--dpi", "300"], "anim-mma-steps.gif: an animation frame"),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_limit_met_at_a_later_file_writes_nothing(name, tmp_path, capsys):
    # in this process (hostile_table.py runs the same cases as capped subprocesses)
    files, options, says = CASES[name]
    folder = tmp_path / "in"
    folder.mkdir()
    for stem, data in files.items():
        (folder / f"{stem}.json").write_text(json.dumps(data))
    source = folder if len(files) > 1 else folder / f"{next(iter(files))}.json"
    out = tmp_path / "out"
    status = cli.main(["export", str(source), "--out", str(out), *options])
    err = capsys.readouterr().err
    assert status == 2 and "Traceback" not in err
    assert says in err and "nothing was written" in err, err
    assert not out.exists() or not any(out.iterdir())
