"""One `Settings` for the whole server, read from `DOMINO_*` environment variables."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

DEVELOPMENT_SECRET = "development-only-secret-change-me"


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="DOMINO_", extra="ignore")

    # "development" accepts the embedded secret; anything else demands a real one.
    mode: str = "development"
    database_url: str = f"sqlite+aiosqlite:///{Path.cwd() / 'domino.db'}"
    redis_url: str = ""  # empty: the in-process store
    redis_prefix: str = "domino"
    # At most this many Redis connections per process; a burst beyond it waits (up to the
    # timeout, in seconds) for a free one instead of failing.
    redis_pool_size: int = 64
    redis_pool_timeout: float = 10.0
    # A Redis command not answered within this many seconds fails, and the store counts as
    # away (an outage: moves are answered `unavailable`, the turn clocks wait for it),
    # whether Redis refuses connections or keeps them open and silent.
    redis_timeout_seconds: float = 2.0
    # The cost of a password hash (argon2id): passes, memory in KiB, lanes.
    password_time_cost: int = 3
    password_memory_kib: int = 65536
    password_lanes: int = 4
    # Python's cycle collector runs when this many more container objects were made than
    # freed (Python's default is 700; see app.collector). 0 leaves Python's default alone.
    gc_threshold: int = 50_000
    # Production refuses a Redis that would lose running games on restart (no AOF), unless
    # this says persistence is taken care of elsewhere (e.g. a replica that persists).
    redis_unpersisted_ok: bool = False
    # PROTOCOL §2a: how often sockets with table subscriptions get `table.heartbeat`.
    heartbeat_seconds: float = 10.0
    # How often each process looks for running games the live store lost, to restore them
    # from their database snapshots (it also looks at start and when a table goes missing).
    recover_seconds: float = 10.0
    # Browser origins allowed to open the websocket and make state-changing requests
    # besides the server's own (as the request's Host and scheme name it), comma-separated:
    # "https://domino.example,https://www.domino.example".
    allowed_origins: str = ""
    secret_key: str = DEVELOPMENT_SECRET
    token_seconds: int = 7 * 24 * 3600
    host: str = "127.0.0.1"
    port: int = 8000
    # Requests per second (and bursts) one client address may make to the HTTP API.
    api_rate: float = 50.0
    api_burst: float = 200.0
    auth_rate: float = 2.0
    auth_burst: float = 60.0
    # Websocket frames compressed (permessage-deflate) for clients that offer it, as
    # browsers do. A view then travels in a few dozen bytes instead of about 2 KB (each
    # differs little from the last), but every frame to every seat costs zlib, and every
    # socket a compressor: at 250 busy tables about 30 % more server CPU per move and 40
    # KiB more memory per socket (benchmarks/README.md). Off unless traffic is dearer.
    ws_compression: bool = False
    # How often each process looks for expired turn deadlines and unwritten results.
    sweep_seconds: float = 0.25
    # Computer players: the pause before a bot places a tile (so a table of bots looks
    # like people) and the strong bot's thinking time per move.
    bot_pace_seconds: float = 1.5
    bot_think_seconds: float = 0.5
    # Reviews of finished games (PROTOCOL §2f): "embedded" runs a review worker process
    # beside `domino serve` (a child process, never the one serving sockets), "off" leaves
    # them to `domino worker` processes started on their own; the search's playouts per
    # decision (app/bots/review.py's BUDGET unless set: tests review with fewer); how long
    # a worker holds a review without renewing its lease before another may take it; how
    # often an idle worker looks for work; the most reviews queued at once; and the
    # reviews one player may ask for per second, with a burst.
    review_worker: Literal["embedded", "off"] = "embedded"
    review_budget: int = 0
    review_lease_seconds: float = 30.0
    review_poll_seconds: float = 2.0
    review_queue_max: int = 1000
    review_rate: float = 0.01
    review_burst: float = 20.0
    # An arena tournament's minute, in seconds (tests run a "5-minute" arena in seconds).
    tournament_minute_seconds: float = 60.0
    # How long a seek ("Play now") waits for a table at most (PROTOCOL §2b: 10 minutes).
    seek_seconds: float = 600.0
    # A stopping server (SIGTERM) exits within this long, finished or not.
    shutdown_seconds: float = 10.0
    # "text" for people, "json" (one object a line) for log collectors.
    log_format: Literal["text", "json"] = "text"
    log_level: Literal["debug", "info", "warning", "error"] = "info"
    # The port of the Prometheus metrics listener (on `host`, beside the app's port, never
    # on it); 0: no metrics are served.
    metrics_port: int = 0
    # Limits (README "Security"): the largest HTTP request body, in bytes ...
    max_body_bytes: int = 64 * 1024
    # ... the proxies whose X-Forwarded-For names the client (addresses or networks,
    # comma-separated; empty: none, the peer is the client) ...
    trusted_proxies: str = ""
    # ... and rates (per second) with bursts, shared by all processes through Redis:
    # sign-ins at one account name from anywhere,
    signin_name_rate: float = 0.2
    signin_name_burst: float = 20.0
    # table commands (create, join, leave, bots, rematch) and table creation per player,
    player_rate: float = 10.0
    player_burst: float = 60.0
    create_rate: float = 0.2
    create_burst: float = 10.0
    # tournaments made per player and per client address (one an hour after a burst of
    # 10), and how many of his may be waiting or running at once,
    tournament_create_rate: float = 1 / 360
    tournament_create_burst: float = 10.0
    tournament_address_rate: float = 1 / 180
    tournament_address_burst: float = 20.0
    tournaments_open_max: int = 3
    # new websockets per client address,
    ws_connect_rate: float = 10.0
    ws_connect_burst: float = 100.0
    # websocket messages per socket (in its process's memory), per client address and
    # per player (all their sockets),
    ws_socket_rate: float = 30.0
    ws_socket_burst: float = 60.0
    ws_address_rate: float = 200.0
    ws_address_burst: float = 1000.0
    ws_player_rate: float = 60.0
    ws_player_burst: float = 300.0
    # chat messages per player.
    chat_rate: float = 1.0
    chat_burst: float = 10.0
    # Rated games the same two accounts may play together in 24 hours that pay (PROTOCOL §2g).
    daily_pair_games: int = 10
    # Caps: tables one player has made that wait for players, signed-in sockets per
    # player, how long a table may wait for players (seconds), and the most tables the
    # lobby lists (waiting ones first, newest first).
    max_waiting_tables: int = 3
    max_sockets_per_player: int = 8
    # Sockets not signed in (spectators) one client address may have open at once, on all
    # processes together.
    max_anon_sockets_per_address: int = 50
    waiting_table_seconds: float = 1800.0
    lobby_max_tables: int = 200

    @model_validator(mode="after")
    def _refuse_default_secret(self) -> Settings:
        if self.mode != "development" and self.secret_key == DEVELOPMENT_SECRET:
            raise ValueError("DOMINO_SECRET_KEY must be set outside development mode")
        return self

    @property
    def origins(self) -> tuple[str, ...]:
        return tuple(o.strip() for o in self.allowed_origins.split(",") if o.strip())

    @property
    def embedded_store(self) -> bool:
        return not self.redis_url


settings = Settings()
