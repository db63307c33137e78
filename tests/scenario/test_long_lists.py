"""A long list of whole numbers (an explicit order of 65,536 tiles) is read at once, with the
answer entry-by-entry decoding gives: every entry that is not a whole number in range still
named by its path; and written back as it is."""

from __future__ import annotations

from gpuviz.models.traversal import TraversalParams
from gpuviz.scenario import decode
from gpuviz.scenario.decode import BAD, decode_dataclass, encode
from gpuviz.scenario.problems import Problem


def _decoded(explicit):
    problems: list[Problem] = []
    got = decode_dataclass(TraversalParams, {"rows": 256, "cols": 256, "explicit": explicit},
                           "traversal", problems)
    return got, [f"{p.path}: {p.message}" for p in problems]


def test_a_long_order_is_read_without_a_step_per_entry(monkeypatch):
    calls = []
    real = decode._decode_scalar
    monkeypatch.setattr(decode, "_decode_scalar",
                        lambda *a: calls.append(a[2]) or real(*a))
    order = list(range(65536))[::-1]
    got, problems = _decoded(order)
    assert not problems and got is not BAD and got.explicit == tuple(order)
    assert not any(path.startswith("traversal.explicit[") for path in calls)
    assert encode(got)["explicit"] == order


def test_each_bad_entry_among_many_is_named_by_its_path():
    order = list(range(65536))
    bad = {100: True, 20000: 2.5, 30000: -1, 40000: 65536, 50000: 1 << 70}
    for i, v in bad.items():
        order[i] = v
    got, problems = _decoded(order)
    assert got is BAD
    assert [p.partition(": ")[0] for p in problems] == [f"traversal.explicit[{i}]" for i in bad]
    for problem, message in zip(problems, ("expected a whole number", "expected a whole number",
                                           "must be at least 0, got -1",
                                           "must be at most 65535, got 65536",
                                           "must be within ±2**62"), strict=True):
        assert message in problem


def test_whole_floats_are_read_as_entry_by_entry_decoding_reads_them():
    got, problems = _decoded([0.0, 1, 2.0])
    assert not problems and got.explicit == (0, 1, 2) and all(type(v) is int for v in got.explicit)
