"""Every document the project cites is in the repository (issue 26, item 7).

Someone who clones the repository must be able to read every rule that the code, the tests
and the docs point to. A citation is a file name ending in ``.md`` (``docs/teaching.md``,
``lessons/README.md``, ``INSTRUCTORS.md``, ``DESIGN.md``), outside a web address; it is
found relative to the citing file's folder or to the repository root.
"""
from __future__ import annotations

import re
from pathlib import Path

from conftest import ROOT

#: Where the project speaks: its code, tests, benchmarks, scripts, configuration, lessons and docs.
FOLDERS = ("evalteach", "tests", "benchmarks", "scripts", "apps", "binder", "lite", "jupyter-config",
           "lessons", "docs", ".ci")
TOP_LEVEL = ("README.md", "Makefile", "pyproject.toml")
SUFFIXES = {".py", ".md", ".ipynb", ".toml", ".json", ".txt", ".cfg", ""}
CITED = re.compile(r"(?<![\w./-])((?:\.\./)*[\w.-]+(?:/[\w.-]+)*\.md)\b")
WEB_ADDRESS = re.compile(r"\w+://\S+")


def citing_files():
    files = [ROOT / name for name in TOP_LEVEL]
    for folder in FOLDERS:
        files += [p for p in (ROOT / folder).rglob("*")
                  if p.is_file() and p.suffix in SUFFIXES and "__pycache__" not in p.parts]
    # this file names documents only as examples of what the search finds
    return sorted(set(files) - {Path(__file__).resolve()})


def citations(text):
    """The ``.md`` names ``text`` cites, with their line numbers."""
    for number, line in enumerate(text.splitlines(), 1):
        for name in CITED.findall(WEB_ADDRESS.sub(" ", line)):
            yield number, name


def test_every_cited_document_is_in_the_repository():
    missing, found = {}, set()
    for path in citing_files():
        for number, name in citations(path.read_text(encoding="utf-8", errors="replace")):
            found.add(name)
            if not ((path.parent / name).is_file() or (ROOT / name).is_file()):
                missing[f"{path.relative_to(ROOT)}:{number} cites {name}"] = None
    assert not missing, "cited but not in the repository:\n" + "\n".join(missing)
    # the search finds the project's own docs where the tests and the README cite them
    assert {"docs/teaching.md", "docs/architecture.md", "lessons/README.md"} <= found


def test_the_search_finds_citations_and_skips_web_addresses():
    text = ('See DESIGN.md, "Widgets"; TEACHING.md\'s rules and [the list](../lessons/README.md).\n'
            "https://github.com/x/y/blob/main/CHANGES.md is a web page, notes.mdx no document.")
    assert [name for _, name in citations(text)] == ["DESIGN.md", "TEACHING.md", "../lessons/README.md"]
