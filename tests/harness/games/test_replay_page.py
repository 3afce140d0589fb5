"""Replays: every tournament game is kept as a record with a replay page, linked from the report;
``gamegrader replay RECORD`` writes the page, and headless Chromium draws the board.

The screenshot is decoded here (a small PNG reader, standard library only) and its pixels are
counted by colour: the replay must show the game's squares and both players' pieces.
``scripts/test.sh`` installs Debian's chromium as root (``scripts/system_packages.sh``), so these
run in CI; elsewhere the Chromium tests skip with the reason shown.
"""
from __future__ import annotations

import json
import re
import shutil
import struct
import subprocess
import zlib
from collections import Counter
from pathlib import Path

import pytest
from gg_testing import ROOT, run_gamegrader

from harness.games.pages import Paint, ReplayView, replay_page

pytestmark = pytest.mark.slow

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]
needs_chromium = pytest.mark.skipif(CHROMIUM is None, reason="Chromium is not installed "
                                    "(scripts/test.sh installs it as root with apt-get)")


def png_pixels(data: bytes) -> Counter[tuple[int, int, int]]:
    """Pixel colours of an 8-bit RGB or RGBA, non-interlaced PNG (what Chromium writes)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    position, chunks, header = 8, [], b""
    while position < len(data):
        length, kind = struct.unpack(">I4s", data[position:position + 8])
        body = data[position + 8:position + 8 + length]
        if kind == b"IHDR":
            header = body
        elif kind == b"IDAT":
            chunks.append(body)
        position += 12 + length
    width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", header)
    assert depth == 8 and colour in (2, 6) and interlace == 0
    channels = 3 if colour == 2 else 4
    raw = zlib.decompress(b"".join(chunks))
    stride = width * channels
    previous = bytearray(stride)
    counts: Counter[tuple[int, int, int]] = Counter()
    for row in range(height):
        start = row * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up = previous[i]
            corner = previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + left) & 255
            elif kind == 2:
                line[i] = (line[i] + up) & 255
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 255
            elif kind == 4:
                guess = left + up - corner
                best = min((abs(guess - left), 0, left), (abs(guess - up), 1, up),
                           (abs(guess - corner), 2, corner))[2]
                line[i] = (line[i] + best) & 255
        counts.update(tuple(line[i:i + 3]) for i in range(0, stride, channels))  # type: ignore[misc]
        previous = line
    return counts


def rgb(text: str) -> tuple[int, int, int]:
    return int(text[1:3], 16), int(text[3:5], 16), int(text[5:7], 16)


def screenshot(page: Path, step: int, tmp_path: Path) -> Counter[tuple[int, int, int]]:
    assert CHROMIUM is not None
    shot = tmp_path / f"shot-{step}.png"
    done = subprocess.run([CHROMIUM, *FLAGS, f"--user-data-dir={tmp_path / 'profile'}",
                           "--window-size=1000,800", f"--screenshot={shot}",
                           f"{page.as_uri()}?step={step}"],
                          capture_output=True, text=True, timeout=180)
    assert shot.exists(), done.stderr[-2000:]
    return png_pixels(shot.read_bytes())


def tournament(game: str, tmp_path: Path, *args: str) -> Path:
    out = tmp_path / game
    done = run_gamegrader("tournament", game, *args, "--quiet", "--out", str(out))
    assert done.returncode == 0, done.stderr
    return out


def test_the_page_escapes_record_text_and_refuses_misaligned_frames() -> None:
    view = ReplayView("<script>alert(1)</script>", [["ab"], ["ba"]], {"a": Paint("#ffffff")},
                      ["</script><b>"], outcome="x < y")
    page = replay_page(view)
    assert "<script>alert(1)" not in page and "</script><b>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    with pytest.raises(ValueError, match="2 positions for 2 moves"):
        replay_page(ReplayView("t", [["a"], ["a"]], {"a": Paint("#fff")}, ["m", "n"]))


def test_every_tournament_game_has_a_record_and_a_page_linked_from_the_report(
        tmp_path: Path) -> None:
    out = tournament("isolation", tmp_path, "house:random", "house:greedy", "--clock", "3")
    records = sorted((out / "games").glob("*.json"))
    assert len(records) == 2
    record = json.loads(records[0].read_text())
    assert record["moves"] and len(record["seconds"]) == len(record["moves"])
    assert record["reason"] == "no_moves" and record["game"]["name"] == "isolation"
    report = (out / "report.html").read_text()
    assert 'href="games/0001.html"' in report and 'href="games/0002.html"' in report
    page = tmp_path / "again.html"
    done = run_gamegrader("replay", str(records[0]), "--out", str(page))
    assert done.returncode == 0, done.stderr
    assert page.read_text() == (out / "games" / "0001.html").read_text()


def test_replay_writes_where_its_help_says_and_replaces_a_page_only_when_forced(
        tmp_path: Path) -> None:
    out = tournament("isolation", tmp_path, "house:random", "house:greedy", "--clock", "3")
    record, own = out / "games" / "0001.json", out / "games" / "0001.html"
    help_text = run_gamegrader("replay", "--help").stdout
    assert "games/0001.html" in help_text and "--force" in help_text
    own.write_text("the tournament's page")
    refused = run_gamegrader("replay", str(record))
    assert refused.returncode == 2 and "exists" in refused.stderr and "--force" in refused.stderr
    assert own.read_text() == "the tournament's page"
    again = tmp_path / "again.html"
    again.write_text("mine")
    assert run_gamegrader("replay", str(record), "--out", str(again)).returncode == 2
    forced = run_gamegrader("replay", str(record), "--force")
    assert forced.returncode == 0 and forced.stdout.strip() == str(own)
    assert "counted from 1" in own.read_text() and "(row, column)" in own.read_text()


def test_replay_of_something_that_is_not_a_record_is_a_usage_error(tmp_path: Path) -> None:
    bogus = tmp_path / "bogus.json"
    bogus.write_text('{"moves": 3}')
    done = run_gamegrader("replay", str(bogus))
    assert done.returncode == 2 and "not a game record" in done.stderr


@needs_chromium
def test_an_isolation_replay_draws_the_board_with_both_players(tmp_path: Path) -> None:
    out = tournament("isolation", tmp_path, "house:random", "house:greedy", "--clock", "3")
    pixels = screenshot(out / "games" / "0001.html", 6, tmp_path)
    assert pixels[rgb("#e8e8e8")] > 20_000        # open squares
    assert pixels[rgb("#4a4a4a")] > 2_000         # squares already visited
    assert pixels[rgb("#d62728")] > 1_000         # x's piece (red)
    assert pixels[rgb("#1f77b4")] > 1_000         # o's piece (blue)


@needs_chromium
def test_an_othello_replay_draws_the_board_with_both_colours(tmp_path: Path) -> None:
    agent = ROOT / "assignments" / "othello" / "solution" / "agent.py"
    out = tournament("othello", tmp_path, f"agent={agent}", "house:random", "--set", "size=6")
    pixels = screenshot(out / "games" / "0001.html", 10, tmp_path)
    assert pixels[rgb("#2e7d32")] > 20_000        # the green board
    assert pixels[rgb("#111111")] > 1_000         # dark discs
    assert pixels[rgb("#f5f5f5")] > 1_000         # light discs


def test_games_played_while_grading_are_kept_when_asked(tmp_path: Path) -> None:
    """The games folder reaches the runner through the sandbox (the run context's), not
    through the environment."""
    import dataclasses

    from assignments.isolation.runners import versus_house
    from harness import Sandbox
    from harness.cli.main import build_parser
    from harness.spec import find_assignment, load_case_file

    args = build_parser().parse_args(["grade", "--assignment", "isolation", "--submission",
                                      "p.py", "--output", "r.json", "--games", "kept"])
    assert args.games == Path("kept")
    assignment = find_assignment("isolation")
    games = [path for path in assignment.case_files if path.name == "02_games.yaml"][0]
    case = dataclasses.replace(load_case_file(games, assignment, 2)[0], timeout=120.0)
    case = dataclasses.replace(case, options={**case.options, "games": 2, "clock": 2.0})
    player = ROOT / "assignments" / "isolation" / "solution" / "player.py"
    with Sandbox("player", {"player.py": player}, games=tmp_path / "kept") as sandbox:
        versus_house(case, sandbox)
    records = sorted((tmp_path / "kept").glob("*.json"))
    pages = sorted((tmp_path / "kept").glob("*.html"))
    assert len(records) == 2 and len(pages) == 2
    first = json.loads(records[0].read_text())
    assert first["first"] == "you" and first["moves"] and first["game"]["clock"] == 2.0


@needs_chromium
def test_the_tournament_report_renders_with_the_shared_look(tmp_path: Path) -> None:
    """The report as the browser builds it: the shared header, the standings in words, every
    game linked to its replay; and a screenshot with the header's colour in it."""
    from harness.pages.style import STYLE

    out = tournament("isolation", tmp_path, "house:random", "house:greedy", "--clock", "3")
    assert CHROMIUM is not None
    done = subprocess.run([CHROMIUM, *FLAGS, f"--user-data-dir={tmp_path / 'profile'}",
                           "--dump-dom", (out / "report.html").as_uri()],
                          capture_output=True, text=True, timeout=180)
    dom = done.stdout
    assert '<header class="site">' in dom and "tournament report" in dom
    assert ">rating (likely range)</button></th>" in dom and ">mu</th>" not in dom
    assert dom.count('href="games/') == 2 and "won (no legal move left)" in dom
    accent = re.search(r"--accent: (#[0-9a-f]{6})", STYLE).group(1)
    shot = tmp_path / "report.png"
    subprocess.run([CHROMIUM, *FLAGS, f"--user-data-dir={tmp_path / 'profile'}",
                    "--window-size=1000,800", f"--screenshot={shot}",
                    (out / "report.html").as_uri()], capture_output=True, timeout=180)
    assert png_pixels(shot.read_bytes())[rgb(accent)] > 10_000  # the header bar
