"""Classroom capacity: how many students one JupyterHub server holds.

Starts a real JupyterHub on 127.0.0.1 (jupyterhub from PyPI, configurable-http-proxy
from npm, the local-process spawner and the dummy authenticator, test users only).
For each class size N, N simulated students each start their server through the Hub,
open a lesson kernel, run the whole lesson, then move an explorer's slider once a
second the way the browser does (a widget ``update`` message on the kernel's
websocket). It prints, per N: kernel memory per student, the median and p95 time from
a slider message to the new picture's message, how long the lesson took to run, and
how busy the CPUs were (the resource that limits the class).

Everything binds 127.0.0.1, every wait is bounded, and every process started is
stopped at the end (also on Ctrl-C).

Usage: ``python benchmarks/classroom.py [--students 5 10 20] [--seconds 20]
[--lesson lessons/01_sample_error.ipynb] [--json results.json]`` (``make classroom`` installs what it needs).
"""
from __future__ import annotations

import argparse
import json
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
#: The explorer each student moves, and the slider; its model id is asked of the kernel.
PROBE = ("import evalteach as et\n"
         "_probe = et.SamplingErrorExplorer(seed=0)\n"
         "print(_probe.controls['n'].model_id, _probe._image.model_id, _probe.controls['n'].value)")
SLIDER_VALUES = (40, 60, 80, 100, 120, 140, 160, 180)


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
        """Run ``code``; return (seconds, printed text)."""
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
                printed.append(msg["content"]["text"])
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

    def open_probe(self):
        _, printed = self.execute(PROBE)
        self.slider, self.image, value = printed.split()
        self.value = int(value)

    def next_value(self, step):
        """The slider value for move ``step``: never the value it has now, because setting
        an unchanged value sends no picture (and would be waited for in vain)."""
        choices = [v for v in SLIDER_VALUES if v != self.value]
        return choices[step % len(choices)]

    def drain(self, quiet=0.3):
        """Read whatever is still arriving (e.g. the sharp redraw that follows a quick draft
        picture) until nothing has come for ``quiet`` seconds, so it is not taken for the
        answer to the next move."""
        self.ws.settimeout(quiet)
        try:
            while True:
                self.ws.recv()
        except websocket.WebSocketTimeoutException:
            pass

    def move_slider(self, value, seconds=30):
        """Send the slider update a browser sends; seconds until the first new picture arrives."""
        if value == self.value:
            raise ValueError(f"value={value!r} is the slider's value already: no picture would come")
        self.drain()
        started = time.perf_counter()
        self._send("shell", "comm_msg", {"comm_id": self.slider, "data": {
            "method": "update", "state": {"value": value}, "buffer_paths": []}})

        def picture(msg):
            content = msg.get("content", {})
            if (msg.get("msg_type") == "comm_msg" and content.get("comm_id") == self.image
                    and content.get("data", {}).get("method") in ("update", "echo_update")):
                return True
            return None

        self._until(picture, seconds)
        self.latencies.append(time.perf_counter() - started)
        self.value = value

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


def run_class(hub, n, lesson, seconds):
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
            students[i].open_probe()
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(f"{users[i]}: {exc}")

    threads = [threading.Thread(target=run, args=(i,), daemon=True) for i in range(n)]
    for t in threads:
        t.start()
    deadline = time.monotonic() + 120 + 30 * n  # one bound for the whole class
    for t in threads:
        t.join(timeout=max(deadline - time.monotonic(), 0.1))
    late = [users[i] for i, t in enumerate(threads) if t.is_alive()]
    if late:
        errors.append(f"still running the lesson when the class's time was up: {', '.join(late)}")
    if errors:
        raise RuntimeError("; ".join(errors))
    kernels = kernel_processes([s.kernel_id for s in students])
    lesson_cpu = cpu_seconds(kernels)

    # Every student moves the slider once a second, at staggered moments.
    stop = time.monotonic() + seconds
    psutil.cpu_percent(percpu=False)

    def move(i):
        time.sleep(i / n)
        step = 0
        while time.monotonic() < stop:
            tick = time.monotonic()
            step += 1
            try:
                students[i].move_slider(students[i].next_value(i + step))
            except Exception as exc:  # noqa: BLE001 - reported below
                errors.append(f"{users[i]}: {exc}")
                return
            time.sleep(max(0.0, 1.0 - (time.monotonic() - tick)))

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


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, nargs="+", default=[5, 10, 20])
    parser.add_argument("--seconds", type=float, default=20.0,
                        help="how long the students move sliders, per class size")
    parser.add_argument("--lesson", type=Path, default=ROOT / "lessons" / "01_sample_error.ipynb")
    parser.add_argument("--json", type=Path, help="also write the measurements to this file")
    args = parser.parse_args(argv)
    if not CHP.exists():
        sys.exit(f"configurable-http-proxy is missing: run `make classroom` (it installs it into {CHP.parent})")
    # Stopped from outside (timeout, CI): unwind, so the Hub and every server are stopped.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit("stopped"))
    lesson = args.lesson.resolve()
    print(f"{psutil.cpu_count()} cores, {psutil.virtual_memory().total / 2**30:.0f} GiB; "
          f"lesson {lesson.name}; sliders moved once a second for {args.seconds:g} s per class size")
    print(f"{'students':>8} {'lesson run':>11} {'lesson CPU':>11} {'kernel RSS':>11} {'kernel USS':>11} "
          f"{'slider p50':>11} {'slider p95':>11} {'CPU/move':>9} {'moves':>6} {'CPU busy':>9}")
    with tempfile.TemporaryDirectory(prefix="evalteach-hub-") as tmp:
        hub = Hub(lesson.parent, tmp)
        results = []
        try:
            hub.start()
            for n in args.students:
                r = run_class(hub, n, lesson, args.seconds)
                print(f"{r['students']:>8} {r['lesson_s']:>9.1f} s {r['lesson_cpu_s']:>9.1f} s "
                      f"{r['rss_mb']:>8.0f} MB {r['uss_mb']:>8.0f} MB {r['p50_ms']:>8.0f} ms "
                      f"{r['p95_ms']:>8.0f} ms {r['move_cpu_ms']:>6.0f} ms {r['moves']:>6} "
                      f"{r['cpu_pct']:>8.0f}%", flush=True)
                results.append(r)
        finally:
            hub.stop()
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))
    print("kernel RSS counts shared libraries in every kernel; USS is what each kernel adds.")
    print(capacity(results))


def capacity(results, cores=None, memory_gb=None, busy=0.7):
    """What the measurements say a server holds, from CPU time and memory (which do not
    depend on other load), keeping the CPUs at most ``busy`` so that slider replies stay quick."""
    cores = cores or psutil.cpu_count()
    memory_gb = memory_gb or psutil.virtual_memory().total / 2**30
    move_ms = max(r["move_cpu_ms"] for r in results)
    rss_gb = max(r["rss_mb"] for r in results) / 1024
    by_cpu = int(busy * cores * 1000 / move_ms)  # each student moves a slider once a second
    by_memory = int(0.8 * memory_gb / rss_gb)
    limit = "CPU" if by_cpu < by_memory else "memory"
    return (f"capacity: {move_ms:.0f} CPU-ms per slider move and {1024 * rss_gb:.0f} MB per kernel -> "
            f"{cores} cores at {busy:.0%} hold about {by_cpu} students moving a slider every second; "
            f"{memory_gb:.0f} GB (80% usable) holds {by_memory} kernels; {limit} limits first")


if __name__ == "__main__":
    main()
