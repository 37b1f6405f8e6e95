# nothing after --
args: record -o $TMP/x.yaml --
exit: 2
stderr: nothing to run after
