"""Predict, commit, reveal in a real JupyterLab: the hidden explorer appears after "Lock in".

A small notebook is put on the test server (through its contents API, into the server's
temporary copy of the lessons), run, and then used as a student would: the explorer is
not visible before the lock-in; typing a guess and clicking "Lock in" freezes the guess
and shows the explorer with its picture. A second prediction is locked in with the
keyboard only (Tab past the options to the button, then Enter), a third by typing a number
and pressing Enter in the box.
"""
from __future__ import annotations

import json
import urllib.request

import nbformat
import pytest

from conftest import ARTIFACTS
from test_browser import (PANEL, check_console, check_outputs, dismiss_toasts,  # noqa: F401
                          lesson_page, lock_in_every_prediction, page_factory, run_all_in_lab,
                          wait_until_run)

# `make test` runs a file's tests in one worker (--dist loadfile): they share that worker's
# Chromium and JupyterLab server (conftest).
pytestmark = pytest.mark.browser

NAME = "predict_in_lab.ipynb"
CELLS = [
    "import evalteach as et\nexplorer = et.SamplingErrorExplorer(error=0.3, n=40, seed=0)",
    "et.Predict('How wide is the spread of the error measured on 40 examples?',\n"
    "           answer=et.proportion_interval(12, 40).se, tolerance=0.01, reveals=explorer,\n"
    "           explanation='sqrt(0.3 * 0.7 / 40)')",
    "et.Predict('Which level is one-sided for z = 1.64?', options=['90%', '95%'], answer='95%',\n"
    "           reveals=et.NumericQuestion('And for z = 1.96?', 0.975))",
    "et.Predict('Errors out of 40 at a true error of 0.3?', answer=12, reveals=et.progress())",
    "import ipywidgets as W\n"
    "[et.Predict(f'Spare {i}?', options=['a', 'b'], reveals=W.Label(f'spare {i} revealed'))\n"
    " for i in range(2)][-1]",
]
#: ms for each step to show in the page (generous: the suite may share the machine).
WAIT = 60_000
#: True when the explorer inside the first prediction shows a decoded picture.
PICTURE_SHOWN = """el => {
  const img = el.querySelector('img');
  return el.offsetParent !== null && img && img.complete && img.naturalWidth > 0;
}"""


def put_notebook(url):
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in CELLS])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}
    body = json.dumps({"type": "notebook", "format": "json", "content": nb}).encode()
    request = urllib.request.Request(f"{url}/api/contents/{NAME}", data=body, method="PUT",
                                     headers={"Content-Type": "application/json"})
    urllib.request.urlopen(request, timeout=30).close()


def test_lock_in_reveals_the_explorer(page_factory, lab_server):  # noqa: F811
    put_notebook(lab_server)
    with lesson_page(page_factory, lab_server, "predict") as page:
        page.goto(f"{lab_server}/lab/tree/{NAME}?reset")
        panel = page.locator(PANEL)
        panel.locator(".jp-Cell").first.wait_for()
        page.locator("#jp-main-statusbar", has_text="Idle").wait_for()
        dismiss_toasts(page)
        run_all_in_lab(page)
        wait_until_run(page, panel)
        check_outputs(panel, NAME)
        first, second, third, spare = panel.locator("div.evalteach-predict").all()

        # before lock-in: the prompt is there, the explorer is not to be seen
        first.locator("button", has_text="Lock in").wait_for(timeout=WAIT)
        explorer = first.locator(".evalteach-explorer")
        assert explorer.count() == 1 and not explorer.is_visible()

        # type a guess and click: the guess is frozen and the explorer appears with its picture
        first.locator("input[type='text']").fill("0.07")
        first.locator("button", has_text="Lock in").click()
        page.wait_for_function(PICTURE_SHOWN, arg=explorer.element_handle(), timeout=WAIT)
        first.get_by_text("You predicted 0.07.").wait_for(timeout=WAIT)
        assert first.locator("input[type='text']").is_disabled()
        assert first.locator("button", has_text="Locked in").is_disabled()

        # keyboard only: pick an option, Tab to "Lock in", press Enter
        question = second.locator(".evalteach-question")
        assert not question.is_visible()
        second.locator("input[type='radio']").first.check()
        second.locator("input[type='radio']").first.focus()
        focused = []
        for _ in range(3):  # ipywidgets radios are tabbed one by one: two options, then the button
            page.keyboard.press("Tab")
            focused.append(page.evaluate("() => document.activeElement.textContent.trim()"))
            if focused[-1] == "Lock in":
                break
        assert focused[-1] == "Lock in", f"Tab from the options went to {focused!r}"
        page.keyboard.press("Enter")
        second.get_by_text("You predicted 90%.").wait_for(timeout=WAIT)
        question.wait_for(state="visible", timeout=WAIT)

        # type and press Enter: locked in, and the progress it revealed counts both predictions
        third.locator("input[type='text']").fill("10")
        third.locator("input[type='text']").press("Enter")
        third.get_by_text("You predicted 10.").wait_for(timeout=WAIT)
        third.get_by_text("Predictions: 3 of 5 locked in").wait_for(timeout=WAIT)

        # what other browser tests use to get past every prediction of a lesson
        assert lock_in_every_prediction(panel) == 1
        spare.get_by_text("spare 1 revealed").wait_for(state="visible", timeout=WAIT)

        ARTIFACTS.mkdir(exist_ok=True)
        explorer.scroll_into_view_if_needed()
        page.screenshot(path=ARTIFACTS / "predict.png")
        check_console(page, NAME)
