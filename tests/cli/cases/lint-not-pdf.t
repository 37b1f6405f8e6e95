# lint on a file that is not a PDF says so (it blamed a missing poppler-utils)
args: lint $TMP/junk.pdf
setup: printf 'not a pdf at all\n' >$TMP/junk.pdf; printf 'x\n' >$TMP/junk.layout
exit: 2
stderr: junk.pdf' is not a PDF (it does not start with %PDF-)
not-stderr: poppler
