"""SPEC.md `barrier` behaviour, computed from the bundled scenarios that show it."""


from gpuviz.models.jsonable import to_jsonable
from gpuviz.scenario import compute_all, load_scenario
from gpuviz.scenario.bundled import scenario_dir

SCENARIOS = scenario_dir()


def result(name, step=-1):
    return compute_all(load_scenario(SCENARIOS / name).at_step(step), ("barrier",))["barrier"]


def kinds(r):
    return {h.kind for h in r.hazards}


def test_both_barriers_are_safe():
    r = result("barrier-two-barriers.json", step=0)
    assert r.safe and not r.hazards


def test_without_the_first_barrier_a_consumer_reads_before_the_write():
    r = result("barrier-missing-first.json")
    assert kinds(r) == {"read_before_write"}
    h = r.hazards[0]
    assert (h.threads, h.address) == ((0, 1), 1)
    assert result("barrier-two-barriers.json", step=1).hazards[0].threads == (0, 1)


def test_a_lockstep_interleaving_can_hide_the_missing_barrier():
    assert result("barrier-two-barriers.json", step=2).safe


def test_without_the_second_barrier_a_producer_overwrites_before_the_read():
    r = result("barrier-missing-second.json")
    assert [(h.kind, h.threads, h.address) for h in r.hazards] == [
        ("write_before_read", (2, 3), 3)]
    assert result("barrier-missing-second.json", step=1).safe


def test_out_of_range_zeros_are_safe_and_early_return_breaks_the_contract():
    zeros = result("barrier-early-return.json", step=0)
    assert zeros.safe
    early = result("barrier-early-return.json", step=1)
    assert early.contract_broken and not early.safe
    assert kinds(early) == {"uninitialised_read"}


def test_results_carry_the_documented_keys():
    data = to_jsonable(result("barrier-missing-first.json"))
    assert {"events", "hazards", "safe"} <= set(data)
    assert {"kind", "threads", "address"} <= set(data["hazards"][0])


def test_the_hand_picked_interleaving_has_the_hazards_its_caption_counts():
    """barrier-missing-first step 2 named only tile 0's two early readers; the hazard list the
    room sees beside it holds five, three of them in tile 1."""
    r = result("barrier-missing-first.json", step=1)
    assert [(h.threads, h.tile) for h in r.hazards][:2] == [((1, 2), 0), ((2, 3), 0)]
    assert sum(h.tile == 1 for h in r.hazards) == 3 and len(r.hazards) == 5
    step = load_scenario(SCENARIOS / "barrier-missing-first.json").steps[1]
    assert "three readers of tile 1" in step.caption and "five hazards" in step.caption
