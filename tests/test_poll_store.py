"""The class poll's SQLite store: answers replace per user and round, counts, states, deletion,
and an acknowledged answer survives its process being killed."""
import os
import signal
import subprocess
import sys

from evalteach.poll.store import Store


def test_a_question_nobody_touched_is_open_in_round_one(tmp_path):
    store = Store(tmp_path / "poll.sqlite")
    assert store.question("lesson", "q") == ("open", 1)
    assert store.counts("lesson", "q") == {}


def test_answers_count_once_per_user_and_round(tmp_path):
    store = Store(tmp_path / "poll.sqlite")
    store.record("l1", "q", 1, "ann", "a")
    store.record("l1", "q", 1, "bob", "a")
    store.record("l1", "q", 1, "ann", "b")  # ann changes her mind: replaced, not added
    store.record("l1", "q", 2, "ann", "b")
    store.record("l1", "other", 1, "ann", "c")
    store.record("l2", "q", 1, "ann", "z")
    assert store.counts("l1", "q") == {1: {"a": 1, "b": 1}, 2: {"b": 1}}
    assert store.counts("l2", "q") == {1: {"z": 1}}


def test_states_and_rounds_are_kept(tmp_path):
    store = Store(tmp_path / "poll.sqlite")
    store.set_state("l1", "q", "closed", 1)
    store.set_state("l1", "q", "open", 2)
    assert store.question("l1", "q") == ("open", 2)
    assert store.question("l1", "other") == ("open", 1)


def test_the_live_questions_are_those_an_instructor_changed_lately(tmp_path):
    store = Store(tmp_path / "poll.sqlite")
    store.record("l1", "answered-only", 1, "ann", "a")  # answers alone make nothing live
    store.set_state("l1", "old", "closed", 1, at=1000.0)
    store.set_state("l1", "q", "open", 1, at=5000.0)
    store.set_state("l1", "q", "closed", 2, at=6000.0)  # the last change counts
    store.set_state("l2", "q", "revealed", 1, at=6000.0)
    assert store.live("l1", since=2000.0) == {"q": ("closed", 2)}
    assert store.live("l1", since=0.0) == {"old": ("closed", 1), "q": ("closed", 2)}
    assert store.live("l1", since=6000.5) == {}
    assert store.live("l3", since=0.0) == {}
    store.set_state("l1", "old", "open", 2)  # now: live again
    assert store.live("l1", since=2000.0) == {"old": ("open", 2), "q": ("closed", 2)}


def test_a_file_from_before_live_votes_gets_the_column_and_no_live_question(tmp_path):
    import sqlite3

    db = tmp_path / "poll.sqlite"
    with sqlite3.connect(db) as old:  # the tables as the first version made them
        old.executescript("CREATE TABLE questions (lesson TEXT NOT NULL, question TEXT NOT NULL, "
                          "state TEXT NOT NULL, round INTEGER NOT NULL, PRIMARY KEY (lesson, question));"
                          "INSERT INTO questions VALUES ('l1', 'q', 'closed', 2);")
    old.close()
    store = Store(db)
    assert store.question("l1", "q") == ("closed", 2) and store.live("l1", since=0.0) == {"q": ("closed", 2)}
    assert store.live("l1", since=1.0) == {}
    store.set_state("l1", "q", "open", 3, at=10.0)
    assert store.live("l1", since=1.0) == {"q": ("open", 3)}


def test_lesson_counts_carry_no_user_names(tmp_path):
    store = Store(tmp_path / "poll.sqlite")
    for user, answer in [("ann", "a"), ("bob", "a"), ("cy", "b")]:
        store.record("l1", "q", 1, user, answer)
    store.record("l1", "r", 1, "ann", "0.3")
    store.set_state("l1", "q", "revealed", 1)
    rows = store.lesson_counts("l1")
    assert rows == [("q", 1, "revealed", "a", 2), ("q", 1, "revealed", "b", 1), ("r", 1, "open", "0.3", 1)]
    assert not {"ann", "bob", "cy"} & {str(x) for row in rows for x in row}


def test_forget_a_user_a_lesson_or_everything(tmp_path):
    store = Store(tmp_path / "poll.sqlite")
    for lesson in ("l1", "l2"):
        for user in ("ann", "bob"):
            store.record(lesson, "q", 1, user, "a")
        store.set_state(lesson, "q", "closed", 1)
    assert store.forget(user="ann") == 2
    assert store.counts("l1", "q") == {1: {"a": 1}} and store.question("l1", "q") == ("closed", 1)
    assert store.forget(lesson="l1") == 1
    assert store.counts("l1", "q") == {} and store.question("l1", "q") == ("open", 1)
    assert store.forget() == 1
    assert store.counts("l2", "q") == {} and store.question("l2", "q") == ("open", 1)


def test_an_acknowledged_answer_survives_a_killed_process(tmp_path):
    """The service acknowledges an answer after ``record`` returns; SIGKILL right after it
    (no close, no clean exit) must not lose it."""
    db = tmp_path / "poll.sqlite"
    code = (f"from evalteach.poll.store import Store\n"
            f"s = Store({str(db)!r})\n"
            "for i in range(50):\n"
            "    s.record('l1', 'q', 1, f'user{i}', str(i % 3))\n"
            "print('recorded', flush=True)\n"
            "import time; time.sleep(60)\n")
    child = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout.readline().strip() == "recorded"
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=30)
    finally:
        if child.poll() is None:
            child.kill()
        child.stdout.close()
    assert Store(db).counts("l1", "q") == {1: {"0": 17, "1": 17, "2": 16}}


def test_forget_from_the_command_line(tmp_path):
    db = tmp_path / "poll.sqlite"
    store = Store(db)
    for user in ("ann", "bob"):
        store.record("l1", "q", 1, user, "a")
    store.close()
    run = subprocess.run([sys.executable, "-m", "evalteach.poll", "--db", str(db), "forget", "--user", "ann"],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0 and run.stdout.strip() == f"deleted 1 answers from {db}"
    assert Store(db).counts("l1", "q") == {1: {"a": 1}}
    refused = subprocess.run([sys.executable, "-m", "evalteach.poll", "--db", str(db), "forget"],
                             capture_output=True, text=True, timeout=120)
    assert refused.returncode == 2 and "one of the arguments --user --lesson --all is required" in refused.stderr


def test_the_service_outside_a_hub_says_how_to_start_it(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith("JUPYTERHUB_")}
    run = subprocess.run([sys.executable, "-m", "evalteach.poll", "--db", str(tmp_path / "poll.sqlite")],
                         capture_output=True, text=True, timeout=120, env=env)
    assert run.returncode == 1 and "configure_hub" in run.stderr
