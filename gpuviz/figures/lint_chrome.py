"""The lint's chrome rules: a figure drawn for a caption set elsewhere (``--chrome none``) stands
alone, and a part drawn on a page of its own is headed with its own name.

- ``end-label``: a plot of two or more series drawn without its legend (chrome "none") where a
  series' line has no label of its name near its end (or tied to it by a leader): the legend
  was the only way to tell the lines apart, and it is not drawn.
- ``prose``: a paragraph of more than :data:`MAX_WORDS` words in a figure drawn without chrome:
  a derivation or receipt written as sentences belongs in the chrome (notes) or in a table,
  where the caption set elsewhere cannot repeat it. Bold lines are headings, and a line with
  another text on its baseline is a table's row: neither is prose.
- ``part-heading``: a figure of some of a panel's parts inside full chrome whose heading is
  more than one line, repeats the whole figure's title, or takes :data:`MAX_HEADING_SHARE` of
  the height or more (where its drawing is at least twice the heading's height: a part of a
  line or two keeps a one-line heading).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from urllib.parse import unquote

from gpuviz.figures.composition import PART_GAP as HEADING_GAP
from gpuviz.figures.display import PT_TO_MM, Figure, Group, Polyline, Text, text_box, walk
from gpuviz.figures.lint import Finding, describe_text
from gpuviz.keys import key, prefix

MAX_WORDS = 12  # a label or a heading is shorter; a sentence that explains is longer
END_REACH = 8.0  # mm: how far from a line's end its label may start
MAX_HEADING_SHARE = 0.30  # of the figure's height: a part's heading and the gap under it


def chrome_findings(figure: Figure, chrome: str, *, whole_title: str = "",
                    parts: Sequence[str] | None = None) -> list[Finding]:
    """The chrome rules for ``figure`` drawn inside ``chrome``: ``end-label`` and ``prose``
    without chrome, ``part-heading`` for some ``parts`` inside full chrome (``whole_title``:
    the whole figure's title, which the part's heading must not repeat)."""
    if chrome == "none":
        return end_label_findings(figure) + prose_findings(figure)
    if chrome == "full" and parts is not None:
        return part_heading_findings(figure, whole_title)
    return []


def _groups(items: Iterable):
    """Every named group with the items under it (nested groups' items included)."""
    for item in items:
        if isinstance(item, Group):
            if item.name:
                yield item
            yield from _groups(item.items)


def end_label_findings(figure: Figure) -> list[Finding]:
    """``end-label``: each plot (a group holding series lines, keyed ``series:<label>``) of
    two or more series, whose series lack a text of their label near their line's end."""
    out: list[Finding] = []
    series_prefix = prefix("series")
    for group in _groups(figure.items):
        if group.name != "plot":
            continue
        ends: dict[str, tuple[float, float]] = {}
        for item in walk(group.items):
            if isinstance(item, Polyline) and item.key and item.key.startswith(series_prefix) \
                    and item.points:
                end = max(item.points, key=lambda p: p[0])
                if item.key not in ends or end[0] > ends[item.key][0]:
                    ends[item.key] = end
        if len(ends) < 2:
            continue
        texts = [t for t in walk(figure.items) if isinstance(t, Text)]
        leaders = [i.points for i in walk(figure.items)
                   if isinstance(i, Polyline) and len(i.points) == 2]
        for series, (ex, ey) in ends.items():
            named = [t for t in texts if series in (t.key, key("series", t.text))]
            label = named[0].text if named else unquote(series[len(series_prefix):])
            if not any(_distance(text_box(t), ex, ey) <= END_REACH or _led(t, ex, ey, leaders)
                       for t in named):
                out.append(Finding("end-label", f"series {label!r}", series,
                                   f"the line ending at ({ex:.1f}, {ey:.1f}) mm has no label "
                                   f"of its name within {END_REACH:g} mm of its end, and no "
                                   "legend is drawn: label it at its end"))
    return out


def _led(t: Text, x: float, y: float, leaders: list) -> bool:
    """Whether a leader runs from (x, y), a line's end, to the label ``t``."""
    box = text_box(t)
    return any(min(_distance((a[0], a[1], a[0], a[1]), x, y), _distance((b[0], b[1], b[0], b[1]),
                                                                        x, y)) <= 1.0
               and min(_distance(box, *a), _distance(box, *b)) <= 1.5 for a, b in leaders)


def _distance(box: tuple[float, float, float, float], x: float, y: float) -> float:
    x0, y0, x1, y1 = box
    dx = max(x0 - x, 0.0, x - x1)
    dy = max(y0 - y, 0.0, y - y1)
    return (dx * dx + dy * dy) ** 0.5


def paragraphs(figure: Figure) -> list[list[Text]]:
    """The figure's paragraphs: runs of plain (not bold, not rotated, start-anchored, not keyed
    to a shape) lines of one face, size and ink under one another at a line's step, each line
    alone on its baseline (a line with another text beside it is a table's row, and so is a monospaced line
    whose columns are aligned with spaces)."""
    texts = [t for t in walk(figure.items) if isinstance(t, Text) and t.text.strip()]
    rows: dict[float, list[Text]] = defaultdict(list)
    for t in texts:
        rows[round(t.y, 1)].append(t)
    alone = [t for t in texts if not t.bold and not t.rotate and t.anchor == "start"
             and not t.key  # a keyed text labels the shape it names (a legend's "warp 3")
             and not (t.font == "mono" and "  " in t.text.strip())  # an aligned row
             and not any(o is not t and round(o.y, 1) == round(t.y, 1)
                         and abs(o.x - t.x) > 0.5 and _same_band(o, t)
                         for o in rows[round(t.y, 1)])]
    alone.sort(key=lambda t: (round(t.x, 2), t.font, t.size, t.color, t.y))
    out: list[list[Text]] = []
    for t in alone:
        if out:
            last = out[-1][-1]
            em = t.size * PT_TO_MM
            if (abs(last.x - t.x) < 0.01 and (last.font, last.size, last.color)
                    == (t.font, t.size, t.color) and 0.9 * em <= t.y - last.y <= 1.7 * em):
                out[-1].append(t)
                continue
        out.append([t])
    return out


ROW_REACH_EM = 24.0  # a table's row: its columns within this many ems of the type


def _same_band(a: Text, b: Text) -> bool:
    """Whether two texts on one baseline are near enough to read as one row: within a
    column's width of 60 mm, or :data:`ROW_REACH_EM` ems of their type where it is larger
    (a slide's table is laid out in its own larger type, its columns as many ems apart)."""
    em = max(a.size, b.size) * PT_TO_MM
    return abs(a.x - b.x) < max(60.0, ROW_REACH_EM * em)


def words(paragraph: Sequence[Text]) -> int:
    return sum(len(t.text.split()) for t in paragraph)


LABEL_WORDS = 2.0  # a run of lines of at most this many words each, on average, is a column of
# labels (a table's row names: "lane", "1st word", "bank"), not sentences


def prose(paragraph: Sequence[Text]) -> bool:
    """Whether ``paragraph`` reads as prose: more than :data:`MAX_WORDS` words, in lines
    longer than a column of labels' (:data:`LABEL_WORDS`)."""
    n = words(paragraph)
    return n > MAX_WORDS and n / len(paragraph) > LABEL_WORDS


def prose_findings(figure: Figure) -> list[Finding]:
    """``prose``: each paragraph of more than :data:`MAX_WORDS` words."""
    return [Finding("prose", describe_text(p[0]), p[0].key,
                    f"a paragraph of {words(p)} words in {len(p)} line"
                    f"{'s' * (len(p) != 1)} in a figure without chrome: a derivation or "
                    "receipt goes in the notes, values in a table")
            for p in paragraphs(figure) if prose(p)]


def prose_share(figure: Figure) -> float:
    """The share of the figure's area that its prose paragraphs' lines cover."""
    area = 0.0
    for p in paragraphs(figure):
        if prose(p):
            for t in p:
                x0, y0, x1, y1 = text_box(t)
                area += (x1 - x0) * (y1 - y0)
    return area / max(figure.width * figure.height, 1e-9)


def heading_lines(figure: Figure) -> list[Text]:
    """The texts of the figure's heading (the composer's ``title`` group)."""
    for item in figure.items:
        if isinstance(item, Group) and item.name == "title":
            return [t for t in walk(item.items) if isinstance(t, Text)]
    return []


def heading_share(figure: Figure) -> float:
    """The share of the figure's height that its heading and the gap under it take."""
    lines = heading_lines(figure)
    if not lines:
        return 0.0
    boxes = [text_box(t) for t in lines]
    return (max(b[3] for b in boxes) - min(b[1] for b in boxes) + HEADING_GAP) / figure.height


def part_heading_findings(figure: Figure, whole_title: str) -> list[Finding]:
    """``part-heading``: a part's heading of more than one line, the whole figure's title
    again, or :data:`MAX_HEADING_SHARE` of the height or more."""
    lines = heading_lines(figure)
    if not lines:
        return [Finding("part-heading", "the figure", None, "a part inside full chrome has "
                        "no heading: name the part")]
    out: list[Finding] = []
    text = " ".join(t.text for t in lines)
    if len(lines) > 1:
        out.append(Finding("part-heading", describe_text(lines[0]), None,
                           f"the heading of a part takes {len(lines)} lines ({text[:80]!r}): "
                           "name the part in one line"))
    if whole_title and whole_title.split()[:4] == text.split()[:4]:
        out.append(Finding("part-heading", describe_text(lines[0]), None,
                           "the heading of a part repeats the whole figure's title: name "
                           "the part"))
    share = heading_share(figure)
    boxes = [text_box(t) for t in lines]
    head_h = max(b[3] for b in boxes) - min(b[1] for b in boxes) + HEADING_GAP
    drawing_h = figure.height - head_h
    if share >= MAX_HEADING_SHARE and drawing_h >= 2 * head_h:
        out.append(Finding("part-heading", describe_text(lines[0]), None,
                           f"the heading takes {share:.0%} of the part's height (under "
                           f"{MAX_HEADING_SHARE:.0%} allowed)"))
    return out
