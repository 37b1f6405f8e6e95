# export --json: an array of objects
args: export tests/fixtures/results-export.yaml --json --variant flash2
exit: 0
stdout: "variant": "flash2"
stdout: "dram__bytes_read.sum": 206000000
not-stderr: error
