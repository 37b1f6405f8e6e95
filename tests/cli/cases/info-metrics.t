# info --metrics lists a set's CUPTI names, one per line, without a GPU
args: info --metrics default
exit: 0
stdout: # default: 12 metrics
stdout: dram__bytes_write.sum
stdout: sm__warps_active.avg.pct_of_peak_sustained_active
