"""A block's shape and a warp's place in it: one rule for every panel that names them.

CUDA C++ Programming Guide, *Thread Hierarchy* and *Features and Technical Specifications*
(every compute capability since 2.0): a block has at most 1024 threads, blockDim.x and
blockDim.y are at most 1024 and blockDim.z at most 64; gridDim.x is at most 2^31 − 1 and
gridDim.y, gridDim.z at most 65535, so blockIdx.y and blockIdx.z are below 65535. A block of T
threads has ⌈T / warp_size⌉ warps (consecutive linear thread ids, x fastest), so warp w exists
only when w · warp_size < T.
"""

import math
from collections.abc import Sequence

MAX_BLOCK_THREADS = 1024
MAX_BLOCK_Z = 64
MAX_GRID_X = (1 << 31) - 1
MAX_GRID_YZ = 65535


def block_problems(block: Sequence[int], path: str = "block") -> list[tuple[str, str]]:
    """Why ``block`` (blockDim, 1 to 3 numbers, x first) is not a block CUDA can launch."""
    out: list[tuple[str, str]] = []
    threads = math.prod(block)
    if threads > MAX_BLOCK_THREADS:
        out.append((path, f"a block holds at most {MAX_BLOCK_THREADS} threads; "
                          f"{' × '.join(map(str, block))} = {threads}"))
    if len(block) == 3 and block[2] > MAX_BLOCK_Z:
        out.append((f"{path}[2]", f"blockDim.z is at most {MAX_BLOCK_Z}"))
    return out


def warp_problems(warp: int, warp_size: int, threads: int, path: str = "warp") -> list[tuple[str, str]]:
    """Why warp ``warp`` does not exist in a block of ``threads`` threads."""
    warps = -(-threads // warp_size)
    if warp < warps:
        return []
    return [(path, f"warp {warp} does not exist; a block of {threads:,} threads has "
                   f"warp{'s 0 …' if warps > 1 else ''} {warps - 1}")]


def block_index_problems(block_idx: Sequence[int], path: str = "block_idx") -> list[tuple[str, str]]:
    """Why ``block_idx`` (blockIdx x, y, z) cannot occur in any grid."""
    for d, limit in ((0, MAX_GRID_X), (1, MAX_GRID_YZ), (2, MAX_GRID_YZ)):
        if d < len(block_idx) and block_idx[d] >= limit:
            return [(f"{path}[{d}]", f"blockIdx.{'xyz'[d]} is below {limit:,} (gridDim."
                                     f"{'xyz'[d]} is at most {limit:,})")]
    return []
