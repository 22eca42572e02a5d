#!/usr/bin/env bash
# Sets up Musterroll on a fresh machine: a virtual environment in .venv with the
# package and its dependencies. With --test it also installs what the tests
# need (Debian/Ubuntu packages): LibreOffice Calc with its Python script
# provider (the Calc extension's button runs in it), poppler's pdftoppm (pages
# rendered for a person to look at) and Chromium (the campaign report opened in
# a real browser). It prints progress and errors only.
set -euo pipefail
cd "$(dirname "$0")/.."

want_tests=0
[ "${1:-}" = "--test" ] && want_tests=1

python=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  echo "Creating the virtual environment in .venv..."
  "$python" -m venv .venv
fi
pip() { .venv/bin/python -m pip --quiet --quiet --disable-pip-version-check "$@"; }
echo "Installing Musterroll and its dependencies..."
pip install --upgrade pip
if [ "$want_tests" = 1 ]; then
  pip install -e '.[report,test]'
else
  pip install -e '.[report]'
fi

if [ "$want_tests" = 1 ]; then
  need=()
  has() { dpkg -s "$1" >/dev/null 2>&1; }
  # soffice alone is not enough: Calc is a package of its own.
  has libreoffice-calc-nogui || has libreoffice-calc || need+=(libreoffice-calc-nogui)
  has libreoffice-script-provider-python || need+=(libreoffice-script-provider-python python3-uno)
  command -v pdftoppm >/dev/null 2>&1 || need+=(poppler-utils)
  command -v chromium >/dev/null 2>&1 || need+=(chromium)
  if [ "${#need[@]}" -gt 0 ]; then
    sudo=""
    [ "$(id -u)" = 0 ] || sudo="sudo"
    echo "Installing ${need[*]} for the tests..."
    log=$(mktemp)
    if ! { $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq \
           --no-install-recommends "${need[@]}"; } >"$log" 2>&1; then
      cat "$log" >&2
      rm -f "$log"
      exit 1
    fi
    rm -f "$log"
  fi
fi
echo "Ready."
