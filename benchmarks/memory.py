"""Kernel memory per lesson and per explorer, beside a bare kernel's, in one run.

A shared server (JupyterHub, Binder) holds as many students as their kernels' memory
allows, and a kernel over its limit is killed in the middle of a lecture. This prints,
for every ``lessons/[0-9]*.ipynb``, the resident memory (RSS) of a fresh kernel

* ``bare``: after importing what every lesson kernel holds anyway (numpy, scipy.stats,
  matplotlib, ipywidgets and the scikit-learn learners the lessons use), measured once;
* ``lesson``: after running the lesson top to bottom;
* ``explorers``: after moving the controls of every explorer the lesson made
  (``--changes`` random changes each, with what an idle kernel draws ahead in between);
* ``rerun``: after then running the lesson ``--reruns`` more times, cell by cell, each run
  naming its cell as JupyterLab does (a cell run again closes the explorers it showed);
* ``peak``: the most the kernel ever held (the kernel's high-water mark, ``VmHWM``);

with each one's ratio to the bare kernel (ratios carry from machine to machine, megabytes
do not). With ``--explorers`` it also opens each explorer alone in a bare kernel and
drives it: memory after opening it, after a first visit to every option of every choice
(each mode), and after ``--explorer-changes`` random changes; ``growth`` is the last minus
the one before, what caches that are not bounded add.

Garbage is collected before each reading. Each change is its own request to the kernel,
followed by ``--pause`` seconds of idle kernel (work an explorer does while idle runs then).
Every kernel is shut down at the end (also on Ctrl-C).

Usage: ``python benchmarks/memory.py [--lessons 01 08 ...] [--changes 40] [--reruns 3] [--explorers]
[--only AlgorithmComparisonExplorer ...] [--explorer-changes 150] [--json out.json]``
"""
from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import sys
import time
from collections import Counter
from contextlib import contextmanager
from pathlib import Path

import nbformat
import psutil
from jupyter_client.manager import start_new_kernel

ROOT = Path(__file__).resolve().parents[1]
#: What every lesson kernel holds before evalteach does anything: the bare kernel.
BARE = """\
import numpy, scipy.stats, matplotlib, matplotlib.pyplot, ipywidgets
import sklearn.dummy, sklearn.linear_model, sklearn.naive_bayes, sklearn.neighbors, sklearn.pipeline
import sklearn.preprocessing, sklearn.tree, sklearn.datasets, sklearn.model_selection
"""
#: Defined in a lesson's kernel after it ran: finds the explorers alive and moves their controls
#: as a student would (public names only: ``evalteach.widgets.EXPLORERS``, ``visible_controls``,
#: ``warm_up``).
DRIVER = r'''
def _memory_benchmark_setup(seed):
    import gc, numpy, ipywidgets, evalteach.widgets
    global _mb_explorers, _mb_rng
    names = set(evalteach.widgets.EXPLORERS)
    _mb_explorers = [o for o in gc.get_objects() if type(o).__name__ in names and hasattr(o, "controls")]
    _mb_rng = numpy.random.default_rng(seed)
    return [type(e).__name__ for e in _mb_explorers]


def _memory_benchmark_values(control):
    import numpy as np, ipywidgets as W
    if isinstance(control, (W.Checkbox, W.ToggleButton)):
        return [not control.value]
    if isinstance(control, (W.Dropdown, W.ToggleButtons, W.RadioButtons, W.Select)):
        return [o[1] if isinstance(o, tuple) else o for o in control.options]
    if isinstance(control, W.FloatLogSlider):
        grid = control.base ** np.arange(control.min, control.max + 1e-9, control.step)
        return [round(float(x), 10) for x in grid]
    if isinstance(control, W.IntSlider):
        return list(range(control.min, control.max + 1, control.step))
    if isinstance(control, W.FloatSlider):
        return [round(float(x), 10) for x in np.arange(control.min, control.max + control.step / 2, control.step)]
    return []  # text boxes, range sliders: not moved


def _memory_benchmark_change(index):
    """One random change of a visible control of explorer ``index``; what an idle kernel
    draws ahead follows (warm_up)."""
    explorer = _mb_explorers[index]
    visible = explorer.visible_controls() if hasattr(explorer, "visible_controls") else explorer.controls
    movable = [(name, [v for v in _memory_benchmark_values(c) if v != c.value]) for name, c in sorted(visible.items())]
    movable = [(name, values) for name, values in movable if values]
    if not movable:
        return
    name, values = movable[_mb_rng.integers(len(movable))]
    explorer.controls[name].value = values[_mb_rng.integers(len(values))]
    if hasattr(explorer, "warm_up"):
        explorer.warm_up()


def _memory_benchmark_modes(index):
    """Visit every option of every choice control of explorer ``index`` once, then go back."""
    import ipywidgets as W
    explorer = _mb_explorers[index]
    for name, control in explorer.controls.items():
        if not isinstance(control, (W.Checkbox, W.ToggleButton, W.Dropdown, W.ToggleButtons, W.RadioButtons, W.Select)):
            continue
        start = control.value
        for value in _memory_benchmark_values(control):
            if value != control.value:
                control.value = value
                if hasattr(explorer, "warm_up"):
                    explorer.warm_up()
        control.value = start
'''


class Kernel:
    """A fresh python3 kernel whose ``evalteach`` is the one in ``root``."""

    def __init__(self, root, cwd):
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(root), os.environ.get("PYTHONPATH")])))
        self.manager, self.client = start_new_kernel(kernel_name="python3", cwd=str(cwd), env=env,
                                                     startup_timeout=120)
        self.process = psutil.Process(int(self.run("import os; print(os.getpid())").strip()))

    def run(self, code, timeout=600, cell=None):
        """Run ``code``, as the notebook cell with id ``cell`` if given (JupyterLab names the
        cell in each request); return what it printed. Raises RuntimeError on an error."""
        content = {"code": code, "silent": False, "store_history": True, "user_expressions": {},
                   "allow_stdin": False, "stop_on_error": True}
        request = self.client.session.msg("execute_request", content, metadata={"cellId": cell} if cell else {})
        self.client.shell_channel.send(request)
        mine = request["header"]["msg_id"]
        printed, failed, deadline = [], [], time.monotonic() + timeout
        while True:
            msg = self.client.get_iopub_msg(timeout=max(deadline - time.monotonic(), 0.1))
            if msg["parent_header"].get("msg_id") != mine:
                continue
            kind, body = msg["msg_type"], msg["content"]
            if kind == "stream":
                printed.append(body["text"])
            elif kind == "error":
                failed.append(f"{body['ename']}: {body['evalue']}")
            elif kind == "status" and body["execution_state"] == "idle":
                break
        while self.client.get_shell_msg(timeout=max(deadline - time.monotonic(), 0.1))["parent_header"].get(
                "msg_id") != mine:
            pass
        if failed:
            raise RuntimeError("; ".join(failed))
        return "".join(printed)

    def rss_mb(self):
        """Resident memory after a garbage collection, in MB."""
        self.run("import gc; gc.collect()")
        return self.process.memory_info().rss / 2**20

    def peak_mb(self):
        """The most the kernel process ever held resident (VmHWM), in MB."""
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
        return float("nan")

    def close(self):
        try:
            self.client.stop_channels()
        finally:
            self.manager.shutdown_kernel(now=True)


def lessons(root, selected):
    paths = sorted((root / "lessons").glob("[0-9]*.ipynb"))
    if selected:
        paths = [p for p in paths if any(p.name.startswith(s) for s in selected)]
    return paths


def bare_kernel(root):
    kernel = Kernel(root, root)
    try:
        kernel.run(BARE)
        return kernel.rss_mb()
    finally:
        kernel.close()


def drive(kernel, count, seed, pause, modes=False):
    """Move every explorer alive in ``kernel``; returns their names (and the memory after
    the first visit to every mode, when ``modes``)."""
    kernel.run(DRIVER)
    names = json.loads(kernel.run(f"import json; print(json.dumps(_memory_benchmark_setup({seed})))"))
    after_modes = None
    if modes:
        for i in range(len(names)):
            kernel.run(f"_memory_benchmark_modes({i})")
        after_modes = kernel.rss_mb()
    for i in range(len(names)):
        for _ in range(count):
            kernel.run(f"_memory_benchmark_change({i})")
            time.sleep(pause)
    return names, after_modes


@contextmanager
def fresh_kernel(root, cwd, row):
    """A new kernel, shut down afterwards; an error inside is noted in ``row`` and the run goes on."""
    kernel = Kernel(root, cwd)
    try:
        yield kernel
    except Exception as exc:  # noqa: BLE001 - reported in the table
        row["error"] = str(exc)[:200]
    finally:
        kernel.close()


def measure_lesson(root, path, changes, pause, reruns):
    row = {"lesson": path.stem}
    with fresh_kernel(root, path.parent, row) as kernel:
        cells = [cell for cell in nbformat.read(path, as_version=4).cells if cell.cell_type == "code"]
        started = time.perf_counter()
        for cell in cells:
            kernel.run(cell.source, cell=cell.get("id"))
        row["run_s"] = time.perf_counter() - started
        row["lesson_mb"] = kernel.rss_mb()
        row["explorers"], _ = drive(kernel, changes, seed=0, pause=pause)
        row["explorers_mb"] = kernel.rss_mb()
        kernel.run("del _mb_explorers")  # the driver's hold: a student's kernel has none
        for _ in range(reruns):  # a student running the whole lesson again, cell by cell
            for cell in cells:
                kernel.run(cell.source, cell=cell.get("id"))
        row["rerun_mb"] = kernel.rss_mb()
        row["peak_mb"] = kernel.peak_mb()
    return row


def measure_explorer(root, name, changes, pause):
    row = {"explorer": name}
    with fresh_kernel(root, root, row) as kernel:
        kernel.run(BARE)
        row["bare_mb"] = kernel.rss_mb()
        kernel.run(f"import evalteach as et\n_explorer = et.{name}(seed=0)")
        row["open_mb"] = kernel.rss_mb()
        _, row["modes_mb"] = drive(kernel, changes, seed=0, pause=pause, modes=True)
        row["end_mb"] = kernel.rss_mb()
        row["peak_mb"] = kernel.peak_mb()
    return row


def _counted(names):
    """'SamplingErrorExplorer x3, CLTExplorer' for a list of names."""
    counts = Counter(names)
    return ", ".join(f"{name} x{k}" if k > 1 else name for name, k in counts.items()) or "-"


def explorer_names(root):
    sys.path.insert(0, str(root))
    from evalteach.widgets import EXPLORERS

    return list(EXPLORERS)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout to measure (its lessons and evalteach)")
    parser.add_argument("--lessons", nargs="*", default=[], help="lesson file prefixes, e.g. 01 08 (default: all)")
    parser.add_argument("--changes", type=int, default=40, help="random control changes per explorer of a lesson")
    parser.add_argument("--pause", type=float, default=0.05, help="seconds of idle kernel after each change")
    parser.add_argument("--reruns", type=int, default=3, help="times each lesson is then run again, cell by cell")
    parser.add_argument("--explorers", action="store_true", help="also drive each explorer alone")
    parser.add_argument("--only", nargs="*", default=[], help="explorer names for --explorers (default: all)")
    parser.add_argument("--skip-lessons", action="store_true")
    parser.add_argument("--explorer-changes", type=int, default=150)
    parser.add_argument("--json", type=Path, help="also write the measurements to this file")
    args = parser.parse_args(argv)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit("stopped"))
    root = args.root.resolve()
    results = {"bare_mb": bare_kernel(root), "lessons": [], "explorers": []}
    bare = results["bare_mb"]
    print(f"{psutil.cpu_count()} cores, {psutil.virtual_memory().total / 2**30:.0f} GiB; {root}")
    print(f"bare kernel (numpy, scipy.stats, matplotlib, ipywidgets, scikit-learn learners): {bare:.0f} MB RSS")
    if not args.skip_lessons:
        print(f"\n{'lesson':40s} {'run':>6s} {'lesson':>13s} {'explorers':>13s} {'rerun':>13s} {'peak':>13s}  "
              f"explorers moved ({args.changes} changes each); rerun: after running it {args.reruns} more times")
        for path in lessons(root, args.lessons):
            row = measure_lesson(root, path, args.changes, args.pause, args.reruns)
            results["lessons"].append(row)
            if "error" in row:
                print(f"{row['lesson']:40s} FAILED: {row['error']}", flush=True)
                continue
            cells = " ".join(f"{row[k]:5.0f} MB {row[k] / bare:4.2f}x" for k in ("lesson_mb", "explorers_mb", "rerun_mb", "peak_mb"))
            print(f"{row['lesson']:40s} {row['run_s']:5.1f}s {cells}  {_counted(row['explorers'])}", flush=True)
        done = [r for r in results["lessons"] if "error" not in r]
        if done:
            worst = max(done, key=lambda r: r["explorers_mb"])
            typical = statistics.median(r["explorers_mb"] for r in done)
            over = [r["lesson"] for r in done if max(r["explorers_mb"], r["rerun_mb"]) > 300]
            print(f"worst: {worst['lesson']} {worst['explorers_mb']:.0f} MB ({worst['explorers_mb'] / bare:.2f}x); "
                  f"median lesson {typical:.0f} MB ({typical / bare:.2f}x); over 300 MB: {', '.join(over) or 'none'}")
    if args.explorers:
        print(f"\n{'explorer':32s} {'opened':>8s} {'modes':>8s} {'end':>8s} {'growth':>8s} {'peak':>8s}  "
              f"(MB added to a bare kernel; end after {args.explorer_changes} random changes)")
        for name in explorer_names(root):
            if args.only and name not in args.only:
                continue
            row = measure_explorer(root, name, args.explorer_changes, args.pause)
            results["explorers"].append(row)
            if "error" in row:
                print(f"{name:32s} FAILED: {row['error']}", flush=True)
                continue
            b = row["bare_mb"]
            print(f"{name:32s} {row['open_mb'] - b:6.0f}MB {row['modes_mb'] - b:6.0f}MB {row['end_mb'] - b:6.0f}MB "
                  f"{row['end_mb'] - row['modes_mb']:+6.0f}MB {row['peak_mb'] - b:6.0f}MB", flush=True)
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
