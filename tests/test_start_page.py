"""The start page (`lessons/00_start_here.ipynb`), which `make lab` opens first, and the times.

It lists every lesson once, in teaching order, with the time the lesson itself states
(*Time: about N minutes.*), as do the table in ``lessons/README.md`` and the instructor guide
``lessons/INSTRUCTORS.md``; the lecture blocks they name give the sum of their lessons' times.
So renumbering or retiming a lesson cannot leave any of them stale.
"""
from __future__ import annotations

import re

import nbformat

from conftest import LESSONS, LESSONS_DIR, ROOT, START_PAGE

GUIDE = ROOT / "lessons/INSTRUCTORS.md"

ROW = re.compile(r"^\| (\d+) \| \[[^\]]+\]\(([^)]+\.ipynb)\) \| (\d+) min \|", re.M)
STATED = re.compile(r"\*Time: about (\d+) minutes\.\*")
# "lessons 1–4 (error estimates and intervals, 92 min)" in the lists; a table row in the guide
BLOCK = re.compile(r"(\d+)–(\d+)\s\([^()]+,\s(\d+)\smin\)")
GUIDE_BLOCK = re.compile(r"^\| \d+ \| (\d+)–(\d+) \| [^|]+ \| (\d+) min \|", re.M)
GUIDE_LESSON = re.compile(r"^### (\d+)\. \[[^\]]+\]\(([^)]+\.ipynb)\)\n\n(?:.+\n)+?\n\*\*Timing\.\*\* About (\d+) minutes",
                          re.M)


def rows(text):
    return [(int(n), file, int(minutes)) for n, file, minutes in ROW.findall(text)]


def start_page_text():
    return "\n".join(c.source for c in nbformat.read(START_PAGE, as_version=4).cells)


def stated_minutes(path):
    """The time a lesson states under its objectives."""
    text = "\n".join(c.source for c in nbformat.read(path, as_version=4).cells if c.cell_type == "markdown")
    found = STATED.findall(text)
    assert len(found) == 1, f"{path.name}: state the time once, as '*Time: about N minutes.*' ({found})"
    return int(found[0])


def test_start_page_is_a_valid_notebook_to_read():
    nb = nbformat.read(START_PAGE, as_version=4)
    nbformat.validate(nb)
    assert all(c.cell_type == "markdown" for c in nb.cells)
    assert nb.cells[0].source.startswith("# Start here")


def test_start_page_lists_every_lesson_in_order_with_its_time():
    listed = rows(start_page_text())
    assert [file for _, file, _ in listed] == [p.name for p in LESSONS]
    assert [n for n, _, _ in listed] == [int(p.name[:2]) for p in LESSONS]
    instructors = {file: minutes for _, file, minutes in rows((LESSONS_DIR / "README.md").read_text())}
    assert {file: minutes for _, file, minutes in listed} == instructors


def test_every_list_gives_each_lesson_the_time_it_states():
    stated = {p.name: stated_minutes(p) for p in LESSONS}
    readme = {file: minutes for _, file, minutes in rows((LESSONS_DIR / "README.md").read_text())}
    assert readme == stated, "lessons/README.md's table (and /work/tools/lesson_table.py)"
    guide = GUIDE_LESSON.findall(GUIDE.read_text())
    assert [(int(n), file) for n, file, _ in guide] == [(int(p.name[:2]), p.name) for p in LESSONS]
    assert {file: int(minutes) for _, file, minutes in guide} == stated, "the guide's **Timing.**"


def test_lecture_blocks_cover_the_lessons_in_order_and_add_up():
    minutes = {int(p.name[:2]): stated_minutes(p) for p in LESSONS}
    readme = (LESSONS_DIR / "README.md").read_text()
    for where, blocks in (("lessons/README.md", BLOCK.findall(readme)),
                          ("the start page", BLOCK.findall(start_page_text())),
                          ("lessons/INSTRUCTORS.md", GUIDE_BLOCK.findall(GUIDE.read_text()))):
        blocks = [(int(first), int(last), int(total)) for first, last, total in blocks]
        assert [first for first, _, _ in blocks] == [1] + [last + 1 for _, last, _ in blocks[:-1]], where
        assert blocks[-1][1] == max(minutes), where
        for first, last, total in blocks:
            assert total == sum(minutes[n] for n in range(first, last + 1)), f"{where}: lessons {first}-{last}"


def test_start_page_says_how_to_run_and_where_to_get_help():
    text = start_page_text()
    for heading in ("## How to run a lesson", "## The lessons", "## Getting help"):
        assert heading in text
