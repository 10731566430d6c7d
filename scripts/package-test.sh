#!/usr/bin/env bash
# Builds the Debian package, unpacks it into a scratch root with dpkg, runs the installed
# readscope-cli (--version and a tiny run), and validates the desktop entry and metainfo.
set -euo pipefail
cd "$(dirname "$0")/.."
READSCOPE_EXTRA_PACKAGES="dpkg-dev desktop-file-utils appstream" bash scripts/deps.sh
bash scripts/build.sh dev >/dev/null
(cd build/dev && cpack -G DEB >/dev/null)
deb=$(ls build/dev/readscope_*_*.deb | head -n1)
echo "package: $deb"
dpkg-deb --info "$deb" | grep -E "Package|Version|Architecture|Depends"
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
dpkg -x "$deb" "$root"
for f in usr/bin/readscope usr/bin/readscope-cli \
         usr/share/applications/io.github.readscope.readscope.desktop \
         usr/share/metainfo/io.github.readscope.readscope.metainfo.xml \
         usr/share/icons/hicolor/scalable/apps/readscope.svg \
         usr/share/man/man1/readscope.1 usr/share/man/man1/readscope-cli.1; do
    [[ -e "$root/$f" ]] || { echo "missing from the package: $f" >&2; exit 1; }
done
"$root/usr/bin/readscope-cli" --version
"$root/usr/bin/readscope" --version
"$root/usr/bin/readscope-cli" generate "$root/tiny.bin" --size 4M >/dev/null
"$root/usr/bin/readscope-cli" run "$root/tiny.bin" --sizes 64K --strategies pread-uninit,mmap-touch \
    --rounds 3 --warmup 0 --quiet --markdown
desktop-file-validate "$root/usr/share/applications/io.github.readscope.readscope.desktop"
echo "desktop-file-validate: ok"
appstreamcli validate --no-net --pedantic \
    "$root/usr/share/metainfo/io.github.readscope.readscope.metainfo.xml" || {
    # Pedantic hints are reported but only errors fail the package test.
    appstreamcli validate --no-net "$root/usr/share/metainfo/io.github.readscope.readscope.metainfo.xml"
}
echo "package test: ok"
