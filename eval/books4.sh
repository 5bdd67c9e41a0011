#!/usr/bin/env bash
# The books of eval/qa_books4.jsonl: three manuals from Debian's documentation packages (Debian main, free
# documentation), unpacked into FOLDER (default ../books4, beside the repository; never into it).
#   R Installation and Administration (r-doc-pdf), the German biblatex manual (texlive-lang-german),
#   "Rédaction avec LaTeX" (formation-latex-ul, texlive-lang-french).
# An evaluation step, run by hand: `apt-get download` fetches the packages; nothing is installed.
set -euo pipefail
out=$(realpath -m "${1:-$(dirname "$0")/../../books4}")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"
cd "$work"
apt-get download r-doc-pdf texlive-lang-german texlive-lang-french
for deb in *.deb; do dpkg-deb -x "$deb" x; done
cp x/usr/share/R/doc/manual/R-admin.pdf "$out/en_r_admin_85p.pdf"
cp x/usr/share/doc/texlive-doc/latex/translation-biblatex-de/biblatex-de-Benutzerhandbuch.pdf "$out/de_biblatex_157p.pdf"
cp x/usr/share/doc/texlive-doc/latex/formation-latex-ul/formation-latex-ul.pdf "$out/fr_formation_latex_196p.pdf"
ls -l "$out"
