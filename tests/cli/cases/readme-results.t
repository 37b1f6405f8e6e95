# README.md's headline numbers are the documents' own (tools/readme-results.sh
# quotes them through templates/readme.yaml): a README edited by hand, or
# results re-recorded without `make report`, fail here
needs: render
args: --version
exit: 0
check: ATTNPROF=$bin sh tools/readme-results.sh --check
