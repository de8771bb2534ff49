"""What a new user sees first: `make lab`, exactly as the README gives it, in a real browser.

The server is started through the Makefile (on a copy of the lessons, since JupyterLab
writes into what it serves), the browser opens the server's root URL the way `make lab`
opens it, and the test checks that JupyterLab shows the start page and no news pop-up.
"""
from __future__ import annotations

import os
import re
import shutil

import pytest

from conftest import ARTIFACTS, LESSONS, LESSONS_DIR, START_PAGE, answers, free_port, served

# `make test` runs a file's tests in one worker (--dist loadfile): they share that worker's
# Chromium and JupyterLab server (conftest).
pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def make_lab(tmp_path_factory):
    """`make lab` on a free port, serving a copy of lessons/; yields the base URL."""
    base = tmp_path_factory.mktemp("make-lab")
    lessons = base / "lessons"
    shutil.copytree(LESSONS_DIR, lessons, ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    port = free_port()
    env = dict(os.environ, JUPYTER_RUNTIME_DIR=str(base / "runtime"),
               JUPYTERLAB_SETTINGS_DIR=str(base / "user-settings"),
               JUPYTERLAB_WORKSPACES_DIR=str(base / "workspaces"))
    command = ["make", "--no-print-directory", "lab", f"PORT={port}", f"LESSONS_DIR={lessons}",
               "LAB_ARGS=--no-browser --ServerApp.ip=127.0.0.1 --IdentityProvider.token="]
    url = f"http://127.0.0.1:{port}"
    with served(command, lambda: answers(f"{url}/api/status"), base / "make-lab.log",
                what="make lab", env=env):
        yield url


def test_make_lab_opens_on_the_start_page(browser, make_lab):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    try:
        page.goto(make_lab + "/", timeout=60_000)  # what `make lab` opens in the user's browser
        page.wait_for_url(re.compile(r"/lab/tree/00_start_here\.ipynb"), timeout=60_000)
        panel = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden)")
        heading = panel.locator("h1", has_text="Start here")
        heading.wait_for(timeout=60_000)
        # every lesson's link is there, readable in full
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "make-lab-start-page.png"))
        # every lesson is linked. JupyterLab renders only the cells in view, and renders a cell's
        # Markdown some time after it scrolls in, so the links are gathered until they are all
        # there or 30 s have passed.
        expected = {p.name for p in LESSONS}
        names = set()
        for _ in range(60):
            for cell in panel.locator(".jp-MarkdownCell").all():
                cell.scroll_into_view_if_needed()
                for href in cell.locator("a").evaluate_all("links => links.map(a => a.href)"):
                    names |= set(re.findall(r"(\d\d_\w+\.ipynb)", href))
            names.discard(START_PAGE.name)  # the page's own heading anchors
            if names >= expected:
                break
            page.wait_for_timeout(500)
        assert names == expected
        # the project's page settings are in force (jupyter-config/README.md)
        config = page.evaluate("() => JSON.parse(document.getElementById('jupyter-config-data').textContent)")
        assert "comm_msg" in config["untracked_message_types"]
        # no "Jupyter news?" question, now or a moment later
        page.wait_for_timeout(3000)
        assert page.locator(".jp-toast-button:has-text('No')").count() == 0
        assert page.get_by_text(re.compile("Jupyter news", re.I)).count() == 0
    finally:
        context.close()

