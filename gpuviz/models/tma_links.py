"""What a TMA box's placement means to the neighbouring panels: the swizzle panel's
Swizzle⟨B,M,S⟩ and the wgmma matrix descriptor that reads the box where it landed.

- **Swizzle.** The tensor map's shared-memory swizzle modes are members of the CuTe family
  Swizzle⟨B,M,S⟩ on byte addresses (:mod:`gpuviz.models.swizzle`, CUDA C++ Programming Guide,
  *Tensor Memory Access*, swizzle modes): 32B = ⟨1,4,3⟩, 64B = ⟨2,4,3⟩, 128B = ⟨3,4,3⟩, the
  pattern repeating every 256, 512 and 1024 bytes; the swizzle panel names them by the same
  mode. A buffer ``smem_offset`` bytes past a 1024-byte boundary starts on line
  ``(smem_offset >> 7) & m`` of the pattern (m = 1, 3, 7).
- **Descriptor** (PTX ISA, *Asynchronous Warpgroup Level Matrix Shared Memory Layout*, *Matrix
  Descriptor Format*): a K-major operand whose rows are the box's rows and whose K is the box's
  inner dimension, read through the descriptor fields :mod:`gpuviz.models.mma_warpgroup`
  encodes: start address (the buffer), swizzle mode bits 62–63 (1 = 128B, 2 = 64B, 3 = 32B),
  LBO unused and SBO one 8-row atom (8 × the swizzle span), one instruction per 32 bytes of K
  (k16 of 16-bit, k8 of tf32, k32 of 8-bit types). The matrix base offset (bits 49–51) is 0 at
  any start: a TMA load swizzles by the absolute shared-memory address, and wgmma reads the
  pattern by the same address bits, so nothing is left to offset. The PTX ISA's formula,
  ``(pattern start address >> 7) & 7`` where the pattern does not start on its boundary, is for
  a pattern laid out from the buffer's start; measured on an H100
  (resources/measurements/tma/h100-wgmma-base-offset.json: B placed by the absolute-address
  128B swizzle at starts 0, 128 and 384) base offset 0 reads every element right and the
  formula's 1 and 3 read 4,013 and 4,009 of 4,096 wrong.
  Without a swizzle a 2-D box's rows are packed at the inner box's width, not the 8 × 16-byte
  core matrices wgmma's no-swizzle layout reads, so there is no descriptor to give.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from gpuviz.models import mma_warpgroup as wg
from gpuviz.models.swizzle import PRESETS

#: The bytes after which each mode's pattern repeats (8 lines of its span).
REPEAT_BYTES = {"none": 0, "32B": 256, "64B": 512, "128B": 1024}


@dataclass(frozen=True)
class SwizzleLink:
    """The swizzle panel's equivalent of the tensor map's swizzle mode."""

    mode: str  # the swizzle panel's mode of the same name
    bits: int  # B of Swizzle⟨B,M,S⟩
    base: int  # M
    shift: int  # S
    repeat_bytes: int  # the pattern's period (0: no swizzle)
    phase: int  # the pattern's line the buffer starts on


@dataclass(frozen=True)
class DescriptorLink:
    """The wgmma matrix descriptor fields the placement implies."""

    swizzle: str
    layout_type: int  # the swizzle-mode field, bits 62–63
    start_address: int  # bytes past the 1024-byte-aligned shared base
    leading_byte_offset: int
    stride_byte_offset: int
    base_offset: int  # bits 49–51
    k_steps: int  # wgmma instructions along the box's inner dimension (32 bytes each)
    descriptor_hex: str


def swizzle_link(swizzle: str, smem_offset: int) -> SwizzleLink:
    b, m, s = PRESETS[swizzle]
    mask = (1 << b) - 1
    return SwizzleLink(mode=swizzle, bits=b, base=m, shift=s,
                       repeat_bytes=REPEAT_BYTES[swizzle], phase=(smem_offset >> 7) & mask)


def base_offset(swizzle: str, start: int) -> int:
    """The descriptor's matrix base offset of a box a TMA load placed at ``start``: 0, the
    pattern being the absolute address's (measured; see the module's docstring)."""
    return 0


def formula_base_offset(swizzle: str, start: int) -> int:
    """The PTX ISA's base offset of a pattern laid out from ``start``: 0 on the pattern's
    boundary, else ``(start >> 7) & 7`` (what a placement by absolute address must not use)."""
    repeat = REPEAT_BYTES[swizzle]
    if not repeat or start % repeat == 0:
        return 0
    return (start >> 7) & 7


def descriptor_link(swizzle: str, smem_offset: int, inner_bytes: int) -> DescriptorLink | None:
    """The descriptor of a K-major operand placed by the box; None without a swizzle."""
    if swizzle == "none":
        return None
    span = wg.SWIZZLE_BYTES[swizzle]
    k_steps = max(1, min(span, inner_bytes) // wg.K_BYTES)
    lbo, sbo = wg.canonical_offsets(swizzle, k_steps)
    offset = base_offset(swizzle, smem_offset)
    code = wg.encode_descriptor(smem_offset, lbo, sbo, swizzle, offset)
    return DescriptorLink(swizzle=swizzle, layout_type=wg.DESCRIPTOR_MODE[swizzle],
                          start_address=smem_offset, leading_byte_offset=lbo,
                          stride_byte_offset=sbo, base_offset=offset, k_steps=k_steps,
                          descriptor_hex=f"0x{code:016x}")


def swizzle_params(link: SwizzleLink, current):
    """The swizzle panel's section ``current`` showing the tensor map's mode."""
    return replace(current, swizzle=replace(current.swizzle, mode=link.mode))


def mma_params(link: DescriptorLink, current):
    """The mma panel's section ``current`` reading the box through the descriptor: B's tile at
    the buffer with the map's swizzle and K steps, the descriptor part shown first (the page a
    dock too small for every part opens on)."""
    w = replace(current.warpgroup, swizzle=link.swizzle, start_address=link.start_address,
                k_steps=link.k_steps, leading_byte_offset=None, stride_byte_offset=None)
    show = ("descriptor", *(part for part in current.show if part != "descriptor"))
    return replace(current, warpgroup=w, show=show)
