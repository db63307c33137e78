"""The tma model against the CUDA driver's ``cuTensorMapEncodeTiled`` rules and the PTX ISA's
mbarrier, swizzle and multicast rules, written out here independently of the model."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from gpuviz.models import tma
from gpuviz.models.tma import TmaCluster, TmaEvent, TmaParams, TmaPipeline

BASE = TmaParams()


def refused(**changes):
    r = tma.compute(replace(BASE, **changes))
    assert not r.tensor_map_valid
    return r.tensor_map_problems


def test_default_map_is_accepted():
    r = tma.compute(BASE)
    assert r.tensor_map_valid and r.tensor_map_problems == ()
    assert r.box_bytes == 64 * 8 * 2


def test_each_driver_rule_names_its_field():
    assert any(m.startswith("box_dims[0]") and "swizzle span" in m
               for m in refused(box_dims=(128, 8)))  # 256 inner bytes > 128
    assert any(m.startswith("box_dims[1]") for m in refused(box_dims=(64, 257)))
    assert any(m.startswith("box_dims[0]") and "multiple of 16" in m
               for m in refused(box_dims=(4, 8), swizzle="none"))  # 8 bytes
    assert any(m.startswith("global_offset") for m in refused(global_offset=8))
    assert any(m.startswith("global_strides[0]") and "multiple of 16" in m
               for m in refused(global_strides=(520,)))
    assert any(m.startswith("global_strides[0]") and "2^40" in m
               for m in refused(global_strides=(1 << 40,)))
    assert any(m.startswith("element_strides[1]") for m in refused(element_strides=(1, 9)))
    assert any(m.startswith("global_dims") and "rank" in m
               for m in refused(global_dims=(2,) * 6, box_dims=(8,) * 6, box_start=(0,) * 6))
    assert any(m.startswith("global_dims[1]") for m in refused(global_dims=(256, 0)))
    # the driver encodes interleave 32B with the 128B swizzle (measured on Hopper)
    assert tma.compute(replace(BASE, interleave="32B", swizzle="128B", global_dims=(64, 8, 8),
                               box_dims=(64, 8, 8), box_start=(0, 0, 0))).tensor_map_valid


def test_boxes_whose_copy_faults_on_hopper_are_named_by_field():
    # an innermost start of 4 bytes, and a 128B-swizzled 32-byte inner box: both encode, both
    # fault when copied (resources/measurements/tma/h100-tma.json)
    r = tma.compute(replace(BASE, box_start=(2, 0)))
    assert r.tensor_map_valid and r.copy_faults[0].startswith("box_start[0]")
    r = tma.compute(replace(BASE, swizzle="128B", box_dims=(16, 8)))
    assert r.tensor_map_valid and any(m.startswith("box_dims[0]") for m in r.copy_faults)
    assert not tma.compute(replace(BASE, box_start=(8, 0))).copy_faults


def test_interleave_32b_address_alignment_is_32():
    three = dict(global_dims=(64, 8, 8), box_dims=(16, 8, 8), box_start=(0, 0, 0),
                 interleave="32B", swizzle="32B")
    assert any(m.startswith("global_offset") for m in refused(global_offset=16, **three))
    assert tma.compute(replace(BASE, global_offset=16)).tensor_map_valid


def swizzled(a, mode):
    m = {"none": 0, "32B": 1, "64B": 3, "128B": 7}[mode]
    return a ^ (((a >> 7) & m) << 4)


@settings(max_examples=60, deadline=None)
@given(mode=st.sampled_from(["none", "32B", "64B", "128B"]),
       eb=st.sampled_from([1, 2, 4, 8]), rows=st.integers(1, 12),
       lines=st.integers(0, 16))
def test_placement_is_the_swizzle_of_the_absolute_address(mode, eb, rows, lines):
    inner = {"none": 128, "32B": 32, "64B": 64, "128B": 128}[mode] // eb
    p = replace(BASE, element_bytes=eb, box_dims=(inner, rows), swizzle=mode,
                smem_offset=128 * lines)
    r = tma.compute(p)
    assert r.tensor_map_valid
    flat = [o for row in r.placement for o in row]
    assert len(flat) == inner * rows and len(set(flat)) == len(flat)  # a permutation
    for k, o in enumerate(flat):
        assert o == swizzled(p.smem_offset + k * eb, mode) - p.smem_offset
        assert o // 128 == (k * eb) // 128  # the swizzle stays within its 128-byte line


def test_chunk_3_of_row_5_at_offset_384():
    """Aligned to 1024, row 5's chunk 3 goes to chunk 3 ^ 5 = 6; at offset 384 the row sits at
    absolute line 8, phase 0 of the pattern: chunk 3 stays."""
    at0 = tma.compute(BASE).placement[5][24]  # element 24 = byte 48 = chunk 3 of row 5
    at384 = tma.compute(replace(BASE, smem_offset=384)).placement[5][24]
    assert at0 == 5 * 128 + 6 * 16 and at384 == 5 * 128 + 3 * 16


def test_zero_fill_with_negative_start():
    p = replace(BASE, global_dims=(104, 10), box_dims=(64, 8), box_start=(-8, 6))
    z = tma.compute(p).zero_filled
    assert all(z[r][j] == (j < 8 or 6 + r >= 10 or -8 + j >= 104)
               for r in range(8) for j in range(64))
    assert z[0][8] is False and z[4][8] is True


def run(count, *events):
    p = replace(BASE, barrier=tma.TmaBarrier(count=count, events=tuple(events)))
    return tma.compute(p).barrier_trace


def test_phase_completes_only_at_zero_pending_and_zero_tx():
    t = run(2, TmaEvent("arrive_expect_tx", bytes=1024), TmaEvent("copy"),
            TmaEvent("test_wait", parity=0), TmaEvent("arrive"), TmaEvent("test_wait", parity=0))
    assert [s.completed for s in t] == [False, False, False, True, False]
    assert (t[1].pending, t[1].tx) == (1, 0)  # bytes in, one arrival still missing
    assert t[2].wait is False and t[4].wait is True
    assert (t[3].phase, t[3].pending, t[3].tx) == (1, 2, 0)  # pending reset to the count


def test_complete_tx_before_expect_tx_goes_negative():
    t = run(1, TmaEvent("complete_tx", bytes=512), TmaEvent("arrive_expect_tx", bytes=512))
    assert t[0].tx == -512 and not t[0].completed
    assert t[1].completed and t[1].phase == 1


def test_parity_at_init():
    t = run(1, TmaEvent("test_wait", parity=0), TmaEvent("test_wait", parity=1))
    assert (t[0].wait, t[1].wait) == (False, True)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 3), min_size=1, max_size=30))
def test_parity_wait_follows_completed_phases(ops):
    events = [(TmaEvent("arrive"), TmaEvent("test_wait", parity=0),
               TmaEvent("test_wait", parity=1), TmaEvent("arrive_expect_tx", bytes=16))[o]
              for o in ops]
    phase = 0
    for s in run(1, *events):
        assert s.phase >= phase and s.phase - phase == int(s.completed)
        phase = s.phase
    t = run(1, *events)
    for e, s in zip(events, t, strict=True):
        if e.op == "test_wait":
            assert s.wait == (s.phase % 2 != e.parity)


def test_multicast_2x2_expects_both_halves_from_four_copies():
    p = replace(BASE, cluster=TmaCluster(dims=(2, 2, 1), multicast=True, a_bytes=16384,
                                         b_bytes=16384))
    r = tma.compute(p)
    assert r.expected_tx_per_cta == 32768  # not the 16384 a CTA issues itself
    assert r.copies_per_barrier == 4 and r.issued_bytes_per_cta == 16384


def test_resident_clusters_are_bound_by_gpcs():
    r = tma.compute(replace(BASE, cluster=TmaCluster(dims=(16, 1, 1))))
    # the H100 SXM's measured groups (18, 18, 16 × 5, 8, 2 × 4 SMs): one 16-CTA cluster in
    # each of the seven of 16 or more SMs, none in the 8 or the pairs, not 132 // 16
    assert r.max_active_clusters == 7 and r.max_active_clusters_naive == 8
    r = tma.compute(replace(BASE, cluster=TmaCluster(dims=(3, 1, 1))))
    assert r.max_active_clusters == 2 * 6 + 5 * 5 + 2 == 39 < r.max_active_clusters_naive == 44


def test_presets_without_measured_groups_spread_their_sms_evenly():
    r = tma.compute(replace(BASE, arch="h200", cluster=TmaCluster(dims=(16, 1, 1))))
    assert not r.cluster_groups_measured and r.cluster_groups == (17, 17, 17, 17, 16, 16, 16, 16)
    assert r.max_active_clusters == 8


def test_a_cluster_launch_holds_at_most_eight_ctas_an_sm_on_the_h100():
    r = tma.compute(replace(BASE, cluster=TmaCluster(dims=(1, 1, 1), blocks_per_sm=16)))
    assert r.cluster_blocks_per_sm == 8 and r.max_active_clusters == 1056


def ring(mistake, consumers=1):
    return tma.compute(replace(BASE, pipeline=TmaPipeline(stages=3, consumers=consumers,
                                                          iterations=7, mistake=mistake)))


def test_ring_stage_and_parities_wrap():
    r = ring("none").ring
    assert [s.stage for s in r] == [0, 1, 2, 0, 1, 2, 0]
    assert [s.full_parity for s in r] == [0, 0, 0, 1, 1, 1, 0]  # round 2 waits on parity 0
    assert [s.empty_parity for s in r] == [1, 1, 1, 0, 0, 0, 1]
    assert all(s.outcome == "ok" for s in r)


def test_ring_mistakes_have_their_consequence():
    assert ring("expect_tx_small").ring[0].outcome == "stale read"
    assert ring("stale_parity").ring[0].outcome == "stale read"
    hang = ring("expect_tx_large").ring
    assert hang[-1].outcome == "hang" and len(hang) == 1
    assert ring("wrong_count").ring[3].outcome == "hang"
    assert ring("wrong_count", consumers=2).ring[3].outcome == "overwrite under a reader"
    assert ring("early_release").ring[3].outcome == "overwrite under a reader"
    assert "hang" in ring("expect_tx_twice").consequence


def test_cp_async_visibility():
    p = replace(BASE, cp_async=tma.TmaCpAsync(groups=3, wait_group=1, synced=False))
    assert tma.compute(p).cp_async == (("visible", "pending"),) * 2 + (("pending", "pending"),)
    p = replace(BASE, cp_async=tma.TmaCpAsync(groups=3, wait_group=1, synced=True))
    assert tma.compute(p).cp_async[0] == ("visible", "visible")


def test_problems_name_their_path():
    assert tma.problems(replace(BASE, smem_offset=64))[0][0] == "smem_offset"
    assert tma.problems(replace(BASE, smem_offset=64, swizzle="none")) == []


def test_a_stale_parity_breaks_every_iteration_and_names_the_parity_waited_on():
    """Waiting on last round's parity is true at once in every round, not only the first: each
    read comes before its copy lands. The ring names the parity the consumer does wait on."""
    r = ring("stale_parity").ring
    assert all(s.outcome == "stale read" for s in r)
    assert [s.waited for s in r] == [(s.round + 1) % 2 for s in r]
    assert all(s.waited != s.full_parity for s in r)
    assert all(s.waited == s.full_parity for s in ring("none").ring)


def test_chips_before_hopper_hold_no_clusters():
    # clusters need compute capability 9.0: an A100's 108 SMs in 7 GPCs gave 24 before
    for arch in ("a100", "v100", "mi300x"):
        r = tma.compute(replace(BASE, arch=arch))
        assert r.max_active_clusters == 0 and r.cluster_groups == (), arch


INTERLEAVED = replace(BASE, element_bytes=2, global_dims=(8, 12, 6), box_dims=(8, 4, 2),
                      interleave="16B", swizzle="none", box_start=(0, 1, 1))


def test_an_interleaved_box_copies_runs_of_whole_chunks():
    # box dimension 0 counts 16-byte chunks: 8 of them a run, one run for each z; box
    # dimension 1 adds none (the rule measured on an H100)
    r = tma.compute(INTERLEAVED)
    assert r.box_bytes == 8 * 4 * 2 * 2 and r.transaction_bytes == 8 * 16 * 2
    assert [len(row) for row in r.placement] == [64, 64]
    assert r.placement[1][0] == 128 and not any(any(row) for row in r.zero_filled)
    # a run at a z outside the tensor is zeros, the other run not
    r = tma.compute(replace(INTERLEAVED, box_start=(0, 1, 5)))
    assert [all(row) for row in r.zero_filled] == [False, True]
    r = tma.compute(replace(INTERLEAVED, swizzle="32B"))
    assert r.placement[1][:8] == tuple(144 + 2 * j for j in range(8))  # chunk 0 of line 1 → 1


def test_the_copy_of_an_interleaved_box_completes_the_bytes_it_writes():
    def last(expect):
        events = (TmaEvent("arrive_expect_tx", bytes=expect), TmaEvent("copy"),
                  TmaEvent("test_wait", parity=0))
        p = replace(INTERLEAVED, barrier=replace(BASE.barrier, count=1, events=events))
        return tma.compute(p).barrier_trace[-1]

    assert last(256).wait and not last(256).uncertain
    # more than the copy writes: the count stays positive, the wait never ends
    assert not last(272).wait and not last(272).uncertain
    # the box's 128 bytes: the copy's parts pass the count, the phase may complete early or
    # never — the model says so rather than pick one
    assert last(128).uncertain and last(128).tx == 128 - 256
    # arrivals not yet done when the copy lands: the count settles before they are
    events = (TmaEvent("expect_tx", bytes=128), TmaEvent("copy"), TmaEvent("arrive"))
    p = replace(INTERLEAVED, barrier=replace(BASE.barrier, count=1, events=events))
    assert not any(s.uncertain for s in tma.compute(p).barrier_trace)


def test_interleaved_boxes_not_measured_are_not_placed_and_say_why():
    four = tma.compute(replace(INTERLEAVED, global_dims=(8, 12, 6, 2), box_dims=(8, 4, 2, 2),
                               box_start=(0, 1, 1, 0)))
    assert four.tensor_map_valid and four.placement == ()
    assert "rank 4 or 5" in tma.tm.not_placed(four.params)
    strided = tma.compute(replace(INTERLEAVED, element_strides=(1, 2, 1)))
    assert strided.placement == () and "element strides" in tma.tm.not_placed(strided.params)
