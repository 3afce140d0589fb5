"""Every shell block of README.md, docs/ and the assignments' pages runs as written, or says
why it cannot.

A block is marked by an HTML comment on the line before its fence, which renders as nothing:

    <!-- runnable -->
    ```bash
    .venv/bin/gamegrader list
    ```

or ``<!-- not runnable: REASON -->`` for a block that needs what a test cannot give (a Docker
engine, a file the course hands out, the whole suite). A command's synopsis, with placeholders
such as ``SUBMISSIONS`` or ``[--workers N]``, is no shell block: it is fenced as ``text``.

Each runnable block runs in bash (``set -euo pipefail``) from the repository root, with
``.venv/bin`` first on PATH and ``$TMPDIR`` a fresh temporary folder, and nothing else set: a
block pasted into a shell in a fresh clone (after ``scripts/bootstrap.sh``) must run there, so
it defines every variable it uses (``OUT=$(mktemp -d)``) and writes nowhere in the checkout.
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent
MARK = "<!-- runnable -->"
EXCUSED = re.compile(r"<!-- not runnable: [^>]+ -->")
FENCE = re.compile(r"^([^\n]*)\n[ \t]*```(?:bash|sh|shell)[ \t]*\n(.*?)^[ \t]*```",
                   re.MULTILINE | re.DOTALL)


def pages() -> list[Path]:
    """The project's pages: README.md, docs/ and each assignment's README.md."""
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md")),
            *sorted(ROOT.glob("assignments/*/README.md"))]


def shell_blocks() -> list[tuple[str, str, str]]:
    """(where, the line before the fence, the script) of every shell block."""
    found = []
    for page in pages():
        text = page.read_text(encoding="utf-8")
        for number, match in enumerate(FENCE.finditer(text), 1):
            before = match.group(1).strip()
            found.append((f"{page.relative_to(ROOT)}#{number}", before, match.group(2)))
    return found


BLOCKS = shell_blocks()
RUNNABLE = [(where, script) for where, before, script in BLOCKS if before == MARK]


def test_the_docs_mark_some_blocks_runnable():
    assert len(RUNNABLE) >= 4


def test_every_shell_block_is_runnable_or_says_why_not():
    unmarked = [where for where, before, _ in BLOCKS
                if before != MARK and not EXCUSED.fullmatch(before)]
    assert not unmarked, f"shell blocks neither runnable nor excused: {unmarked}"
    for page in pages():
        text = page.read_text(encoding="utf-8")
        marks = text.count(MARK) + len(EXCUSED.findall(text))
        assert marks == sum(1 for where, _, _ in BLOCKS
                            if where.startswith(str(page.relative_to(ROOT)) + "#")), \
            f"{page}: a mark is not followed by a shell block"


@pytest.mark.parametrize("where, script", RUNNABLE, ids=[w for w, _ in RUNNABLE])
def test_marked_block_runs_as_written(where: str, script: str, tmp_path: Path):
    unset = ("OUT", "AUTOGRADER_ROOT")  # nothing a block could rely on without defining it
    env = {key: value for key, value in os.environ.items() if key not in unset}
    env.update({"PATH": f"{ROOT / '.venv' / 'bin'}:{Path(sys.executable).parent}:"
                f"{os.environ.get('PATH', '')}", "TMPDIR": str(tmp_path)})
    done = subprocess.run(["bash", "-c", "set -euo pipefail\n" + script], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, \
        f"{where} failed:\n{script}\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"
