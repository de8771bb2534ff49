"""Build the JupyterLite site: the lessons, the evalteach wheel and pinned widget wheels.

``make lite`` runs this; ``tests/test_lite.py`` runs it too, so what is tested is
what is built. The widgets front end of the site (the ``@jupyter-widgets/jupyterlab-manager``
extension) comes from the ``jupyterlab_widgets`` installed in this environment. A
lesson asks piplite for ``ipywidgets``; piplite takes a package from the site's own
index whenever the index has it, so bundling the very ``ipywidgets``,
``jupyterlab_widgets`` and ``comm`` wheels that this environment runs means a new
ipywidgets release on PyPI cannot break the lessons in the browser (a kernel-side
ipywidgets newer than the page's widget manager is the most reported way widgets
break in JupyterLite).

Usage: ``python lite/build.py --output-dir dist [--contents lessons]``
"""
from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from importlib.metadata import version
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: The kernel-side widget packages, pinned to the versions of this environment.
PINNED = ("ipywidgets", "jupyterlab_widgets", "comm")


def pinned_requirements():
    """``name==version`` of each widget package as installed here."""
    return [f"{name}=={version(name)}" for name in PINNED]


def build_wheels(dest):
    """The evalteach wheel and the pinned widget wheels, in ``dest``."""
    dest.mkdir(parents=True, exist_ok=True)
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check"]
    subprocess.run([*pip, "wheel", "--quiet", "--no-deps", "--wheel-dir", dest, ROOT], check=True)
    subprocess.run([*pip, "download", "--quiet", "--no-deps", "--only-binary", ":all:",
                    "--dest", dest, *pinned_requirements()], check=True)
    return sorted(dest.glob("*.whl"))


def write_page_config(lite_dir):
    """The project's JupyterLab page settings (``jupyter-config/labconfig/page_config.json``,
    the one source) as the site's ``jupyter-config-data``."""
    page_config = json.loads((ROOT / "jupyter-config/labconfig/page_config.json").read_text())
    (Path(lite_dir) / "jupyter-lite.json").write_text(json.dumps(
        {"jupyter-lite-schema-version": 0, "jupyter-config-data": page_config}, indent=2))


def build(output_dir, contents=ROOT / "lessons"):
    """Build the site into ``output_dir`` (replaced if it exists); return the wheels bundled."""
    output_dir = Path(output_dir).resolve()
    shutil.rmtree(output_dir, ignore_errors=True)
    with tempfile.TemporaryDirectory() as tmp:
        wheels = build_wheels(Path(tmp) / "wheels")
        lite_dir = Path(tmp) / "lite"
        shutil.copytree(ROOT / "lite", lite_dir, ignore=shutil.ignore_patterns(".cache", "*.py"))
        write_page_config(lite_dir)
        command = [sys.executable, "-m", "jupyter", "lite", "build", "--lite-dir", lite_dir,
                   "--contents", Path(contents).resolve(), "--output-dir", output_dir]
        for wheel in wheels:
            command += ["--piplite-wheels", wheel]
        subprocess.run(command, check=True, cwd=tmp)
        return [w.name for w in wheels]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--output-dir", default=ROOT / "dist", type=Path)
    parser.add_argument("--contents", default=ROOT / "lessons", type=Path)
    args = parser.parse_args(argv)
    for name in build(args.output_dir, args.contents):
        print("bundled", name)
    print("site written to", args.output_dir)


if __name__ == "__main__":
    main()
