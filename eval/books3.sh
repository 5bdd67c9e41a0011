#!/usr/bin/env bash
# The books of eval/qa_books3.jsonl: four manuals from Debian's documentation packages (Debian main, free
# documentation), unpacked into FOLDER (default ../books3, beside the repository; never into it).
#   gnuplot 5.4 reference manual (gnuplot-doc), An Introduction to R (r-doc-pdf),
#   TeX Live guide in German (texlive-lang-german), lshort in French (texlive-lang-french).
# An evaluation step, run by hand: `apt-get download` fetches the packages; nothing is installed.
set -euo pipefail
out=$(realpath -m "${1:-$(dirname "$0")/../../books3}")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"
cd "$work"
apt-get download gnuplot-doc r-doc-pdf texlive-lang-german texlive-lang-french
for deb in *.deb; do dpkg-deb -x "$deb" x; done
cp x/usr/share/doc/gnuplot/gnuplot.pdf "$out/en_gnuplot_311p.pdf"
cp x/usr/share/R/doc/manual/R-intro.pdf "$out/en_r_intro_113p.pdf"
cp x/usr/share/doc/texlive-doc/texlive/texlive-de/texlive-de.pdf "$out/de_texlive_101p.pdf"
cp x/usr/share/doc/texlive-doc/latex/lshort-french/lshort-fr.pdf "$out/fr_lshort_184p.pdf"
ls -l "$out"
