"""One English sentence per event, for people: what the console's log shows and the API's ``text`` field.

Every event type has one small function here (``SENTENCES``, filled by ``@says``; a test fails when a type
of ``domain.events.EVENT_TYPES`` has none). A sentence is made from an event's data *as a viewer may see it*
(after ``projections.views.redact_data``): a card whose instance id the redacted data no longer holds is
never named, only counted ("Bo draws 2 cards"), so the text tells a viewer nothing its data does not.

Players are named by the names their match was created with (``Cast``), falling back to "Player 1" and
"Player 2"; cards by their catalogue name; zones in words ("the center SIGNI zone", "the ener zone").
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from domain import facts
from domain.cards import INFINITE_POWER, UnknownCard
from domain.formats import FORMATS

ZONE_WORDS = {
    "hand": "hand",
    "deck": "deck",
    "life_cloth": "Life Cloth",
    "ener": "ener zone",
    "trash": "trash",
    "lrig_deck": "LRIG deck",
    "lrig_trash": "LRIG trash",
    "check": "check zone",
    "excluded": "excluded zone",
    "field": "field",
    "signi": "field",
    "lrig": "LRIG zone",
    "under": "pile under an LRIG",
}
PHASE_WORDS = {
    "setup": "set-up",
    "up": "up phase",
    "draw": "draw phase",
    "ener": "ener phase",
    "grow": "grow phase",
    "main": "main phase",
    "attack": "attack phase",
    "end": "end phase",
}
STEP_WORDS = {
    "pre_attack": "pre-attack step",
    "defense": "defense step",
    "arts_use": "ARTS use step",
    "signi_attack": "SIGNI attack step",
    "lrig_attack": "LRIG attack step",
    "guard": "guard step",
}
LRIG_POSITION_WORDS = {"center": "center LRIG", "left": "left assist LRIG", "right": "right assist LRIG"}
KEYWORD_WORDS = {
    "lancer": "Lancer",
    "double_crush": "Double Crush",
    "assassin": "Assassin",
    "shadow": "Shadow",
    "guard": "Guard",
    "multi_ener": "Multi Ener",
}
ABILITY_KIND_WORDS = {
    "enter": "Enter ability",
    "auto": "auto ability",
    "constant": "constant ability",
    "action": "Action ability",
    "life_burst": "Life Burst",
    "spell": "spell effect",
    "piece": "PIECE effect",
    "arts": "ARTS effect",
    "delayed": "waiting effect",
    "rise": "Rise",
}
FORMAT_WORDS = {"diva": "Diva Selection", "original": "original-format"}
ASKED_WORDS = {
    "mulligan": "decides whether to mulligan",
    "ener": "may charge ener",
    "grow": "may grow an LRIG",
    "main": "acts in the main phase",
    "pre_attack": "may act in the pre-attack step",
    "arts_use": "may use ARTS and [Attack Phase] abilities in the ARTS use step",
    "defense": "may act in the defense step",
    "signi_attack": "may attack with SIGNI",
    "lrig_attack": "may attack with the center LRIG",
    "guard": "decides whether to guard",
    "life_burst": "decides whether to use a Life Burst",
    "discard": "must discard",
    "trigger_order": "chooses the order of the waiting triggered abilities",
    "spell_cut_in": "may cut in to the spell or PIECE",
}
PASSED_WORDS = {
    "mulligan": "keeps the hand",
    "ener": "ends the ener phase",
    "grow": "ends the grow phase",
    "main": "ends the main phase",
    "pre_attack": "ends the pre-attack step",
    "arts_use": "is done using ARTS in the ARTS use step",
    "defense": "ends the defense step",
    "signi_attack": "ends the SIGNI attack step",
    "lrig_attack": "ends the LRIG attack step",
    "guard": "does not guard",
    "life_burst": "does not use the Life Burst",
    "spell_cut_in": "does not cut in to the spell or PIECE",
    "choose": "declines",
}
_PLAYER_TOKEN = re.compile(r"\bp([12])\b")
_CATALOGUE_ID = re.compile(
    r"\bWX[A-Za-z0-9]*(?:-[A-Za-z0-9]+)+"
)  # a card named in a rule's text: by its name


def words(value: str, table: Mapping[str, str] | None = None) -> str:
    """An internal word in plain words: from ``table``, else with its underscores made spaces."""
    if table and value in table:
        return table[value]
    return str(value).replace("_", " ")


@dataclass(frozen=True)
class Cast:
    """Who and what a match's sentences name: the players' names, and which card each instance is (the
    match's ``state.cards``; it never changes after the match is made)."""

    names: Mapping[str, str] = field(default_factory=dict)
    cards: Mapping[str, str] = field(default_factory=dict)

    @classmethod
    def of(cls, state: Any) -> Cast:
        cards = state.cards
        became = state.flags.get("became")
        if became:  # a SIGNI that became another card until end of turn is named by its printed card
            cards = {**cards, **became}
        return cls({p: ps.name for p, ps in state.players.items() if ps.name}, cards)


NOBODY = Cast()


@dataclass(frozen=True)
class Say:
    """The helpers a sentence is made with: one event's actor, in one match's cast."""

    cast: Cast
    actor: str = "rules"

    def player(self, p: Any) -> str:
        if p == "judge":
            return "the judge"
        if p in ("p1", "p2"):
            return self.cast.names.get(p) or f"Player {p[1]}"
        return "a player"

    def whose(self, p: Any) -> str:
        return f"{self.player(p)}'s"

    def card(self, ref: Any) -> str:
        """A card's name, from an instance id or a catalogue id; "a card" for anything else."""
        if not isinstance(ref, str):
            return "a card"
        card_id = self.cast.cards.get(ref, ref)
        try:
            return facts.catalogue().get(card_id).name
        except (UnknownCard, KeyError):
            return "a card"

    def cards(self, data: Mapping[str, Any], key: str = "cards") -> str:
        """The cards of ``data[key]`` by name, or, where the viewer may see only how many, the count."""
        value = data.get(key)
        if isinstance(value, Mapping):  # a part redacted to {"count": n}
            return count(int(value.get("count", 0)), "card")
        if isinstance(value, Sequence) and not isinstance(value, str):
            return listed([self.card(c) for c in value]) if value else "no cards"
        return count(int(data.get("count", 0)), "card")

    def how_many(self, data: Mapping[str, Any], key: str = "cards") -> int:
        value = data.get(key)
        if isinstance(value, Mapping):
            return int(value.get("count", 0))
        if isinstance(value, Sequence) and not isinstance(value, str):
            return len(value)
        return int(data.get("count", 0))

    def by(self, data: Mapping[str, Any]) -> str:
        """ " by X's effect" when the data name the card whose effect did it."""
        source = data.get("by_effect")
        return f" by the effect of {self.card(source)}" if isinstance(source, str) else ""

    def text(self, value: Any) -> str:
        """A free text of the domain's with its player ids made names ("p2 conceded" -> "Bo conceded") and
        its internal words in plain words."""
        text = _PLAYER_TOKEN.sub(lambda m: self.player(f"p{m.group(1)}"), str(value))
        return plain(_CATALOGUE_ID.sub(lambda m: self.card(m.group(0)), text))

    def verb(self, data: Mapping[str, Any], one: str, many: str, key: str = "cards") -> str:
        return one if self.how_many(data, key) == 1 else many


def count(n: int, noun: str, plural: str | None = None) -> str:
    if n == 1:
        return f"{'an' if noun[:1] in 'aeiou' else 'a'} {noun}"
    return f"{n} {plural or noun + 's'}"


def top(n: int, pile: str) -> str:
    """ "the top card of Bo's deck goes" / "the top 2 cards of Bo's deck go" (the verb agreeing)."""
    return f"the top card of {pile} goes" if n == 1 else f"the top {n} cards of {pile} go"


_SNAKE = re.compile(r"\b[a-z]+(?:_[a-z]+)+\b")


def plain(text: str) -> str:
    """A text of the domain's (a prompt, a note) with its internal words in plain words."""
    return _SNAKE.sub(lambda m: words(m.group(0), KEYWORD_WORDS), text)


def listed(items: Sequence[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} and {items[-1]}"


def signi_zone(zone: Any) -> str:
    return f"{zone} SIGNI zone" if zone in ("left", "center", "right") else words(str(zone), ZONE_WORDS)


def reason(value: Any) -> str:
    return f": {value}" if isinstance(value, str) and value.strip() else ""


Sentence = Callable[[Say, Mapping[str, Any]], str]
SENTENCES: dict[str, Sentence] = {}


def says(*types: str) -> Callable[[Sentence], Sentence]:
    def register(fn: Sentence) -> Sentence:
        for t in types:
            if t in SENTENCES:
                raise ValueError(f"two sentences for {t}")
            SENTENCES[t] = fn
        return fn

    return register


def sentence(etype: str, data: Mapping[str, Any], actor: str = "rules", cast: Cast = NOBODY) -> str:
    """The sentence for one event, from its data as the viewer may see it (see the module text)."""
    fn = SENTENCES.get(etype)
    say = Say(cast, actor)
    if fn is None:
        return f"Something happened ({etype})."
    try:
        out = fn(say, data)
    except (KeyError, TypeError, ValueError, AttributeError):
        out = f"{etype} happened"  # data of an older shape, or left out for this viewer: still a line
    out = out[0].upper() + out[1:] if out else out
    return out if out.endswith((".", "!", "?")) else out + "."


# -- set-up ---------------------------------------------------------------------------------------


@says("MatchCreated")
def _match_created(s: Say, d: Mapping[str, Any]) -> str:
    players = d.get("players") or {}
    names = [s.player(p) if not players.get(p, {}).get("name") else players[p]["name"] for p in ("p1", "p2")]
    fmt = words(d.get("format", "diva"), FORMAT_WORDS)
    found = FORMATS.get(str(d.get("format")))
    given = d.get("options") or {}
    changed = [
        f"{o.name} {given[o.name]}"
        for o in (found.options if found else ())
        if given.get(o.name, o.default) != o.default
    ]
    tail = f", with the options {', '.join(changed)}" if changed else ""
    return f"A {fmt} match between {names[0]} and {names[1]} is created{tail}"


@says("PositionSet")
def _position_set(s: Say, d: Mapping[str, Any]) -> str:
    state = d.get("state") or {}
    where = words(state.get("phase") or "setup", PHASE_WORDS)
    if state.get("step"):
        where = words(state["step"], STEP_WORDS)
    turn, whose = state.get("turn", 1), s.whose(state.get("turn_player"))
    return f"The judge sets up a position: turn {turn}, {whose} {where}"


@says("LrigsPlaced")
def _lrigs_placed(s: Say, d: Mapping[str, Any]) -> str:
    who = s.player(d.get("player"))
    if "center" not in d:
        return f"{who} places {'one LRIG' if d.get('lrigs') == 1 else 'three LRIGs'} face down"
    if "left" not in d:  # the original format (seed 002): one LRIG
        return f"{who} places {s.card(d['center'])} face down as the LRIG"
    return (
        f"{who} places LRIGs face down: {s.card(d['center'])} as the center LRIG, "
        f"{s.card(d.get('left'))} and {s.card(d.get('right'))} as assist LRIGs"
    )


@says("DeckShuffled")
def _deck_shuffled(s: Say, d: Mapping[str, Any]) -> str:
    return f"{s.whose(d.get('player'))} deck is shuffled"


@says("FirstPlayerChosen")
def _first_player(s: Say, d: Mapping[str, Any]) -> str:
    how = " (by a coin toss)" if d.get("method") == "coin" else ""
    return f"{s.player(d.get('player'))} goes first{how}"


@says("CardsDrawn")
def _cards_drawn(s: Say, d: Mapping[str, Any]) -> str:
    n = s.how_many(d)
    what = s.cards(d) if "cards" in d else ("a card" if n == 1 else f"{n} cards")
    return f"{s.player(d.get('player'))} draws {what}{s.by(d)}"


@says("MulliganDeclared")
def _mulligan(s: Say, d: Mapping[str, Any]) -> str:
    who = s.player(d.get("player"))
    if s.how_many(d) == 0:
        return f"{who} keeps the hand (no mulligan)"
    return f"{who} mulligans, returning {s.cards(d)}"


@says("CardsReturned")
def _cards_returned(s: Say, d: Mapping[str, Any]) -> str:
    return f"{s.player(d.get('player'))} returns {s.cards(d)} from the hand to the deck"


@says("LifeClothPlaced")
def _life_cloth_placed(s: Say, d: Mapping[str, Any]) -> str:
    n = s.how_many(d)
    return f"{s.player(d.get('player'))} puts the top {count(n, 'card')} of the deck into the Life Cloth"


@says("LrigsRevealed")
def _lrigs_revealed(s: Say, d: Mapping[str, Any]) -> str:
    return "Both players turn their LRIGs face up"


# -- the turn -------------------------------------------------------------------------------------


@says("TurnBegan")
def _turn_began(s: Say, d: Mapping[str, Any]) -> str:
    return f"Turn {d.get('turn')} begins: {s.whose(d.get('player'))} turn"


@says("PhaseBegan")
def _phase_began(s: Say, d: Mapping[str, Any]) -> str:
    phase = words(d.get("phase", ""), PHASE_WORDS)
    if d.get("skipped"):
        return f"The {words(d['skipped'], PHASE_WORDS)} is skipped; the {phase} begins"
    return f"The {phase} begins"


@says("StepBegan")
def _step_began(s: Say, d: Mapping[str, Any]) -> str:
    return f"The {words(d.get('step', ''), STEP_WORDS)} begins"


@says("CardsUpped")
def _cards_upped(s: Say, d: Mapping[str, Any]) -> str:
    who = s.player(d.get("player"))
    upped, thawed = d.get("cards") or [], d.get("thawed") or []
    if not upped and not thawed:
        return f"{who} has nothing to up"
    parts = []
    if upped:
        parts.append(f"ups {s.cards(d)}")
    if thawed:
        parts.append(f"thaws {s.cards(d, 'thawed')}")
    return f"{who} {' and '.join(parts)}"


@says("EnerCharged")
def _ener_charged(s: Say, d: Mapping[str, Any]) -> str:
    src = d.get("from", "hand")
    where = {"hand": "the hand", "field": "the field", "deck": "the top of the deck"}.get(
        src, f"the {words(src, ZONE_WORDS)}"
    )
    return f"{s.player(d.get('player'))} charges {s.card(d.get('card'))} from {where} into the ener zone"


@says("LrigGrew")
def _lrig_grew(s: Say, d: Mapping[str, Any]) -> str:
    paid = len(d.get("paid") or [])
    pay = f", paying {count(paid, 'ener card')}" if paid else ""
    lrig = words(d.get("position", "center"), LRIG_POSITION_WORDS)
    return f"{s.player(d.get('player'))} grows the {lrig} into {s.card(d.get('card'))}{pay}"


@says("SigniPlayed")
def _signi_played(s: Say, d: Mapping[str, Any]) -> str:
    rise = f", on top of {s.card(d['rise_on'])} (Rise)" if d.get("rise_on") else ""
    zone = signi_zone(d.get("zone"))
    return f"{s.player(d.get('player'))} plays the SIGNI {s.card(d.get('card'))} into the {zone}{rise}"


@says("SigniRemoved")
def _signi_removed(s: Say, d: Mapping[str, Any]) -> str:
    return f"{s.player(d.get('player'))} removes {s.cards(d)} from the field into the trash"


@says("Passed")
def _passed(s: Say, d: Mapping[str, Any]) -> str:
    return f"{s.player(d.get('player'))} {PASSED_WORDS.get(d.get('kind', ''), 'passes')}"


@says("Asked")
def _asked(s: Say, d: Mapping[str, Any]) -> str:
    who = s.player(d.get("player"))
    kind = d.get("kind", "")
    if kind == "choose":
        prompt = d.get("prompt")
        return f"{who} is asked: {s.text(prompt)}" if prompt else f"{who} is asked to choose"
    if kind == "discard":
        n = d.get("count", d.get("min", 1))
        return f"{who} must discard {count(int(n), 'card')}"
    if kind == "life_burst" and d.get("card"):
        return f"{who} decides whether to use the Life Burst of {s.card(d['card'])}"
    return f"{who} {ASKED_WORDS.get(kind, 'is asked to decide')}"


# -- attacks --------------------------------------------------------------------------------------


@says("AttackDeclared")
def _attack_declared(s: Say, d: Mapping[str, Any]) -> str:
    p = d.get("player")
    other = "p2" if p == "p1" else "p1"
    if d.get("zone") == "lrig":
        return f"{s.whose(p)} LRIG {s.card(d.get('card'))} attacks {s.player(other)}"
    zone = d.get("zone")
    facing = {"left": "right", "right": "left"}.get(str(zone), zone)
    return (
        f"{s.whose(p)} SIGNI {s.card(d.get('card'))} attacks from the {signi_zone(zone)}, "
        f"toward {s.whose(other)} {signi_zone(facing)}"
    )


@says("Battled")
def _battled(s: Say, d: Mapping[str, Any]) -> str:
    a, b = s.card(d.get("attacker")), s.card(d.get("defender"))
    mine, theirs = _power(d.get("attacker_power")), _power(d.get("defender_power"))
    head = f"{a} ({mine} power) battles {b} ({theirs} power)"
    if d.get("result") == "vanished":
        return f"{head}: {b} is vanished"
    if d.get("result") == "replaced":
        return f"{head}: {b} would be vanished, and goes where its own ability says instead"
    return f"{head}: nothing is vanished"


VANISH_CAUSES = {"battle": " in battle", "power": " (its power is 0 or less)"}


@says("SigniVanished")
def _signi_vanished(s: Say, d: Mapping[str, Any]) -> str:
    cause = s.by(d) if d.get("cause") == "effect" else VANISH_CAUSES.get(d.get("cause", ""), "")
    return f"{s.whose(d.get('player'))} SIGNI {s.card(d.get('card'))} is vanished into the ener zone{cause}"


@says("DamageDealt")
def _damage_dealt(s: Say, d: Mapping[str, Any]) -> str:
    crushes = int(d.get("crushes", 1))
    kw = f" ({words(d['keyword'], KEYWORD_WORDS)})" if d.get("keyword") else ""
    source = f" from {s.card(d['source'])}" if d.get("source") else ""
    more = f", {crushes} Life Cloth to crush" if crushes != 1 else ""
    return f"{s.player(d.get('player'))} takes damage{source}{kw}{more}"


@says("Guarded")
def _guarded(s: Say, d: Mapping[str, Any]) -> str:
    return f"{s.player(d.get('player'))} guards, discarding {s.card(d.get('card'))}"


@says("GuardedInstead")
def _guarded_instead(s: Say, d: Mapping[str, Any]) -> str:
    return f"{s.player(d.get('player'))} guards without a card with Guard, paying instead: {s.cards(d)}"


CRUSH_CAUSES = {"lancer": " (Lancer)", "damage": "", "effect": " by an effect"}


@says("LifeClothCrushed")
def _life_cloth_crushed(s: Say, d: Mapping[str, Any]) -> str:
    how = CRUSH_CAUSES.get(d.get("cause", ""), "")
    head = f"{s.whose(d.get('player'))} Life Cloth is crushed{how}"
    if "cards" not in d:
        return f"{head} ({count(s.how_many(d), 'card')})"
    bursts = d.get("bursts") or []
    burst = f"; {listed([s.card(c) for c in bursts])} has a Life Burst" if bursts else ""
    return f"{head}: {s.cards(d)} goes into the check zone{burst}"


@says("LifeBurstChosen")
def _life_burst_chosen(s: Say, d: Mapping[str, Any]) -> str:
    does = "uses" if d.get("use") else "does not use"
    return f"{s.player(d.get('player'))} {does} the Life Burst of {s.card(d.get('card'))}"


@says("AttackEnded")
def _attack_ended(s: Say, d: Mapping[str, Any]) -> str:
    whose = f" of {s.card(d['card'])}" if d.get("card") and d.get("result") != "guarded" else ""
    result = d.get("result")
    if result == "guarded" and not d.get("card"):
        return "The attack is guarded"
    if result == "guarded":
        return f"The attack is guarded with {s.card(d.get('card'))}"
    if result == "negated":
        return f"The attack{whose} is negated{s.by(d)}"
    if isinstance(result, str) and result != "nothing":
        return f"The attack{whose} ends: {s.text(result)}"
    if d.get("reason"):
        return f"The attack ends: {s.text(d['reason'])}"
    return f"The attack{whose} ends"


# -- rule processing and the end of the turn ------------------------------------------------------


@says("CardEnered")
def _card_enered(s: Say, d: Mapping[str, Any]) -> str:
    return f"{s.card(d.get('card'))} goes from the check zone into {s.whose(d.get('player'))} ener zone"


@says("Refreshed")
def _refreshed(s: Say, d: Mapping[str, Any]) -> str:
    return (
        f"{s.player(d.get('player'))} refreshes: the trash is shuffled into a new deck, "
        "and a Life Cloth goes into the trash"
    )


@says("SigniTrashed")
def _signi_trashed(s: Say, d: Mapping[str, Any]) -> str:
    return (
        f"{s.whose(d.get('player'))} SIGNI {s.card(d.get('card'))} goes from the {signi_zone(d.get('zone'))} "
        "into the trash (rule processing)"
    )


@says("CardsTrashed")
def _cards_trashed(s: Say, d: Mapping[str, Any]) -> str:
    src = words(d.get("from", "field"), ZONE_WORDS)
    dst = words(d.get("to", "trash"), ZONE_WORDS)
    return f"{s.whose(d.get('player'))} {s.cards(d)} {s.verb(d, 'goes', 'go')} from the {src} into the {dst}"


@says("LrigTrashed")
def _lrig_trashed(s: Say, d: Mapping[str, Any]) -> str:
    lrig = words(d.get("position", "center"), LRIG_POSITION_WORDS)
    return f"{s.whose(d.get('player'))} {lrig} goes into the LRIG trash: two LRIGs share an LRIG type"


@says("CardReturned")
def _card_returned(s: Say, d: Mapping[str, Any]) -> str:
    dst = words(d.get("to", "lrig_deck"), ZONE_WORDS)
    src = words(d.get("from", "field"), ZONE_WORDS)
    card = s.card(d.get("card"))
    return f"{s.whose(d.get('player'))} {card} goes from the {src} into the {dst} (rule processing)"


@says("CardsDiscarded")
def _cards_discarded(s: Say, d: Mapping[str, Any]) -> str:
    cost = " to pay a cost" if d.get("as_cost") else ""
    return f"{s.player(d.get('player'))} discards {s.cards(d)}{cost}{s.by(d)}"


@says("EffectsExpired")
def _effects_expired(s: Say, d: Mapping[str, Any]) -> str:
    return "Effects lasting until end of turn end"


@says("CheckZoneCleared")
def _check_zone_cleared(s: Say, d: Mapping[str, Any]) -> str:
    return f"{s.cards(d)} {s.verb(d, 'goes', 'go')} from {s.whose(d.get('player'))} check zone into the trash"


@says("TurnEnded")
def _turn_ended(s: Say, d: Mapping[str, Any]) -> str:
    return f"Turn {d.get('turn')} ({s.whose(d.get('player'))}) ends"


@says("GameEnded")
def _game_ended(s: Say, d: Mapping[str, Any]) -> str:
    if not d.get("winner"):
        return f"The game ends{reason(s.text(d.get('reason', '')))}"
    return f"{s.player(d['winner'])} wins{reason(s.text(d.get('reason', '')))}"


@says("Conceded")
def _conceded(s: Say, d: Mapping[str, Any]) -> str:
    return f"{s.player(d.get('player'))} concedes"


# -- abilities ------------------------------------------------------------------------------------


def _ability(s: Say, d: Mapping[str, Any]) -> str:
    kind = d.get("kind")
    what = words(kind, ABILITY_KIND_WORDS) if kind else "ability"
    return f"the {what} of {s.card(d.get('card'))}"


@says("AbilityTriggered")
def _ability_triggered(s: Say, d: Mapping[str, Any]) -> str:
    return f"{_ability(s, d)} triggers"


@says("TriggersOrdered")
def _triggers_ordered(s: Say, d: Mapping[str, Any]) -> str:
    n = len(d.get("order") or [])
    what = count(n, "triggered ability", "triggered abilities")
    return f"{s.player(d.get('player'))} chooses the order of {what}"


@says("AbilityActivated")
def _ability_activated(s: Say, d: Mapping[str, Any]) -> str:
    return f"{_ability(s, d)} begins to resolve"


def _paying(d: Mapping[str, Any]) -> str:
    n = len(d.get("ener") or [])
    return f", paying {count(n, 'ener card')}" if n else ""


@says("AbilityUsed")
def _ability_used(s: Say, d: Mapping[str, Any]) -> str:
    down = ", downing it" if d.get("down") else ""
    return f"{s.player(d.get('player'))} uses an Action ability of {s.card(d.get('card'))}{_paying(d)}{down}"


@says("SpellUsed")
def _spell_used(s: Say, d: Mapping[str, Any]) -> str:
    return f"{s.player(d.get('player'))} uses the spell {s.card(d.get('card'))}{_paying(d)}"


@says("PieceUsed")
def _piece_used(s: Say, d: Mapping[str, Any]) -> str:
    return f"{s.player(d.get('player'))} uses the PIECE {s.card(d.get('card'))}{_paying(d)}"


@says("ArtsUsed")
def _arts_used(s: Say, d: Mapping[str, Any]) -> str:
    return f"{s.player(d.get('player'))} uses the ARTS {s.card(d.get('card'))}{_paying(d)}"


@says("AbilityResolved")
def _ability_resolved(s: Say, d: Mapping[str, Any]) -> str:
    name = s.card(d.get("card"))
    note = f" ({s.text(d['note'])})" if d.get("note") else ""
    put = f"; {name} goes into the {words(d['put'], ZONE_WORDS)}" if d.get("put") else ""
    return f"The ability of {name} finishes resolving{note}{put}"


@says("Answered")
def _answered(s: Say, d: Mapping[str, Any]) -> str:
    who = s.player(d.get("player"))
    answer = d.get("answer")
    if not isinstance(answer, Mapping):
        return f"{who} answers a choice"
    parts = []
    if answer.get("cards"):
        parts.append(s.cards(answer))
    if answer.get("zone"):
        parts.append(f"the {signi_zone(answer['zone'])}")
    if answer.get("option") is not None:
        parts.append(f"“{s.text(answer['option'])}”")
    if answer.get("order"):
        parts.append(f"an order of {count(len(answer['order']), 'card')}")
    return f"{who} chooses {listed(parts)}" if parts else f"{who} chooses nothing"


@says("CostPaid")
def _cost_paid(s: Say, d: Mapping[str, Any]) -> str:
    what = f" for {s.card(d['for'])}" if d.get("for") else ""
    return f"{s.player(d.get('player'))} pays a cost{what}{_paying(d)}"


@says("CardsMilled")
def _cards_milled(s: Say, d: Mapping[str, Any]) -> str:
    n = s.how_many(d)
    return f"{top(n, s.whose(d.get('player')) + ' deck')} into the trash{s.by(d)}: {s.cards(d)}"


@says("CardsSet")
def _cards_set(s: Say, d: Mapping[str, Any]) -> str:
    if d.get("frozen"):
        how = "frozen"
    elif "downed" in d:
        how = "downed" if d["downed"] else "upped"
    else:
        how = "thawed"
    verb = "is" if s.how_many(d) == 1 else "are"
    return f"{s.cards(d)} {verb} {how}{s.by(d)}"


@says("CardsMoved")
def _cards_moved(s: Say, d: Mapping[str, Any]) -> str:
    who = s.player(d.get("player"))
    dst = words(d.get("to", ""), ZONE_WORDS)
    src = f" from the {words(d['from'], ZONE_WORDS)}" if d.get("from") else ""
    if d.get("to") == "hand":
        shown = f", revealing {s.verb(d, 'it', 'them')}" if d.get("reveal") else ""
        return f"{who} adds {s.cards(d)} to the hand{src}{s.by(d)}{shown}"
    return f"{s.whose(d.get('player'))} {s.cards(d)} {s.verb(d, 'goes', 'go')}{src} into the {dst}{s.by(d)}"


@says("SigniPutOntoField")
def _signi_put(s: Say, d: Mapping[str, Any]) -> str:
    quiet = " (its Enter abilities do not activate)" if d.get("no_enter") else ""
    return (
        f"{s.card(d.get('card'))} is put onto {s.whose(d.get('player'))} {signi_zone(d.get('zone'))}"
        f"{s.by(d)}{quiet}"
    )


def _until(d: Mapping[str, Any]) -> str:
    return " until end of turn" if d.get("until", "end_of_turn") == "end_of_turn" else ""


def _power(value: Any) -> str:
    """A power as printed: the catalogue's infinite power (INFINITE_POWER) reads as the card prints it."""
    return "∞" if isinstance(value, int) and value >= INFINITE_POWER else str(value)


@says("PowerChanged")
def _power_changed(s: Say, d: Mapping[str, Any]) -> str:
    return f"{s.card(d.get('card'))} gets {int(d.get('amount', 0)):+d} power{_until(d)}{s.by(d)}"


@says("KeywordsGranted")
def _keywords_granted(s: Say, d: Mapping[str, Any]) -> str:
    kws = [words(k, KEYWORD_WORDS) for k in d.get("keywords") or []]
    return f"{s.card(d.get('card'))} gains {listed(kws) or 'nothing'}{_until(d)}{s.by(d)}"


@says("EnerZoneGranted")
def _ener_zone_granted(s: Say, d: Mapping[str, Any]) -> str:
    kws = [words(k, KEYWORD_WORDS) for k in d.get("keywords") or []]
    gained = listed(kws) or "nothing"
    return f"the cards in {s.whose(d.get('player'))} ener zone gain {gained}{_until(d)}{s.by(d)}"


@says("CardRevealed")
def _card_revealed(s: Say, d: Mapping[str, Any]) -> str:
    zone = "Life Cloth" if d.get("zone") == "life_cloth" else "deck"
    return f"{s.player(d.get('player'))} reveals {s.card(d.get('card'))} from the top of the {zone}"


@says("CardsToDeckBottom")
def _cards_to_bottom(s: Say, d: Mapping[str, Any]) -> str:
    return f"{s.player(d.get('player'))} puts {s.cards(d)} on the bottom of the deck"


@says("NumberDeclared")
def _number_declared(s: Say, d: Mapping[str, Any]) -> str:
    return f"{s.player(d.get('player'))} declares the number {d.get('number')}{s.by(d)}"


@says("ColorDeclared")
def _color_declared(s: Say, d: Mapping[str, Any]) -> str:
    return f"{s.player(d.get('player'))} declares the colour {d.get('color')}{s.by(d)}"


def _window(w: Mapping[str, Any]) -> str:
    """A lasting effect's window of turns (and phases) as words."""
    turns = list(w.get("turns") or [])
    first, last = [*turns, None, None][:2]
    when = f"turn {first}" if first == last else f"turns {first} to {last}"
    if w.get("ends_after"):
        return f"from now to the end of the {words(str(w['ends_after']))} phase of turn {last}"
    if w.get("phases"):
        phases = [words(str(p)) for p in w["phases"]]
        return f"during the {listed(phases)} phase{'s' if len(phases) > 1 else ''} of {when}"
    return f"during {when}"


def _keyword(k: str) -> str:
    """A keyword as words; one with a qualifier (``shadow:lrig``) names it in brackets."""
    base, _, qualifier = k.partition(":")
    return f"{words(base, KEYWORD_WORDS)} ({words(qualifier)})" if qualifier else words(k, KEYWORD_WORDS)


@says("LastingEffectSet")
def _lasting_set(s: Say, d: Mapping[str, Any]) -> str:
    what, who = d.get("what"), s.player(d.get("player"))
    if what == "limit":
        effect = f"{s.whose(d.get('player'))} limit is {int(d.get('amount', 0)):+d}"
    elif what == "draws":
        effect = f"{who} draws at most {d.get('max')} card(s) at a time"
    elif what == "zone_keywords":
        kws = listed([_keyword(str(k)) for k in d.get("keywords") or []]) or "nothing"
        zones = listed([signi_zone(z) for z in d.get("zones") or []])
        effect = f"SIGNI in {s.whose(d.get('player'))} {zones} have {kws}"
    else:
        effect = f"an effect on {who} ({words(str(what))}) applies"
    return f"{effect} {_window(d.get('window') or {})}{s.by(d)}"


@says("AbilityNegated")
def _ability_negated(s: Say, d: Mapping[str, Any]) -> str:
    return f"The ability of {s.card(d.get('card'))} is negated as it activates: it does nothing{s.by(d)}"


@says("HandRevealed")
def _hand_revealed(s: Say, d: Mapping[str, Any]) -> str:
    to = "both players" if d.get("to") == "all" else s.player(d.get("to"))
    return f"{s.player(d.get('player'))} shows the hand to {to}{s.by(d)}: {s.cards(d)}"


@says("SigniAwakened")
def _signi_awakened(s: Say, d: Mapping[str, Any]) -> str:
    return f"{s.whose(d.get('player'))} SIGNI {s.card(d.get('card'))} awakens"


@says("SpellsBanned")
def _spells_banned(s: Say, d: Mapping[str, Any]) -> str:
    return f"{s.player(d.get('player'))} cannot use spells for the rest of the turn{s.by(d)}"


@says("MinusDoubled")
def _minus_doubled(s: Say, d: Mapping[str, Any]) -> str:
    return (
        f"for the rest of the turn, the minus power {s.whose(d.get('player'))} SIGNI give the opponent's "
        f"SIGNI by their effects is doubled{s.by(d)}"
    )


@says("VanishRedirected")
def _vanish_redirected(s: Say, d: Mapping[str, Any]) -> str:
    return (
        f"for the rest of the turn, {s.whose(d.get('player'))} SIGNI vanished go to the trash instead of the "
        f"ener zone{s.by(d)}"
    )


@says("CoinsGained")
def _coins_gained(s: Say, d: Mapping[str, Any]) -> str:
    return f"{s.player(d.get('player'))} gains {count(int(d.get('count', 1)), 'coin')}{s.by(d)}"


@says("CoinsPaid")
def _coins_paid(s: Say, d: Mapping[str, Any]) -> str:
    what = f" for {s.card(d['for'])}" if d.get("for") else ""
    return f"{s.player(d.get('player'))} pays {count(int(d.get('count', 1)), 'coin')}{what}"


@says("SigniTargeted")
def _signi_targeted(s: Say, d: Mapping[str, Any]) -> str:
    verb = "becomes a target" if s.how_many(d) == 1 else "become targets"
    of = f" of the effect of {s.card(d['by_effect'])}" if d.get("by_effect") else ""
    return f"{s.whose(d.get('player'))} {s.cards(d)} {verb}{of}"


@says("ZoneKeywordsGranted")
def _zone_keywords(s: Say, d: Mapping[str, Any]) -> str:
    zones = " and ".join(signi_zone(z) for z in d.get("zones", []))
    kws = ", ".join(str(k).replace("_", " ") for k in d.get("keywords", []))
    return f"this turn, the SIGNI in {s.whose(d.get('player'))} {zones} gain {kws}{s.by(d)}"


@says("AttackForbidden")
def _attack_forbidden(s: Say, d: Mapping[str, Any]) -> str:
    return f"SIGNI in {s.whose(d.get('player'))} {signi_zone(d.get('zone'))} cannot attack this turn{s.by(d)}"


@says("DeckTopArranged")
def _deck_top_arranged(s: Say, d: Mapping[str, Any]) -> str:
    top, bottom = s.cards(d, "top"), s.cards(d, "bottom")
    return f"{s.player(d.get('player'))} puts {top} back on top of the deck and {bottom} on the bottom"


DELAY_WORDS = {
    "attack_end": "the end of the attack",
    "turn": "a later turn",
    "end_of_turn": "the end of the turn",
    "attacks": "an attack this turn by what it watches",
    "enters": "a SIGNI entering the field this turn, as it watches",
    "now": "the attack just declared",
}


@says("EffectDelayed")
def _effect_delayed(s: Say, d: Mapping[str, Any]) -> str:
    until = words(d.get("until", "turn"), DELAY_WORDS)
    return f"Part of the effect of {s.card(d.get('card'))} waits for {until}"


@says("EffectEnded")
def _effect_ended(s: Say, d: Mapping[str, Any]) -> str:
    whose = f" of {s.card(d['card'])}" if d.get("card") else ""
    return f"A waiting effect{whose} ends{reason(s.text(d.get('reason', '')))}"


@says("AbilityGranted")
def _ability_granted(s: Say, d: Mapping[str, Any]) -> str:
    return f"{s.card(d.get('card'))} gains an ability{_until(d)}{s.by(d)}"


@says("AbilityHeld")
def _ability_held(s: Say, d: Mapping[str, Any]) -> str:
    center = d.get("holder") == "center_lrig"
    who = f"{s.whose(d.get('player'))} center LRIG" if center else s.player(d.get("player"))
    return f"{who} gains an ability for the rest of the game by the effect of {s.card(d.get('card'))}"


@says("AbilitiesLost")
def _abilities_lost(s: Say, d: Mapping[str, Any]) -> str:
    lose = s.verb(d, "loses its", "lose their")
    return f"{s.cards(d)} {lose} abilities{_until(d)}{s.by(d)}"


@says("SigniBecame")
def _signi_became(s: Say, d: Mapping[str, Any]) -> str:
    return f"{s.card(d.get('card'))} becomes {s.card(d.get('as'))} until end of turn{s.by(d)}"


@says("SigniMoved")
def _signi_moved(s: Say, d: Mapping[str, Any]) -> str:
    if d.get("moves"):  # several SIGNI put back in the zones together
        each = ", ".join(
            f"{s.card(m.get('card'))} from the {signi_zone(m.get('from'))} to the {signi_zone(m.get('to'))}"
            for m in d["moves"]
        )
        return f"{s.whose(d.get('player'))} SIGNI are rearranged: {each}{s.by(d)}"
    if d.get("with"):  # two SIGNI changed places
        return (
            f"{s.whose(d.get('player'))} SIGNI {s.card(d.get('card'))} in the {signi_zone(d.get('from'))} "
            f"and {s.card(d.get('with'))} in the {signi_zone(d.get('to'))} change places{s.by(d)}"
        )
    return (
        f"{s.whose(d.get('player'))} SIGNI {s.card(d.get('card'))} moves from the {signi_zone(d.get('from'))}"
        f" to the {signi_zone(d.get('to'))}{s.by(d)}"
    )


@says("LifeBurstCancelled")
def _life_burst_cancelled(s: Say, d: Mapping[str, Any]) -> str:
    cost = f" of the effect of {s.card(d['by_effect'])}" if d.get("by_effect") else ""
    payer = s.player(d.get("by"))
    return f"The Life Burst of {s.card(d.get('card'))} does not activate: {payer} paid the cost{cost}"


@says("BaseChanged")
def _base_changed(s: Say, d: Mapping[str, Any]) -> str:
    level = f"base level {d.get('level')} and " if d.get("level") is not None else ""
    return f"{s.card(d.get('card'))} has {level}base power {d.get('power')} until end of turn{s.by(d)}"


@says("LrigReturned")
def _lrig_returned(s: Say, d: Mapping[str, Any]) -> str:
    lrig = words(d.get("position", "center"), LRIG_POSITION_WORDS)
    return f"{s.whose(d.get('player'))} {lrig} {s.card(d.get('card'))} returns to the LRIG deck{s.by(d)}"


@says("AbilityCounted")
def _ability_counted(s: Say, d: Mapping[str, Any]) -> str:
    again = " a second time" if d.get("second") else ""
    return f"A limited-use ability of {s.card(d.get('card'))} is counted as used{again}"


@says("LifeClothAdded")
def _life_cloth_added(s: Say, d: Mapping[str, Any]) -> str:
    n = int(d.get("count", 1))
    return f"{top(n, s.whose(d.get('player')) + ' deck')} into the Life Cloth"


@says("LifeClothToDeck")
def _life_cloth_to_deck(s: Say, d: Mapping[str, Any]) -> str:
    n = int(d.get("count", 1))
    return f"{top(n, s.whose(d.get('player')) + ' Life Cloth')} on top of the deck"


@says("CardsPutUnder")
def _cards_put_under(s: Say, d: Mapping[str, Any]) -> str:
    soul = " as a Soul" if d.get("soul") else ""
    go = s.verb(d, "goes", "go")
    return f"{s.cards(d)} {go} under {s.whose(d.get('player'))} {s.card(d.get('card'))}{soul}{s.by(d)}"


@says("AttackLimitChanged")
def _attack_limit_changed(s: Say, d: Mapping[str, Any]) -> str:
    n = int(d.get("amount", 0))
    more = f"{abs(n)} more" if n >= 0 else f"{abs(n)} fewer"
    times = "time" if abs(n) == 1 else "times"
    return f"{s.whose(d.get('player'))} LRIG {s.card(d.get('card'))} may attack {more} {times} this turn"


@says("UnchosenAttacksBarred")
def _unchosen_attacks_barred(s: Say, d: Mapping[str, Any]) -> str:
    return f"This turn only {s.whose(d.get('player'))} SIGNI that must attack may attack{s.by(d)}"


@says("AttacksCompelled")
def _attacks_compelled(s: Say, d: Mapping[str, Any]) -> str:
    return f"This turn {s.whose(d.get('player'))} SIGNI must attack if able{s.by(d)}"


@says("SpellCostEased")
def _spell_cost_eased(s: Say, d: Mapping[str, Any]) -> str:
    return (
        f"This turn, the next spell {s.player(d.get('player'))} uses may have one ener item of its use cost "
        f"paid as colorless{s.by(d)}"
    )


@says("EnerCostsLocked")
def _ener_costs_locked(s: Say, d: Mapping[str, Any]) -> str:
    return f"This turn {s.player(d.get('player'))} cannot pay ener costs of one or more{s.by(d)}"


@says("SigniCountCapped")
def _signi_count_capped(s: Say, d: Mapping[str, Any]) -> str:
    most = d.get("max")
    return f"This turn {s.player(d.get('player'))} may have at most {most} SIGNI on the field{s.by(d)}"


@says("SigniEntryBarred")
def _signi_entry_barred(s: Say, d: Mapping[str, Any]) -> str:
    return f"This turn {s.player(d.get('player'))} cannot put other SIGNI onto the field{s.by(d)}"


@says("SigniAttackBarred")
def _signi_attack_barred(s: Say, d: Mapping[str, Any]) -> str:
    bar = d.get("power_max")
    return f"This turn {s.whose(d.get('player'))} SIGNI with {bar} power or less cannot attack{s.by(d)}"


@says("SigniAttacksLimited")
def _signi_attacks_limited(s: Say, d: Mapping[str, Any]) -> str:
    n = int(d.get("max", 1))
    times = "time" if n == 1 else "times"
    return f"{s.whose(d.get('player'))} SIGNI may attack only {n} {times} in all this turn{s.by(d)}"


@says("PreventionSet")
def _prevention_set(s: Say, d: Mapping[str, Any]) -> str:
    times = int(d.get("times", 1))
    nxt = "the next time" if times == 1 else f"the next {times} times"
    if d.get("all"):
        nxt = "each time"
    who = s.player(d.get("player"))
    if d.get("what") == "attack":
        return f"This turn, {nxt} a SIGNI attacks, that attack is negated{s.by(d)}"
    return f"This turn, {nxt} {who} would take damage, {who} takes none{s.by(d)}"


@says("DamagePrevented")
def _damage_prevented(s: Say, d: Mapping[str, Any]) -> str:
    source = f" from {s.card(d['source'])}" if d.get("source") else ""
    by = f" by the effect of {s.card(d['card'])}" if d.get("card") else ""
    return f"Damage to {s.player(d.get('player'))}{source} is prevented{by}"


@says("DamageReplaced")
def _damage_replaced(s: Say, d: Mapping[str, Any]) -> str:
    source = f" from {s.card(d['source'])}" if d.get("source") else ""
    by = s.card(d.get("card"))
    return f"Damage to {s.player(d.get('player'))}{source} is replaced by the effect of {by}"


@says("ReplacementDeclined")
def _replacement_declined(s: Say, d: Mapping[str, Any]) -> str:
    return f"{s.player(d.get('player'))} does not use the replacement effect of {s.card(d.get('card'))}"


@says("ReplacementChosen")
def _replacement_chosen(s: Say, d: Mapping[str, Any]) -> str:
    used = "uses" if d.get("option") == "replace" else "does not use"
    return f"{s.player(d.get('player'))} {used} the replacement of {s.card(d.get('card'))} leaving the field"


@says("LeavingReplaced")
def _leaving_replaced(s: Say, d: Mapping[str, Any]) -> str:
    return f"{s.card(d.get('card'))} stays on the field: its own ability replaces its leaving"


@says("EffectDamageDealt")
def _effect_damage(s: Say, d: Mapping[str, Any]) -> str:
    return f"The effect of {s.card(d.get('source'))} deals damage to {s.player(d.get('player'))}"


# -- judge ----------------------------------------------------------------------------------------


@says("Rewound")
def _rewound(s: Say, d: Mapping[str, Any]) -> str:
    if d.get("takeback") is not None:  # the rewind an accepted takeback appends (takeback.rewind)
        return f"The match goes back to event {d.get('to')}{reason(d.get('reason'))}"
    return f"The judge rewinds the match to event {d.get('to')}{reason(d.get('reason'))}"


@says("TakebackPolicySet")
def _takeback_policy_set(s: Say, d: Mapping[str, Any]) -> str:
    policy = d.get("policy")
    name = policy.get("policy") if isinstance(policy, Mapping) else policy
    said = {"never": "no takebacks", "with-consent": "takebacks with the opponent's consent"}.get(
        str(name), "takebacks ruled by the judge only"
    )
    return f"The match allows {said}{reason(d.get('reason'))}"


@says("TakebackRequested")
def _takeback_requested(s: Say, d: Mapping[str, Any]) -> str:
    shown = d.get("revealed") or []
    count = sum(
        int(r["count"]) if isinstance(r.get("count"), int) else len(r.get("cards") or ())
        for r in shown
        if isinstance(r, Mapping)
    )
    warning = f"; the play to undo showed {s.player(d.get('player'))} {count} card(s)" if count else ""
    return (
        f"{s.player(d.get('player'))} asks to take back their play to event {d.get('to')}"
        f"{reason(d.get('reason'))}{warning}"
    )


@says("TakebackAccepted")
def _takeback_accepted(s: Say, d: Mapping[str, Any]) -> str:
    return f"{s.player(s.actor)} accepts {s.player(d.get('player'))}'s takeback{reason(d.get('reason'))}"


@says("TakebackDeclined")
def _takeback_declined(s: Say, d: Mapping[str, Any]) -> str:
    return f"{s.player(s.actor)} declines {s.player(d.get('player'))}'s takeback{reason(d.get('reason'))}"


@says("CardsArranged")
def _cards_arranged(s: Say, d: Mapping[str, Any]) -> str:
    n = len(d.get("swaps") or ()) or int(d.get("count") or 0)
    return f"The record's replay sets which card {n} unseen card(s) are{reason(d.get('reason'))}"


@says("Branched")
def _branched(s: Say, d: Mapping[str, Any]) -> str:
    return (
        f"This match branches from match {d.get('parent')} after event {d.get('at')}{reason(d.get('reason'))}"
    )


def _step(s: Say, st: Mapping[str, Any]) -> str:
    op = st.get("op")
    if st.get("hidden"):
        return f"a step hidden from you on {s.whose(st.get('player'))} cards"
    if op == "move":
        dst = signi_zone(st.get("zone")) if st.get("to") == "signi" else words(st.get("to", ""), ZONE_WORDS)
        top = " on top" if st.get("top") else ""
        src = words(st.get("from", ""), ZONE_WORDS)
        return f"moves {s.card(st.get('card'))} from the {src} to the {dst}{top}"
    if op == "power":
        return f"gives {s.card(st.get('card'))} {int(st.get('amount', 0)):+d} power"
    if op in ("down", "up", "freeze"):
        return f"{'freezes' if op == 'freeze' else op + 's'} {s.card(st.get('card'))}"
    if op == "draw":
        return f"has {s.player(st.get('player'))} draw {s.cards(st)}"
    if op == "shuffle":
        return f"shuffles {s.whose(st.get('player'))} deck"
    return f"takes a step ({words(str(op))})"


@says("Adjusted")
def _adjusted(s: Say, d: Mapping[str, Any]) -> str:
    steps = "; ".join(_step(s, st) for st in d.get("steps") or []) or "no steps"
    return f"The judge adjusts the match{reason(d.get('reason'))}; the judge {steps}"


__all__ = ["SENTENCES", "Cast", "Say", "says", "sentence"]


def _marker_name(marker: Any) -> str:
    return str(marker or "marker").split(":", 1)[0].capitalize()


@says("MarkersPlaced")
def _markers_placed(s: Say, d: Mapping[str, Any]) -> str:
    zones = " and ".join(signi_zone(z) for z in d.get("zones", ()))
    return f"A {_marker_name(d.get('marker'))} is put in {s.whose(d.get('player'))} {zones}{s.by(d)}"


@says("MarkersRemoved")
def _markers_removed(s: Say, d: Mapping[str, Any]) -> str:
    zones = " and ".join(signi_zone(z) for z in d.get("zones", ()))
    cost = " as a cost" if d.get("as_cost") else ""
    return (
        f"A {_marker_name(d.get('marker'))} is removed from {s.whose(d.get('player'))} {zones}{cost}{s.by(d)}"
    )


@says("ZoneErased")
def _zone_erased(s: Say, d: Mapping[str, Any]) -> str:
    return f"{s.whose(d.get('player'))} {signi_zone(d.get('zone'))} is erased until end of turn{s.by(d)}"


@says("CutInDeclared")
def _cut_in_declared(s: Say, d: Mapping[str, Any]) -> str:
    answered = s.card(d.get("spell") or d.get("piece"))
    return f"{s.player(d.get('player'))} cuts in to {answered} with {s.card(d.get('card'))}"


@says("EffectCountered")
def _effect_countered(s: Say, d: Mapping[str, Any]) -> str:
    return f"The effect of {s.card(d.get('card'))} is countered{s.by(d)}"


@says("CutInResolved")
def _cut_in_resolved(s: Say, d: Mapping[str, Any]) -> str:
    answered = s.card(d.get("spell") or d.get("piece"))
    if d.get("countered"):
        put = "is removed from the game" if d.get("put") == "excluded" else "goes to the trash"
        return f"{answered}, countered, {put} without its effect"
    return f"{answered} resolves after the cut-in"


@says("SigniTurnedFaceDown")
def _turned_face_down(s: Say, d: Mapping[str, Any]) -> str:
    what = s.card(d.get("card")) if d.get("card") else "a SIGNI"
    where = f"{s.whose(d.get('player'))} {signi_zone(d.get('zone'))}"
    return f"{what} is turned face down in {where}: it is no longer a SIGNI{s.by(d)}"


@says("CardTurnedFaceUp")
def _turned_face_up(s: Say, d: Mapping[str, Any]) -> str:
    where = f"{s.whose(d.get('player'))} {signi_zone(d.get('zone'))}"
    return f"{s.card(d.get('card'))} is turned face up in {where}: a SIGNI again, upped{s.by(d)}"
