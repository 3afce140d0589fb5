"""Every shell block of README.md and docs/ marked runnable runs as written.

A block is marked by an HTML comment on the line before its fence, which renders as nothing:

    <!-- runnable -->
    ```bash
    .venv/bin/gamegrader list
    ```

Each block runs in bash (``set -euo pipefail``) from the repository root, with ``.venv/bin``
first on PATH and a fresh temporary folder in ``$TMPDIR`` and as ``$OUT`` for what it writes.
Blocks that need a Docker engine, Gradescope or a long grading run are left unmarked.
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
BLOCK = re.compile(r"^" + re.escape(MARK) + r"\s*\n```(?:bash|sh|shell)\s*\n(.*?)^```",
                   re.MULTILINE | re.DOTALL)


def runnable_blocks() -> list[tuple[str, str]]:
    found = []
    for page in [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]:
        text = page.read_text(encoding="utf-8")
        for number, match in enumerate(BLOCK.finditer(text), 1):
            found.append((f"{page.relative_to(ROOT)}#{number}", match.group(1)))
        marks = text.count(MARK)
        assert marks == len(BLOCK.findall(text)), \
            f"{page}: a runnable mark is not followed by a shell block"
    return found


BLOCKS = runnable_blocks()


def test_the_docs_mark_some_blocks_runnable():
    assert len(BLOCKS) >= 3


@pytest.mark.parametrize("where, script", BLOCKS, ids=[w for w, _ in BLOCKS])
def test_marked_block_runs_as_written(where: str, script: str, tmp_path: Path):
    env = {**os.environ, "PATH": f"{ROOT / '.venv' / 'bin'}:{Path(sys.executable).parent}:"
           f"{os.environ.get('PATH', '')}", "TMPDIR": str(tmp_path), "OUT": str(tmp_path)}
    done = subprocess.run(["bash", "-c", "set -euo pipefail\n" + script], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, \
        f"{where} failed:\n{script}\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"
