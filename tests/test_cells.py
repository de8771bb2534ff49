"""A cell that runs again closes the explorers and predictions its last run showed
(``widgets/_cells.py``), in a real IPython kernel, spoken to as JupyterLab does: each run
names its cell."""
from __future__ import annotations

import json
import weakref

import pytest
from jupyter_client.manager import start_new_kernel

from evalteach import widgets
from evalteach.widgets import _cells

LESSON_CELL = "explorer = et.SamplingErrorExplorer(error=0.3, n=160, n_sets=2000, seed=0)\nexplorer"


@pytest.mark.parametrize("name", widgets.EXPLORERS)
def test_a_new_explorer_is_held_by_nothing_but_its_own_parts(name):
    """Else a cell run again could never close it: whatever an explorer keeps of itself
    (its scheduler, bound methods, closures) must not count as being held elsewhere."""
    explorer = weakref.ref(getattr(widgets, name)(seed=0))  # its open widgets keep it alive
    try:
        alone = _cells._held_elsewhere(explorer(), None)
        kept = (explorer(),)  # e.g. a question's reveals
        assert not alone and _cells._held_elsewhere(explorer(), None) and kept
    finally:
        explorer().close()


@pytest.fixture(scope="module")
def kernel():
    manager, client = start_new_kernel(kernel_name="python3", startup_timeout=120)
    try:
        yield client
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)


def run(client, code, cell=None):
    """Run ``code`` as the cell ``cell`` (None: a client that names no cell); returns what
    it printed, or raises with what went to stderr or the error."""
    content = {"code": code, "silent": False, "store_history": True, "user_expressions": {},
               "allow_stdin": False, "stop_on_error": True}
    msg = client.session.msg("execute_request", content, metadata={"cellId": cell} if cell else {})
    client.shell_channel.send(msg)
    printed, problems = [], []
    while True:
        reply = client.get_iopub_msg(timeout=120)
        if reply["parent_header"].get("msg_id") != msg["header"]["msg_id"]:
            continue
        kind, body = reply["msg_type"], reply["content"]
        if kind == "stream":
            (printed if body["name"] == "stdout" else problems).append(body["text"])
        elif kind == "error":
            problems.append(f"{body['ename']}: {body['evalue']}")
        elif kind == "status" and body["execution_state"] == "idle":
            break
    assert not problems, problems
    return "".join(printed)


def state(client, **refs):
    """For each name -> a weak reference in the kernel: whether what it refers to is gone,
    a closed explorer, or open (alive)."""
    code = ("import gc, json; gc.collect(); print(json.dumps({"
            + ", ".join(f"{name!r}: 'gone' if {ref}() is None else 'closed' if getattr({ref}(), 'closed', False)"
                        " else 'open'"
                        for name, ref in refs.items()) + "}))")
    return json.loads(run(client, code).strip().splitlines()[-1])


@pytest.mark.notebooks
def test_a_cell_run_again_closes_what_it_showed_and_frees_its_figure(kernel):
    run(kernel, "import weakref\nimport evalteach as et", "setup")
    run(kernel, LESSON_CELL, "lesson")
    run(kernel, "first, first_figure = weakref.ref(explorer), weakref.ref(explorer.figure)", "refs")
    run(kernel, LESSON_CELL, "lesson")
    run(kernel, "second = weakref.ref(explorer)", "refs2")
    # the first explorer is still in IPython's output history (Out), but holds no figure
    assert state(kernel, old="first", figure="first_figure", new="second") == {
        "old": "closed", "figure": "gone", "new": "open"}
    assert run(kernel, "print(repr(Out[max(k for k, v in Out.items() if v is first())]))") == (
        "<SamplingErrorExplorer closed>\n")


@pytest.mark.notebooks
def test_what_a_cell_shows_again_or_a_variable_names_stays_open(kernel):
    run(kernel, "import weakref\nimport evalteach as et", "setup")
    run(kernel, LESSON_CELL, "lesson")
    run(kernel, "shown = weakref.ref(explorer)", "refs")
    run(kernel, "explorer", "show-again")
    run(kernel, "explorer", "show-again")
    run(kernel, "kept = et.ZTableExplorer(seed=0)\nkept", "kept")
    run(kernel, "print(kept.closed)", "kept")  # the same cell, edited: shows nothing now
    run(kernel, "named = weakref.ref(kept)", "refs2")
    assert state(kernel, shown="shown", named="named") == {"shown": "open", "named": "open"}


@pytest.mark.notebooks
def test_an_explorer_a_question_reveals_stays_open(kernel):
    run(kernel, "import weakref\nimport evalteach as et", "setup")
    run(kernel, "shown = et.ZTableExplorer(seed=0)\nshown", "shown")
    run(kernel, "question = et.Predict('Which?', options=['a', 'b'], answer='a', reveals=shown)\n"
                "revealed = weakref.ref(shown)", "question")
    run(kernel, "shown = et.ZTableExplorer(seed=0)\nshown", "shown")
    assert state(kernel, revealed="revealed") == {"revealed": "open"}


@pytest.mark.notebooks
def test_a_lesson_run_again_closes_the_old_prediction_and_the_explorer_it_revealed(kernel):
    """The lessons' pattern: an explorer made in one cell, revealed by a prediction shown by
    the next. Run again, cell by cell, the old pair is closed (the explorer, held by nothing
    now, is freed) and the new pair stays."""
    make = "explorer = et.SamplingErrorExplorer(seed=0)"
    ask = "et.Predict('Which?', options=['a', 'b'], answer='a', reveals=explorer)"
    run(kernel, "import weakref\nimport evalteach as et", "setup")
    run(kernel, make, "make")
    run(kernel, ask, "ask")
    run(kernel, "old_explorer, old_question = weakref.ref(explorer), weakref.ref(Out[max(Out)])", "refs")
    run(kernel, make, "make")
    # the old question is still on screen and still reveals the old explorer
    assert state(kernel, explorer="old_explorer", question="old_question") == {
        "explorer": "open", "question": "open"}
    run(kernel, ask, "ask")
    run(kernel, "new_explorer, new_question = weakref.ref(explorer), weakref.ref(Out[max(Out)])", "refs2")
    assert state(kernel, old_explorer="old_explorer", old_question="old_question", new_explorer="new_explorer",
                 new_question="new_question") == {"old_explorer": "gone", "old_question": "closed",
                                                  "new_explorer": "open", "new_question": "open"}


@pytest.mark.notebooks
def test_a_client_that_names_no_cell_closes_nothing(kernel):
    run(kernel, "import weakref\nimport evalteach as et")
    run(kernel, "anonymous = et.ZTableExplorer(seed=0)\nanonymous")
    run(kernel, "before = weakref.ref(anonymous)")
    run(kernel, "anonymous = et.ZTableExplorer(seed=0)\nanonymous")
    assert state(kernel, before="before") == {"before": "open"}
