# diff takes two files
args: diff tests/fixtures/shards/whole.yaml
exit: 2
stderr: diff compares two results files, BASE.yaml NEW.yaml
