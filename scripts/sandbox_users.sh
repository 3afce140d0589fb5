#!/usr/bin/env bash
# As root: create the unprivileged users student code runs as: the pool gg-student,
# gg-student-1 ... gg-student-$GAMEGRADER_POOL_SIZE (each sandbox leases one for its lifetime, so
# no two gradings on this machine ever share a user; see harness/sandbox/users.py), and
# gg-student-solo (used alone by the tests of the uid-sweep isolation level).
# Without root this does nothing, and the tests use the isolation levels that remain.
set -euo pipefail
[ "$(id -u)" = 0 ] || exit 0
POOL_SIZE="${GAMEGRADER_POOL_SIZE:-16}"
for user in gg-student gg-student-solo $(seq -f "gg-student-%g" 1 "$POOL_SIZE"); do
  id -u "$user" >/dev/null 2>&1 || \
    useradd --system --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin "$user"
done
