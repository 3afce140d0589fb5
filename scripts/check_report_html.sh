#!/usr/bin/env bash
# Check the batch report in headless Chromium: install Debian's chromium if it is missing (needs
# root and apt), then run the report tests (which are skipped, with the reason shown, wherever
# Chromium is absent, e.g. in the main test run on a fresh machine).
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v chromium >/dev/null 2>&1; then
  if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    echo "check_report_html: chromium is missing and cannot be installed here (needs root and apt-get)" >&2
    exit 1
  fi
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi
bash scripts/bootstrap.sh
.venv/bin/python -m pytest tests/workflows/test_workflow_report_html.py -ra "$@"
