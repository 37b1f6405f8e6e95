#!/usr/bin/env python3
"""tools/clock_during.py RESULTS [SMI_CSV] — the SM clock each timed config
ran at: every record of RESULTS whose probed clock (timing.sm_clock_mhz_min,
kernels/clock.cu: measured just before each timed launch) fell below
CLOCK_OK MHz, with its median clock and how long it settled, then a count.
With SMI_CSV (nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,
temperature.gpu,clocks_throttle_reasons.active --format=csv sampling) also
the share of samples below CLOCK_OK and with a throttle reason other than
idle.  (It once joined the samples to `--progress` lines by their time
stamps; with counters on those lines come per profiled batch, so the join
blamed a batch's last config for the whole batch — the probe replaced it.)"""
import csv
import sys
from datetime import datetime

CLOCK_OK = 1900  # the H200 held 1980 MHz in 98 % of the 17:28 diagnosis's samples
IDLE = 0x1       # nvidia-smi's "GPU idle" reason


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
    import yaml
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    records = (yaml.safe_load(open(sys.argv[1])) or {}).get("records") or []
    probed = flagged = 0
    for k, r in enumerate(records):
        t = r.get("timing") or {}
        if not t.get("sm_clock_mhz_min"):
            continue
        probed += 1
        if t["sm_clock_mhz_min"] < CLOCK_OK:
            flagged += 1
            print("[%d] %s %s %s N=%s d=%s%s: %.3f ms, SM clock median %.0f, lowest %.0f MHz, settled %.0f ms" % (
                k + 1, r.get("variant"), r.get("pass", "fwd"), r.get("dtype"), r.get("seqlen_q"), r.get("head_dim"),
                " causal" if r.get("causal") else "", t.get("time_ms", 0), t["sm_clock_mhz"], t["sm_clock_mhz_min"],
                t.get("settle_ms", 0)))
    print("clock_during: %d of %d probed records had a timed launch below %d MHz" % (flagged, probed, CLOCK_OK))
    if len(sys.argv) > 2:
        samples = read_smi(sys.argv[2])
        if samples:
            low = sum(s[1] < CLOCK_OK for s in samples)
            capped = sum(bool(s[2] & ~IDLE) for s in samples)
            print("clock_during: nvidia-smi: %d of %d samples below %d MHz, %d with a throttle reason" % (
                low, len(samples), CLOCK_OK, capped))


if __name__ == "__main__":
    main()
