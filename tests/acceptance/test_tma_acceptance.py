"""SPEC.md ✔ values of the tma panel, from the bundled scenarios that ask them."""

from __future__ import annotations

from gpuviz.scenario import compute_all, load_scenario
from gpuviz.scenario.bundled import scenario_dir

SCENARIOS = scenario_dir()


def states(name):
    sc = load_scenario(SCENARIOS / name)
    return sc, [compute_all(sc.at_step(k), ("tma",))["tma"] for k in range(-1, len(sc.steps))]


def test_chunk_3_of_row_5_with_128b_swizzle_at_offset_384():
    sc, (_, aligned, shifted) = states("tma-swizzle-offset.json")
    assert sc.steps[1].predict and "offset 384" in sc.steps[1].title
    # element 24 of 2 bytes = byte 48 = chunk 3; row 5 starts at byte 640 of the buffer
    assert aligned.placement[5][24] == 640 + (3 ^ 5) * 16 == 736
    assert shifted.params.smem_offset == 384 and shifted.placement[5][24] == 640 + 3 * 16


def test_each_barrier_expects_both_halves_from_four_copies():
    sc, (_, ask, unicast) = states("tma-multicast.json")
    assert sc.steps[0].predict
    assert (ask.expected_tx_per_cta, ask.copies_per_barrier, ask.issued_bytes_per_cta) == (
        2 * 16384, 4, 16384 // 2 + 16384 // 2)
    assert unicast.expected_tx_per_cta == ask.expected_tx_per_cta
    assert unicast.issued_bytes_per_cta == 2 * 16384


def test_consumer_waits_on_parity_0_in_round_2():
    sc, (_, init, ask, stale) = states("tma-ring-parity.json")
    assert sc.steps[1].predict
    assert [t.wait for t in init.barrier_trace if t.op == "test_wait"][:2] == [True, False]
    round2 = [s for s in ask.ring if s.round == 2]
    assert len(round2) == 3 and {s.full_parity for s in round2} == {0}
    assert stale.ring[0].outcome == "stale read"


def test_an_interleaved_box_writes_and_must_expect_256_bytes():
    sc, (_, ask, short, right) = states("tma-interleave.json")
    assert sc.steps[0].predict
    assert ask.box_bytes == 128 and ask.transaction_bytes == 2 * 8 * 16 == 256
    assert short.barrier_trace[-1].uncertain
    last = right.barrier_trace[-1]
    assert last.wait and not last.uncertain
