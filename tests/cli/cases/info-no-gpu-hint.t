# with the GPU half but no GPU, info says where to look and what still works
needs: cuda-build no-gpu
args: info
exit: 3
stdout: none visible
stdout: only 'record' needs a GPU
