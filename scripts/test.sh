#!/usr/bin/env bash
# Set up (once) and run the whole test suite; extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh
bash scripts/sandbox_users.sh
bash scripts/system_packages.sh
.venv/bin/python -m pytest -n "${GAMEGRADER_TEST_WORKERS:-2}" --dist loadgroup "$@"
