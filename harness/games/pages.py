"""Replays: a recorded game as a self-contained HTML page that steps through it on a drawn board.

The page needs nothing but itself (inline CSS, inline script, the positions as JSON data): it
draws the board on a canvas with its rows and columns numbered as the game numbers them in its
moves, lists the moves with the time each took and the clock left, and steps with buttons, a
slider or the arrow keys. It has the look of every gamegrader page (``harness.pages``). The
harness knows no game: a game gives the positions as grids of one-character cell codes and a
:class:`Paint` per code (a square colour and, optionally, a disc), and says how its moves number
the squares. Every text from a record is escaped.
"""
from __future__ import annotations

import html
import json
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from harness.pages.layout import page


@dataclass(frozen=True)
class Paint:
    """How one cell code is drawn: the square's colour, and a disc's colour ("" for none)."""

    square: str
    disc: str = ""


@dataclass(frozen=True)
class ReplayView:
    """What a game hands over to be replayed.

    Attributes:
        title: heading, e.g. ``"GAME 8x8: alice (dark) v bob (light)"``.
        frames: the positions, start first: one string per row, one code per cell.
        legend: paint per cell code; codes without paint are drawn as the first entry.
        moves: one label per move, e.g. ``"dark (2, 3)"``; ``len(frames) == len(moves) + 1``.
        seconds: time charged for each move.
        clocks: clock left after each move ("" when the game has no chess clock).
        outcome: the result in words, e.g. ``"alice won: bob forfeited (timeout)"``.
        names: what each legend code stands for, shown under the board.
        origin: the number of the first row and column in the game's moves (0 or 1).
        coordinates: how a move names a square, e.g. ``"(column, row)"``, shown with the board.
        score: the final score in words, e.g. ``"dark 20, light 16"`` ("" for a game that
            keeps none).
        notes: words said after each move when it is announced, e.g. ``"flips 2; dark 9 -
            light 5"`` (none, or one per move).
    """

    title: str
    frames: Sequence[Sequence[str]]
    legend: Mapping[str, Paint]
    moves: Sequence[str]
    seconds: Sequence[float] = ()
    clocks: Sequence[str] = ()
    outcome: str = ""
    names: Mapping[str, str] = field(default_factory=dict)
    origin: int = 0
    coordinates: str = ""
    score: str = ""
    notes: Sequence[str] = ()


_SCRIPT = """
const data = JSON.parse(document.getElementById('game').textContent);
const canvas = document.getElementById('board');
const ctx = canvas.getContext('2d');
const slider = document.getElementById('step');
const play = document.getElementById('play');
const items = document.querySelectorAll('#moves li');
const last = data.frames.length - 1;
const margin = 24;  // room for the row and column numbers
let timer = null;
function luminance(hex) {
  const v = [1, 3, 5].map((i) => parseInt(hex.length === 4 ? hex[(i + 1) / 2].repeat(2)
                                                            : hex.slice(i, i + 2), 16) / 255)
    .map((c) => c <= 0.03928 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4));
  return 0.2126 * v[0] + 0.7152 * v[1] + 0.0722 * v[2];
}
function name(code) { return data.names[code] || (code === data.first ? 'empty' : code); }
function draw(frame) {
  const rows = frame.length, cols = frame[0].length;
  const cell = Math.floor(Math.min((canvas.width - margin) / cols,
                                   (canvas.height - margin) / rows));
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.fillStyle = '#222';
  ctx.fillRect(margin, margin, cols * cell, rows * cell);
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  for (let c = 0; c < cols; c++) {
    ctx.font = '13px system-ui, sans-serif';
    ctx.fillStyle = '#333';
    ctx.fillText(String(c + data.origin), margin + c * cell + cell / 2, margin / 2);
  }
  for (let r = 0; r < rows; r++) {
    ctx.font = '13px system-ui, sans-serif';
    ctx.fillStyle = '#333';
    ctx.fillText(String(r + data.origin), margin / 2, margin + r * cell + cell / 2);
    for (let c = 0; c < cols; c++) {
      const code = frame[r][c];
      const paint = data.legend[code] || data.legend[data.first];
      const x = margin + c * cell, y = margin + r * cell;
      ctx.fillStyle = paint.square;
      ctx.fillRect(x + 1, y + 1, cell - 2, cell - 2);
      if (paint.disc) {
        ctx.fillStyle = paint.disc;
        ctx.beginPath();
        ctx.arc(x + cell / 2, y + cell / 2, cell * 0.38, 0, 2 * Math.PI);
        ctx.fill();
        // The piece's letter on it, as in the legend: colour is not the only sign of whose.
        ctx.fillStyle = luminance(paint.disc) > 0.18 ? '#000' : '#fff';
        ctx.font = 'bold ' + Math.round(cell * 0.4) + 'px system-ui, sans-serif';
        ctx.fillText(code, x + cell / 2, y + cell / 2 + 1);
      }
    }
  }
}
function tabulate(frame, step) {
  // The board as a table: what a screen reader reads for the picture, square by square.
  const table = document.getElementById('board-table');
  table.caption.textContent = 'The board ' + (step === 0 ? 'at the start' : 'after move ' + step);
  const head = '<tr><td></td>' + frame[0].split('').map((_, c) =>
    '<th scope="col">column ' + (c + data.origin) + '</th>').join('') + '</tr>';
  const body = frame.map((row, r) => '<tr><th scope="row">row ' + (r + data.origin) + '</th>'
    + row.split('').map((code) => '<td></td>').join('') + '</tr>').join('');
  table.tHead.innerHTML = head;
  table.tBodies[0].innerHTML = body;
  frame.forEach((row, r) => row.split('').forEach((code, c) => {
    table.tBodies[0].rows[r].cells[c + 1].textContent = name(code);
  }));
}
function announce(step) {
  if (step === 0) return 'start: ' + data.frames.length + ' positions, ' + last + ' moves';
  const note = data.notes[step - 1];
  return 'move ' + step + ' of ' + last + ': ' + data.moves[step - 1] + (note ? '; ' + note : '')
    + (step === last && data.outcome ? '. ' + data.outcome : '');
}
function show(step) {
  draw(data.frames[step]);
  tabulate(data.frames[step], step);
  slider.value = step;
  slider.setAttribute('aria-valuetext', step === 0 ? 'start' : 'move ' + step + ' of ' + last);
  document.getElementById('label').textContent = announce(step);
  items.forEach((item, i) => {
    item.classList.toggle('current', i === step - 1);
    if (i === step - 1) item.setAttribute('aria-current', 'step');
    else item.removeAttribute('aria-current');
  });
}
function go(step) { show(Math.max(0, Math.min(last, step))); }
function pause() {
  clearInterval(timer);
  timer = null;
  play.textContent = 'Play';
}
function toggle() {
  if (timer !== null) { pause(); return; }
  if (+slider.value >= last) go(0);
  play.textContent = 'Pause';
  timer = setInterval(() => { if (+slider.value >= last) pause(); else go(+slider.value + 1); },
                      900);
}
document.getElementById('prev').onclick = () => { pause(); go(+slider.value - 1); };
document.getElementById('next').onclick = () => { pause(); go(+slider.value + 1); };
document.getElementById('first').onclick = () => { pause(); go(0); };
document.getElementById('last').onclick = () => { pause(); go(last); };
play.onclick = toggle;
slider.oninput = () => { pause(); go(+slider.value); };
items.forEach((item, i) => item.onclick = () => { pause(); go(i + 1); });
document.addEventListener('keydown', (e) => {
  // The slider moves itself with the arrows, Home and End; a button takes the space bar.
  if (e.target === slider || e.altKey || e.ctrlKey || e.metaKey) return;
  const keys = {ArrowLeft: () => go(+slider.value - 1), ArrowRight: () => go(+slider.value + 1),
                Home: () => go(0), End: () => go(last)};
  if (keys[e.key]) { pause(); keys[e.key](); e.preventDefault(); }
  else if ((e.key === ' ' || e.key === 'k') && e.target.tagName !== 'BUTTON') {
    toggle(); e.preventDefault();
  }
});
const start = parseInt(new URLSearchParams(location.search).get('step') || '0', 10);
go(isNaN(start) ? 0 : start);
"""


def _swatch(paint: Paint | None) -> str:
    """A small disc in the piece's colour beside its name in the legend."""
    if paint is None or not paint.disc:
        return ""
    return (f'<span class="swatch" aria-hidden="true" '
            f'style="background:{html.escape(paint.disc)}"></span>')


def _row(index: int, view: ReplayView) -> str:
    parts = [html.escape(view.moves[index])]
    if index < len(view.seconds):
        parts.append(f"{view.seconds[index]:.3f} s")
    if index < len(view.clocks) and view.clocks[index]:
        parts.append(f"clock {html.escape(view.clocks[index])}")
    return f"<li>{' - '.join(parts)}</li>"


def replay_page(view: ReplayView) -> str:
    """The self-contained HTML page of ``view``.

    Raises:
        ValueError: when the frames and moves do not line up or a frame is empty.
    """
    if len(view.frames) != len(view.moves) + 1:
        raise ValueError(f"{len(view.frames)} positions for {len(view.moves)} moves")
    if not view.legend or any(not frame or not frame[0] for frame in view.frames):
        raise ValueError("a replay needs a legend and non-empty positions")
    if view.notes and len(view.notes) != len(view.moves):
        raise ValueError(f"{len(view.notes)} notes for {len(view.moves)} moves")
    data: dict[str, Any] = {
        "frames": [list(frame) for frame in view.frames], "moves": list(view.moves),
        "legend": {code: {"square": p.square, "disc": p.disc} for code, p in view.legend.items()},
        "first": next(iter(view.legend)), "origin": int(view.origin),
        "names": dict(view.names), "notes": list(view.notes) or [""] * len(view.moves),
        "outcome": view.outcome}
    # "</" cannot end the script element early once every "<" is escaped in the JSON text.
    payload = json.dumps(data).replace("<", "\\u003c")
    legend = "".join(f'<li>{_swatch(view.legend.get(code))}{html.escape(code)}: '
                     f"{html.escape(name)}</li>" for code, name in view.names.items())
    moves = "".join(_row(i, view) for i in range(len(view.moves)))
    size = f"{len(view.frames[0])} rows, {len(view.frames[0][0])} columns"
    numbered = (f"; moves name a square as {html.escape(view.coordinates)}, "
                f"counted from {int(view.origin)}" if view.coordinates else "")
    body = f"""<p id="outcome">{html.escape(view.outcome)}</p>
<div class="replay"><section aria-labelledby="board-heading">
<h2 id="board-heading">Board</h2>
<canvas id="board" width="504" height="504" aria-hidden="true"></canvas>
<div class="visually-hidden"><table id="board-table"><caption></caption><thead></thead>
<tbody></tbody></table></div>
<div class="controls" role="group" aria-label="step through the game">
<button id="first" type="button" aria-label="start">|&lt;</button>
<button id="prev" type="button" aria-label="previous move">&lt;</button>
<button id="play" type="button">Play</button>
<button id="next" type="button" aria-label="next move">&gt;</button>
<button id="last" type="button" aria-label="last move">&gt;|</button>
<label for="step">position</label>
<input id="step" type="range" min="0" max="{len(view.moves)}" value="0">
</div>
<p id="label" role="status" aria-live="polite"></p>
<ul class="legend" aria-label="what the pieces are">{legend}</ul>
<p class="muted" id="coordinates">{size}{numbered}</p>
<p class="muted" id="keys">Keys: left and right arrows step, Home and End go to the start and
the end, the space bar plays and pauses.</p>
</section>
<section aria-labelledby="moves-heading"><h2 id="moves-heading">Moves</h2>
<ol id="moves" tabindex="0" aria-labelledby="moves-heading">{moves}</ol></section></div>"""
    summary = (f"<span>{len(view.moves)} moves</span>"
               + (f'<span id="score">{html.escape(view.score)}</span>' if view.score else ""))
    return page(view.title, view.title, "a recorded game, step by step", summary, body,
                kind="replay", script=_SCRIPT,
                head=f'<script type="application/json" id="game">{payload}</script>\n')


__all__ = ["Paint", "ReplayView", "replay_page"]
