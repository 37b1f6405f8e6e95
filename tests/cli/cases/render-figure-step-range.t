# --step is a build step of the teaching figures, 1 to 5 (6 to 2^30 were accepted and drawn as 5)
needs: render
args: figure tiling tests/fixtures/results-small.yaml --step 6 -o $TMP/t.svg
exit: 2
stderr: --step must be a whole number from 1 to 5, not '6'
