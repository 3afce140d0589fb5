#!/usr/bin/env bash
# Print this host's speed against nominal (harness.timing.calibration's workload, e.g. "0.92"),
# or nothing when it cannot be measured. Used by scripts/core_seconds.sh and .ci/run.
cd "$(dirname "$0")/.."
.venv/bin/python -c 'from harness.timing.calibration import measure; print(f"{measure():.2f}")' \
  2>/dev/null || true
