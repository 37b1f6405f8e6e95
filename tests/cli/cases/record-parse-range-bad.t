# a range that breaks the grammar: what is wrong, and a suggestion
args: record --parse-range "attnprof: impl=x Nq=4 seq=9"
exit: 2
stderr: unknown key 'seq'
