#!/usr/bin/env bash
# Build the installable wheel into dist/ (the sample maps are copied into the wheel's
# resources so an installed app finds them without the source tree).
set -euo pipefail
cd "$(dirname "$0")/.."
rm -rf build dist resources/maps
cp -r maps resources/maps
trap 'rm -rf resources/maps build' EXIT
python3 -m pip wheel --no-deps -w dist .
ls -l dist
