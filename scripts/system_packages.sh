#!/usr/bin/env bash
# As root with apt-get (CI, a fresh Debian/Ubuntu machine): install the Debian packages the
# tests use: chromium renders the HTML reports and replays in headless mode; libseccomp2 is the
# library the sandbox's system-call filter is built with (pyseccomp loads it); python3-seccomp
# is Debian's binding of it, the filter's fallback where pyseccomp is missing, which a test
# checks builds the same filter. Without root or apt this does nothing, and the tests that need
# them are skipped with the reason shown.
set -euo pipefail
[ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 || exit 0
wanted=()
command -v chromium >/dev/null 2>&1 || wanted+=(chromium)
ldconfig -p | grep -q 'libseccomp\.so\.2' || wanted+=(libseccomp2)
compgen -G '/usr/lib/python3/dist-packages/seccomp*.so' >/dev/null || wanted+=(python3-seccomp)
[ "${#wanted[@]}" = 0 ] && exit 0
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${wanted[@]}" >/dev/null
