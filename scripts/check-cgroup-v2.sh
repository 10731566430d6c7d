#!/usr/bin/env bash
# Checks readscope's memory limits (--memory-limit) under cgroup v2, where a desktop with
# systemd has the memory controller, in a virtual machine: Debian's own kernel booted by qemu
# with only cgroup v2 mounted, this machine's file system shared read-only, a fresh ext4 disk
# for the 1 GiB test file. The development VM mounts cgroup v1 and cannot show it itself.
# Runs scripts/cgroup-v2-guest.sh in the machine and prints its CHECK lines; exits non-zero
# when one failed or the machine did not finish. Needs root (qemu shares / as it is) and
# about 2 GiB of memory; takes a few minutes without KVM. Not part of scripts/test.sh.
# Usage: scripts/check-cgroup-v2.sh [BUILD_DIR]   (default build/dev, built already)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$here/build/dev}" && pwd)
[[ -x $build/app/cli/readscope-cli && -x $build/tests/tst_memory_limit ]] || {
    echo "check-cgroup-v2: build first (scripts/build.sh dev); $build has no readscope-cli" >&2
    exit 2
}
READSCOPE_EXTRA_PACKAGES="qemu-system-x86 linux-image-amd64 busybox-static e2fsprogs" \
    bash "$here/scripts/deps.sh"

kernel=$(ls /boot/vmlinuz-*-amd64 | sort -V | tail -1)
version=${kernel#/boot/vmlinuz-}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The initramfs: busybox, the modules for virtio disks, 9p and ext4, and an init that mounts
# the shared root, the disk and cgroup2, then runs the guest script chrooted into the share.
mkdir -p "$work/root/bin" "$work/root/lib/mod" "$work/root"/{proc,sys,dev,host}
cp /bin/busybox "$work/root/bin/busybox"
for m in virtio_pci virtio_blk crc32c_generic ext4 9p 9pnet_virtio; do
    modprobe -S "$version" --show-depends "$m" | awk '$1 == "insmod" { print $2 }'
done | awk '!seen[$0]++' >"$work/order"
while read -r ko; do
    cp "$ko" "$work/root/lib/mod/"
    basename "$ko" >>"$work/root/modules"
done <"$work/order"
cat >"$work/root/init" <<EOF
#!/bin/busybox sh
/bin/busybox --install -s /bin
mount -t proc proc /proc && mount -t sysfs sys /sys && mount -t devtmpfs dev /dev
for m in \$(cat /modules); do insmod /lib/mod/\$m 2>/dev/null; done
mount -t 9p -o trans=virtio,version=9p2000.L,ro,msize=262144 hostroot /host
mount -t ext4 /dev/vda /host/mnt
mount -t proc proc /host/proc && mount -t sysfs sys /host/sys && mount -t devtmpfs dev /host/dev
mount -t cgroup2 cgroup2 /host/sys/fs/cgroup
chroot /host /bin/sh $here/scripts/cgroup-v2-guest.sh $build
poweroff -f
EOF
chmod +x "$work/root/init"
(cd "$work/root" && find . | cpio -o -H newc --quiet | gzip -1) >"$work/initrd.gz"

truncate -s 2G "$work/disk.img"
mkfs.ext4 -q -F "$work/disk.img"

# TCG: KVM inside the development VM (nested) starts but hangs the guest's kernel. Set
# READSCOPE_QEMU_ACCEL=kvm where KVM works.
accel=${READSCOPE_QEMU_ACCEL:-tcg}
echo "check-cgroup-v2: booting $kernel ($accel), guest log in $work/console.log" >&2

timeout 1800 qemu-system-x86_64 -accel "$accel" -cpu max -m 2G -smp 2 -nographic -no-reboot \
    -kernel "$kernel" -initrd "$work/initrd.gz" \
    -append "console=ttyS0 panic=-1 loglevel=4 rdinit=/init" \
    -drive "file=$work/disk.img,format=raw,if=virtio" \
    -virtfs "local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap" \
    </dev/null >"$work/console.log" 2>&1 || true

sed -n '/guest: /,/^GUEST DONE/p' "$work/console.log" | tr -d '\r'
if ! grep -q "GUEST DONE" "$work/console.log"; then
    echo "check-cgroup-v2: the machine did not finish; its console:" >&2
    tail -40 "$work/console.log" >&2
    exit 1
fi
! grep -q "^CHECK .*: FAILED" "$work/console.log"
