# Sourced by scripts/test.sh: count the CPU time the test run uses, in core-seconds, and print it
# when the run ends. CPU time is what the code decides; the run's wall time also depends on how
# fast this machine is that hour.
# As root with a control-group file system, the run goes into a control group of its own, which
# charges every process it starts (sandboxed students, orphans and zygotes included). Otherwise
# the shell's children's time is used (`times`), which misses processes no test waited for.
# Targets: the whole suite at most 1600 core-seconds at nominal speed, the fast tier at most 60
# (docs/performance.md, "The budget against the coverage it was set for").
# The host's speed (harness.timing.calibration: a fixed workload against its nominal time) is
# measured before and after the run: on this shared machine it moves by a factor of two within
# an hour, and a slow hour takes more CPU time for the same work. The report gives the run's
# core-seconds at nominal speed too (their count times the mean of both speeds), to compare runs
# of other hours; code that spends a fixed clock (the timed players) does not scale so.
_host_speed() {  # nothing beside CPU burners (scripts/test_under_load.sh): the load, not the host
  [ -z "${GG_BESIDE_BURNERS:-}" ] || return 0
  bash scripts/host_speed.sh
}
_speed_before=${GG_SPEED_BEFORE:-$(_host_speed)}  # .ci/run measures it before its other steps
_core_group=""
_core_file=""
if [ "$(id -u)" = 0 ]; then
  if [ -f /sys/fs/cgroup/cgroup.controllers ]; then
    _core_group=/sys/fs/cgroup/gamegrader-tests-$$ _core_file=cpu.stat
  elif [ -f /sys/fs/cgroup/cpuacct/cpuacct.usage ]; then
    _core_group=/sys/fs/cgroup/cpuacct/gamegrader-tests-$$ _core_file=cpuacct.usage
  fi
  if [ -n "$_core_group" ]; then
    { mkdir "$_core_group" && echo $$ > "$_core_group/cgroup.procs"; } 2>/dev/null || _core_group=""
  fi
fi

core_seconds_report() {
  local status=$? used how
  if [ -n "$_core_group" ]; then
    if [ "$_core_file" = cpu.stat ]; then
      used=$(awk '$1 == "usage_usec" { printf "%.0f", $2 / 1e6 }' "$_core_group/cpu.stat")
    else
      used=$(awk '{ printf "%.0f", $1 / 1e9 }' "$_core_group/cpuacct.usage")
    fi
    how="control group"
    # Leave the group (to its parent) and remove it once its last processes are gone, with the
    # per-test groups GG_TEST_CPU_LOG makes in it (tests/gg_cpu_profile.py).
    echo $$ > "$(dirname "$_core_group")/cgroup.procs" 2>/dev/null || true
    rmdir "$_core_group"/gg-test-* 2>/dev/null || true
    rmdir "$_core_group" 2>/dev/null || true
  else
    used=$(times | awk 'NR == 2 { split($1, u, "m"); split($2, s, "m");
                                  printf "%.0f", u[1] * 60 + u[2] + s[1] * 60 + s[2] }')
    how="children's accounted time"
  fi
  echo "core-seconds: ${used} used by this run (${how}; targets: 1600 at nominal speed for the suite, 60 for --fast)"
  local after
  after=$(_host_speed)
  if [ -n "$_speed_before" ] && [ -n "$after" ]; then
    awk -v used="$used" -v before="$_speed_before" -v after="$after" 'BEGIN {
      printf "host speed: %.2fx nominal before the run, %.2fx after: about %.0f core-seconds " \
             "at nominal speed\n", before, after, used * (before + after) / 2 }'
  fi
  return "$status"
}
trap core_seconds_report EXIT
