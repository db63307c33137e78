"""The measurement cases: every bundled scenario of the memory panels plus sweeps probing each rule.

A case is one warp instruction: ``op`` (lds, sts, ldsm.x1 … ldsm.x4.trans, ldg, stg), the access
width in bytes and each lane's byte offset (−1 for a masked lane), together with the panel
section (``params``, scenario JSON) whose model predicts what it costs. ``tools/memory_probe.cu``
runs one kernel launch per case, in order, under Nsight Compute; :mod:`gpuviz.kernels.measure`
joins the profiler's rows back to the cases by launch order.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

WARP = 32


@dataclass(frozen=True)
class Case:
    id: str
    panel: str  # banks or sectors
    op: str  # lds, sts, ldsm.xN[.trans], ldg, stg
    bytes: int
    offsets: tuple[int, ...]  # per lane; −1 = masked
    params: dict[str, Any]  # the panel section (scenario JSON) the model reads
    source: str  # "scenario FILE step K" or "sweep: …"


def banks_op(params) -> str:
    op = params.op
    if op == "ldmatrix":
        lm = params.ldmatrix
        return f"ldsm.x{lm.matrices}" + (".trans" if lm.trans else "")
    return "sts" if op == "store" else "lds"


def banks_offsets(params) -> tuple[int, ...]:
    from gpuviz.models import banks

    return tuple(int(x) for x in banks.lane_offsets(params))


def sectors_offsets(params) -> tuple[int, ...] | None:
    from gpuviz.models import sectors

    r = sectors.compute(params)
    if r.warp_size != WARP or r.error:
        return None
    offs = tuple(-1 if a is None else int(a) for a in r.lane_addresses)
    if max(offs) + params.element_bytes > 64 << 20:
        return None
    return offs


def _decode(panel: str, section: dict[str, Any]):
    from gpuviz.scenario.io import decode_section

    params, problems = decode_section(panel, section)
    if problems or params is None:
        raise ValueError(f"{panel} case {section}: {problems}")
    return params


def section_json(params) -> dict[str, Any]:
    """The section as scenario JSON, only the fields that differ from the defaults."""
    from gpuviz.scenario.decode import encode_changes

    return encode_changes(type(params)(), params)


def banks_case(cid: str, section: dict[str, Any], source: str) -> Case:
    p = _decode("banks", section)
    return Case(cid, "banks", banks_op(p), p.access_bytes if banks_op(p) in ("lds", "sts") else 16,
                banks_offsets(p), section_json(p), source)


def sectors_case(cid: str, section: dict[str, Any], source: str) -> Case | None:
    p = _decode("sectors", {"follow_launch": False, **section})
    offs = sectors_offsets(p)
    if offs is None:
        return None
    op = "stg" if p.op == "store" else "ldg"
    return Case(cid, "sectors", op, p.element_bytes, offs, section_json(p), source)


def scenario_cases() -> list[Case]:
    """Every bundled banks and sectors scenario, before its steps and after each step."""
    from gpuviz.scenario import bundled_scenarios, load_scenario
    from gpuviz.scenario.compute import effective_params

    out: list[Case] = []
    for path in bundled_scenarios():
        sc = load_scenario(path)
        for panel in ("banks", "sectors"):
            if panel not in sc.panels:
                continue
            for k in range(-1, len(sc.steps)):
                p = effective_params(sc.at_step(k), panel)
                cid = f"{path.stem}@{k + 1}"
                src = f"scenario {path.name} " + ("before the steps" if k < 0 else f"step {k}")
                if panel == "banks":
                    out.append(Case(cid, "banks", banks_op(p),
                                    p.access_bytes if banks_op(p) in ("lds", "sts") else 16,
                                    banks_offsets(p), section_json(p), src))
                else:
                    offs = sectors_offsets(p)
                    if offs is not None:
                        op = "stg" if p.op == "store" else "ldg"
                        out.append(Case(cid, "sectors", op, p.element_bytes, offs, section_json(p),
                                        src))
    return out


def _expr(e: str) -> dict[str, Any]:
    return {"kind": "expression", "expression": e}


def banks_sweeps() -> list[Case]:
    out: list[Case] = []

    def add(cid: str, src: str, **section: Any) -> None:
        out.append(banks_case(cid, section, src))

    ops = ("load", "store")
    # strides, every width, loads and stores
    for op in ops:
        for w in (1, 2, 4, 8, 16):
            for s in (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 16, 17, 31, 32, 33, 64):
                add(f"stride-{op}-{w}B-s{s}", "sweep: stride", op=op, access_bytes=w,
                    pattern={"kind": "stride", "stride": s})
    # column of a 32-element row with padding
    for op in ops:
        for w in (1, 2, 4, 8, 16):
            for pad in (0, 1, 2, 4):
                add(f"column-{op}-{w}B-pad{pad}", "sweep: padding", op=op, access_bytes=w,
                    pattern={"kind": "column", "row_width": 32, "padding": pad, "column": 0})
    # groups of g neighbouring lanes on one element, groups s elements apart
    for op in ops:
        for w in (2, 4, 8, 16):
            for g in (2, 4, 8, 16, 32):
                for s in (1, 2, 4, 8, 16, 32):
                    if g == 32 and s > 1:
                        continue
                    add(f"group-{op}-{w}B-g{g}-s{s}", "sweep: groups of neighbouring lanes",
                        op=op, access_bytes=w, pattern=_expr(f"lane // {g} * {s}"))
    # lanes m apart on one element (not neighbours)
    for op in ops:
        for w in (4, 8, 16):
            for m in (2, 4, 8, 16):
                for s in (1, 2, 8, 32):
                    add(f"modulo-{op}-{w}B-m{m}-s{s}", "sweep: lanes m apart on one element",
                        op=op, access_bytes=w, pattern=_expr(f"lane % {m} * {s}"))
    # one pair of lanes on one element, the rest distinct (stride 1 or 2)
    for op in ops:
        for w in (8, 16):
            for base in (1, 2):
                for a, b in ((0, 1), (1, 2), (2, 3), (0, 2), (0, 3), (0, 4), (0, 8), (0, 16),
                             (7, 8), (15, 16), (0, 31), (4, 5), (6, 7)):
                    idx = [lane * base for lane in range(WARP)]
                    idx[b] = idx[a]
                    add(f"pair-{op}-{w}B-b{base}-{a}-{b}", "sweep: one pair on one element",
                        op=op, access_bytes=w, pattern={"kind": "explicit", "indices": idx})
    # random patterns with many repeated elements
    rng = random.Random(11)
    for op, count in (("load", 60), ("store", 16)):
        for w in (4, 8, 16):
            for i in range(count if w != 4 else count // 3):
                span = rng.choice((4, 8, 16, 32, 64))
                if rng.random() < 0.5:  # runs of neighbouring lanes on one element
                    idx = []
                    while len(idx) < WARP:
                        run = rng.choice((1, 1, 2, 2, 3, 4, 8))
                        idx.extend([rng.randrange(span)] * run)
                    idx = idx[:WARP]
                    kind = "runs"
                else:
                    idx = [rng.randrange(span) for _ in range(WARP)]
                    kind = "random"
                add(f"rand-{op}-{w}B-{kind}-{i}", f"sweep: {kind} elements below {span}",
                    op=op, access_bytes=w, pattern={"kind": "explicit", "indices": idx})
    # partial warps
    subsets = {"first16": list(range(16)), "even": list(range(0, 32, 2)),
               "odd": list(range(1, 32, 2)), "first8": list(range(8)), "lane5": [5],
               "mid16": list(range(8, 24))}
    for op in ops:
        for w in (4, 8, 16):
            for s in (1, 2):
                for name, lanes in subsets.items():
                    add(f"partial-{op}-{w}B-s{s}-{name}", "sweep: partial warps", op=op,
                        access_bytes=w, pattern={"kind": "stride", "stride": s},
                        active_lanes=lanes)
    # swizzled against linear column reads: lane i reads 16-byte chunk c of row i
    for op in ("load",):
        for mode, row_chunks in (("none", 8), ("128B", 8), ("none", 4), ("64B", 4),
                                 ("none", 2), ("32B", 2)):
            for c in (0, row_chunks - 1):
                add(f"swz-{op}-16B-{mode}-r{row_chunks}-c{c}", "sweep: swizzled column",
                    op=op, access_bytes=16,
                    pattern={"kind": "column", "row_width": row_chunks, "column": c},
                    swizzle={"mode": mode})
            # 4-byte words: lane i reads word w of chunk c of row i (8 rows × 128 B)
            add(f"swz-{op}-4B-{mode}-r{row_chunks}-w", "sweep: swizzled column, words",
                op=op, access_bytes=4,
                pattern=_expr(f"lane * {row_chunks * 4} + 12"), swizzle={"mode": mode})
    # ldmatrix: every shape, rows at several pitches, the mma fragment layout, swizzled
    for n in (1, 2, 4):
        for trans in (False, True):
            lm = {"matrices": n, "trans": trans}
            tag = f"x{n}{'t' if trans else ''}"
            for pitch in (1, 2, 4, 8, 9, 16, 17):  # row pitch in 16-byte chunks
                add(f"ldsm-{tag}-pitch{pitch * 16}", "sweep: ldmatrix row pitch",
                    op="ldmatrix", access_bytes=16, ldmatrix=lm,
                    pattern={"kind": "stride", "stride": pitch})
            add(f"ldsm-{tag}-same-row", "sweep: ldmatrix, every row one address",
                op="ldmatrix", access_bytes=16, ldmatrix=lm, pattern={"kind": "broadcast"})
            add(f"ldsm-{tag}-pairs", "sweep: ldmatrix, pairs of rows on one address",
                op="ldmatrix", access_bytes=16, ldmatrix=lm, pattern=_expr("lane // 2"))
            for mode in ("none", "128B"):
                add(f"ldsm-{tag}-mma-{mode}", "sweep: ldmatrix, mma fragment rows of 128 B",
                    op="ldmatrix", access_bytes=16, ldmatrix=lm,
                    pattern=_expr("lane % 16 * 8 + lane // 16"), swizzle={"mode": mode})
    return out


def sectors_sweeps() -> list[Case]:
    out: list[Case] = []

    def add(cid: str, src: str, **section: Any) -> None:
        c = sectors_case(cid, section, src)
        if c is not None:
            out.append(c)

    for op in ("load", "store"):
        for e in (1, 2, 4, 8, 16):
            for s in (0, 1, 2, 3, 4, 8, 16, 32):
                for base in sorted({0, e, 32 - e if e < 32 else 0, 96 + e}):
                    if base % e:
                        continue
                    add(f"sec-{op}-{e}B-s{s}-b{base}", "sweep: stride, element size, offset",
                        op=op, element_bytes=e, base_offset=base,
                        pattern={"kind": "stride", "stride": s})
            for name, lanes in (("first16", list(range(16))), ("even", list(range(0, 32, 2))),
                                ("lane5", [5]), ("last8", list(range(24, 32)))):
                add(f"sec-{op}-{e}B-{name}", "sweep: partial warps", op=op, element_bytes=e,
                    base_offset=0, pattern={"kind": "stride", "stride": 1}, active_lanes=lanes)
            add(f"sec-{op}-{e}B-reversed", "sweep: reversed", op=op, element_bytes=e,
                pattern={"kind": "reversed"})
    return out


def all_cases() -> list[Case]:
    cases = scenario_cases() + banks_sweeps() + sectors_sweeps()
    seen: set[str] = set()
    for c in cases:
        if c.id in seen:
            raise ValueError(f"duplicate case id {c.id}")
        seen.add(c.id)
    return cases



def _quads(pattern: list[str], s: int) -> list[int]:
    """Element of each lane when every quad of lanes (4k … 4k+3) follows ``pattern`` (letters
    name distinct elements within the quad, e.g. "aabb"); quads use disjoint elements, s apart."""
    out: list[int] = []
    for q in range(WARP // 4):
        letters = pattern[q % len(pattern)]
        names = sorted(set(letters))
        out.extend((4 * q + names.index(ch)) * s for ch in letters)
    return out


def banks_rule_probes() -> list[Case]:
    """Experiments that tell apart the rules for merging lanes in 8- and 16-byte loads."""
    out: list[Case] = []

    def add(cid: str, src: str, **section: Any) -> None:
        out.append(banks_case(cid, section, src))

    def explicit(idx: list[int]) -> dict[str, Any]:
        return {"kind": "explicit", "indices": idx}

    for op in ("load", "store"):
        for w in (8, 16):
            # lanes i and i ^ x on one element
            for x in (1, 2, 3, 4, 5, 8, 16):
                for s in (1, 2, 8, 32):
                    if op == "store" and s not in (1, 8):
                        continue
                    idx = [min(i, i ^ x) * s for i in range(WARP)]
                    add(f"xor-{op}-{w}B-x{x}-s{s}", f"rule: lanes i and i^{x} on one element",
                        op=op, access_bytes=w, pattern=explicit(idx))
            if op == "store":
                continue
            # quad shapes, every quad alike or mixed
            for shape in ("aabb", "abab", "abba", "aaab", "aabc", "abac", "abcc", "aaaa", "abcd",
                          "abcb"):
                for s in (1, 8):
                    add(f"quad-{op}-{w}B-{shape}-s{s}", f"rule: every quad {shape}", op=op,
                        access_bytes=w, pattern=explicit(_quads([shape], s)))
            for name, shapes in (("aabb-abcd", ["aabb", "abcd"]),
                                 ("abab-abcd", ["abab", "abcd"]),
                                 ("aabb7-abcd", ["aabb"] * 7 + ["abcd"]),
                                 ("abcd7-aabb", ["abcd"] * 7 + ["aabb"]),
                                 ("aabb-abab", ["aabb", "abab"]),
                                 ("aabb4-abcd4", ["aabb"] * 4 + ["abcd"] * 4),
                                 ("abcd4-aabb4", ["abcd"] * 4 + ["aabb"] * 4),
                                 ("aabb2-abcd2", ["aabb"] * 2 + ["abcd"] * 2),
                                 ("abcd2-aabb2", ["abcd"] * 2 + ["aabb"] * 2)):
                for s in (1, 8):
                    add(f"mix-{op}-{w}B-{name}-s{s}", f"rule: quads {name}", op=op,
                        access_bytes=w, pattern=explicit(_quads(shapes, s)))
            # masked lanes next to active ones
            for name, lanes in (("even", list(range(0, 32, 2))),
                                ("first16", list(range(16))),
                                ("quad-firsts", list(range(0, 32, 4))),
                                ("no-lane-1", [i for i in range(32) if i != 1]),
                                ("pairs-0-1", [i for i in range(32) if i % 4 < 2])):
                for pat in ("stride", "aabb"):
                    pattern = ({"kind": "stride", "stride": 1} if pat == "stride"
                               else explicit(_quads(["aabb"], 1)))
                    add(f"mask-{op}-{w}B-{name}-{pat}", "rule: masked lanes", op=op,
                        access_bytes=w, pattern=pattern, active_lanes=lanes)
            # random quads with at most two elements each
            rng = random.Random(23 + w)
            for i in range(24):
                shapes = [rng.choice(("aabb", "abab", "abba", "aaaa", "aaab", "abcd", "aabc"))
                          for _ in range(8)]
                s = rng.choice((1, 2, 8, 32))
                add(f"rq-{op}-{w}B-{i}", f"rule: random quads {''.join(x[0:4] for x in shapes)}",
                    op=op, access_bytes=w, pattern=explicit(_quads(shapes, s)))
    return out


def _packed(shapes: list[str], w: int) -> list[int]:
    """Elements for quads of the given shapes, packed so that a merged phase is conflict-free:
    for 8-byte loads every letter of the warp takes the next of elements 0 … 15; for 16-byte
    loads each half-warp takes its own 8 elements (8h … 8h + 7)."""
    out: list[int] = []
    counter = [0, 0]
    for q, letters in enumerate(shapes):
        half = q // 4 if w == 16 else 0
        names: dict[str, int] = {}
        for ch in letters:
            if ch not in names:
                base = 8 * half if w == 16 else 0
                span = 8 if w == 16 else 16
                names[ch] = base + counter[half] % span
                counter[half] += 1
            out.append(names[ch])
    return out


def banks_merge_probes() -> list[Case]:
    """Experiments where merging lanes would leave a conflict-free phase, so that any merge shows
    as fewer wavefronts than the fixed phases."""
    out: list[Case] = []

    def add(cid: str, src: str, **section: Any) -> None:
        out.append(banks_case(cid, section, src))

    shapes_all = ("aabb", "abab", "abba", "aaaa", "aaab", "aaba", "abaa", "baaa", "abbc",
                  "abcc", "aabc", "abcd")
    for w in (8, 16):
        for shape in shapes_all:
            if w == 8 and shape == "abcd":
                continue
            add(f"mq-{w}B-{shape}", f"merge: every quad {shape}", op="load", access_bytes=w,
                pattern={"kind": "explicit", "indices": _packed([shape] * 8, w)})
        mixes = {
            "aabb-abab": ["aabb", "abab"] * 4,
            "aabb-aaaa": ["aabb", "aaaa"] * 4,
            "abab-aaaa": ["abab", "aaaa"] * 4,
            "aaaa7-abcd": ["aaaa"] * 7 + ["abcd"],
            "abcd-aaaa7": ["abcd"] + ["aaaa"] * 7,
            "aaaa7-aaab": ["aaaa"] * 7 + ["aaab"],
            "aaaa3-abcd-aaaa4": ["aaaa"] * 3 + ["abcd"] + ["aaaa"] * 4,
            "aaaa4-abcd-aaaa3": ["aaaa"] * 4 + ["abcd"] + ["aaaa"] * 3,
            "aabb4-abcd-aaaa3": ["aabb"] * 4 + ["abcd"] + ["aaaa"] * 3,
            "aaaa6-abcd2": ["aaaa"] * 6 + ["abcd"] * 2,
            "abba-aabb": ["abba", "aabb"] * 4,
            "abba-abab": ["abba", "abab"] * 4,
        }
        for name, shapes in mixes.items():
            add(f"mm-{w}B-{name}", f"merge: quads {name}", op="load", access_bytes=w,
                pattern={"kind": "explicit", "indices": _packed(shapes, w)})
        # masked lanes inside merged pairs
        for name, lanes in (("no-lane-1", [i for i in range(32) if i != 1]),
                            ("even", list(range(0, 32, 2))),
                            ("first16", list(range(16))),
                            ("no-lane-17", [i for i in range(32) if i != 17])):
            for shape in ("aabb", "abab", "abcd"):
                if w == 8 and shape == "abcd":
                    continue
                add(f"mk-{w}B-{shape}-{name}", "merge: masked lanes", op="load", access_bytes=w,
                    pattern={"kind": "explicit", "indices": _packed([shape] * 8, w)},
                    active_lanes=lanes)
        # stores with the same shapes: do stores merge?
        for shape in ("aabb", "abab", "aaaa"):
            add(f"ms-{w}B-{shape}", f"merge: store, every quad {shape}", op="store",
                access_bytes=w, pattern={"kind": "explicit", "indices": _packed([shape] * 8, w)})
        rng = random.Random(97 + w)
        for i in range(40):
            shapes = [rng.choice(("aabb", "abab", "aaaa", "abba", "aaab", "abcd" if w == 16
                                  else "aabb")) for _ in range(8)]
            if rng.random() < 0.5:
                shapes = [rng.choice(("aabb", "abab", "aaaa")) for _ in range(8)]
            add(f"mr-{w}B-{i}", "merge: random quads " + " ".join(shapes), op="load",
                access_bytes=w, pattern={"kind": "explicit", "indices": _packed(shapes, w)})
    return out
