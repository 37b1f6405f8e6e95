# --sms beyond any GPU is refused before it sizes anything
args: check experiments/smoke.yaml --sms 2147483647
exit: 2
stderr: --sms '2147483647' is not a whole number from 1 to 1024
