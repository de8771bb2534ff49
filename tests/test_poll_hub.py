"""The class poll on a real JupyterHub, through its proxy, with the Hub's own authentication.

One Hub for the module (``benchmarks/poll.py``'s ``PollHub``: the classroom benchmark's Hub
with ``configure_hub(c, instructors=["teacher"], students=[...])``), an instructor and two
students with servers of their own, and a user who is neither. The instructor's kernel starts
live votes; the students' kernels lock in predictions and check questions, whose answers are
held; the instructor's kernel counts them, shows the distribution, closes, starts a second round
and reveals; the students' kernels then show the answers with the class's beside their own.
Every forbidden request gets its refusal; a killed service comes back with its counts; the
instructor's panel (with "Start live vote") works in Chromium; no process is left behind.
"""
from __future__ import annotations

import concurrent.futures
import json
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("psutil")
pytest.importorskip("jupyterhub")

from conftest import ARTIFACTS  # noqa: E402
from test_browser import PANEL, dismiss_toasts, run_all_in_lab, wait_until_run  # noqa: E402
from test_classroom import processes_under, proxy  # noqa: E402, F401 - proxy is a fixture

ROOT = Path(__file__).resolve().parents[1]
sys.path.append(str(ROOT / "benchmarks"))  # the Hub and the vote of benchmarks/poll.py
from classroom import Student  # noqa: E402
from poll import PollHub, class_votes  # noqa: E402

# One worker: the Hub, its proxy and the servers are shared by the whole module.
pytestmark = pytest.mark.notebooks

INSTRUCTOR, STUDENTS, OUTSIDER = "teacher", ["ann", "bob"], "eve"
#: Students who only vote through the API (the benchmark's code, on this Hub).
VOTERS = [f"voter{i}" for i in range(6)]
NOTEBOOK = "poll_flow.ipynb"  # the lesson id is its name: poll_flow
LESSON = "poll_flow"

#: Run in every kernel: the same questions, as every student's copy of a lesson has them. The
#: instructor will run the first two as live votes; the third stays self-paced.
SETUP = """
import html, json, time
import evalteach as et
predict = et.Predict("Which option?", options=["a", "b", "c"], answer="b", id="flow-options",
                     explanation="Because b.", reveals=et.proportion_interval(12, 40))
number = et.NumericQuestion("What share?", 0.3, tolerance=0.05, id="flow-number")
alone = et.Predict("Alone?", options=["x", "y"], answer="x", id="flow-alone")
for item in (predict, number, alone):
    item.poll.ready.result(120)

def settle(item):
    '''Wait until the item's queued requests to the poll are done.'''
    item.poll.connection.run(lambda: None).result(180)

def until(check, seconds=60):
    deadline = time.monotonic() + seconds
    while not check() and time.monotonic() < deadline:
        time.sleep(0.1)
    return check()

def note(item):
    return html.unescape(item.poll.note.value)

print(json.dumps([type(predict.poll.view).__name__, type(number.poll.view).__name__]))
"""


@pytest.fixture(scope="module")
def hub(proxy, tmp_path_factory):
    hub = PollHub(tmp_path_factory.mktemp("poll-hub"), instructors=[INSTRUCTOR],
                  students=STUDENTS + VOTERS)
    try:
        hub.start()
        hub.tokens = hub.add_users([INSTRUCTOR, *STUDENTS, OUTSIDER, *VOTERS])
        for user in (INSTRUCTOR, *STUDENTS):
            hub.start_server(user)
        hub.wait(lambda: all(hub.server_ready(u) for u in (INSTRUCTOR, *STUDENTS)), 300, "the servers")
        yield hub
    finally:
        hub.stop()


@pytest.fixture(scope="module")
def kernels(hub):
    """A notebook kernel for the instructor and each student, each with the same questions
    (``SETUP`` run; ``kernel.views`` holds what it printed)."""
    opened = {user: Student(hub, user, NOTEBOOK) for user in (INSTRUCTOR, *STUDENTS)}
    try:
        for kernel in opened.values():
            kernel.views = run(kernel, SETUP)
        yield opened
    finally:
        for kernel in opened.values():
            kernel.close()


def run(kernel, code, seconds=240):
    """Run ``code`` in a kernel and return the JSON the last line it printed holds."""
    _, printed = kernel.execute(code, seconds)
    lines = printed.strip().splitlines()
    assert lines, f"{kernel.user}'s kernel printed nothing; its stderr: {''.join(kernel.stderr)!r}"
    return json.loads(lines[-1])


def call(hub, method, path, user=None, body=None, raw=None, token=None):
    return hub.poll(method, path, token or (hub.tokens[user] if user else None), body=body, raw=raw)


def question(name):
    return f"api/lessons/{LESSON}/questions/{name}"


def test_the_whole_class_flow_from_student_kernels_to_the_instructors(hub, kernels):
    """Peer instruction: the instructor starts live votes; the students' answers are held while
    they vote, change their votes and vote again; the reveal shows each student the answer with
    the class's answers beside their own. A question no instructor touched shows its answer at once."""
    teacher, ann, bob = kernels[INSTRUCTOR], kernels["ann"], kernels["bob"]
    assert teacher.views == ["InstructorPanel"] * 2
    assert ann.views == bob.views == ["StudentLine"] * 2

    # the instructor starts the live votes; the students' kernels learn it before they answer
    started = run(teacher, "view = predict.poll.view; assert 'self-paced' in view.status.value\n"
                           "view.start.click(); number.poll.view.start.click(); settle(predict)\n"
                           "print(json.dumps([view.live, view.status.value, view.start.layout.display]))")
    assert started[0] and "live vote · round 1 · voting open · <b>0 answers</b>" in started[1] and started[2] == "none"
    knows = "print(json.dumps(until(lambda: predict.poll.status == ('open', 1) and number.poll.status == ('open', 1))))"
    assert run(ann, knows) and run(bob, knows)

    # round 1: locked in and checked, the answers are held; the self-paced one shows at once
    held = ("print(json.dumps([predict.held, predict._outcome.value, predict._revealed.layout.display,"
            " number.held, number.feedback, note(predict), note(number), alone._outcome.value]))")
    ann_sees = run(ann, "predict.lock('a'); number.check('0.3'); alone.lock('y'); settle(predict)\n"
                        "until(lambda: 'is in (round 1)' in note(predict)); " + held)
    assert ann_sees[:5] == [True, "", "none", True, ""]
    assert "your answer (a) is in (round 1). The answer appears when your instructor reveals it." in ann_sees[5]
    assert "your answer (0.3) is in (round 1)" in ann_sees[6]
    assert "The answer is x." in ann_sees[7]  # no instructor touched it: as on a laptop
    # bob changes his mind while the round is open; every held check is a vote
    bob_sees = run(bob, "predict.lock('c'); number.check('25%'); settle(predict)\n"
                        "predict.lock('b'); number.check('0.3'); settle(predict)\n"
                        "until(lambda: '(b) is in (round 1)' in note(predict)); " + held)
    assert bob_sees[:5] == [True, "", "none", True, ""] and "your answer (0.3) is in (round 1)" in bob_sees[6]

    # the instructor's kernel counts them and, when asked, draws them (the right answer only on request)
    seen = run(teacher, "view.tick(); view.show.value = True; plain = view.bars.value\n"
                        "view.mark.value = True; marked = view.bars.value\n"
                        "number.poll.view.tick(); number.poll.view.show.value = True\n"
                        "print(json.dumps([view.count, view.data, view.status.value, plain, marked,"
                        " number.poll.view.data, number.poll.view.bars.value]))")
    count, data, status, plain, marked, numbers, number_bars = seen
    assert count == 2 and data == {"state": "open", "round": 1, "live": True,
                                   "rounds": {"1": {"n": 2, "answers": {"a": 1, "b": 1}}}}
    assert "round 1 · voting open · <b>2 answers</b>" in status
    assert "Round 1 (2 answers)" in plain and plain.count("1 (50%)") == 2 and "right answer" not in plain
    assert "✓ right answer" in marked
    assert numbers["rounds"]["1"] == {"n": 2, "answers": {"0.3": 2}}  # bob's vote replaced, not added
    assert "0.3" in number_bars

    # close: the students read "voting closed"; then a second round after the discussion
    assert run(teacher, "view.close.click(); settle(predict); print(json.dumps([view.state, view.round]))") == [
        "closed", 1]
    closed = ("assert until(lambda: 'voting closed (round 1)' in note(predict)), note(predict)\n"
              "until(lambda: predict._lock_button.description == 'Voting closed')\n"
              "print(json.dumps([predict.held, predict._lock_button.description, predict.lock('a')]))")
    assert run(ann, closed) == run(bob, closed) == [True, "Voting closed", False]
    assert run(teacher, "view.next_round.click(); settle(predict); print(json.dumps([view.state, view.round]))") == [
        "open", 2]
    revote = ("assert until(lambda: 'round 2 is open' in note(predict)), note(predict)\n"
              "until(lambda: predict._lock_button.description == 'Vote again')\n"
              "predict.lock('b'); settle(predict); until(lambda: 'is in (round 2)' in note(predict))\n"
              "print(json.dumps([note(predict), predict.held]))")
    for kernel in (ann, bob):
        text, still_held = run(kernel, revote)
        assert "your answer (b) is in (round 2). The answer appears when your instructor reveals it." in text
        assert still_held
    both = run(teacher, "view.tick(); print(json.dumps([view.data['rounds'], view.status.value, view.bars.value]))")
    assert both[0] == {"1": {"n": 2, "answers": {"a": 1, "b": 1}}, "2": {"n": 2, "answers": {"b": 2}}}
    assert "round 2 · voting open · <b>2 answers</b> (round 1: 2)" in both[1]
    assert "Round 1 (2 answers)" in both[2] and "Round 2 (2 answers)" in both[2] and "2 (100%)" in both[2]

    # the reveal: each student's kernel shows the answer, what it reveals and the class's answers
    assert run(teacher, "view.reveal.click(); settle(predict); print(json.dumps(view.state))") == "revealed"
    shown = run(ann, "assert until(lambda: 'your answer' in predict.poll.view.bars.value), note(predict)\n"
                     "print(json.dumps([predict.held, predict._outcome.value, predict._revealed.layout.display,"
                     " note(predict), predict.poll.view.bars.value, number.held]))")
    assert shown[0] is False and "Right." in shown[1] and "Because b." in shown[1] and shown[2] == "flex"
    assert "revealed by your instructor" in shown[3]
    assert "Round 1 (2 answers)" in shown[4] and "Round 2 (2 answers)" in shown[4]
    assert "b <b style='color:#009E73'>✓ right answer</b> <b>← your answer</b>" in shown[4]
    assert shown[5] is True  # the other live question waits for its own reveal
    assert call(hub, "GET", question("flow-options"), "ann")[0] == 200  # students may read it now

    # the instructor downloads the counts with their server's own token (as the README's curl does)
    export = run(teacher, "import os, urllib.request\n"
                          "r = urllib.request.Request(os.environ['EVALTEACH_POLL_URL'] + 'api/lessons/poll_flow/export',"
                          " headers={'Authorization': 'token ' + os.environ['JUPYTERHUB_API_TOKEN']})\n"
                          "print(json.dumps(urllib.request.urlopen(r).read().decode()))")
    assert {"flow-options,1,revealed,a,1", "flow-options,1,revealed,b,1", "flow-options,2,revealed,b,2",
            "flow-number,1,open,0.3,2", "flow-alone,1,open,y,1"} <= set(export.splitlines())


def test_the_lessons_live_questions_are_listed_without_answers(hub):
    """What a student's kernel reads to know which questions are live votes: states and rounds only."""
    lesson, path = "poll_listing", "api/lessons/poll_listing/questions"
    status, body = call(hub, "GET", path, "ann")
    assert status == 200 and body["questions"] == {}
    answer = {"lesson": lesson, "question": "q", "answer": "a", "round": 1}
    assert call(hub, "POST", "api/answers", "ann", body=answer)[0] == 200
    assert call(hub, "GET", path, "ann")[1] == body  # answers alone make nothing live
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        waiting = pool.submit(call, hub, "GET", f"{path}?wait=60&version={body['version']}", "bob")
        time.sleep(1)
        assert not waiting.done()  # held: nothing changed
        assert call(hub, "POST", f"{path}/q/state", INSTRUCTOR, body={"state": "open", "round": 2})[0] == 200
        status, listed = waiting.result(timeout=50)  # woken by the change, well before its 60 s
    assert status == 200 and listed["questions"] == {"q": {"state": "open", "round": 2}}
    assert call(hub, "GET", path, OUTSIDER)[0] == 403
    status, body = call(hub, "GET", f"{path}?wait=5&version=no%20version", "ann")
    assert status == 400 and body["field"] == "version"


def test_every_forbidden_request_is_refused(hub):
    q = question("rules")
    answer = {"lesson": LESSON, "question": "rules", "answer": "a", "round": 1}

    # without a valid Hub token, or as a user who is neither student nor instructor
    for token in (None, "not-a-token"):
        status, body = call(hub, "GET", "api/me", token=token)
        assert status == 403 and "valid JupyterHub token" in body["error"]
        assert call(hub, "POST", "api/answers", body=answer, token=token)[0] == 403
    status, body = call(hub, "POST", "api/answers", OUTSIDER, body=answer)
    assert status == 403 and "neither a student nor an instructor" in body["error"]
    assert call(hub, "GET", "api/me", "ann")[1] == {"name": "ann", "instructor": False}
    assert call(hub, "GET", "api/me", INSTRUCTOR)[1] == {"name": INSTRUCTOR, "instructor": True}
    status, body = call(hub, "POST", "api/answers", INSTRUCTOR, body=answer)
    assert status == 403 and "only students answer" in body["error"]

    # a student's token: only their own answers, nothing before the reveal, no state, no export
    assert call(hub, "POST", "api/answers", "ann", body={**answer, "user": "bob", "answer": "c"})[0] == 200
    assert call(hub, "POST", "api/answers", "bob", body=answer)[0] == 200
    status, body = call(hub, "GET", q, INSTRUCTOR)
    assert body["rounds"]["1"] == {"n": 2, "answers": {"a": 1, "c": 1}}  # the user field changed nothing
    status, body = call(hub, "GET", q, "ann")
    assert status == 403 and body == {"error": "the class's answers are shown once the instructor reveals them",
                                      "state": "open", "round": 1}
    status, body = call(hub, "POST", q + "/state", "ann", body={"state": "revealed", "round": 1})
    assert status == 403 and "only instructors" in body["error"]
    assert call(hub, "GET", f"api/lessons/{LESSON}/export", "ann")[0] == 403

    # a closed question takes no answers; a round that is not the current one neither
    assert call(hub, "POST", q + "/state", INSTRUCTOR, body={"state": "closed", "round": 1})[0] == 200
    status, body = call(hub, "POST", "api/answers", "ann", body=answer)
    assert status == 403 and body["state"] == "closed" and "round 1 is closed" in body["error"]
    assert call(hub, "POST", q + "/state", INSTRUCTOR, body={"state": "open", "round": 2})[0] == 200
    status, body = call(hub, "POST", "api/answers", "ann", body=answer)
    assert status == 403 and body["round"] == 2
    status, body = call(hub, "POST", q + "/state", INSTRUCTOR, body={"state": "open", "round": 4})
    assert status == 400 and body["field"] == "round"

    # 400s name the field
    bad = [({**answer, "lesson": "a lesson"}, "lesson"), ({**answer, "question": "x" * 81}, "question"),
           ({**answer, "answer": "x" * 201}, "answer"), ({**answer, "answer": 3}, "answer"),
           ({**answer, "round": "2"}, "round"), ({k: v for k, v in answer.items() if k != "round"}, "round")]
    for body_sent, field in bad:
        status, body = call(hub, "POST", "api/answers", "bob", body=body_sent)
        assert status == 400 and body["field"] == field and field in body["error"], body
        time.sleep(0.11)  # stay under the write limit
    for raw, words in [(b"{" + b" " * 5000 + b"}", "at most 4096 bytes"), (b"not json", "JSON object")]:
        status, body = call(hub, "POST", "api/answers", "bob", raw=raw)
        assert status == 400 and body["field"] == "body" and words in body["error"]
    status, body = call(hub, "GET", f"api/lessons/{'y' * 81}/questions/q", INSTRUCTOR)
    assert status == 400 and body["field"] == "lesson"
    status, body = call(hub, "POST", q + "/state", INSTRUCTOR, body={"state": "shown", "round": 2})
    assert status == 400 and body["field"] == "state"
    status, body = call(hub, "GET", q + "?wait=soon&state=open&round=1", "ann")
    assert status == 400 and body["field"] == "wait"
    status, body = call(hub, "GET", "api/nothing", INSTRUCTOR)
    assert status == 404 and "no such endpoint" in body["error"]

    # one user cannot flood the service: the eleventh write within a second is refused
    time.sleep(1.1)
    flood = {**answer, "question": "flood"}
    with concurrent.futures.ThreadPoolExecutor(30) as pool:
        replies = list(pool.map(lambda _: call(hub, "POST", "api/answers", "bob", body=flood), range(30)))
    refused = [body for status, body in replies if status == 429]
    assert refused and "more than 10 writes within one second" in refused[0]["error"]
    assert {status for status, _ in replies} <= {200, 429}
    time.sleep(1.1)
    assert call(hub, "POST", "api/answers", "bob", body=flood)[0] == 200  # a second later: welcome again
    assert call(hub, "GET", question("flood"), INSTRUCTOR)[1]["rounds"]["1"]["n"] == 1  # still one answer

    # the export: counts per question and round, no user names
    status, text = call(hub, "GET", f"api/lessons/{LESSON}/export", INSTRUCTOR)
    assert status == 200 and text.splitlines()[0] == "question,round,state,answer,count"
    assert "rules,1,open,a,1" in text.splitlines() and "rules,1,open,c,1" in text.splitlines()
    assert not any(name in text for name in ("ann", "bob", INSTRUCTOR))


def test_a_user_outside_the_poll_gets_no_view_and_sends_nothing(hub):
    """A user who is neither student nor instructor (a guest on a Hub that names its students),
    with the kernel side run here on their real token: no panel, no note, no answer sent."""
    from evalteach.poll import client
    from evalteach.poll.views import ClassPoll

    connection = client.Connection(hub.poll_url, hub.tokens[OUTSIDER], LESSON)
    poll = ClassPoll(connection, "outside", options=["a", "b"], correct="a")
    assert poll.ready.result(timeout=60) is None and poll.view is None
    assert poll.vote("b") is False  # shown at once, as on a laptop
    connection.run(lambda: None).result(timeout=60)
    assert poll.note.value == "" and poll.widget.children == (poll.note,)
    assert call(hub, "GET", question("outside"), INSTRUCTOR)[1]["rounds"] == {"1": {"n": 0, "answers": {}}}


def test_a_waiting_request_returns_when_the_question_changes(hub):
    """A student's kernel asks with ``?wait=``: the service holds the request until the
    instructor changes the question, instead of the kernel asking every few seconds."""
    q = question("waiting")
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        waiting = pool.submit(call, hub, "GET", q + "?wait=60&state=open&round=1", "ann")
        time.sleep(1)
        assert not waiting.done()  # held: nothing changed
        assert call(hub, "POST", q + "/state", INSTRUCTOR, body={"state": "closed", "round": 1})[0] == 200
        status, body = waiting.result(timeout=50)  # woken by the change, well before its 60 s
    assert status == 403 and body == {"error": "the class's answers are shown once the instructor reveals them",
                                      "state": "closed", "round": 1}


def test_many_students_vote_at_once_and_each_counts_once(hub):
    """The benchmark's vote (each student with their own token), on this Hub, with a few voters."""
    tokens = {user: hub.tokens[user] for user in VOTERS}
    result = class_votes(hub, tokens, hub.tokens[INSTRUCTOR], spread=0.5, lesson=LESSON, question="bench")
    assert result["acknowledged"] == len(VOTERS) and not result["failures"]
    assert result["counted_once"]
    assert 0 < result["p50_ms"] <= result["p95_ms"] <= result["max_ms"]
    assert result["reveal"]["waiting"] == result["reveal"]["shown"] == len(VOTERS)  # every held request saw it


def service_process(hub):
    (found,) = [p for p in hub.processes() if "evalteach.poll" in " ".join(p.cmdline())]
    return found


def test_a_killed_service_comes_back_with_its_counts(hub, kernels):
    """Answers acknowledged before the kill are kept; an answer sent while the service is down is
    retried by the kernel and counted once the Hub has restarted the service."""
    for user in ("ann", "bob", *VOTERS[:3]):
        body = {"lesson": LESSON, "question": "durable", "answer": user[0], "round": 1}
        assert call(hub, "POST", "api/answers", user, body=body)[0] == 200
    before = call(hub, "GET", question("durable"), INSTRUCTOR)[1]
    killed = service_process(hub)
    killed.kill()
    killed.wait(timeout=30)
    during = call(hub, "GET", "api/me", "ann")[0]
    assert during != 200  # the proxy has nowhere to send it
    assert run(kernels["ann"], "late = et.Predict('While it is down?', options=['x', 'y'], id='during-outage')\n"
                               "late.lock('y'); print(json.dumps(late.poll is not None))")
    hub.wait(lambda: call(hub, "GET", "api/me", "ann")[0] == 200, 120, "the Hub to restart the class poll")
    assert service_process(hub).pid != killed.pid
    assert call(hub, "GET", question("durable"), INSTRUCTOR)[1] == before
    assert before["rounds"]["1"]["n"] == 5
    note = run(kernels["ann"], "settle(late); print(json.dumps(late.poll.note.value))")
    assert "your answer (y) is in, round 1" in note
    assert call(hub, "GET", question("during-outage"), INSTRUCTOR)[1]["rounds"]["1"] == {"n": 1, "answers": {"y": 1}}


@pytest.mark.browser
def test_the_instructors_panel_in_chromium(hub, browser):
    """Log in as the instructor, open a lesson in JupyterLab on the Hub, start a live vote, watch
    the count grow as students answer, show the distribution, mark the right answer, close, start
    round 2, reveal. It uses the session's Chromium (tests/conftest.py): a second Playwright in
    the same worker would find the first one's event loop running."""
    name, q = "poll_browser.ipynb", "browser-q"
    cells = ["import evalteach as et\n"
             f"et.Predict('Which option?', options=['a', 'b', 'c'], answer='b', id={q!r})"]
    content = {"cells": [{"cell_type": "code", "source": c, "metadata": {}, "outputs": [], "execution_count": None}
                         for c in cells],
               "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}},
               "nbformat": 4, "nbformat_minor": 5}
    hub.api("PUT", f"/user/{INSTRUCTOR}/api/contents/{name}", {"type": "notebook", "format": "json",
                                                              "content": content})
    path = f"api/lessons/poll_browser/questions/{q}"
    context = browser.new_context(viewport={"width": 1280, "height": 900})  # its own cookies
    page = context.new_page()
    try:
        page.goto(f"{hub.url}/hub/login")
        page.fill("input[name='username']", INSTRUCTOR)
        page.fill("input[name='password']", "any")
        page.click("[type='submit']")
        page.goto(f"{hub.url}/user/{INSTRUCTOR}/lab/tree/{name}?reset")
        panel = page.locator(PANEL)
        panel.locator(".jp-Cell").first.wait_for(timeout=120_000)
        page.locator("#jp-main-statusbar", has_text="Idle").wait_for(timeout=120_000)
        dismiss_toasts(page)
        run_all_in_lab(page)
        wait_until_run(page, panel)
        poll = panel.locator(".evalteach-poll-panel")
        poll.get_by_text("0 answers").wait_for(timeout=60_000)

        # a question nobody ran live is self-paced until the instructor starts its live vote
        poll.get_by_text("self-paced (students see the answer at once)").wait_for(timeout=30_000)
        listing = "api/lessons/poll_browser/questions"
        assert call(hub, "GET", listing, "ann")[1]["questions"] == {}
        poll.locator("button", has_text="Start live vote").click()
        poll.get_by_text("live vote · round 1 · voting open").wait_for(timeout=30_000)
        assert call(hub, "GET", listing, "ann")[1]["questions"] == {q: {"state": "open", "round": 1}}
        assert poll.locator("button", has_text="Start live vote").is_hidden()

        for user, choice in (("ann", "a"), ("bob", "b")):
            assert call(hub, "POST", "api/answers", user, body={
                "lesson": "poll_browser", "question": q, "answer": choice, "round": 1})[0] == 200
        poll.get_by_text("2 answers").wait_for(timeout=30_000)  # live, without a click

        bars = poll.locator(".evalteach-poll-bars")
        assert bars.count() == 0
        poll.locator("button", has_text="Show answers").click()
        bars.wait_for(timeout=30_000)
        assert "Round 1 (2 answers)" in bars.inner_text() and "right answer" not in bars.inner_text()
        poll.locator("button", has_text="Mark right answer").click()
        poll.get_by_text("✓ right answer").wait_for(timeout=30_000)

        poll.locator("button", has_text="Close voting").click()
        poll.get_by_text("voting closed").wait_for(timeout=30_000)
        assert call(hub, "GET", path, INSTRUCTOR)[1]["state"] == "closed"
        poll.locator("button", has_text="Start round 2").click()
        poll.get_by_text("round 2 · voting open").wait_for(timeout=30_000)
        assert call(hub, "POST", "api/answers", "ann", body={
            "lesson": "poll_browser", "question": q, "answer": "b", "round": 2})[0] == 200
        poll.get_by_text("Round 2 (1 answer)").wait_for(timeout=30_000)
        assert call(hub, "GET", path, "ann")[0] == 403
        poll.locator("button", has_text="Reveal to class").click()
        poll.get_by_text("revealed to the class").wait_for(timeout=30_000)
        assert call(hub, "GET", path, "ann")[0] == 200
        ARTIFACTS.mkdir(exist_ok=True)
        poll.screenshot(path=str(ARTIFACTS / "poll-instructor.png"))
    except Exception:
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "FAILED-poll-instructor.png"))
        raise
    finally:
        context.close()


def test_everything_the_hub_started_stops(hub, kernels):
    for kernel in kernels.values():
        kernel.close()
    kernels.clear()
    hub.stop()
    left = processes_under(hub.dir)
    assert not left, f"processes the Hub started are still running: {[p.info for p in left]}"
