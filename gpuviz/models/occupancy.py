"""Occupancy: how many blocks of a kernel are resident on one SM, and which resource stops more.

Rules (source text "SIMT and GPUs", *Occupancy limits* and *Computing occupancy*; CUDA C++ Programming
Guide, *Technical Specifications per Compute Capability*; the allocation rules of the CUDA
Occupancy Calculator, ``cuda_occupancy.h``). Resident blocks per SM are the minimum of four
limits, each computed for a block of T threads:

- warps: ``⌊W / w⌋`` with ``w = ⌈T / warp size⌉`` and W the SM's warp slots; 0 if T exceeds the
  block-size limit.
- registers: registers are allocated per *warp*, ``r · 32`` rounded up to the allocation unit
  (256 on compute capability 7.x–9.x), and split evenly over the SM's scheduler partitions:
  ``⌊(R_SM / 4) / regs_per_warp⌋ · 4`` warps fit, so ``⌊that / w⌋`` blocks. A block whose
  registers, with its warps rounded up to a multiple of the four partitions, exceed the per-block
  register limit cannot launch at all (0 blocks); nor can more than 255 registers per thread.
- shared memory: static + dynamic + the per-block reservation (1 KiB on sm_80 and later), rounded
  up to the allocation unit (128 B on sm_80+, 256 B before), divided into the shared memory the
  SM is configured with; 0 if a block would need more than the opt-in maximum. With no carveout
  preference that is the maximum. With a preference of c % (``shared_memory_carveout``,
  cudaFuncAttributePreferredSharedMemoryCarveout) it is ``c · maximum / 100`` raised to what one
  block needs, rounded up to the next size the SM supports (9.0: 0, 8, 16, 32, 64, 100, 132,
  164, 196, 228 KiB) — equal to the occupancy API's answer in all 3,136 cases measured on an H200
  (``resources/measurements/h200-occupancy-carveout.json``).
  The kernel is assumed to have opted in (``cudaFuncSetAttribute``) when it uses over 48 KB.
- blocks: the architecture's resident-block limit.

Occupancy is resident warps over the SM's warp slots. With 65,536 registers and 512-thread
blocks, 64 registers per thread fit two blocks (32 warps) and 65 only one (16 warps). The model
equals ``cudaOccupancyMaxActiveBlocksPerMultiprocessor`` on an H200 for every case measured by
``tools/occupancy_probe.cu`` (``tests/data/occupancy_measured.json``). It applies NVIDIA's rules
only; the AMD CDNA 3 preset is refused with a reason.
"""

from dataclasses import dataclass

import numpy as np

from gpuviz.models.arch import (
    DEFAULT_ARCH,
    load_preset,
    preset_names,
    preset_title,
    preset_values,
)
from gpuviz.models.jsonable import not_in_json
from gpuviz.models.params import param

#: Resource names in the order the limiter is reported when several tie.
RESOURCES = ("warps", "registers", "shared_memory", "blocks")
UNLIMITED = np.iinfo(np.int64).max


@dataclass(frozen=True)
class OccupancyParams:
    arch: str | None = param(
        None, doc="Architecture preset; empty means the scenario's architecture.",
        choices=preset_names())
    threads_per_block: int = param(512, doc="Threads per block.", minimum=1, maximum=1024)
    registers_per_thread: int = param(
        64, doc="Registers per thread the compiler allocated (cudaFuncGetAttributes numRegs).",
        minimum=1, maximum=255)
    static_shared_memory: int = param(
        0, doc="Static shared memory per block in bytes (__shared__ arrays).",
        minimum=0, maximum=48 * 1024)
    dynamic_shared_memory: int = param(
        0, doc="Dynamic shared memory per block in bytes (the launch's third argument).",
        minimum=0, maximum=1 << 20)
    registers_per_sm: int | None = param(
        None, doc="Override the preset's register file per SM (32-bit registers).",
        minimum=1024, maximum=1 << 20)
    shared_memory_per_sm: int | None = param(
        None, doc="Override the preset's shared memory per SM in bytes.",
        minimum=0, maximum=1 << 22)
    max_warps_per_sm: int | None = param(
        None, doc="Override the preset's warp slots per SM.", minimum=1, maximum=256)
    max_blocks_per_sm: int | None = param(
        None, doc="Override the preset's resident-block limit per SM.", minimum=1, maximum=256)
    shared_memory_carveout: int | None = param(
        None, doc="Preferred shared-memory carveout in percent of the SM's maximum "
                  "(cudaFuncAttributePreferredSharedMemoryCarveout); empty: no preference, "
                  "the maximum.", minimum=0, maximum=100)


PARAMS = OccupancyParams

#: Shared-memory sizes an SM can be configured with, by compute capability, in KiB (CUDA Toolkit
#: cuda_occupancy.h, cudaOccAlignUpShmemSizeVoltaPlus).
CARVEOUT_CONFIGS_KIB = {
    "7.0": (0, 8, 16, 32, 64, 96),
    "8.0": (0, 8, 16, 32, 64, 100, 132, 164),
    "9.0": (0, 8, 16, 32, 64, 100, 132, 164, 196, 228),
}

OVERRIDES = ("registers_per_sm", "shared_memory_per_sm", "max_warps_per_sm", "max_blocks_per_sm")


@dataclass(frozen=True)
class OccupancyResult:
    arch: str
    arch_title: str
    threads_per_block: int
    registers_per_thread: int
    static_shared_memory: int
    dynamic_shared_memory: int
    warps_per_block: int
    max_warps_per_sm: int
    registers_per_warp_allocated: int
    shared_memory_per_block_allocated: int
    shared_memory_reserved_per_block: int  # the architecture's reservation, in the allocation
    shared_memory_carveout: int | None  # the preference in percent; None: no preference
    shared_memory_config: int  # bytes of shared memory the SM is configured with (carveout)
    # what the hardware keeps: the driver may configure more shared memory than the preference
    # the occupancy API assumes (driver_carveout_bytes); equal to the above without a preference
    driver_shared_memory_config: int
    resident_blocks_per_sm: int
    limits: dict  # resource -> blocks it allows (None = no limit)
    limiter: str
    limiters: tuple[str, ...]
    active_blocks_per_sm: int
    active_warps_per_sm: int
    active_threads_per_sm: int
    occupancy: float
    # cliff curves for the figure: resident warps as one input varies, the others fixed
    registers_axis: np.ndarray = not_in_json()
    warps_vs_registers: np.ndarray = not_in_json()
    threads_axis: np.ndarray = not_in_json()
    warps_vs_threads: np.ndarray = not_in_json()
    shared_axis: np.ndarray = not_in_json()
    warps_vs_shared: np.ndarray = not_in_json()


def arch_values(params: OccupancyParams) -> dict:
    """The preset's values with the section's overrides applied."""
    values = preset_values(params.arch or DEFAULT_ARCH)
    for name in OVERRIDES:
        override = getattr(params, name)
        if override is not None:
            values[name] = override
    values["max_threads_per_sm"] = values["max_warps_per_sm"] * values["warp_size"]
    values["shared_memory_carveout"] = params.shared_memory_carveout
    values["_carveout_configs"] = CARVEOUT_CONFIGS_KIB.get(
        str(load_preset(params.arch or DEFAULT_ARCH).get("compute_capability")))
    return values


def carveout_bytes(values: dict, allocated_per_block) -> np.ndarray:
    """Shared memory the SM is configured with for this kernel (measured with the occupancy API
    on an H200, resources/measurements/): the preference, ``carveout % × maximum`` (integer
    bytes), raised to what one block needs, then rounded up to the next size the SM supports.
    No preference (None) gives the maximum."""
    top = values["shared_memory_per_sm"]
    pref = values.get("shared_memory_carveout")
    configs = values.get("_carveout_configs")
    a = np.asarray(allocated_per_block, dtype=np.int64)
    if pref is None or not configs:
        return np.full(a.shape, top, dtype=np.int64)
    sizes = np.array([c * 1024 for c in configs if c * 1024 <= top] + [top], dtype=np.int64)
    sizes = np.unique(sizes)
    want = np.maximum(pref * top // 100, a)
    pos = np.minimum(np.searchsorted(sizes, want, side="left"), len(sizes) - 1)
    return sizes[pos]


def driver_carveout_bytes(values: dict, allocated_per_block, other_limit) -> np.ndarray:
    """Shared memory the driver really configures for a launch under a carveout preference, as
    measured on an H100 and an H200 (driver 580.159.04; 648 cases on an H100 counted block by
    block, ``resources/measurements/h100-carveout-choice.json``, and 96 on an H200): the driver
    reads the preference as shared memory for the blocks' own data (static + dynamic) and adds the
    per-block reservation on top, for as many blocks as the preference holds (at most
    ``other_limit``, what warps, registers and the block limit allow; all of them when a block
    uses no shared memory): ``max(preference, n · allocated)`` with
    ``n = min(other_limit, ⌊preference / own bytes⌋)``,
    raised to one block and rounded up to the next size the SM supports. The occupancy API counts
    the reservation inside the preference, so it can answer fewer blocks than the SM keeps; it
    never answers more (the driver's size is never below the API's)."""
    top = values["shared_memory_per_sm"]
    pref = values.get("shared_memory_carveout")
    configs = values.get("_carveout_configs")
    a = np.asarray(allocated_per_block, dtype=np.int64)
    if pref is None or not configs:
        return np.full(a.shape, top, dtype=np.int64)
    sizes = np.unique(np.array([c * 1024 for c in configs if c * 1024 <= top] + [top],
                               dtype=np.int64))
    want = pref * top // 100
    own = np.maximum(a - values["shared_memory_reserved_per_block"], 0)
    other = np.minimum(np.asarray(other_limit, dtype=np.int64), 1 << 20)
    n = np.where(own == 0, other, np.minimum(other, want // np.maximum(own, 1)))
    want = np.maximum(np.maximum(want, n * a), a)
    pos = np.minimum(np.searchsorted(sizes, want, side="left"), len(sizes) - 1)
    return sizes[pos]


def problems(params: OccupancyParams) -> list[tuple[str, str]]:
    name = params.arch or DEFAULT_ARCH
    values = preset_values(name)
    if values["register_allocation_unit"] is None:
        return [("arch", "The occupancy panel applies NVIDIA's allocation rules; "
                         f"{preset_title(name)} allocates registers differently. "
                         "Choose an NVIDIA preset.")]
    if params.registers_per_thread > values["max_registers_per_thread"]:
        return [("registers_per_thread",
                 f"A thread may use at most {values['max_registers_per_thread']} registers.")]
    return []


# the field a user changes for each resource that allows no block
_LIMITER_FIELD = {"registers": "registers_per_thread", "shared_memory": "dynamic_shared_memory",
                  "warps": "threads_per_block", "blocks": "threads_per_block"}


def warnings(params: OccupancyParams) -> list[tuple[str, str]]:
    """A block that no SM can hold is computed (0 resident blocks) but cannot be launched:
    the launch fails with cudaErrorLaunchOutOfResources (CUDA C++ Programming Guide,
    *Occupancy Calculator*; CUDA Runtime API, error codes)."""
    r = compute(params)
    if r.active_blocks_per_sm:
        return []
    names = " and ".join(k.replace("_", " ") for k in r.limiters)
    return [(_LIMITER_FIELD.get(r.limiters[0], ""),
             f"no block fits on an SM: its {names} allow none, so a launch of this block "
             "fails (cudaErrorLaunchOutOfResources)")]


def blocks_per_sm(values: dict, registers, threads, static_shared, dynamic_shared) -> dict:
    """Blocks each resource allows, as int64 arrays broadcast over the inputs
    (:data:`UNLIMITED` where a resource sets no limit)."""
    r = np.asarray(registers, dtype=np.int64)
    t = np.asarray(threads, dtype=np.int64)
    s_static = np.asarray(static_shared, dtype=np.int64)
    s_dyn = np.asarray(dynamic_shared, dtype=np.int64)
    warp = values["warp_size"]
    w = -(-t // warp)

    by_warps = np.where(t > values["max_threads_per_block"], 0,
                        values["max_warps_per_sm"] // np.maximum(w, 1))

    unit = values["register_allocation_unit"]
    parts = values["scheduler_partitions"]
    per_warp = -(-(r * warp) // unit) * unit
    assumed = per_warp * (-(-w // parts) * parts)
    per_block = values["registers_per_block"]
    fits = (assumed <= per_block) & (per_warp * w <= per_block)
    fits &= r <= values["max_registers_per_thread"]
    warps_by_regs = (values["registers_per_sm"] // parts) // np.maximum(per_warp, 1) * parts
    by_regs = np.where(per_warp == 0, UNLIMITED,
                       np.where(fits, warps_by_regs // np.maximum(w, 1), 0))

    reserved = values["shared_memory_reserved_per_block"]
    granule = values["shared_memory_allocation_unit"]
    used = s_static + s_dyn + reserved
    allocated = -(-used // granule) * granule
    block_max = values["shared_memory_per_block_optin"] + reserved
    by_shared = np.where(allocated > block_max, 0,
                         np.where(allocated == 0, UNLIMITED,
                                  carveout_bytes(values, allocated) // np.maximum(allocated, 1)))

    by_blocks = np.full(np.broadcast(r, t, s_static, s_dyn).shape, values["max_blocks_per_sm"],
                        dtype=np.int64)
    # what the SM keeps under the driver's own carveout choice (driver_carveout_bytes)
    other = np.minimum(np.minimum(by_warps, by_regs), by_blocks)
    driver_config = driver_carveout_bytes(values, allocated, other)
    by_shared_driver = np.where(allocated > block_max, 0,
                                np.where(allocated == 0, UNLIMITED,
                                         driver_config // np.maximum(allocated, 1)))
    return {"warps": by_warps, "registers": by_regs, "shared_memory": by_shared,
            "blocks": by_blocks, "_per_warp": per_warp, "_allocated": allocated,
            "_driver_config": driver_config,
            "_resident": np.minimum(other, by_shared_driver)}


def _active_warps(values: dict, registers, threads, static_shared, dynamic_shared) -> np.ndarray:
    lim = blocks_per_sm(values, registers, threads, static_shared, dynamic_shared)
    blocks = np.minimum.reduce([np.broadcast_to(lim[k], lim["blocks"].shape) for k in RESOURCES])
    warps = -(-np.asarray(threads, dtype=np.int64) // values["warp_size"])
    return blocks * warps


def compute(params: OccupancyParams) -> OccupancyResult:
    values = arch_values(params)
    name = params.arch or DEFAULT_ARCH
    r, t = params.registers_per_thread, params.threads_per_block
    s_static, s_dyn = params.static_shared_memory, params.dynamic_shared_memory
    lim = blocks_per_sm(values, r, t, s_static, s_dyn)
    limits = {k: (None if int(lim[k]) == UNLIMITED else int(lim[k])) for k in RESOURCES}
    blocks = min(int(lim[k]) for k in RESOURCES)
    limiters = tuple(k for k in RESOURCES if int(lim[k]) == blocks)
    warps_per_block = -(-t // values["warp_size"])
    active_warps = blocks * warps_per_block

    reg_axis = np.arange(1, values["max_registers_per_thread"] + 1, dtype=np.int64)
    thread_axis = np.arange(1, values["max_threads_per_block"] + 1, dtype=np.int64)
    granule = values["shared_memory_allocation_unit"]
    shared_top = values["shared_memory_per_block_optin"] - s_static
    shared_axis = np.arange(0, shared_top + 1, granule, dtype=np.int64)
    return OccupancyResult(
        arch=name,
        arch_title=preset_title(name),
        threads_per_block=t,
        registers_per_thread=r,
        static_shared_memory=s_static,
        dynamic_shared_memory=s_dyn,
        warps_per_block=warps_per_block,
        max_warps_per_sm=values["max_warps_per_sm"],
        registers_per_warp_allocated=int(lim["_per_warp"]),
        shared_memory_per_block_allocated=int(lim["_allocated"]),
        shared_memory_reserved_per_block=int(values["shared_memory_reserved_per_block"]),
        shared_memory_carveout=params.shared_memory_carveout,
        shared_memory_config=int(carveout_bytes(values, lim["_allocated"])),
        driver_shared_memory_config=int(lim["_driver_config"]),
        resident_blocks_per_sm=int(lim["_resident"]),
        limits=limits,
        limiter=limiters[0],
        limiters=limiters,
        active_blocks_per_sm=blocks,
        active_warps_per_sm=active_warps,
        active_threads_per_sm=min(blocks * t, active_warps * values["warp_size"]),
        occupancy=active_warps / values["max_warps_per_sm"],
        registers_axis=reg_axis,
        warps_vs_registers=_active_warps(values, reg_axis, t, s_static, s_dyn),
        threads_axis=thread_axis,
        warps_vs_threads=_active_warps(values, r, thread_axis, s_static, s_dyn),
        shared_axis=shared_axis,
        warps_vs_shared=_active_warps(values, r, t, s_static, shared_axis),
    )


def worst_cases() -> list[tuple[str, dict[str, object]]]:
    """The costliest sections this panel accepts that we know of, the costliest measured
    first, as (label, scenario section): benchmarks/bench_limits.py times them,
    tests/models/test_limits.py computes them (docs/architecture.md, "Adding a panel")."""
    return [
        ("smallest blocks", {"threads_per_block": 1, "registers_per_thread": 1,
                             "registers_per_sm": 1048576, "shared_memory_per_sm": 4194304,
                             "max_warps_per_sm": 256, "max_blocks_per_sm": 256}),
        ("largest blocks", {"threads_per_block": 1024, "registers_per_thread": 255,
                            "static_shared_memory": 49152, "dynamic_shared_memory": 1048576}),
    ]
