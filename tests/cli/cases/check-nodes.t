# past the node limit the message gives the place of the node (it was read after the node was freed)
args: check tests/fixtures/specs/bad/nodes.yaml
exit: 2
stderr: nodes.yaml:7:199988: more than 100000 YAML nodes
