# an unknown metric set, named
args: record --metrics lots -o $TMP/x.yaml -- true
exit: 2
stderr: unknown metric set 'lots'
