"""The examples in the code's docstrings run, so they stay true (harness, reference and the
assignments' plug-in code; not the solution files, which are graded as students' files, nor the
assignments' tests/)."""
from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("harness", "reference", "assignments")
# Solution files are graded as students' files; the worker and probes run inside the sandbox,
# where their docstrings show usage against a student's module rather than runnable examples.
SKIPPED = ("harness/worker/", "assignments/stonehenge/probes/",
           "assignments/othello/othello_probe.py")


def modules_with_examples() -> list[str]:
    names = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            relative = path.relative_to(ROOT).as_posix()
            if relative.startswith(SKIPPED) or set(path.parts) & {"solution", "template", "tests"} \
                    or ">>> " not in path.read_text(encoding="utf-8"):
                continue
            names.append(relative[:-3].replace("/", ".").removesuffix(".__init__"))
    return names


MODULES = modules_with_examples()


def test_there_are_examples_to_run():
    assert len(MODULES) >= 10


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_hold(name: str):
    module = importlib.import_module(name)
    finder = doctest.DocTestFinder(exclude_empty=True)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    tests = [t for t in finder.find(module, name) if t.examples]
    for test in tests:
        runner.run(test)
    results = runner.summarize(verbose=False)
    assert results.failed == 0, f"{results.failed} of {results.attempted} examples failed in {name}"
