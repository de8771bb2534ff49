"""The Voila app (`make app`) in a real browser: pick two explorers and move a control in each."""
from __future__ import annotations

import os

import pytest

from conftest import ARTIFACTS, free_port, listens, served
from evalteach.widgets import ROCExplorer

# `make test` runs a file's tests in one worker (--dist loadfile): they share that worker's
# Chromium and JupyterLab server (conftest).
pytestmark = pytest.mark.browser

GALLERY = ".evalteach-gallery"
PICTURE = f"{GALLERY} .evalteach-explorer img"


@pytest.fixture(scope="module")
def voila_app(tmp_path_factory):
    """`make app` on a free port on 127.0.0.1; yields the app's URL."""
    base = tmp_path_factory.mktemp("voila")
    port = free_port()
    env = dict(os.environ, JUPYTER_RUNTIME_DIR=str(base / "runtime"))
    command = ["make", "--no-print-directory", "app", f"APP_PORT={port}",
               "APP_ARGS=--no-browser --Voila.ip=127.0.0.1"]
    # Voila answers only its app's URLs: a listening port is the readiness signal.
    with served(command, lambda: listens(port), base / "voila.log", what="make app (Voila)", env=env):
        yield f"http://127.0.0.1:{port}/"


def picture(page):
    img = page.locator(PICTURE)
    page.wait_for_function("img => img.complete && img.naturalWidth > 0", arg=img.element_handle())
    return img.get_attribute("src")


def move_a_slider(page):
    """Press ArrowRight on the first visible slider of the explorer; return the new picture."""
    before = picture(page)
    handle = page.locator(f"{GALLERY} .evalteach-explorer .widget-slider .noUi-handle").first
    handle.focus()
    for _ in range(3):
        handle.press("ArrowRight")
    page.wait_for_function("([sel, old]) => document.querySelector(sel).getAttribute('src') !== old",
                           arg=[PICTURE, before], timeout=60_000)
    return picture(page)


def test_pick_two_explorers_and_move_a_control_in_each(browser, voila_app):
    context = browser.new_context(viewport={"width": 1280, "height": 1000})
    context.set_default_timeout(60_000)  # as the lesson pages have it (test_browser.page_factory)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(voila_app, timeout=90_000)
        page.locator(PICTURE).wait_for(timeout=90_000)
        # the code is hidden: Voila shows outputs only
        assert page.get_by_text("import evalteach").count() == 0
        assert page.locator(".cm-editor, .CodeMirror").count() == 0
        first = picture(page)
        move_a_slider(page)

        page.locator(f"{GALLERY} select").first.select_option(label=ROCExplorer.title)
        page.wait_for_function("([sel, old]) => document.querySelector(sel).getAttribute('src') !== old",
                               arg=[PICTURE, first], timeout=60_000)
        page.locator(f"{GALLERY} .widget-html", has_text="threshold").first.wait_for()
        move_a_slider(page)
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "voila-gallery.png"), full_page=True)
        assert not errors, errors
    finally:
        context.close()
