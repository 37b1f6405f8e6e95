# a bad --gpu-sms value is named, exit 2
args: model tests/fixtures/specs/model/point.yaml --gpu-sms 0
exit: 2
stderr: --gpu-sms '0' is not a positive whole number
