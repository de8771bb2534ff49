"""How long `import evalteach` takes against numpy, matplotlib and ipywidgets together.

Each import runs in a fresh interpreter, alternating, and the medians are compared
(target: ratio <= 1.25). In JupyterLite every second of import is felt by the student.

Usage: ``python benchmarks/import_time.py [--repeats N]``
"""
from __future__ import annotations

import argparse
import statistics
import subprocess
import sys

TIMED = "import time; t = time.perf_counter(); {}; print(time.perf_counter() - t)"
BASELINE = "import numpy, matplotlib, ipywidgets"
EVALTEACH = "import evalteach"


def seconds(statement):
    out = subprocess.run([sys.executable, "-c", TIMED.format(statement)], capture_output=True,
                         text=True, check=True)
    return float(out.stdout)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args(argv)
    base, ours = [], []
    for _ in range(args.repeats):
        base.append(seconds(BASELINE))
        ours.append(seconds(EVALTEACH))
    b, o = statistics.median(base), statistics.median(ours)
    flag = "" if o / b <= 1.25 else "  <- over target"
    print(f"import time (median of {args.repeats}, fresh interpreters): "
          f"numpy+matplotlib+ipywidgets {1000 * b:.0f} ms, evalteach {1000 * o:.0f} ms, "
          f"ratio {o / b:.2f} (target <= 1.25){flag}")


if __name__ == "__main__":
    main()
