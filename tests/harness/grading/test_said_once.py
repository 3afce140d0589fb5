"""Each message once: a problem that blocks many cases is said at the top of results.json (and
of ``check``), and each case it blocks says "not run (see above: ...)" (issue 38, item 2).

One submission per kind of blocking problem, graded through the grading API on the visible
Dominoes cases (22 of them): the problem's own words appear exactly once in the whole document,
at the top, and no case repeats a traceback.
"""
from __future__ import annotations

import pytest
from gg_testing import ROOT

from harness.grading.api import GradingOptions, grade
from harness.grading.report import render

pytestmark = pytest.mark.slow  # gradings

SOLUTION = (ROOT / "assignments/adversarial_search/solution/adversarial_search.py").read_text()
LEGAL_MOVES = "        for row in range(self.rows):\n"


def _edited(old: str, new: str) -> str:
    assert old in SOLUTION
    return SOLUTION.replace(old, new, 1)


# kind: (the main file's text or None for no file, the words said once, what a blocked case says;
# None: the cases run and raise, showing the error's first line and "(see above)")
KINDS = {
    "syntax error": (_edited("def create_dominoes_game(rows, cols):",
                             "def create_dominoes_game(rows, cols)"),
                     "SyntaxError", "not run (see above: adversarial_search.py)"),
    "python 2 print": (_edited("import copy\n", "import copy\nprint 'hello'\n"),
                       "print x is written print(x)", "not run (see above: adversarial_search.py)"),
    "disallowed import": (_edited("import copy\n", "import copy\nimport pandas\n"),
                          "your file imports pandas, which this course does not allow",
                          "not run (see above: adversarial_search.py)"),
    "missing helper module": (_edited("import copy\n", "import copy\nimport my_helpers\n"),
                              "submit my_helpers.py with your file",
                              "not run (see above: adversarial_search.py)"),
    "missing file": (None, "adversarial_search.py was not found",
                     "not run (see above: adversarial_search.py)"),
    "missing handout name": (_edited("def get_best_move(", "def best_move("),
                             "DominoesGame.get_best_move is missing from your file",
                             "not run (see above: DominoesGame.get_best_move)"),
    "python 2 name in a function": (_edited(LEGAL_MOVES, LEGAL_MOVES.replace("range", "xrange")),
                                    "it uses xrange, which is range in Python 3", None),
    "disallowed import in a function": (
        _edited(LEGAL_MOVES, "        import pandas\n" + LEGAL_MOVES),
        "your file imports pandas, which this course does not allow", None),
}


@pytest.fixture(scope="module")
def graded(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict]:
    documents = {}
    for kind, (text, _, _) in KINDS.items():
        folder = tmp_path_factory.mktemp(kind.replace(" ", "_"))
        if text is None:
            (folder / "notes.txt").write_text("my answers are in my head\n")
        else:
            (folder / "adversarial_search.py").write_text(text)
        documents[kind] = grade("adversarial_search", folder, GradingOptions(
            visible_only=True, timeout_cap=5.0, lanes=1)).document
    return documents


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_a_blocking_problem_is_said_once_at_the_top(kind: str, graded: dict[str, dict]) -> None:
    document = graded[kind]
    _, words, _ = KINDS[kind]
    assert words in document["output"]
    everything = document["output"] + "".join(t["output"] for t in document["tests"])
    assert everything.count(words) == 1, kind
    assert render(document).count(words) == 1  # and once in what check prints


@pytest.mark.parametrize("kind", sorted(k for k, (_, _, pointer) in KINDS.items() if pointer))
def test_each_blocked_case_points_at_the_top(kind: str, graded: dict[str, dict]) -> None:
    document = graded[kind]
    _, _, pointer = KINDS[kind]
    blocked = [t for t in document["tests"] if pointer in t["output"]]
    assert len(blocked) >= 2, [t["output"] for t in document["tests"]]
    for test in blocked:
        assert test["status"] == "failed" and test["score"] == 0
        assert len(test["output"].splitlines()) == 2, test["output"]  # the verdict and pointer
    if pointer.endswith(".py)"):  # a module's problem: the top says what it blocked
        assert f"blocked {len(blocked)} cases" in document["output"]
        assert '"not run (see above)"' in document["output"]


@pytest.mark.parametrize("kind", sorted(k for k, (_, _, pointer) in KINDS.items()
                                        if pointer is None))
def test_an_error_explained_at_the_top_shows_no_traceback_in_the_cases(
        kind: str, graded: dict[str, dict]) -> None:
    failed = [t for t in graded[kind]["tests"] if t["status"] == "failed"]
    assert len(failed) >= 2
    for test in failed:
        assert "(see above)" in test["output"], test["output"]
        assert "adversarial_search.py, line" not in test["output"], test["output"]


def test_a_syntax_error_was_97_lines_and_is_now_one_per_case(graded: dict[str, dict]) -> None:
    """The issue's example: a SyntaxError once, and two lines per blocked case in check."""
    text = render(graded["syntax error"])
    cases = [line for line in text.splitlines() if line.startswith(("FAIL", "PASS"))]
    assert len(cases) == 22
    assert len(text.splitlines()) <= 2 * len(cases) + 12
