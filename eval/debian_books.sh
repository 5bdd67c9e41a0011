#!/usr/bin/env bash
# The books of an evaluation set taken from Debian's documentation packages (Debian main, free documentation),
# unpacked into FOLDER (default ../SET, beside the repository; never into it). An evaluation step, run by hand:
# `apt-get download` fetches the packages; nothing is installed.
#   eval/debian_books.sh books3 [FOLDER]   eval/qa_books3.jsonl: gnuplot 5.4 reference manual (gnuplot-doc), An
#       Introduction to R (r-doc-pdf), TeX Live guide in German (texlive-lang-german), lshort in French
#       (texlive-lang-french)
#   eval/debian_books.sh books4 [FOLDER]   eval/qa_books4.jsonl: R Installation and Administration (r-doc-pdf), the
#       German biblatex manual (texlive-lang-german), "Rédaction avec LaTeX" (formation-latex-ul, texlive-lang-french)
#   eval/debian_books.sh books5 [FOLDER]   eval/qa_books5.jsonl: the Asymptote manual (asymptote-doc), the German Debian
#       Reference (debian-reference-de), the French expEYES-17 user manual (eyes17-manuals-fr, shipped gzipped)
#   eval/debian_books.sh books6 [FOLDER]   eval/qa_books6.jsonl: the beamer user guide (texlive-latex-recommended-doc),
#       the German Debian Edu 12 manual (debian-edu-doc-de), "Apprends LaTeX !" (texlive-lang-french)
#   eval/debian_books.sh books7 [FOLDER]   eval/qa_books7.jsonl: the Debian Developer's Reference (developers-reference),
#       the German Debian installation guide for amd64 (installation-guide-amd64, shipped gzipped), "Petit manuel pour
#       TeXworks" (texworks-help-fr)
#   eval/debian_books.sh books8 [FOLDER]   eval/qa_books8.jsonl: the ReportLab PDF library user guide
#       (python-reportlab-doc), the German GnuCash guide (gnucash-docs, shipped gzipped), the French Debian FAQ
#       (debian-faq-fr, shipped gzipped)
#   eval/debian_books.sh books9 [FOLDER]   eval/qa_books9.jsonl: the GNU Backgammon manual (gnubg-data), the German
#       TIPA manual (tipa-de, texlive-lang-german), the French yathesis class documentation (texlive-publishers-doc,
#       a large package: about 210 MB)
#   eval/debian_books.sh books10 [FOLDER]  eval/qa_books10.jsonl: the Gutenprint user's manual (gutenprint-doc), the
#       German LinuxCNC "Getting Started" guide (linuxcnc-doc-de, a large package: about 26 MB), the French Debian New
#       Maintainers' Guide (maint-guide-fr)
set -euo pipefail
set_name="${1:?usage: eval/debian_books.sh books3|books4|books5|books6|books7|books8|books9|books10 [FOLDER]}"
out=$(realpath -m "${2:-$(dirname "$0")/../../$set_name}")
doc=usr/share/doc/texlive-doc
case "$set_name" in
  books3) packages=(gnuplot-doc r-doc-pdf texlive-lang-german texlive-lang-french)
          files=("usr/share/doc/gnuplot/gnuplot.pdf en_gnuplot_311p.pdf"
                 "usr/share/R/doc/manual/R-intro.pdf en_r_intro_113p.pdf"
                 "$doc/texlive/texlive-de/texlive-de.pdf de_texlive_101p.pdf"
                 "$doc/latex/lshort-french/lshort-fr.pdf fr_lshort_184p.pdf") ;;
  books4) packages=(r-doc-pdf texlive-lang-german texlive-lang-french)
          files=("usr/share/R/doc/manual/R-admin.pdf en_r_admin_85p.pdf"
                 "$doc/latex/translation-biblatex-de/biblatex-de-Benutzerhandbuch.pdf de_biblatex_157p.pdf"
                 "$doc/latex/formation-latex-ul/formation-latex-ul.pdf fr_formation_latex_196p.pdf") ;;
  books5) packages=(asymptote-doc debian-reference-de eyes17-manuals-fr)
          files=("usr/share/doc/asymptote/asymptote.pdf en_asymptote_196p.pdf"
                 "usr/share/debian-reference/debian-reference.de.pdf de_debian_reference_276p.pdf"
                 "usr/share/doc/eyes17/fr/eyes17.pdf.gz fr_eyes17_99p.pdf") ;;
  books6) packages=(texlive-latex-recommended-doc debian-edu-doc-de texlive-lang-french)
          files=("$doc/latex/beamer/beameruserguide.pdf en_beamer_234p.pdf"
                 "usr/share/doc/debian-edu-doc-de/debian-edu-bookworm-manual.pdf de_debianedu_104p.pdf"
                 "$doc/latex/apprends-latex/Apprends_LaTeX.pdf fr_apprendslatex_209p.pdf") ;;
  books7) packages=(developers-reference installation-guide-amd64 texworks-help-fr)
          files=("usr/share/developers-reference/developers-reference.pdf en_devref_114p.pdf"
                 "usr/share/doc/installation-guide-amd64/de/install.de.pdf.gz de_installguide_129p.pdf"
                 "usr/share/doc/texworks-help-fr/manuel.pdf fr_texworks_77p.pdf") ;;
  books8) packages=(python-reportlab-doc gnucash-docs debian-faq-fr)
          files=("usr/share/doc/python-reportlab-doc/reportlab-userguide.pdf en_reportlab_134p.pdf"
                 "usr/share/doc/gnucash-docs/gnucash-guide-de.pdf.gz de_gnucash_263p.pdf"
                 "usr/share/doc/debian/FAQ/debian-faq.fr.pdf.gz fr_debianfaq_75p.pdf") ;;
  books9) packages=(gnubg-data texlive-lang-german texlive-publishers-doc)
          files=("usr/share/doc/gnubg/gnubg.pdf en_gnubg_81p.pdf"
                 "$doc/latex/tipa-de/tipaman-de.pdf de_tipa_91p.pdf"
                 "$doc/latex/yathesis/french/documentation/yathesis-fr.pdf fr_yathesis_167p.pdf") ;;
  books10) packages=(gutenprint-doc linuxcnc-doc-de maint-guide-fr)
          files=("usr/share/doc/gutenprint-doc/gutenprint-users-manual.pdf en_gutenprint_73p.pdf"
                 "usr/share/doc/linuxcnc/LinuxCNC_Getting_Started_de.pdf de_linuxcnc_62p.pdf"
                 "usr/share/doc/maint-guide-fr/maint-guide.fr.pdf fr_maintguide_64p.pdf") ;;
  *) echo "unknown set: $set_name (books3 … books10)" >&2; exit 2 ;;
esac
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"
cd "$work"
apt-get download "${packages[@]}"
for deb in *.deb; do dpkg-deb -x "$deb" x; done
for pair in "${files[@]}"; do
  read -r from to <<< "$pair"
  case "$from" in
    *.gz) gunzip -c "x/$from" > "$out/$to" ;;
    *) cp "x/$from" "$out/$to" ;;
  esac
done
ls -l "$out"
