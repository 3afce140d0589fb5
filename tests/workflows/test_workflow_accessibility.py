"""Every kind of page gamegrader writes, in every state a user reaches, tried in a real browser
for WCAG 2.1 AA (docs/accessibility.md): axe-core's A and AA rules find nothing; no page scrolls
sideways at 320, 390, 640 (1280 at 200% zoom) or 1280 CSS pixels; a replay is stepped with the
keyboard alone and announces each move; the board is read as a table of squares.

The pages are made once for the module (a batch of four students with similarity and a regrade,
two tournaments, a tournament without games) and one Chromium runs every test. Screenshots at
1280 and 390 pixels go to the test's temporary folder (its path is printed), to be looked at.
"""
from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any, Iterator

import pytest
from gg_browser import WCAG_TAGS, axe_version, chromium_browser, wcag_violations
from gg_testing import CHROMIUM, NO_CHROMIUM, ROOT, run_gamegrader

from harness.games.replays import report_page
from harness.tournament.standings import CSV_COLUMNS

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("accessibility"),
              pytest.mark.skipif(CHROMIUM is None, reason=NO_CHROMIUM)]

MAIN = "adversarial_search.py"
HONEST = ROOT / "assignments" / "adversarial_search" / "solution" / MAIN
TEMPLATE = ROOT / "assignments" / "adversarial_search" / "template" / MAIN
BATCH = ["batch", "--assignment", "adversarial_search", "--workers", "2", "--no-progress",
         "--timeout-cap", "10"]
WIDTHS = (320, 390, 640, 1280)  # 640: a 1280-pixel window at 200% zoom
SHOT_WIDTHS = (1280, 390)


def _batch(root: Path) -> Path:
    """A class of a passing student (alice), her renamed copy (bob: the similarity pages), a
    failing one (erin, the template) and an ungradable one (zed, a syntax error); then a regrade
    after alice breaks her tie-breaking, compared with the first run (the changes section)."""
    honest = HONEST.read_text(encoding="utf-8")
    texts = {"alice": honest, "bob": "# my own work\n" + honest,
             "erin": TEMPLATE.read_text(encoding="utf-8"), "zed": "def broken(:\n"}
    for student, text in texts.items():
        (root / "class" / student).mkdir(parents=True)
        (root / "class" / student / MAIN).write_text(text, encoding="utf-8")
    out = root / "batch"
    done = run_gamegrader(*BATCH, str(root / "class"), "--out", str(out), "--similarity")
    assert done.returncode == 0, done.stderr[-3000:]
    shutil.copytree(out, root / "before")
    broken = honest.replace("if child_value > value:", "if child_value >= value:")
    assert broken != honest
    (root / "class" / "alice" / MAIN).write_text(broken, encoding="utf-8")
    done = run_gamegrader(*BATCH, str(root / "class"), "--out", str(out), "--similarity",
                          "--compare", str(root / "before"))
    assert done.returncode == 0, done.stderr[-3000:]
    return out


def _tournament(root: Path, game: str, *args: str) -> Path:
    out = root / game
    done = run_gamegrader("tournament", game, *args, "--clock", "3", "--quiet", "--out",
                          str(out))
    assert done.returncode == 0, done.stderr[-3000:]
    return out


def _empty_tournament(root: Path) -> Path:
    """The report of a tournament that has played no game yet (two entrants, no results)."""
    folder = root / "empty"
    folder.mkdir()
    standings = (",".join(CSV_COLUMNS) + "\n"
                 + "".join(f"{rank},{name}" + "," * (len(CSV_COLUMNS) - 2) + "\n"
                           for rank, name in ((1, "ann"), (2, "bob"))))
    path = folder / "report.html"
    path.write_text(report_page("isolation round-robin", "isolation: 8x8", standings, [], [],
                                folder), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("pages")
    batch = _batch(root)
    isolation = _tournament(root, "isolation", "house:random", "house:greedy")
    othello = _tournament(root, "othello", "dark=house:random", "light=house:random",
                          "--set", "size=6")
    found = {
        "batch report (regraded, with similarity)": batch / "report.html",
        "feedback: passing student": batch / "submissions" / "bob" / "feedback.html",
        "feedback: failing student": batch / "submissions" / "erin" / "feedback.html",
        "feedback: ungradable submission": batch / "submissions" / "zed" / "feedback.html",
        "similarity: all pairs": batch / "similarity.html",
        "similarity: one pair": batch / "similarity" / "pair-001.html",
        "tournament report": isolation / "report.html",
        "tournament report: no games": _empty_tournament(root),
        "replay: isolation, a lost game": isolation / "games" / "0001.html",
        "replay: othello, a lost game": othello / "games" / "0001.html"}
    assert all(path.exists() for path in found.values()), found
    return found


PAGE_NAMES = ["batch report (regraded, with similarity)", "feedback: passing student",
              "feedback: failing student", "feedback: ungradable submission",
              "similarity: all pairs", "similarity: one pair", "tournament report",
              "tournament report: no games", "replay: isolation, a lost game",
              "replay: othello, a lost game"]


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium_browser() as opened:
        yield opened


@pytest.fixture
def tab(browser: Any) -> Iterator[Any]:
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    yield page
    page.close()


def test_the_pages_are_made_in_every_state(pages: dict[str, Path]) -> None:
    """The states the pages are tried in are real: the students' statuses, the regrade's
    changes, similar code, and games that someone lost."""
    report = pages["batch report (regraded, with similarity)"].read_text(encoding="utf-8")
    assert 'id="changes"' in report and 'id="similarity"' in report
    assert 'id="common-mistakes"' in report and "1 ungradable" in report
    assert re.search(r"all \d+ tests passed", pages["feedback: passing student"].read_text())
    assert "tests failed" in pages["feedback: failing student"].read_text()
    assert 'id="problem"' in pages["feedback: ungradable submission"].read_text()
    for name in ("replay: isolation, a lost game", "replay: othello, a lost game"):
        assert " won (" in pages[name].read_text(encoding="utf-8")
    assert sorted(pages) == sorted(PAGE_NAMES)


@pytest.mark.parametrize("name", PAGE_NAMES)
def test_axe_finds_no_wcag_2_1_a_or_aa_violation(pages: dict[str, Path], tab: Any,
                                                 name: str) -> None:
    tab.goto(pages[name].as_uri())
    assert wcag_violations(tab) == []


def test_no_page_scrolls_sideways_at_any_width_and_each_is_shot_at_two(
        pages: dict[str, Path], browser: Any, tmp_path_factory: pytest.TempPathFactory) -> None:
    """Wide tables scroll inside their own region; the page itself never does (WCAG 1.4.10)."""
    shots = tmp_path_factory.mktemp("screenshots")
    print(f"screenshots in {shots}")
    wide: list[str] = []
    for width in WIDTHS:
        page = browser.new_page(viewport={"width": width, "height": 800})
        for name in PAGE_NAMES:
            page.goto(pages[name].as_uri())
            scrolled = page.evaluate("document.documentElement.scrollWidth")
            if scrolled > width:
                wide.append(f"{name} at {width} px: {scrolled} px wide")
            if width in SHOT_WIDTHS:
                stem = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")
                page.screenshot(path=str(shots / f"{stem}-{width}.png"), full_page=True)
        page.close()
    assert wide == []
    assert len(list(shots.glob("*.png"))) == len(PAGE_NAMES) * len(SHOT_WIDTHS)


_SCROLLED = """() => {
    // Every box whose content is wider than the box (it scrolls or spills sideways), and the
    // document. Boxes that clip on purpose (visually hidden text) are not shown, so not counted.
    const name = (el) => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '')
        + (el.className && typeof el.className === 'string' ? '.' + el.className.trim()
            .split(/\\s+/).join('.') : '');
    const found = [];
    const doc = document.documentElement;
    if (doc.scrollWidth > doc.clientWidth + 1) {
        found.push(`the page: ${doc.scrollWidth} > ${doc.clientWidth}`);
    }
    const clips = (el) => ['hidden', 'clip'].includes(getComputedStyle(el).overflowX);
    for (const el of document.body.querySelectorAll('*')) {
        let hidden = false;
        for (let box = el; box && !hidden; box = box.parentElement) hidden = clips(box);
        if (hidden || el.clientWidth === 0) continue;
        if (el.scrollWidth > el.clientWidth + 1) {
            const table = el.closest('table[id]');
            found.push(`${name(el)}${table ? ' in #' + table.id : ''}: `
                       + `${el.scrollWidth} > ${el.clientWidth}`);
        }
    }
    return found;
}"""


@pytest.mark.parametrize("width", [390, 800, 1280])
def test_no_element_scrolls_sideways_on_a_phone_a_tablet_or_a_laptop(
        pages: dict[str, Path], browser: Any, width: int) -> None:
    """Issue 53: at 390, 800 and 1280 pixels every column of every table shows without anything
    scrolling sideways, the page or a box in it (below 960 pixels each row's cells stack, each
    after its column's header; 800 is where the standings' ten columns overflowed)."""
    page = browser.new_page(viewport={"width": width, "height": 800})
    wide = []
    for name in PAGE_NAMES:
        page.goto(pages[name].as_uri())
        wide.extend(f"{name}: {box}" for box in page.evaluate(_SCROLLED))
    page.close()
    assert wide == []


def test_on_a_phone_each_cell_is_labelled_with_its_column_and_the_table_stays_a_table(
        pages: dict[str, Path], browser: Any) -> None:
    """At 390 pixels the standings' cells stack, each drawn after its column's header, and a
    screen reader still meets a table of column headers and cells (the ARIA roles)."""
    page = browser.new_page(viewport={"width": 390, "height": 800})
    page.goto(pages["tournament report"].as_uri())
    headers = page.evaluate("""Array.from(document.querySelectorAll(
        '#standings > thead th')).map((th) => th.textContent.trim())""")
    first = page.locator("#standings tbody tr").first
    labels = first.evaluate("""(row) => Array.from(row.cells).map(
        (td) => getComputedStyle(td, '::before').content)""")
    assert [label.split('"')[1] for label in labels] == headers
    tops = first.evaluate("(row) => Array.from(row.cells).map((td) => td.offsetTop)")
    assert tops == sorted(set(tops)) and len(tops) == len(headers)  # one under the other
    tree = page.locator("#standings").aria_snapshot()
    assert all(f'columnheader "{header}' in tree for header in headers[:3]), tree[:500]
    names = [line.strip() for line in tree.splitlines() if line.strip().startswith("- cell")]
    assert len(names) >= len(headers) and '- cell "greedy"' in names, tree[:1500]
    assert not any(f'"{header}' in name for name in names for header in headers)  # drawn only
    page.close()


def test_wide_tables_scroll_in_a_labelled_region_the_keyboard_reaches(
        pages: dict[str, Path], tab: Any) -> None:
    tab.goto(pages["feedback: failing student"].as_uri())
    regions = tab.evaluate("""Array.from(document.querySelectorAll('table[id]')).map((t) => {
        const region = t.closest('[role=region]');
        return [region && region.tabIndex, region && region.getAttribute('aria-label'),
                t.querySelectorAll(':scope > thead > tr > th[scope=col]').length];
    })""")
    assert regions == [[0, "tests", 6]]


def test_every_column_has_one_header_of_its_own(pages: dict[str, Path], tab: Any) -> None:
    """No two columns of a table share a header (the standings had two "strength" columns, the
    similarity pairs two "shared" ones), and no header is empty."""
    repeated = []
    for name in PAGE_NAMES:
        tab.goto(pages[name].as_uri())
        for headers in tab.evaluate("""Array.from(document.querySelectorAll('table')).map(
                (t) => Array.from(t.querySelectorAll(':scope > thead > tr > th')).map(
                    (h) => h.textContent))"""):
            if len(set(headers)) != len(headers) or not all(h.strip() for h in headers):
                repeated.append(f"{name}: {headers}")
    assert repeated == []


def test_a_table_sorts_from_the_keyboard(pages: dict[str, Path], tab: Any) -> None:
    tab.goto(pages["batch report (regraded, with similarity)"].as_uri())
    score = tab.locator("#submissions th").nth(1)
    score.get_by_role("button").focus()
    tab.keyboard.press("Enter")
    assert score.get_attribute("aria-sort") == "ascending"
    tab.keyboard.press("Enter")
    assert score.get_attribute("aria-sort") == "descending"
    first = tab.locator("#submissions tbody tr").first.locator("td").first.inner_text()
    assert first.startswith(("bob", "alice"))  # full marks first


def _record(page: Path) -> dict[str, Any]:
    return json.loads(page.with_suffix(".json").read_text(encoding="utf-8"))


def _announced(tab: Any) -> str:
    return str(tab.locator("#label").inner_text())


def test_a_replay_is_stepped_by_keyboard_alone_and_announces_each_move(
        pages: dict[str, Path], tab: Any) -> None:
    """Home, End and the arrows step; the live region says the move, the discs it flipped and
    the score; the space bar plays and pauses; Tab reaches the buttons, Enter presses them."""
    page = pages["replay: othello, a lost game"]
    moves = _record(page)["moves"]
    tab.goto(page.as_uri())
    live = tab.locator("#label")
    assert live.get_attribute("aria-live") == "polite"
    assert _announced(tab) == f"start: {len(moves) + 1} positions, {len(moves)} moves"
    tab.keyboard.press("ArrowRight")
    column, row = moves[0]
    assert _announced(tab) == (f"move 1 of {len(moves)}: dark plays ({column}, {row}); "
                               "flips 1; dark 4, light 1")
    tab.keyboard.press("End")
    assert re.fullmatch(rf"move {len(moves)} of {len(moves)}: (dark|light) plays \(\d, \d\); "
                        r"flips \d+; dark \d+, light \d+\. (dark|light) won \(.*\)",
                        _announced(tab)), _announced(tab)
    tab.keyboard.press("Home")
    assert _announced(tab).startswith("start:")
    tab.keyboard.press(" ")
    assert tab.locator("#play").inner_text() == "Pause"
    live.filter(has_text="move 1 of").wait_for(timeout=5000)
    tab.keyboard.press(" ")
    assert tab.locator("#play").inner_text() == "Play"
    stopped = _announced(tab)
    tab.wait_for_timeout(1200)
    assert _announced(tab) == stopped  # paused
    # Tab from the top of the page to the "next move" button, and press it.
    tab.goto(page.as_uri())
    for _ in range(20):
        tab.keyboard.press("Tab")
        if tab.evaluate("document.activeElement.id") == "next":
            break
    assert tab.evaluate("document.activeElement.getAttribute('aria-label')") == "next move"
    tab.keyboard.press("Enter")
    assert _announced(tab).startswith("move 1 of")


def test_a_replay_board_is_read_as_a_table_of_squares_in_the_handout_s_numbers(
        pages: dict[str, Path], tab: Any) -> None:
    """What a screen reader meets instead of the picture: a table whose headers are the
    coordinates the moves use, each square named in words (whose piece, or empty)."""
    page = pages["replay: isolation, a lost game"]
    record = _record(page)
    tab.goto(page.as_uri() + "?step=2")
    assert tab.locator("#board").get_attribute("aria-hidden") == "true"
    tree = tab.locator("#board-table").aria_snapshot()
    assert 'caption: The board after move 2' in tree
    assert 'columnheader "column 1"' in tree and 'columnheader "column 8"' in tree
    assert 'rowheader "row 1"' in tree and 'rowheader "row 8"' in tree
    squares = tab.evaluate("""Array.from(document.querySelectorAll('#board-table tbody tr'))
        .map((r) => Array.from(r.querySelectorAll('td')).map((c) => c.textContent))""")
    first, second = record["moves"][:2]
    x, o = f"{record['first']} (red)", f"{record['second']} (blue)"
    assert squares[first[0] - 1][first[1] - 1] == x  # rows and columns counted from 1
    assert squares[second[0] - 1][second[1] - 1] == o
    # the two corners the pieces started on are visited squares now
    assert [squares[0][0], squares[7][7]] == ["visited", "visited"]
    assert sum(row.count("empty") for row in squares) == 60
    legend = tab.locator(".legend").inner_text()
    assert f"x: {x}" in legend and f"o: {o}" in legend


def test_a_board_drawn_in_feedback_is_also_a_table_of_squares(pages: dict[str, Path],
                                                              tab: Any) -> None:
    """A failed case's drawn position, read by a screen reader as a table (the drawing's row and
    column numbers as headers, the legend as caption), not as lines of characters."""
    tab.goto(pages["feedback: failing student"].as_uri())
    board = tab.locator("table.board").first
    tree = board.aria_snapshot()
    assert ('table "The board drawn above, square by square: X filled, . empty; a move is '
            '(row, column)') in tree.splitlines()[0]
    assert 'columnheader "column 0"' in tree and 'rowheader "row 0"' in tree
    assert tab.locator("table.board").count() >= 10


def _luminance(colour: str) -> float:
    channels = [int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def _contrast(one: str, other: str) -> float:
    light, dark = sorted((_luminance(one), _luminance(other)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


@pytest.mark.parametrize("name", ["replay: isolation, a lost game",
                                  "replay: othello, a lost game"])
def test_every_piece_stands_out_from_its_square_by_3_to_1(pages: dict[str, Path],
                                                            name: str) -> None:
    """WCAG 1.4.11: a graphic that carries meaning has 3:1 contrast against what is beside it."""
    text = pages[name].read_text(encoding="utf-8")
    data = json.loads(re.search(r'<script type="application/json" id="game">(.*?)</script>',
                                text, flags=re.S).group(1))
    pieces = [(code, paint) for code, paint in data["legend"].items() if paint["disc"]]
    assert pieces
    assert [code for code, paint in pieces if _contrast(paint["disc"], paint["square"]) < 3] == []


def test_the_empty_tournament_report_names_its_columns(pages: dict[str, Path]) -> None:
    text = pages["tournament report: no games"].read_text(encoding="utf-8")
    headers = re.findall(r'<th scope="col"[^>]*>(.*?)</th>',
                         text[text.index('id="standings"'):text.index('id="games"')])
    assert headers[:2] == ["rank", "entrant"] and len(headers) == len(set(headers))


def test_the_statement_names_the_engine_and_rules_the_tests_run() -> None:
    """docs/accessibility.md says which axe-core and which rules: the ones installed here."""
    statement = (ROOT / "docs" / "accessibility.md").read_text(encoding="utf-8")
    assert f"axe-core {axe_version()}" in statement
    assert all(f"`{tag}`" in statement for tag in WCAG_TAGS)
