"""How much memory an explorer keeps as its controls move (issue 25's goal: an explorer driven
through 150 random control changes ends within 30 MB of where it started after its first
visit to each mode).

Each explorer runs in a fresh interpreter: it is opened (seed 0), every option of each choice
control and each state of each check box is visited once (its modes), and the process's
resident memory is read; then 150 random control changes follow (a seeded random control,
set to a random valid value, with the work an idle kernel does between clicks drawn ahead
where the explorer offers it), and the memory is read again. Memory is read after a garbage
collection and after glibc returns freed memory to the system (``malloc_trim``), so it
counts what the explorer keeps, not what the allocator holds on to.

Usage: ``python benchmarks/explorer_memory.py [--changes N] [--only NAME ...]``. Run it with
``PYTHONPATH`` set to another checkout to measure that one (before and after a change).
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile

#: Changes after the first visit to each mode (issue 25).
CHANGES = 150
#: Megabytes an explorer may grow by over them (issue 25).
GOAL_MB = 30

_CHILD = r"""
import ctypes, gc, json, sys, time
import numpy as np
import ipywidgets as W

def rss_mb():
    gc.collect()
    try:
        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except OSError:  # not glibc: the allocator keeps what it keeps
        pass
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * 4096 / 2**20

def options(control):
    return [o[1] if isinstance(o, tuple) and len(o) == 2 else o for o in control.options]

def random_value(control, rng):
    if isinstance(control, (W.Checkbox, W.ToggleButton)):
        return not control.value
    if isinstance(control, (W.Dropdown, W.ToggleButtons, W.RadioButtons, W.Select)):
        others = [o for o in options(control) if o != control.value]
        return others[rng.integers(len(others))] if others else None
    if isinstance(control, W.FloatLogSlider):
        exps = np.arange(control.min, control.max + 1e-9, control.step)
        return float(control.base ** exps[rng.integers(len(exps))])
    if isinstance(control, (W.IntSlider, W.FloatSlider)):
        grid = np.arange(control.min, control.max + control.step / 2, control.step)
        value = round(float(grid[rng.integers(len(grid))]), 10)
        return int(value) if isinstance(control, W.IntSlider) else value
    return None

name, changes = sys.argv[1], int(sys.argv[2])
from evalteach import widgets
cls = getattr(widgets, name)  # its module and what it imports
start_rss = rss_mb()
explorer = cls(seed=0)
warm = getattr(explorer, "warm_up", lambda: None)
opened = rss_mb()
start = {n: c.value for n, c in explorer.controls.items()}
for n, control in explorer.controls.items():   # the first visit to each mode
    if isinstance(control, (W.Checkbox, W.ToggleButton)):
        explorer.set(**{n: not control.value})
        warm()
    elif isinstance(control, (W.Dropdown, W.ToggleButtons, W.RadioButtons, W.Select)):
        for value in options(control):
            explorer.set(**{n: value})
            warm()
    explorer.set(**start)
visited = rss_mb()
rng = np.random.default_rng(2025)
names = list(explorer.controls)
started = time.process_time()
for _ in range(changes):
    n = names[rng.integers(len(names))]
    value = random_value(explorer.controls[n], rng)
    if value is not None:
        explorer.controls[n].value = value
        warm()
cpu = time.process_time() - started
print(json.dumps({"import": start_rss, "opened": opened, "visited": visited, "after": rss_mb(),
                  "cpu": cpu}))
"""


def measure(name, changes):
    # run outside any checkout: ``python -c`` puts the working directory first on the path,
    # ahead of PYTHONPATH, and the checkout there would be measured instead of the one asked for
    out = subprocess.run([sys.executable, "-c", _CHILD, name, str(changes)], capture_output=True,
                         text=True, cwd=tempfile.gettempdir())
    if out.returncode:
        raise RuntimeError(f"{name} failed:\n{out.stderr[-2000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--changes", type=int, default=CHANGES)
    parser.add_argument("--only", nargs="*", default=[])
    args = parser.parse_args(argv)
    from evalteach import widgets

    print(f"Resident memory (MB) of one explorer in a fresh interpreter; growth = after {args.changes} "
          f"random changes - after the first visit to each mode (goal: <= {GOAL_MB} MB).")
    print(f"{'explorer':30s} {'opened':>8s} {'modes':>8s} {'after':>8s} {'growth':>8s} {'cpu/change':>11s}")
    for name in widgets.EXPLORERS:
        if args.only and name not in args.only:
            continue
        m = measure(name, args.changes)
        growth = m["after"] - m["visited"]
        flag = "  <- over goal" if growth > GOAL_MB else ""
        print(f"{name:30s} {m['opened'] - m['import']:7.0f}M {m['visited'] - m['import']:7.0f}M "
              f"{m['after'] - m['import']:7.0f}M {growth:7.1f}M {1000 * m['cpu'] / args.changes:9.1f}ms{flag}",
              flush=True)
    print("(opened, modes, after: above the interpreter with the explorer's module imported)")


if __name__ == "__main__":
    main()
