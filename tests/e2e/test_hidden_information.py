"""Hidden information never leaves the service: whatever a player or a spectator asks, at any point, no
response names a card it may not know then, and nobody but the judge sees the seed.

The cards a viewer may not know at event N are worked out here from the judge's states, independently of
the views under test: in the state at N, the cards in zones hidden from the viewer (another player's hand,
deck, Life Cloth and LRIG deck; the viewer's own deck and Life Cloth; face-down LRIGs), less the cards the
pending decision shows the viewer (a look at the top of its deck). For the log up to N,
the bar is whether the viewer could ever see the card up to N: a card it saw in its hand and shuffled back
may be named by the events that showed it then.
"""

from __future__ import annotations

import json
import random
from typing import Any
from uuid import UUID

import pytest
from flask import Flask

from app.schemas.events import MAX_EVENTS
from domain.evolve import apply
from domain.state import GameState
from tests.conftest import Judge, MatchRef

VIEWERS = ("p1", "p2", "spectator")
GAMES = (  # (seed, p1 deck, p2 deck, rewind)
    (4503599627370001, "WXDi-D01", "WXDi-D02", False),
    (3141592653589793, "WXDi-D05", "WXDi-D09-H", True),
    (2718281828459045, "WXDi-D08", "WXDi-D03", False),
    (1618033988749894, "WXDi-D09-P", "WXDi-D06", False),
)


def named(value: Any) -> set[str]:
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return {x for v in value.values() for x in named(v)}
    if isinstance(value, list):
        return {x for v in value for x in named(v)}
    return set()


def shown_by_decision(state: GameState, viewer: str) -> set[str]:
    """The cards the pending decision shows ``viewer``: all it names to the deciding player (the cards a
    look effect shows it, the choices), and to everybody when the decision is not private."""
    pending = state.pending or {}
    if pending.get("player") == viewer or (pending and not pending.get("private")):
        return named({k: v for k, v in pending.items() if k != "resume"}) & set(state.cards)
    return set()


def hidden_from(state: GameState, viewer: str) -> set[str]:
    out: set[str] = set()
    for p, ps in state.players.items():
        own = viewer == p
        zones = ("deck", "life_cloth") if own else ("hand", "deck", "life_cloth", "lrig_deck")
        for zone in zones:
            out.update(ps.zones[zone])
        if not own and not ps.lrigs_face_up:
            for slot in ps.lrig.values():
                if slot is not None:
                    out.add(slot.iid)
                    out.update(slot.under)
    return out - shown_by_decision(state, viewer)


def knowledge(events: list[Any]) -> tuple[list[GameState], dict[str, list[set[str]]]]:
    """The judge's state after each event, and per viewer the cards it could have seen up to each event: the
    cards its view of each state shows, and the cards an event reveals to everybody (``reveal``)."""
    state = GameState()
    states = [state.copy()]
    seen: dict[str, set[str]] = {v: set() for v in VIEWERS}
    known: dict[str, list[set[str]]] = {v: [set()] for v in VIEWERS}
    for e in events:
        apply(state, e)
        states.append(state.copy())
        revealed = named(e.data.get("cards")) if e.data.get("reveal") else set()
        if e.type == "CardRevealed":  # the top card of a deck, shown to everybody
            revealed = {e.data["card"]}
        shown_to = e.data.get("to") if e.type == "HandRevealed" else None  # a hand shown to one or all
        if shown_to == "all":
            revealed = named(e.data.get("cards"))
        for v in VIEWERS:
            told = named(e.data.get("cards")) if shown_to == v else set()
            seen[v] |= (set(state.cards) - hidden_from(state, v)) | revealed | told
            known[v].append(set(seen[v]))
    return states, known


def keys(value: Any) -> set[str]:
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in keys(v)}
    if isinstance(value, list):
        return {k for v in value for k in keys(v)}
    return set()


def assert_names_none(text: str, cards: set[str], what: str) -> None:
    leaked = sorted(c for c in cards if c in text)
    assert not leaked, f"{what} names cards the viewer may not know: {leaked[:5]}"


def responses(
    judge: Judge,
    m: MatchRef,
    n: int,
    viewer: str,
    token: str | None,
    rng: random.Random,
    hidden: set[str],
    unknown_so_far: set[str],
) -> list[tuple[str, str, set[str]]]:
    """What ``viewer`` gets at event ``n``, each with the cards it must not name."""
    out = []
    s = judge.client.get(f"{m.path}/state", query_string={"at": n}, headers=judge.headers(token))
    assert s.status_code == 200
    out.append(("state", s.get_data(as_text=True), hidden))
    after = 0
    while after < n:  # the log up to n, a page of at most MAX_EVENTS at a time
        limit = min(MAX_EVENTS, n - after)
        ev = judge.client.get(
            f"{m.path}/events", query_string={"after": after, "limit": limit}, headers=judge.headers(token)
        )
        assert ev.status_code == 200 and len(ev.get_json()["events"]) == limit
        out.append(("events", ev.get_data(as_text=True), unknown_so_far))
        after += limit
    la = judge.client.get(f"{m.path}/legal-actions", query_string={"at": n}, headers=judge.headers(token))
    if viewer == "spectator":
        assert la.status_code == 401  # a spectator sends no token: the legal actions need one
        return out
    assert la.status_code == 200
    out.append(("legal-actions", la.get_data(as_text=True), hidden))
    actions = la.get_json()["actions"]
    asks = [actions[0], rng.choice(actions)] if actions else [{"player": viewer, "type": "concede"}]
    for action in asks:
        r = judge.ruling(m, action, at=n, token=token)
        assert r.status_code == 200, r.get_json()
        out.append(("ruling", r.get_data(as_text=True), hidden))
    return out


@pytest.mark.parametrize(("seed", "p1", "p2", "rewind"), GAMES)
def test_no_response_names_a_card_the_viewer_may_not_know(
    app: Flask, judge: Judge, seed: int, p1: str, p2: str, rewind: bool
) -> None:
    m = judge.create_match(p1, p2, seed=seed, first_player=None)
    rng = random.Random(seed)
    if rewind:
        judge.play(m, rng, stop_at=150)
        points = judge.get(f"{m.path}/timeline", limit=60)["points"]
        to = max(p["n"] for p in points if p["decision_point"])  # time travel goes only to decision points
        r = judge.client.post(f"{m.path}/rewind", json={"to": to, "reason": "test"}, headers=judge.headers())
        assert r.status_code == 201
    judge.play(m, rng)
    application = app.extensions["judge"]
    stored = application.stored_events(UUID(m.id))
    head = len(stored)
    states, known = knowledge(stored)
    all_cards = set(states[-1].cards)

    sample = set(range(1, 14)) | set(random.Random(seed).sample(range(14, head + 1), 14)) | {head}
    tokens: dict[str, str | None] = {"p1": m.tokens["p1"], "p2": m.tokens["p2"], "spectator": None}
    checked = 0
    for n in sorted(sample):
        state = states[n]
        for viewer, token in tokens.items():
            hidden = hidden_from(state, viewer)
            unknown_so_far = all_cards - known[viewer][n]

            for what, text, forbidden in responses(judge, m, n, viewer, token, rng, hidden, unknown_so_far):
                assert_names_none(text, forbidden, f"{what} at {n} for {viewer}")
                assert str(seed) not in text, f"{what} at {n} for {viewer} shows the seed"
                judge_only = {"seed", "hash"} | ({"digest"} if what == "state" else set())
                assert not judge_only & keys(json.loads(text)), (
                    f"{what} at {n} for {viewer} shows judge-only fields"
                )
                checked += 1
    for viewer, token in tokens.items():
        # every event of the log names only cards the viewer could know by then
        for e in judge.events(m, token=token):
            assert_names_none(
                json.dumps(e), all_cards - known[viewer][e["n"]], f"event {e['n']} for {viewer}"
            )
        summary = judge.client.get(m.path, headers=judge.headers(token)).get_data(as_text=True)
        assert_names_none(summary, hidden_from(states[-1], viewer), f"summary for {viewer}")
        assert str(seed) not in summary
    assert checked > 250
    # the judge does see it all
    assert judge.state(m, at=1)["seed"] == seed
