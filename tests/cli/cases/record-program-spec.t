# a spec and a program contradict each other
args: record experiments/smoke.yaml -o $TMP/x.yaml -- python3 x.py
exit: 2
stderr: with a program to run, record takes no spec
