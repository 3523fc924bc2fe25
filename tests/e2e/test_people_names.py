# ruff: noqa: RUF001, RUF003  (look-alike letters are what these tests are about)
"""Names in one script (PROTOCOL §2c): registered and signed in on either process, unique
ignoring case and TR39 look-alikes, mixed scripts refused, old names still good."""

from __future__ import annotations

import secrets
import unicodedata

import httpx
import pytest

from app.domain import names
from tests.servers import Server

PASSWORD = "password123"


def _tag() -> str:
    # names must be unique across the run: a Latin suffix would mix scripts, digits do not
    return str(secrets.randbelow(10**6))


async def _register(http: httpx.AsyncClient, name: str) -> httpx.Response:
    return await http.post("/api/auth/register", json={"username": name, "password": PASSWORD})


async def _login(http: httpx.AsyncClient, name: str) -> httpx.Response:
    return await http.post("/api/auth/login", json={"username": name, "password": PASSWORD})


async def test_names_in_their_own_script_register_and_sign_in_on_either_process(
    server_pair: tuple[Server, Server],
) -> None:
    first, second = server_pair
    tag = _tag()
    async with httpx.AsyncClient(base_url=first.url, timeout=30) as a, \
            httpx.AsyncClient(base_url=second.url, timeout=30) as b:
        for name in (f"Маша{tag}", f"مریم{tag}", f"สมชาย{tag}", f"ສົມ{tag}", f"Olya_{tag}",
                     f"Zoë{tag}"):
            made = await _register(a, name)
            assert made.status_code == 201, (name, made.text)
            assert made.json()["player"]["name"] == name
            signed = await _login(b, name)
            assert signed.status_code == 200, (name, signed.text)
            page = await b.get(f"/api/players/{name}")
            assert page.status_code == 200 and page.json()["name"] == name
        # any spelling of the same name finds the page: case and normal form
        page = await b.get(f"/api/players/маша{tag}")
        assert page.status_code == 200 and page.json()["name"] == f"Маша{tag}"
        decomposed = unicodedata.normalize("NFD", f"Zoë{tag}")
        assert decomposed != f"Zoë{tag}"
        page = await b.get(f"/api/players/{decomposed}")
        assert page.status_code == 200 and page.json()["name"] == f"Zoë{tag}"
        # a name sent decomposed is kept composed, and signs in either way
        ana = unicodedata.normalize("NFD", f"Ána{tag}")
        made = await _register(a, ana)
        assert made.status_code == 201 and made.json()["player"]["name"] == f"Ána{tag}"
        assert (await _login(b, ana)).status_code == 200
        # taken exactly as sent otherwise: another letter case does not sign in
        assert (await _login(b, f"маша{tag}")).status_code == 401


@pytest.mark.parametrize("name", [
    "Sаsha",  # a Cyrillic а between Latin letters
    "Машa",  # Cyrillic and a Latin a
    "abcمریم",  # Latin and Arabic
    "ab\u200ccd",  # an invisible joiner
    "αβγδ",  # Greek: not one of the site's scripts
    "\u0301abc",  # a mark with no letter under it
    "a١٢",  # Arabic-Indic digits with a Latin letter
    "ab",
    "a" * 21,
    "bad-name",
])
async def test_mixed_or_foreign_names_are_422_and_change_nothing(
    server_pair: tuple[Server, Server], name: str,
) -> None:
    first, second = server_pair
    async with httpx.AsyncClient(base_url=first.url, timeout=30) as a, \
            httpx.AsyncClient(base_url=second.url, timeout=30) as b:
        refused = await _register(a, name)
        assert refused.status_code == 422, refused.text
        assert (await _login(b, name)).status_code == 401


async def test_look_alikes_and_other_cases_of_a_name_are_taken(
    server_pair: tuple[Server, Server],
) -> None:
    first, second = server_pair
    tag = _tag()
    async with httpx.AsyncClient(base_url=first.url, timeout=30) as a, \
            httpx.AsyncClient(base_url=second.url, timeout=30) as b:
        assert (await _register(a, f"cepa{tag}")).status_code == 201
        # Cyrillic сера looks exactly like Latin cepa
        assert names.problem(f"сера{tag}") is None
        taken = await _register(b, f"сера{tag}")
        assert taken.status_code == 409, taken.text
        assert isinstance(taken.json()["detail"], str)
        assert (await _register(b, f"CEPA{tag}")).status_code == 409
        assert (await _register(b, f"СЕРА{tag}")).status_code == 409
        # "rn" reads as "m"
        assert (await _register(a, f"mama{tag}")).status_code == 201
        assert (await _register(b, f"rnama{tag}")).status_code == 409
        # the look-alike signs nobody in
        assert (await _login(b, f"сера{tag}")).status_code == 401


def test_skeletons_agree_on_look_alikes_and_differ_otherwise() -> None:
    assert names.skeleton("cepa") == names.skeleton("сера")
    assert names.skeleton("Masha") == names.skeleton("masha") == names.skeleton("rnasha")
    assert names.skeleton("Маша") == names.skeleton("маша")
    assert names.skeleton("Маша") != names.skeleton("Masha")
    assert names.skeleton("olya") != names.skeleton("alex")
    # every name valid under the old rule is still valid
    for old in ("Masha_1", "alex", "OLYA", "x_9", "a" * 20, "123"):
        assert names.problem(old) is None
