"""The example suite (examples/native/) in a GAMEGRADER_ROOT of its own, for the tests."""
from __future__ import annotations

import shutil
from pathlib import Path

from gg_testing import ROOT

from harness.spec import find_assignment

EXAMPLE = ROOT / "examples/native"
SOLUTION = ROOT / "assignments/adversarial_search/solution/adversarial_search.py"
TEMPLATE = ROOT / "assignments/adversarial_search/template/adversarial_search.py"


def suite_root(folder: Path, suite: str | None = None) -> Path:
    """A GAMEGRADER_ROOT whose adversarial_search holds the example suite and its YAML twin
    (or ``suite`` as the suite's text, alone)."""
    from harness.release.validate import subset_root
    root = subset_root(find_assignment("adversarial_search"), ["01_infrastructure"], folder,
                       generated=False)
    cases = root / "assignments/adversarial_search/cases"
    (cases / "01_infrastructure.yaml").unlink()
    shutil.copy(EXAMPLE / "course_suite.yaml", cases / "01_course_suite.yaml")
    if suite is None:
        shutil.copy(EXAMPLE / "dominoes_suite.py", cases)
        shutil.copy(EXAMPLE / "dominoes_checks.yaml", cases / "02_dominoes_checks.yaml")
    else:
        (cases / "dominoes_suite.py").write_text(suite)
    return root
