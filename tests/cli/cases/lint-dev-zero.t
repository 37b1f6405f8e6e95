# lint on a link to /dev/zero named .pdf is refused (it read zeros without end)
args: lint $TMP/zero.pdf
setup: rm -f $TMP/zero.pdf; ln -s /dev/zero $TMP/zero.pdf
exit: 2
stderr: zero.pdf' is a device, not a regular file
