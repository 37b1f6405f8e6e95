# HTML img targets are percent-encoded from a sanitised file name: every src is a file that exists, and the
# implementation's raw name (quotes, brackets, '#', '?', '%41') is only in the escaped alt and caption text
needs: render
setup: sed 's/variant: sdpa-math/variant: "x\\" onerror=\\"alert(1) #?%41"/; s/impl=sdpa-math/impl=x/' tests/fixtures/capture-small.yaml >$TMP/evilh.yaml; mkdir -p $TMP/hlinks
args: report $TMP/evilh.yaml -t templates/impl-review.yaml -o $TMP/hlinks/h#?.html -q
exit: 0
check: ! grep '<img ' $TMP/hlinks/h#?.html | grep -q ' onerror="'
check: (cd $TMP/hlinks && grep -o '<img src="[^"]*"' 'h#?.html' | sed 's/<img src="\(.*\)"/\1/' | python3 -c 'import sys, os, urllib.parse; ls=[l.strip() for l in sys.stdin]; assert ls and all(os.path.exists(urllib.parse.unquote(l)) and all(c.isalnum() or c in "-._~%/" for c in l) for l in ls), ls')
