"""The mbarrier, the full/empty stage ring, cluster multicast and ``cp.async`` groups.

mbarrier (PTX ISA, "Parallel Synchronization and Communication Instructions: mbarrier"): a
barrier has a current phase, a pending arrival count (reset to the expected count when a phase
completes) and a signed transaction count. ``expect-tx`` raises the count, ``complete-tx``
(a copy's bytes landing) lowers it — it may come first, the count going negative. A phase
completes only when the pending arrivals and the transaction count are both 0; the phase then
advances. ``test_wait.parity p`` is true iff the phase of parity p has completed: the current
phase's parity is false, the other true (at init, parity 0 false, parity 1 true). The model
completes a phase on whichever event brings both counts to 0, an expect-tx included (where the
text leaves room, the H200 probe decides). A copy signals its bytes as its parts land: where
they pass the count a phase still expects, its arrivals done, the phase may complete with part
of the copy landed or not at all (an H100 did both, interleaved boxes expecting fewer bytes than
they write), and the trace marks that state, and every later one, ``uncertain``.

Clusters (CUDA C++ Programming Guide, "Thread Block Clusters"; "Tensor Memory Access"): a CTA
that multicasts a slice of a tile signals the barrier of every destination CTA, so every
destination's full barrier expects the bytes of all slices that reach it. Resident clusters
(``cudaOccupancyMaxActiveClusters``): a cluster's CTAs are co-scheduled on one GPC, so a group
of n SMs holds ``⌊n × blocks per SM ÷ size⌋`` clusters, and none larger than n CTAs. On the
H100 SXM the groups are measured (tools/cluster_probe.cu, resources/measurements/tma/
h100-clusters.json: the SMs that shared a cluster, joined): 18, 18, 16, 16, 16, 16, 16, 8 and
four pairs; a cluster launch puts at most 8 CTAs on one SM there. That rule gives the API's
answer, and the residency the hardware reached, in all 256 measured cases. Presets without a
measurement spread their SMs evenly over their GPCs: an estimate.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import prod

#: GPCs per preset, from NVIDIA's architecture whitepapers (Hopper: H100 SXM5's 132 SMs in 8
#: GPCs, some TPCs disabled; the H200 is the same GH100; Ampere: A100's 108 SMs in 7 GPCs;
#: Volta: V100's 80 SMs in 6 GPCs). Clusters need compute capability 9.0.
GPCS = {"h100-sxm": 8, "h200": 8, "a100": 7, "v100": 6}
DEFAULT_GPCS = 8
#: The groups of SMs a cluster may span, measured (see above): an H100 80GB HBM3, driver
#: 580.159.04. The pairs are SMs that never shared a cluster with any other.
CLUSTER_GROUPS = {"h100-sxm": (18, 18, 16, 16, 16, 16, 16, 8, 2, 2, 2, 2)}
#: CTAs of a cluster launch on one SM at most, measured on the same card (the API's answer for
#: clusters of 1 at 16 resident 128-thread blocks, and the most the probe saw on one SM).
CLUSTER_BLOCKS_PER_SM = {"h100-sxm": 8}

MISTAKES = ("none", "wrong_count", "expect_tx_small", "expect_tx_large", "expect_tx_twice",
            "stale_parity", "early_release", "unfenced_init")
CONSEQUENCE = {
    "none": "every read sees its stage's data; no copy lands under a reader",
    "wrong_count": "the empty barrier expects one arrival more than the consumers make: "
                   "the producer's wait on the first reuse never ends (a hang)",
    "expect_tx_small": "the full barrier expects too few bytes: its phase completes before "
                       "the second copy lands — a read of stale data",
    "expect_tx_large": "the full barrier expects more bytes than the copies bring: the "
                       "consumer's wait never ends (a hang)",
    "expect_tx_twice": "expect-tx issued twice doubles the count: the copy's bytes leave it "
                       "positive, the consumer's wait never ends (a hang)",
    "stale_parity": "the consumer waits on last round's parity, true at once: it reads the "
                    "stage before this round's copy lands (last round's data)",
    "early_release": "the consumer arrives on the empty barrier before its last read: the "
                     "producer's next copy overwrites the stage under a reader",
    "unfenced_init": "the init is not made visible (fence.mbarrier_init, cluster sync) "
                     "before the copy's complete-tx: the copy may signal an uninitialised "
                     "barrier (undefined behaviour)",
}


@dataclass(frozen=True)
class BarrierStep:
    op: str
    phase: int
    pending: int
    tx: int
    completed: bool
    wait: bool | None
    # the copy's bytes passed the count its phase still expected, arrivals done: the copy
    # signals them as parts land, so the phase may have completed with part of the copy landed,
    # or not at all (an H100: 5 of 10 interleaved loads expecting fewer bytes than they wrote
    # completed, resources/measurements/tma/h100-tma-interleave.json); the state shown, and
    # every later one, is the copy counted whole
    uncertain: bool = False


def trace(count: int, events, copy_bytes: int) -> tuple[BarrierStep, ...]:
    """The mbarrier's state after each event."""
    phase, pending, tx = 0, count, 0
    uncertain = False
    out = []
    for e in events:
        wait = None
        if e.op == "arrive":
            pending -= e.count
        elif e.op == "expect_tx":
            tx += e.bytes
        elif e.op == "arrive_expect_tx":
            tx += e.bytes
            pending -= 1
        elif e.op == "copy":
            uncertain = uncertain or (pending == 0 and 0 < tx < copy_bytes)
            tx -= copy_bytes
        elif e.op == "complete_tx":
            tx -= e.bytes
        elif e.op == "test_wait":
            wait = (phase % 2) != e.parity
        done = e.op != "test_wait" and pending == 0 and tx == 0
        if done:
            phase, pending = phase + 1, count
        out.append(BarrierStep(e.op, phase, pending, tx, done, wait, uncertain))
    return tuple(out)


@dataclass(frozen=True)
class RingStep:
    iteration: int
    stage: int
    round: int
    full_parity: int  # the parity the consumer must wait on at the stage's full barrier
    empty_parity: int  # the parity the producer waits on at the stage's empty barrier
    outcome: str  # "ok", "stale read", "hang", "overwrite under a reader", "undefined"
    consumer_parity: int = -1  # the parity it does wait on (-1: full_parity, as it must)

    @property
    def waited(self) -> int:
        """The parity the consumer waits on: the right one unless the mistake changed it."""
        return self.full_parity if self.consumer_parity < 0 else self.consumer_parity


def ring(stages: int, consumers: int, iterations: int, mistake: str) -> tuple[RingStep, ...]:
    """The stage ring: iteration i uses stage i mod S in round i div S; the consumer waits on
    the full barrier's parity round mod 2, the producer on the empty barrier's (round + 1) mod 2
    (the empty barrier's parity 1 is true at init, so the first round does not wait). A mistake
    marks the iteration it first breaks and stops the ring where it hangs; a stale parity (the
    consumer waiting on (round + 1) mod 2, last round's, true at once) breaks every iteration:
    each reads before its copy lands, round 0 uninitialised bytes, later rounds last round's."""
    first = {"wrong_count": stages, "early_release": stages}.get(mistake, 0)
    bad = {"wrong_count": "hang", "expect_tx_small": "stale read", "expect_tx_large": "hang",
           "expect_tx_twice": "hang", "stale_parity": "stale read",
           "early_release": "overwrite under a reader", "unfenced_init": "undefined"}
    if mistake == "wrong_count" and consumers > 1:
        bad["wrong_count"] = "overwrite under a reader"  # one arrival fewer than the readers
    out = []
    for i in range(iterations):
        s, r = i % stages, i // stages
        stale = mistake == "stale_parity"
        outcome = bad[mistake] if mistake != "none" and (i == first or stale) else "ok"
        out.append(RingStep(i, s, r, r % 2, (r + 1) % 2, outcome,
                            (r + 1) % 2 if stale else -1))
        if outcome == "hang":
            break
    return tuple(out)


def expected_tx(dims: tuple[int, ...], multicast: bool, a_bytes: int, b_bytes: int):
    """(bytes each full barrier expects, copies reaching it, bytes each CTA issues)."""
    cx, cy = dims[0], dims[1] if len(dims) > 1 else 1
    if multicast:
        # each CTA of a row issues 1/cx of A to its row, each of a column 1/cy of B
        return a_bytes + b_bytes, cx + cy, a_bytes // cx + b_bytes // cy
    return a_bytes + b_bytes, 2, a_bytes + b_bytes


def max_active_clusters(groups: tuple[int, ...], blocks_per_sm: int, size: int) -> int:
    """The model of ``cudaOccupancyMaxActiveClusters``: clusters co-scheduled in one group of
    SMs (a GPC), a group of n SMs holding none of more than n CTAs."""
    return sum(n * blocks_per_sm // size for n in groups if n >= size)


def cluster_groups(arch: str, sm_count: int) -> tuple[tuple[int, ...], bool]:
    """The SMs of each group a cluster may span, and whether they are measured (else the
    preset's SMs spread evenly over its GPCs); () where the preset has no GPC count."""
    if arch in CLUSTER_GROUPS:
        return CLUSTER_GROUPS[arch], True
    gpcs = GPCS.get(arch, 0)
    if not gpcs:
        return (), False
    per, extra = divmod(sm_count, gpcs)
    return tuple(per + (i < extra) for i in range(gpcs)), False


def cluster_blocks_per_sm(arch: str, blocks_per_sm: int) -> int:
    """CTAs of a cluster launch on one SM: the occupancy limit, under the measured cap."""
    return min(blocks_per_sm, CLUSTER_BLOCKS_PER_SM.get(arch, blocks_per_sm))


def cp_async_visible(groups: int, wait_group: int, synced: bool) -> tuple[tuple[str, ...], ...]:
    """``cp.async`` groups (PTX ISA ``cp.async.commit_group`` / ``wait_group N``): after
    ``wait_group N`` all but the N most recent committed groups are complete and visible to the
    issuing thread; to the block's other threads only after a barrier (``__syncthreads``).
    One (issuer, others) pair of "visible"/"pending" per group."""
    out = []
    for g in range(groups):
        done = g < groups - wait_group
        out.append(("visible" if done else "pending",
                    "visible" if done and synced else "pending"))
    return tuple(out)


def cluster_size(dims: tuple[int, ...]) -> int:
    return prod(dims)
