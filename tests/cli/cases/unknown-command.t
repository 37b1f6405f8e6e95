# a typo gets a suggestion
args: chek experiments/smoke.yaml
exit: 2
stderr: unknown command 'chek': did you mean 'check'?
