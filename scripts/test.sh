#!/usr/bin/env bash
# Install what is needed (once), lint (ruff) and run the whole test suite: unit, AppTest, real Chroma server,
# real llama.cpp server, real browser (Debian chromium via Playwright),
# real OCR (Debian tesseract-ocr). Extra args go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup_venv.sh requirements-test.txt
scripts/apt_install.sh chromium chromium                                    # the browser test
scripts/apt_install.sh tesseract tesseract-ocr tesseract-ocr-deu tesseract-ocr-vie  # OCR of scanned pages
# German-English and French-English dictionaries: a German or French question's words translated for English books
scripts/apt_install.sh /usr/share/dictd/freedict-deu-eng.index dict-freedict-deu-eng dict-freedict-fra-eng
scripts/apt_install.sh /usr/share/dictd/freedict-fra-eng.index dict-freedict-fra-eng
export HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1
.venv/bin/ruff check .                                                      # lint first (ruff.toml: 120 columns)
exec .venv/bin/python -m pytest "$@"
