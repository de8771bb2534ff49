"""The classroom benchmark on a real JupyterHub: one student runs a lesson and moves a
slider through the Hub's proxy, and every process the Hub started is gone afterwards."""
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

psutil = pytest.importorskip("psutil")
pytest.importorskip("jupyterhub")

ROOT = Path(__file__).resolve().parents[1]
CHP = "build/chp/node_modules/.bin/configurable-http-proxy"

# One worker: the Hub and its proxy (installed into build/chp by make).
pytestmark = pytest.mark.notebooks


@pytest.fixture(scope="module")
def proxy():
    """configurable-http-proxy from npm, installed the way `make classroom` does."""
    if not (ROOT / CHP).exists():
        if shutil.which("npm") is None:
            pytest.skip("npm is not installed: the Hub's proxy cannot be installed")
        subprocess.run(["make", "-s", CHP], cwd=ROOT, check=True, timeout=300)
    return ROOT / CHP


def processes_under(folder):
    """Processes whose working folder is inside ``folder`` (the Hub, servers and kernels)."""
    found = []
    for p in psutil.process_iter(["cwd", "cmdline"]):
        cwd = p.info["cwd"] or ""
        if cwd.startswith(str(folder)) or str(folder) in " ".join(p.info["cmdline"] or []):
            found.append(p)
    return found


def test_one_student_runs_a_lesson_and_moves_a_slider_then_everything_stops(proxy, tmp_path):
    hub_dir = tmp_path / "tmp"
    hub_dir.mkdir()
    results = tmp_path / "results.json"
    run = subprocess.run(
        [sys.executable, "benchmarks/classroom.py", "--students", "1", "--seconds", "3",
         "--json", str(results)],
        cwd=ROOT, env=dict(os.environ, TMPDIR=str(hub_dir)), capture_output=True, text=True,
        timeout=600)
    assert run.returncode == 0, run.stdout + run.stderr
    (row,) = json.loads(results.read_text())
    assert row["students"] == 1 and row["moves"] >= 2
    assert 0 < row["p50_ms"] <= row["p95_ms"] < 30_000  # every move got its picture
    assert row["lesson_s"] > 0 and row["lesson_cpu_s"] > 0 and row["move_cpu_ms"] > 0
    assert 100 < row["rss_mb"] < 2000  # a lesson kernel, measured
    assert "capacity:" in run.stdout
    left = processes_under(hub_dir)
    assert not left, f"processes the Hub started are still running: {[p.info for p in left]}"
