"""The start page (`lessons/00_start_here.ipynb`), which `make lab` opens first.

It lists every lesson once, in teaching order, with the same time as the instructors'
table in ``lessons/README.md``, so renumbering or retiming a lesson cannot leave it stale.
"""
from __future__ import annotations

import re

import nbformat

from conftest import LESSONS, LESSONS_DIR, START_PAGE

ROW = re.compile(r"^\| (\d+) \| \[[^\]]+\]\(([^)]+\.ipynb)\) \| (\d+) min \|", re.M)


def rows(text):
    return [(int(n), file, int(minutes)) for n, file, minutes in ROW.findall(text)]


def test_start_page_is_a_valid_notebook_to_read():
    nb = nbformat.read(START_PAGE, as_version=4)
    nbformat.validate(nb)
    assert all(c.cell_type == "markdown" for c in nb.cells)
    assert nb.cells[0].source.startswith("# Start here")


def test_start_page_lists_every_lesson_in_order_with_its_time():
    listed = rows("\n".join(c.source for c in nbformat.read(START_PAGE, as_version=4).cells))
    assert [file for _, file, _ in listed] == [p.name for p in LESSONS]
    assert [n for n, _, _ in listed] == [int(p.name[:2]) for p in LESSONS]
    instructors = {file: minutes for _, file, minutes in rows((LESSONS_DIR / "README.md").read_text())}
    assert {file: minutes for _, file, minutes in listed} == instructors


def test_start_page_says_how_to_run_and_where_to_get_help():
    text = "\n".join(c.source for c in nbformat.read(START_PAGE, as_version=4).cells)
    for heading in ("## How to run a lesson", "## The lessons", "## Getting help"):
        assert heading in text
