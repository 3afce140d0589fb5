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


_SCRIPT = """
const data = JSON.parse(document.getElementById('game').textContent);
const canvas = document.getElementById('board');
const ctx = canvas.getContext('2d');
const slider = document.getElementById('step');
const items = document.querySelectorAll('#moves li');
const margin = 24;  // room for the row and column numbers
function draw(step) {
  const frame = data.frames[step];
  const rows = frame.length, cols = frame[0].length;
  const cell = Math.floor(Math.min((canvas.width - margin) / cols,
                                   (canvas.height - margin) / rows));
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.fillStyle = '#222';
  ctx.fillRect(margin, margin, cols * cell, rows * cell);
  ctx.font = '13px system-ui, sans-serif';
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  for (let c = 0; c < cols; c++) {
    ctx.fillStyle = '#333';
    ctx.fillText(String(c + data.origin), margin + c * cell + cell / 2, margin / 2);
  }
  for (let r = 0; r < rows; r++) {
    ctx.fillStyle = '#333';
    ctx.fillText(String(r + data.origin), margin / 2, margin + r * cell + cell / 2);
    for (let c = 0; c < cols; c++) {
      const paint = data.legend[frame[r][c]] || data.legend[data.first];
      const x = margin + c * cell, y = margin + r * cell;
      ctx.fillStyle = paint.square;
      ctx.fillRect(x + 1, y + 1, cell - 2, cell - 2);
      if (paint.disc) {
        ctx.fillStyle = paint.disc;
        ctx.beginPath();
        ctx.arc(x + cell / 2, y + cell / 2, cell * 0.38, 0, 2 * Math.PI);
        ctx.fill();
      }
    }
  }
  slider.value = step;
  document.getElementById('label').textContent =
    step === 0 ? 'start' : 'after move ' + step + ': ' + data.moves[step - 1];
  items.forEach((item, i) => item.classList.toggle('current', i === step - 1));
}
function go(step) { draw(Math.max(0, Math.min(data.frames.length - 1, step))); }
document.getElementById('prev').onclick = () => go(+slider.value - 1);
document.getElementById('next').onclick = () => go(+slider.value + 1);
document.getElementById('first').onclick = () => go(0);
document.getElementById('last').onclick = () => go(data.frames.length - 1);
slider.oninput = () => go(+slider.value);
items.forEach((item, i) => item.onclick = () => go(i + 1));
document.addEventListener('keydown', (e) => {
  if (e.key === 'ArrowLeft') go(+slider.value - 1);
  if (e.key === 'ArrowRight') go(+slider.value + 1);
});
const start = parseInt(new URLSearchParams(location.search).get('step') || '0', 10);
go(isNaN(start) ? 0 : start);
"""


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
    data: dict[str, Any] = {
        "frames": [list(frame) for frame in view.frames], "moves": list(view.moves),
        "legend": {code: {"square": p.square, "disc": p.disc} for code, p in view.legend.items()},
        "first": next(iter(view.legend)), "origin": int(view.origin)}
    # "</" cannot end the script element early once every "<" is escaped in the JSON text.
    payload = json.dumps(data).replace("<", "\\u003c")
    legend = "".join(f"<span>{html.escape(code)}: {html.escape(name)}</span>"
                     for code, name in view.names.items())
    moves = "".join(_row(i, view) for i in range(len(view.moves)))
    size = f"{len(view.frames[0])} rows, {len(view.frames[0][0])} columns"
    numbered = (f"; moves name a square as {html.escape(view.coordinates)}, "
                f"counted from {int(view.origin)}" if view.coordinates else "")
    body = f"""<p id="outcome">{html.escape(view.outcome)}</p>
<div class="replay"><section>
<canvas id="board" width="504" height="504"></canvas>
<div><button id="first">|&lt;</button> <button id="prev">&lt;</button>
<input id="step" type="range" min="0" max="{len(view.moves)}" value="0">
<button id="next">&gt;</button> <button id="last">&gt;|</button></div>
<p id="label"></p><p class="legend">{legend}</p>
<p class="muted" id="coordinates">{size}{numbered}</p>
</section>
<section><h2>Moves</h2><ol id="moves">{moves}</ol></section></div>"""
    summary = (f"<span>{len(view.moves)} moves</span>"
               + (f'<span id="score">{html.escape(view.score)}</span>' if view.score else ""))
    return page(view.title, view.title, "a recorded game, step by step", summary, body,
                kind="replay", script=_SCRIPT,
                head=f'<script type="application/json" id="game">{payload}</script>\n')


__all__ = ["Paint", "ReplayView", "replay_page"]
