# report and its figures are written through temporary files renamed into place: none is left
needs: render
args: report tests/fixtures/results-small.yaml -t templates/patent.yaml -o $TMP/fd.pdf --figures-dir $TMP/figs -q --dpi 30
exit: 0
file: $TMP/fd.pdf
check: [ -z "$(ls -A $TMP/figs | grep -v '^fig[0-9]')" ]
check: [ $(stat -c %a $TMP/fd.pdf) = $(printf %o $((0666 & ~$(umask)))) ]
check: ls $TMP/figs/fig01-*.svg && ls $TMP/figs/fig01-*.png
