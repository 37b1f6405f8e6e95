# --replay takes kernel or application, and says so before the program runs
args: record -o $TMP/x.yaml --replay sometimes -- true
exit: 2
stderr: --replay 'sometimes': use kernel
