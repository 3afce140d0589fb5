"""The one stylesheet of every page (inlined by ``harness.pages.layout.page``)."""
from __future__ import annotations

STYLE = """
:root { --ink: #1d1d1f; --muted: #666; --line: #e4e4ea; --head: #f4f4f7; --bad: #a4262c;
        --bad-bg: #fdf0f0; --good: #2e7d32; --accent: #3b5b92; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0;
       color: var(--ink); background: #fff; }
header.site { background: var(--accent); color: #fff; padding: .45em 1.2em; display: flex;
              gap: 1.2em; align-items: baseline; flex-wrap: wrap; }
header.site .brand { font-weight: 700; letter-spacing: .02em; }
header.site .kind { opacity: .85; }
header.site nav { margin-left: auto; display: flex; flex-wrap: wrap; gap: .2em 1em; }
header.site nav a { color: #fff; }
main.page { max-width: 76em; margin: 0 auto; padding: .6em 1.2em 2em; }
h1 { font-size: 1.4em; margin: .3em 0 .1em; }
h2 { font-size: 1.12em; margin: 1.4em 0 .3em; border-bottom: 1px solid var(--line);
     padding-bottom: .2em; }
.muted { color: var(--muted); }
.subtitle { margin: 0 0 .4em; }
.summary { display: flex; flex-wrap: wrap; gap: .4em; margin: .4em 0; padding: 0; }
.summary span { background: var(--head); border-radius: 1em; padding: .1em .8em; }
.summary span.bad { background: var(--bad-bg); }
.wide { overflow-x: auto; max-width: 100%; margin-top: .4em; position: relative; }
.wide > table > tbody > tr > td { overflow-wrap: break-word; }  /* a long name wraps, in place */
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: .25em .6em; border-bottom: 1px solid var(--line);
         vertical-align: top; }
th { background: var(--head); font-weight: 600; }
button.sort { font: inherit; color: inherit; background: none; border: 0; padding: 0;
              cursor: pointer; text-align: inherit; }
button.sort::after { content: "\\a0\\2195" / ""; color: #555; font-weight: 400; }
th[aria-sort="ascending"] button.sort::after { content: "\\a0\\2191" / ""; }
th[aria-sort="descending"] button.sort::after { content: "\\a0\\2193" / ""; }
:focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; }
header.site :focus-visible { outline-color: #fff; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden;
                   clip: rect(0 0 0 0); white-space: nowrap; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
tr.failed > td:first-child { box-shadow: inset 4px 0 0 var(--bad); }
tr.failed { background: var(--bad-bg); }
tr.ungradable { background: #fff6e0; }
.bar { background: #e8e8ee; width: 8em; height: .75em; display: inline-block;
       vertical-align: middle; margin-right: .4em; }
.bar > span { background: var(--good); height: 100%; display: block; }
.bad { color: var(--bad); font-weight: 600; }
.good { color: var(--good); }
svg { max-width: 100%; height: auto; }
svg text { font: 11px system-ui, sans-serif; fill: #333; }
svg rect.bin { fill: var(--accent); }
details { margin: .6em 0; }
details > summary { cursor: pointer; font-weight: 600; }
.side-by-side { display: grid; grid-template-columns: repeat(auto-fit, minmax(18em, 1fr));
                gap: 1em; }
.side-by-side > div { min-width: 0; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; background: var(--head); padding: .5em;
      margin: .2em 0; max-height: 20em; overflow: auto; font-size: 12.5px; }
pre.code { max-height: none; font-size: 12px; }
mark { background: #ffe08a; }
.replay { display: flex; gap: 2em; flex-wrap: wrap; }
.replay section { min-width: 0; max-width: 100%; }
.replay > section:first-child { flex: 0 1 506px; }
.replay canvas { border: 1px solid #444; max-width: 100%; height: auto; }
.replay ol { max-height: 480px; overflow-y: auto; font-family: ui-monospace, monospace;
             margin: 0; }
.controls { display: flex; flex-wrap: wrap; gap: .3em; align-items: center; }
.controls button { min-width: 2.75em; min-height: 2em; }
.swatch { display: inline-block; width: 1em; height: 1em; border-radius: 50%;
          border: 1px solid #444; vertical-align: middle; margin-right: .3em; }
.replay li { cursor: pointer; }
.replay li.current { background: #ffe08a; }
.legend { list-style: none; padding: 0; display: flex; flex-wrap: wrap; gap: .3em 1.2em; }
/* A screen narrower than a laptop's (a phone, a tablet, a laptop at 200% zoom) stacks each data
   table's rows: every cell on a line of its own after its column's header, so every column
   shows and nothing scrolls sideways (the standings' ten columns need about 820 pixels). The
   table keeps its meaning for screen readers through the ARIA roles harness.pages.layout.table
   writes; the labels are drawn for the eye only (the "/ ''" alternative text: a reader has the
   headers). */
@media (max-width: 60em) {
  .wide > table, .wide > table > thead, .wide > table > tbody,
  .wide > table > * > tr { display: block; }
  .wide > table > tbody > tr > td { display: flow-root; }  /* holds its floated label */
  .wide > table > thead > tr { display: flex; flex-wrap: wrap; gap: .3em; padding-bottom: .3em; }
  .wide > table > thead > tr > th { border: 0; border-radius: 1em; padding: .1em .7em; }
  .wide > table:not(.sortable) > thead { position: absolute; width: 1px; height: 1px;
                                         overflow: hidden; clip: rect(0 0 0 0); }
  .wide > table > tbody > tr { border-top: 2px solid var(--line); padding: .3em 0; }
  .wide > table > tbody > tr > td { border: 0; padding: .1em .6em .1em 9.6em;
                                    overflow-wrap: anywhere;
                                    text-align: left; white-space: normal; }
  .wide > table > tbody > tr > td::before { content: attr(data-label);
      content: attr(data-label) / ""; float: left; box-sizing: border-box; width: 9em;
      margin-left: -9em;
      padding-right: .6em; font-weight: 600; color: var(--muted); }
  .wide > table > tbody > tr > td:has(> pre, > table, > .side-by-side) { padding-left: .6em; }
  .wide > table > tbody > tr > td:has(> pre, > table, > .side-by-side)::before {
      float: none; display: block; margin-left: 0; width: auto; }
  .wide > table > tbody > tr.failed > td:first-child { box-shadow: none; }
  .wide > table > tbody > tr.failed { box-shadow: inset 4px 0 0 var(--bad); }
}
"""
