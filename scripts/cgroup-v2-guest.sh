#!/bin/sh
# Runs inside the virtual machine scripts/check-cgroup-v2.sh starts: a Debian kernel with only
# cgroup v2 mounted (the memory controller on it), this host's file system read-only, a fresh
# ext4 disk at /mnt. Checks readscope's memory limits where the unified hierarchy holds the
# memory controller, as on a desktop with systemd, which the development VM (cgroup v1)
# cannot show. Prints "CHECK name: ok|FAILED ..." lines; the host script judges them.
# Arguments: the build folder (with app/cli/readscope-cli and tests/tst_memory_limit).
set -u
build=$1
cli=$build/app/cli/readscope-cli
cg=/sys/fs/cgroup
export TMPDIR=/mnt/tmp HOME=/mnt/home QT_QPA_PLATFORM=offscreen
mkdir -p "$TMPDIR" "$HOME"
chmod 1777 "$TMPDIR" "$HOME"

check() { # name, status (0 ok), what was seen
    if [ "$2" -eq 0 ]; then echo "CHECK $1: ok  $3"; else echo "CHECK $1: FAILED  $3"; fi
}
# Runs a command as the user nobody from inside the cgroup $1 (its process moved there first).
as_nobody_in() {
    sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' _ "$@"
}
nobody="setpriv --reuid=65534 --regid=65534 --clear-groups"

echo "guest: $(uname -r); cgroup2 controllers: $(cat $cg/cgroup.controllers)"
echo "guest: /proc/self/cgroup: $(cat /proc/self/cgroup)"

"$cli" generate /mnt/big.bin --size 1G >/dev/null || echo "generate failed"
chmod 644 /mnt/big.bin

# 1. The core's own test, as root in the root cgroup: a readscope-<pid> child of the root
#    made, limited through memory.max and entered; a limited cgroup it starts in used as is.
out=$("$build/tests/tst_memory_limit" 2>&1)
rc=$?
echo "$out" | grep -E '^(PASS|FAIL|SKIP|XFAIL|Totals)|Loc:' | sed 's/^/  tst: /'
skips=$(echo "$out" | grep -c '^SKIP')
check tst_memory_limit $((rc + skips)) "(rc $rc, $skips skipped)"

# 2. The CLI as root: 1 GiB file, 256 MiB limit, warm rounds over 20 s.
warm() { # json, extra args...
    j=$1
    shift
    "$cli" run /mnt/big.bin --sizes 1M --strategies pread-uninit,mmap-touch --cache warm \
        --duration 20s --memory-limit 256M --json "$j" "$@"
}
residency() { # json: the largest share of the file any round began with, after the first
    python3 - "$1" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
worst = 0
for c in d["cells"]:
    rs = [s.get("resident_before") for s in c["samples"]][1:]
    rs = [r for r in rs if r is not None]
    worst = max([worst] + rs)
print(f"{worst:.3f} how={d['memory_limit']['how']!r} bytes={d['memory_limit']['bytes']}")
EOF
}
if warm /mnt/root.json >/mnt/root.txt 2>&1; then
    r=$(residency /mnt/root.json)
    awk -v r="${r%% *}" 'BEGIN { exit !(r <= 0.3) }'
    check cli-root-own-cgroup $? "largest residency after the first round: $r"
else
    check cli-root-own-cgroup 1 "$(cat /mnt/root.txt)"
fi

# 3. As a user inside a scope limited to 256 MiB, as `systemd-run --user --scope -p
#    MemoryMax=256M` makes one: readscope uses that scope's limit and makes no cgroup.
echo +memory >$cg/cgroup.subtree_control
mkdir -p $cg/user.slice/run-r1.scope
echo +memory >$cg/user.slice/cgroup.subtree_control
echo 268435456 >$cg/user.slice/run-r1.scope/memory.max
as_nobody_in $cg/user.slice/run-r1.scope $nobody "$cli" run /mnt/big.bin --sizes 1M \
    --strategies pread-uninit,mmap-touch --cache warm --duration 20s --memory-limit 256M \
    --json /mnt/tmp/scope.json >/mnt/scope.txt 2>&1
if [ -s /mnt/tmp/scope.json ]; then
    r=$(residency /mnt/tmp/scope.json)
    case "$r" in *"started in"*) in_place=0 ;; *) in_place=1 ;; esac
    awk -v r="${r%% *}" 'BEGIN { exit !(r <= 0.3) }'
    check cli-user-in-limited-scope $(($? + in_place)) "largest residency: $r"
else
    check cli-user-in-limited-scope 1 "$(cat /mnt/scope.txt)"
fi

# 4. As a user in a cgroup delegated to it that holds its process (a desktop session's scope
#    without a limit): v2 gives no child the memory controller there, so the run is refused,
#    saying why, and does not run unlimited.
mkdir -p $cg/user.slice/session.scope
chown -R 65534:65534 $cg/user.slice/session.scope
as_nobody_in $cg/user.slice/session.scope $nobody "$cli" run /mnt/big.bin --sizes 1M \
    --strategies pread-uninit --memory-limit 256M --json /mnt/tmp/refused.json \
    >/mnt/refused.txt 2>&1
rc=$?
msg=$(cat /mnt/refused.txt)
ok=1
[ $rc -ne 0 ] && [ ! -e /mnt/tmp/refused.json ] &&
    echo "$msg" | grep -q "cannot run under a memory limit" &&
    ! echo "$msg" | grep -q "Finished cells are kept" && ok=0
check refused-in-delegated-scope $ok "(rc $rc) $msg"

# 5. As a user in the root cgroup (no permission to make one): refused, saying why.
out=$(as_nobody_in $cg $nobody "$cli" run /mnt/big.bin --sizes 1M --strategies pread-uninit \
    --memory-limit 256M 2>&1)
rc=$?
ok=1
[ $rc -ne 0 ] && echo "$out" | grep -q "Permission denied" &&
    ! echo "$out" | grep -q "Finished cells are kept" && ok=0
check refused-without-permission $ok "(rc $rc) $out"

# 6. pread-dontcache on a kernel without RWF_DONTCACHE: said to be unavailable, not run.
out=$("$cli" strategies /mnt/big.bin 2>&1 | grep dontcache)
echo "$out" | grep -qi "kernel" && ok=0 || ok=1
check dontcache-on-old-kernel $ok "$out"

# 7. The way the refusals advise, for real: a systemd user manager (delegated its cgroup, as
#    user@.service is), and `systemd-run --user --scope -p MemoryMax=256M` from a terminal's
#    scope inside it. readscope runs in the scope systemd made, limited by it.
if [ -x /lib/systemd/systemd ] && command -v systemd-run >/dev/null; then
    mount -t tmpfs run /run # the share's /run is read-only; the manager wants its own
    mkdir -p /run/systemd/system /run/user/65534
    chown 65534:65534 /run/user/65534
    chmod 700 /run/user/65534
    echo +pids >$cg/cgroup.subtree_control
    echo +pids >$cg/user.slice/cgroup.subtree_control
    mkdir -p $cg/user.slice/user-65534.slice
    echo +memory +pids >$cg/user.slice/user-65534.slice/cgroup.subtree_control
    u=$cg/user.slice/user-65534.slice/user@65534.service
    mkdir -p $u
    chown -R 65534:65534 $u
    export XDG_RUNTIME_DIR=/run/user/65534
    as_nobody_in $u $nobody /lib/systemd/systemd --user >/mnt/tmp/systemd.log 2>&1 &
    for _ in 1 2 3 4 5 6 7 8 9 10; do
        state=$($nobody systemctl --user is-system-running 2>&1)
        [ "$state" = running ] && break
        sleep 2
    done
    t=$u/app.slice/terminal.scope # where a terminal started from the desktop runs
    mkdir -p $t
    chown -R 65534:65534 $t
    as_nobody_in $t $nobody systemd-run --user --scope -p MemoryMax=256M "$cli" run \
        /mnt/big.bin --sizes 1M --strategies pread-uninit,mmap-touch --cache warm \
        --duration 20s --memory-limit 256M --json /mnt/tmp/systemd.json \
        >/mnt/tmp/systemd-run.txt 2>&1
    if [ -s /mnt/tmp/systemd.json ]; then
        r=$(residency /mnt/tmp/systemd.json)
        case "$r" in *"started in"*app.slice/run-*.scope*) in_place=0 ;; *) in_place=1 ;; esac
        awk -v r="${r%% *}" 'BEGIN { exit !(r <= 0.3) }'
        check systemd-run-user-scope $(($? + in_place)) "user manager $state; largest residency: $r"
    else
        check systemd-run-user-scope 1 "user manager $state; $(cat /mnt/tmp/systemd-run.txt)"
    fi

    # 8. The same terminal, readscope started without systemd-run: its own cgroup cannot give
    #    a child the memory controller, so it asks the user manager for a limited scope as
    #    systemd-run would, runs in it, and leaves it, which systemd then removes.
    as_nobody_in $t $nobody "$cli" run /mnt/big.bin --sizes 1M \
        --strategies pread-uninit,mmap-touch --cache warm --duration 20s \
        --memory-limit 256M --json /mnt/tmp/asked.json >/mnt/tmp/asked.txt 2>&1
    sleep 1
    scopes=$(find $u -name 'readscope-*' | tr '\n' ' ')
    if [ -s /mnt/tmp/asked.json ]; then
        r=$(residency /mnt/tmp/asked.json)
        case "$r" in *"systemd user manager made"*readscope-*.scope*) asked=0 ;; *) asked=1 ;; esac
        [ -z "$scopes" ] || asked=1
        awk -v r="${r%% *}" 'BEGIN { exit !(r <= 0.3) }'
        check scope-asked-of-the-user-manager $(($? + asked)) "largest residency: $r; \
scopes left: ${scopes:-none}"
    else
        check scope-asked-of-the-user-manager 1 "$(cat /mnt/tmp/asked.txt)"
    fi

    # 9. Alone in a scope systemd made without a limit (a desktop app's own scope): moving
    #    into the limited one empties it and systemd removes it, so the process cannot go back
    #    when the run ends; it stays in the run's scope with that limit lifted, and says so.
    as_nobody_in $t $nobody systemd-run --user --scope "$cli" run /mnt/big.bin --sizes 1M \
        --strategies pread-uninit --cache warm --rounds 3 --memory-limit 256M \
        --json /mnt/tmp/alone.json >/mnt/tmp/alone.txt 2>&1
    rc=$?
    msg=$(cat /mnt/tmp/alone.txt)
    ok=1
    [ $rc -eq 0 ] && [ -s /mnt/tmp/alone.json ] && echo "$msg" | grep -q "limit lifted" && ok=0
    check alone-in-its-scope $ok "(rc $rc) $(echo "$msg" | grep -i "gone\|limit" | head -3)"
else
    echo "CHECK systemd-run-user-scope: skipped, no systemd here"
fi

ls $cg | grep -q '^readscope-' && left=1 || left=0
check no-cgroup-left $left "$(ls $cg | grep readscope- || true)"
echo "GUEST DONE"
