"""Settings: the embedded secret key is for development only."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from pydantic import ValidationError

from app.config import DEVELOPMENT_SECRET, Settings
from tests.servers import REPO


def test_default_secret_is_refused_outside_development():
    with pytest.raises(ValidationError, match="DOMINO_SECRET_KEY"):
        Settings(mode="production")
    with pytest.raises(ValidationError, match="DOMINO_SECRET_KEY"):
        Settings(mode="production", secret_key=DEVELOPMENT_SECRET)


def test_a_real_secret_is_accepted_and_development_keeps_the_default():
    assert Settings(mode="production", secret_key="s3cret-from-the-vault").secret_key
    assert Settings(mode="development").secret_key == DEVELOPMENT_SECRET


def test_the_server_does_not_start_in_production_with_the_default_secret(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "DOMINO_SECRET_KEY"}
    env |= {
        "DOMINO_MODE": "production",
        "DOMINO_DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path}/x.db",
    }
    done = subprocess.run(
        [sys.executable, "-m", "app.cli", "migrate"],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode != 0
    assert "DOMINO_SECRET_KEY must be set" in done.stderr
