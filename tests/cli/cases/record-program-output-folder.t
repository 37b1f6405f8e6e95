# -o naming a folder is refused before the program starts (with --force it ran the whole program, then failed at save)
args: record -o $TMP --force -- sh -c 'echo the program ran'
exit: 2
stderr: it is a folder (name a file
not-stdout: the program ran
