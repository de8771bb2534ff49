"""The README's "Statistics reference" lists every public function of evalteach.stats, each with a source."""
import inspect
import re
from pathlib import Path

import evalteach.stats as stats

README = Path(__file__).resolve().parents[1] / "README.md"


def reference_section():
    text = README.read_text(encoding="utf-8")
    start = text.index("## Statistics reference")
    end = text.find("\n## ", start + 1)
    return text[start:end if end > 0 else None]


def public_functions():
    return [name for name in stats.__all__
            if callable(getattr(stats, name)) and not inspect.isclass(getattr(stats, name))]


def test_every_public_function_is_listed():
    section = reference_section()
    missing = [name for name in public_functions() if f"- `{name}(" not in section]
    assert missing == [], f"add these to the README's Statistics reference: {missing}"
    assert len(public_functions()) >= 45


def test_every_entry_names_a_source_with_a_year():
    entries = [line for line in reference_section().splitlines() if line.startswith("- `")]
    assert len(entries) >= len(public_functions())
    undated = [line for line in entries if not re.search(r"\b(1[89]|20)\d\d\b", line)]
    assert undated == []


def test_every_picture_is_listed():
    section = reference_section()
    drawn = [name for name in stats.__all__ if inspect.isclass(getattr(stats, name)) and hasattr(getattr(stats, name), "plot")]
    missing = [name for name in drawn if f"`{name}.plot(" not in section]
    assert missing == [], f"add these pictures to the README's Statistics reference: {missing}"


def test_entries_name_real_public_names():
    listed = set(re.findall(r"^- `(\w+)\(", reference_section(), flags=re.M))
    assert listed - set(stats.__all__) == set(), "the README lists names evalteach.stats does not export"
