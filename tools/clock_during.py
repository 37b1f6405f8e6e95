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


def read_smi(path):
    """nvidia-smi --format=csv samples as (seconds of the day, SM MHz, throttle
    reasons); the columns are found by their headings, so any query that
    has timestamp, clocks.sm and clocks_throttle_reasons.active will do."""
    rows = list(csv.reader(open(path, errors="replace")))
    if not rows:
        return []
    head = [h.strip() for h in rows[0]]
    col = lambda *names: next(i for i, h in enumerate(head) if any(n in h for n in names))
    try:
        it, ic, ir = col("timestamp"), col("clocks.current.sm", "clocks.sm"), col("reasons")
    except StopIteration:
        return []
    out = []
    for row in rows[1:]:
        try:
            t = datetime.strptime(row[it].strip(), "%Y/%m/%d %H:%M:%S.%f")
            out.append((t.hour * 3600 + t.minute * 60 + t.second + t.microsecond / 1e6,
                        float(row[ic].split()[0]), int(row[ir].strip(), 16)))
        except (ValueError, IndexError):
            continue
    return out


def main():
    log, smi = sys.argv[1], sys.argv[2]
    prog = re.compile(r"^(\d\d:\d\d:\d\d(?:\.\d+)?) \[(\d+)/(\d+)\] (.*)$")
    steps = []
    for line in open(log, errors="replace"):
        m = prog.match(line.rstrip("\n"))
        if m:
            steps.append((secs(m.group(1)), int(m.group(2)), m.group(4)))
    samples = read_smi(smi)
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
