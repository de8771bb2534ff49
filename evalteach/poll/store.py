"""The class poll's storage: one SQLite file, each answer committed before it is acknowledged.

Two tables. ``questions`` holds the state an instructor gave a question (``open``, ``closed``
or ``revealed``), its current round and when an instructor last changed it (which makes the
question *live*, :meth:`Store.live`); a question nobody has touched is open in round 1.
``answers`` holds one row per user, question and round: the user's latest answer in that
round. Nothing else about a student is kept (no times, no addresses).

The file is written in SQLite's write-ahead-log mode with ``synchronous=FULL``: a commit
is on disk before :meth:`Store.record` returns, so an answer that was acknowledged
survives the service being killed (SQLite, "Write-Ahead Logging" and "PRAGMA synchronous",
https://www.sqlite.org/wal.html, https://www.sqlite.org/pragma.html#pragma_synchronous).
"""
from __future__ import annotations

import sqlite3
import time
from pathlib import Path

__all__ = ["Store", "STATES"]

#: The states of a question, in the order a class goes through them.
STATES = ("open", "closed", "revealed")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS questions (
    lesson   TEXT NOT NULL,
    question TEXT NOT NULL,
    state    TEXT NOT NULL,
    round    INTEGER NOT NULL,
    changed  REAL NOT NULL DEFAULT 0,  -- seconds since 1970 of an instructor's last change
    PRIMARY KEY (lesson, question)
);
CREATE TABLE IF NOT EXISTS answers (
    lesson   TEXT NOT NULL,
    question TEXT NOT NULL,
    round    INTEGER NOT NULL,
    user     TEXT NOT NULL,
    answer   TEXT NOT NULL,
    PRIMARY KEY (lesson, question, round, user)
);
"""


class Store:
    """The answers and question states of every lesson, in one SQLite file.

    Parameters
    ----------
    path : str or pathlib.Path
        The database file; created (with its tables) when missing.

    Notes
    -----
    One connection, used from one thread (the service's event loop): SQLite serialises
    the writes, and every method commits before it returns.
    """

    def __init__(self, path):
        self.path = Path(path)
        self._db = sqlite3.connect(self.path)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.executescript(_SCHEMA)
        columns = {row[1] for row in self._db.execute("PRAGMA table_info(questions)")}
        if "changed" not in columns:  # a file from before live votes: its questions are not live
            with self._db:
                self._db.execute("ALTER TABLE questions ADD COLUMN changed REAL NOT NULL DEFAULT 0")

    def close(self):
        self._db.close()

    def question(self, lesson, question):
        """``(state, round)`` of a question; ``("open", 1)`` for one nobody has touched."""
        row = self._db.execute("SELECT state, round FROM questions WHERE lesson = ? AND question = ?",
                               (lesson, question)).fetchone()
        return ("open", 1) if row is None else (row[0], row[1])

    def set_state(self, lesson, question, state, round, at=None):
        """Give a question a state and a current round (the caller checks the rules); ``at``
        (default now, in seconds since 1970) is when an instructor did it."""
        at = time.time() if at is None else at
        with self._db:  # one transaction, committed on leaving
            self._db.execute(
                "INSERT INTO questions (lesson, question, state, round, changed) VALUES (?, ?, ?, ?, ?) "
                "ON CONFLICT (lesson, question) DO UPDATE SET state = excluded.state, "
                "round = excluded.round, changed = excluded.changed", (lesson, question, state, round, at))

    def live(self, lesson, since):
        """``{question: (state, round)}`` of the lesson's questions an instructor changed at or
        after ``since`` (seconds since 1970): the questions run live."""
        rows = self._db.execute("SELECT question, state, round FROM questions WHERE lesson = ? AND changed >= ? "
                                "ORDER BY question", (lesson, since))
        return {question: (state, round_) for question, state, round_ in rows}

    def record(self, lesson, question, round, user, answer):
        """Record ``user``'s answer for that round, replacing an earlier one; committed on return."""
        with self._db:  # one transaction, committed on leaving
            self._db.execute(
                "INSERT INTO answers (lesson, question, round, user, answer) VALUES (?, ?, ?, ?, ?) "
                "ON CONFLICT (lesson, question, round, user) DO UPDATE SET answer = excluded.answer",
                (lesson, question, round, user, answer))

    def counts(self, lesson, question):
        """``{round: {answer: count}}`` for every round that has answers."""
        rows = self._db.execute(
            "SELECT round, answer, COUNT(*) FROM answers WHERE lesson = ? AND question = ? "
            "GROUP BY round, answer ORDER BY round, answer", (lesson, question))
        counts = {}
        for round_, answer, count in rows:
            counts.setdefault(round_, {})[answer] = count
        return counts

    def lesson_counts(self, lesson):
        """Rows ``(question, round, state, answer, count)`` for every answered question of a
        lesson, without user names."""
        return self._db.execute(
            "SELECT a.question, a.round, COALESCE(q.state, 'open'), a.answer, COUNT(*) "
            "FROM answers AS a LEFT JOIN questions AS q ON q.lesson = a.lesson AND q.question = a.question "
            "WHERE a.lesson = ? GROUP BY a.question, a.round, a.answer "
            "ORDER BY a.question, a.round, a.answer", (lesson,)).fetchall()

    def forget(self, user=None, lesson=None):
        """Delete the answers of one user, of one lesson, or (with neither) everything.

        Returns the number of answers deleted. A lesson's question states go with it.
        """
        where, args = [], []
        if user is not None:
            where.append("user = ?")
            args.append(user)
        if lesson is not None:
            where.append("lesson = ?")
            args.append(lesson)
        clause = f" WHERE {' AND '.join(where)}" if where else ""
        with self._db:  # one transaction, committed on leaving
            deleted = self._db.execute(f"DELETE FROM answers{clause}", args).rowcount
            if user is None:
                self._db.execute(f"DELETE FROM questions{clause}", args)
        return deleted
