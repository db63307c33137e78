"""The TMA tensor map: the CUDA driver's ``cuTensorMapEncodeTiled`` rules, the box's placement
in shared memory under the swizzle mode, and the zero fill of out-of-bounds elements.

Rules (CUDA Driver API reference, "Tensor Map Object Management", ``cuTensorMapEncodeTiled``):
rank 1–5 (3–5 when interleaved); the global address aligned to 16 bytes (32 with
``CU_TENSOR_MAP_INTERLEAVE_32B``); every global dimension non-zero and at most 2^32; every
global stride a multiple of 16 (32 when interleaved 32B) and below 2^40; every box dimension
1–256; with no interleave the box's inner dimension a multiple of 16 bytes and, when swizzled,
at most the swizzle span (32, 64, 128 bytes); element strides 1–8. The driver encodes
interleave 32B with any swizzle (measured on Hopper), and some boxes it encodes fault when
copied (``copy_faults``): the model follows the hardware there.

Placement (PTX ISA, "Tensor swizzling modes" of ``cp.async.bulk.tensor``): the box is written
densely, row after row, and the swizzle is a function of the absolute shared address
``A``: ``P = A ^ (((A >> 7) & m) << 4)`` with m = 0, 1, 3, 7 for none, 32B, 64B, 128B — a
buffer aligned to 128 bytes but not to the pattern's repeat (256, 512, 1024 bytes) is shifted
in phase.

Interleaved boxes (``CU_TENSOR_MAP_INTERLEAVE_16B`` / ``32B``; PTX ISA, "Interleave layout": the
channels grouped in 16- or 32-byte slices, NC/8HWC8 and NC/16HWC16), as an H100 placed twelve
rank-3 loads (resources/measurements/tma/h100-tma-interleave.json): dimension 0 counts whole
interleave chunks of I = 16 or 32 bytes, so the copy reads, for each coordinate of dimensions
2…, one *run* of ``box_dims[0]`` chunks — ``box_dims[0] × I`` contiguous bytes from
``x·I + y·stride[0] + z·stride[1]`` — and box dimension 1 adds no rows. The runs land densely,
one after another, swizzled by the absolute address as above; a run whose coordinate of a
dimension ≥ 1 lies outside the tensor is zero-filled. The copy signals the bytes it writes
(``transaction_bytes``), not the box's ``box_dims × element bytes``: an mbarrier expecting
those is told the wrong count (with 2-byte elements the copy writes 2 to 4 times as many).
"""

from __future__ import annotations

from math import prod

SWIZZLE_MASK = {"none": 0, "32B": 1, "64B": 3, "128B": 7}
SWIZZLE_SPAN = {"none": 0, "32B": 32, "64B": 64, "128B": 128}
#: Bytes of an interleave chunk (a slice of channels).
INTERLEAVE_BYTES = {"none": 0, "16B": 16, "32B": 32}
#: The largest box whose placement is listed element by element.
MAX_PLACED = 1 << 16


def swizzle(address: int, mode: str) -> int:
    """The physical shared address of absolute address ``address`` under ``mode``."""
    return address ^ (((address >> 7) & SWIZZLE_MASK[mode]) << 4)


def strides(p) -> tuple[int, ...]:
    """Byte strides of dims 1…: the section's, or packed."""
    if p.global_strides is not None:
        return tuple(p.global_strides)
    out, s = [], p.element_bytes
    for d in p.global_dims[:-1]:
        s *= d
        out.append(s)
    return tuple(out)


def element_strides(p) -> tuple[int, ...]:
    return tuple(p.element_strides) if p.element_strides is not None else (1,) * len(p.box_dims)


def counts(p) -> tuple[int, ...]:
    """Elements the box loads along each dimension: ceil(box / element stride)."""
    return tuple(-(-b // max(1, e)) for b, e in zip(p.box_dims, element_strides(p), strict=False))


def box_bytes(p) -> int:
    return prod(counts(p)) * p.element_bytes


def tensor_map_problems(p) -> list[str]:
    """Every ``cuTensorMapEncodeTiled`` rule the section breaks, each naming its field."""
    out: list[str] = []
    rank = len(p.global_dims)
    eb = p.element_bytes
    if not 1 <= rank <= 5:
        out.append(f"global_dims: rank {rank}; the tensor map's rank must be 1 to 5")
    if p.interleave != "none" and rank < 3:
        out.append(f"global_dims: rank {rank}; an interleaved tensor map needs rank 3 to 5")
    align = 32 if p.interleave == "32B" else 16
    if p.global_offset % align:
        out.append(f"global_offset: the global address must be aligned to {align} bytes, "
                   f"it is {p.global_offset} past a 256-byte boundary")
    for i, d in enumerate(p.global_dims):
        if not 1 <= d <= 1 << 32:
            out.append(f"global_dims[{i}]: {d}; each global dimension must be 1 to 2^32")
    st = strides(p)
    if len(st) != rank - 1:
        out.append(f"global_strides: {len(st)} values; a rank-{rank} map has {rank - 1}")
    for i, s in enumerate(st):
        if s % align:
            out.append(f"global_strides[{i}]: {s} bytes; each stride must be a multiple of "
                       f"{align} bytes")
        if not 0 < s < 1 << 40:
            out.append(f"global_strides[{i}]: {s} bytes; each stride must be below 2^40")
    if len(p.box_dims) != rank:
        out.append(f"box_dims: {len(p.box_dims)} values for a rank-{rank} map")
    for i, b in enumerate(p.box_dims):
        if not 1 <= b <= 256:
            out.append(f"box_dims[{i}]: {b}; each box dimension must be 1 to 256")
    inner = p.box_dims[0] * eb if p.box_dims else 0
    if inner % 16:
        # interleaved too (measured: an 8-byte inner box under 16B interleave is refused)
        out.append(f"box_dims[0]: {inner} inner bytes; the box's inner dimension must be a "
                   f"multiple of 16 bytes")
    span = SWIZZLE_SPAN[p.swizzle]
    if p.interleave == "none" and span and inner > span:
        out.append(f"box_dims[0]: {inner} inner bytes exceed the {p.swizzle} swizzle span "
                   f"({span} bytes)")
    es = element_strides(p)
    if len(es) != rank:
        out.append(f"element_strides: {len(es)} values for a rank-{rank} map")
    for i, e in enumerate(es):
        if not 1 <= e <= 8:
            out.append(f"element_strides[{i}]: {e}; each element stride must be 1 to 8")
    if p.box_start and len(p.box_start) != rank:
        out.append(f"box_start: {len(p.box_start)} coordinates for a rank-{rank} map")
    return out


def copy_faults(p) -> list[str]:
    """Boxes the driver encodes whose copy faults on the GPU (illegal instruction), measured on
    Hopper (resources/measurements/tma/h100-tma.json): an innermost start that is not a whole
    number of 16-byte units, and a 128B-swizzled box whose inner box is 16 or 32 bytes."""
    out = []
    start = box_start(p)
    if start and (start[0] * p.element_bytes) % 16:
        out.append(f"box_start[0]: {start[0]} elements is {start[0] * p.element_bytes} bytes; "
                   f"the copy faults unless the innermost start is a multiple of 16 bytes")
    inner = p.box_dims[0] * p.element_bytes if p.box_dims else 0
    if p.swizzle == "128B" and p.interleave == "none" and inner in (16, 32):
        out.append(f"box_dims[0]: {inner} inner bytes; with the 128B swizzle a copy of an inner "
                   f"box of 16 or 32 bytes faults (48 bytes and more load)")
    return out


def box_start(p) -> tuple[int, ...]:
    """The box's first coordinates; none given is the origin of every dimension."""
    return tuple(p.box_start) or (0,) * len(p.global_dims)


def box_rows(p) -> list[tuple[int, ...]]:
    """Outer coordinates (dims 1…) of each row of the box, outer rows in order."""
    n = counts(p)
    rows: list[tuple[int, ...]] = [()]
    for c in n[1:]:
        rows = [(*r, k) for k in range(c) for r in rows]
    return rows


#: Why an interleaved box of rank 4 or 5, or with element strides, is not placed: only rank-3
#: loads with element strides 1 were measured (resources/measurements/tma/h100-tma-interleave.json).
INTERLEAVED_RANK = ("an interleaved box of rank 4 or 5 is not modelled: the H100 loads measured "
                    "were rank 3, where box dimension 1 adds no rows; whether dimension 3 adds "
                    "runs is not measured")
INTERLEAVED_STRIDES = ("an interleaved box with element strides is not modelled: the H100 loads "
                       "measured had element strides 1")


def interleave_bytes(p) -> int:
    """Bytes of the map's interleave chunk, 0 without interleave."""
    return INTERLEAVE_BYTES[p.interleave]


def run_bytes(p) -> int:
    """Bytes of one run of an interleaved box: box dimension 0 counts whole chunks."""
    return p.box_dims[0] * interleave_bytes(p) if p.box_dims else 0


def runs(p) -> list[tuple[int, ...]]:
    """Outer coordinates (dims 2…) of each run of an interleaved box, in the order they land."""
    rows: list[tuple[int, ...]] = [()]
    for c in p.box_dims[2:]:
        rows = [(*r, k) for k in range(c) for r in rows]
    return rows


def transaction_bytes(p) -> int:
    """The bytes the copy writes and signals to its mbarrier (complete-tx): the box's bytes, or
    an interleaved box's runs (measured at rank 3; at rank 4–5, where the placement is refused,
    the runs of every coordinate of dims 2… are assumed)."""
    if p.interleave == "none":
        return box_bytes(p)
    return run_bytes(p) * prod(p.box_dims[2:])


def run_starts(p) -> list[int]:
    """Global byte (past the tensor's address) of each run's first byte: x·I + y·stride[0] +
    z·stride[1] + …, the run's own coordinates for dims 2…."""
    st, start, i = strides(p), box_start(p), interleave_bytes(p)
    out = []
    for r in runs(p):
        outer = (start[1], *(start[k + 2] + v for k, v in enumerate(r)))
        out.append(start[0] * i + sum(c * s for c, s in zip(outer, st, strict=False)))
    return out


def run_outside(p) -> list[bool]:
    """Whether each run lies outside the tensor: a coordinate of dims 1… past an edge (measured
    on an H100: a run at y = −1 or z = −1 is all zeros)."""
    dims, start = p.global_dims, box_start(p)
    out = []
    for r in runs(p):
        outer = (start[1], *(start[k + 2] + v for k, v in enumerate(r)))
        out.append(any(not 0 <= c < d for c, d in zip(outer, dims[1:], strict=False)))
    return out


def chunk_outside(p) -> list[bool]:
    """Whether each chunk of a run lies past dimension 0's edge, counted in chunks."""
    x0, d0 = box_start(p)[0], p.global_dims[0]
    return [not 0 <= x0 + j < d0 for j in range(p.box_dims[0])]


def global_element(p, byte: int) -> tuple[int, ...] | None:
    """The coordinates of the element whose bytes hold global byte ``byte`` (past the tensor's
    address), or None for a byte of padding or outside the tensor."""
    eb, dims, st = p.element_bytes, p.global_dims, strides(p)
    if byte < 0:
        return None
    coords = []
    for i in range(len(dims) - 1, 0, -1):
        c, byte = divmod(byte, st[i - 1])
        coords.append(c)
    x = byte // eb
    coords.append(x)
    out = tuple(reversed(coords))
    return out if all(0 <= c < d for c, d in zip(out, dims, strict=False)) else None


def not_placed(p) -> str | None:
    """Why the model lists no placement for a map it accepts, or None where it does."""
    if p.interleave != "none":
        if len(p.global_dims) > 3:
            return INTERLEAVED_RANK
        if any(e != 1 for e in element_strides(p)):
            return INTERLEAVED_STRIDES
        if transaction_bytes(p) // p.element_bytes > MAX_PLACED:
            return "the box has more elements than the model lists one by one"
        return None
    if prod(counts(p)) > MAX_PLACED:
        return "the box has more elements than the model lists one by one"
    return None


def _interleaved_placement(p) -> tuple[tuple[int, ...], ...]:
    run, eb = run_bytes(p), p.element_bytes
    return tuple(tuple(swizzle(p.smem_offset + r * run + j, p.swizzle) - p.smem_offset
                       for j in range(0, run, eb))
                 for r in range(len(runs(p))))


def placement(p) -> tuple[tuple[int, ...], ...]:
    """Byte offset of each element's first byte from the start of the shared buffer: per box
    row, or per run of an interleaved box (each element-sized slot of the run)."""
    n = counts(p)
    if not_placed(p):
        return ()
    if p.interleave != "none":
        return _interleaved_placement(p)
    eb, inner = p.element_bytes, n[0]
    # a swizzled box's row takes the whole span even when the inner box is narrower (measured:
    # resources/measurements/tma/h100-tma.json, load-e2-128B-inner48-at0); unswizzled rows pack
    pitch = inner * eb if p.swizzle == "none" else 16 * (SWIZZLE_MASK[p.swizzle] + 1)
    out = []
    for r in range(len(box_rows(p))):
        row = []
        for j in range(inner):
            a = p.smem_offset + r * pitch + j * eb
            row.append(swizzle(a, p.swizzle) - p.smem_offset)
        out.append(tuple(row))
    return tuple(out)


def row_coordinates(p) -> list[tuple[int, ...]]:
    """The coordinates of dims 1… of each placed row: a box row's, or a run's (y stays the
    start's: box dimension 1 adds no rows)."""
    start, es = box_start(p), element_strides(p)
    if p.interleave != "none":
        return [(start[1], *(start[k + 2] + v for k, v in enumerate(r))) for r in runs(p)]
    return [tuple(start[i + 1] + v * es[i + 1] for i, v in enumerate(r)) for r in box_rows(p)]


def inner_coordinates(p) -> list[int]:
    """Dimension 0's coordinate of each element slot of a placed row: the element's, or under
    interleave the chunk's (dimension 0 counts chunks)."""
    start, es = box_start(p), element_strides(p)
    if p.interleave != "none":
        per = interleave_bytes(p) // p.element_bytes
        return [start[0] + j // per for j in range(p.box_dims[0] * per)]
    return [start[0] + j * es[0] for j in range(counts(p)[0])]


def zero_filled(p) -> tuple[tuple[bool, ...], ...]:
    """Whether each element of the box lies outside the tensor (the TMA fills it with zeros)."""
    n = counts(p)
    if not_placed(p):
        return ()
    if p.interleave != "none":
        per = interleave_bytes(p) // p.element_bytes
        chunks = chunk_outside(p)
        return tuple(tuple(out or chunks[j // per] for j in range(len(chunks) * per))
                     for out in run_outside(p))
    es = element_strides(p)
    dims, start = p.global_dims, box_start(p)

    def out_of(i: int, k: int) -> bool:
        c = start[i] + k * es[i]
        return not 0 <= c < dims[i]

    out = []
    for r in box_rows(p):
        outer = any(out_of(i + 1, k) for i, k in enumerate(r))
        out.append(tuple(outer or out_of(0, j) for j in range(n[0])))
    return tuple(out)
