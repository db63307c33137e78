"""Asynchronous copies: the TMA tensor map, where a box lands, the mbarrier, the stage ring,
clusters and ``cp.async`` groups.

The rules and their sources are in :mod:`gpuviz.models.tma_map` (``cuTensorMapEncodeTiled``,
the swizzle of ``cp.async.bulk.tensor``, zero fill) and :mod:`gpuviz.models.tma_barrier`
(mbarrier phases and transaction counts, the full/empty ring and its mistakes, cluster
multicast accounting, resident clusters, ``cp.async`` groups). A copy returning is not
permission to read its destination; a ready notification is not permission to overwrite a
buffer still being consumed.
"""

from __future__ import annotations

from dataclasses import dataclass

from gpuviz.models import tma_barrier as tb
from gpuviz.models import tma_links as tl
from gpuviz.models import tma_map as tm
from gpuviz.models.arch import DEFAULT_ARCH, load_preset, preset_names, preset_value
from gpuviz.models.jsonable import not_in_json
from gpuviz.models.params import param

OPS = ("arrive", "expect_tx", "arrive_expect_tx", "copy", "complete_tx", "test_wait")
#: The figure's parts, in the order they are drawn.
PARTS = ("tensor-map", "box", "placement", "barrier", "ring", "cluster")


@dataclass(frozen=True)
class TmaEvent:
    op: str = param("arrive", doc="arrive (count arrivals), expect_tx (bytes), "
                                  "arrive_expect_tx (bytes, one arrival), copy (the box's "
                                  "load: complete-tx of its bytes), complete_tx (bytes), "
                                  "test_wait (parity).", choices=OPS)
    count: int = param(1, doc="Arrivals of an arrive.", minimum=1, maximum=1024,
                       applies_when={"op": ("arrive",)})
    bytes: int = param(0, doc="Transaction bytes of expect_tx, arrive_expect_tx or "
                              "complete_tx.", minimum=0, maximum=1 << 20,
                       applies_when={"op": ("expect_tx", "arrive_expect_tx", "complete_tx")})
    parity: int = param(0, doc="The parity test_wait.parity asks about.", choices=(0, 1),
                        applies_when={"op": ("test_wait",)})


def _default_events() -> tuple[TmaEvent, ...]:
    return (TmaEvent("test_wait", parity=1), TmaEvent("test_wait", parity=0),
            TmaEvent("arrive_expect_tx", bytes=1024), TmaEvent("copy"),
            TmaEvent("test_wait", parity=0))


@dataclass(frozen=True)
class TmaBarrier:
    count: int = param(1, doc="Arrivals the mbarrier expects per phase (mbarrier.init).",
                       minimum=1, maximum=1024)
    events: tuple[TmaEvent, ...] = param(doc="The script of events, in order.",
                                         default_factory=_default_events)


@dataclass(frozen=True)
class TmaPipeline:
    stages: int = param(3, doc="Stages of the ring, each a buffer with a full and an empty "
                               "barrier.", minimum=1, maximum=8)
    consumers: int = param(1, doc="Consumer arrivals the empty barrier expects.",
                           minimum=1, maximum=8)
    iterations: int = param(6, doc="Iterations of the loop (k-tiles).", minimum=1, maximum=32)
    mistake: str = param("none", doc="A mistake to inject: " + ", ".join(tb.MISTAKES) + ".",
                         choices=tb.MISTAKES)


@dataclass(frozen=True)
class TmaCluster:
    dims: tuple[int, ...] = param((2, 2, 1), doc="Cluster dimensions in CTAs (x: a row of "
                                                 "CTAs sharing A, y: a column sharing B).",
                                  minimum=1, maximum=16, length=3)
    multicast: bool = param(True, doc="Each CTA of a row multicasts its slice of A to the "
                                      "row, each of a column its slice of B to the column.")
    a_bytes: int | None = param(None, doc="Bytes of a CTA's A tile; empty means the box's.",
                                minimum=16, maximum=1 << 20)
    b_bytes: int | None = param(None, doc="Bytes of a CTA's B tile; empty means the box's.",
                                minimum=16, maximum=1 << 20)
    blocks_per_sm: int = param(1, doc="Resident CTAs per SM (the occupancy panel's limit).",
                               minimum=1, maximum=32)


@dataclass(frozen=True)
class TmaCpAsync:
    groups: int = param(3, doc="cp.async groups committed (commit_group).", minimum=1,
                        maximum=8)
    wait_group: int = param(1, doc="cp.async.wait_group N: all but the N most recent groups "
                                   "complete.", minimum=0, maximum=8)
    synced: bool = param(False, doc="A barrier (__syncthreads) after the wait: the other "
                                    "threads see the completed groups.")


@dataclass(frozen=True)
class TmaParams:
    element_bytes: int = param(2, doc="Bytes per element (tensor data type).",
                               choices=(1, 2, 4, 8))
    global_dims: tuple[int, ...] = param((256, 128), doc="Global dimensions in elements, "
                                         "innermost first (rank 1–5).", minimum=0,
                                         maximum=1 << 40, length=(1, 6))
    global_strides: tuple[int, ...] | None = param(None, doc="Byte strides of dims 1…; empty "
                                                   "means packed.", minimum=0,
                                                   maximum=1 << 48, length=(0, 5))
    global_offset: int = param(0, doc="Bytes of the global address past a 256-byte-aligned "
                                      "allocation.", minimum=0, maximum=255)
    box_dims: tuple[int, ...] = param((64, 8), doc="Box dimensions in elements, innermost "
                                      "first.", minimum=0, maximum=1024, length=(1, 6))
    element_strides: tuple[int, ...] | None = param(None, doc="Element strides of the box "
                                                    "(traversal strides); empty means 1.",
                                                    minimum=0, maximum=16, length=(1, 6))
    interleave: str = param("none", doc="Interleave: none, 16B or 32B.",
                            choices=("none", "16B", "32B"))
    swizzle: str = param("128B", doc="Swizzle mode of the shared-memory destination.",
                         choices=tuple(tm.SWIZZLE_MASK))
    box_start: tuple[int, ...] = param((), doc="The box's first coordinates, innermost "
                                       "first (none: the origin); negative or past the end is "
                                       "zero-filled.",
                                       minimum=-(1 << 32), maximum=1 << 32, length=(0, 6))
    smem_offset: int = param(0, doc="Bytes of the shared destination past a 1024-byte-aligned "
                                    "base (the swizzle reads the absolute address).",
                             minimum=0, maximum=1 << 17)
    show: tuple[str, ...] = param(("tensor-map", "placement"), doc="The parts of the figure "
                                  "shown: " + ", ".join(PARTS) + ".", choices=PARTS,
                                  length=(1, 6))
    barrier: TmaBarrier = param(doc="The mbarrier and its script of events.",
                                default_factory=TmaBarrier)
    pipeline: TmaPipeline = param(doc="The full/empty stage ring.",
                                  default_factory=TmaPipeline)
    cluster: TmaCluster = param(doc="Thread-block cluster and multicast.",
                                default_factory=TmaCluster)
    cp_async: TmaCpAsync = param(doc="Ampere cp.async groups.", default_factory=TmaCpAsync)
    arch: str | None = param(None, doc="Architecture preset of the cluster occupancy; empty "
                                       "means the scenario's.", choices=preset_names())


PARAMS = TmaParams


@dataclass(frozen=True)
class TmaResult:
    tensor_map_valid: bool
    tensor_map_problems: tuple[str, ...]
    # a map the driver encodes whose copy faults on the GPU (measured), each naming its field
    copy_faults: tuple[str, ...]
    box_bytes: int
    # the bytes the copy writes and its complete-tx signals: box_bytes, or an interleaved box's
    # runs (box_dims[0] chunks of 16 or 32 bytes for each coordinate of dims 2…)
    transaction_bytes: int
    placement: tuple[tuple[int, ...], ...]
    zero_filled: tuple[tuple[bool, ...], ...]
    barrier_trace: tuple[tb.BarrierStep, ...]
    expected_tx_per_cta: int
    copies_per_barrier: int
    issued_bytes_per_cta: int
    cluster_size: int
    max_active_clusters: int
    max_active_clusters_naive: int  # SMs × blocks per SM ÷ cluster size: what the GPCs deny
    cluster_groups: tuple[int, ...]  # SMs of each group (GPC) a cluster may span
    cluster_groups_measured: bool  # measured on the preset's chip, else spread evenly
    cluster_blocks_per_sm: int  # CTAs of a cluster launch on one SM (the measured cap applied)
    ring: tuple[tb.RingStep, ...]
    consequence: str
    cp_async: tuple[tuple[str, ...], ...]
    # the neighbours' view of the placement (models/tma_links.py): the swizzle panel's
    # Swizzle⟨B,M,S⟩ and the wgmma descriptor reading the box (None: no swizzle, or refused)
    swizzle_equivalent: tl.SwizzleLink
    wgmma_descriptor: tl.DescriptorLink | None
    params: TmaParams = not_in_json()


def problems(p: TmaParams) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    if len(set(p.show)) != len(p.show):
        out.append(("show", "a part is listed twice"))
    span = 128 if p.swizzle != "none" else 16
    if p.smem_offset % span:
        out.append(("smem_offset", f"{p.smem_offset} bytes: cp.async.bulk.tensor's shared "
                                   f"destination must be aligned to {span} bytes"
                                   + (" with a swizzle" if span == 128 else "")))
    if p.cp_async.wait_group > p.cp_async.groups:
        out.append(("cp_async.wait_group", "waits on more groups than were committed"))
    return out


def compute(p: TmaParams) -> TmaResult:
    arch = p.arch or DEFAULT_ARCH
    problems_ = tuple(tm.tensor_map_problems(p))
    nbytes = tm.box_bytes(p)
    tx = tm.transaction_bytes(p) if not problems_ else nbytes
    c = p.cluster
    a = c.a_bytes if c.a_bytes is not None else tx
    b = c.b_bytes if c.b_bytes is not None else tx
    expected, copies, issued = tb.expected_tx(c.dims, c.multicast, a, b)
    size = tb.cluster_size(c.dims)
    sms = int(preset_value(arch, "sm_count"))
    # clusters need compute capability 9.0 (CUDA C++ Programming Guide): none elsewhere
    preset = load_preset(arch)
    cc = str(preset.get("compute_capability") or "")
    hopper = preset.get("vendor") == "nvidia" and cc[:1].isdigit() and float(cc) >= 9.0
    groups, measured_groups = tb.cluster_groups(arch, sms) if hopper else ((), False)
    per_sm = tb.cluster_blocks_per_sm(arch, c.blocks_per_sm)
    clusters = tb.max_active_clusters(groups, per_sm, size)
    pl = p.pipeline
    return TmaResult(
        params=p, tensor_map_valid=not problems_, tensor_map_problems=problems_,
        copy_faults=tuple(tm.copy_faults(p)) if not problems_ else (),
        box_bytes=nbytes, transaction_bytes=tx,
        placement=tm.placement(p) if not problems_ else (),
        zero_filled=tm.zero_filled(p) if not problems_ else (),
        barrier_trace=tb.trace(p.barrier.count, p.barrier.events, tx),
        expected_tx_per_cta=expected, copies_per_barrier=copies, issued_bytes_per_cta=issued,
        cluster_size=size, max_active_clusters=clusters, cluster_groups=groups,
        cluster_groups_measured=measured_groups, cluster_blocks_per_sm=per_sm,
        max_active_clusters_naive=sms * c.blocks_per_sm // size,
        ring=tb.ring(pl.stages, pl.consumers, pl.iterations, pl.mistake),
        consequence=tb.CONSEQUENCE[pl.mistake],
        cp_async=tb.cp_async_visible(p.cp_async.groups, p.cp_async.wait_group,
                                     p.cp_async.synced),
        swizzle_equivalent=tl.swizzle_link(p.swizzle, p.smem_offset),
        wgmma_descriptor=(tl.descriptor_link(p.swizzle, p.smem_offset,
                                             p.box_dims[0] * p.element_bytes)
                          if not problems_ else None),
    )


def worst_cases() -> list[tuple[str, dict[str, object]]]:
    """The costliest sections this panel accepts that we know of, as (label, scenario section):
    benchmarks/bench_limits.py times them, tests/models/test_limits.py computes them
    (docs/architecture.md, "Adding a panel")."""
    return [
        # every part drawn, the largest placed box (256 rows of 128 one-byte elements), a long
        # event script and ring
        ("all parts, 256-row box, 32 iterations", {
            "show": ["tensor-map", "box", "placement", "barrier", "ring", "cluster"],
            "element_bytes": 1, "global_dims": [4096, 4096], "box_dims": [128, 256],
            "box_start": [-64, 4000],
            "barrier": {"count": 4, "events": [{"op": "arrive"}] * 64},
            "pipeline": {"stages": 8, "iterations": 32, "mistake": "early_release"},
            "cluster": {"dims": [16, 1, 1]}}),
    ]
