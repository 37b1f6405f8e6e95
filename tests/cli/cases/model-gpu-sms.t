# --gpu-sms changes the launch geometry (columns after footprint_bytes:
# blocks, blocks_per_sm, waves, idle_sms_last_wave): flash1's 64 blocks
# (one per head, 1 per SM) leave 2 of 66 SMs idle; flash2's 2048 blocks on
# 66 × 2 = 132 slots take 16 waves.  Footprints: flash1 Q K V O 256 MiB +
# O_acc 128 MiB + m, ℓ 2 MiB = 404750336 B; flash2 257 MiB = 269484032 B
args: model tests/fixtures/specs/model/point.yaml --csv --gpu-sms 66
exit: 0
stdout: source,variant,phase,dtype,batch
stdout: ,404750336,64,1,1,2,
stdout: ,269484032,2048,2,16,0,
