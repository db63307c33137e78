"""Architecture presets: complete, sourced, and consistent with what they describe."""

import json

import pytest

from gpuviz.models import arch

EXPECTED_PRESETS = {"v100", "a100", "h100-sxm", "h200", "mi300x"}


def test_the_five_presets_are_bundled():
    assert set(arch.preset_names()) >= EXPECTED_PRESETS


@pytest.mark.parametrize("name", sorted(EXPECTED_PRESETS))
def test_every_value_names_its_source(name):
    fields = arch.load_preset(name)["fields"]
    assert set(fields) == set(arch.ARCH_KEYS)
    for key, entry in fields.items():
        assert set(entry) == {"value", "source"}, key
        assert isinstance(entry["source"], str) and len(entry["source"]) >= 10, key


@pytest.mark.parametrize("name", sorted(EXPECTED_PRESETS))
def test_preset_header(name):
    data = arch.load_preset(name)
    assert data["vendor"] in ("nvidia", "amd")
    assert arch.preset_title(name) == data["name"]


@pytest.mark.parametrize("name", ["v100", "a100", "h100-sxm", "h200"])
def test_nvidia_sm_limits_are_consistent(name):
    v = arch.preset_values(name)
    assert v["max_warps_per_sm"] * v["warp_size"] == v["max_threads_per_sm"]
    assert v["shared_memory_per_block_optin"] <= v["shared_memory_per_sm"]
    assert v["registers_per_sm"] % (v["scheduler_partitions"] * v["register_allocation_unit"]) == 0


def test_seed_anchor_values():
    # "SIMT and GPUs": V100 had 80 SMs, 6 MB L2 and 900 GB/s; A100 108 SMs, 40 MB and 1,555 GB/s;
    # GV100 through Volta: 64 warps, 65,536 registers, at most 255 registers per thread.
    assert arch.preset_values("v100")["sm_count"] == 80
    assert arch.preset_values("v100")["l2_bytes"] == 6 * 1024 * 1024
    assert arch.preset_values("v100")["memory_bandwidth_gbps"] == 900
    assert arch.preset_values("a100")["sm_count"] == 108
    assert arch.preset_values("a100")["l2_bytes"] == 40 * 1024 * 1024
    assert arch.preset_values("a100")["memory_bandwidth_gbps"] == 1555
    assert arch.preset_values("v100")["max_warps_per_sm"] == 64
    assert arch.preset_values("v100")["registers_per_sm"] == 65536
    assert arch.preset_values("v100")["max_registers_per_thread"] == 255
    assert arch.preset_values("mi300x")["warp_size"] == 64


def test_h200_preset_agrees_with_the_measured_device(measured_device):
    v = arch.preset_values("h200")
    assert v["sm_count"] == measured_device["sm_count"]
    assert v["registers_per_sm"] == measured_device["registers_per_sm"]
    assert v["shared_memory_per_sm"] == measured_device["shared_memory_per_sm"]
    assert v["shared_memory_per_block_optin"] == measured_device["shared_memory_per_block_optin"]
    reserved = measured_device["reserved_shared_memory_per_block"]
    assert v["shared_memory_reserved_per_block"] == reserved
    assert v["max_blocks_per_sm"] == measured_device["max_blocks_per_sm"]
    assert v["l2_bytes"] == measured_device["l2_cache_size"]


@pytest.fixture
def measured_device():
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "data" / "occupancy_measured.json"
    return json.loads(path.read_text(encoding="utf-8"))["device"]


def test_unknown_preset_is_a_key_error():
    with pytest.raises(KeyError):
        arch.load_preset("gv999")
