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
