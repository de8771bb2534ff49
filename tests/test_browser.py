"""Every lesson in a real browser: JupyterLab (and Notebook 7) in headless Chromium.

For each lesson: open it, run all cells, wait for the kernel, then check that no cell
shows an error, every widget rendered, every explorer shows its picture, every slider
has a track to drag, moving one control of each explorer changes that picture, a slider
can be set from the keyboard, and the browser console has no errors from the widget
front end. A screenshot per lesson (device scale factor 2) goes to ``test-artifacts/``.
Every picture has twice the pixels of its size on screen and the summary as its
accessible name.
"""
from __future__ import annotations

import re
from contextlib import contextmanager

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from conftest import ARTIFACTS, LESSONS, lesson_params, shutdown_kernels

# `make test` runs a file's tests in one worker (--dist loadfile): they share that worker's
# Chromium and JupyterLab server (conftest).
pytestmark = pytest.mark.browser

RUN_TIMEOUT = 240_000  # ms for one lesson's cells; the slowest simulations take seconds
PANEL = ".jp-NotebookPanel:not(.lm-mod-hidden)"
EXPLORER = ".evalteach-explorer"
ERROR_OUTPUT = "[data-mime-type='application/vnd.jupyter.error']"
WIDGET_OUTPUT = "[data-mime-type='application/vnd.jupyter.widget-view+json']"
#: Console messages that come from the widget front end (or report a broken widget).
WIDGET_CONSOLE = re.compile(r"widget|model not found|\bcomm\b", re.I)

#: True once every code cell has run: none queued ([*]) or never run ([ ]).
ALL_RUN = """panel => {
  const prompts = [...panel.querySelectorAll('.jp-CodeCell .jp-InputArea-prompt')]
    .map(p => p.textContent.trim());
  return prompts.length > 0 && prompts.every(t => /^\\[\\d+\\]:?$/.test(t));
}"""
#: Notebook 7 has no status bar; its indicator reads idle before a kernel exists.
NOTEBOOK7_READY = """() => {
  const name = document.querySelector('.jp-KernelName');
  const status = document.querySelector('.jp-Notebook-ExecutionIndicator');
  return name && status && !/No Kernel/.test(name.textContent) && status.dataset.status === 'idle';
}"""
#: True when the kernel is idle: JupyterLab's status bar or Notebook 7's execution indicator.
KERNEL_IDLE = """() => {
  const bar = document.querySelector('#jp-main-statusbar');
  const status = document.querySelector('.jp-Notebook-ExecutionIndicator');
  return (!!bar && /\\bIdle\\b/.test(bar.textContent)) || (!!status && status.dataset.status === 'idle');
}"""
#: True once ``img`` shows a decoded picture other than the one at ``before``.
NEW_PICTURE = "([img, before]) => img.src !== before && img.complete && img.naturalWidth > 0"
#: ms to wait for a moved control's new picture before asking the kernel whether it is done.
MOVE_TIMEOUT = 10_000
#: True when every explorer's <img> holds a decoded picture.
PICTURES_LOADED = """els => els.every(e => {
  const img = e.querySelector('img');
  return img && img.complete && img.naturalWidth > 0 && img.src;
})"""


@pytest.fixture(scope="module")
def page_factory(browser, lab_server):
    """New pages in one browser context; collects console errors per page."""
    # A 2x screen, as on most laptops: the screenshots show whether pictures are crisp.
    context = browser.new_context(viewport={"width": 1280, "height": 1000}, device_scale_factor=2)
    context.set_default_timeout(60_000)

    def new_page():
        page = context.new_page()
        page.console_errors = []
        page.on("console", lambda m: m.type == "error" and page.console_errors.append(m.text))
        page.on("pageerror", lambda e: page.console_errors.append(str(e)))
        return page

    yield new_page
    context.close()


def dismiss_toasts(page):
    for button in page.locator(".jp-toast-button:has-text('No')").all():
        button.click()


def run_all_in_lab(page):
    page.locator(".lm-MenuBar-itemLabel", has_text=re.compile(r"^Run$")).click()
    page.locator(".lm-Menu-itemLabel", has_text=re.compile(r"^Run All Cells$")).click()


def wait_until_run(page, panel):
    page.wait_for_function(ALL_RUN, arg=panel.element_handle(), timeout=RUN_TIMEOUT)


def check_outputs(panel, name):
    errors = panel.locator(ERROR_OUTPUT)
    assert errors.count() == 0, f"{name}: error output:\n" + "\n".join(errors.all_inner_texts())
    for output in panel.locator(WIDGET_OUTPUT).all():
        text = output.inner_text()
        assert "Error displaying widget" not in text and "Loading widget" not in text, \
            f"{name}: a widget did not render: {text[:300]!r}"


def check_pictures(page, panel, name):
    explorers = panel.locator(EXPLORER)
    if explorers.count():
        page.wait_for_function(PICTURES_LOADED, arg=explorers.element_handles(), timeout=60_000)
    return explorers.count()


def control_moves(page, explorer):
    """Ways to change each control of ``explorer`` the way a user would, in display order."""
    def drag(handle):  # a fifth of the track (arrow keys go to the notebook in Notebook 7)
        handle.scroll_into_view_if_needed()
        track = handle.locator("xpath=ancestor::*[contains(@class, 'noUi-target')]").bounding_box()
        box = handle.bounding_box()
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        at_max = handle.get_attribute("aria-valuenow") == handle.get_attribute("aria-valuemax")
        page.mouse.move(x, y)
        page.mouse.down()
        page.mouse.move(x + (-1 if at_max else 1) * track["width"] / 5, y, steps=5)
        page.mouse.up()

    def choose(select):
        current = select.evaluate("s => s.selectedIndex")
        count = select.evaluate("s => s.options.length")
        select.select_option(index=(current + 1) % count)

    # Only the controls on screen: a mode hides the ones it does not use (Explorer._hidden).
    for handle in explorer.locator(".widget-slider .noUi-handle:visible").all():
        yield lambda handle=handle: drag(handle)
    for select in explorer.locator(".widget-dropdown select:visible").all():
        yield lambda select=select: choose(select)
    for button in explorer.locator(".widget-toggle-buttons button:not(.mod-active):visible").all():
        yield button.click
    for box in explorer.locator(".widget-checkbox input:visible").all():
        yield box.click
    for button in explorer.locator("button.widget-button:visible").all():  # e.g. "+10 resamples"
        yield button.click


#: Per explorer picture: [natural width, width on screen, accessible name (title)].
PICTURE_FACTS = "els => els.map(e => { const i = e.querySelector('img'); " \
                "return [i.naturalWidth, i.getBoundingClientRect().width, i.title]; })"


def check_crisp_and_named(panel, name):
    """Pictures at 2x pixel density (unless the page scaled them down) with a text alternative."""
    for index, (natural, shown, title) in enumerate(
            panel.locator(EXPLORER).evaluate_all(PICTURE_FACTS)):
        assert natural >= 2 * shown - 2, \
            f"{name}: explorer {index} shows {natural} pixels in {shown} CSS pixels (blurry on 2x)"
        assert title.strip(), f"{name}: explorer {index}'s picture has no accessible name"


#: Per visible slider of each explorer: [its label, the width of its track in CSS pixels].
SLIDER_TRACKS = """els => els.flatMap(e => [...e.querySelectorAll('.widget-slider')].filter(s => s.offsetParent)
  .map(s => [s.querySelector('.widget-label').textContent, s.querySelector('.noUi-target').getBoundingClientRect().width]))"""


def check_sliders_have_room(panel, name):
    """Every slider on screen has a track a hand can drag: a long label once left it 0 px wide."""
    for label, width in panel.locator(EXPLORER).evaluate_all(SLIDER_TRACKS):
        assert width >= 120, f"{name}: the slider {label!r} has a track of {width:.0f} px"


def picture_changed(page, img, before):
    """Whether ``img`` comes to show a picture other than ``before`` after a control moved.

    A control that changes nothing is told apart from a slow render (a busy machine) by the
    kernel: once it is idle again it has sent whatever picture the move made.
    """
    arg = [img.element_handle(), before]
    try:
        page.wait_for_function(NEW_PICTURE, arg=arg, timeout=MOVE_TIMEOUT)
        return True
    except PlaywrightTimeout:
        pass
    page.wait_for_function(KERNEL_IDLE, timeout=RUN_TIMEOUT)
    try:
        page.wait_for_function(NEW_PICTURE, arg=arg, timeout=MOVE_TIMEOUT)
        return True
    except PlaywrightTimeout:
        return False


def check_interaction(page, panel, name):
    """Some control of every explorer changes its picture (not every one does in every mode)."""
    for index, explorer in enumerate(panel.locator(EXPLORER).all()):
        img = explorer.locator("img").first
        changed = False
        for move in control_moves(page, explorer):
            before = img.get_attribute("src")
            move()
            changed = picture_changed(page, img, before)
            if changed:
                break
        assert changed, f"{name}: no control of explorer {index} changed its picture"
        alert = explorer.locator("[role='alert']")
        assert alert.count() == 0 or not alert.first.is_visible(), \
            f"{name}: explorer {index} shows an error: {alert.first.inner_text()}"


def check_keyboard(page, panel, name):
    """The first slider on screen can be set from the keyboard: its readout takes focus (Tab
    reaches it), a typed value and Enter move the slider and change the picture.

    The arrow keys are not the way in a notebook: in command mode JupyterLab binds them to
    moving between cells and headings for whatever has focus inside the notebook, a focused
    slider handle included (Voila has no such bindings: tests/test_browser_voila.py)."""
    for explorer in panel.locator(EXPLORER).all():
        sliders = explorer.locator(".widget-slider").filter(visible=True)
        if not sliders.count():
            continue
        handle, readout = sliders.first.locator(".noUi-handle").first, sliders.first.locator(".widget-readout")
        img = explorer.locator("img").first
        readout.scroll_into_view_if_needed()
        before, value = img.get_attribute("src"), handle.get_attribute("aria-valuenow")
        end = handle.get_attribute("aria-valuemin" if value == handle.get_attribute("aria-valuemax")
                                   else "aria-valuemax")
        readout.focus()
        page.keyboard.press("Control+A")
        page.keyboard.type(end)
        page.keyboard.press("Enter")
        assert picture_changed(page, img, before), f"{name}: a value typed into a slider's readout changed nothing"
        assert float(handle.get_attribute("aria-valuenow")) == float(end), f"{name}: the slider did not move to {end}"
        return True
    return False


def lock_in_every_prediction(panel, timeout=60_000):
    """Lock in every prediction in ``panel`` that is still open, so what it hides shows.

    The lesson walk-through would otherwise look for pictures and move controls of
    explorers that are still hidden. Types 0.5 or picks the first option; returns how
    many predictions it locked in.
    """
    still_open = [p for p in panel.locator("div.evalteach-predict").all()
                  if p.locator("button:not([disabled])", has_text="Lock in").count()]
    for prediction in still_open:
        # The prediction's own input, not an input of an explorer it reveals.
        box = prediction.locator(".evalteach-predict-input input[type='text']")
        if box.count():
            box.fill("0.5")
        else:
            prediction.locator(".evalteach-predict-input input[type='radio']").first.check()
        prediction.locator("button", has_text="Lock in").first.click()
        prediction.get_by_text("You predicted").first.wait_for(timeout=timeout)
    return len(still_open)


def check_console(page, name):
    widget_errors = [m for m in page.console_errors if WIDGET_CONSOLE.search(m)]
    assert not widget_errors, f"{name}: widget errors in the browser console: {widget_errors}"


@contextmanager
def lesson_page(page_factory, lab_server, stem):
    """A fresh page; on failure a ``FAILED-<stem>.png`` screenshot; always closed, kernels shut down."""
    page = page_factory()
    try:
        yield page
    except Exception:
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=ARTIFACTS / f"FAILED-{stem}.png")
        raise
    finally:
        page.close()
        shutdown_kernels(lab_server)


@pytest.mark.parametrize("lesson", lesson_params())
def test_lesson_in_jupyterlab(lesson, page_factory, lab_server):
    name = lesson.name
    with lesson_page(page_factory, lab_server, lesson.stem) as page:
        page.goto(f"{lab_server}/lab/tree/{name}?reset")
        panel = page.locator(PANEL)
        panel.locator(".jp-Cell").first.wait_for()
        page.locator("#jp-main-statusbar", has_text="Idle").wait_for()
        dismiss_toasts(page)
        run_all_in_lab(page)
        wait_until_run(page, panel)
        page.locator("#jp-main-statusbar", has_text="Idle").wait_for(timeout=RUN_TIMEOUT)
        check_outputs(panel, name)
        lock_in_every_prediction(panel)
        explorers = check_pictures(page, panel, name)
        if "Explorer(" in lesson.read_text():
            assert explorers > 0, f"{name}: the lesson opens explorers but none rendered"
        check_crisp_and_named(panel, name)
        check_sliders_have_room(panel, name)
        check_interaction(page, panel, name)
        check_keyboard(page, panel, name)
        ARTIFACTS.mkdir(exist_ok=True)
        if explorers:
            panel.locator(EXPLORER).first.scroll_into_view_if_needed()
        page.screenshot(path=ARTIFACTS / f"{lesson.stem}.png")
        check_console(page, name)


@pytest.mark.skipif(not LESSONS, reason="no lessons")
def test_first_lesson_in_notebook7(page_factory, lab_server):
    lesson = LESSONS[0]
    with lesson_page(page_factory, lab_server, f"notebook7-{lesson.stem}") as page:
        page.goto(f"{lab_server}/notebooks/{lesson.name}")
        panel = page.locator(".jp-NotebookPanel")
        panel.locator(".jp-Cell").first.wait_for()
        page.wait_for_function(NOTEBOOK7_READY)
        dismiss_toasts(page)
        run_all_in_lab(page)
        wait_until_run(page, panel)
        check_outputs(panel, lesson.name)
        lock_in_every_prediction(panel)
        assert check_pictures(page, panel, lesson.name) > 0, "no explorer rendered in Notebook 7"
        check_interaction(page, panel, lesson.name)
        assert check_keyboard(page, panel, lesson.name)
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=ARTIFACTS / f"notebook7-{lesson.stem}.png")
        check_console(page, lesson.name)
