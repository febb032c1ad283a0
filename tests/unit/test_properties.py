"""Properties of every match: the fold, the card accounting and the replay, at every event.

Random legal actions from every preset deck pairing (both seats): at every event N, the state from the
nearest checkpoint equals the fold of the first N events; every card is in exactly one place; and replaying
the stored log gives the identical state digest.
"""

from __future__ import annotations

import hashlib
import random
from typing import Any
from uuid import UUID

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain import invariants
from domain.decks import preset
from domain.engine import decide
from domain.evolve import apply, evolve, fold
from domain.legal import legal_actions
from domain.match import Match, project
from domain.setup import PlayerSetup, create_match
from domain.simulation import pairings
from domain.state import GameState, canonical_json
from projections.history import History

PAIRS = pairings()


def play(seed: int, decks: tuple[str, str], max_events: int) -> list[Any]:
    chooser = random.Random(seed)
    events = create_match(
        "diva", seed, {"p1": PlayerSetup("A", preset(decks[0])), "p2": PlayerSetup("B", preset(decks[1]))}
    )
    state = fold(events)
    while state.status != "finished" and len(events) < max_events:
        batch = decide(state, chooser.choice(list(legal_actions(state))))
        for e in batch:
            apply(state, e)
        events.extend(batch)
    return events


def check_log(events: list[Any]) -> None:
    history = History(lambda _id, after, upto: events[after:upto], interval=16)
    mid = UUID(int=1)
    running = GameState()
    for n, e in enumerate(events, start=1):
        before = running.copy()
        running = evolve(running, e)
        assert before.version == n - 1, "evolve must not change the state it is given"
        problems = invariants.problems(
            running, between_actions=(n == len(events) or events[n].action is not None)
        )
        assert not problems, f"event {n} ({e.type}): {problems}"
        if n % 7 == 0 or n == len(events):
            assert history.state_at(mid, n).digest() == running.digest(), (
                f"state_at({n}) differs from the fold"
            )
    # the stored log, read back and folded, gives the identical state
    match = Match.start(events)
    stored = list(match.collect_events())
    replayed = project(None, stored)
    assert replayed is not None and replayed.state.digest(include_version=True) == running.digest(
        include_version=True
    )


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**31), pair=st.sampled_from(PAIRS))
def test_random_matches_keep_their_properties(seed: int, pair: tuple[str, str]) -> None:
    check_log(play(seed, pair, max_events=2000))


def test_every_pairing_keeps_its_properties_through_its_opening() -> None:
    for i, pair in enumerate(PAIRS):
        check_log(play(1000 + i, pair, max_events=160))


def test_digest_is_the_canonical_state() -> None:
    events = play(3, PAIRS[5], max_events=300)
    a, b = fold(events), fold(events)
    assert a.digest() == b.digest() and a == b
    c = fold(events[:-1])
    assert c.digest() != a.digest()
    assert GameState.from_dict(a.to_dict()) == a


def test_the_invariants_catch_a_broken_state() -> None:
    state = fold(play(8, PAIRS[3], max_events=120))
    assert invariants.problems(state) == []
    p1 = state.players["p1"]
    twice = state.copy()
    twice.players["p1"].zones["hand"].append(p1.zones["deck"][0])
    assert any("2 places" in p for p in invariants.problems(twice))
    lost = state.copy()
    lost.players["p1"].zones["deck"].pop()
    assert any("0 places" in p for p in invariants.problems(lost))
    wrong_side = state.copy()
    wrong_side.players["p2"].zones["trash"].append(wrong_side.players["p1"].zones["deck"].pop())
    assert any("belongs to p1" in p for p in invariants.problems(wrong_side))
    swapped = state.copy()  # one card in two places and another in none: the count of places is right
    deck = swapped.players["p1"].zones["deck"]
    deck[0] = deck[1]
    assert any("2 places" in p for p in invariants.problems(swapped))
    assert any("0 places" in p for p in invariants.problems(swapped))
    stuck = state.copy()
    stuck.pending = None
    assert "the game waits for nobody" in invariants.problems(stuck)


def test_listing_the_legal_actions_leaves_the_state_as_it_was() -> None:
    """``legal_actions`` probes spells, PIECEs and abilities on the state itself (a probe stops before the
    first event), so listing them must not change the state in any way."""
    probed = 0
    for i, pair in enumerate(PAIRS[:20]):
        chooser = random.Random(i)
        setups = {"p1": PlayerSetup("A", preset(pair[0])), "p2": PlayerSetup("B", preset(pair[1]))}
        state = fold(create_match("diva", 500 + i, setups))
        while state.status != "finished" and state.version < 1200:
            before = state.to_dict()
            legal = list(legal_actions(state))
            assert state.to_dict() == before, f"{pair} event {state.version}: listing changed the state"
            probed += sum(a["type"] in ("use_spell", "use_piece", "use_ability") for a in legal)
            for e in decide(state, chooser.choice(legal)):
                apply(state, e)
    assert probed > 50, "the games offered too few spells and abilities to show anything"


def test_the_digest_is_the_sha256_of_the_canonical_json_at_every_event() -> None:
    """The digest puts the match's card and owner maps in as text made once per match: the result must be
    the digest of the whole canonical form, event after event, with and without the version. The turn's
    tally (``domain.tally``: what this turn's events did, kept for counting) is left out of it: the events
    fix it, and a position's digest stays what it was before the tally."""
    events = play(11, PAIRS[7], max_events=400)
    state = GameState()
    tallied = 0
    for e in events:
        apply(state, e)
        whole = state.to_dict()
        tallied += bool(whole["flags"].pop("tally", None))
        sha = hashlib.sha256(canonical_json(whole).encode()).hexdigest()
        assert state.digest(include_version=True) == sha
        whole.pop("version")
        assert state.digest() == hashlib.sha256(canonical_json(whole).encode()).hexdigest()
    assert tallied > 100, "the games tallied too little to show that the tally is left out"
