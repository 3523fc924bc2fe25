"""Logging: plain text for people, one JSON object a line for collectors (DOMINO_LOG_FORMAT).

Every line carries the ids of what it is about (request, table, game) from context
variables that the gateway and the services set. Anything shaped like a session token
is blanked before a line is written: a token in a log is a key left on the table.
"""

from __future__ import annotations

import logging
import logging.config
import re
from contextvars import ContextVar
from typing import Any, ClassVar

request_id: ContextVar[str | None] = ContextVar("request_id", default=None)
table_id: ContextVar[str | None] = ContextVar("table_id", default=None)
game_id: ContextVar[str | None] = ContextVar("game_id", default=None)

CONTEXT = {"request_id": request_id, "table_id": table_id, "game_id": game_id}

# Signed tokens (JWT: three base64url parts, the first a JSON header) and bearer headers.
_SECRETS = re.compile(r"eyJ[\w-]+\.[\w-]+\.[\w-]+|(?i:bearer\s+)\S+")


class ContextFilter(logging.Filter):
    """Adds the context ids to each record and blanks tokens in its message."""

    def filter(self, record: logging.LogRecord) -> bool:
        for name, var in CONTEXT.items():
            if not hasattr(record, name):
                setattr(record, name, var.get())
        message = record.getMessage()
        if _SECRETS.search(message):
            record.msg, record.args = _SECRETS.sub("[redacted]", message), ()
        return True


class PeerFaults(logging.Filter):
    """A client's malformed frame is the client's fault, not a failure of ours: uvicorn logs
    a text frame that is not UTF-8 (it closes the socket with 1007, rightly) as an error with
    a traceback, which anyone could then write once per socket. One line at info instead."""

    SAID: ClassVar[dict[str, str]] = {
        "Invalid UTF-8 sequence received from client.":
            "websocket closed (1007): a text frame was not valid UTF-8",
    }

    def filter(self, record: logging.LogRecord) -> bool:
        said = self.SAID.get(record.msg) if isinstance(record.msg, str) else None
        if said is not None:
            record.msg, record.args = said, ()
            record.exc_info, record.exc_text = None, None
            record.levelno, record.levelname = logging.INFO, "INFO"
        return True


class TextFormatter(logging.Formatter):
    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)s %(name)s: %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        line = super().format(record)
        ids = " ".join(
            f"{name}={value}" for name in CONTEXT if (value := getattr(record, name, None))
        )
        return f"{line} [{ids}]" if ids else line


def logging_config(fmt: str, level: str) -> dict[str, Any]:
    """A `logging.config.dictConfig` for our loggers and uvicorn's (also in its workers)."""
    formatter: dict[str, Any]
    if fmt == "json":
        formatter = {
            "()": "pythonjsonlogger.json.JsonFormatter",
            "fmt": "%(asctime)s %(levelname)s %(name)s %(message)s",
            "rename_fields": {"asctime": "time", "levelname": "level", "name": "logger"},
            "datefmt": "%Y-%m-%dT%H:%M:%S%z",
        }
    else:
        formatter = {"()": "app.logs.TextFormatter"}
    handler = {
        "class": "logging.StreamHandler",
        "formatter": "main",
        "filters": ["context"],
        "stream": "ext://sys.stderr",
    }
    config: dict[str, Any] = {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {"context": {"()": "app.logs.ContextFilter"},
                    "peer_faults": {"()": "app.logs.PeerFaults"}},
        "formatters": {"main": formatter},
        "handlers": {"main": handler},
        "root": {"handlers": ["main"], "level": level.upper()},
        "loggers": {
            # uvicorn's own loggers write through ours (no handlers of their own).
            name: {"handlers": [], "level": level.upper(), "propagate": True}
            for name in ("uvicorn", "uvicorn.error", "uvicorn.access")
        },
    }
    config["loggers"]["uvicorn.error"]["filters"] = ["peer_faults"]
    return config


def configure(fmt: str, level: str) -> None:
    logging.config.dictConfig(logging_config(fmt, level))
    # No line of ours names its source line, thread or process: they are not looked up for
    # every record (the logging HOWTO's "Optimization"; an access line a request).
    logging._srcfile = None  # type: ignore[attr-defined]
    logging.logThreads = False
    logging.logProcesses = False
    logging.logMultiprocessing = False
