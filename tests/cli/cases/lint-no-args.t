# lint with no file: exit 2 and what to give
args: lint
exit: 2
stderr: no PDF given
