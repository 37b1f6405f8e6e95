# lint on a FIFO named .pdf is refused at once (it waited for a writer forever)
args: lint $TMP/fifo.pdf
setup: rm -f $TMP/fifo.pdf; mkfifo $TMP/fifo.pdf
exit: 2
stderr: the PDF '
stderr: fifo.pdf' is a pipe (FIFO), not a regular file
