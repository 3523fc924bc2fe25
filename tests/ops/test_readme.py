"""The README's settings table names every DOMINO_* setting, and only real ones."""

from __future__ import annotations

import re

from app.config import Settings
from tests.servers import REPO


def test_the_settings_table_has_one_row_per_setting() -> None:
    text = (REPO / "README.md").read_text()
    section = text[text.index("## Configuration") :]
    section = section[: section.index("\n## ", 1)]
    rows = re.findall(r"^\| `(DOMINO_\w+)` \| ([^|]+) \| ([^|]+) \|$", section, re.MULTILINE)
    names = [name for name, _, _ in rows]
    assert len(names) == len(set(names))
    expected = {f"DOMINO_{field.upper()}" for field in Settings.model_fields}
    assert set(names) == expected, (
        f"missing: {sorted(expected - set(names))}, unknown: {sorted(set(names) - expected)}"
    )
    assert all(default.strip() and meaning.strip() for _, default, meaning in rows)
