#!/usr/bin/env bash
# Create .venv (Python 3.11) and install a requirements file into it, once per change of that file.
# Usage: scripts/setup_venv.sh requirements.txt
set -euo pipefail
cd "$(dirname "$0")/.."
req="${1:-requirements.txt}"
py="${PYTHON:-$(command -v python3.11 || command -v python3)}"
if [ ! -x .venv/bin/python ]; then
  echo "Creating .venv with $py" >&2
  "$py" -m venv .venv
fi
stamp=".venv/.installed-$(basename "$req")"
want="$(cat "$req" requirements.txt constraints.txt | sha256sum | cut -c1-16)"
if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
  echo "Installing $req into .venv (first time takes a few minutes)…" >&2
  .venv/bin/python -m pip install --quiet --disable-pip-version-check -r "$req"
  echo "$want" > "$stamp"
fi
