#!/usr/bin/env python3
"""tools/clock_during.py LOG SMI_CSV — the SM clock while each config of a
sweep ran: LOG holds `attnprof record --progress` lines with a time stamp in
front ("HH:MM:SS.mmm [i/n] ..."), as tools/gpu-run.sh's fa2 step writes
them; SMI_CSV is nvidia-smi's --query-gpu=timestamp,clocks.sm,power.draw,
temperature.gpu,clocks_throttle_reasons.active --format=csv sampling.
Config i ran between the stamps of progress lines i-1 and i.  Prints every
config whose lowest sampled SM clock is below CLOCK_OK MHz or whose samples
carry a throttle reason other than idle, then a count."""
import csv
import re
import sys
from datetime import datetime

CLOCK_OK = 1900  # the H200 held 1980 MHz in 98 % of the 17:28 diagnosis's samples
IDLE = 0x1       # nvidia-smi's "GPU idle" reason


def secs(hms):
    h, m, s = hms.split(":")
    return int(h) * 3600 + int(m) * 60 + float(s)


def main():
    log, smi = sys.argv[1], sys.argv[2]
    prog = re.compile(r"^(\d\d:\d\d:\d\d(?:\.\d+)?) \[(\d+)/(\d+)\] (.*)$")
    steps = []
    for line in open(log, errors="replace"):
        m = prog.match(line.rstrip("\n"))
        if m:
            steps.append((secs(m.group(1)), int(m.group(2)), m.group(4)))
    samples = []
    for row in list(csv.reader(open(smi, errors="replace")))[1:]:
        if len(row) < 5:
            continue
        try:
            t = datetime.strptime(row[0].strip(), "%Y/%m/%d %H:%M:%S.%f")
            clk = float(row[1].split()[0])
            why = int(row[4].strip(), 16)
        except ValueError:
            continue
        samples.append((t.hour * 3600 + t.minute * 60 + t.second + t.microsecond / 1e6, clk, why, row[2].strip()))
    if not steps or not samples:
        sys.exit("clock_during: no time-stamped progress lines or no nvidia-smi samples to join")
    flagged = 0
    for k, (t1, i, what) in enumerate(steps):
        t0 = steps[k - 1][0] if k else t1 - 1.0
        during = [s for s in samples if t0 < s[0] <= t1]
        if not during:
            continue
        low = min(s[1] for s in during)
        reasons = sorted({s[2] for s in during if s[2] & ~IDLE})
        if low < CLOCK_OK or reasons:
            flagged += 1
            print("[%d] %s: SM clock %d-%d MHz over %d samples%s" % (
                i, what[:90], low, max(s[1] for s in during), len(during),
                ", reasons " + " ".join("0x%x" % r for r in reasons) if reasons else ""))
    print("clock_during: %d of %d configs ran below %d MHz or throttled" % (flagged, len(steps), CLOCK_OK))


if __name__ == "__main__":
    main()
