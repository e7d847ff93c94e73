#!/usr/bin/env bash
# Install TWTW Desktop's launcher, icon and file types for the current user (Linux).
#
#   bash packaging/install-desktop.sh --user [--exec PROGRAM]
#   bash packaging/install-desktop.sh --user --uninstall
#
# Puts into ${XDG_DATA_HOME:-~/.local/share}:
#   applications/twtw-desktop.desktop      the launcher; Exec= names PROGRAM
#   icons/hicolor/<N>x<N>/apps/twtw-desktop.png, icons/hicolor/scalable/apps/twtw-desktop.svg
#   mime/packages/twtw-desktop-mime.xml    *.encounter.json, *.map.json, *.party.json
#   metainfo/org.twtw_desktop.TwtwDesktop.metainfo.xml
# then refreshes the MIME and desktop databases when their tools are installed, so a
# double-click on an encounter file opens it in the app.
#
# PROGRAM defaults to the bundle this script came with (a bundle carries it as
# twtw-desktop/_internal/packaging/install-desktop.sh), else to the bundle built by
# packaging/build.sh (dist/twtw-desktop/twtw-desktop), else to `twtw-desktop` on PATH
# (a pip install); it is written into the launcher by its absolute path.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"

usage() { echo "usage: bash packaging/install-desktop.sh --user [--exec PROGRAM] [--uninstall]" >&2; }

user=0 uninstall=0 program=""
while [[ $# -gt 0 ]]; do
    case "$1" in
        --user) user=1 ;;
        --uninstall) uninstall=1 ;;
        --exec)
            [[ $# -ge 2 ]] || { usage; exit 2; }
            program="$2"
            shift
            ;;
        -h | --help) usage; exit 0 ;;
        *) echo "install-desktop.sh: unknown option $1" >&2; usage; exit 2 ;;
    esac
    shift
done
[[ $user == 1 ]] || { echo "install-desktop.sh: only --user installs are supported" >&2; usage; exit 2; }

data="${XDG_DATA_HOME:-$HOME/.local/share}"
metainfo=org.twtw_desktop.TwtwDesktop.metainfo.xml
sizes=(16 24 32 48 64 128 256 512)

mime_cache() {
    # what update-desktop-database writes for our launcher: each of its MIME types mapped
    # to it in applications/mimeinfo.cache (other apps' lines are kept; ours go when it does)
    local cache="$data/applications/mimeinfo.cache" types line
    types=$(sed -n 's/^MimeType=//p' "$data/applications/twtw-desktop.desktop" 2>/dev/null | tr ';' ' ' || true)
    [[ -f "$cache" ]] || printf '[MIME Cache]\n' >"$cache"
    grep -v '=twtw-desktop.desktop;$' "$cache" >"$cache.tmp" || true
    for line in $types; do printf '%s=twtw-desktop.desktop;\n' "$line" >>"$cache.tmp"; done
    mv "$cache.tmp" "$cache"
}

refresh() {
    if command -v update-mime-database >/dev/null; then update-mime-database "$data/mime" >/dev/null 2>&1 || true; fi
    if command -v update-desktop-database >/dev/null; then
        update-desktop-database "$data/applications" >/dev/null 2>&1 || true
    else
        mime_cache  # no desktop-file-utils: our own lines of the cache file managers read
    fi
    touch "$data/icons/hicolor" 2>/dev/null || true  # icon caches notice the change
}

if [[ $uninstall == 1 ]]; then
    rm -f "$data/applications/twtw-desktop.desktop" "$data/mime/packages/twtw-desktop-mime.xml" \
        "$data/metainfo/$metainfo" "$data/icons/hicolor/scalable/apps/twtw-desktop.svg"
    for s in "${sizes[@]}"; do rm -f "$data/icons/hicolor/${s}x${s}/apps/twtw-desktop.png"; done
    mkdir -p "$data/mime" "$data/applications" "$data/icons/hicolor"
    refresh
    echo "removed TWTW Desktop's launcher, icons and file types from $data"
    exit 0
fi

if [[ -z "$program" ]]; then
    if [[ -x "$root/../twtw-desktop" && -d "$root/../_internal" ]]; then
        program="$root/../twtw-desktop"  # this script inside a bundle: _internal/packaging/
    elif [[ -x "$root/dist/twtw-desktop/twtw-desktop" ]]; then
        program="$root/dist/twtw-desktop/twtw-desktop"
    elif command -v twtw-desktop >/dev/null; then
        program="$(command -v twtw-desktop)"
    else
        echo "install-desktop.sh: no twtw-desktop program: build it (bash packaging/build.sh)," \
            "install it (pip install .) or name it with --exec PROGRAM" >&2
        exit 1
    fi
fi
if [[ ! -x "$program" ]]; then
    echo "install-desktop.sh: $program is not an executable program" >&2
    exit 1
fi
program="$(cd "$(dirname "$program")" && pwd)/$(basename "$program")"
# Exec= quoting (Desktop Entry spec): a path with spaces is double-quoted; characters
# that would need escaping twice are refused rather than half-escaped.
if [[ "$program" =~ [\"\`\$\\%] ]]; then
    echo "install-desktop.sh: cannot put $program in a launcher (it contains \" \` \$ \\ or %);" \
        "move the app to a plainer folder" >&2
    exit 1
fi
exec_value="$program"
[[ "$program" == *" "* ]] && exec_value="\"$program\""

icons="$root/resources/icons"
for f in "$here/twtw-desktop.desktop" "$here/twtw-desktop-mime.xml" "$here/$metainfo" "$icons/app.svg"; do
    [[ -f "$f" ]] || { echo "install-desktop.sh: missing $f" >&2; exit 1; }
done

mkdir -p "$data/applications" "$data/mime/packages" "$data/metainfo" \
    "$data/icons/hicolor/scalable/apps"
for s in "${sizes[@]}"; do
    mkdir -p "$data/icons/hicolor/${s}x${s}/apps"
    cp "$icons/app-$s.png" "$data/icons/hicolor/${s}x${s}/apps/twtw-desktop.png"
done
cp "$icons/app.svg" "$data/icons/hicolor/scalable/apps/twtw-desktop.svg"
cp "$here/twtw-desktop-mime.xml" "$data/mime/packages/twtw-desktop-mime.xml"
cp "$here/$metainfo" "$data/metainfo/$metainfo"
# the launcher, with Exec= naming this program (written whole, then moved in place)
tmp="$data/applications/.twtw-desktop.desktop.tmp"
while IFS= read -r line; do
    if [[ "$line" == Exec=* ]]; then line="Exec=$exec_value %f"; fi
    printf '%s\n' "$line"
done <"$here/twtw-desktop.desktop" >"$tmp"
mv "$tmp" "$data/applications/twtw-desktop.desktop"
refresh
echo "installed TWTW Desktop's launcher, icons and file types into $data"
echo "  Exec=$exec_value %f"
