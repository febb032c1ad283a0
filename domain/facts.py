"""What a card on the field is right now: its printed facts plus what effects changed.

Every rule that asks for a card's level, power, limit or keywords asks here, so that abilities (which change
these) have one place to plug in: the constant abilities register what they add (``use_constant_effects``,
done by ``domain.abilities.constants`` as it loads), so this module imports nothing of the abilities.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from functools import cache
from itertools import chain
from typing import Any

from domain import durations
from domain.cards import COLORS, INFINITE_POWER, Card, Catalogue, load_catalogue
from domain.per_match import PerMatch
from domain.state import GameState, Slot


@cache
def catalogue() -> Catalogue:
    """The catalogue the engine plays with: the starter cards and, for positions, every known card."""
    return load_catalogue(extended=True)


PowerBonus = Callable[[GameState, Slot, Sequence[Any] | None], int]
KeywordBonus = Callable[[GameState, Slot, Sequence[Any] | None], frozenset[str]]


def _no_power(_state: GameState, _slot: Slot, _applying: Sequence[Any] | None) -> int:
    return 0


def _no_keywords(_state: GameState, _slot: Slot, _granting: Sequence[Any] | None) -> frozenset[str]:
    return frozenset()


# what constant abilities add to a card's power and keywords: nothing until the abilities register theirs
_constant_effects: tuple[PowerBonus, KeywordBonus] = (_no_power, _no_keywords)


def use_constant_effects(power_bonus: PowerBonus, keyword_bonus: KeywordBonus) -> None:
    """Set what constant abilities add to a card's power and keywords (``domain.abilities.constants``)."""
    global _constant_effects
    _constant_effects = (power_bonus, keyword_bonus)


def _no_burst(_state: GameState, _iid: str) -> bool:
    return False


# whether a constant ability gives a card in the Life Cloth or the check zone a Life Burst
_given_burst: list[Callable[[GameState, str], bool]] = [_no_burst]


def use_given_life_burst(given: Callable[[GameState, str], bool]) -> None:
    """Set how a Life Burst that a constant ability gives a card is found (``domain.abilities.constants``)."""
    _given_burst[:] = [given]


def has_life_burst(state: GameState, iid: str) -> bool:
    """Whether the card (in the Life Cloth or the check zone) has a Life Burst: printed, or given by a
    constant ability (000 '[Constant]', 'Life Burst')."""
    return card_of(state, iid).life_burst or _given_burst[0](state, iid)


AddedColors = Callable[[GameState, str, Card], tuple[str, ...]]
# the colours effects add to a card (``constants.added_colors``, registered as it loads), and which catalogue
# cards have abilities that may add colours: a match with none of them reads printed colours only
_colour_effects: tuple[AddedColors, Callable[[str], bool]] = (lambda _s, _i, _c: (), lambda _c: False)


def use_colour_effects(added: AddedColors, adds_colours: Callable[[str], bool]) -> None:
    """Set what effects add to a card's colours, and which cards have abilities that may add colours
    (``domain.abilities.constants``)."""
    global _colour_effects
    _colour_effects = (added, adds_colours)
    _forget_matches()


ZoneCard = Callable[[GameState, str, Card], Card]
# what constants change of the cards in a deck or a trash ("the base level of the SIGNI in your deck and
# trash becomes one", "you may treat it as a level one SIGNI"; ``constants.zone_card``, registered as it
# loads), and which catalogue cards have abilities that may: a match with none of them reads printed levels
_zone_effects: tuple[ZoneCard, Callable[[str], bool]] = (lambda _s, _i, c: c, lambda _c: False)


def use_zone_effects(zone_card: ZoneCard, changes_zones: Callable[[str], bool]) -> None:
    """Set what constants change of the cards in a deck or a trash, and which cards have abilities that may
    (``domain.abilities.constants``)."""
    global _zone_effects
    _zone_effects = (zone_card, changes_zones)
    _forget_matches()


def _forget_matches() -> None:
    """What each match's cards may do is found anew (a setter above changed what is looked for)."""
    global _CARDS, _last
    _CARDS = PerMatch(512)
    _last = ({}, 0, {}, False, False)


_CARDS: PerMatch[tuple[dict[str, Card], bool, bool]] = PerMatch(512)
# the match asked about last (the common case): its card map, that map's length, its cards, whether a card
# of it may add colours, and whether one may change cards in a deck or a trash
_last: tuple[dict[str, str], int, dict[str, Card], bool, bool] = ({}, 0, {}, False, False)


def _match_cards(cards: dict[str, str]) -> tuple[dict[str, Card], bool, bool]:
    adds, zones = _colour_effects[1], _zone_effects[1]
    ids = set(cards.values())
    found = {i: catalogue().get(c) for i, c in cards.items()}
    return found, any(adds(c) for c in ids), any(zones(c) for c in ids)


def printed(state: GameState, iid: str) -> Card:
    """The printed facts of a card instance, whatever a constant changes of it in a deck or a trash: the card
    as it is put onto the field (its level there is its printed one)."""
    return catalogue().get(state.cards[iid])


def card_of(state: GameState, iid: str) -> Card:
    """The printed facts of a card instance, looked up once per match (``domain.per_match``); a SIGNI in the
    hand that an effect gave the Guard icon this turn has it there (``guard_icon``: it is lost as the card
    leaves the hand); a card effects give more colours has them (000 'Color': "additionally black", "gains
    a colour until end of turn"), wherever a rule reads its colours (filters, costs, ener, Shadow); a card
    in a deck or a trash is as the constants that apply change it there (its base level; what its owner's
    effects may treat it as: ``Card.also``)."""
    global _last
    cards = state.cards
    last = _last  # read once: another thread may set it to another match's between two reads
    if cards is last[0] and len(cards) == last[1]:
        card: Card = last[2][iid]
        colouring, zoning = last[3], last[4]
    else:
        found, colouring, zoning = _CARDS.get(cards, lambda: _match_cards(cards))
        _last = (cards, len(cards), found, colouring, zoning)
        card = found[iid]
    if colouring:
        card = _coloured(state, iid, card)
    if zoning:
        card = _zone_effects[0](state, iid, card)
    iconed = state.flags.get("guard_icon")
    if iconed and iid in iconed and not card.guard and card.is_signi:
        owner = state.owners.get(iid)
        if owner is not None and iid in state.players[owner].zones["hand"]:
            return replace(card, guard=True)
    return card


def _coloured(state: GameState, iid: str, card: Card) -> Card:
    """The card with the colours effects add to it now (colourless is no colour: a colourless card that gains
    one is of that colour only)."""
    added = _colour_effects[0](state, iid, card)
    if not added or set(added) <= set(card.colors):
        return card
    real = {c for c in card.colors if c in COLORS} | set(added)
    return replace(card, colors=tuple(c for c in COLORS if c in real))


def ener_card(state: GameState, iid: str) -> Card:
    """A card of an ener zone as it pays: printed, or with Multi Ener an effect gave it this turn."""
    card = card_of(state, iid)
    zone_wide = state.owners.get(iid) in state.flags.get("multi_ener_zone", ())  # "cards in your ener zone"
    if (zone_wide or iid in state.flags.get("multi_ener", ())) and not card.multi_ener:
        return replace(card, multi_ener=True)
    return card


def level(state: GameState, iid: str) -> int:
    """The printed level, or the base level an effect set this turn (``BaseChanged``)."""
    if state.flags.get("base_changed") and (owner := state.owners.get(iid)) is not None:
        for _z, slot in state.players[owner].signi_slots():
            if slot.iid == iid:
                return _base(slot, "level", card_of(state, iid).level or 0)
    return card_of(state, iid).level or 0


def _base(slot: Slot, what: str, printed: int) -> int:
    """A base level or power set by an effect until end of turn (the last one set), else the printed one."""
    for k in reversed(slot.keywords):
        if k.startswith(f"base_{what}:"):
            return int(k.split(":", 1)[1])
    return printed


def power(state: GameState, slot: Slot, applying: Sequence[Any] | None = None) -> int:
    """Printed power, then continuous effects, then changes until end of turn. ``applying``: the constant
    power steps that apply now (``constants.active(state, "power")``), when the caller asks for many SIGNI
    of one state and has worked them out once."""
    printed = card_of(state, slot.iid).power or 0
    base = _base(slot, "power", printed) if slot.keywords else printed
    if base >= INFINITE_POWER:  # ∞: no plus or minus changes it
        return INFINITE_POWER
    if applying is not None and not applying:  # no constant changes any power now
        return base + slot.power_mod
    return base + _constant_effects[0](state, slot, applying) + slot.power_mod


def keywords(state: GameState, slot: Slot, granting: Sequence[Any] | None = None) -> frozenset[str]:
    """Printed keywords, those gained until end of turn, and those constant abilities give now.
    ``granting``: the constant keyword steps that apply now (``constants.active(state, "keywords")``),
    when the caller asks for many cards of one state and has worked them out once."""
    out = frozenset(chain.from_iterable(_keyword_sources(state, slot, granting)))
    lost = {k.split(":", 1)[1] for k in out if k.startswith("lose:")}
    if lost:  # "it loses X and cannot gain X": gone, however it would have it
        out = frozenset(k for k in out if k not in lost)
    return out


def keyword_counts(state: GameState, slot: Slot) -> dict[str, int]:
    """How many times the SIGNI has each keyword: once for each source that gives it (printed, the constant
    abilities together, the zone's), and once more for each time an effect gave it, even a keyword it had
    already ("gains one [Lancer]": a second one is gained too)."""
    counts = Counter(chain.from_iterable(_keyword_sources(state, slot, None)))
    lost = {k.split(":", 1)[1] for k in counts if k.startswith("lose:")}
    return {k: n for k, n in counts.items() if k not in lost}


def _keyword_sources(state: GameState, slot: Slot, granting: Sequence[Any] | None) -> list[Iterable[str]]:
    """Where a SIGNI's keywords come from, one collection each: printed, those effects gave until end of
    turn (one entry for each gain), those constant abilities give now, and the turn's and the lasting zone
    keywords and attack limits."""
    out: list[Iterable[str]] = [card_of(state, slot.iid).keywords, slot.keywords]
    if granting is None or granting:
        out.append(_constant_effects[1](state, slot, granting))
    limits = state.flags.get("signi_attack_max")  # "your SIGNI may attack only once this turn"
    owner = state.owners.get(slot.iid)
    if limits and owner in limits and int(state.flags.get("signi_attacks", 0)) >= int(limits[owner]):
        out.append(("cannot_attack",))
    zoned = state.flags.get("zone_keywords")  # "this turn, SIGNI in your center SIGNI zone gain ..."
    if zoned:
        owner = state.owners[slot.iid]
        where = state.players[owner].find(slot.iid) or ""
        if where.startswith("signi:"):
            out.append(frozenset(zoned.get(owner, {}).get(where.split(":")[1], ())))
    if owner is not None and state.players[owner].lasting:  # the same, for a stated time
        out.append(_lasting_zone_keywords(state, owner, slot.iid))
    forbidden = state.flags.get("attack_forbidden")  # zones whose SIGNI cannot attack this turn
    if forbidden:
        owner = state.owners[slot.iid]
        where = state.players[owner].find(slot.iid) or ""
        if where.startswith("signi:") and where.split(":")[1] in forbidden.get(owner, ()):
            out.append(("cannot_attack",))
    return out


def lasting(state: GameState, player: str, what: str) -> list[dict[str, Any]]:
    """The effects on the player lasting a stated time (``domain.durations``) of that kind that apply now."""
    return [
        e for e in state.players[player].lasting if e["what"] == what and durations.within(state, e["window"])
    ]


def _lasting_zone_keywords(state: GameState, owner: str, iid: str) -> frozenset[str]:
    """The keywords the SIGNI in some of the owner's SIGNI zones have for a stated time, whichever SIGNI is
    there ("during the opponent's next main and attack phases, your SIGNI gain ...")."""
    where = state.players[owner].find(iid) or ""
    if not where.startswith("signi:"):
        return frozenset()
    zone = where.split(":")[1]
    return frozenset(
        k for e in lasting(state, owner, "zone_keywords") if zone in e["zones"] for k in e["keywords"]
    )


def draws_left(state: GameState, player: str) -> int | None:
    """How many more cards the player may draw now, when an effect caps the cards drawn in a window ("they
    can draw only one card in total during the draw phase"); None: no cap applies."""
    caps = [int(e["max"]) - int(e.get("drawn", 0)) for e in lasting(state, player, "draws")]
    return max(0, min(caps)) if caps else None


def ener_locked(state: GameState, player: str, total: int) -> bool:
    """Whether an ener cost of ``total`` cannot be paid by the player now: an effect said this turn that they
    cannot pay ener costs of one or more (a cost of 0 is still paid)."""
    return total > 0 and player in state.flags.get("ener_locked", ())


def signi_cannot_attack(state: GameState, slot: Slot) -> bool:
    """Whether a SIGNI cannot attack now: it has "cannot attack", or an effect bars the attacks of its
    player's SIGNI with its power or less this turn (``attack_power_max``)."""
    kws = keywords(state, slot)
    if "cannot_attack" in kws:
        return True
    owner = state.owners.get(slot.iid)
    if owner in state.flags.get("attack_only_must", ()) and "must_attack" not in kws:
        return True  # an effect said only the SIGNI chosen to attack may attack this turn
    bars: dict[str, int] = state.flags.get("attack_power_max") or {}
    return owner is not None and owner in bars and power(state, slot) <= int(bars[owner])


def must_attack(state: GameState, player: str) -> list[str]:
    """The SIGNI zones of the player whose SIGNI must attack if able and can now (upped, allowed): while there
    is one, the player attacks with one of them first (no other attack, no passing) (000 'Effect': "must
    attack if able")."""
    every = player in state.flags.get("must_attack_all", ())  # an effect said so of all of them this turn
    return [
        zone
        for zone, slot in state.players[player].signi_slots()
        if (every or "must_attack" in keywords(state, slot))
        and not slot.downed
        and not signi_cannot_attack(state, slot)
        and not _attack_has_cost[0](state, slot)
    ]


# whether a SIGNI's attack has a cost (``constants.attack_cost``, registered as it loads): one that has is not
# forced to attack ("if able" asks no payment)
_attack_has_cost: list[Callable[[GameState, Slot], bool]] = [lambda _s, _sl: False]


def center(state: GameState, player: str) -> Slot | None:
    return state.players[player].lrig["center"]


def center_level(state: GameState, player: str) -> int:
    c = center(state, player)
    return 0 if c is None else level(state, c.iid)


def limit(state: GameState, player: str) -> int:
    """The center LRIG's limit plus the assists' limit bonuses, and what effects lasting a stated time add."""
    ps = state.players[player]
    total = 0
    for pos, slot in ps.lrig.items():
        if slot is not None:
            total += card_of(state, slot.iid).limit or 0
        elif pos == "center":
            return 0
    if ps.lasting:  # "your center LRIG's limit +2 until ...": whichever LRIG is the center
        total += sum(int(e["amount"]) for e in lasting(state, player, "limit"))
    return total


def lrig_types(state: GameState, player: str) -> frozenset[str]:
    c = center(state, player)
    return frozenset() if c is None else lrig_types_of(state.cards[c.iid])


@cache
def lrig_types_of(card_id: str) -> frozenset[str]:
    """The LRIG types of a catalogue card, as a set."""
    return frozenset(catalogue().get(card_id).lrig_types)


def signi_levels(state: GameState, player: str) -> int:
    return sum(level(state, s.iid) for _, s in state.players[player].signi_slots())


def limiting_ok(state: GameState, player: str, card: Card) -> bool:
    """A SIGNI's limiting condition must name one of the center LRIG's LRIG types."""
    if not card.limiting:
        return True
    return bool(set(card.limiting) & lrig_types(state, player))
