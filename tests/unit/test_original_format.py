"""The original single-LRIG format (seed 002, ``002_852c34a962b7bc1a.txt``) against Diva Selection.

Each test plays one difference of docs/FORMATS.md in ``original`` and the same situation in ``diva``, where
the Diva behaviour must be what it always was. Positions use the cards of the WD01 starter set (the boards
here use those without abilities; the encoded WD cards have their scenarios in ``tests/scenarios``).
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from domain.decks import Deck, preset, presets, validate_deck
from domain.engine import decide
from domain.errors import IllegalAction, InvalidPosition
from domain.events import Event
from domain.evolve import apply, fold
from domain.legal import legal_actions
from domain.original import DEMO_DECK_IDS
from domain.rules import RULES
from domain.setup import PlayerSetup, create_match, create_position
from domain.state import GameState

PLAYER: dict[str, Any] = {
    "lrig": {"center": "WD01-003"},  # Tamayorihime, level 2, limit 5
    "deck": ["WD01-013"] * 10,
    "life_cloth": ["WD01-012"] * 5,
}


def position(fmt: str, **fields: Any) -> dict[str, Any]:
    players = fields.pop("players", {})
    pos: dict[str, Any] = {"format": fmt, "turn": 4, "turn_player": "p1", **fields, "players": {}}
    for p in ("p1", "p2"):
        merged = copy.deepcopy(PLAYER)
        merged.update(players.get(p, {}))
        pos["players"][p] = merged
    return pos


def start(pos: dict[str, Any]) -> tuple[GameState, list[Event]]:
    events = create_position(pos, seed=7)
    return fold(events), events


def play(state: GameState, action: dict[str, Any]) -> list[Event]:
    batch = decide(state, action)
    for e in batch:
        apply(state, e)
    return batch


def new_match(fmt: str, decks: tuple[str, str], seed: int = 3) -> tuple[GameState, list[Event]]:
    players = {"p1": PlayerSetup("Ann", preset(decks[0])), "p2": PlayerSetup("Bo", preset(decks[1]))}
    events = create_match(fmt, seed, players, first_player="p1")
    return fold(events), events


BOTH = pytest.mark.parametrize("fmt", ["original", "diva"])


# -- set-up (002 "To begin the game") -------------------------------------------------------------------


def test_setup_one_level0_lrig_face_down_then_flipped_after_the_life_cloth() -> None:
    """002: "Search your LRIG deck for a level 0 LRIG card and put it face down ... Put the top 7 cards ...
    into your life cloth ... Both players flip their level 0 LRIG face up." No assist LRIGs."""
    state, events = new_match("original", ("DEMO-WD01", "DEMO-WD04"))
    placed = [e for e in events if e.type == "LrigsPlaced"]
    assert [set(e.data) for e in placed] == [{"player", "center"}] * 2
    assert {e.rule for e in placed} == {"orig.setup.face-down"}
    assert state.players["p1"].lrig["left"] is None and state.players["p1"].lrig["right"] is None
    assert not state.players["p1"].lrigs_face_up  # still face down while the mulligans are decided
    for p in ("p1", "p2"):
        play(state, {"type": "mulligan", "player": p, "cards": []})
    assert state.players["p1"].lrigs_face_up
    assert state.players["p1"].zones["life_cloth"] and state.status == "active"


def test_setup_diva_still_places_three_lrigs() -> None:
    """001: three level 0 LRIGs with assists (the Diva behaviour, unchanged)."""
    _state, events = new_match("diva", ("WXDi-D01", "WXDi-D02"))
    placed = [e for e in events if e.type == "LrigsPlaced"]
    assert [set(e.data) for e in placed] == [{"player", "center", "left", "right"}] * 2
    assert {e.rule for e in placed} == {"setup.lrigs"}


def test_setup_an_assist_lrig_choice_is_refused_in_original() -> None:
    deck = preset("DEMO-WD01")
    lrigs = {"center": "WD01-005", "left": "WD01-004"}
    with pytest.raises(IllegalAction) as exc:
        create_match("original", 1, {"p1": PlayerSetup("a", deck, lrigs), "p2": PlayerSetup("b", deck)})
    assert "orig.setup.face-down" in exc.value.rule_refs


@BOTH
def test_mulligan_once_any_number_of_cards(fmt: str) -> None:
    """002: "you may return any number of cards in your hand to your deck, shuffle your deck, and draw the
    same amount. You may only do this once." The same in Diva (001), cited by each format's rule."""
    decks = ("DEMO-WD01", "DEMO-WD05") if fmt == "original" else ("WXDi-D01", "WXDi-D02")
    state, _ = new_match(fmt, decks)
    hand = list(state.players["p1"].zones["hand"])
    assert len(list(legal_actions(state))) == 2 ** len(hand)  # any number of the five
    batch = play(state, {"type": "mulligan", "player": "p1", "cards": hand[:3]})
    assert batch[0].rule == ("orig.setup.mulligan" if fmt == "original" else "setup.mulligan")
    play(state, {"type": "mulligan", "player": "p2", "cards": []})
    assert state.pending is not None and state.pending["kind"] != "mulligan"  # once only


# -- draw phase (002 "Draw Phase") -----------------------------------------------------------------------


@BOTH
def test_first_player_first_turn_draws_one(fmt: str) -> None:
    """002: "On the first turn of the player going first, that player draws 1 card instead"."""
    _state, events = start(position(fmt, turn=1, phase="draw", players={"p1": {"hand": []}}))
    drawn = next(e for e in events if e.type == "CardsDrawn")
    assert len(drawn.data["cards"]) == 1
    assert drawn.rule == ("orig.draw.first-turn" if fmt == "original" else "draw.first-turn")
    _state, events = start(position(fmt, turn=3, phase="draw", players={"p1": {"hand": []}}))
    assert len(next(e for e in events if e.type == "CardsDrawn").data["cards"]) == 2


# -- grow (002 "Grow Phase") -----------------------------------------------------------------------------

GROW_DECK = ["WD01-004", "PR-406", "WD01-002", "WD01-001"]  # levels 1, 2 (another level 2 Tama), 3 and 4


def _grow_targets(fmt: str) -> set[str]:
    state, _ = start(
        position(fmt, phase="grow", players={"p1": {"lrig_deck": GROW_DECK, "ener": ["WD01-012"] * 4}})
    )
    assert state.pending is not None and state.pending["kind"] == "grow"
    return {state.cards[a["card"]] for a in legal_actions(state) if a["type"] == "grow"}


def test_grow_one_level_up_or_to_an_equal_or_lower_level_in_original() -> None:
    """002: "Players can only grow a LRIG by one level each turn. It is possible to grow a LRIG to one of
    an equal or lower level." From level 2: to 1, 2 or 3, never to 4."""
    assert _grow_targets("original") == {"WD01-004", "PR-406", "WD01-002"}


def test_grow_exactly_one_level_up_in_diva() -> None:
    """001 "Grow Phase": a LRIG card whose level is 1 greater than the current LRIG's."""
    assert _grow_targets("diva") == {"WD01-002"}


@BOTH
def test_grow_two_levels_is_refused_citing_the_format_rule(fmt: str) -> None:
    pos = position(fmt, phase="grow", players={"p1": {"lrig_deck": GROW_DECK, "ener": ["WD01-012"] * 4}})
    state, _ = start(pos)
    four = next(i for i in state.players["p1"].zones["lrig_deck"] if state.cards[i] == "WD01-001")
    with pytest.raises(IllegalAction) as exc:
        decide(state, {"type": "grow", "player": "p1", "card": four})
    assert exc.value.rule_refs == (("orig.grow.level",) if fmt == "original" else ("grow.level",))
    if fmt == "original":  # growing down is a grow like any other: the grow phase ends
        lower = next(i for i in state.players["p1"].zones["lrig_deck"] if state.cards[i] == "WD01-004")
        play(state, {"type": "grow", "player": "p1", "card": lower})
        assert state.cards[state.players["p1"].lrig["center"].iid] == "WD01-004"
        assert state.phase == "main"


# -- main phase (002 "Main Phase") -----------------------------------------------------------------------


@BOTH
def test_remove_once_per_turn(fmt: str) -> None:
    """002: "the player may remove their SIGNI once per turn ... chooses any number of their SIGNI"."""
    signi = {"left": "WD01-013", "center": "WD01-014"}
    state, _ = start(position(fmt, phase="main", players={"p1": {"signi": signi}}))
    batch = play(state, {"type": "remove_signi", "player": "p1", "zones": ["left"]})
    assert batch[0].rule == ("orig.main.remove" if fmt == "original" else "main.remove")
    with pytest.raises(IllegalAction) as exc:
        decide(state, {"type": "remove_signi", "player": "p1", "zones": ["center"]})
    assert exc.value.rule_refs == (("orig.main.remove",) if fmt == "original" else ("remove.once",))


@BOTH
def test_a_resona_cannot_be_removed(fmt: str) -> None:
    """002: "Resonas cannot be put into the trash (and thus moved to the LRIG Deck) in this way"."""
    state, _ = start(position(fmt, phase="main", players={"p1": {"signi": {"left": "PR-470A"}}}))
    with pytest.raises(IllegalAction) as exc:
        decide(state, {"type": "remove_signi", "player": "p1", "zones": ["left"]})
    assert exc.value.rule_refs == (("orig.main.remove-resona",) if fmt == "original" else ("remove.resona",))


# -- attack phase (002 "Attack Phase") -------------------------------------------------------------------


@BOTH
def test_no_attack_phase_in_the_first_turn_of_the_game(fmt: str) -> None:
    """002: "If it is the first turn of the entire game, the turn player skips this phase"."""
    state, _ = start(position(fmt, turn=1, phase="main"))
    batch = play(state, {"type": "pass", "player": "p1"})
    skipped = next(e for e in batch if e.type == "PhaseBegan")
    assert skipped.data == {"phase": "end", "skipped": "attack"}
    assert skipped.rule == ("orig.attack.first-turn" if fmt == "original" else "attack.first-turn")


def _attack_steps(fmt: str) -> list[tuple[str, str, str]]:
    """(event type, step or decision, player) from the main phase's pass to the end of the attack phase."""
    state, _ = start(position(fmt, phase="main"))
    seen: list[tuple[str, str, str]] = []
    action: dict[str, Any] = {"type": "pass", "player": "p1"}
    while state.phase in ("main", "attack"):
        for e in play(state, action):
            if e.type == "StepBegan":
                seen.append(("StepBegan", e.data["step"], ""))
            elif e.type == "Asked" and state.phase == "attack":
                seen.append(("Asked", e.data["kind"], e.data["player"]))
        if state.pending is None:
            break
        action = {"type": "pass", "player": state.pending["player"]}
    return seen


def test_original_attack_phase_opens_with_the_arts_use_step() -> None:
    """002: four steps; "ARTS Use Step: The turn player may use any number of ARTS with Use Timing [Attack
    Phase] ... Then, the other player may use ARTS and abilities of those kinds." Then SIGNI attack, LRIG
    attack (the guard step comes only with an LRIG attack)."""
    assert _attack_steps("original") == [
        ("StepBegan", "arts_use", ""),
        ("Asked", "arts_use", "p1"),
        ("Asked", "arts_use", "p2"),
        ("StepBegan", "signi_attack", ""),
        ("Asked", "signi_attack", "p1"),  # the LRIG may attack from here on
        ("StepBegan", "lrig_attack", ""),
        ("Asked", "lrig_attack", "p1"),
    ]


def test_diva_attack_phase_keeps_its_pre_attack_and_defense_steps() -> None:
    """001: five steps, the pre-attack and defense steps (once together the ARTS use step)."""
    assert _attack_steps("diva") == [
        ("StepBegan", "pre_attack", ""),
        ("Asked", "pre_attack", "p1"),
        ("StepBegan", "defense", ""),
        ("Asked", "defense", "p2"),
        ("StepBegan", "signi_attack", ""),
        ("Asked", "signi_attack", "p1"),  # the LRIG may attack from here on
        ("StepBegan", "lrig_attack", ""),
        ("Asked", "lrig_attack", "p1"),
    ]


def test_original_arts_use_step_cites_its_rule_and_offers_only_attack_timing() -> None:
    state, events = start(position("original", phase="attack"))
    assert [(e.type, e.rule) for e in events[1:3]] == [
        ("StepBegan", "orig.attack.arts-step"),
        ("Asked", "orig.attack.arts-step"),
    ]
    assert {a["type"] for a in legal_actions(state)} == {"pass"}  # no [Attack Phase] ability on this board
    with pytest.raises(IllegalAction):
        decide(state, {"type": "play_signi", "player": "p1", "card": "WD01-013", "zone": "left"})


# -- ARTS (002 "Main Phase", "ARTS Use Step") ---------------------------------------------------------------

ARTS_BOARD = {"lrig_deck": ["WD01-008", "WD01-006", "WX01-014"], "ener": ["WD01-012"] * 6}


def _arts_offered(state: GameState) -> set[str]:
    return {state.cards[a["card"]] for a in legal_actions(state) if a["type"] == "use_arts"}


def test_encoded_arts_are_offered_at_their_own_timing_only() -> None:
    """002: [Main Phase] ARTS in the main phase, [Attack Phase] ARTS in the ARTS use step (the turn player's
    turn, then the other player's). WD01-006 is [Main Phase], WD01-008 [Attack Phase]; WX01-014 (both) is not
    encoded, so it is never offered."""
    main, _ = start(position("original", phase="main", players={"p1": ARTS_BOARD}))
    assert _arts_offered(main) == {"WD01-006"}
    step, _ = start(position("original", phase="attack", step="arts_use", players={"p2": ARTS_BOARD}))
    assert _arts_offered(step) == set()  # the turn player holds none
    play(step, {"type": "pass", "player": "p1"})
    assert step.pending is not None and step.pending["player"] == "p2"
    assert _arts_offered(step) == {"WD01-008"}


@pytest.mark.parametrize(("phase", "step"), [("main", None), ("attack", "arts_use")])
def test_an_arts_not_encoded_is_still_refused(phase: str, step: str | None) -> None:
    """An ARTS whose effect is not encoded is refused with judge.unenforced at either timing: a judge
    resolves it with an adjust action."""
    fields = {"step": step} if step else {}
    state, _ = start(position("original", phase=phase, players={"p1": ARTS_BOARD}, **fields))
    with pytest.raises(IllegalAction) as exc:
        decide(state, {"type": "use_arts", "player": "p1", "card": "WX01-014"})
    assert "judge.unenforced" in exc.value.rule_refs


def test_a_used_arts_goes_to_the_lrig_trash() -> None:
    state, _ = start(position("original", phase="main", players={"p1": ARTS_BOARD}))
    batch = play(state, {"type": "use_arts", "player": "p1", "card": "WD01-006"})
    assert [e.type for e in batch][:1] == ["ArtsUsed"] and batch[0].rule == "arts.use"
    assert [state.cards[i] for i in state.players["p1"].zones["lrig_trash"]] == ["WD01-006"]


def test_diva_uses_an_attack_arts_in_its_defense_step() -> None:
    """000 "Use timing: Attack phase": the pre-attack step of your turn or the defense step of the
    opponent's. An ARTS played in a Diva match keeps its own timing."""
    state, _ = start(position("diva", phase="attack", step="defense", players={"p2": ARTS_BOARD}))
    assert state.pending is not None and state.pending["player"] == "p2"
    assert _arts_offered(state) == {"WD01-008"}


@BOTH
def test_guard_disables_the_lrig_attack(fmt: str) -> None:
    """002 "Guard Step": "The non-turn player may discard a card with Guard from their hand to disable the
    attack of the attacking LRIG"."""
    step = "signi_attack"
    state, _ = start(position(fmt, phase="attack", step=step, players={"p2": {"hand": ["WD01-017"]}}))
    play(state, {"type": "attack", "player": "p1", "zone": "lrig"})
    assert state.pending is not None and state.pending["kind"] == "guard"
    guard = state.players["p2"].zones["hand"][0]
    batch = play(state, {"type": "guard", "player": "p2", "card": guard})
    assert "DamageDealt" not in {e.type for e in batch}
    assert len(state.players["p2"].zones["life_cloth"]) == 5
    asked = [e for e in batch if e.type == "StepBegan"]
    assert asked == [] or asked[0].data["step"] != "guard"


# -- end phase (002 "End Phase") -------------------------------------------------------------------------


@BOTH
def test_hand_above_six_discards_down_to_six(fmt: str) -> None:
    """002: "If the turn player has 7 or more cards in their hand, they discard until they only have 6"."""
    _state, events = start(position(fmt, phase="end", players={"p1": {"hand": ["WD01-013"] * 8}}))
    asked = next(e for e in events if e.type == "Asked")
    assert asked.data["count"] == 2
    assert asked.rule == ("orig.end.hand-size" if fmt == "original" else "end.hand-size")


# -- positions -------------------------------------------------------------------------------------------


def test_original_positions_have_one_lrig_and_four_steps() -> None:
    with pytest.raises(InvalidPosition) as exc:
        start(position("original", players={"p1": {"lrig": {"center": "WD01-003", "left": "WD01-004"}}}))
    assert "orig.setup.face-down" in exc.value.rule_refs
    with pytest.raises(InvalidPosition):
        start(position("original", phase="attack", step="pre_attack"))
    with pytest.raises(InvalidPosition):
        start(position("diva", phase="attack", step="arts_use"))
    state, _ = start(position("original", phase="attack", step="arts_use"))
    assert state.format == "original" and state.pending is not None and state.pending["kind"] == "arts_use"


# -- deck construction -----------------------------------------------------------------------------------


def test_demo_decks_are_legal_in_original_and_listed_for_it() -> None:
    assert tuple(presets("original")) == DEMO_DECK_IDS
    for deck_id in DEMO_DECK_IDS:
        assert validate_deck(preset(deck_id), None, "original") == [], deck_id
        assert all(c.startswith(deck_id[-4:]) or c.startswith("WD01-01") for c in preset(deck_id).main_deck)


def test_diva_presets_are_unchanged() -> None:
    assert len(presets()) == 10
    for deck_id, deck in presets().items():
        assert validate_deck(deck, None, "diva") == [], deck_id


def _rules(deck: Deck, fmt: str = "original") -> set[str]:
    return {p.rule for p in validate_deck(deck, None, fmt)}


def test_an_assist_lrig_is_refused_in_original() -> None:
    base = preset("DEMO-WD01")
    deck = Deck((*base.lrig_deck, "WXDi-D01-006"), base.main_deck)  # an assist LRIG
    found = validate_deck(deck, None, "original")
    assert any(p.rule == "orig.deck.card-type" and p.cards == ("WXDi-D01-006",) for p in found)


def test_a_diva_only_card_is_refused_in_original() -> None:
    base = preset("DEMO-WD01")
    main = (*base.main_deck[:-4], *["WXDi-D01-013"] * 4)  # a SIGNI printed only for Diva Selection
    found = validate_deck(Deck(base.lrig_deck, main), None, "original")
    assert any(p.rule == "orig.deck.era" and p.cards == ("WXDi-D01-013",) for p in found)


def test_original_needs_exactly_20_life_bursts_and_at_most_ten_lrig_deck_cards() -> None:
    base = preset("DEMO-WD01")
    fewer = (*base.main_deck[:-4], *["WD01-010"] * 4)  # four Life Burst cards swapped for others
    assert "orig.deck.life-burst" in _rules(Deck(base.lrig_deck, fewer))
    assert "deck.life-burst" not in _rules(Deck(base.lrig_deck, fewer), "diva")  # Diva: 20 or fewer
    big = Deck((*base.lrig_deck, "WD01-006", "WD02-006", "WD02-007", "WD02-008"), base.main_deck)
    assert "orig.deck.lrig-size" in _rules(big)
    assert "orig.deck.lrig-level0" in _rules(Deck(base.lrig_deck[1:], base.main_deck))


def test_every_orig_rule_cited_is_in_the_catalogue() -> None:
    from domain.formats import ORIGINAL

    for rule in [
        *ORIGINAL.citations.values(),
        "orig.attack.arts-step",
        "orig.deck.era",
        "orig.deck.card-type",
    ]:
        assert rule in RULES and RULES[rule].summary
