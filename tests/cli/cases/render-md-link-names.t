# Markdown and HTML link targets come from a sanitised file name, percent-encoded: an implementation named
# 'x) [click](javascript:alert(1)) #?%41\|' and an output named 'r#?%41.md' give links that stay links to
# files that exist, the alt text (the figure's caption and numbers) before them (the raw name ended the image link and started a live one; '#', '?', '%41' changed the URL)
needs: render
setup: sed 's/variant: sdpa-math/variant: "x) [click](javascript:alert(1)) #?%41\\\\|"/; s/impl=sdpa-math/impl=x/' tests/fixtures/capture-small.yaml >$TMP/evil.yaml; mkdir -p $TMP/links
args: report $TMP/evil.yaml -t templates/impl-review.yaml -o $TMP/links/r#?%41.md -q
exit: 0
check: grep -q 'javascript' $TMP/links/r#?%41.md
check: ! grep '^!\[Figure' $TMP/links/r#?%41.md | sed 's/.*](\([^()]*\))$/\1/' | grep -vqE '^[A-Za-z0-9._~%-]+/[A-Za-z0-9._~%-]+$'
check: (cd $TMP/links && grep '^!\[Figure ' 'r#?%41.md' | sed 's/.*](\([^()]*\))$/\1/' | python3 -c 'import sys, os, urllib.parse; ls=[l.strip() for l in sys.stdin]; assert ls and all(os.path.exists(urllib.parse.unquote(l)) for l in ls), ls')
check: grep -q 'r%23%3F%2541_files/' $TMP/links/r#?%41.md
