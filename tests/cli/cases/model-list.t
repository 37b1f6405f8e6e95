# --list names every quantity with its unit
args: model --list
exit: 0
stdout: model.hbm_bytes_min
stdout: model.idle_sms_last_wave
stdout: model.time_roofline_ms       ms
