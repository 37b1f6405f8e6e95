# bad counts are refused before the program runs
args: record --max-calls many -o $TMP/x.yaml -- true
exit: 2
stderr: --max-calls 'many' must be a whole number
