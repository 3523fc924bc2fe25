"""Inputs nothing should take (PROTOCOL §2g): a NUL anywhere and a date past year 9999 are
422 on every route of the API's own schema, never 500 or 503; refusals are short whatever
was sent; a seek's rating range is finite, bounded and ordered."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

import httpx
import pytest

from tests.e2e.client import Player
from tests.security.conftest import servers
from tests.servers import Server

NUL = "a\x00b"
# 10000-01-01 in epoch ms: a year no date of the server can hold.
YEAR_10000_MS = 253_402_300_800_000
# Budgets that this module's hundreds of requests do not spend.
ROOMY = {"DOMINO_API_BURST": "100000", "DOMINO_AUTH_BURST": "100000"}


@pytest.fixture(scope="module")
def pair(pg_url: str, redis_url: str, tmp_path_factory: pytest.TempPathFactory
         ) -> Iterator[list[Server]]:
    with servers(pg_url, redis_url, tmp_path_factory.mktemp("bounds"), count=2,
                 **ROOMY) as running:
        yield running


def _signed_in(server: Server, name: str) -> httpx.Client:
    http = httpx.Client(base_url=server.url, timeout=30)
    r = http.post("/api/auth/register", json={"username": name, "password": "password123"})
    assert r.status_code == 201, r.text
    http.headers["Authorization"] = f"Bearer {r.json()['token']}"
    return http


def _resolve(schema: dict[str, Any], spec: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in schema:
        schema = spec["components"]["schemas"][schema["$ref"].rsplit("/", 1)[1]]
    if "anyOf" in schema:  # an optional body: its non-null form
        return _resolve(next(s for s in schema["anyOf"] if s.get("type") != "null"), spec)
    return schema


def _kinds(schema: dict[str, Any], spec: dict[str, Any]) -> set[str]:
    schema = _resolve(schema, spec)
    if "anyOf" in schema:
        return {k for s in schema["anyOf"] for k in _kinds(s, spec)}
    return {schema.get("type", "")}


def _body(schema: dict[str, Any], spec: dict[str, Any], string: Any, integer: Any
          ) -> dict[str, Any]:
    """A body with every field of the schema: strings `string`, integers `integer`, the
    rest a plain value of their type."""
    body: dict[str, Any] = {}
    for name, field in _resolve(schema, spec).get("properties", {}).items():
        kinds = _kinds(field, spec)
        if "string" in kinds:
            body[name] = string
        elif "integer" in kinds:
            body[name] = integer
        elif "boolean" in kinds:
            body[name] = False
        elif "object" in kinds:
            body[name] = {string: string}
        elif "array" in kinds:
            body[name] = [integer, integer]
    return body


def _operations(http: httpx.Client) -> Iterator[tuple[str, str, dict[str, Any], dict[str, Any]]]:
    spec = http.get("/openapi.json").json()
    for path, methods in spec["paths"].items():
        for method, operation in methods.items():
            yield method.upper(), path, operation, spec


def _path(path: str, operation: dict[str, Any], value: str) -> str:
    for parameter in operation.get("parameters", []):
        if parameter["in"] == "path":
            path = path.replace("{" + parameter["name"] + "}", quote(value, safe=""))
    return path


def test_a_nul_anywhere_is_422_on_every_route(pair: list[Server]) -> None:
    http = _signed_in(pair[0], "nul_everywhere")
    tried = 0
    for method, path, operation, spec in _operations(http):
        parameters = operation.get("parameters", [])
        asks: list[tuple[str, dict[str, Any], Any]] = []
        if any(p["in"] == "path" for p in parameters):
            asks.append((_path(path, operation, NUL), {}, None))
        plain = _path(path, operation, "x1")
        queries = [p["name"] for p in parameters if p["in"] == "query"] or ["q"]
        asks += [(plain, {name: NUL}, None) for name in queries]
        body = operation.get("requestBody", {}).get("content", {}).get("application/json")
        if body is not None:
            with_nul = _body(body["schema"], spec, NUL, 1)
            if NUL in json.dumps(with_nul, ensure_ascii=False):
                asks.append((plain, {}, with_nul))
            asks.append((plain, {}, {**_body(body["schema"], spec, "x", 1), NUL: 1}))
        for url, params, json_body in asks:
            r = http.request(method, url, params=params,
                             content=None if json_body is None else json.dumps(json_body),
                             headers={"Content-Type": "application/json"})
            assert r.status_code == 422, (method, url, params, json_body, r.status_code, r.text)
            tried += 1
    assert tried > 40  # every route of the schema was asked, several ways


def test_a_date_past_year_9999_is_422_and_no_integer_is_a_server_error(
    pair: list[Server],
) -> None:
    http = _signed_in(pair[0], "year_ten_k")
    dated = 0
    for method, path, operation, spec in _operations(http):
        body = operation.get("requestBody", {}).get("content", {}).get("application/json")
        url = _path(path, operation, "x1")
        queries = {p["name"]: YEAR_10000_MS for p in operation.get("parameters", [])
                   if p["in"] == "query" and "integer" in _kinds(p["schema"], spec)}
        if queries:
            r = http.request(method, url, params=queries)
            assert r.status_code < 500, (method, url, r.status_code, r.text)
        if body is None:
            continue
        for number in (YEAR_10000_MS, 10**30, -(10**30)):
            sent = _body(body["schema"], spec, "goat", number)
            r = http.request(method, url, json=sent)
            assert r.status_code < 500, (method, url, sent, r.status_code, r.text)
            if any(name.endswith("_at") for name in sent):
                assert r.status_code == 422, (method, url, sent, r.text)
                dated += 1
    assert dated  # the tournament's starts_at, at least
    # The tournament of the audit, alone: year 10000 is refused, year 2100 taken.
    ask = {"name": "Later", "variant": "goat", "seats": 2, "format": "arena", "minutes": 5}
    assert http.post("/api/tournaments", json={**ask, "starts_at": YEAR_10000_MS}
                     ).status_code == 422
    assert http.post("/api/tournaments", json={**ask, "starts_at": 4_102_444_800_000}
                     ).status_code == 201


def test_refusals_never_echo_a_long_input(pair: list[Server]) -> None:
    http = _signed_in(pair[0], "long_echo")
    long = "x" * 30_000
    for r in (
        http.get(f"/api/tables/{long}"),
        http.get(f"/api/tournaments/{long}"),
        http.delete(f"/api/seeks/{long}"),
        http.post("/api/tables", json={"variant": long, "seats": 2}),
        http.post("/api/tables", json={"variant": "goat", "seats": 2, "options": {long: long}}),
        http.post("/api/tables", json={"variant": "goat", "seats": 2,
                                       "options": {"fish_rule": long}}),
        http.post("/api/tournaments", json={"name": long, "variant": "goat", "format": long}),
        http.post("/api/tables", json=[{"variant": "y" * 1000}] * 50),
    ):
        assert r.status_code in (404, 409, 422), r.text[:300]
        assert len(r.content) < 2_000, (r.status_code, len(r.content), r.text[:300])


async def test_a_nul_in_a_socket_message_is_a_bad_request(pair: list[Server]) -> None:
    p = await Player(pair[1].ws_url).connect()
    for message in ({"type": "tournament.subscribe", "tournament_id": NUL},
                    {"type": "table.subscribe", "table_id": NUL}):
        error = await p.request(message)
        assert error["type"] == "error" and error["code"] == "bad_request", error
    assert (await p.request({"type": "ping"}))["type"] == "pong"
    await p.close()


@pytest.mark.parametrize("ends", ["[NaN, NaN]", "[-Infinity, Infinity]", "[1400, Infinity]",
                                  "[-5, 1600]", "[1400, 1e12]", "[1700, 1300]"])
def test_a_seek_range_that_is_not_finite_ordered_and_bounded_is_refused_and_poisons_nothing(
    pair: list[Server], ends: str,
) -> None:
    tag = str(abs(hash(ends)) % 10**8)
    poison, one, other = (_signed_in(server, f"{who}{tag}") for server, who in
                          ((pair[0], "np"), (pair[0], "na"), (pair[1], "nb")))
    refused = poison.post("/api/seeks", headers={"Content-Type": "application/json"},
                          content='{"variant": "goat", "seats": 2, "rating_range": ' + ends + "}")
    assert refused.status_code == 422, refused.text
    assert "NaN" not in refused.text and "Infinity" not in refused.text
    assert all(s["player"] != f"np{tag}" for s in poison.get("/api/seeks").json())
    # The pool works on both processes.
    opened = one.post("/api/seeks", json={"variant": "goat", "seats": 2,
                                          "options": {"fish_rule": "one"}})
    assert opened.status_code == 201, opened.text
    matched = other.post("/api/seeks", json={"variant": "goat", "seats": 2,
                                             "options": {"fish_rule": "one"}})
    assert matched.status_code == 201 and matched.json().get("table_id"), matched.text
    for http in (poison, one, other):
        http.close()


def test_paths_outside_the_schema_refuse_a_nul_too(pair: list[Server]) -> None:
    for url in ("/ws%00", "/index.html%00", "/healthz?x=%00"):
        assert httpx.get(pair[0].url + url).status_code == 422, url
