"""Binder: build the environment from exactly the ``binder/`` files, as repo2docker does.

Docker is not available here, so the test does repo2docker's steps for a
``requirements.txt`` + ``postBuild`` repository by hand: a fresh virtual environment,
``pip install -r binder/requirements.txt``, then ``binder/postBuild`` run from the
repository root, and then executes every lesson in that environment's kernel.
pip's cache makes the second and later runs fast.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time

import nbformat
import pytest
from jupyter_client.kernelspec import KernelSpecManager
from jupyter_client.manager import KernelManager
from nbclient import NotebookClient

from conftest import ROOT, lesson_params, venv_python, without_pythonpath

pytestmark = pytest.mark.notebooks

BINDER = ROOT / "binder"
#: What a repository checkout holds that the Binder build needs.
SOURCES = ("pyproject.toml", "README.md", "evalteach", "binder", "lessons", "jupyter-config")


def test_requirements_are_exact_pins():
    lines = [line.strip() for line in (BINDER / "requirements.txt").read_text().splitlines()]
    pins = [line for line in lines if line and not line.startswith("#")]
    assert pins and all(re.fullmatch(r"[A-Za-z0-9_.\-]+==[A-Za-z0-9_.+!\-]+", p) for p in pins), pins
    names = {p.split("==")[0].lower().replace("_", "-") for p in pins}
    assert {"numpy", "scipy", "matplotlib", "ipywidgets", "scikit-learn", "jupyterlab",
            "ipykernel"} <= names
    assert not names & {"evalteach", "pytest", "hypothesis", "playwright", "mlxtend", "statsmodels"}


@pytest.fixture(scope="module")
def binder_env(tmp_path_factory):
    """A checkout copy with a venv built from binder/; returns (python, checkout)."""
    base = tmp_path_factory.mktemp("binder")
    checkout = base / "repo"
    checkout.mkdir()
    skip = shutil.ignore_patterns("__pycache__", ".ipynb_checkpoints")
    for name in SOURCES:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, checkout / name, ignore=skip)
        else:
            shutil.copy2(source, checkout / name)
    venv = base / "venv"
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "venv", venv], check=True)
    python = venv_python(venv)
    env = dict(os.environ, PATH=f"{python.parent}{os.pathsep}{os.environ['PATH']}",
               VIRTUAL_ENV=str(venv), PIP_DISABLE_PIP_VERSION_CHECK="1")
    env.pop("PYTHONPATH", None)
    # --no-compile: byte-compiling every installed module changes nothing checked here (the
    # lessons' kernels compile what they import). (PIP_NO_COMPILE=1 would turn compiling on.)
    subprocess.run([python, "-m", "pip", "install", "--quiet", "--no-compile", "-r", "binder/requirements.txt"],
                   cwd=checkout, env=env, check=True)
    subprocess.run(["bash", "binder/postBuild"], cwd=checkout, env=env, check=True)
    print(f"\nBinder environment built in {time.perf_counter() - started:.1f} s")
    return python, checkout


def test_environment_matches_the_pins(binder_env):
    python, checkout = binder_env
    frozen = subprocess.run([python, "-m", "pip", "freeze"], capture_output=True, text=True,
                            check=True).stdout
    installed = {line.split("==")[0].lower().replace("_", "-"): line.split("==")[1]
                 for line in frozen.splitlines() if "==" in line}
    for line in (BINDER / "requirements.txt").read_text().splitlines():
        if line and not line.startswith("#"):
            name, version = line.split("==")
            assert installed.get(name.lower().replace("_", "-")) == version, line
    check = subprocess.run([python, "-m", "pip", "check"], capture_output=True, text=True)
    assert check.returncode == 0, check.stdout
    # evalteach is installed (not imported from the checkout) and its lab front end is there
    where = subprocess.run([python, "-c", "import evalteach; print(evalteach.__file__)"],
                           cwd=python.parent, env=without_pythonpath(), capture_output=True, text=True,
                           check=True).stdout
    assert "site-packages" in where
    labext = python.parent.parent / "share/jupyter/labextensions/@jupyter-widgets/jupyterlab-manager"
    assert labext.is_dir()
    # the project's JupyterLab settings (no news pop-up) are in the image, as `make lab` has them
    overrides = python.parent.parent / "etc/jupyter/labconfig/default_setting_overrides.json"
    assert overrides.read_text() == (ROOT / "jupyter-config/labconfig/default_setting_overrides.json").read_text()
    page_config = overrides.with_name("page_config.json")
    assert page_config.read_text() == (ROOT / "jupyter-config/labconfig/page_config.json").read_text()


@pytest.fixture(scope="module")
def binder_kernel(binder_env, tmp_path_factory):
    """A kernel spec that starts the Binder environment's Python."""
    python, _ = binder_env
    kernels = tmp_path_factory.mktemp("kernels")
    spec = kernels / "binder"
    spec.mkdir()
    # repo2docker's pip compiles every module as it installs; the environment above was installed
    # without (faster), so its kernels write what they compile, once. Where the caller's
    # environment sets PYTHONDONTWRITEBYTECODE (this machine's does), every lesson's kernel would
    # otherwise compile numpy, scipy, scikit-learn and matplotlib again: about 12 s a lesson.
    (spec / "kernel.json").write_text(json.dumps({
        "argv": [str(python), "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "Binder Python", "language": "python", "env": {"PYTHONDONTWRITEBYTECODE": ""}}))
    return KernelSpecManager(kernel_dirs=[str(kernels)])


@pytest.mark.parametrize("lesson", lesson_params())
def test_lesson_runs_on_binder(lesson, binder_env, binder_kernel):
    _, checkout = binder_env
    nb = nbformat.read(lesson, as_version=4)
    km = KernelManager(kernel_name="binder", kernel_spec_manager=binder_kernel)
    started = time.perf_counter()
    try:
        NotebookClient(nb, km=km, timeout=600,
                       resources={"metadata": {"path": checkout / "lessons"}}).execute()
    finally:
        if km.has_kernel:  # the client shuts down only kernels it started itself
            km.shutdown_kernel(now=True)
    print(f"\n{lesson.name}: {time.perf_counter() - started:.1f} s on the Binder environment")
    # execute() raises CellExecutionError at the first error; every cell must have run
    assert all(c.execution_count for c in nb.cells if c.cell_type == "code")
