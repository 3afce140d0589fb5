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
header.site nav { margin-left: auto; }
header.site nav a { color: #fff; margin-left: 1em; }
main.page { max-width: 76em; margin: 0 auto; padding: .6em 1.2em 2em; }
h1 { font-size: 1.4em; margin: .3em 0 .1em; }
h2 { font-size: 1.12em; margin: 1.4em 0 .3em; border-bottom: 1px solid var(--line);
     padding-bottom: .2em; }
.muted { color: var(--muted); }
.subtitle { margin: 0 0 .4em; }
.summary { display: flex; flex-wrap: wrap; gap: .4em; margin: .4em 0; padding: 0; }
.summary span { background: var(--head); border-radius: 1em; padding: .1em .8em; }
.summary span.bad { background: var(--bad-bg); }
table { border-collapse: collapse; width: 100%; margin-top: .4em; }
th, td { text-align: left; padding: .25em .6em; border-bottom: 1px solid var(--line);
         vertical-align: top; }
th { background: var(--head); font-weight: 600; white-space: nowrap; }
table.sortable th { cursor: pointer; user-select: none; }
table.sortable th::after { content: " \\2195"; color: #aaa; font-weight: 400; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
tr.failed > td:first-child { box-shadow: inset 4px 0 0 var(--bad); }
tr.failed { background: var(--bad-bg); }
tr.ungradable { background: #fff6e0; }
.bar { background: #e8e8ee; width: 8em; height: .75em; display: inline-block;
       vertical-align: middle; margin-right: .4em; }
.bar > span { background: var(--good); height: 100%; display: block; }
.bad { color: var(--bad); font-weight: 600; }
.good { color: var(--good); }
svg text { font: 11px system-ui, sans-serif; fill: #333; }
svg rect.bin { fill: var(--accent); }
details { margin: .6em 0; }
details > summary { cursor: pointer; font-weight: 600; }
.side-by-side { display: grid; grid-template-columns: 1fr 1fr; gap: 1em; }
pre { white-space: pre-wrap; background: var(--head); padding: .5em; margin: .2em 0;
      max-height: 20em; overflow: auto; font-size: 12.5px; }
pre.code { max-height: none; font-size: 12px; }
mark { background: #ffe08a; }
.replay { display: flex; gap: 2em; flex-wrap: wrap; }
.replay canvas { border: 1px solid #444; }
.replay ol { max-height: 480px; overflow-y: auto; font-family: ui-monospace, monospace;
             margin: 0; }
.replay li { cursor: pointer; }
.replay li.current { background: #ffe08a; }
.legend span { margin-right: 1em; }
"""
