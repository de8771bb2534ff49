"""Classroom capacity: how many students one JupyterHub server holds, for every lesson.

Starts a real JupyterHub on 127.0.0.1 (jupyterhub from PyPI, configurable-http-proxy
from npm, the local-process spawner and the dummy authenticator, test users only).

Every lesson: a student starts a server through the Hub, opens the lesson's kernel, runs the
whole lesson, then moves the sliders of the lesson's explorers the way the browser does (a
widget ``update`` message on the kernel's websocket), ``--moves`` times, with the idle time
between moves that a hand gives (what an explorer draws ahead then is part of a move's
cost). It prints per lesson: the kernel's memory (RSS, USS, peak) and the server's, the CPU
time of the lesson and per slider move, the time from a slider message to its picture, and
the class each allows: students who each move a slider once a second on the CPUs kept at
most 70% busy, and kernels in 80% of the memory. Then, per class size of ``--students``, that
many students at once run the lesson that allows the smallest class and move its sliders
once a second, for the latency a full class gets.

CPU time and memory hardly depend on what else the machine runs, so the capacity comes from
them; the latencies do. The last lines are the README's table and its capacity rule and
Helm advice, from this run.

Everything binds 127.0.0.1, every wait is bounded, and every process started is
stopped at the end (also on Ctrl-C).

Usage: ``python benchmarks/classroom.py [--lessons 01 08 ...] [--moves 30] [--students 5 10 20]
[--seconds 20] [--json results.json]`` (``make classroom`` installs what it needs and runs it).
"""
from __future__ import annotations

import argparse
import json
import math
import os
import secrets
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
import uuid
from pathlib import Path

import nbformat
import numpy as np
import psutil
import websocket

ROOT = Path(__file__).resolve().parents[1]
CHP = ROOT / "build" / "chp" / "node_modules" / ".bin" / "configurable-http-proxy"
#: Run in a lesson's kernel after the lesson: the explorers alive, each with its picture and
#: its visible sliders (name, model id, value, grid of values), as JSON (public names only).
PROBE = r"""
import gc as _gc, json as _json
import numpy as _np, ipywidgets as _W, evalteach.widgets as _ew

def _classroom_picture(widget):
    if isinstance(widget, _W.Image):
        return widget
    for child in getattr(widget, "children", ()):
        found = _classroom_picture(child)
        if found is not None:
            return found
    return None

def _classroom_grid(c):
    if isinstance(c, _W.IntSlider):
        values = range(c.min, c.max + 1, c.step)
    else:
        values = _np.round(_np.arange(c.min, c.max + c.step / 2, c.step), 10)
    return [v.item() if hasattr(v, "item") else v for v in values][:200]

_classroom = []
for _e in _gc.get_objects():
    if type(_e).__name__ in _ew.EXPLORERS and hasattr(_e, "controls"):
        _picture = _classroom_picture(_e.widget)
        _sliders = [(_name, _c.model_id, _c.value, _classroom_grid(_c))
                    for _name, _c in sorted(_e.visible_controls().items())
                    if type(_c) in (_W.IntSlider, _W.FloatSlider)]
        if _picture is not None and _sliders:
            _classroom.append([type(_e).__name__, _picture.model_id, _sliders])
print(_json.dumps(_classroom))
"""
#: Students each move a slider once a second in a class run; a hand rests this long between
#: moves in a lesson run (work an explorer does while idle runs then, and counts).
PACE, REST = 1.0, 0.3


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Hub:
    """A JupyterHub in a temporary folder, driven through its REST API with a service token."""

    def __init__(self, lessons, workdir):
        self.dir = Path(workdir)
        self.port, self.api_port, self.hub_port = free_port(), free_port(), free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.token = secrets.token_hex(16)
        self.lessons = lessons
        self.process = None

    def config(self):
        singleuser = Path(sys.executable).with_name("jupyterhub-singleuser")
        return f"""
c.JupyterHub.ip = "127.0.0.1"
c.JupyterHub.port = {self.port}
c.JupyterHub.hub_ip = "127.0.0.1"
c.JupyterHub.hub_port = {self.hub_port}
c.ConfigurableHTTPProxy.api_url = "http://127.0.0.1:{self.api_port}"
c.ConfigurableHTTPProxy.command = [{str(CHP)!r}]
c.JupyterHub.db_url = "sqlite:///{self.dir / 'hub.sqlite'}"
c.JupyterHub.cookie_secret_file = {str(self.dir / 'cookie_secret')!r}
c.JupyterHub.pid_file = {str(self.dir / 'hub.pid')!r}
c.JupyterHub.authenticator_class = "dummy"
c.Authenticator.allow_all = True
c.JupyterHub.spawner_class = "simple"
c.SimpleLocalProcessSpawner.home_dir_template = {str(self.dir / 'home' / '{username}')!r}
c.Spawner.cmd = [{str(singleuser)!r}]
c.Spawner.args = ["--allow-root", "--ServerApp.ip=127.0.0.1"]
c.Spawner.start_timeout = 120
c.Spawner.http_timeout = 120
c.JupyterHub.services = [{{"name": "classroom-benchmark", "api_token": {self.token!r}}}]
c.JupyterHub.load_roles = [{{"name": "classroom-benchmark",
    "scopes": ["admin:users", "admin:servers", "access:servers", "read:users"],
    "services": ["classroom-benchmark"]}}]
c.JupyterHub.cleanup_servers = True
"""

    def start(self):
        (self.dir / "jupyterhub_config.py").write_text(self.config())
        env = dict(os.environ, PATH=f"{CHP.parent}{os.pathsep}{os.environ['PATH']}")
        self.log = open(self.dir / "hub.log", "wb")  # noqa: SIM115 - closed in stop()
        self.process = subprocess.Popen(
            [Path(sys.executable).with_name("jupyterhub"), "-f", self.dir / "jupyterhub_config.py"],
            cwd=self.dir, env=env, stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True)
        self.wait(lambda: self.api("GET", "/hub/api/") is not None, 60, "the Hub to start")

    def api(self, method, path, body=None, timeout=30):
        request = urllib.request.Request(
            self.url + path, method=method, data=None if body is None else json.dumps(body).encode(),
            headers={"Authorization": f"token {self.token}", "Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                text = response.read()
                return json.loads(text) if text else {}
        except OSError:
            return None

    def wait(self, ready, seconds, what):
        deadline = time.monotonic() + seconds
        while not ready():
            if self.process.poll() is not None:
                raise RuntimeError(f"the Hub exited while waiting for {what}; see {self.dir / 'hub.log'}")
            if time.monotonic() > deadline:
                raise TimeoutError(f"gave up waiting for {what} after {seconds} s")
            time.sleep(0.5)

    def start_server(self, user):
        home = self.dir / "home" / user
        shutil.copytree(self.lessons, home, dirs_exist_ok=True,
                        ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
        self.api("POST", f"/hub/api/users/{user}")
        self.api("POST", f"/hub/api/users/{user}/server")

    def server_ready(self, user):
        info = self.api("GET", f"/hub/api/users/{user}")
        return bool(info and info.get("servers", {}).get("", {}).get("ready"))

    def stop_server(self, user):
        """Stop ``user``'s server and wait until the Hub reports it gone: the DELETE may
        answer 202 while the server is still shutting its kernels down."""
        self.api("DELETE", f"/hub/api/users/{user}/server", timeout=60)

        def gone():
            info = self.api("GET", f"/hub/api/users/{user}")
            return info is not None and not info.get("servers")

        self.wait(gone, 60, f"{user}'s server to stop")

    def processes(self):
        """Every process started for this Hub: its own family, and the servers and kernels
        that run in (or were given files from) its folder. A server that the Hub had to
        kill can leave its kernel behind, adopted by init and no longer the Hub's child."""
        found = {}
        if self.process is not None:
            try:
                hub = psutil.Process(self.process.pid)
                found.update((p.pid, p) for p in [hub, *hub.children(recursive=True)])
            except psutil.NoSuchProcess:
                pass
        folder = str(self.dir)
        for p in psutil.process_iter(["cwd", "cmdline"]):
            if (p.info["cwd"] or "").startswith(folder) or folder in " ".join(p.info["cmdline"] or []):
                found.setdefault(p.pid, p)
        found.pop(os.getpid(), None)
        return list(found.values())

    def stop(self):
        if self.process is None:
            return
        family = self.processes()
        try:
            os.killpg(self.process.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
        for p in family:
            try:
                p.terminate()
            except psutil.NoSuchProcess:
                pass
        _, alive = psutil.wait_procs(family, timeout=20)
        for p in alive:
            p.kill()
        psutil.wait_procs(alive, timeout=10)
        self.log.close()
        self.process = None


class Slider:
    """A slider of an explorer in a student's kernel: its model id, its picture's, its value and
    the values it takes, visited in a fixed scattered order."""

    def __init__(self, model_id, picture, value, grid):
        self.model_id, self.picture, self.value, self.grid = model_id, picture, value, grid
        self.moves = 0

    def next_value(self):
        self.moves += 1
        choices = [v for v in self.grid if v != self.value]
        return choices[(7 * self.moves) % len(choices)]


class Student:
    """One student's kernel, spoken to over the Hub's proxy exactly as a browser tab does."""

    def __init__(self, hub, user, lesson_name):
        self.hub, self.user = hub, user
        base = f"/user/{user}/api"
        session = hub.api("POST", f"{base}/sessions", {
            "path": lesson_name, "type": "notebook", "name": lesson_name, "kernel": {"name": "python3"}},
            timeout=120)
        if not session:
            raise RuntimeError(f"{user}: could not start a kernel")
        self.kernel_id = session["kernel"]["id"]
        self.ws = websocket.create_connection(
            f"ws://127.0.0.1:{hub.port}{base}/kernels/{self.kernel_id}/channels",
            header=[f"Authorization: token {hub.token}"], timeout=180)
        self.session = uuid.uuid4().hex
        self.latencies = []
        self.stderr = []

    def _send(self, channel, msg_type, content):
        msg_id = uuid.uuid4().hex
        self.ws.send(json.dumps({
            "header": {"msg_id": msg_id, "username": self.user, "session": self.session,
                       "msg_type": msg_type, "version": "5.3", "date": ""},
            "parent_header": {}, "metadata": {}, "content": content, "channel": channel,
            "buffers": []}))
        return msg_id

    def _until(self, match, seconds):
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            self.ws.settimeout(max(deadline - time.monotonic(), 0.1))
            try:
                frame = self.ws.recv()
            except websocket.WebSocketTimeoutException:
                break
            if isinstance(frame, bytes):  # binary frames carry widget buffers: the picture
                frame = self._json_of_binary(frame)
                if frame is None:
                    continue
            msg = json.loads(frame) if isinstance(frame, str) else frame
            found = match(msg)
            if found is not None:
                return found
        raise TimeoutError(f"{self.user}: no answer within {seconds} s")

    @staticmethod
    def _json_of_binary(frame):
        """The JSON part of a binary websocket frame (jupyter_server's buffer layout:
        big-endian part count, then the offset of each part; the JSON comes first)."""
        count = int.from_bytes(frame[:4], "big")
        offsets = [int.from_bytes(frame[4 + 4 * i: 8 + 4 * i], "big") for i in range(count)]
        end = offsets[1] if count >= 2 else len(frame)
        return frame[offsets[0]:end].decode()

    def execute(self, code, seconds=180):
        """Run ``code``; return (seconds, what it printed to stdout). What reached stderr (the
        code's or the kernel's own log, which ipykernel forwards) is kept in ``self.stderr``."""
        started = time.perf_counter()
        msg_id = self._send("shell", "execute_request", {
            "code": code, "silent": False, "store_history": False, "user_expressions": {},
            "allow_stdin": False, "stop_on_error": True})
        printed, seen = [], set()

        def done(msg):
            # Finished when both the reply (shell) and the idle status (iopub) are in:
            # the two channels share the websocket, in no fixed order.
            if msg.get("parent_header", {}).get("msg_id") != msg_id:
                return None
            kind = msg["msg_type"]
            if kind == "stream":
                (printed if msg["content"]["name"] == "stdout" else self.stderr).append(msg["content"]["text"])
            elif kind == "error":
                raise RuntimeError(f"{self.user}: {msg['content']['ename']}: {msg['content']['evalue']}")
            elif kind == "status" and msg["content"]["execution_state"] == "idle":
                seen.add("idle")
            elif kind == "execute_reply":
                seen.add("reply")
            return True if seen == {"idle", "reply"} else None

        self._until(done, seconds)
        return time.perf_counter() - started, "".join(printed)

    def run_lesson(self, path):
        started = time.perf_counter()
        for cell in nbformat.read(path, as_version=4).cells:
            if cell.cell_type == "code":
                self.execute(cell.source)
        return time.perf_counter() - started

    def find_sliders(self):
        """The sliders of the explorers alive in the kernel: a list of [slider, picture,
        values] (model ids and the grid of values); the explorers' names."""
        _, printed = self.execute(PROBE)
        explorers = json.loads(printed)
        self.sliders = [Slider(slider_id, picture, value, grid)
                        for _, picture, sliders in explorers for _, slider_id, value, grid in sliders]
        return [name for name, _, _ in explorers]

    def drain(self, quiet=REST):
        """Read whatever is still arriving (e.g. the sharp redraw that follows a quick draft
        picture) until nothing has come for ``quiet`` seconds, so it is not taken for the
        answer to the next move."""
        self.ws.settimeout(quiet)
        try:
            while True:
                self.ws.recv()
        except websocket.WebSocketTimeoutException:
            pass

    def move_slider(self, slider, seconds=30):
        """Send the update a browser sends for the next value of ``slider`` (never the value
        it has: an unchanged value sends no picture); seconds until its first new picture."""
        value = slider.next_value()
        self.drain()
        started = time.perf_counter()
        self._send("shell", "comm_msg", {"comm_id": slider.model_id, "data": {
            "method": "update", "state": {"value": value}, "buffer_paths": []}})

        def picture(msg):
            content = msg.get("content", {})
            if (msg.get("msg_type") == "comm_msg" and content.get("comm_id") == slider.picture
                    and content.get("data", {}).get("method") in ("update", "echo_update")):
                return True
            return None

        self._until(picture, seconds)
        self.latencies.append(time.perf_counter() - started)
        slider.value = value

    def close(self):
        """Close the websocket and shut the kernel down through the server, as closing a
        notebook's kernel does, before the server itself is stopped."""
        try:
            self.ws.close()
        except OSError:
            pass
        self.hub.api("DELETE", f"/user/{self.user}/api/kernels/{self.kernel_id}", timeout=60)


def kernel_processes(kernel_ids):
    """The kernel process of each kernel id (found by its connection file's name)."""
    found = {}
    for p in psutil.process_iter(["cmdline"]):
        cmd = " ".join(p.info["cmdline"] or [])
        for kid in kernel_ids:
            if kid in cmd and "ipykernel" in cmd:
                found[kid] = p
    return [found[kid] for kid in kernel_ids if kid in found]


def cpu_seconds(processes):
    """User + system CPU seconds each process has used so far."""
    return np.array([sum(p.cpu_times()[:2]) for p in processes])


def peak_mb(process):
    """The most the process ever held resident (VmHWM), in MB."""
    for line in Path(f"/proc/{process.pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def measure_lesson(hub, lesson, moves):
    """One student runs ``lesson`` and moves its explorers' sliders ``moves`` times in turn,
    resting ``REST`` s after each picture: the lesson's memory and CPU, and the class it allows."""
    user = f"lesson-{lesson.stem[:2]}"
    hub.start_server(user)
    hub.wait(lambda: hub.server_ready(user), 120, f"{user}'s server")
    student = Student(hub, user, lesson.name)
    try:
        (kernel,) = kernel_processes([student.kernel_id])
        server = kernel.parent()
        started = time.perf_counter()
        student.run_lesson(lesson)
        row = {"lesson": lesson.stem, "lesson_s": time.perf_counter() - started,
               "lesson_cpu_s": float(cpu_seconds([kernel])[0]), "explorers": student.find_sliders()}
        before, silent = cpu_seconds([kernel])[0], 0
        for move in range(moves if student.sliders else 0):
            try:  # each move waits for the rest before it (move_slider drains first)
                student.move_slider(student.sliders[move % len(student.sliders)], seconds=20)
            except TimeoutError:  # no new picture: counted, the moves go on
                silent += 1
        student.drain(REST)
        memory, server_memory = kernel.memory_full_info(), server.memory_full_info()
        row.update(moves=len(student.latencies), sliders=len(student.sliders), without_picture=silent,
                   move_cpu_ms=1000 * float(cpu_seconds([kernel])[0] - before) / max(len(student.latencies) + silent, 1),
                   p50_ms=1000 * float(np.percentile(student.latencies, 50)) if student.latencies else None,
                   p95_ms=1000 * float(np.percentile(student.latencies, 95)) if student.latencies else None,
                   rss_mb=memory.rss / 2**20, uss_mb=memory.uss / 2**20, peak_mb=peak_mb(kernel),
                   server_mb=server_memory.rss / 2**20)
    finally:
        student.close()
        hub.stop_server(user)
    return row


def run_class(hub, n, lesson, seconds):
    """``n`` students at once run ``lesson``, then each moves its sliders once a second for
    ``seconds``: latency under that load, with memory and CPU per student."""
    users = [f"student{n}-{i}" for i in range(n)]
    for user in users:
        hub.start_server(user)
    hub.wait(lambda: all(hub.server_ready(u) for u in users), 60 + 10 * n, f"{n} servers")
    students = [Student(hub, u, lesson.name) for u in users]
    lesson_times = [0.0] * n
    errors = []

    def run(i):
        try:
            lesson_times[i] = students[i].run_lesson(lesson)
            students[i].find_sliders()
            if not students[i].sliders:
                raise RuntimeError(f"{lesson.name} leaves no explorer with a slider to move")
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(f"{users[i]}: {exc}")

    threads = [threading.Thread(target=run, args=(i,), daemon=True) for i in range(n)]
    for t in threads:
        t.start()
    deadline = time.monotonic() + 120 + 60 * n  # one bound for the whole class
    for t in threads:
        t.join(timeout=max(deadline - time.monotonic(), 0.1))
    late = [users[i] for i, t in enumerate(threads) if t.is_alive()]
    if late:
        errors.append(f"still running the lesson when the class's time was up: {', '.join(late)}")
    if errors:
        raise RuntimeError("; ".join(errors))
    kernels = kernel_processes([s.kernel_id for s in students])
    lesson_cpu = cpu_seconds(kernels)

    # Every student moves a slider once a second, at staggered moments.
    stop = time.monotonic() + seconds
    psutil.cpu_percent(percpu=False)

    def move(i):
        time.sleep(i / n)
        step = 0
        while time.monotonic() < stop:
            tick = time.monotonic()
            try:
                students[i].move_slider(students[i].sliders[step % len(students[i].sliders)])
            except Exception as exc:  # noqa: BLE001 - reported below
                errors.append(f"{users[i]}: {exc}")
                return
            step += 1
            time.sleep(max(0.0, PACE - (time.monotonic() - tick)))

    threads = [threading.Thread(target=move, args=(i,), daemon=True) for i in range(n)]
    for t in threads:
        t.start()
    cpu = []
    while any(t.is_alive() for t in threads) and time.monotonic() < stop + 60:
        cpu.append(psutil.cpu_percent(interval=1.0))  # a last move ends within 30 s of stop
    for t in threads:
        t.join(timeout=1)
    move_cpu = cpu_seconds(kernels) - lesson_cpu
    memory = [p.memory_full_info() for p in kernels]
    latencies = [x for s in students for x in s.latencies]
    for s in students:
        s.close()
    for user in users:
        hub.stop_server(user)
    if errors:
        raise RuntimeError("; ".join(errors))
    return {
        "lesson": lesson.stem,
        "students": n,
        "lesson_s": statistics.median(lesson_times),
        "lesson_max_s": max(lesson_times),
        "rss_mb": statistics.median(m.rss / 2**20 for m in memory),
        "uss_mb": statistics.median(m.uss / 2**20 for m in memory),
        # CPU time does not depend on what else the machine runs: the capacity estimate uses it.
        "lesson_cpu_s": float(np.median(lesson_cpu)),
        "move_cpu_ms": 1000 * float(move_cpu.sum()) / max(sum(len(s.latencies) for s in students), 1),
        "p50_ms": 1000 * float(np.percentile(latencies, 50)),
        "p95_ms": 1000 * float(np.percentile(latencies, 95)),
        "moves": len(latencies),
        "cpu_pct": statistics.mean(cpu) if cpu else float("nan"),
    }


def allowed(row, cores, memory_gb, busy=0.7):
    """The class a lesson allows: students moving a slider once a second on ``cores`` kept at
    most ``busy``, and students (server and kernel) in 80% of ``memory_gb``."""
    by_cpu = int(busy * cores * 1000 / row["move_cpu_ms"]) if row.get("move_cpu_ms") else None
    by_memory = int(0.8 * memory_gb * 1024 / (row["rss_mb"] + row["server_mb"]))
    return by_cpu, by_memory, min(x for x in (by_cpu, by_memory) if x is not None)


LESSON_HEADER = (f"{'lesson':40s} {'run CPU':>8s} {'kernel RSS':>10s} {'USS':>7s} {'peak':>7s} {'server':>7s} "
                 f"{'CPU/move':>9s} {'p50':>7s} {'p95':>7s} {'moves':>5s} {'by CPU':>7s} {'by memory':>9s}  explorers")


def lesson_line(r, cores, memory_gb):
    by_cpu, by_memory, _ = allowed(r, cores, memory_gb)
    move = f"{r['move_cpu_ms']:6.0f} ms" if r["moves"] else f"{'-':>9s}"
    p50 = f"{r['p50_ms']:4.0f} ms" if r["moves"] else f"{'-':>7s}"
    p95 = f"{r['p95_ms']:4.0f} ms" if r["moves"] else f"{'-':>7s}"
    return (f"{r['lesson']:40s} {r['lesson_cpu_s']:6.1f} s {r['rss_mb']:7.0f} MB {r['uss_mb']:4.0f} MB "
            f"{r['peak_mb']:4.0f} MB {r['server_mb']:4.0f} MB {move} {p50} {p95} {r['moves']:5d} "
            f"{by_cpu if by_cpu is not None else '-':>7} {by_memory:>9}  {', '.join(sorted(set(r['explorers']))) or '-'}")


def summary(rows, classes, cores, memory_gb):
    """The README's classroom numbers from this run: the table, the capacity rule and Helm advice."""
    worst_memory = max(rows, key=lambda r: r["peak_mb"])
    moving = [r for r in rows if r["moves"]]
    worst_cpu = max(moving, key=lambda r: r["move_cpu_ms"])
    limiting = min(rows, key=lambda r: allowed(r, cores, memory_gb)[2])
    typical = sorted(rows, key=lambda r: r["rss_mb"])[len(rows) // 2]
    typical_cpu = sorted(moving, key=lambda r: r["move_cpu_ms"])[len(moving) // 2]
    server = statistics.median(r["server_mb"] for r in rows)
    lines = ["", "| lesson | kernel RSS (peak) | CPU per slider move | class it allows (CPU / memory) |",
             "|---|---|---|---|"]
    for label, r in (("typical (median kernel): " + r_name(typical), typical),
                     ("most memory: " + r_name(worst_memory), worst_memory),
                     ("most CPU per move: " + r_name(worst_cpu), worst_cpu),
                     ("smallest class: " + r_name(limiting), limiting)):
        by_cpu, by_memory, _ = allowed(r, cores, memory_gb)
        move = f"{r['move_cpu_ms']:.0f} ms" if r["moves"] else "-"
        lines.append(f"| {label} | {r['rss_mb']:.0f} MB ({r['peak_mb']:.0f} MB) | {move} | "
                     f"{by_cpu if by_cpu is not None else '-'} / {by_memory} |")
    if classes:
        lines += ["", "| students | lesson | lesson run (wall) | kernel RSS / USS | slider → picture, median / p95 "
                      "| CPU per slider move | CPUs busy |", "|---|---|---|---|---|---|---|"]
        lines += [f"| {c['students']} | {c['lesson'][:2]} | {c['lesson_s']:.1f} s | {c['rss_mb']:.0f} / "
                  f"{c['uss_mb']:.0f} MB | {c['p50_ms']:.0f} / {c['p95_ms']:.0f} ms | {c['move_cpu_ms']:.0f} ms | "
                  f"{c['cpu_pct']:.0f}% |" for c in classes]
    per_core = 0.7 * 1000 / worst_cpu["move_cpu_ms"]
    per_core_typical = 0.7 * 1000 / typical_cpu["move_cpu_ms"]
    student_gb = (worst_memory["rss_mb"] + server) / 1024
    typical_gb = (typical["rss_mb"] + server) / 1024
    guarantee = 50 * math.ceil((server + typical["rss_mb"]) / 50)
    limit = 100 * math.ceil((server + worst_memory["peak_mb"] + typical["rss_mb"]) / 100)
    lines += ["",
              f"Capacity rule: a server with C cores and M GB holds about {per_core:.0f}·C students who each move "
              f"a slider every second in the lesson costing most CPU per move ({r_name(worst_cpu)}, "
              f"{worst_cpu['move_cpu_ms']:.0f} ms), {per_core_typical:.0f}·C in a typical one "
              f"({typical_cpu['move_cpu_ms']:.0f} ms); and about {0.8 / student_gb:.1f}·M students (server "
              f"{server:.0f} MB and kernel) in the lesson holding most memory ({r_name(worst_memory)}, "
              f"{worst_memory['rss_mb']:.0f} MB), {0.8 / typical_gb:.1f}·M in a typical one "
              f"({typical['rss_mb']:.0f} MB). On this machine ({cores} cores, {memory_gb:.0f} GB) "
              f"{r_name(limiting)} sets the limit: {allowed(limiting, cores, memory_gb)[2]} students.",
              f"Helm: memory.guarantee {guarantee}M (server and a typical lesson's kernel), memory.limit "
              f"{limit}M (server, the heaviest lesson's peak and a second, typical kernel left open)."]
    return "\n".join(lines)


def r_name(row):
    return f"lesson {row['lesson'][:2]}"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lessons", nargs="*", default=[], help="lesson file prefixes, e.g. 01 08 (default: all)")
    parser.add_argument("--moves", type=int, default=30, help="slider moves per lesson")
    parser.add_argument("--students", type=int, nargs="*", default=[5, 10, 20],
                        help="class sizes to run at once on the lesson that allows the smallest class")
    parser.add_argument("--seconds", type=float, default=20.0,
                        help="how long the students move sliders, per class size")
    parser.add_argument("--json", type=Path, help="also write the measurements to this file")
    args = parser.parse_args(argv)
    if not CHP.exists():
        sys.exit(f"configurable-http-proxy is missing: run `make classroom` (it installs it into {CHP.parent})")
    # Stopped from outside (timeout, CI): unwind, so the Hub and every server are stopped.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit("stopped"))
    folder = ROOT / "lessons"
    lessons = [p for p in sorted(folder.glob("[0-9]*.ipynb"))
               if not args.lessons or any(p.name.startswith(prefix) for prefix in args.lessons)]
    cores, memory_gb = psutil.cpu_count(), psutil.virtual_memory().total / 2**30
    print(f"{cores} cores, {memory_gb:.0f} GiB; {len(lessons)} lessons, {args.moves} slider moves each "
          f"({REST} s rest between moves); classes allowed: CPUs at most 70% busy, 80% of memory")
    rows, classes = [], []
    with tempfile.TemporaryDirectory(prefix="evalteach-hub-") as tmp:
        hub = Hub(folder, tmp)
        try:
            hub.start()
            print(LESSON_HEADER)
            for lesson in lessons:
                rows.append(measure_lesson(hub, lesson, args.moves))
                print(lesson_line(rows[-1], cores, memory_gb), flush=True)
            with_sliders = [r for r in rows if r["moves"]]
            if with_sliders and args.students:
                target = min(with_sliders, key=lambda r: allowed(r, cores, memory_gb)[2])
                lesson = folder / f"{target['lesson']}.ipynb"
                print(f"\nclasses on {lesson.name}, every student moving a slider once a second for {args.seconds:g} s")
                for n in args.students:
                    c = run_class(hub, n, lesson, args.seconds)
                    print(f"{c['students']:>8} students: lesson {c['lesson_s']:.1f} s (CPU {c['lesson_cpu_s']:.1f} s), "
                          f"kernel {c['rss_mb']:.0f} MB, slider {c['p50_ms']:.0f} / {c['p95_ms']:.0f} ms, "
                          f"CPU/move {c['move_cpu_ms']:.0f} ms, {c['moves']} moves, CPUs {c['cpu_pct']:.0f}% busy",
                          flush=True)
                    classes.append(c)
        finally:
            hub.stop()
    if args.json:
        args.json.write_text(json.dumps({"cores": cores, "memory_gb": memory_gb, "lessons": rows,
                                         "classes": classes}, indent=1))
    print("kernel RSS counts shared libraries in every kernel; USS is what each kernel adds.")
    if any(r["moves"] for r in rows):
        print(summary(rows, classes, cores, memory_gb))


if __name__ == "__main__":
    main()
