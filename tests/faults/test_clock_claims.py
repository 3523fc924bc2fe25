"""A turn's timeout claimed by a process that dies before applying it is applied by
another process within 2 s of that death (the claim is a 1.5 s lease in Redis).

The dying claimer is played by the test: at the deadline it claims the table's timeout
exactly as a process's clock does (`LiveStore.claim_deadlines`) and then never applies
it, as a process killed with SIGKILL in that moment would not.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from pathlib import Path

from app.live.store import LiveStore, connect
from tests.e2e.game import seat_players
from tests.servers import LOAD_LIMITS, run_server


async def test_a_timeout_claimed_by_a_dead_process_is_applied_by_another_within_2_s(
    pg_url: str, redis_url: str, redis_prefix: str, tmp_path: Path
) -> None:
    prefix = f"{redis_prefix}_claims_{secrets.token_hex(3)}"
    env = {"DOMINO_DATABASE_URL": pg_url, "DOMINO_REDIS_URL": redis_url,
           "DOMINO_REDIS_PREFIX": prefix, "DOMINO_SWEEP_SECONDS": "0.05", **LOAD_LIMITS}
    store = LiveStore(connect(redis_url), prefix)
    try:
        with run_server(env, log_dir=tmp_path) as first, \
                run_server(env, log_dir=tmp_path) as second:
            seated = await seat_players([first, second], turn_seconds=5)
            state = await seated.first_playing_state()
            deadline = state["view"]["deadline"]
            on_turn = state["view"]["turn"]
            # Just before the deadline the doomed process's clock claims it, and dies.
            await asyncio.sleep(max(0.0, (deadline - 150) / 1000 - time.time()))
            claimed = await store.claim_deadlines(deadline, lease_ms=1500)
            assert claimed == [seated.table_id]
            died = deadline / 1000
            timed_out = await seated.spectator.expect(
                lambda m: m["type"] == "table.state"
                and any(e["type"] == "timeout" for e in m["events"]), timeout=10)
            applied = time.time()
            assert [e["seat"] for e in timed_out["events"] if e["type"] == "timeout"] == [on_turn]
            # Not before the lease ran out (nobody else took a claimed timeout) ...
            assert applied >= died + 1.4
            # ... and within 2 s of the claimer's death.
            assert applied - died < 2.0
    finally:
        await store.close()
