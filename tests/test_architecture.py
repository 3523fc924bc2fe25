"""DESIGN.md's layering, checked on every run: the import-linter contracts in pyproject.toml."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def test_layers_import_only_downward() -> None:
    lint = Path(sys.executable).parent / "lint-imports"
    done = subprocess.run(
        [str(lint), "--no-cache"], cwd=REPO, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_engine_uses_the_standard_library_only() -> None:
    """The engine imports nothing outside the standard library and itself."""
    engine = REPO / "app" / "engine"
    allowed = set(sys.stdlib_module_names) | {"app"}
    for path in engine.rglob("*.py"):
        for line in path.read_text().splitlines():
            words = line.split()
            if len(words) >= 2 and words[0] in ("import", "from") and not line.startswith(" "):
                top = words[1].split(".")[0]
                assert top in allowed, f"{path.name} imports {words[1]}"
