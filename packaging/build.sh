#!/usr/bin/env bash
# Build TWTW Desktop for people without Python (see packaging/README.md).
#
#   bash packaging/build.sh            # the stand-alone single-folder app: dist/twtw-desktop/
#                                      # (dist/twtw-desktop/twtw-desktop[.exe]; on macOS also
#                                      # "dist/TWTW Desktop.app")
#   bash packaging/build.sh --wheel    # the Python wheel: dist/twtw_desktop-<version>-py3-none-any.whl
#
# The app is built by PyInstaller from packaging/twtw-desktop.spec, on the platform it is
# for (Linux, Windows with Git Bash, macOS). It uses $PYTHON when set, else the checkout's
# .venv when it has PyInstaller, else a build environment made once in build/venv with
# `pip install ".[bundle]"` (the only step that needs the network). BUNDLE_DIST and
# BUNDLE_WORK move the output and PyInstaller's work folder (default dist, build/pyinstaller).
set -euo pipefail
cd "$(dirname "$0")/.."

if [[ "${1:-}" == "--wheel" ]]; then
    # the sample maps are copied into the wheel's resources so an installed app finds
    # them without the source tree
    # (setuptools' own build/lib and build/bdist.*; build/venv, the bundle's, stays)
    rm -rf build/lib build/bdist.* dist/*.whl resources/maps
    cp -r maps resources/maps
    trap 'rm -rf resources/maps build/lib build/bdist.*' EXIT
    python3 -m pip wheel --no-deps -w dist .
    ls -l dist/*.whl
    exit 0
elif [[ $# -gt 0 ]]; then
    echo "usage: bash packaging/build.sh [--wheel]" >&2
    exit 2
fi

venv_python() {  # the interpreter of a virtual environment (Scripts/ on Windows)
    if [[ -x "$1/bin/python" ]]; then echo "$1/bin/python"; else echo "$1/Scripts/python.exe"; fi
}

PY="${PYTHON:-}"
if [[ -z "$PY" ]]; then
    PY="$(venv_python .venv)"
    if ! "$PY" -c "import PyInstaller" 2>/dev/null; then
        if [[ ! -d build/venv ]]; then
            echo "--- making the build environment build/venv (once) ---"
            python3 -m venv build/venv 2>/dev/null || python -m venv build/venv
        fi
        PY="$(venv_python build/venv)"
        "$PY" -m pip install -q ".[bundle]"
    fi
fi

out="${BUNDLE_DIST:-dist}"
echo "--- PyInstaller: packaging/twtw-desktop.spec -> $out/twtw-desktop/ ---"
rm -rf "$out/twtw-desktop" "$out/TWTW Desktop.app"
"$PY" -m PyInstaller --noconfirm --clean --log-level WARN \
    --distpath "$out" --workpath "${BUNDLE_WORK:-build/pyinstaller}" packaging/twtw-desktop.spec
echo "built $out/twtw-desktop/ ($(du -sh "$out/twtw-desktop" | cut -f1))"
