"""The events a game's moves cause (PROTOCOL §3): what the server sends to the seats."""

from __future__ import annotations

from typing import Any

Event = dict[str, Any]
