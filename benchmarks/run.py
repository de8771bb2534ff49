"""Latency and throughput benchmarks: medians and ratios measured side by side in one run.

Explorers: for every explorer and every kind of change (small slider moves, jumps to
random slider values, mode switches), the time from a control change to new PNG bytes
(set from Python: synchronous, at full pixel density); for small moves also against the
same update done by recreating the figure from scratch; targets median <= 40 ms,
p95 <= 80 ms, ratio <= 0.5. Before a jump or a mode switch (a click, which follows idle
time) the explorer draws ahead what an idle kernel would (``Explorer.warm_up``), untimed. Explorers that answer a change by hand in parts (``LIVE``) are
also timed on the browser's path: a widget message, handled by a running event loop, to the
first new picture and to the completed one. ``benchmarks/browser.py`` measures the same in
a real browser.

Simulations: trials per second of each vectorised simulation against a per-trial
Python loop that calls scipy; target ratio >= 50.

Usage: ``python benchmarks/run.py [--repeats N] [--only NAME ...] [--kinds move jump mode]
[--density D]``
"""
from __future__ import annotations

import argparse
import asyncio
import statistics
import time

import ipywidgets as W
import numpy as np

from simulation_rows import SIMULATIONS


_SLIDERS = (W.IntSlider, W.FloatSlider, W.FloatLogSlider)
_MODES = (W.Dropdown, W.ToggleButtons, W.RadioButtons, W.Checkbox, W.ToggleButton)
_CHOICES = (W.Dropdown, W.ToggleButtons, W.RadioButtons)
#: Explorers that answer a change by hand differently from a value set in Python: a first
#: picture at once, completed while the hand rests. Their changes are also timed on the
#: browser's path (a widget message handled by a running event loop).
LIVE = ("ResamplingExplorer", "AlgorithmComparisonExplorer")
#: Seconds of idle kernel between two changes by hand on that path (a hand's pace: the
#: explorer's work while idle runs, as in a kernel).
PACE = 0.4
#: What a user does to a control: a small move (a drag), a jump to a random value (a
#: click on the track) or a mode switch (another option of a choice, a check box).
KINDS = ("move", "jump", "mode")


def _grid(control):
    if isinstance(control, W.FloatLogSlider):
        return control.base ** np.arange(control.min, control.max + 1e-9, control.step)
    return np.arange(control.min, control.max + control.step / 2, control.step)


def _cast(control, value):
    return int(round(value)) if isinstance(control, W.IntSlider) else round(float(value), 10)


def values_for(control, kind, count, rng):
    """``count`` values of ``kind`` for ``control`` (empty if the kind does not apply)."""
    if kind == "mode":
        if isinstance(control, (W.Checkbox, W.ToggleButton)):
            return [bool(i % 2 == 0) != control.value for i in range(count)]
        if not isinstance(control, _MODES):
            return []
        options = [o[1] if isinstance(o, tuple) else o for o in control.options]
        start = options.index(control.value)
        return [options[(start + 1 + i) % len(options)] for i in range(count)]
    if not isinstance(control, _SLIDERS):
        return []
    grid = _grid(control)
    if kind == "jump":
        return [_cast(control, grid[i]) for i in rng.integers(len(grid), size=count)]
    at = int(np.argmin(np.abs(grid - control.value)))  # small moves around the default
    lo, hi = max(at - 6, 0), min(at + 6, len(grid) - 1)
    return [_cast(control, grid[lo + (i % (hi - lo + 1))]) for i in range(count)] if hi > lo else []


def _percentile(values, q):
    return float(np.percentile(values, q))


def bench_explorer(cls, kind, repeats, rebuild=False):
    """Per-update times (ms) for one kind of change: total latency, the model's share and
    the view work (draw + render); with ``rebuild`` also the same view work on a
    recreated figure."""
    explorer = cls(seed=0)
    start = {name: control.value for name, control in explorer.controls.items()}
    rng = np.random.default_rng(0)
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
    for name, control in explorer.controls.items():
        for value in values_for(control, kind, repeats, rng):
            if value == control.value:
                continue
            if kind != "move":  # a click comes after idle time, in which a kernel draws ahead
                explorer.warm_up()
            model_time[0] = 0.0
            started = time.perf_counter()
            control.value = value
            elapsed = time.perf_counter() - started
            if explorer.error is not None:
                continue
            total.append(elapsed)
            model.append(model_time[0])
            view.append(elapsed - model_time[0])
            if rebuild:
                model_time[0] = 0.0
                started = time.perf_counter()
                explorer.rebuild()
                view_recreated.append(time.perf_counter() - started - model_time[0])
        explorer.set(**{name: start[name]})  # the next control starts from the default state
    explorer.close()  # freed: the next explorer runs in a kernel without this one's figures
    ms = lambda xs: [1000 * x for x in xs]  # noqa: E731
    return ms(total), ms(model), ms(view), ms(view_recreated)


def message(control, value):
    """The state a widget message from the browser carries to set ``value``."""
    if isinstance(control, _CHOICES):  # ipywidgets 8 syncs a choice by its index
        return {"index": [o[1] if isinstance(o, tuple) else o for o in control.options].index(value)}
    return {"value": value}


def _busy(explorer):
    """Whether a change from the browser is still being answered (rendered or refined)."""
    scheduler = getattr(explorer, "scheduler", None)
    if scheduler is None:  # before the scheduler (the base commit): its pending render
        return explorer._pending is not None
    return scheduler.state in ("coalescing", "refining")


def bench_live(cls, kind, repeats):
    """Per-change times (ms) on the browser's path: from a widget message to the first new
    picture and to the last one (the picture completed); ``PACE`` s of idle kernel between."""
    first, complete = [], []

    async def run():
        explorer = cls(seed=0)  # built on this loop: it draws here, as in a kernel
        start = {name: control.value for name, control in explorer.controls.items()}
        sent = []  # when each new picture went to the browser's widget (not when this loop looked)
        explorer._image.observe(lambda _: sent.append(time.perf_counter()), "value")
        rng = np.random.default_rng(0)
        for name, control in explorer.controls.items():
            for value in values_for(control, kind, repeats, rng):
                if value == control.value or name not in explorer.visible_controls():
                    continue
                sent.clear()
                started = time.perf_counter()
                control.set_state(message(control, value))
                while not sent and explorer.error is None:
                    await asyncio.sleep(0.0005)
                while _busy(explorer):
                    await asyncio.sleep(0.0005)
                if sent:
                    first.append(sent[0] - started)
                    complete.append(sent[-1] - started)
                await asyncio.sleep(PACE)
            explorer.set(**{name: start[name]})
        explorer.close()

    asyncio.run(run())
    return [1000 * x for x in first], [1000 * x for x in complete]


def run_live(repeats, only, kinds):
    from evalteach import widgets

    names = [name for name in LIVE if not only or name in only]
    if not names:
        return
    print(f"\nOn the browser's path (widget message -> picture, a running event loop, {PACE} s idle between\n"
          "changes): first = the first new picture, complete = the picture with every fit in.")
    print(f"{'explorer':30s} {'kind':5s} {'n':>4s} {'first':>8s} {'p95':>8s} {'complete':>9s} {'p95':>8s}")
    for name in names:
        for kind in kinds:
            first, complete = bench_live(getattr(widgets, name), kind, repeats)
            if not first:
                continue
            over = statistics.median(first) > 40 or _percentile(first, 95) > 80
            print(f"{name:30s} {kind:5s} {len(first):4d} {statistics.median(first):7.1f}ms "
                  f"{_percentile(first, 95):7.1f}ms {statistics.median(complete):8.1f}ms "
                  f"{_percentile(complete, 95):7.1f}ms{'  <- over target' if over else ''}", flush=True)


def run_explorers(repeats, only, kinds, recreate=True):
    from evalteach import widgets

    print("latency = control change -> new PNG (model + view); view = draw + render only;\n"
          "ratio = in-place view / recreated-figure view (small moves). Targets: median <= 40 ms, "
          "p95 <= 80 ms, ratio <= 0.5.")
    print(f"{'explorer':30s} {'kind':5s} {'n':>4s} {'median':>8s} {'p95':>8s} {'model':>8s} "
          f"{'view':>8s} {'recreate':>9s} {'ratio':>6s}")
    for name in widgets.EXPLORERS:
        if only and name not in only:
            continue
        for kind in kinds:
            total, model, view, recreated = bench_explorer(
                getattr(widgets, name), kind, repeats, rebuild=kind == "move" and recreate)
            if not total:
                continue
            med, p95 = statistics.median(total), _percentile(total, 95)
            view_med = statistics.median(view)
            over = med > 40 or p95 > 80
            flag = "  <- over target" if over else ""
            if over and name in LIVE:  # its controls answer on the browser's path, timed below
                flag = "  (set from Python: every fit; its controls: below)"
            rec = ratio = ""
            if recreated:
                rec_med = statistics.median(recreated)
                rec, ratio = f"{rec_med:7.1f}ms", f"{view_med / rec_med:6.2f}"
                if view_med / rec_med > 0.5:
                    flag = "  <- over target"
            print(f"{name:30s} {kind:5s} {len(total):4d} {med:7.1f}ms {p95:7.1f}ms "
                  f"{statistics.median(model):7.1f}ms {view_med:7.1f}ms {rec:>9s} {ratio:>6s}"
                  f"{flag}", flush=True)


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
    parser.add_argument("--skip-recreate", action="store_true",
                        help="do not time the recreated-figure updates (quicker)")
    parser.add_argument("--kinds", nargs="*", default=list(KINDS), choices=KINDS)
    parser.add_argument("--density", type=float, default=None,
                        help="image pixels per screen pixel (default: the theme's, 2)")
    args = parser.parse_args()
    if args.density is not None:
        from dataclasses import replace

        from evalteach import plotting
        plotting._current = replace(plotting.theme(), density=args.density)
    if not args.skip_explorers:
        run_explorers(args.repeats, set(args.only), args.kinds, recreate=not args.skip_recreate)
        run_live(args.repeats, set(args.only), args.kinds)
    if not args.skip_simulations:
        run_simulations(set(args.only))


if __name__ == "__main__":
    main()
