# a layout whose style line names no style was read, and that style's rules (the patent sheet's,
# say) silently did not run, exit 0 (issue 48 item 11): refused at its line, with the styles named
setup: cp reports/h200/review.pdf $TMP/st.pdf && sed 's/^style color$/style neon/' reports/h200/review.layout >$TMP/st.layout
args: lint $TMP/st.pdf
exit: 2
stderr: st.layout:3: unknown style 'neon' (one of color, print, patent, slides)
