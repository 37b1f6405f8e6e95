# --variant that matches no record is an error naming the variants the file has (it printed the header, exit 0)
args: export tests/fixtures/results-small.yaml --csv --variant nonesuch
exit: 2
stderr: no record of variant 'nonesuch' in 'tests/fixtures/results-small.yaml': its variants are standard, flash1, flash2,
not-stdout: source,variant
