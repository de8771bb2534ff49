"""JupyterLite: the static site that `make lite` builds, and what the lessons need there.

The pyodide runtime comes from a CDN at run time and cannot be fetched here, so this
checks the build: the site holds every lesson and the evalteach wheel (indexed for
``piplite``), opens notebooks with the in-browser kernel, and the wheel installs and
imports in a fresh plain Python with dependencies that pyodide can provide.
"""
from __future__ import annotations

import importlib.util
import json
import re
import subprocess
import sys
import tomllib
import zipfile
from email.parser import Parser

import nbformat
import pytest
from packaging.requirements import Requirement

from conftest import LESSONS, LESSONS_DIR, ROOT, lesson_params, venv_python, without_pythonpath

# The site's build and the lite extra's install build evalteach in the checkout (build/,
# *.egg-info): `make test` runs this file in one worker (--dist loadfile), so never two at once.
pytestmark = pytest.mark.notebooks

#: Dependencies piplite can install in pyodide: built into the pyodide distribution,
#: or pure-Python wheels on PyPI (ipywidgets).
PYODIDE_INSTALLABLE = {"numpy", "scipy", "matplotlib", "scikit-learn", "ipywidgets"}


def _load_builder():
    spec = importlib.util.spec_from_file_location("lite_build", ROOT / "lite" / "build.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


builder = _load_builder()


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """Build the site exactly as `make lite` does (lite/build.py)."""
    out = tmp_path_factory.mktemp("lite") / "dist"
    bundled = builder.build(out, LESSONS_DIR)
    (wheel,) = (out / "pypi").glob("evalteach-*.whl")
    assert wheel.name in bundled
    return out, wheel


def test_every_lesson_is_in_the_site(site):
    out, _ = site
    assert LESSONS
    for lesson in LESSONS:
        copied = out / "files" / lesson.name
        assert copied.read_bytes() == lesson.read_bytes(), lesson.name


def test_wheel_is_indexed_for_piplite(site):
    out, wheel = site
    assert (out / "pypi" / wheel.name).read_bytes() == wheel.read_bytes()
    index = json.loads((out / "pypi" / "all.json").read_text())
    assert wheel.name in {r["filename"] for r in index["evalteach"]["releases"]["0.1.0"]}
    config = json.loads((out / "jupyter-lite.json").read_text())["jupyter-config-data"]
    urls = config["litePluginSettings"]["@jupyterlite/pyodide-kernel-extension:kernel"][
        "pipliteUrls"]
    assert any(url.startswith("./pypi/all.json") for url in urls)
    extensions = {e["name"] for e in config["federated_extensions"]}
    assert {"@jupyterlite/pyodide-kernel-extension", "@jupyter-widgets/jupyterlab-manager"} <= extensions


def test_notebooks_start_the_in_browser_kernel(site):
    """Lessons ask for `python3`; the pyodide kernel is `python`, so start the default one."""
    out, _ = site
    overrides = json.loads((out / "overrides.json").read_text())
    assert overrides["@jupyterlab/notebook-extension:tracker"]["autoStartDefaultKernel"] is True
    assert json.loads((out / "jupyter-lite.json").read_text())[
        "jupyter-config-data"]["defaultKernelName"] == "python"


def test_widget_messages_leave_the_kernel_indicator_alone(site):
    """The project's page settings reach the site (see jupyter-config/README.md)."""
    out, _ = site
    config = json.loads((out / "jupyter-lite.json").read_text())["jupyter-config-data"]
    assert "comm_msg" in config["untracked_message_types"]
    assert config["untracked_message_types"] == json.loads(
        (ROOT / "jupyter-config/labconfig/page_config.json").read_text())["untracked_message_types"]


def wheel_metadata(wheel):
    with zipfile.ZipFile(wheel) as z:
        name = next(n for n in z.namelist() if n.endswith(".dist-info/METADATA"))
        return Parser().parsestr(z.read(name).decode())


#: What packaging's markers see in pyodide (micropip evaluates them the same way).
PYODIDE_MARKERS = {"sys_platform": "emscripten", "platform_system": "Emscripten",
                   "platform_machine": "wasm32", "extra": ""}


def requirements(wheel, environment=None):
    """Names of the wheel's requirements that apply in ``environment`` (default: here)."""
    needed = (Requirement(r) for r in wheel_metadata(wheel).get_all("Requires-Dist") or [])
    return {r.name.lower() for r in needed
            if r.marker is None or r.marker.evaluate(dict(environment or {}, extra=""))}


def test_wheel_depends_only_on_what_pyodide_has(site):
    _, wheel = site
    assert requirements(wheel, PYODIDE_MARKERS) == PYODIDE_INSTALLABLE
    assert requirements(wheel) == PYODIDE_INSTALLABLE | {"isal"}  # skipped in pyodide only
    with zipfile.ZipFile(wheel) as z:
        assert wheel.name.endswith("-py3-none-any.whl")
        assert "evalteach/widgets/_base.py" in z.namelist()


#: The packages of the ``lite`` extra, which the wheel alone must not install.
LITE_EXTRA = {Requirement(r).name.lower().replace("_", "-") for r in tomllib.loads(
    (ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]["lite"]}


@pytest.fixture(scope="module")
def fresh_python(site, tmp_path_factory):
    """A fresh venv holding the site's wheel and what it depends on, nothing else.

    The two tests of a fresh environment share it, in file order: the wheel's test first, then
    the lite extra's test adds ``.[lite]``, which needs everything the wheel needs and more,
    so the environment it gets is the one a fresh ``pip install .[lite]`` makes (building it
    again cost about 80 s). The Binder pins are the constraints: the same versions as there,
    so pip's cache has them.
    """
    _, wheel = site
    venv = tmp_path_factory.mktemp("fresh") / "venv"
    subprocess.run([sys.executable, "-m", "venv", venv], check=True)
    python = venv_python(venv)
    # --no-compile: byte-compiling every module changes nothing these tests check
    subprocess.run([python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-compile",
                    "-c", ROOT / "binder" / "requirements.txt", wheel], check=True)
    return python


def installed(python):
    frozen = subprocess.run([python, "-m", "pip", "list", "--format=freeze"], capture_output=True,
                            text=True, check=True).stdout
    return {line.split("==")[0].lower().replace("_", "-") for line in frozen.splitlines()}


def test_wheel_imports_in_a_fresh_python(fresh_python, tmp_path):
    python = fresh_python
    assert not installed(python) & LITE_EXTRA, "the wheel's environment must not hold the lite extra"
    code = ("import evalteach as et; "
            "assert 'site-packages' in et.__file__; "
            "r = et.proportion_interval(12, 40); print(round(r.low, 3), round(r.high, 3)); "
            "from evalteach.widgets._base import Explorer")
    out = subprocess.run([python, "-c", code], cwd=tmp_path, env=without_pythonpath(),
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["0.158", "0.442"]


@pytest.mark.parametrize("lesson", lesson_params())
def test_lesson_installs_what_pyodide_lacks_first(lesson):
    nb = nbformat.read(lesson, as_version=4)
    first = next(c.source for c in nb.cells if c.cell_type == "code")
    guard = first.index('if sys.platform == "emscripten":')
    install = re.search(r"(piplite\.install|%pip install)\(?.*ipywidgets.*evalteach", first)
    assert install and install.start() > guard, first
    # imports before any magic: a cell that starts with a magic does not load pyodide packages
    assert not first.lstrip().startswith("%")


def python_sources():
    return sorted((ROOT / "evalteach").rglob("*.py"))


#: The class poll runs only in a kernel that a JupyterHub started with the poll's address in its
#: environment (tests/test_poll_kernel.py: without it no call is made); its waits are in
#: background threads, which pyodide does not have, so they never run in JupyterLite.
HUB_ONLY = ROOT / "evalteach" / "poll"


def test_no_sleep_based_logic():
    """time.sleep blocks pyodide's single thread and does not let anything else run."""
    sleeping = re.compile(r"\bsleep\s*\(")
    offenders = [p.name for p in LESSONS if sleeping.search(p.read_text())]
    offenders += [str(p.relative_to(ROOT)) for p in python_sources()
                  if HUB_ONLY not in p.parents and sleeping.search(p.read_text())]
    assert not offenders
    assert any(HUB_ONLY in p.parents for p in python_sources())  # the exemption names a real folder


def test_widget_wheels_match_the_sites_widget_manager(site):
    """piplite installs the bundled ipywidgets, whose front end is the one in the site."""
    out, _ = site
    index = json.loads((out / "pypi" / "all.json").read_text())
    for requirement in builder.pinned_requirements():
        name, pinned = requirement.split("==")
        releases = index[name.replace("_", "-")]["releases"]
        assert list(releases) == [pinned], (name, list(releases))
    # The page's widget manager is the labextension inside the bundled jupyterlab_widgets wheel.
    (widgets_wheel,) = (out / "pypi").glob("jupyterlab_widgets-*.whl")
    with zipfile.ZipFile(widgets_wheel) as z:
        packaged = next(n for n in z.namelist()
                        if n.endswith("labextensions/@jupyter-widgets/jupyterlab-manager/package.json"))
        wheel_manager = json.loads(z.read(packaged))["version"]
    site_manager = json.loads((out / "extensions" / "@jupyter-widgets" / "jupyterlab-manager"
                               / "package.json").read_text())["version"]
    assert wheel_manager == site_manager
    # and the bundled ipywidgets accepts exactly that jupyterlab_widgets
    (ipywidgets_wheel,) = (out / "pypi").glob("ipywidgets-*.whl")
    needs = [Requirement(r) for r in wheel_metadata(ipywidgets_wheel).get_all("Requires-Dist")]
    (lab_widgets,) = [r for r in needs if r.name.replace("-", "_") == "jupyterlab_widgets"]
    assert lab_widgets.specifier.contains(widgets_wheel.name.split("-")[1])


def test_make_lite_works_from_the_lite_extra_alone(fresh_python, tmp_path):
    """A fresh environment with only `.[lite]` (what `make lite` installs) builds the site:
    the wheel's environment (only what evalteach needs) with the lite extra added."""
    python = fresh_python
    subprocess.run([python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-compile",
                    "-c", ROOT / "binder" / "requirements.txt", f"{ROOT}[lite]"], check=True)
    assert LITE_EXTRA <= installed(python)
    out = tmp_path / "dist"
    run = subprocess.run([python, ROOT / "lite" / "build.py", "--output-dir", out],
                         capture_output=True, text=True, cwd=tmp_path)
    assert run.returncode == 0, run.stderr[-2000:]
    assert (out / "lab" / "index.html").exists()
    assert {p.name.split("-")[0] for p in (out / "pypi").glob("*.whl")} == {
        "evalteach", "ipywidgets", "jupyterlab_widgets", "comm"}
