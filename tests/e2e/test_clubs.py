"""Clubs (PROTOCOL §2e) on two server processes: made, found page by page, joined (open at
once, closed by a request or an invitation), roles given and taken, members removed, left;
every refusal (403, 404, 409, 422) changes nothing. Club tournaments are for members only."""

from __future__ import annotations

import asyncio
import secrets

import httpx

from tests.e2e.client import Account, register
from tests.servers import Server


def _name(prefix: str) -> str:
    return f"{prefix} {secrets.token_hex(4)}"


async def _club(http: httpx.AsyncClient, owner: Account, *, open_: bool,
                name: str | None = None) -> dict:
    made = await http.post("/api/clubs", headers=owner.headers, json={
        "name": name or _name("Courtyard"), "description": "Evenings by the garages",
        "open": open_})
    assert made.status_code == 201, made.text
    return dict(made.json())


async def test_club_roles_requests_invitations_and_refusals(
    server_pair: tuple[Server, Server],
) -> None:
    one = httpx.AsyncClient(base_url=server_pair[0].url, timeout=30)
    two = httpx.AsyncClient(base_url=server_pair[1].url, timeout=30)
    async with one, two:
        owner, alice, bob, carol, dave = [await register((one, two)[i % 2]) for i in range(5)]
        name = _name("Courtyard")
        club = await _club(one, owner, open_=False, name=name)
        assert club["owner"] == owner.name and club["members"] == 1
        assert club["admins"] == [] and club["open"] is False
        cid = club["id"]
        url = f"/api/clubs/{cid}"
        # names: 3-40 once cleaned, unique in any case
        for bad in ("ab", "  x\u200b  ", "y" * 41):
            r = await two.post("/api/clubs", headers=alice.headers,
                               json={"name": bad, "open": True})
            assert r.status_code == 422, (bad, r.text)
        again = await two.post("/api/clubs", headers=alice.headers,
                               json={"name": name.upper(), "open": True})
        assert again.status_code == 409
        # at most three owned
        for _ in range(2):
            await _club(two, owner, open_=True)
        fourth = await one.post("/api/clubs", headers=owner.headers,
                                json={"name": _name("Fourth"), "open": True})
        assert fourth.status_code == 409, fourth.text

        # found by any case of part of its name, page by page
        part = name.split()[1].upper()
        found = (await two.get(f"/api/clubs?q={part}")).json()
        assert found["total"] == 1 and found["clubs"][0]["id"] == cid
        listed = (await one.get("/api/clubs?limit=1&offset=1")).json()
        assert len(listed["clubs"]) == 1 and listed["total"] >= 3
        for bad in ("limit=0", "limit=101", "offset=-1"):
            assert (await one.get(f"/api/clubs?{bad}")).status_code == 422

        # a closed club: a request, which only an admin sees and answers
        asked = await two.post(f"{url}/join", headers=alice.headers)
        assert asked.status_code == 200 and asked.json() == {"status": "requested"}
        page = (await one.get(url, headers=alice.headers)).json()
        assert page["you"] == {"role": None, "requested": True, "invited": False}
        assert page["members"] == 1
        assert (await one.get(f"{url}/requests", headers=alice.headers)).status_code == 403
        assert (await two.post(f"{url}/invite", headers=alice.headers,
                               json={"name": bob.name})).status_code == 403
        requests = (await two.get(f"{url}/requests", headers=owner.headers)).json()
        assert requests == {"total": 1, "names": [alice.name]}
        accepted = await two.post(f"{url}/requests/{alice.name}", headers=owner.headers)
        assert accepted.status_code == 200 and accepted.json()["role"] == "member"
        assert (await one.post(f"{url}/requests/{alice.name}", headers=owner.headers)
                ).status_code == 404
        assert (await one.post(f"{url}/join", headers=alice.headers)).status_code == 409
        # refused: carol's request goes, and she is no member
        await one.post(f"{url}/join", headers=carol.headers)
        assert (await two.delete(f"{url}/requests/{carol.name}", headers=alice.headers)
                ).status_code == 403
        assert (await two.delete(f"{url}/requests/{carol.name}", headers=owner.headers)
                ).status_code == 204
        assert (await one.get(url, headers=carol.headers)).json()["you"] == {
            "role": None, "requested": False, "invited": False}
        # an invitation: his join makes him a member at once
        invited = await one.post(f"{url}/invite", headers=owner.headers, json={"name": bob.name})
        assert invited.status_code == 201 and invited.json() == {"status": "invited"}
        assert (await two.get(url, headers=bob.headers)).json()["you"]["invited"] is True
        joined = await two.post(f"{url}/join", headers=bob.headers)
        assert joined.json() == {"status": "member"}
        assert (await one.post(f"{url}/invite", headers=owner.headers,
                               json={"name": bob.name})).status_code == 409
        assert (await one.post(f"{url}/invite", headers=owner.headers,
                               json={"name": "nobody_" + secrets.token_hex(3)})
                ).status_code == 404

        # roles: the owner's alone to give
        assert (await two.post(f"{url}/members/{bob.name}", headers=alice.headers,
                               json={"role": "admin"})).status_code == 403
        promoted = await one.post(f"{url}/members/{alice.name}", headers=owner.headers,
                                  json={"role": "admin"})
        assert promoted.status_code == 200 and promoted.json()["role"] == "admin"
        assert (await two.post(f"{url}/members/{owner.name}", headers=owner.headers,
                               json={"role": "member"})).status_code == 409
        assert (await two.post(f"{url}/members/{carol.name}", headers=owner.headers,
                               json={"role": "admin"})).status_code == 404
        assert (await two.post(f"{url}/members/{bob.name}", headers=owner.headers,
                               json={"role": "owner"})).status_code == 422
        page = (await two.get(url)).json()
        assert page["admins"] == [alice.name] and page["members"] == 3 and page["you"] is None
        members = (await one.get(f"{url}/members?limit=2")).json()
        assert members["total"] == 3
        assert members["members"] == [{"name": owner.name, "role": "owner"},
                                      {"name": alice.name, "role": "admin"}]
        rest = (await one.get(f"{url}/members?limit=2&offset=2")).json()
        assert rest["members"] == [{"name": bob.name, "role": "member"}]

        # a club tournament: its admins make it, its members alone join
        body = {"name": "Members' evening", "variant": "classic", "seats": 2,
                "format": "swiss", "rounds": 1, "rated": False}
        assert (await one.post("/api/tournaments", headers=bob.headers,
                               json={**body, "club": cid})).status_code == 403
        assert (await one.post("/api/tournaments", headers=bob.headers,
                               json={**body, "club": 2**31 - 2})).status_code == 404
        made = await two.post("/api/tournaments", headers=alice.headers,
                              json={**body, "club": cid})
        assert made.status_code == 201, made.text
        tour = made.json()
        assert tour["club"] == cid and tour["battle"] is None
        turl = f"/api/tournaments/{tour['id']}"
        assert (await one.post(f"{turl}/join", headers=bob.headers)).status_code == 200
        assert (await one.post(f"{turl}/join", headers=dave.headers)).status_code == 403
        mine = (await one.get(f"/api/tournaments?club={cid}")).json()
        assert [t["id"] for t in mine] == [tour["id"]] and mine[0]["club"] == cid

        # removals: an admin removes a member, never the owner nor (but the owner) an admin
        assert (await one.delete(f"{url}/members/{owner.name}", headers=alice.headers)
                ).status_code == 403
        assert (await two.delete(f"{url}/members/{alice.name}", headers=bob.headers)
                ).status_code == 403
        assert (await two.delete(f"{url}/members/{bob.name}", headers=alice.headers)
                ).status_code == 204
        assert (await two.delete(f"{url}/members/{bob.name}", headers=alice.headers)
                ).status_code == 404
        # a member no more: he joins no tournament of the club
        tour2 = await one.post("/api/tournaments", headers=owner.headers,
                               json={**body, "club": cid, "name": "Second"})
        assert (await two.post(f"/api/tournaments/{tour2.json()['id']}/join",
                               headers=bob.headers)).status_code == 403
        # leaving: the owner stays; a member goes
        assert (await one.post(f"{url}/leave", headers=owner.headers)).status_code == 409
        assert (await two.post(f"{url}/leave", headers=alice.headers)).status_code == 200
        assert (await two.post(f"{url}/leave", headers=alice.headers)).status_code == 409
        page = (await one.get(url)).json()
        assert page["members"] == 1 and page["admins"] == []

        # an open club: a member at once
        other = await _club(one, dave, open_=True)
        assert (await two.post(f"/api/clubs/{other['id']}/join", headers=carol.headers)
                ).json() == {"status": "member"}
        assert (await one.get(f"/api/clubs/{other['id']}")).json()["members"] == 2
        # unknown clubs, and ids no club can have
        assert (await one.get("/api/clubs/2147483646")).status_code == 404
        assert (await one.get("/api/clubs/99999999999")).status_code == 422
        assert (await one.post("/api/clubs/2147483646/join", headers=carol.headers)
                ).status_code == 404
        # team battles: arenas of 2-10 distinct clubs that exist, never of one club
        arena = {"name": "Battle", "variant": "classic", "seats": 2, "format": "arena",
                 "minutes": 5, "rated": False}
        for battle, code in (({"clubs": [cid, other["id"]]}, 201),
                             ({"clubs": [cid]}, 422),
                             ({"clubs": [cid, cid]}, 422),
                             ({"clubs": [cid, 2**31 - 2]}, 404),
                             ({"clubs": [cid, other["id"]], "leaders": 21}, 422)):
            r = await two.post("/api/tournaments", headers=carol.headers,
                               json={**arena, "battle": battle})
            assert r.status_code == code, (battle, r.text)
        assert (await two.post("/api/tournaments", headers=carol.headers, json={
            **body, "battle": {"clubs": [cid, other["id"]]}})).status_code == 422
        assert (await two.post("/api/tournaments", headers=owner.headers, json={
            **arena, "club": cid, "battle": {"clubs": [cid, other["id"]]}})).status_code == 422
        # a deleted account is shown as deleted-<n> on the club's page and in its members
        gone = await one.request("DELETE", "/api/me", headers=dave.headers,
                                 json={"password": "password123"})
        assert gone.status_code == 204, gone.text
        page = (await two.get(f"/api/clubs/{other['id']}")).json()
        assert page["owner"] == f"deleted-{dave.id}"
        listed = (await two.get(f"/api/clubs/{other['id']}/members")).json()["members"]
        assert {"name": f"deleted-{dave.id}", "role": "owner"} in listed


async def test_one_name_asked_for_on_two_processes_at_once_makes_one_club(
    server_pair: tuple[Server, Server],
) -> None:
    """Two players ask for the same club name at the same moment on two processes: one
    club is made, the other is told the name is taken (409), never an error of the
    server's own."""
    one = httpx.AsyncClient(base_url=server_pair[0].url, timeout=30)
    two = httpx.AsyncClient(base_url=server_pair[1].url, timeout=30)
    async with one, two:
        for _ in range(4):  # a race is not won the same way each time: a few of them
            first, second = await register(one), await register(two)
            name = _name("Same")
            answers = await asyncio.gather(*(
                http.post("/api/clubs", headers=who.headers, json={"name": name, "open": True})
                for http, who in ((one, first), (two, second))))
            assert sorted(a.status_code for a in answers) == [201, 409], [
                a.text for a in answers]
            assert (await one.get(f"/api/clubs?q={name}")).json()["total"] == 1
