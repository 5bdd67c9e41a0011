#!/usr/bin/env bash
# Install what is needed (once) and run the whole test suite: unit, AppTest, real Chroma server,
# real llama.cpp server, real browser (Debian chromium via Playwright). Extra args go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup_venv.sh requirements-test.txt
if ! command -v chromium >/dev/null 2>&1; then
  echo "Installing Debian chromium for the browser test…" >&2
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
fi
export HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1
exec .venv/bin/python -m pytest "$@"
