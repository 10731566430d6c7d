#!/usr/bin/env bash
# The Windows half of the test command: cross-compiles the core, readscope-cli and the
# portable core tests with Debian's mingw-w64 and runs them under Wine (wine64): the Windows
# strategies must return exactly the file's bytes, and the CLI must run a small sweep.
# Figures from Wine are an emulation layer's, not Windows'. When Wine cannot start here it
# says why and, with CI set, fails; without CI it is a skip (listed at the end of the test
# command). The long two-thread sweep is in scripts/stress-tests.sh --wine.
set -euo pipefail
cd "$(dirname "$0")/.."

READSCOPE_EXTRA_PACKAGES="g++-mingw-w64-x86-64-posix wine64 doctest-dev ${READSCOPE_EXTRA_PACKAGES:-}" \
    bash scripts/deps.sh

# Cannot run: a failure in CI, a skip (said, and listed by the test command) elsewhere.
cannot_run() {
    echo "windows-test: cannot run: $1" >&2
    [[ -z "${READSCOPE_SKIPS:-}" ]] || echo "windows: Wine: $1" >>"$READSCOPE_SKIPS"
    [[ -z "${CI:-}" ]] || exit 1
    exit 0
}

wine=/usr/lib/wine/wine64 # Debian's wine64 keeps its launcher off PATH
[[ -x "$wine" ]] || wine=$(command -v wine64 || true)
export WINEDEBUG=-all
export WINEPREFIX="${WINEPREFIX:-$PWD/build/wine-prefix}"

cmake -S . -B build/win -G Ninja -DCMAKE_TOOLCHAIN_FILE=packaging/windows/mingw-w64.cmake \
    -DCMAKE_BUILD_TYPE=Release -DREADSCOPE_WERROR="${CI:-OFF}" >/dev/null
cmake --build build/win

[[ -n "$wine" ]] || cannot_run "no wine64 launcher (/usr/lib/wine/wine64) after installing wine64"
# The first start creates the prefix (about 10 s).
start_log=$(timeout 300 "$wine" cmd /c exit 2>&1) ||
    cannot_run "Wine does not start here: ${start_log:-timed out after 300 s}"

echo "== portable core tests under Wine"
timeout 600 "$wine" build/win/tests/portable/portable_core_tests.exe

cli=build/win/app/cli/readscope-cli.exe
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

echo "== readscope-cli under Wine"
"$wine" "$cli" --version | grep -q '^readscope-cli '
"$wine" "$cli" strategies "$scratch/none" >/dev/null 2>&1 && {
    echo "windows-test: 'strategies' accepted a missing file" >&2
    exit 1
}
"$wine" "$cli" generate "$scratch/target.bin" --size 8M
"$wine" "$cli" strategies "$scratch/target.bin" | tr -d '\r' | tee "$scratch/strategies.txt"
grep -q '^readfile-nobuffering .* yes$' "$scratch/strategies.txt"
grep -q '^pread-uninit .*no: .*its Windows form is readfile-offset' "$scratch/strategies.txt"
timeout 600 "$wine" "$cli" run "$scratch/target.bin" --sizes 4K,64K,1M --rounds 3 --warmup 1 \
    --cache cold --json "$scratch/run.json" --quiet
python3 - "$scratch/run.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
cells = doc["cells"]
assert len(cells) == 36, len(cells)  # 12 Windows strategies x 3 sizes
# Cold cells whose eviction Windows cannot let readscope see are "unverified", never "ok":
# measured, their bytes verified, and the reason in their notes.
bad = [(c["strategy"], c["range_bytes"], c["status"], c.get("checksum")) for c in cells
       if c["status"] != "unverified" or c.get("checksum") != "verified"
       or "residency unverified" not in c.get("message", "")]
assert not bad, bad
assert "Wine" in doc["system"]["kernel"], doc["system"]["kernel"]
# A system that counts no page faults must say so rather than report 0 as a measurement.
faults = sum(s["minor_faults"] + s["major_faults"] for c in cells for s in c["samples"])
assert faults > 0 or ("not counted" in doc["note"] and doc["system"]["faults_counted"] is False), doc["note"]
print(f"windows-test: {len(cells)} cells verified under {doc['system']['kernel']}")
PY
# The device limit of a cold run: FILE_FLAG_NO_BUFFERING reads, the only way Windows has
# (no io_uring; no verified eviction for the buffered way). 64 MiB: the least it measures.
"$wine" "$cli" generate "$scratch/device.bin" --size 64M
timeout 300 "$wine" "$cli" run "$scratch/device.bin" --sizes 1M --strategies readfile-reuse \
    --rounds 1 --warmup 0 --cache cold --json "$scratch/device.json" --quiet >/dev/null
python3 - "$scratch/device.json" <<'PY'
import json, sys
limit = json.load(open(sys.argv[1]))["device_limit"]
assert limit and limit["direct_gbps"] > 0 and limit["gbps"] == limit["direct_gbps"], limit
assert "io_uring exists on Linux only" in limit["skipped"], limit["skipped"]
assert limit["buffered_gbps"] is None and "eviction cannot be verified" in limit["skipped"], limit
print(f"windows-test: device limit {limit['gbps']:.2f} GB/s on {limit['device']} ({limit['fastest']})")
PY
echo "windows-test: passed"
