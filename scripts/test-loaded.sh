#!/usr/bin/env bash
# Runs test files again and again under CPU and I/O load, the way a busy CI machine runs them: a
# flaky test shows here in minutes instead of once a week in CI (docs/testing.md).
#
# Usage: scripts/test-loaded.sh [--times N] [--no-load] FILE...
#   Each FILE runs N times (default 20) on its own (`npx vitest run FILE`, CI=true), one after the
#   other, while `stress-ng --cpu 2` and a fio job (4 KiB random writes, QD 16, direct, held to
#   50 MB/s) run on the file system of $TMPDIR. Prints each file's passes, failures and seconds;
#   the output of a failed run is kept in test-artifacts/loaded/, and every line a run printed as
#   "record: …" in test-artifacts/loaded/records.txt. Exits 1 if any run failed.
# Needs stress-ng and fio (Debian: apt-get install stress-ng fio).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

times=20
load=1
files=()
while (($#)); do
  case "$1" in
    --times) times=$2; shift 2 ;;
    --no-load) load=0; shift ;;
    -h | --help) sed -n '2,11p' "$0"; exit 0 ;;
    *) files+=("$1"); shift ;;
  esac
done
((${#files[@]})) || { echo "test-loaded: name the test files to repeat" >&2; exit 2; }
for f in "${files[@]}"; do [[ -f $f ]] || { echo "test-loaded: no such test file: $f" >&2; exit 2; }; done

out=test-artifacts/loaded
mkdir -p "$out"
pids=()
stop_load() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -f "${fio_file:-}"; }
trap stop_load EXIT
if ((load)); then
  for tool in stress-ng fio; do command -v "$tool" >/dev/null || { echo "test-loaded: $tool is not installed" >&2; exit 2; }; done
  # Both loads end by themselves after 4 hours at most, even if this script is killed.
  stress-ng --cpu 2 --timeout 4h --quiet &
  pids+=($!)
  fio_file="$(mktemp "${TMPDIR:-/tmp}/dd-load-XXXXXX.fio")"
  fio --name=load --filename="$fio_file" --size=1G --rw=randwrite --bs=4k --iodepth=16 --ioengine=libaio \
    --direct=1 --rate=50m --time_based --runtime=4h --output=/dev/null &
  pids+=($!)
  sleep 2 # the fio file laid out, the load running before the first test
  echo "test-loaded: load running: stress-ng --cpu 2; fio 4 KiB randwrite QD16 at 50 MB/s on $(df --output=target "$fio_file" | tail -1)"
fi

failed_any=0
for f in "${files[@]}"; do
  pass=0 fail=0 secs=()
  for ((i = 1; i <= times; i++)); do
    log="$out/$(basename "$f" .ts).$i.log"
    start=$SECONDS
    rc=0
    CI=true npx vitest run "$f" >"$log" 2>&1 || rc=$?
    # What a test printed as "record: …" (a measured margin, to set a bound from) outlives the log.
    sed -n "s|.*\(record: .*\)|$(basename "$f" .ts) $i $( ((rc)) && echo 'FAILED ')\1|p" "$log" >>"$out/records.txt"
    if ((rc == 0)); then
      pass=$((pass + 1))
      rm -f "$log"
    else
      # The exit status tells a failed test (1) from a run killed from outside (128 + signal).
      echo "test-loaded: vitest exited $rc" >>"$log"
      fail=$((fail + 1))
      failed_any=1
    fi
    secs+=($((SECONDS - start)))
  done
  printf 'test-loaded: %-60s %2d/%d passed, %d failed; seconds: %s\n' "$f" "$pass" "$times" "$fail" "${secs[*]}"
done
exit "$failed_any"
