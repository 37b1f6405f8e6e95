# --kernel-regex that does not compile is refused before the program starts (without --shape the program ran
# and the library ignored the pattern)
args: record -o $TMP/x.yaml --kernel-regex '(' -- sh -c 'echo the program ran'
exit: 2
stderr: --kernel-regex '(' is not a valid extended regular expression
not-stdout: the program ran
