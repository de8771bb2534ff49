"""Explorer latency of two checkouts side by side, in one run (before and after a change).

For each explorer and kind of change, ``benchmarks/run.py`` runs once per checkout in a
fresh interpreter, the two alternating, so both see the same machine load; the table gives
each median and p95 and the ratio after / before of the medians (what carries from machine
to machine). Targets as in ``run.py``: median <= 40 ms, p95 <= 80 ms.

Usage: ``python benchmarks/compare.py BEFORE AFTER [--only NAME ...] [--kinds move jump mode]
[--repeats N]``, where BEFORE and AFTER are checkouts of this project (a clean checkout of
the base commit in a temporary folder, say, and this one). Explorers that answer a change by
hand in parts (``run.py``'s ``LIVE``) also get rows "(by hand)": the first picture on the
browser's path.
"""
from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from pathlib import Path

RUN = Path(__file__).with_name("run.py")
ROW = re.compile(r"^(\w+Explorer)\s+(move|jump|mode)\s+(\d+)\s+([\d.]+)ms\s+([\d.]+)ms")


def medians(tree, name, kinds, repeats):
    """{kind: (n, median, p95)} of ``run.py --only name`` with ``tree`` first on the path."""
    env = dict(os.environ, PYTHONPATH=str(Path(tree).resolve()))
    out = subprocess.run([sys.executable, str(RUN), "--only", name, "--skip-simulations", "--skip-recreate",
                          "--repeats", str(repeats), "--kinds", *kinds], env=env, capture_output=True, text=True)
    if out.returncode:
        raise RuntimeError(f"{name} in {tree} failed:\n{out.stderr[-2000:]}")
    rows, live = {}, ""
    for line in out.stdout.splitlines():
        if line.startswith("On the browser's path"):  # run.py's second table: first pictures by hand
            live = " (by hand)"
        match = ROW.match(line)
        if match and match.group(1) == name:
            rows[match.group(2) + live] = (int(match.group(3)), float(match.group(4)), float(match.group(5)))
    return rows


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before")
    parser.add_argument("after")
    parser.add_argument("--only", nargs="*", default=[])
    parser.add_argument("--kinds", nargs="*", default=["move", "jump", "mode"])
    parser.add_argument("--repeats", type=int, default=12)
    args = parser.parse_args(argv)
    from evalteach import widgets

    print(f"{'explorer':30s} {'kind':14s} {'before':>8s} {'p95':>8s} {'after':>8s} {'p95':>8s} {'ratio':>6s}")
    for name in widgets.EXPLORERS:
        if args.only and name not in args.only:
            continue
        before = medians(args.before, name, args.kinds, args.repeats)
        after = medians(args.after, name, args.kinds, args.repeats)
        for kind in [*args.kinds, *(f"{kind} (by hand)" for kind in args.kinds)]:
            if kind in before and kind in after:
                (_, b, b95), (_, a, a95) = before[kind], after[kind]
                flag = "  <- over target" if a > 40 or a95 > 80 else ""
                print(f"{name:30s} {kind:14s} {b:7.1f}ms {b95:7.1f}ms {a:7.1f}ms {a95:7.1f}ms {a / b:6.2f}{flag}",
                      flush=True)


if __name__ == "__main__":
    main()
