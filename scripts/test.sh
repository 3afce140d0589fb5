#!/usr/bin/env bash
# Set up (once) and run the test suite; extra arguments go to pytest.
#   bash scripts/test.sh          the whole suite (what CI runs)
#   bash scripts/test.sh --fast   unit and spec tests only (no gradings, sandboxes or subprocesses)
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh
bash scripts/sandbox_users.sh
bash scripts/system_packages.sh
tier=()
if [ "${1:-}" = "--fast" ]; then
  shift
  tier=(-m "not slow")
fi
.venv/bin/python -m pytest -n "${GAMEGRADER_TEST_WORKERS:-2}" --dist loadgroup "${tier[@]}" "$@"
