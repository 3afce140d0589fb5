#!/usr/bin/env bash
# Create .venv/ in the repository (if needed) and install gamegrader there, with test tools,
# then the third-party packages students may import, where the sandbox finds them (as root:
# /usr/local/lib/gamegrader/packages; otherwise ~/.cache/gamegrader/packages).
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-python3}"
if [ ! -x .venv/bin/python ]; then
  "$PYTHON" -m venv .venv
fi
# Playwright drives the system's Chromium in the tests: it never downloads a browser of its own.
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
.venv/bin/python -m pip install --quiet --disable-pip-version-check -e ".[dev]"
.venv/bin/gamegrader packages install
# Byte-compile the grader and the reference (every grading and test run loads them, also where
# PYTHONDONTWRITEBYTECODE is set; a stale file is only recompiled in memory).
.venv/bin/python -m compileall -q harness reference assignments >/dev/null
