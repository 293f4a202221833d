#!/usr/bin/env bash
# pytest in two stages, as `./dev test` runs it: everything but the wall-clock tests (marker `timing`: deadlines,
# latency, throughput), then those one at a time on their own, so that the suite's own work does not fail them; one
# that fails is run once more, alone. The last line says how many were run again and how each ended, so a green run
# that needed a second try says so. Arguments go to every stage; with a `-m` of the caller's own there is one stage.
# PY: the Python to run pytest with (default python3). FACTMEMORY_TEST_SUMMARY: a file that also gets the last line.
set -uo pipefail
PY="${PY:-python3}"

summary() {
  echo "== pytest summary: $1"
  if [ -n "${FACTMEMORY_TEST_SUMMARY:-}" ]; then echo "pytest: $1" >"$FACTMEMORY_TEST_SUMMARY"; fi
}

failed_ids() {  # the failed tests of a JUnit XML report, one id a line (nothing when there is no report)
  [ -f "$1" ] || return 0
  "$PY" - "$1" <<'PYEOF'
import sys
import xml.etree.ElementTree as ET

for case in ET.parse(sys.argv[1]).getroot().iter("testcase"):
    if case.find("failure") is not None or case.find("error") is not None:
        print(f"{case.get('classname')}::{case.get('name')}")
PYEOF
}

for arg in "$@"; do
  if [ "$arg" = "-m" ] || [[ "$arg" == -m?* ]]; then
    echo "== pytest (your -m)"
    "$PY" -m pytest "$@"
    exit
  fi
done

# A temporary folder of this run's own (a later --basetemp of yours wins): under pytest's shared default root, any
# other pytest session of the same user makes that root private again (0700) while the embedded PostgreSQL, which
# runs as another user, still needs to reach its data below it, and it stops.
base="$(mktemp -d "${TMPDIR:-/tmp}/factmemory-test.XXXXXX")"
trap 'rm -rf "$base"' EXIT
rest=0
timing=0
echo "== pytest 1/2: everything but the wall-clock tests (-m 'not timing')"
"$PY" -m pytest --basetemp "$base/rest" -m "not timing" "$@" || rest=$?
echo "== pytest 2/2: the wall-clock tests, one at a time, after the rest (-m timing)"
"$PY" -m pytest --basetemp "$base/timing" --junitxml "$base/timing.xml" -m timing "$@" || timing=$?
if [ "$timing" -ne 0 ] && [ "$timing" -ne 5 ]; then
  first="$(failed_ids "$base/timing.xml")"
  echo "== pytest 2/2 again: only the wall-clock tests that failed, once more, alone (--last-failed)"
  timing=0
  "$PY" -m pytest --basetemp "$base/again" --junitxml "$base/again.xml" -m timing --last-failed \
    --last-failed-no-failures none "$@" || timing=$?
  again="$(failed_ids "$base/again.xml")"
  tried="$(grep -c . <<<"$first")"
  still="$(grep -c . <<<"$again")"
  passed="$(grep -vxF -f <(printf '%s\n' "$again") <<<"$first" | grep -c .)"
  line="$tried wall-clock test(s) failed and were run again alone: $passed passed, $still failed again"
  [ "$passed" -gt 0 ] && line="$line; passed on the second try: $(grep -vxF -f <(printf '%s\n' "$again") <<<"$first" | paste -sd ' ')"
  [ "$still" -gt 0 ] && line="$line; failed twice: $(paste -sd ' ' <<<"$again")"
  summary "$line"
else
  summary "no wall-clock test was run again"
fi
# 5 = no test selected: fine for one stage (the tests asked for may all be in the other), not for both.
if [ "$rest" -eq 5 ] && [ "$timing" -eq 5 ]; then exit 5; fi
if [ "$rest" -ne 0 ] && [ "$rest" -ne 5 ]; then exit "$rest"; fi
if [ "$timing" -ne 0 ] && [ "$timing" -ne 5 ]; then exit "$timing"; fi
exit 0
