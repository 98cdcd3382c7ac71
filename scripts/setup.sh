#!/usr/bin/env bash
# Set up everything the project needs on a fresh Debian machine with Python 3.11:
# a virtual environment in .venv with the engine, its built-in plugins, the test tools and the
# example third-party plugin. With --browser (the test set-up), also Debian's chromium for the
# e2e tests (Playwright's own browser download does not work here, so the tests use
# /usr/bin/chromium) with a Chinese font (fonts-noto-cjk), and Debian's redis-server for the distributed-job tests. With --redis, only
# redis-server (for `puzzle serve --redis` / `puzzle worker`; `make run` needs neither).
# Safe to run again: each step is skipped when already done.
set -euo pipefail
cd "$(dirname "$0")/.."

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
apt_install() {
  as_root apt-get update -qq
  DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq "$@"
}

PYTHON=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  rm -rf .venv
  if ! "$PYTHON" -m venv .venv >/dev/null 2>&1; then
    # Debian's own python3 ships venv separately.
    rm -rf .venv
    apt_install python3-venv
    "$PYTHON" -m venv .venv
  fi
fi

# Reinstall only when the package definitions change.
stamp=".venv/.installed-$(cat pyproject.toml examples/lights-out/pyproject.toml | sha1sum | cut -c1-12)"
if [ ! -f "$stamp" ]; then
  .venv/bin/python -m pip install -q --upgrade pip
  .venv/bin/python -m pip install -q -e '.[test]' -e examples/lights-out
  touch "$stamp"
fi

want="${1:-}"
if { [ "$want" = "--browser" ] || [ "$want" = "--redis" ]; } && [ ! -x /usr/bin/redis-server ]; then
  # The tests start their own redis-server on a free port; nothing else is configured here.
  apt_install redis-server
fi

if [ "${1:-}" = "--browser" ] && [ ! -x /usr/bin/chromium ]; then
  apt_install chromium
fi

# The pages are also in Simplified Chinese (docs/i18n.md): without a CJK font, Chromium draws
# every Chinese character as an empty box in the e2e screenshots. Readers' own browsers bring
# their fonts; only this test browser needs one.
if [ "${1:-}" = "--browser" ] && ! fc-list :lang=zh 2>/dev/null | grep -q .; then
  apt_install fonts-noto-cjk
fi
