"""No response names a card its reader does not know: rulings, states, events and legal actions, walked
through whole random matches.

What a viewer knows, and so what may be named to it (the rule every check below applies):

- At a moment N (the state after event N), viewer V *knows* an instance id when V's view of that state
  may show the card: it lies in a zone V may look at (the public zones; a player's own hand and LRIG deck),
  on the field face up, or the pending decision shows it to V (the choices of V's own decision, the cards a
  look effect shows V). This is worked out here from the judge's state, independently of the views under
  test (``visible``). The order of a deck, the cards of a Life Cloth and the other player's hand are never
  known, even when V saw the card earlier: once a card went back into a hidden place, where it is now is
  not V's to know.
- V knows a catalogue id at N when V knows an instance of that card at N. A catalogue id that one visible
  copy makes known may be named; a copy of it that is hidden stays unknown by its instance id (so naming
  ``WXDi-D01-013`` is fine while one is on the field, but naming the instance id of the one on top of the
  deck is not). A catalogue id none of whose copies V knows at N must not be named at all.
- A match's summary (``GET /matches/{id}``) at N may also name the catalogue ids of a player's own cards
  to that player (its ``enforced`` lists which of them the service enforces: the player's own deck list,
  which it knows, though not where each card is); nothing else it does not know at N.
- Rulings asked at N, state and legal actions at N must name only what V knows at N: a ruling predicts
  events that have not happened, so a card those events would show (a draw, a crush, a reveal, the outcome
  of a shuffle) is not known yet.
- The log: event n may name only what V knew at some moment up to n (a card V once saw may be named by the
  events that showed it then), or what event n itself shows V (a card revealed to V or to everybody, the
  card a player draws to itself). A card revealed later (put into the trash at event m > n) is known from m
  on, not before.

Checks are made on the whole JSON text of each response: no unknown id appears anywhere in it, as a value,
a key or inside a sentence.
"""

from __future__ import annotations

import json
import random
from typing import Any
from uuid import UUID

import pytest
from flask import Flask

from app.application import Ruling
from domain import facts
from domain.evolve import apply
from domain.state import GameState
from projections.sentences import Cast
from projections.views import (
    EVENT_VISIBILITY,
    domain_event_view,
    event_view,
    legal_actions_view,
    redact_data,
    ruling_view,
    state_view,
)
from tests.conftest import Judge

VIEWERS = ("p1", "p2", "spectator")
PLAYER_ZONES = ("hand", "lrig_deck", "ener", "trash", "lrig_trash", "check", "excluded")
PUBLIC_ZONES = ("ener", "trash", "lrig_trash", "check", "excluded")
GAMES = (  # (seed, p1 deck, p2 deck): different preset pairings, both seats
    (11, "WXDi-D01", "WXDi-D02"),
    (12, "WXDi-D03", "WXDi-D04"),
    (13, "WXDi-D05", "WXDi-D06"),
    (14, "WXDi-D07", "WXDi-D08"),
    (15, "WXDi-D09-H", "WXDi-D09-P"),
    (16, "WXDi-D02", "WXDi-D01"),
    (17, "WXDi-D04", "WXDi-D07"),
    (18, "WXDi-D06", "WXDi-D09-H"),
    # the original format (seed 002): one LRIG put face down, the ARTS use step
    (19, "DEMO-WD01", "DEMO-WD03"),
    (20, "DEMO-WD05", "DEMO-WD02"),
)
HTTP_SAMPLE = 25  # decision points per match also asked through HTTP, compared with the direct answers


def names_in(value: Any) -> set[str]:
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return {x for k, v in value.items() for x in (k, *names_in(v))}
    if isinstance(value, list | tuple):
        return {x for v in value for x in names_in(v)}
    return set()


def visible(state: GameState, viewer: str) -> set[str]:
    """The instance ids ``viewer`` may see in ``state``, from the judge's state (see the module text)."""
    out: set[str] = set()
    for p, ps in state.players.items():
        zones = PLAYER_ZONES if viewer == p else PUBLIC_ZONES
        for zone in zones:
            out.update(ps.zones[zone])
        if ps.lrigs_face_up or viewer == p:
            for slot in ps.lrig.values():
                if slot is not None:
                    out.add(slot.iid)
                    out.update(slot.under)
        for slot in ps.signi.values():
            if slot is not None:
                out.add(slot.iid)
                out.update(slot.under)
    pending = state.pending or {}
    if pending.get("player") == viewer or (pending and not pending.get("private")):
        out |= names_in({k: v for k, v in pending.items() if k != "resume"}) & set(state.cards)
    return out


def shown_by(event: Any, viewer: str) -> set[str]:
    """The cards event ``event`` itself shows ``viewer`` as it happens: a reveal to everybody or to the
    viewer, a hand shown to it, the cards a player draws or looks at, to that player."""
    d = event.data
    cards = names_in(d.get("cards")) | names_in(d.get("top")) | names_in(d.get("bottom"))
    if event.type == "CardRevealed":
        return {d["card"]}
    if event.type == "HandRevealed":
        return cards if d.get("to") in ("all", viewer) or d.get("player") == viewer else set()
    if d.get("reveal"):
        return cards
    if d.get("player") == viewer and event.type in ("CardsDrawn", "DeckTopArranged", "CardsMoved"):
        return cards
    return set()


def unknown(state: GameState, known_iids: set[str]) -> set[str]:
    """Every instance id and catalogue id of the match that ``known_iids`` does not make known."""
    known_ids = {state.cards[i] for i in known_iids}
    return (set(state.cards) - known_iids) | (set(state.cards.values()) - known_ids)


def owned(state: GameState, viewer: str) -> set[str]:
    """The catalogue ids of ``viewer``'s own cards: the deck list it brought (or the judge set for it)."""
    return {cid for iid, cid in state.cards.items() if state.owners.get(iid) == viewer}


def assert_names_none(body: Any, forbidden: set[str], what: str) -> None:
    text = json.dumps(body)
    leaked = sorted(x for x in forbidden if x in text)
    assert not leaked, f"{what} names cards the viewer does not know: {leaked[:5]}\n{text[:2000]}"


def hidden_names(state: GameState, forbidden: set[str]) -> set[str]:
    """The names of the cards whose catalogue ids ``forbidden`` holds, except a name that a card the viewer
    may know also bears (or holds within its own name)."""
    cat = facts.catalogue()
    ids = set(state.cards.values())
    known_names = {cat.get(i).name for i in ids - forbidden}
    names = {cat.get(i).name for i in ids & forbidden}
    return {n for n in names if not any(n in k for k in known_names)}


def assert_text_names_none(text: str, state: GameState, forbidden: set[str], what: str) -> None:
    leaked = sorted(n for n in hidden_names(state, forbidden) if n in text)
    assert not leaked, f"{what}: the sentence names cards the viewer does not know: {leaked[:5]}\n{text}"


def walk(app: Flask, judge: Judge, seed: int, p1: str, p2: str) -> int:
    """Plays one match to its end (random legal actions, seeded) and checks everything on the way; returns
    the number of rulings checked."""
    application = app.extensions["judge"]
    fmt = "original" if p1.startswith("DEMO-WD") else "diva"
    m = judge.create_match(p1, p2, seed=seed, first_player=None, format=fmt)
    mid = UUID(m.id)
    rng = random.Random(seed)
    sample_rng = random.Random(-seed)
    rulings = 0
    http_points: list[tuple[int, str, dict[str, Any]]] = []
    while True:
        state = application.state_at(mid)
        n = state.version
        for viewer in VIEWERS:
            forbidden = unknown(state, visible(state, viewer))
            assert_names_none(state_view(state, viewer), forbidden, f"state at {n} for {viewer}")
            # the match's summary (its `enforced` lists catalogue ids): a player's own deck list is the
            # player's to know, an undrawn card of it included; nothing else it cannot see
            summary = judge.get(m.path, token=m.tokens.get(viewer))
            assert_names_none(summary, forbidden - owned(state, viewer), f"summary at {n} for {viewer}")
        if state.status == "finished":
            break
        decider = state.pending["player"]
        for viewer in VIEWERS:
            if viewer != decider:
                assert legal_actions_view(state, viewer, viewer if viewer != "spectator" else None) == []
        actions = legal_actions_view(state, decider, decider)
        assert actions, f"no legal action at {n}"
        # what the decider may be told: its own view of the state, checked above against the judge's state
        seen = names_in(state_view(state, decider)) & set(state.cards)
        forbidden = unknown(state, seen)
        assert_names_none(actions, forbidden, f"legal actions at {n} for {decider}")
        for action in actions:
            ruling = application.ruling(mid, action, at=n)
            body = ruling_view(state, ruling, decider, action)
            assert body["legal"], (n, action, body)
            assert_names_none(body, forbidden, f"ruling at {n} for {decider} on {action}")
            rulings += 1
        http_points.append((n, decider, sample_rng.choice(actions)))
        application.act(mid, rng.choice(actions), expected_version=n)

    # the log, for each viewer: event n names only what the viewer could know by then, by id in its data
    # and by card name in its sentence
    stored = application.stored_events(mid)
    cast = Cast.of(application.state_at(mid, 1))
    running = GameState()
    known: dict[str, set[str]] = {v: set() for v in VIEWERS}
    for e in stored:
        apply(running, e)
        for viewer in VIEWERS:
            known[viewer] |= visible(running, viewer) | shown_by(e, viewer)
            forbidden = unknown(running, known[viewer])
            body = event_view(e, viewer, cast=cast)
            assert_names_none(body, forbidden, f"event {e.originator_version} for {viewer}")
            assert_text_names_none(
                body["text"], running, forbidden, f"event {e.originator_version} for {viewer}"
            )

    # the same answers through HTTP, for a sample of the decision points
    for n, decider, action in sample_rng.sample(http_points, min(HTTP_SAMPLE, len(http_points))):
        r = judge.ruling(m, action, at=n, token=m.tokens[decider])
        assert r.status_code == 200, r.get_json()
        state = application.state_at(mid, n)
        assert r.get_json() == json.loads(
            json.dumps(ruling_view(state, application.ruling(mid, action, at=n), decider, action))
        )
        la = judge.get(f"{m.path}/legal-actions", token=m.tokens[decider], at=n)
        assert la["actions"] == json.loads(json.dumps(legal_actions_view(state, decider, decider)))
        for viewer, token in (("p1", m.tokens["p1"]), ("p2", m.tokens["p2"]), ("spectator", None)):
            got = judge.get(f"{m.path}/state", token=token, at=n)
            assert got == json.loads(json.dumps(state_view(state, viewer)))
            after = max(0, n - 20)
            events = judge.get(f"{m.path}/events", token=token, after=after, limit=n - after)["events"]
            for got_event in events:
                got_event.pop("decision_point")  # the timeline's mark, added by the endpoint
            views = [event_view(e, viewer, cast=cast) for e in stored[after:n]]
            assert events == json.loads(json.dumps(views))
        spectator = judge.client.get(f"{m.path}/legal-actions", query_string={"at": n})
        assert spectator.status_code == 401  # no token where a participant's is needed
    return rulings


@pytest.mark.parametrize(("seed", "p1", "p2"), GAMES)
def test_every_ruling_of_every_decision_names_only_known_cards(
    app: Flask, judge: Judge, seed: int, p1: str, p2: str
) -> None:
    assert walk(app, judge, seed, p1, p2) > 300


# -- a crush and a draw, set up by hand ------------------------------------------------------------

BURST = "WXDi-D01-020"  # a SIGNI with a Life Burst, only in p2's Life Cloth
TOP = "WXDi-D01-019"  # only on top of p1's deck


def attack_position() -> dict[str, Any]:
    """p1's SIGNI attack step, an upped SIGNI in p1's center facing an empty zone; p2's Life Cloth holds a
    Life Burst card that nothing else shows."""
    return {
        "format": "diva",
        "turn": 3,
        "turn_player": "p1",
        "phase": "attack",
        "step": "signi_attack",
        "seed": 5,
        "players": {
            "p1": {
                "lrig": {"center": "WXDi-D01-004", "left": "WXDi-D01-006", "right": "WXDi-D01-009"},
                "signi": {"left": None, "center": "WXDi-D01-012", "right": None},
                "hand": ["WXDi-D01-018"],
                "deck": [TOP] + ["WXDi-D01-017"] * 9,
                "life_cloth": ["WXDi-D01-017"] * 3,
            },
            "p2": {
                "lrig": {"center": "WXDi-D01-004"},
                "deck": ["WXDi-D01-017"] * 10,
                "life_cloth": [BURST, "WXDi-D01-017", "WXDi-D01-017"],
            },
        },
    }


def test_a_ruling_on_an_attack_does_not_name_the_life_cloth_it_would_crush(judge: Judge) -> None:
    """An attack on an empty zone deals damage and crushes the top Life Cloth (rule ``damage`` and the
    crush of the API's Words): the attacker asking beforehand learns that a card would be crushed, not which,
    nor whether it has a Life Burst."""
    m = judge.create_position(attack_position())
    assert judge.state(m)["pending"]["kind"] == "signi_attack"
    action = {"player": "p1", "type": "attack", "zone": "center"}

    seen_by_judge = judge.ruling(m, action).get_json()
    assert seen_by_judge["complete"] is True
    assert BURST in json.dumps(seen_by_judge)  # the judge's ruling does name it: the check below can fail
    crushed = next(e for e in seen_by_judge["events"] if e["type"] == "LifeClothCrushed")

    r = judge.ruling(m, action, token=m.tokens["p1"])
    assert r.status_code == 200
    body = r.get_json()
    life_cloth = {c["iid"] for c in judge.state(m)["players"]["p2"]["life_cloth"]["cards"]}
    text = r.get_data(as_text=True)
    assert BURST not in text and not any(iid in text for iid in life_cloth)
    assert body["legal"] is True and body["complete"] is False
    last = body["events"][-1]
    assert last["type"] == "LifeClothCrushed" and last["n"] == crushed["n"]
    assert last["data"] == {"player": "p2", "count": 1, "cause": crushed["data"]["cause"]}
    assert "Asked" not in [e["type"] for e in body["events"]]  # no hint that it has a Life Burst
    assert "cannot see" in body["explanation"]
    assert all(ref in seen_by_judge["rule_refs"] for ref in body["rule_refs"])

    # once the attack is made, the crushed card is public, and the log names it to everybody
    assert judge.act(m, action, token=m.tokens["p1"]).status_code == 201
    assert BURST in json.dumps(judge.events(m, token=None))


def test_a_ruling_on_a_mulligan_does_not_name_the_cards_it_would_draw(app: Flask, judge: Judge) -> None:
    """A mulligan returns cards, shuffles the deck and draws as many (set-up in the seed rules): the player
    asking before learns how many cards it would draw, never which, nor where the returned ones went."""
    m = judge.create_match("WXDi-D01", "WXDi-D02", seed=21)
    first = app.extensions["judge"].state_at(UUID(m.id)).pending["player"]
    assert judge.act(m, {"player": first, "type": "mulligan", "cards": []}).status_code == 201
    state = app.extensions["judge"].state_at(UUID(m.id))
    p = state.pending["player"]  # the second player's mulligan: both are carried out after it
    hand = state.players[p].zones["hand"]
    action = {"player": p, "type": "mulligan", "cards": hand[:2]}
    seen_by_judge = judge.ruling(m, action).get_json()
    drawn = next(e for e in seen_by_judge["events"] if e["type"] == "CardsDrawn")["data"]["cards"]
    body = judge.ruling(m, action, token=m.tokens[p]).get_json()
    assert body["complete"] is False and body["events"][-1]["type"] == "CardsDrawn"
    assert body["events"][-1]["data"]["count"] == len(drawn) == 2
    forbidden = unknown(state, visible(state, p))
    assert_names_none(body, forbidden, "the mulligan ruling")
    # with this seed the shuffle brings back one of the two returned cards, which the player knows: naming
    # it as drawn would tell the outcome of the shuffle, so the prediction names no drawn card at all
    assert set(drawn) & set(hand[:2]) and set(drawn) - set(hand[:2]) <= forbidden
    assert not set(drawn) & names_in(body["events"][-1])


# -- the allow-list ---------------------------------------------------------------------------------


def test_every_event_type_is_declared_and_an_undeclared_one_shows_its_envelope_only() -> None:
    from domain.events import EVENT_TYPES, Event

    assert set(EVENT_TYPES) == set(EVENT_VISIBILITY), "declare who may see what of every event type"
    secret = {"player": "p1", "card": "i-secret", "cards": ["i-secret"]}
    for viewer in ("p1", "p2", "spectator"):
        assert redact_data("SomethingNew", secret, viewer) == {}
    assert redact_data("SomethingNew", secret, "judge") == secret

    import projections.views as views

    event = Event("TurnBegan", "rules", "turn.begin", {"turn": 1, "player": "p1"})
    try:  # a type taken off the list is hidden, as a new one would be
        del views.EVENT_VISIBILITY["TurnBegan"]
        body = domain_event_view(5, event, "p2")
        assert body == {
            "n": 5,
            "type": "TurnBegan",
            "actor": "rules",
            "rule": "turn.begin",
            "caused_by": None,
            "data": {},
            "text": "Something happened that is not shown to you.",
        }
        assert domain_event_view(5, event, "judge")["data"] == event.data
    finally:
        views.EVENT_VISIBILITY["TurnBegan"] = views._public


def test_a_refused_ruling_says_back_the_cards_the_asker_named_and_no_other(app: Flask, judge: Judge) -> None:
    """The explanation of a refused action names the cards the asker's action named (its own words), and
    any other card the asker does not know is left out of it, as of every part of a ruling."""
    m = judge.create_position({**attack_position(), "phase": "main", "step": None})
    state = app.extensions["judge"].state_at(UUID(m.id))
    assert state.pending["kind"] == "main"
    action = {"player": "p1", "type": "play_signi", "card": BURST, "zone": "left"}
    body = judge.ruling(m, action, token=m.tokens["p1"]).get_json()
    assert body["legal"] is False and BURST in body["explanation"]  # p1 named it: nothing new

    top = state.players["p1"].zones["deck"][0]
    refused = Ruling(False, state.version, ("decision.invalid",), f"{top} ({TOP}) is on top of the deck", ())
    told = ruling_view(state, refused, "p1", action)
    assert top not in json.dumps(told) and TOP not in json.dumps(told)
    assert told["explanation"] == "a card you cannot see (a card you cannot see) is on top of the deck"
    assert ruling_view(state, refused, "judge", action)["explanation"] == refused.explanation
