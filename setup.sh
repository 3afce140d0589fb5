#!/usr/bin/env bash
# Gradescope image setup (run once, as root, by Gradescope; its shebang is ignored there).
# Installs gamegrader into its own virtual environment (never touching the system python3),
# creates the unprivileged users that student code runs as, installs the third-party packages
# students may import (the assignment's allowed_packages, for the interpreter the sandbox runs, in
# a root-owned folder of their own: /usr/local/lib/gamegrader/packages, or $GAMEGRADER_PACKAGES),
# and locks the source folder.
# AUTOGRADER_ROOT replaces /autograder, so tests can run this in a temporary folder.
set -euo pipefail
ROOT="${AUTOGRADER_ROOT:-/autograder}"
SOURCE="$ROOT/source"
VENV="${GAMEGRADER_VENV:-$ROOT/gamegrader-venv}"
SANDBOX_USER="${GAMEGRADER_SANDBOX_USER:-gg-student}"

if ! python3 -m venv --help >/dev/null 2>&1 || ! python3 -c "import ensurepip" 2>/dev/null; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y python3-venv
  fi
fi
# libseccomp builds the sandbox's system-call filter (harness/sandbox/syscall_filter.py); the
# grader's pyseccomp loads it. Without it, results.json says which bound holds instead.
if ! ldconfig -p 2>/dev/null | grep -q 'libseccomp\.so\.2'; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y libseccomp2 \
      || { apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y libseccomp2; }
  fi
fi
python3 -m venv "$VENV"
"$VENV/bin/python" -m pip install --quiet --upgrade pip
"$VENV/bin/python" -m pip install --quiet -e "$SOURCE"
"$VENV/bin/gamegrader" packages install
# Byte-compile the grader once: every run then loads it instead of compiling about 50 modules
# (0.05-0.2 s per grading), also where writing bytecode is turned off (PYTHONDONTWRITEBYTECODE).
"$VENV/bin/python" -m compileall -q "$SOURCE/harness" "$SOURCE/reference" "$SOURCE/assignments" >/dev/null

if [ "$(id -u)" = 0 ]; then
  # The pool of users student code runs as (each sandbox leases one; harness/sandbox/users.py):
  # one grading at a time on Gradescope, several in batch grading and tournaments.
  for user in "$SANDBOX_USER" gg-student $(seq -f "gg-student-%g" 1 "${GAMEGRADER_POOL_SIZE:-16}"); do
    id -u "$user" >/dev/null 2>&1 || \
      useradd --system --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin "$user"
  done
  # Hidden cases and the reference live in source/: readable by root only.
  chown -R root:root "$SOURCE"
  chmod -R go-rwx "$SOURCE"
  chmod 755 "$VENV"
fi
echo "gamegrader installed in $VENV"
