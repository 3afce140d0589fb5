#!/usr/bin/env bash
# As root: create the unprivileged users student code runs as: gg-student (as setup.sh does on
# Gradescope), gg-student-solo (used alone by the tests of the uid-sweep isolation level), and
# gg-student-1, gg-student-2 (a pool, so that concurrent batch gradings never share a user).
# Without root this does nothing, and the tests use the isolation levels that remain.
set -euo pipefail
[ "$(id -u)" = 0 ] || exit 0
for user in gg-student gg-student-solo gg-student-1 gg-student-2; do
  id -u "$user" >/dev/null 2>&1 || \
    useradd --system --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin "$user"
done
