"""Numbers in figures: one format for every figure (``1,024``, ``0.125``), counts with their
noun in the right number, bounded percentages, exact byte units, and the stated rule by which
a value too long for its cell is shortened (``5.1k``, ``2²⁴``), never dropped."""

from __future__ import annotations

import math
from collections.abc import Sequence


def format_number(v: float, digits: int = 3) -> str:
    """The one number format of every figure: integers with comma grouping (``1,024``), other
    values with ``digits`` significant digits (``0.125``, ``1.5e+08``)."""
    if isinstance(v, bool):
        return str(v)
    if isinstance(v, int) or (isinstance(v, float) and math.isfinite(v) and v == round(v)
                              and abs(v) < 1e15):
        return f"{round(v):,}"
    if isinstance(v, float) and not math.isfinite(v):
        return "∞" if v > 0 else ("−∞" if v < 0 else "NaN")
    return f"{v:.{digits}g}"


def counted(n: int, noun: str, plural: str | None = None) -> str:
    """``n`` and its noun, in the number the count asks for: "1 round", "2 rounds"."""
    return f"{format_number(n)} {noun if n == 1 else plural or noun + 's'}"


def format_percent(fraction: float) -> str:
    """A share as a percentage bounded to 0–100 % (one decimal where it matters)."""
    p = max(0.0, min(100.0, fraction * 100.0))
    return f"{p:.0f} %" if abs(p - round(p)) < 0.05 else f"{p:.1f} %"


def format_bytes(n: int) -> str:
    """Bytes in the unit that keeps them exact where possible: 1,024 B, 48 KiB, 1.5 KiB."""
    if n < 1024:
        return f"{n:,} B"
    for unit, size in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= size:
            q = n / size
            return f"{q:,.0f} {unit}" if n % size == 0 else f"{q:,.1f} {unit}"
    return f"{n:,} B"


_SUPERSCRIPT = str.maketrans("0123456789+-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻")


def short_forms(text: str) -> list[str]:
    """Shorter spellings of a number, most exact first: without grouping, as a power of two (±
    a small remainder), then rounded with k/M/G. A text that is not a number has none."""
    raw = text.replace(",", "").replace("\u2009", "").replace("−", "-").strip()
    try:
        value = int(raw)
    except ValueError:
        try:
            f = float(raw)
        except ValueError:
            return []
        if not math.isfinite(f):
            return []
        rounded = (f"{f:.3g}", f"{f:.2g}", f"{f:.1g}")
        # each with its exponent written without "+" and leading zeros (1e+16 as 1e16)
        spelt = [g for form in rounded for g in (form, _compact_exponent(form))]
        return [s for s in dict.fromkeys(spelt) if s != text]
    forms: list[str] = []
    if raw != text:
        forms.append(raw)
    mag = abs(value)
    if mag >= 1024:
        k = round(math.log2(mag))
        rest = mag - (1 << k)
        if abs(rest) <= 99:
            sign = "-" if value < 0 else ""
            tail = "" if rest == 0 else (f"+{rest}" if rest > 0 else f"−{-rest}")
            forms.append(f"{sign}2{str(k).translate(_SUPERSCRIPT)}{tail}")
    if mag >= 1000:
        for unit, size in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
            if mag >= size:
                q = value / size
                forms += [f"{q:.3g}{unit}", f"{q:.2g}{unit}"]
                if abs(q) >= 10:
                    forms.append(f"{round(q)}{unit}")
                break
    unique: list[str] = []
    for form in forms:
        if form not in unique and form != text:
            unique.append(form)
    return unique


#: A value shortened to fit its cell: (its place: the value's key, or its position; the short
#: form; the exact text). Keyed by place, so that four values shortened alike ("17M") are four.
Shortened = tuple[str, str, str]


def _compact_exponent(form: str) -> str:
    """``-4e+16`` as ``-4e16``, ``1e-05`` as ``1e-5``: the same number, shorter."""
    mantissa, e, exponent = form.partition("e")
    if not e:
        return form
    sign = "-" if exponent.startswith("-") else ""
    return f"{mantissa}e{sign}{exponent.lstrip('+-').lstrip('0') or '0'}"


def shortened_note(shortened: Sequence[Shortened], limit: int = 6) -> str:
    """The legend's statement of shortened values: each short form with its exact value (or,
    where several values share one short form, how many and their range), or the rule."""
    if not shortened:
        return ""
    exact: dict[str, set[str]] = {}
    for _, short, full in shortened:
        exact.setdefault(short, set()).add(full)
    said = []
    for short, fulls in sorted(exact.items(), key=lambda kv: min(map(_order, kv[1]))):
        values = sorted(fulls, key=_order)
        said.append(f"{short} = {values[0]}" if len(values) == 1 else
                    f"{short} = {len(values)} values, {values[0]} to {values[-1]}")
    listed = "Shortened to fit: " + "; ".join(said) + "."
    if all(full.replace(",", "") == short for short, fulls in exact.items() for full in fulls):
        # only grouping commas dropped: the one rule, where it is shorter than the list
        rule = f"Shortened to fit: thousands without their comma ({said[0]})."
        return rule if len(rule) < len(listed) or len(exact) > limit else listed
    if len(exact) <= limit:
        return listed
    return ("Values too long for their cells are shortened: 2ⁿ = a power of two (± a small "
            "remainder); k, M, G = thousands, millions, billions, rounded.")


def _order(text: str) -> tuple[float, str]:
    """An exact value's place in numeric order (``1,552`` before ``16,777,216``)."""
    try:
        return float(text.replace(",", "").replace("−", "-")), text
    except ValueError:
        return math.inf, text
