# two records of one config in one file get a note naming them
args: export tests/fixtures/results/duplicate-record.yaml --csv
exit: 0
stderr: has 1 record of a config an earlier record already has (first: records 2 and 4, variant 'FLASH_ATTENTION')
