# a 255-byte export name is written (the temporary name added .NAME.tmp.XXXXXX: "File name too long")
args: export tests/fixtures/results-small.yaml --csv -o $TMP/$(printf '%0251d' 0).csv
exit: 0
file: $TMP/$(printf '%0251d' 0).csv
