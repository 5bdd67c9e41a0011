#!/usr/bin/env bash
# Install what is needed (once) and start Folio on http://localhost:8501 with the embedded
# defaults: local Chroma under data/, packaged embedding model, extractive answers. No network.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup_venv.sh requirements.txt
export HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1
exec .venv/bin/streamlit run app.py "$@"
