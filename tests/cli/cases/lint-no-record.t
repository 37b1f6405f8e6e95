# a PDF without its layout record: exit 2, the record named, how to fix
args: lint tests/fixtures/no-such.pdf
exit: 2
stderr: no-such.layout
stderr: render
