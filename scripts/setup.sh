#!/usr/bin/env bash
# Sets up Musterroll on a fresh machine: a virtual environment in .venv with the
# package and its dependencies. With --test it also installs what the tests
# need, LibreOffice included (Debian/Ubuntu packages).
set -euo pipefail
cd "$(dirname "$0")/.."

want_tests=0
[ "${1:-}" = "--test" ] && want_tests=1

python=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$python" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --upgrade pip >/dev/null
if [ "$want_tests" = 1 ]; then
  .venv/bin/python -m pip install --quiet -e '.[test]'
else
  .venv/bin/python -m pip install --quiet -e .
fi

if [ "$want_tests" = 1 ] && ! command -v soffice >/dev/null 2>&1; then
  sudo=""
  [ "$(id -u)" = 0 ] || sudo="sudo"
  echo "Installing LibreOffice (headless Calc) for the workbook tests..."
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends libreoffice-calc-nogui >/dev/null
fi
