"""A panel's state finds one measurement: where two shipped cases model the same section (the
scheduler's two operand forms, one lecture's steps measured apart), the first file's case is
shown, so they must be of one device and agree; a file that shadowed another's different
number would be shown under the wrong case without a word."""
from __future__ import annotations

from collections import defaultdict

from gpuviz.measurements import _files, _key, section_of
from gpuviz.scenario.io import decode_section


def test_cases_that_share_a_section_are_one_devices_and_agree_within_1_percent():
    seen: dict[tuple[str, str], list[tuple[str, str, float, str]]] = defaultdict(list)
    for name, data in _files():
        for case in data["cases"]:
            params, problems = decode_section(case["panel"], case["section"])
            if problems or params is None:
                continue
            key = (case["panel"], _key(case["panel"], section_of(case["panel"], params)))
            seen[key].append((name, case["id"], float(case["measured"]), data.get("device", "")))
    shared = [v for v in seen.values() if len(v) > 1]
    assert shared, "the scheduler's two operand forms share their sections"
    for cases in shared:
        assert len({c[3] for c in cases}) == 1, cases
        values = [c[2] for c in cases]
        assert max(values) <= 1.01 * min(values), cases
