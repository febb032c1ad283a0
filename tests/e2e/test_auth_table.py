"""Who may call what: every endpoint of the app (read from its URL map, so a new one cannot be left out)
against every kind of caller, and bodies that must be refused before anything reads them.

The contract (API.md, "Additions (second round)", Authentication): the token is checked before the body is
read; no token is a spectator on reads and 401 on writes; a malformed or unknown token is 401 with
``WWW-Authenticate: Bearer`` on every endpoint; a valid token without the right is 403. A player token of
another match is a valid token without a right on this match's paths (403, reads included, see
``app.auth``); on endpoints about no match (cards, decks, rules, the list of matches) any valid token is fine.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any
from uuid import UUID

import pytest
from flask import Flask
from werkzeug.test import TestResponse

from app.auth import ANYONE, JUDGE, PARTICIPANT
from app.endpoint import Endpoint
from app.limits import DEFAULTS
from domain.decks import preset
from tests.conftest import JUDGE_TOKEN, Judge, MatchRef, make_app

# ------------------------------------------------------------------ callers

CALLERS = (
    "no token",
    "malformed",  # not a bearer token at all
    "other scheme",
    "unknown",  # well formed, issued by no one
    "forged",  # a player token's form with a wrong mac
    "other player",  # p2's token of this match, about p1 (acting, asking) or reading
    "other match",  # p1's token of another match
    "own player",  # p1's token of this match
    "judge",
)
BAD_TOKENS = ("malformed", "other scheme", "unknown", "forged")

# the outcome per kind of endpoint: a status, or "ok" for the endpoint's own success status
OPEN, MATCH_READ = "open", "match read"
EXPECTED: dict[str, dict[str, int | str]] = {
    OPEN: {"no token": "ok", "other player": "ok", "other match": "ok", "own player": "ok", "judge": "ok"},
    MATCH_READ: {
        "no token": "ok",
        "other player": "ok",
        "other match": 403,
        "own player": "ok",
        "judge": "ok",
    },
    PARTICIPANT: {
        "no token": 401,
        "other player": 403,
        "other match": 403,
        "own player": "ok",
        "judge": "ok",
    },
    JUDGE: {"no token": 401, "other player": 403, "other match": 403, "own player": 403, "judge": "ok"},
}
for row in EXPECTED.values():
    row.update(dict.fromkeys(BAD_TOKENS, 401))
DECLARED = {OPEN: ANYONE, MATCH_READ: ANYONE, PARTICIPANT: PARTICIPANT, JUDGE: JUDGE}

# bodies nobody may get read without a valid token: their shape would fail, or fail the domain, later
JUNK_BODIES: tuple[bytes, ...] = (
    b'{"action": {"type": {}}}',
    b'{"action": []}',
    b'{"action": {"type": "mulligan", "player": "p1", "cards": [1, {}]}, "to": [], "at": {}}',
    b"\xff\xfe not UTF-8",
    b'{"reason": "\\ud800", "players": {"p1": {"name": "\\udc00"}}}',
    b"[[[[[[[[[[",
)


@dataclass
class Ctx:
    judge: Judge
    app: Flask
    m: MatchRef  # the match the request is about
    other: MatchRef  # another match

    def token(self, caller: str) -> dict[str, str]:
        mac = self.m.tokens["p1"].rsplit(".", 1)[1]
        flipped = self.m.tokens["p1"][:-1] + ("0" if mac[-1] != "0" else "1")
        header = {
            "no token": None,
            "malformed": "Bearer this is not a token",
            "other scheme": "Basic dXNlcjpwYXNz",
            "unknown": f"Bearer {secrets.token_urlsafe(32)}",
            "forged": f"Bearer {flipped}",
            "other player": f"Bearer {self.m.tokens['p2']}",
            "other match": f"Bearer {self.other.tokens['p1']}",
            "own player": f"Bearer {self.m.tokens['p1']}",
            "judge": f"Bearer {JUDGE_TOKEN}",
        }[caller]
        return {} if header is None else {"Authorization": header}


@dataclass(frozen=True)
class Request:
    path: str
    query: dict[str, Any] | None = None
    body: Any = None


def _past_setup(ctx: Ctx) -> tuple[int, int]:
    """Plays the match's set-up and one action after it: (a decision point after the set-up, the head)."""
    while ctx.judge.state(ctx.m)["status"] == "setup":
        assert ctx.judge.act(ctx.m, ctx.judge.legal(ctx.m)[0]).status_code == 201
    point = ctx.judge.state(ctx.m)["version"]
    assert ctx.judge.act(ctx.m, ctx.judge.legal(ctx.m)[0]).status_code == 201
    return point, ctx.judge.state(ctx.m)["version"]


def _p1_action(ctx: Ctx) -> dict[str, Any]:
    actions = ctx.judge.legal(ctx.m, player="p1")
    assert actions, "p1 decides first in the table's matches"
    return actions[0]


POSITION = {
    "turn": 3,
    "turn_player": "p1",
    "phase": "main",
    "seed": 1,
    "players": {
        "p1": {"lrig": {"center": "WXDi-D01-004"}, "hand": ["WXDi-D01-013"], "deck": ["WXDi-D01-012"] * 5},
        "p2": {"lrig": {"center": "WXDi-D02-004"}, "deck": ["WXDi-D02-013"] * 5},
    },
}
MATCH_BODY = {
    "format": "diva",
    "seed": 3,
    "players": {"p1": {"name": "Ann", "deck": "WXDi-D01"}, "p2": {"name": "Bo", "deck": "WXDi-D02"}},
}


def _record_text() -> str:
    """A record of a match just created (a header, no action), as docs/RECORDS.md describes it."""
    deck = {"lrig_deck": list(preset("WXDi-D01").lrig_deck), "main_deck": list(preset("WXDi-D01").main_deck)}
    header = {
        "record": "wixoss-judge-record",
        "version": 1,
        "start": "create",
        "format": "diva",
        "seed": 3,
        "first_player": "p1",
        "players": {"p1": {"name": "Ann", **deck}, "p2": {"name": "Bo", **deck}},
    }
    return json.dumps(header) + "\n"


def _p2_takeback(ctx: Ctx) -> int:
    """Plays the set-up, then p2 asks to take back their mulligan (the policy is turned to one that lets
    it through): the request's id, for p1 (the table's own player) to answer."""
    while ctx.judge.state(ctx.m)["status"] == "setup":
        assert ctx.judge.act(ctx.m, ctx.judge.legal(ctx.m)[0]).status_code == 201
    policy = {"policy": "with-consent", "refuse_after_reveal": False, "reason": "a table test"}
    headers = ctx.token("judge")
    r = ctx.judge.client.post(f"{ctx.m.path}/takebacks/policy", json=policy, headers=headers)
    assert r.status_code == 201, r.get_json()
    r = ctx.judge.client.post(
        f"{ctx.m.path}/takebacks", json={"player": "p2", "reason": "x"}, headers=headers
    )
    assert r.status_code == 201, r.get_json()
    return int(r.get_json()["takeback"])


Build = Callable[[Ctx], Request]

# (method, rule) -> (kind, request builder, whether each call needs a fresh match)
TABLE: dict[tuple[str, str], tuple[str, Build, bool]] = {
    ("GET", "/"): (OPEN, lambda c: Request("/"), False),
    ("GET", "/openapi.yaml"): (OPEN, lambda c: Request("/openapi.yaml"), False),
    ("GET", "/docs"): (OPEN, lambda c: Request("/docs"), False),
    ("GET", "/cards"): (OPEN, lambda c: Request("/cards", {"q": "a"}), False),
    ("GET", "/cards/<card_id>"): (OPEN, lambda c: Request("/cards/WXDi-D01-013"), False),
    ("GET", "/decks"): (OPEN, lambda c: Request("/decks"), False),
    ("GET", "/decks/<deck_id>"): (OPEN, lambda c: Request("/decks/WXDi-D01"), False),
    ("POST", "/decks/validate"): (
        OPEN,
        lambda c: Request(
            "/decks/validate",
            body={
                "format": "diva",
                "lrig_deck": list(preset("WXDi-D01").lrig_deck),
                "main_deck": list(preset("WXDi-D01").main_deck),
            },
        ),
        False,
    ),
    ("GET", "/rules"): (OPEN, lambda c: Request("/rules"), False),
    ("GET", "/rules/<rule_id>"): (OPEN, lambda c: Request("/rules/play.limit"), False),
    ("GET", "/matches"): (OPEN, lambda c: Request("/matches"), False),
    ("POST", "/matches"): (JUDGE, lambda c: Request("/matches", body=MATCH_BODY), False),
    ("POST", "/positions"): (JUDGE, lambda c: Request("/positions", body=POSITION), False),
    ("GET", "/matches/<match_id>"): (MATCH_READ, lambda c: Request(c.m.path), False),
    ("GET", "/matches/<match_id>/state"): (MATCH_READ, lambda c: Request(f"{c.m.path}/state"), False),
    ("GET", "/matches/<match_id>/events"): (
        MATCH_READ,
        lambda c: Request(f"{c.m.path}/events", {"after": 1}),
        False,
    ),
    ("GET", "/matches/<match_id>/events/stream"): (
        MATCH_READ,
        lambda c: Request(f"{c.m.path}/events/stream", {"after": 0, "timeout": 0}),
        False,
    ),
    ("GET", "/matches/<match_id>/legal-actions"): (
        PARTICIPANT,
        lambda c: Request(f"{c.m.path}/legal-actions", {"player": "p1"}),
        False,
    ),
    ("POST", "/matches/<match_id>/actions"): (
        PARTICIPANT,
        lambda c: Request(f"{c.m.path}/actions", body={"action": _p1_action(c)}),
        True,
    ),
    ("POST", "/matches/<match_id>/rulings"): (
        PARTICIPANT,
        lambda c: Request(f"{c.m.path}/rulings", body={"action": _p1_action(c)}),
        False,
    ),
    ("POST", "/matches/<match_id>/rewind"): (
        JUDGE,
        lambda c: Request(f"{c.m.path}/rewind", body={"to": _past_setup(c)[0], "reason": "a table test"}),
        True,
    ),
    ("POST", "/matches/<match_id>/branches"): (
        JUDGE,
        lambda c: Request(f"{c.m.path}/branches", body={"at": _past_setup(c)[0], "reason": "a table test"}),
        True,
    ),
    ("GET", "/matches/<match_id>/audit"): (JUDGE, lambda c: Request(f"{c.m.path}/audit"), False),
    ("GET", "/matches/<match_id>/timeline"): (MATCH_READ, lambda c: Request(f"{c.m.path}/timeline"), False),
    ("GET", "/health"): (OPEN, lambda c: Request("/health"), False),
    ("POST", "/matches/<match_id>/audit"): (
        JUDGE,
        lambda c: Request(f"{c.m.path}/audit", body={"head_hash": "0" * 64}),
        False,
    ),
    # the console: static pages and files, public; they hold no data (the data comes from the API)
    ("GET", "/console/"): (OPEN, lambda c: Request("/console/"), False),
    ("GET", "/console/matches/<match>"): (OPEN, lambda c: Request(f"/console/matches/{c.m.id}"), False),
    ("GET", "/console/positions/new"): (OPEN, lambda c: Request("/console/positions/new"), False),
    ("GET", "/console/files/<name>"): (OPEN, lambda c: Request("/console/files/main.js"), False),
    ("GET", "/matches/<match_id>/record"): (JUDGE, lambda c: Request(f"{c.m.path}/record"), False),
    ("POST", "/records"): (JUDGE, lambda c: Request("/records", body={"record": _record_text()}), False),
    # takebacks: p1 asks (p2's token asking for p1 is 403), and p1 answers p2's request (p2, the requester,
    # is 403: it is not theirs to answer)
    ("POST", "/matches/<match_id>/takebacks"): (
        PARTICIPANT,
        lambda c: Request(
            f"{c.m.path}/takebacks", body={"player": "p1", "to": _past_setup(c)[0], "reason": "x"}
        ),
        True,
    ),
    ("POST", "/matches/<match_id>/takebacks/<takeback_id>/accept"): (
        PARTICIPANT,
        lambda c: Request(f"{c.m.path}/takebacks/{_p2_takeback(c)}/accept", body={"reason": "fine"}),
        True,
    ),
    ("POST", "/matches/<match_id>/takebacks/<takeback_id>/decline"): (
        PARTICIPANT,
        lambda c: Request(f"{c.m.path}/takebacks/{_p2_takeback(c)}/decline", body={"reason": "no"}),
        True,
    ),
    ("POST", "/matches/<match_id>/takebacks/policy"): (
        JUDGE,
        lambda c: Request(f"{c.m.path}/takebacks/policy", body={"policy": "never", "reason": "a table test"}),
        False,
    ),
    ("GET", "/matches/<match_id>/takebacks"): (MATCH_READ, lambda c: Request(f"{c.m.path}/takebacks"), False),
}
NOT_ENDPOINTS = {"static"}  # Flask's own file route: no view of the service's, no data


def _routes(app: Flask) -> Iterator[tuple[str, str, str]]:
    for rule in app.url_map.iter_rules():
        if rule.endpoint in NOT_ENDPOINTS:
            continue
        for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}):
            yield method, rule.rule, rule.endpoint


@pytest.fixture(scope="module")
def table_app() -> Iterator[Flask]:
    application = make_app()
    yield application
    application.extensions["judge"].close()


def test_every_endpoint_is_in_the_auth_table_and_declares_the_table_s_right(table_app: Flask) -> None:
    seen = set()
    for method, path, name in _routes(table_app):
        key = (method, path)
        assert key in TABLE, f"{method} {path} is not in the auth table: add a row saying who may call it"
        seen.add(key)
        spec: Endpoint | None = getattr(table_app.view_functions[name], "__endpoint__", None)
        assert spec is not None, (
            f"{method} {path} is not declared with @endpoint, so nothing checks its token"
        )
        kind = TABLE[key][0]
        assert spec.auth == DECLARED[kind], (key, spec.auth, kind)
        assert (kind == MATCH_READ) == (spec.auth == ANYONE and "<match_id>" in path), key
        assert 401 in spec.errors and (403 in spec.errors) == (kind != OPEN), key
    assert seen == set(TABLE), f"rows for endpoints the app does not have: {set(TABLE) - seen}"


def _call(
    ctx: Ctx, method: str, req: Request, headers: dict[str, str], raw: bytes | None = None
) -> TestResponse:
    kwargs: dict[str, Any] = {"query_string": req.query, "headers": headers}
    if method == "POST":
        if raw is not None:
            kwargs.update(data=raw, content_type="application/json")
        else:
            kwargs["json"] = req.body
    return ctx.judge.client.open(req.path, method=method, **kwargs)


def _check_refusal(r: TestResponse, status: int, caller: str, where: str) -> None:
    assert r.status_code == status, (where, caller, r.status_code, r.get_data(as_text=True)[:300])
    assert r.content_type == "application/problem+json", where
    problem = r.get_json(force=True)
    assert problem["status"] == status and problem["detail"], where
    if status == 401:
        challenge = r.headers.get("WWW-Authenticate", "")
        assert challenge.startswith('Bearer realm="wixoss-judge"'), (where, caller, challenge)
        # RFC 6750 3.1: no error code when no credentials were sent; invalid_token for a bad one
        assert ('error="invalid_token"' in challenge) == (caller != "no token"), (where, caller, challenge)
    else:
        assert "WWW-Authenticate" not in r.headers, where


@pytest.mark.parametrize(("method", "path"), sorted(TABLE), ids=[f"{m} {p}" for m, p in sorted(TABLE)])
def test_who_may_call_each_endpoint(table_app: Flask, method: str, path: str) -> None:
    kind, build, fresh = TABLE[(method, path)]
    judge = Judge(table_app.test_client())
    other = judge.create_match(seed=2)
    spec: Endpoint = next(
        table_app.view_functions[name].__endpoint__
        for m, p, name in _routes(table_app)
        if (m, p) == (method, path)
    )
    shared = Ctx(judge, table_app, judge.create_match(seed=1), other)
    for caller in CALLERS:
        ctx = Ctx(judge, table_app, judge.create_match(seed=1), other) if fresh else shared
        req = build(ctx)
        version = judge.get(ctx.m.path)["version"]
        expected = EXPECTED[kind][caller]
        where = f"{method} {path}"
        r = _call(ctx, method, req, ctx.token(caller))
        if expected == "ok":
            assert r.status_code == spec.status, (
                where,
                caller,
                r.status_code,
                r.get_data(as_text=True)[:300],
            )
            continue
        _check_refusal(r, int(expected), caller, where)
        assert judge.get(ctx.m.path)["version"] == version, f"{where} by {caller} changed the match"
        # refused on the token alone: a body that would fail later (or break the domain) is never read
        decided_by_token = expected == 401 or caller in ("other match", "own player") or kind == JUDGE
        if method == "POST" and decided_by_token:
            for raw in JUNK_BODIES:
                _check_refusal(_call(ctx, method, req, ctx.token(caller), raw), int(expected), caller, where)


def test_a_player_token_of_another_match_is_refused_with_the_match_it_belongs_to(judge: Judge) -> None:
    m, other = judge.create_match(seed=1), judge.create_match(seed=2)
    for path in (m.path, f"{m.path}/state", f"{m.path}/events", f"{m.path}/legal-actions"):
        r = judge.client.get(path, headers={"Authorization": f"Bearer {other.tokens['p2']}"})
        assert r.status_code == 403 and other.id in r.get_json()["detail"], path
    # a path that names no match at all: the token has no rights there either, and it is not a 500
    r = judge.client.get(
        "/matches/not-a-uuid/state", headers={"Authorization": f"Bearer {other.tokens['p1']}"}
    )
    assert r.status_code == 403
    # the judge on a path that names no match: 404
    assert judge.client.get("/matches/not-a-uuid/state", headers=judge.headers()).status_code == 404
    assert judge.client.get(f"/matches/{UUID(int=1)}/state", headers=judge.headers()).status_code == 404


@pytest.mark.parametrize(
    "header",
    [
        "Bearer",
        "Bearer ",
        "bearer  \t",
        "Token abc",
        "Bearer a b",
        "Bearer é",
        "Bearer " + "x" * 5000,
        f"Bearer {JUDGE_TOKEN}x",
        f"Bearer {JUDGE_TOKEN[:-1]}",
        "Bearer " + "0" * 64,
    ],
)
def test_a_bad_authorization_header_is_401_even_on_public_reads(judge: Judge, header: str) -> None:
    for path in ("/cards", "/rules/play.limit", "/matches", "/docs", "/openapi.yaml"):
        r = judge.client.get(path, headers={"Authorization": header})
        _check_refusal(r, 401, "malformed", f"{path} with {header[:20]!r}")
    assert judge.client.get("/cards", headers={"Authorization": "bearer " + JUDGE_TOKEN}).status_code == 200


def test_no_token_reads_as_a_spectator_and_an_empty_header_is_no_token(judge: Judge) -> None:
    m = judge.create_match(seed=3)
    for headers in ({}, {"Authorization": ""}, {"Authorization": "   "}):
        r = judge.client.get(f"{m.path}/state", headers=headers)
        assert r.status_code == 200 and "cards" not in r.get_json()["players"]["p1"]["hand"]
        r = judge.client.post(f"{m.path}/actions", json={"action": {"type": {}}}, headers=headers)
        assert r.status_code == 401


# ------------------------------------------------------------------ bodies


def _post_routes(app: Flask) -> list[tuple[str, Build]]:
    return [(path, TABLE[(m, path)][1]) for m, path, _ in _routes(app) if m == "POST"]


def _with_each_string(value: Any, change: Callable[[str], str]) -> Any:
    if isinstance(value, str):
        return change(value)
    if isinstance(value, dict):
        return {k: _with_each_string(v, change) for k, v in value.items()}
    if isinstance(value, list):
        return [_with_each_string(v, change) for v in value]
    return value


def _bad_text_bodies(body: dict[str, Any]) -> Iterator[tuple[str, bytes]]:
    text = json.dumps(body)
    for escape in ("\\ud800", "\\udfff", "\\udc00\\ud800"):  # lone halves, and a pair in the wrong order
        yield (
            f"{escape} in every string",
            json.dumps(_with_each_string(body, lambda s: s + "\udead")).replace("\\udead", escape).encode(),
        )
        yield f"{escape} in a key", (text[:-1] + f', "{escape}": 1}}').encode()
    # one string deep inside: the last string of the body
    at = text.rindex('"', 0, text.rindex('"'))
    yield "a lone surrogate deep inside", (text[: at + 1] + "\\ud83d" + text[at + 1 :]).encode()
    yield "bytes that are not UTF-8", text[:-1].encode() + b', "note": "\xff\xfe"}'
    yield "a surrogate spelt in UTF-8 bytes", text[:-1].encode() + b', "note": "\xed\xa0\x80"}'
    yield "Latin-1 text", text[:-1].encode() + ', "note": "café"}'.encode("latin-1")


def test_lone_surrogates_and_bytes_that_are_not_utf8_are_400_on_every_post_endpoint(table_app: Flask) -> None:
    judge = Judge(table_app.test_client())
    posts = _post_routes(table_app)
    assert {p for p, _ in posts} >= {"/matches", "/positions", "/decks/validate"}
    for path, build in posts:
        ctx = Ctx(judge, table_app, judge.create_match(seed=1), judge.create_match(seed=2))
        req = build(ctx)
        version = judge.get(ctx.m.path)["version"]
        for name, raw in _bad_text_bodies(req.body):
            for caller in ("judge", "own player") if TABLE[("POST", path)][0] != JUDGE else ("judge",):
                r = _call(ctx, "POST", req, ctx.token(caller), raw)
                _check_refusal(r, 400, caller, f"{path}: {name}")
        assert judge.get(ctx.m.path)["version"] == version
        # a proper surrogate pair is a character like any other: not refused for its text
        paired = json.dumps({**req.body, "note": "\U0001f600"}).encode()
        r = _call(ctx, "POST", req, ctx.token("judge"), paired)
        assert r.status_code in (400, 422) and "surrogate" not in r.get_json()["detail"], path


JUNK_VALUES: tuple[Any, ...] = (
    {},
    [],
    None,
    True,
    0,
    -1,
    10**30,
    -(10**30),
    1.5,
    "",
    "x" * 300,
    [{}],
    {"a": [1]},
)
JUNK_WHOLE_BODIES: tuple[bytes, ...] = (
    *JUNK_BODIES,
    b"null",
    b"[]",
    b'"text"',
    b"12",
    b"1" * 5000,
    b'{"at": NaN, "to": Infinity, "seed": -Infinity}',
    b'{"at": 1e999, "to": 1' + b"0" * 5000 + b"}",
    b"[" * 100_000,
    b'{"action": ' * 2000 + b"{}" + b"}" * 2000,
    b'{"a": 1, "a": 2}',
    b"\x00",
    b'{"action": {"type": "adjust", "steps": [{"op": "move", "card": {}, "to": [], "amount": "x"}], '
    b'"reason": 1}}',
    b'{"action": {"type": "play_signi", "player": ["p1"], "card": {}, "zone": []}}',
    b'{"action": {"type": "remove_signi", "player": "p1", "zones": [{}, []]}}',
    b'{"action": {"type": "choose", "player": "p1", "cards": "abc", "order": {}, "zones": [1]}}',
)


def _leaf_paths(value: Any, at: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield at
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _leaf_paths(v, (*at, k))
    elif isinstance(value, list):
        for i, v in enumerate(value[:3]):
            yield from _leaf_paths(v, (*at, i))


def _replaced(value: Any, at: tuple[Any, ...], new: Any) -> Any:
    if not at:
        return new
    if isinstance(value, dict):
        return {**value, at[0]: _replaced(value[at[0]], at[1:], new)}
    out = list(value)
    out[at[0]] = _replaced(out[at[0]], at[1:], new)
    return out


def test_bodies_of_the_wrong_shape_are_400_or_422_on_every_post_endpoint_never_500(table_app: Flask) -> None:
    """As the judge (whose token reaches the deepest code): whole bodies of junk, and the endpoint's proper
    body with each of its fields in turn replaced by values of the wrong kind."""
    judge = Judge(table_app.test_client())
    for path, build in _post_routes(table_app):
        ctx = Ctx(judge, table_app, judge.create_match(seed=1), judge.create_match(seed=2))
        req = build(ctx)
        for raw in JUNK_WHOLE_BODIES:
            r = _call(ctx, "POST", req, ctx.token("judge"), raw)
            too_big = len(raw) > DEFAULTS["DECK_VALIDATE_MAX_BYTES"] and path == "/decks/validate"
            assert r.status_code in ((413,) if too_big else (400, 422)), (
                path,
                raw[:60],
                r.status_code,
                r.get_data(as_text=True)[:300],
            )
            assert r.content_type == "application/problem+json"
        for at in _leaf_paths(req.body):
            if not at:
                continue
            for junk in JUNK_VALUES:
                body = _replaced(req.body, at, junk)
                r = _call(ctx, "POST", req, ctx.token("judge"), json.dumps(body).encode())
                assert r.status_code < 500, (path, at, junk, r.status_code, r.get_data(as_text=True)[:300])
                if r.status_code >= 400:
                    assert r.content_type == "application/problem+json", (path, at, junk)
