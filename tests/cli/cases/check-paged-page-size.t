# decode-paged: a page size the kernel is not built for is refused at its line and column
args: check tests/fixtures/specs/bad/paged-page-size.yaml
exit: 2
stderr: paged-page-size.yaml:9:16: page size 24 is not built: decode-paged takes 16, 32, 64 and 128
