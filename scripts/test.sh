#!/usr/bin/env bash
# Set up (once) and run the test suite; extra arguments go to pytest.
#   bash scripts/test.sh          the whole suite (what CI runs)
#   bash scripts/test.sh --fast   unit and spec tests only (no gradings, sandboxes or subprocesses)
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh
bash scripts/sandbox_users.sh
bash scripts/system_packages.sh
# Print the run's CPU time in core-seconds when it ends.
source scripts/core_seconds.sh
# Two pytest workers more than there are CPUs (at most 8): part of the suite waits on deadlines
# and sleeping students (the timeout, clock and hostile tests), which the extra workers fill with
# work. On 2 cores the CPUs were busy 97% of the run with 4 workers, against 94% with 3
# (4 min 7 s against 4 min 14 s, one run each, side by side). The fast tier only computes: one
# per CPU.
cpus=$(nproc)
workers=$(( cpus + 2 < 8 ? cpus + 2 : 8 ))
tier=()
if [ "${1:-}" = "--fast" ]; then
  shift
  tier=(-m "not slow")
  workers=$(( cpus < 8 ? cpus : 8 ))
fi
# pytest keeps a test module's rewritten assertions as bytecode only where bytecode may be
# written: with PYTHONDONTWRITEBYTECODE set (as on some CI machines) every worker rewrote all
# test modules on every run, about 1.5 s each. The sandbox sets its own environment.
unset PYTHONDONTWRITEBYTECODE
.venv/bin/python -m pytest -n "${GAMEGRADER_TEST_WORKERS:-$workers}" --dist loadgroup "${tier[@]}" "$@"
