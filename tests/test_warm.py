"""The suite's warm server start (tests/warm.py) runs what a fresh interpreter would."""

from __future__ import annotations

import os
from pathlib import Path

from tests.warm import fork_server

# Stands in for `app.cli`: says which `app` it is and where its arguments went, and exits.
FAKE_CLI = """
import json, os, sys
from pathlib import Path
Path(os.environ["SAID"]).write_text(json.dumps({"file": __file__, "argv": sys.argv[1:]}))
"""


def test_a_forked_server_imports_app_from_its_own_pythonpath(tmp_path: Path) -> None:
    """A benchmark runs the server of another checkout by its PYTHONPATH (`--source`):
    the forked child must import that checkout's `app`, not the one in its directory."""
    other = tmp_path / "other checkout"
    (other / "app").mkdir(parents=True)
    (other / "app" / "__init__.py").write_text("")
    (other / "app" / "cli.py").write_text(FAKE_CLI)
    said = tmp_path / "said.json"
    env = {**os.environ, "PYTHONPATH": str(other), "SAID": str(said)}
    child = fork_server(["serve", "--workers", "1"], env, Path.cwd(), tmp_path / "log")
    assert child.wait(timeout=60) == 0, (tmp_path / "log").read_text()
    told = said.read_text()
    assert str(other / "app" / "cli.py") in told, told
    assert '"serve"' in told
