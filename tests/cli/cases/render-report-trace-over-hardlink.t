# --trace-records naming a hard link to the template is refused (device and inode), the template kept
needs: render
setup: cp templates/review.yaml $TMP/tr-tpl.yaml; rm -f $TMP/tr-tpl-link.txt; ln $TMP/tr-tpl.yaml $TMP/tr-tpl-link.txt
args: report tests/fixtures/results-small.yaml -t $TMP/tr-tpl.yaml -o $TMP/tr-tpl.pdf -q --trace-records $TMP/tr-tpl-link.txt
exit: 2
stderr: it is the template this command reads
check: cmp templates/review.yaml $TMP/tr-tpl.yaml
