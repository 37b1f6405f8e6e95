# --version names the build
args: --version
exit: 0
stdout: attnprof 0.1.0
