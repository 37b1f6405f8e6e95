# no spec: say so and show the usage, exit 2
args: model
exit: 2
stderr: model needs a spec file
stderr: see 'attnprof model --help'
