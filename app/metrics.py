"""Prometheus metrics of one server process (prometheus-client), multi-process safe.

They are served on a listen port of their own (`DOMINO_METRICS_PORT`), never on the app's:
an operator's network reaches it, the public does not. With `domino serve --workers N`
every worker writes its samples to files in PROMETHEUS_MULTIPROC_DIR (the command sets one
up) and the command's own process serves them all added up. A scrape reads these values
only: what every process sees alike (tables in the store, the results backlog) is counted
in the store by a background census every few seconds (`app.services.tables.census`), however
often anyone scrapes.
"""

from __future__ import annotations

import os

from prometheus_client import (
    REGISTRY,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    disable_created_metrics,
    start_http_server,
)
from prometheus_client.multiprocess import MultiProcessCollector, mark_process_dead

MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"

# A `_created` series beside every counter only doubles what a scraper reads.
disable_created_metrics()

open_sockets = Gauge(
    "domino_open_sockets", "Websockets open now.", multiprocess_mode="livesum"
)
moves = Counter("domino_moves", "Tiles played (moves accepted).")
moves_relayed = Counter(
    "domino_moves_relayed",
    "Moves applied by the process holding their table, not the one their socket is on.",
)
move_seconds = Histogram(
    "domino_move_seconds",
    "Time from a play message to its answer, in seconds.",
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5),
)
timeouts = Counter("domino_timeouts", "Turns lost on time (applied by this process's clock).")
games_finished = Counter("domino_games_finished", "Games that ended (at this process).")
tables_restored = Counter(
    "domino_tables_restored", "Running games put back from their database snapshot."
)
rate_limited = Counter(
    "domino_rate_limited", "Requests and messages refused as too fast.", ["channel"]
)
for _channel in ("http", "ws"):
    rate_limited.labels(_channel)
tables = Gauge(
    "domino_tables", "Tables in the lobby index by status and variant (all processes).",
    ["status", "variant"], multiprocess_mode="livemostrecent",
)
census_time = Gauge(
    "domino_census_time_seconds", "When the tables and the backlog were last counted.",
    multiprocess_mode="livemostrecent",
)
results_backlog = Gauge(
    "domino_results_backlog", "Finished games not yet written to the database.",
    multiprocess_mode="livemostrecent",
)
redis_errors = Counter("domino_redis_errors", "Failed calls to the live store (Redis).")
database_errors = Counter("domino_database_errors", "Failed database calls.")


def count_error(error: BaseException) -> bool:
    """Count a failure of a backing service by the kind of exception; False for the others
    (ours: bugs, worth a traceback in the log)."""
    import redis.exceptions
    import sqlalchemy.exc

    if isinstance(error, redis.exceptions.RedisError):
        redis_errors.inc()
    elif isinstance(error, sqlalchemy.exc.SQLAlchemyError | OSError | TimeoutError):
        database_errors.inc()
    else:
        return False
    return True


def serve(host: str, port: int) -> None:
    """Serve the metrics at http://host:port/metrics from a thread of this process: its
    own, or every worker's added up (multi-process mode). Raises OSError if the port is
    taken."""
    registry: CollectorRegistry = REGISTRY
    if os.environ.get(MULTIPROC_ENV):
        registry = CollectorRegistry()
        MultiProcessCollector(registry)
    start_http_server(port, addr=host, registry=registry)


def process_stopped() -> None:
    """Drop this process's live gauges from the shared files (workers only)."""
    if os.environ.get(MULTIPROC_ENV):
        mark_process_dead(os.getpid())
