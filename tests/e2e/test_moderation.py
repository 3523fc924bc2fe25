"""Reports and moderation (PROTOCOL §2h), on two processes: a report handled by a moderator
through to the audit log; a suspended player's sockets closed on the other process and his
sign-in refused with the reason; a mute refusing chat; a rename; rating gains removed;
403 for whoever is not a moderator; the operator's command granting the role."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys

import httpx

from tests.e2e.client import Account, Player, register
from tests.e2e.test_people_account import PASSWORD, _finished_game, _written
from tests.servers import REPO, Server


def _domino_moderator(pg_url: str, name: str, *extra: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "DOMINO_DATABASE_URL": pg_url}
    return subprocess.run([sys.executable, "-m", "app.cli", "moderator", name, *extra],
                          cwd=REPO, env=env, capture_output=True, text=True, timeout=60)


async def _moderator(http: httpx.AsyncClient, pg_url: str) -> Account:
    mod = await register(http)
    done = await asyncio.to_thread(_domino_moderator, pg_url, mod.name)
    assert done.returncode == 0, done.stderr
    assert f"{mod.name} is a moderator" in done.stdout
    return mod


async def _closed(player: Player) -> int | None:
    for _ in range(100):
        if player.closed is not None:
            return player.closed
        await asyncio.sleep(0.05)
    return player.closed


async def _login(http: httpx.AsyncClient, name: str, lang: str = "en") -> httpx.Response:
    return await http.post("/api/auth/login", json={"username": name, "password": PASSWORD},
                           headers={"Accept-Language": lang})


async def test_a_report_is_handled_to_the_audit_log_and_a_suspended_player_is_refused(
    server_pair: tuple[Server, Server], pg_url: str,
) -> None:
    first, second = server_pair
    async with httpx.AsyncClient(base_url=first.url, timeout=30) as a, \
            httpx.AsyncClient(base_url=second.url, timeout=30) as b:
        reporter, offender = await register(a), await register(b)
        mod = await register(a)
        # not a moderator yet: every moderators' route is 403, and changes nothing
        assert (await a.get("/api/mod/reports", headers=mod.headers)).status_code == 403
        done = await asyncio.to_thread(_domino_moderator, pg_url, mod.name)
        assert done.returncode == 0, done.stderr
        assert (await b.get("/api/me", headers=mod.headers)).json()["moderator"] is True
        assert "moderator" not in (await b.get("/api/me", headers=reporter.headers)).json()

        # the report: bounded, one open per reporter, player and reason, never oneself
        said = {"name": offender.name, "reason": "abuse", "text": "insults at the table"}
        made = await a.post("/api/reports", headers=reporter.headers, json=said)
        assert made.status_code == 201, made.text
        report = made.json()
        assert report["status"] == "open" and report["name"] == offender.name
        again = await b.post("/api/reports", headers=reporter.headers, json=said)
        assert again.status_code == 200 and again.json()["id"] == report["id"]
        assert (await a.post("/api/reports", headers=reporter.headers,
                             json={**said, "name": reporter.name})).status_code == 409
        assert (await a.post("/api/reports", headers=reporter.headers,
                             json={**said, "reason": "rude"})).status_code == 422
        assert (await a.post("/api/reports", headers=reporter.headers,
                             json={**said, "text": "x" * 1001})).status_code == 422
        assert (await a.post("/api/reports", headers=reporter.headers,
                             json={**said, "game_id": "no-such-game"})).status_code == 404

        # the moderator sees it, on the other process, and pages through the queue
        listed = (await b.get("/api/mod/reports?limit=100", headers=mod.headers)).json()
        mine = [r for r in listed["reports"] if r["id"] == report["id"]]
        assert mine and mine[0]["reporter"] == reporter.name
        assert (await b.get("/api/mod/reports?limit=0", headers=mod.headers)).status_code == 422
        # another reason is another report; the queue about him pages, oldest first
        other = await b.post("/api/reports", headers=reporter.headers,
                             json={"name": offender.name, "reason": "name"})
        assert other.status_code == 201
        pages = [(await a.get(f"/api/mod/reports?name={offender.name}&limit=1&offset={at}",
                              headers=mod.headers)).json() for at in (0, 1, 2)]
        assert [p["total"] for p in pages] == [2, 2, 2]
        assert [[r["id"] for r in p["reports"]] for p in pages] \
            == [[report["id"]], [other.json()["id"]], []]
        # five reports at once, then one a minute: the budget holds across the processes
        spent = await a.post("/api/reports", headers=reporter.headers,
                             json={"name": mod.name, "reason": "other"})
        assert spent.status_code == 429 and int(spent.headers["Retry-After"]) > 0
        # the others cannot read it nor act
        for path in ("/api/mod/reports", f"/api/mod/players/{offender.name}", "/api/mod/log"):
            assert (await a.get(path, headers=reporter.headers)).status_code == 403
        refused = await a.post(f"/api/mod/players/{offender.name}/actions",
                               headers=reporter.headers,
                               json={"action": "suspend", "reason": "because"})
        assert refused.status_code == 403

        socket = await Player(second.ws_url, offender).connect()
        # every action needs a reason
        bare = await a.post(f"/api/mod/players/{offender.name}/actions", headers=mod.headers,
                            json={"action": "suspend", "reason": "  "})
        assert bare.status_code == 422
        acted = await a.post(f"/api/mod/players/{offender.name}/actions", headers=mod.headers,
                             json={"action": "suspend", "reason": "insults in chat",
                                   "days": 3, "report_id": report["id"]})
        assert acted.status_code == 200, acted.text
        entry = acted.json()["entry"]
        assert (entry["action"], entry["moderator"], entry["player"], entry["reason"],
                entry["report_id"]) == ("suspend", mod.name, offender.name, "insults in chat",
                                        report["id"])
        assert acted.json()["player"]["suspended"]["reason"] == "insults in chat"

        # his socket on the other process is closed, his token refused on both
        assert await _closed(socket) == 4401
        for http in (a, b):
            assert (await http.get("/api/me", headers=offender.headers)).status_code == 401
        # and signing in is refused with the reason, in the reader's language
        for http in (a, b):
            login = await _login(http, offender.name, "ru")
            assert login.status_code == 403, login.text
            assert "заблокирован" in login.json()["detail"]
            assert "insults in chat" in login.json()["detail"]
            assert login.json()["suspended"]["reason"] == "insults in chat"
            assert login.json()["suspended"]["until"] > 0

        # the report is closed by the action; the audit log has the line
        still = (await b.get("/api/mod/reports?limit=100", headers=mod.headers)).json()
        assert report["id"] not in [r["id"] for r in still["reports"]]
        closed = (await b.get("/api/mod/reports?status=closed&limit=100",
                              headers=mod.headers)).json()
        assert report["id"] in [r["id"] for r in closed["reports"]]
        log = (await b.get(f"/api/mod/log?name={offender.name}", headers=mod.headers)).json()
        assert log["entries"][0]["id"] == entry["id"]
        # a closed report is not closed twice
        twice = await a.post(f"/api/mod/reports/{report['id']}/close", headers=mod.headers,
                             json={"reason": "done"})
        assert twice.status_code == 409

        # lifted: he signs in again
        lifted = await b.post(f"/api/mod/players/{offender.name}/actions",
                              headers=mod.headers,
                              json={"action": "unsuspend", "reason": "served"})
        assert lifted.status_code == 200 and lifted.json()["player"]["suspended"] is None
        assert (await _login(a, offender.name)).status_code == 200

        # a moderator does not act on himself; the operator takes the role back
        myself = await a.post(f"/api/mod/players/{mod.name}/actions", headers=mod.headers,
                              json={"action": "warn", "reason": "x"})
        assert myself.status_code == 409
        done = await asyncio.to_thread(_domino_moderator, pg_url, mod.name, "--revoke")
        assert done.returncode == 0, done.stderr
        assert (await b.get("/api/mod/reports", headers=mod.headers)).status_code == 403
        unknown = await asyncio.to_thread(_domino_moderator, pg_url, "nobody_at_all")
        assert unknown.returncode == 1


async def test_warn_mute_and_rename_reach_the_player_on_every_process(
    server_pair: tuple[Server, Server], pg_url: str,
) -> None:
    first, second = server_pair
    async with httpx.AsyncClient(base_url=first.url, timeout=30) as a, \
            httpx.AsyncClient(base_url=second.url, timeout=30) as b:
        talker, other = await register(a), await register(b)
        mod = await _moderator(a, pg_url)
        made = await a.post("/api/tables", headers=talker.headers,
                            json={"variant": "goat", "seats": 2, "rated": False})
        table_id = made.json()["id"]
        near, far = (await Player(first.ws_url, talker).connect(),
                     await Player(second.ws_url, talker).connect())
        said = await far.request({"type": "chat", "table_id": table_id, "text": "hello all"})
        assert said["type"] == "chat", said

        # the moderators' page shows the line, kept from his table
        file = (await a.get(f"/api/mod/players/{talker.name}", headers=mod.headers)).json()
        lines = [line for table in file["chat"] if table["table_id"] == table_id
                 for line in table["lines"]]
        assert [(line["name"], line["text"]) for line in lines] == [(talker.name, "hello all")]

        act = f"/api/mod/players/{talker.name}/actions"
        warned = await b.post(act, headers=mod.headers, json={"action": "warn",
                                                              "reason": "mind your words"})
        assert warned.status_code == 200, warned.text
        for socket in (near, far):
            notice = await socket.expect(lambda m: m["type"] == "moderation.notice")
            assert (notice["action"], notice["reason"]) == ("warn", "mind your words")
            assert notice["entry"] == warned.json()["entry"]["id"]
        # kept until he has read it (on another process too)
        unread = (await a.get("/api/me/notices", headers=talker.headers)).json()["notices"]
        assert [(n["action"], n["entry"]) for n in unread] == [("warn", notice["entry"])]
        assert (await b.post("/api/me/notices/seen", headers=talker.headers,
                             json={"entry": notice["entry"]})).status_code == 204
        assert (await a.get("/api/me/notices", headers=talker.headers)).json() \
            == {"notices": []}

        assert (await b.post(act, headers=mod.headers,
                             json={"action": "mute", "reason": "spam"})).status_code == 422
        muted = await b.post(act, headers=mod.headers,
                             json={"action": "mute", "reason": "spam", "minutes": 10})
        assert muted.status_code == 200, muted.text
        for socket in (near, far):
            refused = await socket.request({"type": "chat", "table_id": table_id,
                                            "text": "more"})
            assert refused["type"] == "error" and refused["code"] == "muted", refused
            assert 0 < refused["retry_ms"] <= 600_000
            assert "muted" in refused["message"]
        unmuted = await a.post(act, headers=mod.headers,
                               json={"action": "unmute", "reason": "fine now"})
        assert unmuted.status_code == 200
        assert (await near.request({"type": "chat", "table_id": table_id,
                                    "text": "thanks"}))["type"] == "chat"
        # nothing left to lift: refused, and no line in the audit log
        lines_before = (await a.get(f"/api/mod/log?name={talker.name}",
                                    headers=mod.headers)).json()["entries"]
        for lift in ("unmute", "unsuspend"):
            assert (await a.post(act, headers=mod.headers,
                                 json={"action": lift, "reason": "x"})).status_code == 409
        assert (await b.get(f"/api/mod/log?name={talker.name}",
                            headers=mod.headers)).json()["entries"] == lines_before

        # rename: the naming rules and uniqueness hold; his sessions end everywhere
        assert (await a.post(act, headers=mod.headers, json={
            "action": "rename", "reason": "offensive", "name": other.name.upper()})
                ).status_code == 409
        assert (await a.post(act, headers=mod.headers, json={
            "action": "rename", "reason": "offensive", "name": "S\u0430sha1"})).status_code == 422
        new_name = f"r{talker.name[1:]}"
        renamed = await a.post(act, headers=mod.headers, json={
            "action": "rename", "reason": "offensive", "name": new_name})
        assert renamed.status_code == 200, renamed.text
        assert renamed.json()["entry"]["details"] == {"from": talker.name, "to": new_name}
        notice = await far.expect(lambda m: m["type"] == "moderation.notice"
                                  and m["action"] == "rename")
        assert notice["name"] == new_name
        assert await _closed(near) == 4401 and await _closed(far) == 4401
        old = await _login(b, talker.name)
        assert old.status_code == 403 and old.json()["renamed"]["name"] == new_name
        assert (await _login(b, new_name)).status_code == 200
        # the old name stays taken
        assert (await a.post("/api/auth/register", json={
            "username": talker.name, "password": PASSWORD})).status_code == 409
        assert (await a.get(f"/api/players/{new_name}")).status_code == 200

        # a moderator cannot act on another moderator
        other_mod = await _moderator(b, pg_url)
        on_mod = await a.post(f"/api/mod/players/{other_mod.name}/actions",
                              headers=mod.headers, json={"action": "warn", "reason": "x"})
        assert on_mod.status_code == 403


async def test_removed_rating_gains_are_the_sum_of_the_removed_games_deltas(
    server_pair: tuple[Server, Server], pg_url: str,
) -> None:
    first, second = server_pair
    async with httpx.AsyncClient(base_url=first.url, timeout=30) as a, \
            httpx.AsyncClient(base_url=second.url, timeout=30) as b:
        loser, farmer = await register(a), await register(b)
        mod = await _moderator(a, pg_url)
        game_ids = []
        for _ in range(2):
            game_id, table_id = await _finished_game(a, b, loser, farmer)
            assert (await a.post(f"/api/tables/{table_id}/leave",
                                 headers=loser.headers)).status_code == 200
            game_ids.append(game_id)
        records = [await _written(b, g) for g in game_ids]
        seat = [r["players"].index(farmer.name) for r in records]
        gained = sum(int(r["result"]["rating"][s]) for r, s in zip(records, seat, strict=True))
        assert gained > 0
        before = (await b.get("/api/me", headers=farmer.headers)).json()["ratings"]["goat"]

        removed = await a.post(f"/api/mod/players/{farmer.name}/actions", headers=mod.headers,
                               json={"action": "remove_gains", "reason": "farming",
                                     "game_ids": game_ids})
        assert removed.status_code == 200, removed.text
        details = removed.json()["entry"]["details"]
        assert details["points"] == {"goat": gained}
        assert sorted(g["game_id"] for g in details["games"]) == sorted(game_ids)
        after = (await b.get("/api/me", headers=farmer.headers)).json()["ratings"]["goat"]
        assert after["points"] == before["points"] - gained
        assert abs(after["skill"] - (before["skill"] - details["skill"]["goat"])) < 0.2
        assert details["skill"]["goat"] > 0
        # the leaderboard reads the same row; the games show nothing paid now
        board = (await a.get("/api/leaderboard?variant=goat&limit=100")).json()
        shown = [e for e in board["entries"] if e["player"] == farmer.name]
        assert shown and shown[0]["points"] == after["points"]
        file = (await a.get(f"/api/mod/players/{farmer.name}", headers=mod.headers)).json()
        for game in file["recent_games"]:
            assert game["gains_removed"] and game["points"] == 0
        # told at his next visit, though no socket of his was open
        unread = (await b.get("/api/me/notices", headers=farmer.headers)).json()["notices"]
        assert [(n["action"], n["reason"]) for n in unread] == [("remove_gains", "farming")]
        # removed once only
        again = await a.post(f"/api/mod/players/{farmer.name}/actions", headers=mod.headers,
                             json={"action": "remove_gains", "reason": "farming",
                                   "since": 0})
        assert again.status_code == 409
