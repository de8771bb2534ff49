"""The classroom benchmark on a real JupyterHub: one student runs a lesson and moves its
explorers' sliders through the Hub's proxy, and every process the Hub started is gone afterwards."""
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


def test_one_student_runs_a_lesson_and_moves_its_sliders_then_everything_stops(proxy, tmp_path):
    """Lesson 1 measured alone, then a class of one on it: the per-lesson row, the class row,
    the README's capacity rule and Helm advice printed, and no process left behind."""
    hub_dir = tmp_path / "tmp"
    hub_dir.mkdir()
    results = tmp_path / "results.json"
    run = subprocess.run(
        [sys.executable, "benchmarks/classroom.py", "--lessons", "01", "--moves", "4", "--students", "1",
         "--seconds", "3", "--json", str(results)],
        cwd=ROOT, env=dict(os.environ, TMPDIR=str(hub_dir)), capture_output=True, text=True,
        timeout=900)
    assert run.returncode == 0, run.stdout + run.stderr
    measured = json.loads(results.read_text())
    (lesson,) = measured["lessons"]
    assert lesson["lesson"] == "01_sample_error" and "SamplingErrorExplorer" in lesson["explorers"]
    assert lesson["moves"] + lesson["without_picture"] == 4 and lesson["moves"] >= 3
    assert 0 < lesson["p50_ms"] <= lesson["p95_ms"] < 20_000  # the moves got their pictures
    assert lesson["lesson_cpu_s"] > 0 and lesson["move_cpu_ms"] > 0
    assert 100 < lesson["rss_mb"] <= lesson["peak_mb"] < 4000 and 20 < lesson["server_mb"] < 1000
    (row,) = measured["classes"]
    assert row["students"] == 1 and row["lesson"] == "01_sample_error" and row["moves"] >= 2
    assert 0 < row["p50_ms"] <= row["p95_ms"] < 30_000
    assert "Capacity rule:" in run.stdout and "memory.guarantee" in run.stdout and "memory.limit" in run.stdout
    left = processes_under(hub_dir)
    assert not left, f"processes the Hub started are still running: {[p.info for p in left]}"
