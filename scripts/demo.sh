#!/usr/bin/env bash
# Set up (once) and grade the bundled sample Dominoes submission, showing what a student sees.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh
mkdir -p out
.venv/bin/gamegrader grade --assignment adversarial_search \
    --submission examples/adversarial_search/submission \
    --output out/results.json --quiet --show
