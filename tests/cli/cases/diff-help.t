# diff --help
args: diff --help
exit: 0
stdout: usage: attnprof diff BASE.yaml NEW.yaml
stdout: --fail-above PCT
