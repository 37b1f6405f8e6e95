# tools/review-inputs.sh — sourced by tools/render-all.sh and
# tools/readme-results.sh: the review's inputs, held once, so the README
# quotes the records the review draws (the same files, repeats and counters).
# Sets: files (experiments/results/{fa2-paper,decode,ablation}.yaml in the
# order recorded, then every other top-level results file), repeats
# (--repeat per file of experiments/results/repeats/), counters (--counters
# for the workload and stalls records, never drawn) and primary (--primary
# fa2-paper.yaml when it is among the files).
files=""
for f in fa2-paper decode ablation; do
	[ -e "experiments/results/$f.yaml" ] && files="$files experiments/results/$f.yaml"
done
for f in experiments/results/*.yaml; do
	[ -e "$f" ] || continue
	case "$f" in */fa2-paper.yaml|*/decode.yaml|*/ablation.yaml) ;; *) files="$files $f" ;; esac
done
repeats=""
for f in experiments/results/repeats/*.yaml; do
	[ -e "$f" ] && repeats="$repeats --repeat $f"
done
counters=""
for f in experiments/results/workload/workload.yaml experiments/results/workload/stalls.yaml; do
	[ -e "$f" ] && counters="$counters --counters $f"
done
primary=""
case "$files" in *experiments/results/fa2-paper.yaml*) primary="--primary experiments/results/fa2-paper.yaml" ;; esac
