"""Animated GIF and APNG of a panel's playback or of a scenario's steps.

Frames are painted one at a time (the Qt painter, as for PNG export) and written to the file as
they come, so memory stays flat however many frames there are: the GIF through Pillow's frame
encoder with one shared palette, the APNG chunk by chunk (acTL, fcTL, IDAT/fdAT). Every frame is
drawn on a canvas of the largest frame's size (figures of different frames may differ a little),
anchored at the top left on the theme's background.

The work is bounded before anything is written: a frame has at most :data:`MAX_FRAME_PIXELS`
pixels (memory) and an animation at most :data:`MAX_ANIMATION_PIXELS` pixels in all, frames ×
canvas (time); a larger request is refused with the frame count and resolution that fit. The
file is written through :func:`gpuviz.atomic.atomic_writer` (nothing is left behind on failure).
The frame rate is :data:`MIN_FPS` … :data:`MAX_FPS`: a GIF stores each frame's delay in 1/100 s
in 16 bits (at most 655.35 s a frame), an APNG as a 16-bit fraction.
"""

from __future__ import annotations

import io
import struct
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

from gpuviz.atomic import atomic_writer
from gpuviz.figures.display import Figure

MAX_FRAMES = 2000  # the most frames one animation may have
MAX_FPS = 50.0
MIN_FPS = 0.002  # a frame every 500 s; a GIF's longest delay is 655.35 s
MAX_FRAME_PIXELS = 8_000_000  # one frame (a 110 dpi full-width figure is about 0.5 million)
# Pixels painted and encoded in all: about 8 s on a shared core for the figures costliest to
# build, the 256×256 traversal (benchmarks/bench_limits.py, the animation rows).
MAX_ANIMATION_PIXELS = 20_000_000


@dataclass(frozen=True)
class FramePlan:
    """What to animate: ``count`` figures made by ``figure(i)``, at ``fps``."""

    count: int
    figure: Callable[[int], Figure]
    fps: float


def _pixels(fig: Figure, width_mm: float | None, dpi: int) -> tuple[int, int]:
    scale = (width_mm / fig.width) if width_mm else 1.0
    px = dpi / 25.4
    return max(1, round(fig.width * scale * px)), max(1, round(fig.height * scale * px))


def canvas_size(plan: FramePlan, width_mm: float | None, dpi: int) -> tuple[int, int]:
    """The common canvas of the plan's frames in pixels; raises ExportLimitError, before any
    frame is painted, when the animation is larger than gpuviz writes."""
    first = _pixels(plan.figure(0), width_mm, dpi)
    check_work(plan.count, first, dpi)
    sizes = [first] + [_pixels(plan.figure(i), width_mm, dpi) for i in range(1, plan.count)]
    canvas = (max(w for w, _ in sizes), max(h for _, h in sizes))
    check_work(plan.count, canvas, dpi)
    return canvas


def _frames(plan: FramePlan, width_mm: float | None, dpi: int, background: str):
    """(size, iterator of RGB PIL images on a common canvas); raises ExportLimitError, before
    any frame is painted, when the animation is larger than gpuviz writes."""
    from PIL import Image

    from gpuviz.export.raster import render_rgb

    canvas = canvas_size(plan, width_mm, dpi)

    def gen() -> Iterator[Image.Image]:
        for i in range(plan.count):
            w, h, row, data = render_rgb(plan.figure(i), width_mm, dpi)
            rgb = Image.frombuffer("RGB", (w, h), data, "raw", "RGB", row, 1)
            if rgb.size != canvas:
                ground = Image.new("RGB", canvas, background)
                ground.paste(rgb, (0, 0))
                rgb = ground
            yield rgb

    return canvas, gen()


def check_work(frames: int, size: tuple[int, int], dpi: int) -> None:
    """ExportLimitError when ``frames`` frames of ``size`` pixels are more than gpuviz paints
    for one animation, saying what would fit."""
    from gpuviz.export.raster import ExportLimitError

    w, h = size
    if w * h > MAX_FRAME_PIXELS:
        fitting = int(dpi * (MAX_FRAME_PIXELS / (w * h)) ** 0.5)
        raise ExportLimitError(f"an animation frame of {w} × {h} pixels is larger than the "
                               f"{MAX_FRAME_PIXELS // 1_000_000} million pixels gpuviz paints "
                               f"per frame; use at most {fitting} dpi")
    if frames * w * h > MAX_ANIMATION_PIXELS:
        fit = max(1, MAX_ANIMATION_PIXELS // (w * h))
        raise ExportLimitError(f"{frames:,} frames of {w} × {h} pixels are "
                               f"{frames * w * h / 1e6:,.0f} million pixels; an animation is at "
                               f"most {MAX_ANIMATION_PIXELS // 1_000_000} million: use "
                               f"--max-frames {fit} or a lower --dpi")


def write_gif(plan: FramePlan, path: Path, *, width_mm: float | None = None, dpi: int = 96,
              background: str = "#FFFFFF") -> int:
    """Write an endlessly looping GIF; returns the number of frames."""
    from PIL import GifImagePlugin, Image

    _, frames = _frames(plan, width_mm, dpi, background)
    delay = round(1000.0 / plan.fps)
    count = 0
    with atomic_writer(path) as fp:
        palette = None
        for rgb in frames:
            if palette is None:  # one palette for all frames: the first frame's colours
                palette = rgb.quantize(colors=256, method=Image.Quantize.MEDIANCUT,
                                       dither=Image.Dither.NONE)
                header, _ = GifImagePlugin.getheader(palette, info={"loop": 0, "duration": delay})
                for part in header:
                    fp.write(part)
            frame = rgb.quantize(palette=palette, dither=Image.Dither.NONE)
            for part in GifImagePlugin.getdata(frame, duration=delay, loop=0):
                fp.write(part)
            count += 1
        fp.write(b";")
    return count


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(
        ">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def _png_chunks(png: bytes) -> Iterator[tuple[bytes, bytes]]:
    pos = 8
    while pos < len(png):
        (length,) = struct.unpack(">I", png[pos:pos + 4])
        kind = png[pos + 4:pos + 8]
        yield kind, png[pos + 8:pos + 8 + length]
        pos += 12 + length


def write_apng(plan: FramePlan, path: Path, *, width_mm: float | None = None, dpi: int = 96,
               background: str = "#FFFFFF") -> int:
    """Write an endlessly looping animated PNG; returns the number of frames."""
    (w, h), frames = _frames(plan, width_mm, dpi, background)
    delay = Fraction(1 / plan.fps).limit_denominator(100)  # seconds, as 16-bit num / den
    num, den = delay.numerator, delay.denominator
    seq = 0
    with atomic_writer(path) as fp:
        fp.write(b"\x89PNG\r\n\x1a\n")
        for i, rgb in enumerate(frames):
            buf = io.BytesIO()
            rgb.save(buf, "PNG", compress_level=6)
            chunks = list(_png_chunks(buf.getvalue()))
            if i == 0:
                fp.write(_chunk(b"IHDR", next(d for k, d in chunks if k == b"IHDR")))
                fp.write(_chunk(b"acTL", struct.pack(">II", plan.count, 0)))
            fp.write(_chunk(b"fcTL", struct.pack(">IIIIIHHBB", seq, w, h, 0, 0, num, den, 0, 0)))
            seq += 1
            for kind, data in chunks:
                if kind != b"IDAT":
                    continue
                if i == 0:
                    fp.write(_chunk(b"IDAT", data))
                else:
                    fp.write(_chunk(b"fdAT", struct.pack(">I", seq) + data))
                    seq += 1
        fp.write(_chunk(b"IEND", b""))
    return plan.count


def check_animation(plan: FramePlan, *, width_mm: float | None = None, dpi: int = 96) -> None:
    """Raise what :func:`write_animation` would raise before painting (the frame rate and
    count as ValueError, the pixels as ExportLimitError), writing nothing: a command that
    writes several animations checks them all before the first."""
    if not MIN_FPS <= plan.fps <= MAX_FPS:
        raise ValueError(f"--fps must be from {MIN_FPS:g} to {MAX_FPS:g}, not {plan.fps:g}")
    if not 1 <= plan.count <= MAX_FRAMES:
        raise ValueError(f"an animation has 1 to {MAX_FRAMES} frames, not {plan.count}")
    canvas_size(plan, width_mm, dpi)


def write_animation(plan: FramePlan, path: Path, fmt: str, **kw) -> int:
    if not MIN_FPS <= plan.fps <= MAX_FPS:
        raise ValueError(f"--fps must be from {MIN_FPS:g} to {MAX_FPS:g}, not {plan.fps:g}")
    if not 1 <= plan.count <= MAX_FRAMES:
        raise ValueError(f"an animation has 1 to {MAX_FRAMES} frames, not {plan.count}")
    writer = {"gif": write_gif, "apng": write_apng}[fmt]
    return writer(plan, Path(path), **kw)
