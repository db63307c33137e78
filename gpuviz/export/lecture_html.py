"""A lecture as one self-contained web page: ``gpuviz export SCENARIO --format html``.

Everything is inside the one file: every step's figures as inline SVG (a wide layout for
screens and a single-column one for phones, each in the light and the dark theme, chosen by CSS
media queries), the shipped faces subset to the characters used and embedded as WOFF, the
styles and a small script. Nothing is fetched from a network. Without the script the page is a
long document of every step; with it, one step at a time, walked with PageDown/PageUp, the arrow
keys, Space, Home/End or the buttons. A question (predict, then reveal) keeps its figures and
caption (the answer) out of the page's markup: they travel as an encoded payload that the script
decodes and inserts when the reader reveals them, so the answer is neither in the page source nor
in print while the step is veiled. Presenter notes are left out. Qt-free.
"""

from __future__ import annotations

import base64
import html
import re
from collections.abc import Iterable, Sequence
from dataclasses import replace
from functools import lru_cache

from gpuviz import __version__
from gpuviz.export.lecture import Clock, Page, check_lecture_size, first_step, lecture_pages, plural
from gpuviz.export.svg import figure_to_svg, xml_safe
from gpuviz.export.svg_fonts import subset_bytes
from gpuviz.figures.display import Figure, Text, walk
from gpuviz.figures.metrics import typeface_file
from gpuviz.figures.scene import figure_for, uncount
from gpuviz.figures.targets import Target
from gpuviz.figures.theme import theme
from gpuviz.scenario.document import Scenario

# (variant class, theme, size preset): wide layouts for screens, single column for phones
VARIANTS = (("light wide", "screen", "slide"), ("dark wide", "dark", "slide"),
            ("light narrow", "screen", "single"), ("dark narrow", "dark", "single"))
# the SVG font-family names and the shipped files behind them
FACES = (("Inter", "normal", "Inter-Regular.otf"), ("Inter", "bold", "Inter-Bold.otf"),
         ("Noto Sans Mono", "normal", "NotoSansMono-Regular.ttf"),
         ("Noto Sans Mono", "bold", "NotoSansMono-Bold.ttf"))


def lecture_html(scenario: Scenario, scenario_sha256: str,
                 steps: Sequence[int] | None = None, *,
                 panels: Sequence[str] | None = None, items: int | None = None) -> str:
    """The page's text for ``scenario`` (every step, or the 0-based ``steps``); ``items``:
    the work budget in drawn figure items (:data:`~gpuviz.export.lecture.MAX_LECTURE_ITEMS`)."""
    pages = lecture_pages(scenario, steps, panels, "html")
    check_lecture_size(pages, len(VARIANTS), "A web lecture")
    sections = []
    text = [scenario.title]
    clock = Clock("A web lecture", items, first_step(pages))
    for i, page in enumerate(pages):
        figures = [_figure_html(page, pid, f"p{i}-{j}") for j, pid in enumerate(page.panels)]
        clock.check(i + 1, len(pages))
        sections.append(_section_html(page, i, len(pages), [f for f, _ in figures]))
        text += [page.title, page.caption, page.question, *(t for _, t in figures)]
    text.append(_VEIL)
    nav = "\n".join(f'<li><a href="#p{i}" data-page="{i}">'
                    f"<span class=\"num\">{_e(p.label)}</span> <span class=\"title\">{_e(p.title)}</span>"
                    "</a></li>"
                    for i, p in enumerate(pages))
    count = plural(len(pages) - 1, "step")
    return _TEMPLATE.format(
        title=_e(scenario.title), version=_e(__version__), sha=_e(scenario_sha256),
        count=_e(count), nav=nav, sections="\n".join(sections), fonts=_font_css("".join(text)),
        style=_STYLE, script=_SCRIPT)


def _section_html(page: Page, index: int, total: int, figures: Iterable[str]) -> str:
    question = ""
    if page.question:
        question = (f'<div class="question" role="note"><p><strong>Predict first.</strong> '
                    f"{_e(page.question)}</p><button type=\"button\" class=\"reveal\">"
                    "Reveal the answer</button></div>")
    caption = f'<p class="caption">{_e(page.caption)}</p>' if page.caption else ""
    shown, answer, payload = "".join(figures), caption, ""
    if page.question:  # the answer is left out of the markup until the reader reveals it
        payload = _payload("figures", shown) + _payload("answer", answer)
        shown, answer = f'<div class="veil">{_VEIL}</div>', ""
    return (f'<section class="page" id="p{index}" data-page="{index}"'
            f'{" data-question" if page.question else ""} aria-label="{_e(page.label)}">'
            f'<h2><span class="num">{_e(page.label)}'
            f'{f" of {total - 1}" if index else ""}</span> {_e(page.title)}</h2>'
            f'{question}<div class="figures">{shown}</div>'
            f'<div class="answer">{answer}</div>{payload}</section>')


_VEIL = "Veiled until you reveal it"


def _payload(into: str, markup: str) -> str:
    """Markup the script inserts into the section's ``into`` element on reveal, as base64 of
    its UTF-8 text: inert data, neither shown, printed nor readable in the source."""
    data = base64.b64encode(markup.encode("utf-8")).decode("ascii")
    return f'<script type="application/octet-stream" data-into="{into}">{data}</script>'


def _figure_html(page: Page, panel_id: str, prefix: str) -> tuple[str, str]:
    """One panel's figure in every variant, and the text it sets (for the font subset)."""
    out, text, alt = [], [], ""
    for n, (figure, svg) in enumerate(_variants(page, panel_id)):
        alt = alt or figure.description or figure.title
        text.append(_texts(figure))
        out.append(f'<div class="v {VARIANTS[n][0]}">{inline_svg(svg, f"{prefix}v{n}-")}</div>')
    return (f'<figure class="fig" data-panel="{_e(panel_id)}">{"".join(out)}'
            f'<figcaption class="alt">{_e(alt)}</figcaption></figure>', "".join(text))


def _variants(page: Page, panel_id: str) -> list[tuple[Figure, str]]:
    """The panel's figure and its SVG in each of VARIANTS. A dark layout is the light one's in
    other colours: where the light figure's design, kept, draws that figure again, the dark
    one is built with it, not searched for anew (a search costs several times a build; the
    same SVG: tests/lecture/test_lecture_html.py holds them to fresh searches)."""
    made: dict[str, tuple[Target, Figure, str]] = {}  # size -> light target, figure, SVG
    out = []
    for _cls, theme_name, size in VARIANTS:
        target = page.target(panel_id, size)
        selection = page.selection_for(panel_id)
        light = made.get(size)
        if light is not None and light[1].design is not None:
            kept = replace(light[0], design=light[1].design)
            check = figure_for(page.state, panel_id, theme(VARIANTS[0][1]), selection, kept)
            uncount(check)
            if figure_to_svg(check) == light[2]:
                target = kept
        figure = figure_for(page.state, panel_id, theme(theme_name), selection, target)
        svg = figure_to_svg(figure)
        made.setdefault(size, (target, figure, svg))
        out.append((figure, svg))
    return out


_ID = re.compile(r'\bid="([^"]+)"')
_REF = re.compile(r'(url\(#|href="#)([^)"]+)')


def inline_svg(svg: str, prefix: str) -> str:
    """An SVG document as an element of a page: no XML declaration, and every id (and every
    reference to one) prefixed, so that figures in one page cannot resolve each other's
    patterns and keys."""
    body = svg.split("?>", 1)[1] if svg.startswith("<?xml") else svg
    body = _ID.sub(lambda m: f'id="{prefix}{m.group(1)}"', body)
    body = _REF.sub(lambda m: f"{m.group(1)}{prefix}{m.group(2)}", body)
    return body.replace("<svg ", '<svg role="img" ', 1).strip()


def _texts(figure: Figure) -> str:
    return "".join(item.text for item in walk(figure.items) if isinstance(item, Text))


def _font_css(text: str) -> str:
    chars = "".join(sorted(set(text) | set(" 0123456789.,:;–-—…%×·()[]")))
    # a paper's typeface (--font), which set the figures' sans text, under the family name
    # their text names (metrics.family_name: nothing that can close the string)
    papers = [(paper[1], weight, paper[0]) for weight, paper in
              (("normal", typeface_file(False)), ("bold", typeface_file(True))) if paper]
    rules = []
    for family, weight, name in (*papers, *FACES):
        data = base64.b64encode(_subset(name, chars, name not in _SHIPPED)).decode("ascii")
        rules.append(f"@font-face{{font-family:'{family}';font-weight:{weight};"
                     f"src:url(data:font/woff;base64,{data}) format('woff');}}")
    return "\n".join(rules)


_SHIPPED = frozenset(name for _, _, name in FACES)


@lru_cache(maxsize=16)
def _subset(name: str, chars: str, own_file: bool = False) -> bytes:
    """A face as WOFF with the characters of the page (ligatures and tabular figures kept);
    ``own_file``: ``name`` is the file of a paper's typeface."""
    return subset_bytes(name, frozenset(map(ord, chars)), flavor="woff",
                        features=("kern", "liga", "tnum"), own_file=own_file)


def _e(text: str) -> str:
    """Escaped, and a character HTML may not carry (a C0 control, U+FFFE, U+FFFF) shown as
    U+FFFD, as the figures show it. https://html.spec.whatwg.org/#preprocessing-the-input-stream"""
    return html.escape(xml_safe(text), quote=True)


_STYLE = """
:root{--bg:#fff;--ink:#1a1a1a;--muted:#5a5a5a;--rule:#d8d8d8;--accent:#0b62a4;--panel:#f4f4f4}
@media (prefers-color-scheme:dark){:root{--bg:#15171a;--ink:#e8e8e8;--muted:#a8a8a8;
--rule:#3a3d42;--accent:#6cb4ff;--panel:#1f2226}}
*{box-sizing:border-box}
html{background:var(--bg);color:var(--ink);font:17px/1.45 Inter,'Helvetica Neue',Arial,sans-serif}
body{margin:0 auto;max-width:1400px;padding:0 16px}
header{display:flex;flex-wrap:wrap;align-items:baseline;gap:.25em 1em;padding:12px 0 4px;
border-bottom:1px solid var(--rule)}
header h1{font-size:1.35rem;margin:0;font-weight:bold}
header .count{color:var(--muted)}
nav ol{list-style:none;margin:0;padding:8px 0;display:flex;flex-wrap:wrap;gap:4px 6px}
nav a{display:block;padding:2px 8px;border:1px solid var(--rule);border-radius:4px;
color:var(--ink);text-decoration:none;font-size:.85rem}
nav a[aria-current]{border-color:var(--accent);box-shadow:inset 0 0 0 1px var(--accent)}
nav .num{color:var(--muted)}
.page{padding:8px 0 24px;border-bottom:1px solid var(--rule)}
.page h2{font-size:1.6rem;margin:.1em 0 .3em}
.page h2 .num{color:var(--muted);font-weight:normal;font-size:.75em;margin-right:.4em}
.fig{margin:0 0 8px}
.fig .v{display:none}
.fig svg{display:block;width:100%;height:auto;max-height:var(--fig-room,calc(100vh - 190px))}
.fig .light.wide{display:block}
@media (prefers-color-scheme:dark){.fig .light.wide{display:none}.fig .dark.wide{display:block}}
@media (max-width:700px){.fig .wide{display:none!important}.fig .light.narrow{display:block}
 .fig svg{max-height:none}html{font-size:16px}
 nav ol{flex-wrap:nowrap;overflow-x:auto}nav a{white-space:nowrap}nav .title{display:none}
 .page h2 .num{display:block}}
@media (max-width:700px) and (prefers-color-scheme:dark){.fig .light.narrow{display:none}
 .fig .dark.narrow{display:block}}
.alt{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}
.caption{font-size:1.2rem;max-width:60em;margin:.3em 0}
.question{background:var(--panel);border-left:4px solid var(--accent);padding:8px 12px;
margin:0 0 10px;font-size:1.2rem}
.question p{margin:0 0 6px}
button{font:inherit;font-size:1rem;padding:6px 14px;border:1px solid var(--rule);
border-radius:4px;background:var(--panel);color:var(--ink);cursor:pointer}
button:focus-visible,nav a:focus-visible{outline:2px solid var(--accent);outline-offset:2px}
.bar{display:none}
.js .page{display:none;border:0}
.js .page.current{display:block}
@media (max-width:700px){.js .page.current{display:flex;flex-direction:column}
 .js .page .answer{order:1}.js .page .figures{order:2}}
.js .bar{display:flex;gap:10px;align-items:center;position:sticky;bottom:0;background:var(--bg);
padding:8px 0;border-top:1px solid var(--rule)}
.js .bar .where{color:var(--muted);margin-right:auto}
.veil{display:flex;align-items:center;justify-content:center;min-height:min(50vh,24em);
background:var(--panel);color:var(--muted);border:1px dashed var(--rule)}
.reveal{display:none}
.js .reveal{display:inline-block}
.js [data-question]:not(.revealed) .answer{display:none}
.js .revealed .reveal{display:none}
@media print{html{background:#fff;color:#000;font-size:11pt}nav,.bar,.reveal{display:none!important}
 .page,.js .page{display:block!important;break-after:page;border:0}
 .fig .v{display:none!important}.fig .light.wide{display:block!important}
 .fig svg{max-height:200mm}
 .veil{min-height:40mm}}
"""

_SCRIPT = """
(function () {
  'use strict';
  var doc = document.documentElement;
  doc.classList.add('js');
  var pages = Array.prototype.slice.call(document.querySelectorAll('.page'));
  var links = Array.prototype.slice.call(document.querySelectorAll('nav a'));
  var where = document.querySelector('.bar .where');
  var current = 0;
  function fromHash() {
    var m = /^#p(\\d+)$/.exec(window.location.hash);
    return m ? Math.min(pages.length - 1, parseInt(m[1], 10)) : 0;
  }
  function show(k, push) {
    current = Math.max(0, Math.min(pages.length - 1, k));
    pages.forEach(function (p, i) { p.classList.toggle('current', i === current); });
    links.forEach(function (a, i) {
      if (i === current) { a.setAttribute('aria-current', 'step'); }
      else { a.removeAttribute('aria-current'); }
    });
    where.textContent = current === 0 ? 'Overview' :
      'Step ' + current + ' of ' + (pages.length - 1);
    if (push && window.location.hash !== '#p' + current) {
      history.replaceState(null, '', '#p' + current);
    }
    place(pages[current]);
  }
  var bar = document.querySelector('.bar');
  var narrow = window.matchMedia('(max-width:700px)');
  function box(el) {
    return el && el.offsetParent !== null && el.getBoundingClientRect().height > 0 ?
      el.getBoundingClientRect() : null;
  }
  function fit(p) {
    // wide: the step's figures share the height its title, question, caption and the bar
    // leave, so the caption shows under them (a phone sets the caption above the figure)
    p.style.removeProperty('--fig-room');
    if (narrow.matches) { return; }
    var svgs = Array.prototype.filter.call(p.querySelectorAll('.figures svg'), box);
    if (!svgs.length) { return; }
    var drawn = svgs.reduce(function (h, s) { return h + box(s).height; }, 0);
    var rest = p.getBoundingClientRect().height - drawn;
    var room = (window.innerHeight - bar.offsetHeight - rest) / svgs.length;
    p.style.setProperty('--fig-room', Math.max(160, Math.floor(room)) + 'px');
  }
  function place(p) {
    // the step scrolled to the top of the window, its caption (or question) above the bar
    fit(p);
    var top = p.getBoundingClientRect().top + window.scrollY;
    var parts = [p.querySelector('.answer .caption'), p.querySelector('.question')];
    if (!narrow.matches) { parts.push(p.querySelector('.figures')); }
    var foot = parts.reduce(function (b, el) {
      var r = box(el);
      return r ? Math.max(b, r.bottom + window.scrollY) : b;
    }, 0);
    var y = current === 0 ? 0 : top;
    var room = window.innerHeight - bar.offsetHeight;
    if (foot - y > room) { y = foot - room; }
    window.scrollTo(0, Math.max(0, Math.round(y)));
  }
  window.addEventListener('resize', function () { fit(pages[current]); });
  function veiled(p) { return p.hasAttribute('data-question') && !p.classList.contains('revealed'); }
  function decode(b64) {
    var bin = atob(b64.trim()), bytes = new Uint8Array(bin.length);
    for (var i = 0; i < bin.length; i++) { bytes[i] = bin.charCodeAt(i); }
    return new TextDecoder('utf-8').decode(bytes);
  }
  function reveal(p) {
    p.querySelectorAll('script[data-into]').forEach(function (s) {
      p.querySelector('.' + s.getAttribute('data-into')).innerHTML = decode(s.textContent);
      s.parentNode.removeChild(s);
    });
    p.classList.add('revealed');
    place(p);
  }
  function next() {
    var p = pages[current];
    if (veiled(p)) { reveal(p); } else { show(current + 1, true); }
  }
  function prev() { show(current - 1, true); }
  document.addEventListener('keydown', function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey) { return; }
    var k = e.key;
    if (k === 'PageDown' || k === 'ArrowRight' || k === 'ArrowDown' || k === ' ') { next(); }
    else if (k === 'PageUp' || k === 'ArrowLeft' || k === 'ArrowUp') { prev(); }
    else if (k === 'Home') { show(0, true); }
    else if (k === 'End') { show(pages.length - 1, true); }
    else { return; }
    e.preventDefault();
  });
  document.querySelector('.bar .next').addEventListener('click', next);
  document.querySelector('.bar .prev').addEventListener('click', prev);
  pages.forEach(function (p) {
    var b = p.querySelector('.reveal');
    if (b) { b.addEventListener('click', function () { reveal(p); }); }
  });
  links.forEach(function (a, i) {
    a.addEventListener('click', function (e) { e.preventDefault(); show(i, true); });
  });
  window.addEventListener('hashchange', function () { show(fromHash(), false); });
  show(fromHash(), false);
})();
"""

_TEMPLATE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="generator" content="gpuviz {version}">
<meta name="gpuviz-version" content="{version}">
<meta name="gpuviz-scenario-sha256" content="{sha}">
<title>{title}</title>
<style>
{fonts}
{style}
</style>
</head>
<body>
<header><h1>{title}</h1><span class="count">{count}</span></header>
<nav aria-label="Steps"><ol>
{nav}
</ol></nav>
<main>
{sections}
</main>
<div class="bar" role="group" aria-label="Steps"><span class="where" aria-live="polite"></span>
<button type="button" class="prev" aria-label="Previous step">◀ Previous</button>
<button type="button" class="next" aria-label="Next step">Next ▶</button></div>
<script>
{script}
</script>
</body>
</html>
"""
