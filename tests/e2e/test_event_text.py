"""Events say what happened in a sentence (`text`, API.md "Additions": Events carry `text`), made per viewer
from what the viewer may see; cards show their encoding (`abilities`); a browser asking for `/` goes to the
console."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest
from flask import Flask

from domain.abilities.card_view import SHOWN_KINDS, vocabulary
from domain.abilities.catalogue import abilities_of
from domain.decks import PRESET_IDS, preset
from domain.engine import decide
from domain.errors import IllegalAction
from domain.events import EVENT_TYPES, Event
from domain.evolve import apply
from domain.facts import catalogue
from domain.legal import legal_actions
from domain.setup import PlayerSetup, create_match
from domain.simulation import pairings
from domain.state import GameState
from projections.sentences import SENTENCES, Cast
from projections.views import VIEWERS, domain_event_view, event_view
from tests.conftest import Judge
from tests.unit.scenario_runner import load_all, run

SNAKE = re.compile(r"\b[a-z0-9]+(?:_[a-z0-9]+)+\b")
INSTANCE_ID = re.compile(r"\bc[0-9a-f]{10}\b")


def readable(text: str) -> list[str]:
    """What is wrong with a sentence: nothing, for a good one."""
    problems = []
    if not text or not text.strip():
        problems.append("empty")
    if SNAKE.search(text):
        problems.append(f"internal word {SNAKE.search(text).group(0)!r}")  # type: ignore[union-attr]
    for bad in ("None", "{", "}", "WXDi-", " happened."):
        if bad in text:
            problems.append(f"holds {bad!r}")
    if INSTANCE_ID.search(text):
        problems.append("names an instance id")
    if not text.lstrip("[")[:1].isupper() or not text.endswith((".", "?", "!")):  # a name may open "["
        problems.append("not a sentence")
    return problems


def test_every_event_type_has_a_sentence() -> None:
    assert set(SENTENCES) == set(EVENT_TYPES), "write a sentence for every event type"


# -- events of every type ---------------------------------------------------------------------------


def random_matches(games: int) -> list[tuple[Cast, list[Event]]]:
    """Random legal matches across the preset pairings, with the names Ann and Bo."""
    out = []
    pairs = pairings()
    for g in range(games):
        seed = 1000 + g
        d1, d2 = pairs[(g * 7) % len(pairs)]
        chooser = random.Random(seed)
        events = create_match(
            "diva", seed, {"p1": PlayerSetup("Ann", preset(d1)), "p2": PlayerSetup("Bo", preset(d2))}
        )
        state = GameState()
        for e in events:
            apply(state, e)
        while state.status != "finished" and state.turn < 60:
            batch = decide(state, chooser.choice(list(legal_actions(state))))
            for e in batch:
                apply(state, e)
            events += batch
        out.append((Cast.of(state), events))
    return out


def scenario_events() -> list[tuple[Cast, list[Event]]]:
    """The events of every ruling scenario (``tests/scenarios``): the cards' own events (markers, held
    abilities, replacements ...) that random matches of the starter decks never reach. A scenario that fails
    is reported by ``test_scenarios``; here its events so far are still read."""
    out = []
    for sc in load_all():
        sink: list[Event] = []
        try:
            state = run(sc, sink)
        except (AssertionError, IllegalAction):
            state = GameState()
            for e in sink:
                apply(state, e)
        out.append((Cast.of(state), sink))
    return out


# The few types no random match of the presets reached in 60 games: each made as the code that emits it
# does (the file and the data it writes), so their sentences are checked too.
RARE = (
    Event(
        "AttackForbidden", "rules", "ability.enter", {"player": "p2", "zone": "left", "until": "end_of_turn"}
    ),
    Event("EffectEnded", "rules", "effect.delayed", {"key": "t5", "reason": "the turn ended"}),  # triggers.py
    Event(
        "ZoneKeywordsGranted",
        "rules",
        "ability.enter",
        {"player": "p1", "zones": ["center"], "keywords": ["lancer"], "until": "end_of_turn"},
    ),  # game.py
    Event(
        "SigniAttacksLimited", "rules", "effect.attack-count", {"player": "p2", "max": 1, "by_effect": "x"}
    ),
    Event("VanishRedirected", "rules", "effect.vanish-to-trash", {"player": "p2", "by_effect": "x"}),
    Event("MinusDoubled", "rules", "power.modify", {"player": "p1", "by_effect": "x"}),  # game.py
    Event("SpellCostEased", "rules", "spell.use", {"player": "p1", "by_effect": "x"}),  # effects/game.py
    Event("LrigTrashed", "rules", "rba.lrig-type", {"player": "p1", "position": "left"}),  # rba.py
    Event("CardReturned", "rules", "rba.6", {"player": "p1", "card": "x", "from": "ener", "to": "lrig_deck"}),
    Event("CheckZoneCleared", "rules", "end.check-zone", {"player": "p2", "cards": []}),  # procedure.py
    Event(
        "LifeBurstCancelled", "rules", "life-burst.use", {"player": "p2", "card": "x", "by": "p1"}
    ),  # answers.py
    Event("ArtsUsed", "p1", "arts.use", {"player": "p1", "card": "x", "ener": []}),  # use.py (no Diva ARTS)
    Event("MinusDoubled", "rules", "power.modify", {"player": "p1", "by_effect": "x"}),  # effects/game.py
    Event("VanishRedirected", "rules", "effect.vanish-to-trash", {"player": "p1", "by_effect": "x"}),
    Event(  # effects/changing.py grant with ener_zone
        "EnerZoneGranted",
        "rules",
        "ability.action",
        {"player": "p1", "keywords": ["multi_ener"], "until": "end_of_turn", "by_effect": "x"},
    ),
    Event(  # effects/game.py erase_zone
        "ZoneErased",
        "rules",
        "zone.erased",
        {"player": "p2", "zone": "left", "until": "end_of_turn", "by_effect": "x"},
    ),
)


def judge_events(app: Flask, judge: Judge) -> list[tuple[Cast, list[Any]]]:
    """Stored events of a judge's work: a position, a rewind, a branch, an adjustment and a concession."""
    application = app.extensions["judge"]
    m = judge.create_match(seed=5)
    judge.play(m, random.Random(5), stop_at=40)
    timeline = judge.get(f"{m.path}/events", after=0)["events"]
    point = max(e["n"] for e in timeline if e.get("decision_point") and e["n"] < 30)
    assert (
        judge.client.post(
            f"{m.path}/rewind", json={"to": point, "reason": "a misplay"}, headers=judge.headers()
        ).status_code
        == 201
    )
    r = judge.client.post(
        f"{m.path}/branches", json={"at": point, "reason": "what if"}, headers=judge.headers()
    )
    assert r.status_code == 201
    branch = UUID(r.get_json()["id"])
    state = application.state_at(UUID(m.id))
    card = next(iid for iid in state.players["p1"].zones["hand"])
    adjust = {
        "type": "adjust",
        "player": "p1",
        "reason": "a card not enforced",
        "steps": [
            {"op": "move", "card": card, "from": "hand", "to": "trash"},
            {"op": "draw", "player": "p1", "n": 1},
        ],
    }
    assert judge.act(m, adjust).status_code == 201, judge.act(m, adjust).get_json()
    assert judge.act(m, {"type": "concede", "player": "p2"}).status_code == 201
    position = {
        "turn": 3,
        "turn_player": "p1",
        "phase": "main",
        "seed": 1,
        "players": {
            "p1": {
                "lrig": {"center": "WXDi-D01-004"},
                "hand": ["WXDi-D01-013"],
                "deck": ["WXDi-D01-012"] * 5,
            },
            "p2": {"lrig": {"center": "WXDi-D02-004"}, "deck": ["WXDi-D02-013"] * 5},
        },
    }
    p = judge.create_position(position)
    out = []
    for mid in (UUID(m.id), branch, UUID(p.id), takebacks_match(judge), paper_match(judge)):
        out.append((Cast.of(application.state_at(mid, 1)), application.stored_events(mid)))
    return out


def takebacks_match(judge: Judge) -> UUID:
    """A match whose policy lets takebacks through: p2 asks twice after the mulligans; p1 accepts, then
    declines."""
    m = judge.create_match(seed=1, takebacks={"policy": "with-consent", "refuse_after_reveal": False})
    while judge.state(m)["status"] == "setup":
        assert judge.act(m, judge.legal(m)[0]).status_code == 201
    for answer in ("accept", "decline"):
        while True:  # p2 answers a decision (a takeback never reaches back past the last rewind)
            deciding = judge.state(m)["pending"]["player"]
            assert judge.act(m, judge.legal(m)[0]).status_code == 201
            if deciding == "p2":
                break
        r = judge.client.post(
            f"{m.path}/takebacks", json={"reason": "misclick"}, headers=judge.headers(m.tokens["p2"])
        )
        assert r.status_code == 201, r.get_json()
        tid = r.get_json()["takeback"]
        r = judge.client.post(
            f"{m.path}/takebacks/{tid}/{answer}", json={}, headers=judge.headers(m.tokens["p1"])
        )
        assert r.status_code == 201, r.get_json()
    return UUID(m.id)


def paper_match(judge: Judge) -> UUID:
    """A paper game's record without a seed, imported: its replay sets which card unseen cards are."""
    text = (Path(__file__).parent.parent / "records" / "paper-game.jsonl").read_text(encoding="utf-8")
    r = judge.client.post("/records", json={"record": text}, headers=judge.headers())
    assert r.status_code == 201, r.get_json()
    return UUID(r.get_json()["id"])


def test_every_event_type_reads_as_a_sentence_for_every_viewer(app: Flask, judge: Judge) -> None:
    seen: dict[str, int] = {}
    problems: list[str] = []

    def check(etype: str, body: dict[str, Any], viewer: str) -> None:
        seen[etype] = seen.get(etype, 0) + 1
        for problem in readable(body["text"]):
            problems.append(f"{etype} for {viewer}: {problem}: {body['text']!r} from {body['data']}")

    for cast, events in random_matches(40):
        for i, e in enumerate(events, 1):
            for viewer in VIEWERS:
                check(e.type, domain_event_view(i, e, viewer, cast), viewer)
    for cast, events in scenario_events():
        for i, e in enumerate(events, 1):
            if seen.get(e.type, 0) < 200:  # each type read often enough; the suite stays quick
                for viewer in VIEWERS:
                    check(e.type, domain_event_view(i, e, viewer, cast), viewer)
    for cast, stored in judge_events(app, judge):
        for e in stored:
            for viewer in VIEWERS:
                check(e.type, event_view(e, viewer, cast=cast), viewer)
    cast = Cast({"p1": "Ann", "p2": "Bo"}, {"x": "WXDi-D01-013"})
    for e in RARE:
        for viewer in VIEWERS:
            check(e.type, domain_event_view(1, e, viewer, cast), viewer)
    assert set(seen) == set(EVENT_TYPES), f"no event of {sorted(set(EVENT_TYPES) - set(seen))}"
    assert not problems, "\n".join(problems[:20])


def test_a_hidden_draw_is_counted_for_the_opponent_and_named_for_the_drawer(app: Flask, judge: Judge) -> None:
    """The set-up draw (rule setup.draw) shows the drawer its cards, the others how many."""
    m = judge.create_match(seed=3)
    events = {
        v: judge.events(m, token=t)
        for v, t in (("p1", m.tokens["p1"]), ("p2", m.tokens["p2"]), ("spectator", None), ("judge", "judge"))
    }
    draw = next(
        i for i, e in enumerate(events["judge"]) if e["type"] == "CardsDrawn" and e["data"]["player"] == "p1"
    )
    names = [
        catalogue().get(app.extensions["judge"].state_at(UUID(m.id)).cards[c]).name
        for c in events["judge"][draw]["data"]["cards"]
    ]
    assert events["p2"][draw]["text"] == f"Ann draws {len(names)} cards."
    assert events["spectator"][draw]["text"] == events["p2"][draw]["text"]
    for v in ("p1", "judge"):
        assert events[v][draw]["text"].startswith("Ann draws ") and all(
            n in events[v][draw]["text"] for n in names
        )
    for n in names:  # no name of a drawn card in the opponent's sentence (unless the sentence says it anyway)
        assert n not in events["p2"][draw]["text"]


def test_a_ruling_s_predicted_events_carry_sentences_that_name_no_unseen_card(
    app: Flask, judge: Judge
) -> None:
    m = judge.create_match(seed=21)
    state = app.extensions["judge"].state_at(UUID(m.id))
    p = state.pending["player"]
    body = judge.ruling(m, {"player": p, "type": "mulligan", "cards": []}, token=m.tokens[p]).get_json()
    assert body["events"] and all(e["text"] and not readable(e["text"]) for e in body["events"])


# -- cards show their encoding ---------------------------------------------------------------------


def test_every_enforced_card_of_the_ten_decks_shows_its_abilities(judge: Judge) -> None:
    words = vocabulary()
    ids = sorted({c for d in PRESET_IDS for c in (*preset(d).lrig_deck, *preset(d).main_deck)})
    with_abilities = 0
    for card_id in ids:
        card = judge.get(f"/cards/{card_id}")
        assert card["enforced"] is True, card_id
        encoded = abilities_of(card_id)
        assert len(card["abilities"]) == len(encoded), card_id
        for shown in card["abilities"]:
            assert shown["kind"] in SHOWN_KINDS, (card_id, shown)
            assert shown["text"].strip(), card_id
            assert shown["words"] and set(shown["words"]) <= words, (card_id, shown)
        with_abilities += bool(encoded)
    assert with_abilities > 100


def test_a_card_the_service_does_not_enforce_shows_no_abilities(judge: Judge) -> None:
    cards = judge.get("/cards", all="true")["cards"]
    loose = next(c for c in cards if not c["enforced"])
    card = judge.get(f"/cards/{loose['id']}")
    assert card["enforced"] is False and card["abilities"] is None
    plain = judge.get("/cards/WXDi-D01-012")
    assert plain["enforced"] is True and isinstance(plain["abilities"], list)


# -- the console's door ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("accept", "redirected"),
    [
        ("text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8", True),  # a browser
        ("text/html", True),
        ("application/json", False),
        ("*/*", False),
        (None, False),
        ("application/json, text/html;q=0.5", False),
    ],
)
def test_a_browser_asking_for_the_root_is_sent_to_the_console(
    judge: Judge, accept: str | None, redirected: bool
) -> None:
    headers = {"Accept": accept} if accept else {}
    r = judge.client.get("/", headers=headers)
    assert "Accept" in r.headers.get("Vary", "")
    if redirected:
        assert r.status_code == 303 and r.headers["Location"].endswith("/console/")
    else:
        assert r.status_code == 200 and r.get_json()["docs"] == "/docs"


def test_event_texts_are_in_the_events_and_actions_responses(judge: Judge) -> None:
    m = judge.create_match(seed=9)
    action = judge.legal(m)[0]
    r = judge.act(m, action)
    assert r.status_code == 201
    assert all(e["text"] and not readable(e["text"]) for e in r.get_json()["events"])
    events = judge.events(m)
    assert events[0]["text"] == "A Diva Selection match between Ann and Bo is created."
    assert json.dumps(events).count('"text"') == len(events)
