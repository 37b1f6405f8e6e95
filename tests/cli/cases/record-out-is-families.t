# record -o naming its --families file (here a hard link to it) ran the whole program and only
# then refused the save, the capture lost (issue 48 item 11): refused before the program runs,
# the families file unchanged
needs: cuda-build
setup: printf -- '- pattern: "myattn"\n  family: mine\n  role: fused\n  what: my kernel\n' >$TMP/fam.yaml && cp $TMP/fam.yaml $TMP/fam.bak && ln -f $TMP/fam.yaml $TMP/famlink.yaml && rm -f $TMP/ran
args: record --force --families $TMP/fam.yaml -o $TMP/famlink.yaml -- touch $TMP/ran
exit: 2
stderr: is the families file this command read
check: cmp $TMP/fam.yaml $TMP/fam.bak
check: test ! -e $TMP/ran
