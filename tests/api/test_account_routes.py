"""Accounts over HTTP (PROTOCOL.md §1): register, login, me, logout, tokens."""

from __future__ import annotations

import time

import httpx
import jwt
import pytest

from tests.api.conftest import SECRET, register


def _no_secret_in(response: httpx.Response) -> None:
    body = response.text.lower()
    assert "argon2" not in body
    assert "hash" not in body
    assert "password" not in body or response.status_code == 422


def test_register_returns_a_token_and_sets_the_session_cookie(client: httpx.Client):
    response = client.post(
        "/api/auth/register", json={"username": "Masha_1", "password": "pa55word"}
    )
    assert response.status_code == 201
    body = response.json()
    assert set(body) == {"token", "player"}
    assert body["player"]["name"] == "Masha_1"
    assert isinstance(body["player"]["id"], int)
    cookie = response.headers["set-cookie"]
    assert cookie.startswith(f"domino_session={body['token']};")
    assert "HttpOnly" in cookie
    assert "samesite=lax" in cookie.lower()
    _no_secret_in(response)


def test_names_are_unique_in_any_letter_case(client: httpx.Client):
    register(client, "Olya")
    for taken in ("Olya", "olya", "OLYA", "oLyA"):
        response = client.post(
            "/api/auth/register", json={"username": taken, "password": "12345678"}
        )
        assert response.status_code == 409
        assert isinstance(response.json()["detail"], str)


@pytest.mark.parametrize(
    "username",
    ["ab", "a" * 21, "bad-name", "with space", "dot.ted", "mix\u0435d", "", " padded", "tab\t"],
)
def test_invalid_usernames_are_422(client: httpx.Client, username: str):
    response = client.post(
        "/api/auth/register", json={"username": username, "password": "12345678"}
    )
    assert response.status_code == 422
    assert "detail" in response.json()


@pytest.mark.parametrize("password", ["", "1234567", "x" * 129])
def test_invalid_passwords_are_422(client: httpx.Client, password: str):
    response = client.post("/api/auth/register", json={"username": "pw_edge", "password": password})
    assert response.status_code == 422


def test_boundary_lengths_are_accepted(client: httpx.Client):
    register(client, "abc", "x" * 8)
    register(client, "a" * 20, "y" * 128)


def test_missing_fields_are_422(client: httpx.Client):
    assert client.post("/api/auth/register", json={"username": "nopass"}).status_code == 422
    assert client.post("/api/auth/login", json={}).status_code == 422


def test_login_and_me(client: httpx.Client):
    registered = register(client, "Serg", "s3cret-pass")
    response = client.post("/api/auth/login", json={"username": "Serg", "password": "s3cret-pass"})
    assert response.status_code == 200
    body = response.json()
    assert body["player"] == registered["player"]
    assert "domino_session=" in response.headers["set-cookie"]
    _no_secret_in(response)

    me = client.get("/api/me", headers={"Authorization": f"Bearer {body['token']}"})
    assert me.status_code == 200
    assert me.json() == {"id": registered["player"]["id"], "name": "Serg", "ratings": {}}
    _no_secret_in(me)


def test_the_session_cookie_authenticates_and_logout_clears_it(server):
    with httpx.Client(base_url=server.url) as browser:
        registered = register(browser, "Cookie_Monster")
        me = browser.get("/api/me")
        assert me.status_code == 200
        assert me.json()["name"] == "Cookie_Monster"

        out = browser.post("/api/auth/logout")
        assert out.status_code == 200
        assert "domino_session=" in out.headers["set-cookie"]
        assert "Max-Age=0" in out.headers["set-cookie"]
        assert browser.get("/api/me").status_code == 401
        # Signing out revoked the session: its token is refused too, though not expired.
        token = registered["token"]
        assert (
            browser.get("/api/me", headers={"Authorization": f"Bearer {token}"}).status_code == 401
        )


@pytest.mark.parametrize(
    ("username", "password"),
    [("Alex", "wrong-password"), ("Nobody_here", "whatever1"), ("ALEX", "right-password")],
)
def test_wrong_logins_are_401(client: httpx.Client, username: str, password: str):
    if (
        client.post(
            "/api/auth/login", json={"username": "Alex", "password": "right-password"}
        ).status_code
        != 200
    ):
        register(client, "Alex", "right-password")
    response = client.post("/api/auth/login", json={"username": username, "password": password})
    assert response.status_code == 401
    assert isinstance(response.json()["detail"], str)
    assert "set-cookie" not in response.headers


def test_me_without_credentials_is_401(client: httpx.Client):
    response = client.get("/api/me")
    assert response.status_code == 401
    assert isinstance(response.json()["detail"], str)


def _claims(player_id: int, *, issued: float, lifetime: int = 3600, sid: str = "") -> dict:
    return {"sub": str(player_id), "sid": sid, "iat": int(issued), "exp": int(issued) + lifetime}


def test_expired_tampered_and_foreign_tokens_are_401(client: httpx.Client):
    player = register(client, "Token_Tester")
    pid = player["player"]["id"]
    sid = jwt.decode(player["token"], SECRET, algorithms=["HS256"])["sid"]
    now = time.time()
    good = jwt.encode(_claims(pid, issued=now, sid=sid), SECRET, algorithm="HS256")
    assert client.get("/api/me", headers={"Authorization": f"Bearer {good}"}).status_code == 200

    header, payload, signature = player["token"].split(".")
    flipped = signature[:-2] + ("A" if signature[-2] != "A" else "B") + signature[-1]
    other = jwt.encode(_claims(pid + 1, issued=now), SECRET, algorithm="HS256").split(".")[1]
    bad_tokens = {
        "expired": jwt.encode(
            _claims(pid, issued=now - 7200, lifetime=60, sid=sid), SECRET, algorithm="HS256"
        ),
        "no session": jwt.encode({"sub": str(pid), "iat": int(now), "exp": int(now) + 60},
                                 SECRET, algorithm="HS256"),
        "unknown session": jwt.encode(_claims(pid, issued=now, sid="x" * 22), SECRET,
                                      algorithm="HS256"),
        "another's session": jwt.encode(_claims(pid + 1, issued=now, sid=sid), SECRET,
                                        algorithm="HS256"),
        "other key": jwt.encode(
            _claims(pid, issued=now, sid=sid),
            "not-the-server-key-but-long-enough-for-hs256",
            algorithm="HS256",
        ),
        "bad signature": f"{header}.{payload}.{flipped}",
        "swapped payload": f"{header}.{other}.{signature}",
        "alg none": jwt.encode(_claims(pid, issued=now, sid=sid), None, algorithm="none"),
        "no expiry": jwt.encode({"sub": str(pid), "sid": sid, "iat": int(now)}, SECRET,
                                algorithm="HS256"),
        "unknown player": jwt.encode(_claims(10**9, issued=now, sid=sid), SECRET,
                                     algorithm="HS256"),
        "huge id": jwt.encode(_claims(10**15, issued=now, sid=sid), SECRET, algorithm="HS256"),
        "garbage": "not-a-token",
    }
    for name, token in bad_tokens.items():
        response = client.get("/api/me", headers={"Authorization": f"Bearer {token}"})
        assert response.status_code == 401, name
        # Also as the cookie.
        client.cookies.set("domino_session", token)
        assert client.get("/api/me").status_code == 401, name
        client.cookies.clear()
