"""Issue 18, class 1: third-party imports must not zero the whole file.

Honest variants of the references that import numpy (the package these courses allow) get exactly
the reference's score, graded in the same test; a file importing a package the course does not
allow (the grader's own dependencies included) gets one message at the top of the results; an
allowed package missing on the grader is reported as the instructor's problem.

numpy must be installed for the sandbox (``gamegrader packages install``, run by
scripts/bootstrap.sh); these tests fail, never skip, when it is not.
"""
from __future__ import annotations

from pathlib import Path

import pytest
from gg_testing import ROOT, without_ladder

from harness.sandbox.levels import detect
from harness.sandbox.packages import installed_folder
from harness.spec import find_assignment

pytestmark = pytest.mark.slow

SOLUTIONS = ROOT / "assignments"
DOMINOES = SOLUTIONS / "adversarial_search" / "solution" / "adversarial_search.py"
SEARCH_AND_GAMES = SOLUTIONS / "search_and_games" / "solution" / "search_and_games.py"
OTHELLO = SOLUTIONS / "othello" / "solution" / "agent.py"


@pytest.fixture(scope="module", autouse=True)
def numpy_is_installed_for_the_sandbox():
    requirements = find_assignment("adversarial_search").requirements
    assert requirements == ("numpy",)
    assert installed_folder(detect().interpreter, requirements) is not None, (
        "numpy is not installed for the sandbox: run '.venv/bin/gamegrader packages install'")


_REFERENCE_GRADES: dict[Path, dict] = {}


def reference_grade(grade, assignment: str, path: Path, env: dict[str, str]) -> dict:
    """The reference's own grade, graded here (once per test process), never written down."""
    if path not in _REFERENCE_GRADES:
        _REFERENCE_GRADES[path] = grade(assignment, path, env=env)
    return _REFERENCE_GRADES[path]


def case_scores(document: dict) -> dict[str, float]:
    return {test["name"]: test["score"] for test in document["tests"]}


def assert_same_grade(grade, assignment: str, variant: Path, reference: Path) -> None:
    """The variant gets the reference's total and the same score in every case (so no loss
    hides behind a gain), both graded on every case but a staff ladder and the hidden twins
    of seeded games (``gg_testing.without_ladder``)."""
    env = without_ladder(variant.parent / "root", assignment)
    mine = grade(assignment, variant, env=env)
    theirs = reference_grade(grade, assignment, reference, env)
    assert case_scores(mine) == case_scores(theirs)
    assert mine["score"] == theirs["score"] > 0


# --- honest variants: each gets exactly the reference's score ----------------------------------

def test_an_unused_numpy_import_in_the_dominoes_file_costs_nothing(grade, mutate):
    variant = mutate(DOMINOES, [("import random\n", "import random\n\nimport numpy as np\n")])
    assert_same_grade(grade, "adversarial_search", variant, DOMINOES)


LIGHTS_OUT_WITH_NUMPY = [
    ("import random\n", "import random\n\nimport numpy as np\n"),
    # A numpy helper: the toggle pattern as a boolean mask, applied with xor.
    ("""    def perform_move(self, row, col):
        for r, c in ((row, col), (row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1)):
            if 0 <= r < self.rows and 0 <= c < self.cols:
                self.board[r][c] = not self.board[r][c]
""", """    def perform_move(self, row, col):
        self.board = np.logical_xor(self.board, toggle_mask(self.rows, self.cols, row, col)
                                    ).tolist()
"""),
    # np.sum(...) == 0 is an np.bool_, not a bool: the course's tests compared it with ==.
    ("        return not any(any(row) for row in self.board)\n",
     "        return np.sum(np.array(self.board, dtype=int)) == 0\n"),
    ("def _moves_to(parents, key):", """def toggle_mask(rows, cols, row, col):
    mask = np.zeros((rows, cols), dtype=bool)
    mask[max(row - 1, 0):row + 2, col] = True
    mask[row, max(col - 1, 0):col + 2] = True
    return mask


def _moves_to(parents, key):"""),
]


def test_lights_out_with_a_numpy_helper_scores_like_the_reference(grade, mutate):
    variant = mutate(SEARCH_AND_GAMES, LIGHTS_OUT_WITH_NUMPY)
    assert_same_grade(grade, "search_and_games", variant, SEARCH_AND_GAMES)


OTHELLO_WITH_NUMPY = [
    ("import math\n", "import math\n\nimport numpy as np\n"),
    # Counts with numpy: np.count_nonzero returns np.int64 values (numpy 2).
    ("""    dark, light = get_score(board)
    return dark - light if color == 1 else light - dark
""", """    cells = np.array(board)
    dark, light = np.count_nonzero(cells == 1), np.count_nonzero(cells == 2)
    return dark - light if color == 1 else light - dark
"""),
    # A weighted-corner heuristic (not graded; the graded search uses compute_utility).
    ("""    return compute_utility(board, color)


def _successors""", """    cells = np.array(board)
    weights = np.ones(cells.shape)
    weights[[0, 0, -1, -1], [0, -1, 0, -1]] = 5
    mine, theirs = cells == color, cells == 3 - color
    return float(np.sum(weights * mine) - np.sum(weights * theirs))


def _successors"""),
]


def test_an_othello_agent_using_numpy_scores_like_the_reference_in_cases_and_games(grade, mutate):
    variant = mutate(OTHELLO, OTHELLO_WITH_NUMPY)
    assert_same_grade(grade, "othello", variant, OTHELLO)


def test_an_optional_import_of_a_package_not_allowed_is_fine(grade, mutate):
    variant = mutate(DOMINOES, [("import random\n", "import random\n\ntry:\n    import pandas\n"
                                 "except ImportError:\n    pandas = None\n")])
    assert_same_grade(grade, "adversarial_search", variant, DOMINOES)


# --- imports that are refused -------------------------------------------------------------------

@pytest.mark.parametrize("module", ["pandas", "requests", "yaml", "pytest", "jsonschema"])
def test_a_package_the_course_does_not_allow_gets_one_message_at_the_top(module, grade, mutate):
    """yaml, pytest and jsonschema are the grader's own dependencies: never importable."""
    variant = mutate(DOMINOES, [("import random\n", f"import random\n\nimport {module}\n")])
    document = grade("adversarial_search", variant)
    message = f"your file imports {module}, which this course does not allow; allowed: numpy"
    assert message in document["output"]
    assert document["score"] == 0
    for test in document["tests"]:
        assert message not in test["output"] and "ModuleNotFoundError" not in test["output"]
        assert "not run (see above: adversarial_search.py)" in test["output"]


def test_a_refused_import_inside_a_function_costs_its_cases_and_is_named_at_the_top(
        grade, mutate):
    """Only the cases that call it fail (the file imports fine); the top says why, once."""
    variant = mutate(DOMINOES, [("    def get_best_move(self, vertical, limit):\n",
                                 "    def get_best_move(self, vertical, limit):\n"
                                 "        import pandas\n")])
    document = grade("adversarial_search", variant)
    message = "your file imports pandas, which this course does not allow; allowed: numpy"
    assert document["output"].count(message) == 1
    groups = {t["name"].split(": ")[0]: t["score"] == t["max_score"] for t in document["tests"]}
    assert groups == {"infrastructure": True, "get_best_move": False}


def test_a_refused_import_in_a_second_module_is_named_at_the_top(grade, tmp_path):
    """Stonehenge's strategy.py is imported by the cases that use it, not by the preflight."""
    folder = tmp_path / "submission"
    folder.mkdir()
    solution = SOLUTIONS / "stonehenge" / "solution"
    (folder / "stonehenge.py").write_text((solution / "stonehenge.py").read_text())
    strategy = (solution / "strategy.py").read_text()
    assert "\nfrom typing import" in strategy
    (folder / "strategy.py").write_text(strategy.replace("\nfrom typing import",
                                                         "\nimport requests\nfrom typing import"))
    document = grade("stonehenge", folder, timeout_cap=20)
    assert "your file imports requests, which this course does not allow; allowed: numpy" in \
        document["output"]


def test_an_allowed_package_missing_on_the_grader_is_reported_for_the_instructor(
        grade, mutate, tmp_path):
    variant = mutate(DOMINOES, [("import random\n", "import random\n\nimport numpy as np\n")])
    empty = tmp_path / "no-packages"
    empty.mkdir()
    document = grade("adversarial_search", variant, env={"GAMEGRADER_PACKAGES": str(empty)})
    assert "your file imports numpy, which this course allows, but it is not installed on this " \
           "grader; please tell your instructor" in document["output"]
    assert "does not allow" not in document["output"]


def test_the_packages_folder_is_read_only_for_student_code(grade, mutate):
    """Student code can import numpy but cannot change it for later cases or other students."""
    isolation = detect()
    if not isolation.dedicated_user:
        pytest.skip("needs root and a sandbox user (a separate user cannot write root's files)")
    variant = mutate(DOMINOES, [("import random\n", """import random

import os
import numpy as np

try:
    with open(os.path.join(os.path.dirname(np.__file__), "__init__.py"), "a") as _file:
        _file.write("raise SystemExit")
except OSError:
    pass
else:
    raise RuntimeError("numpy was writable")
""")])
    assert_same_grade(grade, "adversarial_search", variant, DOMINOES)


def test_every_assignment_but_isolation_allows_numpy():
    """Isolation's course allows the standard library only (assignments/isolation/README.md)."""
    from harness.spec import list_assignments
    assert {name: find_assignment(name).requirements for name in list_assignments()} == \
        {name: () if name == "isolation" else ("numpy",) for name in list_assignments()}


def test_the_folder_holds_numpy_and_no_grader_dependency():
    folder = installed_folder(detect().interpreter, ("numpy",))
    assert folder is not None
    names = {path.name.split("-")[0].lower() for path in Path(folder).iterdir()}
    assert "numpy" in names
    assert not names & {"yaml", "pyyaml", "pytest", "jsonschema", "openskill", "_pytest"}
