"""Triggered abilities: what an event triggers, and the order they resolve in.

A triggered ability waits (``AbilityTriggered``) until the current effect has finished and rule processing is
done. Then the turn player's waiting abilities resolve one at a time, in the order that player chooses, then
the other player's; any they trigger in turn wait the same way.

A card that lost its abilities triggers nothing (a card that left the field is looked at as it was then); a
card that gained an ability until end of turn (``AbilityGranted``) triggers it like its own. A 1/Turn or
1/Game triggered ability triggers only while it has not been counted (``AbilityCounted``, when it resolves).

An effect can also wait for a later moment (``EffectDelayed``): the end of the attack under way, the end of
this turn, or the start of the next turn. It waits among the triggered abilities and resolves like one once
its moment has come; one waiting for a card that left the field and came back ends (``EffectEnded``), since
the card is new there.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import replace
from functools import cache
from typing import Any

from domain import facts, tally
from domain.abilities import targets as tg
from domain.abilities import trigger_words as tw
from domain.abilities.catalogue import abilities_of, ability_at, forget_with_encodings, harmony_as_auto
from domain.cards import Card
from domain.per_match import PerMatch
from domain.recorder import Recorder
from domain.state import MARKER_CARDS, SIGNI_ZONES, GameState, facing, opponent

TRIGGERING: tuple[str, ...] = (
    "SigniPlayed",
    "SigniPutOntoField",
    "SigniMoved",
    "LrigGrew",
    "AttackDeclared",
    "SigniVanished",
    "StepBegan",
    "CardsMoved",
    "CardsMilled",
    "SigniRemoved",
    "SigniTrashed",
    "EnerCharged",
    "CardsDrawn",
    "CardsDiscarded",
    "SigniTargeted",
    "PhaseBegan",
    "TurnBegan",
    "CardsPutUnder",
    "Battled",
    "SpellUsed",
    "Guarded",
    "GuardedInstead",
    "Refreshed",
    "LifeClothCrushed",
)
# every event the turn's tally reads may trigger a ``moves`` trigger (``_tallied``)
TRIGGERING = (*TRIGGERING, *(t for t in tally.READ if t not in TRIGGERING))


def team_ok(s: GameState, player: str, card_id: str, team: Any = True) -> bool:
    """A Team ability is valid while the player's three LRIGs all belong to the card's team (000 'Team'):
    the team the ability names (``"team": "<name>"``, for a SIGNI the catalogue gives no team), else the
    card's."""
    team = team if isinstance(team, str) else facts.catalogue().get(card_id).team
    lrigs = [sl for sl in s.players[player].lrig.values() if sl is not None]
    return bool(team) and len(lrigs) == 3 and all(facts.card_of(s, sl.iid).team == team for sl in lrigs)


def granted(s: GameState, iid: str) -> list[str]:
    """The abilities a card on the field gained until end of turn."""
    slot = tg._slot(s, iid)
    return [] if slot is None else [k.split(":", 1)[1] for k in slot.keywords if k.startswith("ability:")]


def held(s: GameState, iid: str) -> list[tuple[str, dict[str, Any]]]:
    """(reference, ability) of the abilities held for the rest of the game (``AbilityHeld``) that this card
    carries: the player's own ones on the card whose effect gave them (wherever it is: a used PIECE), the
    center LRIG's on whichever LRIG is the center now."""
    owner = s.owners.get(iid)
    ps = s.players[owner] if owner is not None else None
    if ps is None or not ps.held:
        return []
    center = ps.lrig.get("center")
    out = []
    for h in ps.held:
        if (h["holder"] == "you" and h["card"] == iid) or (
            h["holder"] == "center_lrig" and center is not None and center.iid == iid
        ):
            out.append((h["ability"], ability_at(s.cards[h["card"]], h["ability"])))
    return out


def holding(s: GameState, player: str) -> list[str]:
    """The cards that carry the player's own abilities held for the game (see ``held``), once each."""
    return list(dict.fromkeys(h["card"] for h in s.players[player].held if h["holder"] == "you"))


def abilities_gained(s: GameState, iid: str) -> list[tuple[int | str, dict[str, Any]]]:
    """(reference, ability) of the abilities a card on the field gained until end of turn, and those its
    player's center LRIG holds for the game (none when it lost its abilities)."""
    slot = tg._slot(s, iid)
    if slot is None or "no_abilities" in slot.keywords:
        return []
    return [*((ref, ability_at(s.cards[iid], ref)) for ref in granted(s, iid)), *held(s, iid)]


@cache
def _own(card_id: str) -> tuple[tuple[int | str, dict[str, Any]], ...]:
    return tuple(enumerate(harmony_as_auto(ab) for ab in abilities_of(card_id)))


forget_with_encodings(_own.cache_clear)


Gained = list[tuple[int | str, dict[str, Any]]]


def look_back(s: GameState, t: str, d: dict[str, Any]) -> dict[str, Gained]:
    """Asked before an event of type ``t`` applies: the abilities that other cards' constants give the SIGNI
    it takes off the field (000 '[Auto]': an ability that triggers as its SIGNI leaves the field looks back at
    the SIGNI as it was on the field, with what constants gave it then)."""
    out: dict[str, Gained] = {}
    for iid in leaving(t, d) if _CONSTANT_GIVEN else ():
        if tg.on_field(s, iid) and not tg.lost(s, iid):
            given = [g for fn in _CONSTANT_GIVEN for g in fn(s, iid)]
            if given:
                out[iid] = given
    return out


def abilities(s: GameState, iid: str) -> list[tuple[int | str, dict[str, Any]]]:
    """(reference, ability) of every ability the card has now: its own unless it lost them (with those its
    Soul gives), and those it gained."""
    card_id = s.cards[iid]
    slot = tg._slot(s, iid)
    if slot is None:  # off the field: no Soul; lost, and gained, as it was when it left; a card that
        if iid in s.flags.get(tg.LOST, ()):  # gave its player an ability for the game carries it (``held``)
            return []
        card_id = s.flags.get("left_as", {}).get(iid, card_id)  # it left as the card it had become
        had = s.flags.get("left_granted", {}).get(iid, [])
        out = [*_own(card_id), *((ref, ability_at(card_id, ref)) for ref in had), *held(s, iid)]
        known = tally.last_known(s, iid)  # what the cards under it gave it as it left (000 '[Auto]')
        return out + (given_from_under(s, iid, list(known["under"])) if known and known.get("under") else [])
    keywords = slot.keywords
    lost = "no_abilities" in keywords
    out = [] if lost else list(_own(card_id))
    if not lost and slot.under:
        out += soul_given(s, iid)
    if keywords:
        out += [(ref, ability_at(card_id, ref)) for ref in granted(s, iid)]
    if not lost:
        out += held(s, iid)
        for given in _CONSTANT_GIVEN:  # abilities other cards' (or its own) constants give it now
            out += given(s, iid)
    return out


Given = Callable[[GameState, str], list[tuple[int | str, dict[str, Any]]]]
_CONSTANT_GIVEN: list[Given] = []


def use_constant_abilities(given: Given) -> None:
    """Set how the abilities that constant abilities give a card are found (``constants`` registers it as it
    loads: this module imports no constants)."""
    _CONSTANT_GIVEN[:] = [given]


def souls(s: GameState, iid: str) -> list[str]:
    """The [Soul] attached to a SIGNI on the field: the LRIG-deck card lying under it (one at most)."""
    slot = tg._slot(s, iid)
    if slot is None or not facts.card_of(s, iid).is_signi:
        return []
    return [u for u in slot.under if facts.card_of(s, u).is_lrig_deck_card]


def soul_given(s: GameState, iid: str) -> list[tuple[int | str, dict[str, Any]]]:
    """(reference, ability) of the abilities a SIGNI has from the constant abilities of its Soul, and of the
    cards lying under it that give the SIGNI on top of them an ability (``grant_ability``, target above)."""
    slot = tg._slot(s, iid)
    return given_from_under(s, iid, slot.under if slot is not None else [])


def given_from_under(s: GameState, iid: str, cards: list[str]) -> list[tuple[int | str, dict[str, Any]]]:
    """(reference, ability) of the abilities that these cards, lying under a SIGNI (or lying under it as it
    left the field), give it: a Soul's (an LRIG-deck card attached to it), and those of the cards that give
    the SIGNI on top of them an ability it fits."""
    from domain.abilities.catalogue import granted_ref

    out: list[tuple[int | str, dict[str, Any]]] = []
    signi = facts.card_of(s, iid).is_signi
    soul = [u for u in cards if signi and facts.card_of(s, u).is_lrig_deck_card]
    for under in cards:
        for i, ab in enumerate(abilities_of(s.cards[under])):
            for st in ab.get("effect", []) if ab["kind"] == "constant" else []:
                given = st["op"] == "soul_grant" if under in soul else _fits_above(s, iid, st)
                if given:
                    out.append((granted_ref(s.cards[under], i, st["ability"]), st["ability"]))
    return out


def _fits_above(s: GameState, iid: str, step: dict[str, Any]) -> bool:
    return (
        step["op"] == "grant_ability"
        and bool(step.get("target", {}).get("above"))
        and tg.card_fits(facts.card_of(s, iid), step["target"].get("filter", {}))
    )


def left_field(s: GameState, event: Any) -> list[str]:
    """The SIGNI an event took off the field."""
    return leaving(event.type, event.data)


def leaving(t: str, d: dict[str, Any]) -> list[str]:
    """The SIGNI an event of type ``t`` with data ``d`` takes off the field."""
    if t in ("SigniVanished", "SigniTrashed"):
        return [d["card"]]
    if t == "SigniRemoved":
        return list(d["cards"])
    if t == "CardsMoved" and d.get("from") == "signi":
        return list(d["cards"])
    if t == "EnerCharged" and d.get("from") == "field":
        return [d["card"]]
    return []


Found = list[dict[str, Any]]
# (card, its player, ability kind, the trigger form it answers (None: an [Enter] ability), the card the event
# is about, which must fit the trigger's filter)
Listener = tuple[str, str, str, "tw.Key | None", "str | None"]

THIS_ATTACKS = tw.form("attacks", "this")
SIGNI_ATTACKS = tw.form("attacks", "you", "signi")
LRIG_ATTACKS = tw.form("attacks", "you", "lrig")
OPPONENT_ATTACKS = tw.form("attacks", "opponent")
OPPONENT_SIGNI_ATTACKS = tw.form("attacks", "opponent", "signi")
THIS_ENTERS = tw.form("enters", "this")
SIGNI_ENTERS = tw.form("enters", "you")
OTHER_ENTERS = tw.form("enters", "other")
OPPONENT_SIGNI_ENTERS = tw.form("enters", "opponent")
VANISHED = tw.form("vanished", "this", by="any")
VANISHED_NOT_IN_BATTLE = tw.form("vanished", "this", by="not_battle")
VANISHED_IN_BATTLE = tw.form("vanished", "this", by="battle")
VANISHES = tw.form("vanishes", "this", by="any")
VANISHES_IN_BATTLE = tw.form("vanishes", "this", by="battle")
VANISHES_YOURS = tw.form("vanishes", "you", by="any")
VANISHES_YOURS_IN_BATTLE = tw.form("vanishes", "you", by="battle")
POWER_ZERO = tw.form("power_zero", "opponent")
TRASHED = tw.form("trashed", "this", by="cost_or_effect")
TRASHED_YOURS = tw.form("trashed", "you", by="cost_or_effect")
TRASHED_YOURS_OWN = tw.form("trashed", "you", by="cost_or_your_effect")
TRASHED_OPPONENTS = tw.form("trashed", "opponent", by="any")
VANISHED_YOURS = tw.form("vanished", "you", by="any")
LEAVES = tw.form("leaves_field", "this")
OTHER_LEAVES = tw.form("leaves_field", "you")
MOVED_ZONE = tw.form("moved_zone", "this", by="any")
MOVED_ZONE_YOURS = tw.form("moved_zone", "this", by="your_effect")
MOVED_ZONE_OPPONENTS = tw.form("moved_zone", "opponent", by="any")
MAIN_PHASE = tw.form("phase_starts", "you", phase="main")
ATTACK_PHASE = tw.form("phase_starts", "you", phase="attack")
OPPONENT_ATTACK_PHASE = tw.form("phase_starts", "opponent", phase="attack")
EACH_ATTACK_PHASE = tw.form("phase_starts", "any", phase="attack")
YOUR_TURN_END = tw.form("phase_starts", "you", phase="end")
OPPONENT_TURN_END = tw.form("phase_starts", "opponent", phase="end")
EACH_TURN_END = tw.form("phase_starts", "any", phase="end")
OPPONENT_MAIN = tw.form("phase_starts", "opponent", phase="main")
YOUR_TURN_START = tw.form("phase_starts", "you", phase="turn")
OPPONENT_TURN_START = tw.form("phase_starts", "opponent", phase="turn")
DRAWS = tw.form("draws", "you")
OPPONENT_DRAWS = tw.form("draws", "opponent")
DISCARDS = tw.form("discards", "you", by="own_effect")
OPPONENT_DISCARDS = tw.form("discards", "opponent", by="your_effect")
EXCEEDED = tw.form("exceeded", "this")
GUARDS = tw.form("guards", "you")
REFRESHES = tw.form("refreshes", "any")
MILLS = tw.form("mills", "you", by="your_effect")
MILLED_THIS = tw.form("mills", "this", by="any")
SPELL_USED = tw.form("spell_used", "any")
SPELL_USED_YOURS = tw.form("spell_used", "you")
OPPONENT_GROWS = tw.form("grows", "opponent")
OTHER_GROWS = tw.form("grows", "other")
YOUR_GROWS = tw.form("grows", "you")
THIS_DISCARDED = tw.form("discards", "this", by="own_effect")
VANISHED_OPPONENTS = tw.form("vanished", "opponent", by="any")
DISCARDS_ANY = tw.form("discards", "you", by="any")  # "when you discard a <X>": in any way, a cost too
THIS_DISCARDED_ANY = tw.form("discards", "this", by="any")
THIS_DISCARDED_PAID = tw.form("discards", "this", by="cost_or_effect")  # as a cost or by an effect
MILLED_FROM_YOURS = tw.form("mills", "you", by="any")
REFRESHES_YOURS = tw.form("refreshes", "you")
REFRESHES_THEIRS = tw.form("refreshes", "opponent")
LOSES_LIFE = tw.form("loses_life_cloth", "you")
CRUSHED_ANY = tw.form("life_cloth_crushed", "any")
PAYS_COINS = tw.form("pays_coins", "you")
CRUSHES_THIS = tw.form("crushes", "this")
MILLS_OWN_TWO = tw.form("mills", "you", by="own_deck_two_or_more")
SOUL_THIS = tw.form("soul_attached", "this")
SOUL_YOURS = tw.form("soul_attached", "you")
TARGETED = tw.form("becomes_target", "you")
MOVES_THIS = tw.form("moves", "this")
MOVES_YOURS = tw.form("moves", "you")
MOVES_OPPONENTS = tw.form("moves", "opponent")
RISEN = tw.form("risen", "this")
GAINS_KEYWORD = tw.form("gains_keyword", "other")


def _signi(s: GameState, player: str, key: tw.Key, subject: str | None = None) -> Iterator[Listener]:
    """The player's SIGNI, each asked for the form, then the abilities the player holds for the game."""
    for _z, slot in s.players[player].signi_slots():
        yield slot.iid, player, "auto", key, subject
    yield from _holding(s, player, key, subject)


def _field(s: GameState, player: str, key: tw.Key, subject: str | None = None) -> Iterator[Listener]:
    """Every card on the player's field, SIGNI first, then LRIGs, each asked for the form, then the abilities
    the player holds for the game."""
    ps = s.players[player]
    for slot in [*ps.signi.values(), *ps.lrig.values()]:
        if slot is not None:
            yield slot.iid, player, "auto", key, subject
    yield from _holding(s, player, key, subject)


def _holding(s: GameState, player: str, key: tw.Key, subject: str | None) -> Iterator[Listener]:
    """An ability a player holds for the game listens like one of a card on their field (``held``)."""
    if s.players[player].held:
        for iid in holding(s, player):
            yield iid, player, "auto", key, subject


def _entered(s: GameState, d: dict[str, Any]) -> Iterator[Listener]:
    if not d.get("no_enter"):
        yield d["card"], d["player"], "enter", None, None
    yield d["card"], d["player"], "auto", THIS_ENTERS, None  # it too: it is on the field when it has entered
    if d.get("rise_on"):  # Rise: the SIGNI it went on top of, now under it ("when this SIGNI is risen")
        yield d["rise_on"], d["player"], "auto", RISEN, d["card"]
    yield from _field(s, d["player"], SIGNI_ENTERS, d["card"])  # an LRIG may listen too
    for listener in _signi(s, d["player"], OTHER_ENTERS, d["card"]):
        if listener[0] != d["card"]:  # "another SIGNI enters": not this one
            yield listener
    yield from _signi(
        s, opponent(d["player"]), OPPONENT_SIGNI_ENTERS, d["card"]
    )  # "a SIGNI enters the opponent's field"


def _grew(s: GameState, d: dict[str, Any]) -> Iterator[Listener]:
    yield d["card"], d["player"], "enter", None, None
    yield from _field(s, opponent(d["player"]), OPPONENT_GROWS)  # "when an LRIG of the opponent's grows"
    for listener in _field(s, d["player"], OTHER_GROWS):  # "when another LRIG on your field grows"
        if listener[0] != d["card"]:
            yield listener
    yield from _field(s, d["player"], YOUR_GROWS)  # "when an LRIG on your field grows": the grown one too


def _attacked(s: GameState, d: dict[str, Any]) -> Iterator[Listener]:
    signi = d.get("zone") != "lrig"
    yield d["card"], d["player"], "auto", THIS_ATTACKS, None
    if signi:  # "when a SIGNI on your field attacks": your SIGNI and LRIGs may have it
        yield from _field(s, d["player"], SIGNI_ATTACKS, d["card"])
    else:  # "when an LRIG on your field attacks" (a filter reads the LRIG that attacks)
        yield from _field(s, d["player"], LRIG_ATTACKS, d["card"])
    other = next(p for p in s.players if p != d["player"])  # "when an opponent's card attacks"
    ps = s.players[other]
    for iid in [sl.iid for _z, sl in ps.signi_slots()] + [
        sl.iid for sl in ps.lrig.values() if sl is not None
    ]:
        yield iid, other, "auto", OPPONENT_ATTACKS, None
        if signi:  # the attacking SIGNI is what a filter reads ("the SIGNI in front of this one attacks")
            yield iid, other, "auto", OPPONENT_SIGNI_ATTACKS, d["card"]


def _drew(s: GameState, d: dict[str, Any]) -> Iterator[Listener]:
    if s.status == "active" and not d.get("phase_draw") and s.phase != "draw":
        for _card in d.get("cards", ()):  # "when you draw a card": once for each card drawn
            yield from _signi(s, d["player"], DRAWS)
            yield from _signi(s, opponent(d["player"]), OPPONENT_DRAWS)  # "when your opponent draws a card"


def _discarded(s: GameState, d: dict[str, Any]) -> Iterator[Listener]:
    for iid in d.get("cards", ()):  # "when you discard a <Pripara> SIGNI", "when this card is discarded":
        yield from _signi(s, d["player"], DISCARDS_ANY, iid)  # by any effect, as a cost, to Guard ...
        yield iid, d["player"], "auto", THIS_DISCARDED_ANY, None  # the card, now in the trash
        if d.get("as_cost") or isinstance(d.get("by_effect"), str):  # not to Guard, nor for the hand size
            yield iid, d["player"], "auto", THIS_DISCARDED_PAID, None
    if d.get("cards") and _by_own_effect(s, d):
        yield from _signi(s, d["player"], DISCARDS)
        for iid in d["cards"]:  # "when this card is discarded by your effect": the card, now in the trash
            yield iid, d["player"], "auto", THIS_DISCARDED, None
    source = d.get("by_effect")
    if isinstance(source, str) and not d.get("as_cost") and s.owners.get(source) == opponent(d["player"]):
        for _card in d.get("cards", ()):  # "each time the opponent discards a card by your effect"
            yield from _field(s, opponent(d["player"]), OPPONENT_DISCARDS)


def _cards_moved(s: GameState, d: dict[str, Any]) -> Iterator[Listener]:
    """Seed 000 'Cost' (rule effect.exceed): Exceed puts cards from under your LRIGs into the LRIG trash;
    "when this card is put into the LRIG trash as an Exceed cost" triggers there (the card is off the
    field)."""
    if d.get("exceed") and d.get("to") == "lrig_trash":
        for card in d.get("cards", ()):
            yield card, d["player"], "auto", EXCEEDED, None
    if d.get("from") == "life_cloth" and d.get("to") == "trash":  # a Life Cloth put into the trash
        yield from _field(s, d["player"], LOSES_LIFE)
    yield from _put_in_trash(s, d)


def _guarded(s: GameState, d: dict[str, Any]) -> Iterator[Listener]:
    """Seed 000 'Guard': "when you [Guard]" triggers as the Guard card is discarded."""
    yield from _field(s, d["player"], GUARDS)


def _refreshed(s: GameState, d: dict[str, Any]) -> Iterator[Listener]:
    """Seed 004 rule processing 5 (refresh): "whenever a player refreshes" triggers for every card that
    has it, the turn player's first."""
    tp = s.turn_player or d["player"]
    for p in (tp, opponent(tp)):
        yield from _field(s, p, REFRESHES)
    yield from _field(s, d["player"], REFRESHES_YOURS)  # "when you refresh"
    yield from _field(s, opponent(d["player"]), REFRESHES_THEIRS)  # "when the opponent refreshes"
    if d.get("life_cloth"):  # the refresh puts a Life Cloth into the trash
        yield from _field(s, d["player"], LOSES_LIFE)


def _targeted(s: GameState, d: dict[str, Any]) -> Iterator[Listener]:
    for _z, slot in s.players[d["player"]].signi_slots():  # kept once per ability (``_once_per_ability``)
        for subject in d["cards"]:
            yield slot.iid, d["player"], "auto", TARGETED, subject


def _put_under(s: GameState, d: dict[str, Any]) -> Iterator[Listener]:
    if d.get("soul"):  # a [Soul] attached to a SIGNI
        owner = s.owners[d["card"]]
        yield d["card"], owner, "auto", SOUL_THIS, None
        yield from _field(s, owner, SOUL_YOURS)


def _phase(s: GameState, d: dict[str, Any]) -> Iterator[Listener]:
    """The start of the main phase (seed 000 "Main phase": before the turn player acts in it) and the end
    phase (seed 001 "End phase": "at the end of the turn" abilities), the turn player's cards first."""
    tp = s.turn_player
    if d.get("phase") == "main" and tp:  # "at the start of your opponent's main phase"
        yield from _field(s, opponent(tp), OPPONENT_MAIN)
    if d.get("phase") == "main" and tp:
        yield from _field(s, tp, MAIN_PHASE)
    if d.get("phase") == "end" and tp:
        yield from _field(s, tp, YOUR_TURN_END)
        yield from _field(s, opponent(tp), OPPONENT_TURN_END)  # 000 '[Auto]': "at the end of your opponent's"
        for p in (tp, opponent(tp)):  # "at the end of the turn": whoever's turn it is
            yield from _field(s, p, EACH_TURN_END)


def _turn(s: GameState, d: dict[str, Any]) -> Iterator[Listener]:
    """The start of a turn ("at the beginning of your (opponent's) turn"), before its up phase: the turn
    player's cards first."""
    tp = d.get("player")
    if tp:
        yield from _field(s, tp, YOUR_TURN_START)
        yield from _field(s, opponent(tp), OPPONENT_TURN_START)


def _step(s: GameState, d: dict[str, Any]) -> Iterator[Listener]:
    """Seed 000 "Pre-attack step": "at the beginning of the attack phase" abilities trigger as it begins,
    the turn player's ("your attack phase"), the other's ("your opponent's attack phase") and both
    players' ("each attack phase")."""
    tp = s.turn_player
    if d.get("step") in ("pre_attack", "arts_use") and tp:  # arts_use: the original format
        yield from _field(s, tp, ATTACK_PHASE)
        yield from _field(s, opponent(tp), OPPONENT_ATTACK_PHASE)
        for p in (tp, opponent(tp)):
            yield from _field(s, p, EACH_ATTACK_PHASE)


def _milled(s: GameState, d: dict[str, Any]) -> Iterator[Listener]:
    for iid in d.get("cards") or []:  # each card itself, now in the trash, however it was put there
        yield iid, d["player"], "auto", MILLED_THIS, None
    if d.get("cards") and d.get("by") and not d.get("as_cost"):  # by an effect: a cost is none
        yield from _signi(s, d["by"], MILLS)
    if d.get("cards"):  # "when a card is put from your deck into your trash": whoever's effect
        yield from _signi(s, d["player"], MILLED_FROM_YOURS)
    if len(d.get("cards", ())) >= 2:  # "a total of two or more cards" of the deck's owner, at once
        yield from _signi(s, d["player"], MILLS_OWN_TWO)


def _life_crushed(s: GameState, d: dict[str, Any]) -> Iterator[Listener]:
    if d.get("cards"):
        yield from _field(s, d["player"], LOSES_LIFE)
    for _card in d.get("cards", ()):  # "when your or the opponent's Life Cloth is crushed": each card
        for p in (d["player"], opponent(d["player"])):
            yield from _field(s, p, CRUSHED_ANY)
    attacker = (s.attack or {}).get("card")
    if (
        d.get("cause") == "damage"
        and isinstance(attacker, str)
        and s.owners.get(attacker) == opponent(d["player"])
    ):
        for _card in d.get("cards", ()):  # "when this SIGNI crushes one of the opponent's Life Cloth"
            yield attacker, opponent(d["player"]), "auto", CRUSHES_THIS, None


def _moved(s: GameState, d: dict[str, Any]) -> Iterator[Listener]:
    source = d.get("by_effect")
    yours = source in s.owners and s.owners[source] == d["player"]  # by an effect of its player's card
    moved = (
        [m["card"] for m in d["moves"]]
        if d.get("moves")
        else [d["card"], *([d["with"]] if d.get("with") else [])]
    )
    for card in moved:  # two changing places both move; SIGNI put back in the zones together all move
        yield card, d["player"], "auto", MOVED_ZONE, None
        if yours:
            yield card, d["player"], "auto", MOVED_ZONE_YOURS, None
    yield from _field(s, opponent(d["player"]), MOVED_ZONE_OPPONENTS)  # once, however many moved


def _spell_used(s: GameState, d: dict[str, Any]) -> Iterator[Listener]:
    """Seed 000 '[Auto]': "when a player (you) uses a spell" triggers as it is used, and waits until the spell
    has resolved (the spell's use is under way until then)."""
    yield from _field(s, d["player"], SPELL_USED_YOURS)  # "when you use a spell"
    for p in (d["player"], opponent(d["player"])):  # "when a player uses a spell": either field listens
        yield from _field(s, p, SPELL_USED)


def _vanished(s: GameState, d: dict[str, Any]) -> Iterator[Listener]:
    yield d["card"], d["player"], "auto", VANISHED, d["card"]  # a filter reads it as it was ("while upped")
    # "when a SIGNI on your field is vanished": the SIGNI on the field, and the vanished one itself, looking
    # back to when it was on the field (000 '[Auto]')
    yield d["card"], d["player"], "auto", VANISHED_YOURS, d["card"]
    yield from _signi(s, d["player"], VANISHED_YOURS, d["card"])
    yield from _signi(s, opponent(d["player"]), VANISHED_OPPONENTS, d["card"])  # "an opponent's SIGNI"
    if d.get("cause") != "battle":  # by an effect, or by rule processing (power 0 or less)
        yield d["card"], d["player"], "auto", VANISHED_NOT_IN_BATTLE, None
    else:
        yield d["card"], d["player"], "auto", VANISHED_IN_BATTLE, None
    if d.get("cause") == "power":  # 004 rule processing: its power became 0 or less
        yield from _signi(s, opponent(d["player"]), POWER_ZERO)
    source = d.get("by_effect")
    if d.get("cause") == "effect" and source in s.owners and s.owners[source] != d["player"]:
        # "when this SIGNI vanishes an opponent's SIGNI": by an effect of its own ability too
        yield source, s.owners[source], "auto", VANISHES, None
        if facts.card_of(s, source).is_signi and tg.on_field(s, source):  # "when a SIGNI of yours vanishes"
            yield from _signi(s, s.owners[source], VANISHES_YOURS, source)


def _battled(s: GameState, d: dict[str, Any]) -> Iterator[Listener]:
    """An attacking SIGNI vanishes the SIGNI in front of it: asked as the battle is decided, while that SIGNI
    is still on the field as it was (a filter reads it then; the vanish follows at once)."""
    if d.get("result") == "vanished":
        attacker = d["attacker"]
        yield attacker, s.owners[attacker], "auto", VANISHES_IN_BATTLE, d["defender"]
        yield attacker, s.owners[attacker], "auto", VANISHES, None
        yield from _signi(s, s.owners[attacker], VANISHES_YOURS, attacker)
        # "when a SIGNI of yours vanishes a SIGNI in battle": an LRIG may hold it too (an ability it gained)
        yield from _field(s, s.owners[attacker], VANISHES_YOURS_IN_BATTLE, attacker)


def _put_in_trash(s: GameState, d: dict[str, Any]) -> Iterator[Listener]:
    """SIGNI put from the field into the trash by a cost or an effect (``as_cost``: paid as a cost)."""
    if d.get("from") != "signi" or d.get("to") != "trash":
        return
    for card in d["cards"]:
        owner = s.owners[card]
        yield card, owner, "auto", TRASHED, None  # looked at as it was on the field
        yield from _signi(s, owner, TRASHED_YOURS)
        source = d.get("by_effect")
        if d.get("as_cost") or (source in s.owners and s.owners[source] == owner):
            yield from _signi(s, owner, TRASHED_YOURS_OWN)
        yield from _signi(s, opponent(owner), TRASHED_OPPONENTS)


def _rule_trashed(s: GameState, d: dict[str, Any]) -> Iterator[Listener]:
    """A SIGNI put into the trash by rule processing (not by a cost or an effect)."""
    yield from _signi(s, opponent(d["player"]), TRASHED_OPPONENTS)


def _coins_paid(s: GameState, d: dict[str, Any]) -> Iterator[Listener]:
    """ "When you pay one or more coins": once for each payment, however many coins it was."""
    if int(d.get("count", 0)) > 0:
        yield from _signi(s, d["player"], PAYS_COINS)


# What each event asks, in order; the event types are TRIGGERING.
_LISTENERS: dict[str, Callable[[GameState, dict[str, Any]], Iterator[Listener]]] = {
    "SigniPlayed": _entered,
    "SigniPutOntoField": _entered,
    "LrigGrew": _grew,
    "AttackDeclared": _attacked,
    "CardsDrawn": _drew,
    "CardsDiscarded": _discarded,
    "SigniTargeted": _targeted,
    "CardsPutUnder": _put_under,
    "PhaseBegan": _phase,
    "TurnBegan": _turn,
    "StepBegan": _step,
    "CardsMilled": _milled,
    "Refreshed": _refreshed,
    "LifeClothCrushed": _life_crushed,
    "SigniMoved": _moved,
    "SigniVanished": _vanished,
    "Battled": _battled,
    "CardsMoved": _cards_moved,
    "SigniTrashed": _rule_trashed,
    "SpellUsed": _spell_used,
    "Guarded": _guarded,
    "GuardedInstead": _guarded,
    "CoinsPaid": _coins_paid,
}


def _add(
    s: GameState,
    found: Found,
    listener: Listener,
    fits: Callable[[dict[str, Any]], bool] | None = None,
    had: dict[str, Gained] | None = None,
) -> None:
    """The abilities of one card that answer the listener's form (and ``fits``, when given), and may trigger
    now; ``had``: what constants gave the SIGNI the event took off the field (``look_back``)."""
    card, player, kind, key, subject = listener
    owned = abilities(s, card)
    if had and card in had and not tg.on_field(s, card):
        owned = [*owned, *had[card]]
    for ref, ab in owned:
        trigger = ab.get("trigger", {})
        if ab["kind"] != kind or (key is not None and tw.key(trigger) != key):
            continue
        if fits is not None and not fits(tw.general(trigger)):
            continue
        if subject is not None and not _subject_fits(s, subject, trigger.get("filter", {}), card):
            continue
        if subject is not None and not _names(trigger, subject, card):
            continue
        if ab.get("team") and not team_ok(s, player, s.cards[card], ab["team"]):
            continue
        if not tg.holds(s, player, card, trigger.get("during")):
            continue
        if ab.get("once") and _counted(s, card, ref, ab["once"], found):
            continue
        entry: dict[str, Any] = {"card": card, "player": player, "ability": ref, "kind": kind}
        if subject is not None and _reads_subject(ab):  # "that SIGNI": the one the event was about
            entry["subject"] = subject
        found.append(entry)


def _reads_subject(ab: dict[str, Any]) -> bool:
    """Whether a triggered ability's effect names the SIGNI its trigger was about (target ``subject``)."""
    text = json.dumps(ab.get("effect", []))
    return '"subject": true' in text or '"subject_fits"' in text


def _names(trigger: dict[str, Any], subject: str, card: str) -> bool:
    """Whether the card an event is about is the one the trigger names: ``subject`` ``this`` (this card) or
    ``other`` (another card) (000 '[Auto]': the ability triggers on the event it names)."""
    if "subject" not in trigger:
        return True
    return (subject == card) == (str(trigger["subject"]) == "this")


def collect(s: GameState, event: Any, had: dict[str, Gained] | None = None) -> Found:
    """The abilities an event (just applied to ``s``) triggers; ``had``: what constants gave the SIGNI it
    took off the field, as they were (``look_back``)."""
    t, d = event.type, event.data
    found: Found = []
    for listener in _LISTENERS.get(t, _none)(s, d):
        _add(s, found, listener, had=had)
    if t == "SigniTargeted":
        found[:] = _once_per_ability(s, event, found)
    if t == "SigniVanished":
        for w in found:  # where it was: "the SIGNI that was in front of it"
            w["was_in"] = d.get("zone")
    if t == "StepBegan":
        found.extend(_marker_triggers(s, d))
    gone = left_field(s, event)
    for iid in gone:
        _add(s, found, (iid, s.owners[iid], "auto", LEAVES, None), had=had)
    for owner in sorted({s.owners[i] for i in gone}):
        for listener in _signi(s, owner, OTHER_LEAVES):  # once, however many others left
            _add(s, found, listener)
    _tallied(s, found)
    return found


def _marker_triggers(s: GameState, d: dict[str, Any]) -> Found:
    """The abilities of zone markers (a Hastalyk) that trigger "at the start of your attack phase": the
    player who put the marker is the one whose attack phase it is (the marker's own text). They resolve as
    that player's; the card named as their source is that player's center LRIG, and the zone the marker is
    in is noted (``marker_zone``: "the SIGNI in this zone")."""
    tp = s.turn_player
    if d.get("step") not in ("pre_attack", "arts_use") or not tp or s.players[tp].lrig["center"] is None:
        return []
    center = s.players[tp].lrig["center"].iid  # type: ignore[union-attr]
    out: Found = []
    for side, ps in s.players.items():
        for zone in SIGNI_ZONES:
            for m in ps.markers.get(zone, ()):
                kind, _, whose = m.partition(":")
                if kind not in MARKER_CARDS or whose != tp:
                    continue
                token = MARKER_CARDS[kind]
                for i, ab in enumerate(abilities_of(token)):
                    if ab["kind"] == "auto" and tw.key(ab.get("trigger", {})) == ATTACK_PHASE:
                        w = {"card": center, "player": tp, "ability": f"{token}@{i}", "kind": "auto"}
                        out.append({**w, "marker_zone": f"{side}:{zone}"})
    return out


def _tallied(s: GameState, found: Found) -> None:
    """``moves`` triggers: each card the event moved (discarded, put onto the field ...), as the turn's
    tally tells it (``domain.tally``), asked of the card itself (``this``) and of the cards on each field
    (``you``: the card is of that field's player; ``opponent``: of the other player)."""
    tp = s.turn_player or "p1"
    entries = tally.just_now(s)
    gone = [e["card"] for e in entries if e.get("from") == "field" and e.get("card")]
    gone = [iid for iid in gone if not tg.on_field(s, iid)]
    for entry in entries:
        card, owner = entry.get("card"), str(entry.get("player"))
        if card is not None:
            _add(s, found, (card, s.owners[card], "auto", MOVES_THIS, None), _entry_fits(s, entry, owner))
        for p in (tp, opponent(tp)):
            key = MOVES_YOURS if p == owner else MOVES_OPPONENTS
            for listener in _field(s, p, key, card):
                _add(s, found, listener, _entry_fits(s, entry, p))
            for left in gone:  # a SIGNI that left the field in this same event looks back (000 '[Auto]'):
                if s.owners[left] == p:  # its "when your SIGNI leaves the field" sees itself and the others
                    _add(s, found, (left, p, "auto", key, card), _entry_fits(s, entry, p))


def _entry_fits(s: GameState, entry: dict[str, Any], controller: str) -> Callable[[dict[str, Any]], bool]:
    """Whether a ``moves`` trigger names what the entry tells: ``what``, ``from`` (or not ``not_from``),
    ``to`` and ``by`` (as seen by the trigger's controller)."""

    def zones(v: Any) -> list[Any]:
        return v if isinstance(v, list) else [v]

    def fits(g: dict[str, Any]) -> bool:
        return (
            g.get("what", "moved") == entry.get("what")
            and ("from" not in g or entry.get("from") in zones(g["from"]))
            and ("not_from" not in g or entry.get("from") not in zones(g["not_from"]))
            and ("to" not in g or entry.get("to") in zones(g["to"]))
            and tally.by_fits(s.owners, controller, entry, str(g.get("by", "any")))
        )

    return fits


def _none(_s: GameState, _d: dict[str, Any]) -> Iterator[Listener]:
    return iter(())


def _once_per_ability(s: GameState, event: Any, found: Found) -> Found:
    """A SIGNI becoming a target triggers each ability once, when one or more of the targeted SIGNI fit its
    filter and the source fits its ``by`` (``assist_or_life_burst``: an Assist LRIG's ability, or a Life
    Burst; ``signi_enter``: a SIGNI's [Enter] ability; ``signi``: any ability or effect of a SIGNI card)."""
    d = event.data
    source = facts.card_of(s, d["by_effect"]) if d.get("by_effect") in s.cards else None
    fits = {
        "any": True,
        "assist_or_life_burst": event.rule == "life-burst.use"
        or (source is not None and source.type.value == "assist_lrig"),
        "signi_enter": event.rule == "ability.enter" and source is not None and source.is_signi,
        "signi": source is not None and source.is_signi,
    }
    seen: set[tuple[str, Any]] = set()
    kept = []
    for w in found:
        key = (w["card"], w["ability"])
        by = ability_at(s.cards[w["card"]], w["ability"]).get("trigger", {}).get("by", "any")
        if key in seen or not fits.get(by, False):
            continue
        seen.add(key)
        if d.get("by_effect") and _reads_cause(s, w):  # "that SIGNI": the card whose ability targeted
            w["cause"] = d["by_effect"]
        kept.append(w)
    return kept


def _reads_cause(s: GameState, w: dict[str, Any]) -> bool:
    """Whether a triggered ability's effect names the card that caused its trigger (target ``cause``)."""
    return '"cause": true' in json.dumps(ability_at(s.cards[w["card"]], w["ability"]).get("effect", []))


def _subject_fits(s: GameState, iid: str, f: dict[str, Any], card: str) -> bool:
    """Whether the SIGNI an event is about fits a trigger's filter (as it is on the field now); ``in_front``:
    it is in the opponent's SIGNI zone in front of ``card``, the card whose trigger it is."""
    if not f:
        return True
    where = s.where(iid)
    if f.get("in_front"):
        here = (s.players[s.owners[card]].find(card) or "").split(":")
        if here[0] != "signi" or where is None or where[0] == s.owners[card]:
            return False
        if where[1] != f"signi:{facing(here[1])}":
            return False
    slot = tg._slot(s, iid)
    if where is None or slot is None or not where[1].startswith("signi:"):  # it left the field: as it was
        known = tally.last_known(s, iid) or s.flags.get("last_known", {}).get(iid)  # (upped, frozen)
        for k in ("upped", "frozen"):
            if k in f and known is not None and known.get(k, False) != f[k]:
                return False
        if known is not None and "power" in known and not _power_fits(int(known["power"]), f):
            return False
        return tg.card_fits(_as_it_left(s, iid), f)  # what else it was is what is printed on it
    return tg.slot_fits(s, slot, where[1].split(":")[1], f)


def _power_fits(power: int, f: dict[str, Any]) -> bool:
    """Whether a SIGNI's power as it left the field fits the filter's ``power_min`` and ``power_max``."""
    too_low = "power_min" in f and power < f["power_min"]
    return not (too_low or ("power_max" in f and power > f["power_max"]))


def _as_it_left(s: GameState, iid: str) -> Card:
    """A card that just left the field as it was there: its printed facts, and the colours effects had added
    to it (the tally noted them as it left, effect.colors-added)."""
    card = facts.card_of(s, iid)
    known = tally.last_known(s, iid)
    if known is not None and "colors" in known:
        return replace(card, colors=tuple(known["colors"]))
    return card


def _by_own_effect(s: GameState, d: dict[str, Any]) -> bool:
    """Whether cards were discarded by an effect of the discarding player's own card (not as a cost)."""
    source = d.get("by_effect")
    return isinstance(source, str) and not d.get("as_cost") and s.owners.get(source) == d["player"]


def _counted(s: GameState, card: str, ref: int | str, once: str, found: list[dict[str, Any]]) -> bool:
    """Whether a 1/Turn, 2/Turn or 1/Game triggered ability already triggered as often as it may (this turn,
    or at all)."""
    used = s.used.get(f"{card}/{ref}")
    if (once == "turn" and used == s.turn) or (once == "game" and used is not None):
        return True
    pending = sum(1 for w in [*s.waiting, *found] if w["card"] == card and w["ability"] == ref)
    if once == "twice":
        done = (used == s.turn) + (s.used.get(f"{card}/{ref}#2") == s.turn)
        return done + pending >= 2
    return pending > 0


def after_emit(rec: Recorder, event: Any, had: dict[str, Gained] | None = None) -> None:
    """Recorder hook: what the event triggers, and what waits on it (``had``: ``look_back`` before it)."""
    if event.type not in TRIGGERING:
        return
    if event.type == "SigniVanished":
        _vanished_to_trash(rec, event)
    if event.type in ("SigniPlayed", "SigniPutOntoField"):
        _end_waiting_for(rec, event.data["card"])
        _watched_entries(rec, event)
    if event.type == "AttackDeclared":
        _watched_attacks(rec, event.data)
    if event.type == "StepBegan" and event.data.get("step") in ("pre_attack", "arts_use"):
        _watched_attack_phases(rec)
    for w in collect(rec.state, event, had):
        rec.emit("AbilityTriggered", "rules", _rule(rec.state, w), w)


_WATCHERS: PerMatch[frozenset[str]] = PerMatch()


def _forget_watchers() -> None:
    global _WATCHERS
    _WATCHERS = PerMatch()


forget_with_encodings(_forget_watchers)


def _watchers(s: GameState) -> frozenset[str]:
    """The card instances of the match with a printed ability that triggers on another SIGNI gaining a
    keyword (found once per match)."""

    def find() -> frozenset[str]:
        return frozenset(
            i
            for i, c in s.cards.items()
            if any(
                ab["kind"] == "auto" and tw.key(ab.get("trigger", {})) == GAINS_KEYWORD for _r, ab in _own(c)
            )
        )

    return _WATCHERS.get(s.cards, find)


def keywords_watched(s: GameState) -> dict[str, dict[str, int]] | None:
    """Before an event: the keywords of every SIGNI on the field of a player who has a SIGNI there that
    triggers on another SIGNI gaining a keyword, each with how many times the SIGNI has it
    (``facts.keyword_counts``; None: no such SIGNI on any field, nothing is watched)."""
    watchers = _watchers(s)
    if not watchers:
        return None
    out: dict[str, dict[str, int]] = {}
    for ps in s.players.values():
        slots = [sl for _z, sl in ps.signi_slots()]
        if any(sl.iid in watchers for sl in slots):
            out.update((sl.iid, facts.keyword_counts(s, sl)) for sl in slots)
    return out or None


def keywords_gained(rec: Recorder, before: dict[str, dict[str, int]]) -> None:
    """After an event: each keyword a SIGNI watched before it has now more times than then (an effect gave
    it, even one it had already; a constant ability started to give it) triggers, once for each time gained,
    the abilities of the other SIGNI of its player that watch for it; the keyword is noted for their effect
    ("that ability")."""
    s = rec.state
    watchers = _watchers(s)
    for iid, had in before.items():
        slot = tg._slot(s, iid)
        if slot is None:
            continue  # it left the field: it gained nothing there
        now = facts.keyword_counts(s, slot)
        gained = sorted(k for k, n in now.items() for _ in range(n - had.get(k, 0)))
        owner = s.owners[iid]
        for k in gained:
            found: Found = []
            for _z, other in s.players[owner].signi_slots():
                if other.iid in watchers and other.iid != iid:
                    _add(s, found, (other.iid, owner, "auto", GAINS_KEYWORD, None), _watches(k))
            for w in found:
                rec.emit("AbilityTriggered", "rules", _rule(s, w), {**w, "keyword": k})


def _watches(keyword: str) -> Callable[[dict[str, Any]], bool]:
    """Whether a gains_keyword trigger watches this keyword."""
    return lambda g: keyword in g.get("keywords", [])


def _rule(s: GameState, w: dict[str, Any]) -> str:
    """The rule a triggered ability follows: [Enter], [Auto], or a keyword that triggers (Harmony)."""
    if w["kind"] == "enter":
        return "ability.enter"
    if w["kind"] == "auto" and isinstance(w["ability"], int):
        keyword = ability_at(s.cards[w["card"]], w["ability"]).get("keyword")
        return f"kw.{keyword}" if keyword else "ability.auto"
    return "ability.auto"


def _vanished_to_trash(rec: Recorder, event: Any) -> None:
    """A SIGNI vanished in battle by an attacker whose constant says so goes to the trash, not the ener; so
    does one vanished (however) during an attack phase in front of a SIGNI whose constant says so, and one
    that a replacement constant sends to the trash as it leaves the field."""
    from domain.abilities.constants import front_to_trash, vanishes_to_trash

    s, d = rec.state, event.data
    attacker = (s.attack or {}).get("card")
    source: str | None = None
    if d.get("cause") == "battle" and attacker is not None and vanishes_to_trash(s, attacker, d["card"]):
        source = attacker
    elif d.get("zone"):
        source = front_to_trash(s, d["player"], d["zone"])
    if source is None:  # an effect said so for the rest of the turn
        source = s.flags.get("vanish_to_trash", {}).get(d["player"])
    if source is None:  # a replacement constant: a SIGNI leaving the field goes to the trash instead
        from domain.abilities.constants import leave_redirect

        redirect = leave_redirect(s, d["card"])
        if redirect is not None and redirect[0] == "trash":
            data = {"player": d["player"], "cards": [d["card"]], "to": "trash", "from": "ener"}
            rec.emit("CardsMoved", "rules", "effect.replace", {**data, "replaced_by": redirect[1]})
        return
    rec.emit(
        "CardsMoved",
        "rules",
        "effect.vanish-to-trash",
        {"player": d["player"], "cards": [d["card"]], "to": "trash", "from": "ener", "by_effect": source},
    )


def _watched_attacks(rec: Recorder, d: dict[str, Any]) -> None:
    """An attack by what an effect watches this turn (``delay`` ``until: attacks``: the cards it targeted,
    or any SIGNI of a player): what follows waits to resolve at once (``until: now``), among the attack's
    triggered abilities, as its player's; a watch for the next attack only ends."""
    s = rec.state
    for w in list(s.waiting):
        if w.get("kind") != "delayed" or w.get("until") != "attacks" or int(w.get("turn", -1)) != s.turn:
            continue
        watch = w.get("watch", {})
        if d["card"] not in watch.get("cards", []) and (
            watch.get("player") != d["player"] or d["zone"] == "lrig"
        ):
            continue
        rec.emit(
            "EffectDelayed",
            "rules",
            "effect.delayed",
            {
                "player": w["player"],
                "card": w["card"],
                "ability": w["ability"],
                "until": "now",
                "turn": s.turn,
                "attack": d["card"],
                "effect": w["effect"],
            },
        )
        if not w.get("each"):
            rec.emit("EffectEnded", "rules", "effect.delayed", {"key": w["key"], "reason": "it attacked"})


def _watched_entries(rec: Recorder, event: Any) -> None:
    """A SIGNI entering a field an effect watches this turn (``delay`` ``until: enters``; ``by: effect``: put
    onto it by an effect, not played): what follows resolves at once (``until: now``), as a triggered ability
    of that effect's player."""
    s, d = rec.state, event.data
    for w in list(s.waiting):
        if w.get("kind") != "delayed" or w.get("until") != "enters" or int(w.get("turn", -1)) != s.turn:
            continue
        watch = w.get("watch", {})
        if watch.get("player") != d.get("player"):
            continue
        if watch.get("by") == "effect" and not (event.type == "SigniPutOntoField" and d.get("by_effect")):
            continue
        data = {"player": w["player"], "card": w["card"], "ability": w["ability"], "until": "now"}
        rec.emit("EffectDelayed", "rules", "effect.delayed", {**data, "turn": s.turn, "effect": w["effect"]})


def _watched_attack_phases(rec: Recorder) -> None:
    """The start of an attack phase (seed 000 "Pre-attack step"): an effect waiting for every attack phase
    while the cards it turned face down stay face down (``turn_face_down``, ``back`` ``attack_phases``)
    resolves now (``until: now``), as its player's; once none of them is face down, it ends (``back``
    ``attack_phase``: it ends after the first)."""
    from domain.abilities.effects.facedown import face_down_zone

    s = rec.state
    for w in list(s.waiting):
        if w.get("kind") != "delayed" or w.get("until") != "attack_phases":
            continue
        cards = [i for i in w.get("watch", {}).get("face_down", []) if face_down_zone(s, i) is not None]
        if not cards:
            rec.emit("EffectEnded", "rules", "effect.delayed", {"key": w["key"], "reason": "turned face up"})
            continue
        data = {"player": w["player"], "card": w["card"], "ability": w["ability"], "until": "now"}
        rec.emit("EffectDelayed", "rules", "effect.delayed", {**data, "turn": s.turn, "effect": w["effect"]})
        if w.get("watch", {}).get("once"):  # back at the next attack phase only (``attack_phase``)
            ended = {"key": w["key"], "reason": "its moment passed"}
            rec.emit("EffectEnded", "rules", "effect.delayed", ended)


def _end_waiting_for(rec: Recorder, iid: str) -> None:
    """A card that comes onto the field is a new card: effects waiting to apply to it again end (and
    watches on it)."""
    for w in list(rec.state.waiting):
        if w.get("kind") == "delayed" and (
            any(iid in st.get("target", {}).get("cards", []) for st in w.get("effect", []))
            or iid in w.get("watch", {}).get("cards", [])
        ):
            rec.emit(
                "EffectEnded",
                "rules",
                "effect.delayed",
                {"key": w["key"], "card": iid, "reason": "new on the field"},
            )


# -- resolving ------------------------------------------------------------------------------------


def _ready(s: GameState, w: dict[str, Any]) -> bool:
    """Whether a waiting entry may resolve now (a delayed effect waits for its moment)."""
    if w.get("kind") != "delayed":
        return True
    if w.get("until") in ("now", "attacks", "attack_phases", "enters"):  # at once; a watch never resolves
        return w.get("until") == "now"
    if w.get("until") == "main_phase":  # the start of its player's main phase of that turn
        return s.turn == int(w["turn"]) and s.phase == "main"
    if w.get("until") == "turn":
        return s.turn >= int(w["turn"])
    if w.get("until") == "end_phase":  # the start of its player's next end phase (001 'End Phase')
        return s.phase == "end" and s.turn_player == w["player"] and s.turn >= int(w["turn"])
    if w.get("until") == "turn_end":  # "at the end of this turn": as the end phase begins
        return s.turn > int(w["turn"]) or s.phase == "end"
    a = s.attack
    return (
        a is None or a.get("card") != w.get("attack") or (a.get("zone") == "lrig" and bool(a.get("resolved")))
    )


def next_waiting(rec: Recorder, player: str) -> bool:
    """Resolve the player's next waiting triggered ability, or ask the order; False when none waits."""
    s = rec.state
    for w in s.waiting:  # an effect waiting for the end of an attack (or of the turn) of a turn that ended
        if (
            w["player"] == player
            and w.get("until") in ("attack_end", "turn_end", "attacks", "enters", "now")
            and w.get("turn", s.turn) != s.turn
        ) or (w["player"] == player and w.get("until") == "main_phase" and int(w["turn"]) < s.turn):
            rec.emit("EffectEnded", "rules", "effect.delayed", {"key": w["key"], "reason": "the turn ended"})
            return True
    mine = _first_parts([w for w in s.waiting if w["player"] == player and _ready(s, w)])
    if not mine:
        return False
    if len(mine) > 1 and not _same(mine):
        player = mine[0]["player"]
        rec.ask(
            player,
            "trigger_order",
            "trigger.order",
            choices=[w["key"] for w in mine],
            cards=[w["card"] for w in mine],
            prompt="choose which of your triggered abilities resolves next",
        )
        return True
    activate(rec, mine[0])
    return True


def _first_parts(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The waiting entries that may resolve next: of the parts of one effect applied again as the next turn
    begins ("until the end of the opponent's next turn": delayed entries of one card's ability for that
    turn), only the first, so that they apply again in the order they first applied (000 'Effect': "loses its
    abilities and gains ..." keeps what is gained after the loss)."""
    seen: set[tuple[str, str, int]] = set()
    out = []
    for w in entries:
        if w.get("kind") == "delayed" and w.get("until") == "turn":
            part = (str(w["card"]), str(w["ability"]), int(w["turn"]))
            if part in seen:
                continue
            seen.add(part)
        out.append(w)
    return out


def _same(entries: list[dict[str, Any]]) -> bool:
    return all(
        (e["card"], e["ability"], e.get("kind"))
        == (entries[0]["card"], entries[0]["ability"], entries[0].get("kind"))
        and e.get("kind") != "delayed"
        for e in entries
    )


def activate(rec: Recorder, w: dict[str, Any]) -> None:
    from domain.abilities import effects, use

    s = rec.state
    if w.get("kind") == "delayed":
        a = s.attack
        damaged = bool(
            a and a.get("card") == w.get("attack") and a.get("zone") == "lrig" and a.get("resolved")
        )
        rec.emit(
            "AbilityActivated",
            "rules",
            "effect.delayed",
            {
                "key": w["key"],
                "card": w["card"],
                "player": w["player"],
                "ability": w["ability"],
                "kind": "delayed",
            },
        )
        effects.start(
            rec,
            w["card"],
            w["player"],
            w["ability"],
            {"effect": w["effect"]},
            "effect.delayed",
            vars={"attack_damaged": damaged},
        )
        return
    ab = ability_at(s.cards[w["card"]], w["ability"])
    rule = _rule(s, w)
    rec.emit(
        "AbilityActivated",
        "rules",
        rule,
        {
            "key": w["key"],
            "card": w["card"],
            "player": w["player"],
            "ability": w["ability"],
            "kind": w["kind"],
        },
    )
    if ab.get("once"):
        counted = {"card": w["card"], "ability": w["ability"]}
        if ab["once"] == "twice" and s.used.get(f"{w['card']}/{w['ability']}") == s.turn:
            counted["second"] = True  # the second of a 2/Turn ability's two this turn
        rec.emit("AbilityCounted", "rules", "ability.once", counted)
    if not tg.holds(s, w["player"], w["card"], ab.get("condition")):
        rec.emit(
            "AbilityResolved",
            "rules",
            rule,
            {
                "card": w["card"],
                "player": w["player"],
                "ability": w["ability"],
                "note": "its condition does not hold",
            },
        )
        return
    vars = {k: w[k] for k in ("was_in", "cause", "subject", "marker_zone", "keyword") if w.get(k)} or None
    use.resolve_with_cost(rec, w["card"], w["player"], w["ability"], ab, rule, optional=True, vars=vars)
