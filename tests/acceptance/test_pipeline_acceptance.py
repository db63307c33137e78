"""SPEC.md `pipeline` ✔ values, computed from the bundled scenarios that show them."""


from gpuviz.models.jsonable import to_jsonable
from gpuviz.scenario import compute_all, load_scenario
from gpuviz.scenario.bundled import scenario_dir

SCENARIOS = scenario_dir()


def result(name, step=-1):
    return compute_all(load_scenario(SCENARIOS / name).at_step(step), ("pipeline",))["pipeline"]


def test_compute_slower_than_loading_a_loaded_tile_waits():
    r = result("pipeline-double-buffer.json")
    waits = [w for w in r.waits if w.kind == "tile_waits_for_compute"]
    assert waits and waits[0].tile == 1
    assert r.tiles[1].load_end < r.tiles[1].compute_start


def test_loading_two_tiles_ahead_waits_for_that_slots_previous_consumer():
    r = result("pipeline-two-ahead.json")
    wait = next(w for w in r.waits if w.kind == "load_waits_for_slot")
    assert (wait.tile, wait.slot) == (2, 0)
    assert wait.end == r.tiles[0].compute_end == r.tiles[2].load_start


def test_a_third_slot_removes_that_wait():
    r = result("pipeline-two-ahead.json", step=1)
    assert not [w for w in r.waits if w.kind == "load_waits_for_slot" and w.tile == 2]


def test_one_buffer_serialises_and_two_overlap():
    assert result("pipeline-double-buffer.json", step=0).total_time == 30
    assert result("pipeline-double-buffer.json", step=1).total_time == 20


def test_enough_buffers_total_is_the_shorter_plus_n_times_the_longer():
    """The lecture's title is its closed form for both of its uniform steps: compute-bound
    (2 + 16 × 3) and load-bound (16 × 3 + the last compute's 2); "load + n · max" held only
    for the first and gave 51 for the second."""
    scenario = load_scenario(SCENARIOS / "pipeline-closed-form.json")
    assert "min(load, compute) + n · max(load, compute)" in scenario.title
    for k in (-1, 0, 1):
        p = scenario.at_step(k).section("pipeline")
        r = result("pipeline-closed-form.json", step=k)
        closed = min(p.load_time, p.compute_time) + p.tiles * max(p.load_time, p.compute_time)
        assert r.total_time == closed == 50


def test_results_carry_the_documented_keys():
    data = to_jsonable(result("pipeline-double-buffer.json"))
    assert {"total_time", "tiles", "waits", "load_busy", "compute_busy"} <= set(data)
    assert {"slot", "load_start", "load_end", "compute_start", "compute_end"} <= set(
        data["tiles"][0])
