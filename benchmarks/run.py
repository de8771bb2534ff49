"""Latency and throughput benchmarks: medians and ratios measured side by side in one run.

Explorers: for every explorer, the time from a control change to new PNG bytes
(in place, the way a slider moves it), against the same update done by recreating
the figure from scratch; targets median <= 40 ms, p95 <= 80 ms, ratio <= 0.5.

Simulations: trials per second of each vectorised simulation against a per-trial
Python loop that calls scipy; target ratio >= 50.

Usage: ``python benchmarks/run.py [--repeats N] [--only NAME ...]``
"""
from __future__ import annotations

import argparse
import statistics
import time

import ipywidgets as W
import numpy as np

from simulation_rows import SIMULATIONS


def _cycle_values(control, count):
    """``count`` valid values for ``control`` that differ from step to step."""
    if isinstance(control, (W.Checkbox, W.ToggleButton)):
        return [bool(i % 2 == 0) != control.value for i in range(count)]
    if isinstance(control, (W.Dropdown, W.ToggleButtons, W.RadioButtons)):
        options = [o[1] if isinstance(o, tuple) else o for o in control.options]
        start = options.index(control.value)
        return [options[(start + 1 + i) % len(options)] for i in range(count)]
    if isinstance(control, W.FloatLogSlider):
        exps = np.arange(control.min, control.max + 1e-9, control.step)
        lo, hi = len(exps) // 3, max(len(exps) // 3 + 1, 2 * len(exps) // 3)
        return [float(control.base ** exps[lo + i % (hi - lo)]) for i in range(count)]
    if isinstance(control, (W.IntSlider, W.FloatSlider)):
        # Small moves around the default, as a dragged slider makes them.
        grid = np.arange(control.min, control.max + control.step / 2, control.step)
        at = int(np.argmin(np.abs(grid - control.value)))
        lo, hi = max(at - 6, 0), min(at + 6, len(grid) - 1)
        path = [grid[lo + (i % (hi - lo + 1))] for i in range(count)] if hi > lo else []
        cast = int if isinstance(control, W.IntSlider) else float
        return [cast(round(float(v), 10)) for v in path]
    return []


def _percentile(values, q):
    return float(np.percentile(values, q))


def bench_explorer(cls, repeats):
    """Per-update times (ms): total latency, the model's share, and the view work
    (draw + render) in place against the same view work on a recreated figure."""
    explorer = cls(seed=0)
    model_time = [0.0]
    compute = explorer._compute

    def timed_compute(state):
        started = time.perf_counter()
        try:
            return compute(state)
        finally:
            model_time[0] += time.perf_counter() - started

    explorer._compute = timed_compute
    total, model, view, view_recreated = [], [], [], []
    for control in explorer.controls.values():
        for value in _cycle_values(control, repeats):
            if value == control.value:
                continue
            model_time[0] = 0.0
            started = time.perf_counter()
            control.value = value
            elapsed = time.perf_counter() - started
            if explorer.error is not None:
                continue
            total.append(elapsed)
            model.append(model_time[0])
            view.append(elapsed - model_time[0])
            model_time[0] = 0.0
            started = time.perf_counter()
            explorer.rebuild()
            view_recreated.append(time.perf_counter() - started - model_time[0])
    ms = lambda xs: [1000 * x for x in xs]  # noqa: E731
    return ms(total), ms(model), ms(view), ms(view_recreated)


def run_explorers(repeats, only):
    from evalteach import widgets

    print("latency = control change -> new PNG (model + view); view = draw + render only;\n"
          "ratio = in-place view / recreated-figure view. Targets: median <= 40 ms, p95 <= 80 ms, "
          "ratio <= 0.5.")
    print(f"{'explorer':30s} {'n':>4s} {'median':>8s} {'p95':>8s} {'model':>8s} "
          f"{'view':>8s} {'recreate':>9s} {'ratio':>6s}")
    for name in widgets.EXPLORERS:
        if only and name not in only:
            continue
        total, model, view, recreated = bench_explorer(getattr(widgets, name), repeats)
        med, p95 = statistics.median(total), _percentile(total, 95)
        view_med, rec_med = statistics.median(view), statistics.median(recreated)
        ratio = view_med / rec_med
        flag = "" if med <= 40 and p95 <= 80 and ratio <= 0.5 else "  <- over target"
        print(f"{name:30s} {len(total):4d} {med:7.1f}ms {p95:7.1f}ms "
              f"{statistics.median(model):7.1f}ms {view_med:7.1f}ms {rec_med:8.1f}ms "
              f"{ratio:6.2f}{flag}", flush=True)


def run_simulations(only):
    print(f"\n{'simulation':30s} {'trials':>8s} {'vectorised':>14s} {'python loop':>14s} "
          f"{'ratio':>7s}  target: ratio>=50")
    for name, trials, vectorised, loop, loop_trials in SIMULATIONS:
        if only and name not in only:
            continue
        fast = min(_timed(vectorised) for _ in range(3))
        slow = min(_timed(loop) for _ in range(3))
        fast_rate, slow_rate = trials / fast, loop_trials / slow
        flag = "" if fast_rate >= 50 * slow_rate else "  <- under target"
        print(f"{name:30s} {trials:8d} {fast_rate:12.0f}/s {slow_rate:12.0f}/s "
              f"{fast_rate / slow_rate:7.0f}{flag}", flush=True)


def _timed(fn):
    started = time.perf_counter()
    fn()
    return time.perf_counter() - started


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=12, help="value changes per control")
    parser.add_argument("--only", nargs="*", default=[], help="explorer or simulation names")
    parser.add_argument("--skip-explorers", action="store_true")
    parser.add_argument("--skip-simulations", action="store_true")
    args = parser.parse_args()
    if not args.skip_explorers:
        run_explorers(args.repeats, set(args.only))
    if not args.skip_simulations:
        run_simulations(set(args.only))


if __name__ == "__main__":
    main()
