"""Physical size presets for exported figures (width in mm; the figure scales uniformly)."""

from __future__ import annotations

from gpuviz.figures.display import Figure

# single and double journal columns; a 16:9 slide of 254 × 142.875 mm (10 × 5.625 in)
PRESETS: dict[str, tuple[float, float] | None] = {
    "natural": None,
    "single": (85.0, 1e9),
    "double": (178.0, 1e9),
    "slide": (254.0, 142.875),
}


def fitted_width(figure: Figure, preset: str) -> float | None:
    """The export width in mm that fits ``figure`` into the preset box, keeping its aspect."""
    box = PRESETS[preset]
    if box is None:
        return None
    bw, bh = box
    scale = min(bw / figure.width, bh / figure.height)
    return figure.width * scale


def smallest_text_pt(figure: Figure, width_mm: float | None) -> float:
    """The smallest type size in the exported figure, in points, after scaling."""
    from gpuviz.figures.display import Text, walk

    scale = (width_mm / figure.width) if width_mm else 1.0
    sizes = [t.size for t in walk(figure.items) if isinstance(t, Text)]
    return min(sizes) * scale if sizes else 0.0
