"""Shared fixtures: the lesson list, a JupyterLab server and a headless Chromium.

The delivery tests (browser, Binder, JupyterLite, static HTML) are parametrised over
every lesson in ``lessons/``, so a new lesson is covered without touching them.
``EVALTEACH_LESSONS=DIR`` points them at another folder of notebooks (for debugging).
"""
from __future__ import annotations

import fcntl
import gc
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
import weakref
from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import settings

# The same examples on every run and in every worker: the suite is deterministic.
settings.register_profile("deterministic", derandomize=True, database=None)
settings.load_profile("deterministic")

ROOT = Path(__file__).resolve().parents[1]
LESSONS_DIR = Path(os.environ.get("EVALTEACH_LESSONS", ROOT / "lessons")).resolve()
#: The start page lists the lessons; it is a page to read, not a lesson.
START_PAGE = LESSONS_DIR / "00_start_here.ipynb"
LESSONS = sorted(p for p in LESSONS_DIR.glob("*.ipynb") if p != START_PAGE)
ARTIFACTS = ROOT / "test-artifacts"

CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]

#: Settings for the test server's JupyterLab: no news or update checks (there is no
#: network), and every cell kept in the page so off-screen explorers render too.
LAB_SETTINGS = {
    "@jupyterlab/apputils-extension/notification.jupyterlab-settings":
        {"fetchNews": "false", "checkForUpdates": False},
    "@jupyterlab/notebook-extension/tracker.jupyterlab-settings": {"windowingMode": "none"},
}


def lesson_params():
    """``pytest.param`` per lesson, with the file name as the test id."""
    return [pytest.param(path, id=path.stem) for path in LESSONS]


#: Shown first in the kernel: every warning once per place, so none is hidden by the defaults.
SHOW_WARNINGS = "import warnings\nwarnings.simplefilter('default')"


@pytest.fixture(scope="session")
def run_folder(tmp_path_factory):
    """A folder that every pytest-xdist worker of this run shares (each worker's own temporary
    folder lies inside it), for work done once per run whichever worker asks first."""
    own = tmp_path_factory.getbasetemp()
    return own.parent if os.environ.get("PYTEST_XDIST_WORKER") else own


@contextmanager
def exclusive(lock_file):
    """Hold an exclusive lock on ``lock_file`` (made if missing) across the run's processes."""
    with open(lock_file, "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


@pytest.fixture(scope="session")
def executed_lesson(run_folder):
    """``executed_lesson(path)`` -> ``(notebook, seconds)``: the lesson run top to bottom in a
    fresh kernel, once per run.

    It runs as `make html` runs it (``store_widget_state=False``: each explorer shows its
    own PNG), after a first cell that shows every warning. The lesson test and the handout
    test read the same run instead of running every lesson twice: the first test to ask,
    in whichever worker, runs the lesson and stores the notebook in the run's shared folder.
    """
    import nbformat
    from nbclient import NotebookClient

    folder = run_folder / "executed-lessons"
    folder.mkdir(exist_ok=True)
    read = {}

    def execute(path):
        if path not in read:
            stored = folder / path.name
            with exclusive(stored.with_suffix(".lock")):
                if not stored.exists():
                    nb = nbformat.read(path, as_version=4)
                    nb.cells.insert(0, nbformat.v4.new_code_cell(SHOW_WARNINGS))
                    client = NotebookClient(nb, timeout=300, kernel_name="python3", allow_errors=True,
                                            store_widget_state=False,
                                            resources={"metadata": {"path": str(path.parent)}})
                    started = time.perf_counter()
                    client.execute()
                    nb.metadata["evalteach_test"] = {"seconds": time.perf_counter() - started}
                    nbformat.write(nb, stored)
            nb = nbformat.read(stored, as_version=4)
            read[path] = (nb, nb.metadata.pop("evalteach_test")["seconds"])
        return read[path]

    return execute


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def venv_python(venv):
    """The interpreter of a virtual environment made with ``python -m venv``."""
    return Path(venv) / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def without_pythonpath():
    """``os.environ`` without ``PYTHONPATH``, for a fresh environment's Python: it must import
    what is installed in it, also when the tests run with ``PYTHONPATH`` set to a checkout."""
    return {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}


@pytest.fixture(scope="session")
def chromium():
    """Path of the system Chromium; skip (or fail when it is required) if it is missing."""
    path = shutil.which("chromium") or shutil.which("chromium-browser")
    if path is None:
        message = ("Chromium is not installed: the browser tests need it "
                   "(Debian/Ubuntu: `sudo apt-get install chromium`).")
        if os.environ.get("EVALTEACH_REQUIRE_BROWSER") == "1":
            pytest.fail(message + " EVALTEACH_REQUIRE_BROWSER=1 makes this an error.")
        pytest.skip(message)
    return path


@pytest.fixture(scope="session")
def browser(chromium):
    """One headless Chromium for the whole session, driven by Playwright."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture(scope="session")
def lab_server(tmp_path_factory):
    """A JupyterLab server on 127.0.0.1 serving a temporary copy of the lessons.

    JupyterLab autosaves outputs into the notebooks, hence the copy. Yields the base URL.
    """
    base = tmp_path_factory.mktemp("lab")
    root = base / "lessons"
    shutil.copytree(LESSONS_DIR, root, ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    settings = base / "settings"
    for name, values in LAB_SETTINGS.items():
        target = settings / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps(values))
    port = free_port()
    # The project's Jupyter configuration, as `make lab` uses it (jupyter-config/README.md).
    env = dict(os.environ, JUPYTER_CONFIG_DIR=str(base / "config"),
               JUPYTER_CONFIG_PATH=str(ROOT / "jupyter-config"), JUPYTER_RUNTIME_DIR=str(base / "runtime"))
    log = open(base / "server.log", "wb")  # noqa: SIM115 - closed below
    server = subprocess.Popen(
        [sys.executable, "-m", "jupyter", "lab", "--no-browser", f"--port={port}",
         "--ServerApp.ip=127.0.0.1", f"--ServerApp.root_dir={root}",
         "--IdentityProvider.token=", "--ServerApp.password=", "--ServerApp.disable_check_xsrf=True",
         f"--LabApp.user_settings_dir={settings}", f"--LabApp.workspaces_dir={base / 'workspaces'}",
         "--allow-root"],
        cwd=root, env=env, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 180
        while True:
            try:
                urllib.request.urlopen(f"{url}/api/status", timeout=2).close()
                break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    log.flush()
                    pytest.fail("JupyterLab did not start:\n"
                                + (base / "server.log").read_text(errors="replace")[-3000:])
                time.sleep(0.2)
        yield url
    finally:
        server.terminate()
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            server.kill()
        log.close()


@contextmanager
def served(command, ready, log_path, *, what, cwd=ROOT, env=None, seconds=180):
    """Run ``command`` (in a session of its own) until ``ready()`` is true; yield; then stop
    the whole process group. Every wait is bounded; a server that exits or never becomes
    ready fails the test with the end of its log."""
    log = open(log_path, "wb")  # noqa: SIM115 - closed below
    process = subprocess.Popen(command, cwd=cwd, env=env, stdout=log, stderr=subprocess.STDOUT,
                               start_new_session=True)
    try:
        deadline = time.monotonic() + seconds
        while not ready():
            if process.poll() is not None or time.monotonic() > deadline:
                log.flush()
                pytest.fail(f"{what} did not start:\n"
                            + Path(log_path).read_text(errors="replace")[-3000:])
            time.sleep(0.3)
        yield process
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=10)
        log.close()


def answers(url):
    """True once ``url`` answers an HTTP request."""
    try:
        urllib.request.urlopen(url, timeout=2).close()
        return True
    except OSError:
        return False


def listens(port):
    """True once something accepts connections on 127.0.0.1:``port``."""
    try:
        socket.create_connection(("127.0.0.1", port), timeout=2).close()
        return True
    except OSError:
        return False


def shutdown_kernels(url):
    """Stop every session and kernel of the test server (each lesson gets a fresh one)."""
    for kind in ("sessions", "kernels"):
        with urllib.request.urlopen(f"{url}/api/{kind}", timeout=10) as response:
            items = json.load(response)
        for item in items:
            request = urllib.request.Request(f"{url}/api/{kind}/{item['id']}", method="DELETE")
            urllib.request.urlopen(request, timeout=30).close()


@pytest.fixture
def full_redraws(monkeypatch):
    """``watch(explorer)`` returns a list that grows by one at each full (non-blitted) redraw."""
    def watch(explorer):
        drawn = []
        draw = explorer.figure.canvas.draw
        monkeypatch.setattr(explorer.figure.canvas, "draw",
                            lambda *a, **k: (drawn.append(1), draw(*a, **k))[1])
        return drawn
    return watch


#: The files that take longest (a browser run or an environment per lesson, a Hub), handed out
#: first: pytest-xdist's ``--dist loadfile`` gives files to workers in the order collected, so
#: the many quick files then fill in at the end instead of one long file running alone.
LONGEST_FIRST = ("test_browser.py", "test_binder.py", "test_poll_hub.py", "test_lessons.py",
                 "test_lite.py", "test_static_html.py", "test_classroom.py", "test_browser_predict.py")


def pytest_collection_modifyitems(items):
    """Move the longest files to the front; each file's tests keep their order."""
    rank = {name: place for place, name in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))


#: Set on a test whose call left pyplot figures open (see ``close_widgets_of_the_test``).
LEFT_FIGURES = pytest.StashKey[bool]()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item):
    """Note whether the test left pyplot figures open, before its fixtures close them."""
    yield
    pyplot = sys.modules.get("matplotlib.pyplot")
    item.stash[LEFT_FIGURES] = bool(pyplot and pyplot.get_fignums())


#: Weak references to the widgets made during the running test (ipywidgets reports each new one).
_MADE = []


@pytest.fixture(autouse=True)
def close_widgets_of_the_test(request):
    """Close the widgets a test made once it is done (those of wider-scoped fixtures stay open),
    and free them.

    ipywidgets keeps every open widget in a global registry, so without this each explorer
    (and its figure) built by a test lives until the session ends: a full run grew to 7 GB,
    and every ``et.presenter()`` call redrew all of them. Explorers and figures hold
    reference cycles, which Python's collector reaches late in a process holding millions of
    objects; so the test that made widgets, or left pyplot figures open, ends with a
    collection. Only those: a collection takes a tenth of a second, and after every test it
    was half of the time of ``make test-fast``.
    """
    import ipywidgets

    ipywidgets.Widget.on_widget_constructed(lambda widget: _MADE.append(weakref.ref(widget)))
    _MADE.clear()
    yield
    made = [widget for widget in (ref() for ref in _MADE) if widget is not None]
    _MADE.clear()
    for widget in made:
        widget.close()
    if made or request.node.stash.get(LEFT_FIGURES, False):
        del made
        gc.collect()
