"""What an ability counts or measures: the one source of numbers for conditions and bonuses.

A *measure* is an object with one key naming what is measured, its value the measure's parameters:

- ``{"count": {"side": "you" | "opponent" | "any", "zone": ..., "filter": {...}, "distinct": "name", "other":
  bool, "every": n}}``: cards in a zone (``zones``: several, counted together) that fit the filter (zone
  ``signi``: SIGNI on the field, ``lrig``: LRIGs on the field, ``public``: the public zones; side ``any``:
  both players'; with ``distinct: name``, cards of different names ("three different red SIGNI"); ``other``:
  not this card; ``every``: whole groups of n; ``most``: no more than n counted);
- ``{"power": {}}``: this card's power (nothing when it is not on the field); ``{"power": {"of":
  "your_signi"}}``: the total power of the SIGNI on your field (with ``filter``: of those that fit it);
- ``{"level": {"whose": "you" | "opponent", "of": "center" | "lowest" | "total" | "signi" | "affected" |
  "self"}}``: the level of that player's center LRIG, the lowest level among their LRIGs, their LRIGs' levels
  added up ("for each level of each LRIG on your field"), the levels of the SIGNI on their field added up,
  the level of the SIGNI a constant's power goes to ("for each of its levels"; noted as ``affected``), or
  this card's own level, wherever it is ("for each of this SIGNI's levels", after it was vanished);
- ``{"lrigs": {"team": name}}``: your LRIGs of a team (no team named: this card's team; a card of no team has
  none);
- ``{"colors": {"of": "lrigs" | "signi" | "paid" | "ener" | "trashed"}}``: the colours (colourless is none)
  among your LRIGs, your SIGNI, the ener cards the effect's optional cost was paid with, the cards in your
  ener zone, or the cards its last trash step put into the trash from the ener zone or the hand (a cost too);
- ``{"shared_color": {}}``: the most of your LRIGs that share one colour ("two LRIGs that share a colour");
- ``{"classes": {"zone": "ener" | "trash"}}``: the classes among the SIGNI in your ener zone (or trash);
- ``{"hand_lead": {}}``: how many more cards you hold than the opponent (``{"zone": "life_cloth"}``: how many
  more Life Cloth you have);
- ``{"level_total": {"side", "mod"}}``: the total level of that side's SIGNI (``mod`` 2: 0 when it is even);
- ``{"under": {"filter": {...}, "total": "power"}}``: the cards under this card that fit (nothing when it is
  not on the field); with ``total: power``, their printed powers added up;
- ``{"coins_gained": {"whose": "you" | "opponent"}}``: the coins that player gained this game (paid or not);
- ``{"noted": {"what": ...}}``: what the effect in progress noted: ``discarded`` (cards it discarded),
  ``moved`` (cards its last move took), ``done`` (cards the step just before moved), ``trashed`` (cards its
  last trash step put into the trash from a zone other than the field: "for each card put into the trash
  this way"), ``extra_paid`` and ``attack_damaged`` (1 or 0);
- ``{"this_turn": {"what", "whose", "from", "not_from", "to", "by", "filter", "self"}}``: what happened this
  turn, read from the turn's events (``domain.tally``): cards moved, drawn, discarded, SIGNI that entered the
  field, spells (PIECEs, ARTS) used, grows, damage taken; by any effect, your effect, the opponent's, a cost;
- ``{"any_of": {"of": [comparison, ...]}}``: 1 when one of the comparisons (each ``{<measure>, "op",
  "value"}``) holds, else 0 ("if X, or if Y"; registered with ``compare`` in ``conditions``).

``compare`` (a condition, see ``conditions``) checks a measure against a number; a *bonus* ("for each X, +N",
``{"amount": N, "per": measure}``) multiplies N by it (``bonus``). ``PER_NAMES`` are the older names of a
``per`` that stand for a measure.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from domain import facts, tally
from domain.abilities.filters import (
    FILTER_KEYS,
    Filter,
    card_fits,
    class_kinds,
    distinct_classes,
    filter_text,
    side_of,
    slot_fits,
    slot_of,
)
from domain.cards import Card
from domain.state import SIGNI_ZONES, GameState, facing, opponent

Measure = Mapping[str, Any]
Vars = Mapping[str, Any]


@dataclass(frozen=True)
class Ctx:
    """Who asks: the state, the ability's controller and card, and what the effect in progress noted."""

    s: GameState
    controller: str
    source: str
    vars: Vars


@dataclass(frozen=True)
class MeasureKind:
    name: str
    params: Mapping[str, Any]  # parameter name -> allowed values (a tuple) or a type
    value: Callable[
        [Ctx, dict[str, Any]], int | None
    ]  # None: there is nothing to measure (it never compares)
    text: Callable[[dict[str, Any]], str]
    doc: str


MEASURES: dict[str, MeasureKind] = {}


def measure(
    name: str, params: Mapping[str, Any], text: Callable[[dict[str, Any]], str]
) -> Callable[[Callable[[Ctx, dict[str, Any]], int | None]], Callable[[Ctx, dict[str, Any]], int | None]]:
    """Register the decorated function as the measure ``name`` (its docstring describes it)."""

    def register(
        fn: Callable[[Ctx, dict[str, Any]], int | None],
    ) -> Callable[[Ctx, dict[str, Any]], int | None]:
        if name in MEASURES:
            raise ValueError(f"the measure {name!r} is registered twice")
        MEASURES[name] = MeasureKind(name, dict(params), fn, text, (fn.__doc__ or "").strip())
        return fn

    return register


def _whose(p: dict[str, Any], default: str = "you") -> str:
    return {"you": "your", "any": "either player's"}.get(p.get("side", default), "the opponent's")


def _counted(p: dict[str, Any]) -> str:
    if p.get("zones"):
        parts = [_counted({**p, "zone": z, "zones": None}) for z in p["zones"]]
        return " and ".join(parts[:1] + [x.split(" in ", 1)[-1] for x in parts[1:]])
    zone = str(p.get("zone", "signi"))
    if zone == "face_down":  # a face-down card is no SIGNI: nothing of it fits a filter
        return f"face-down cards in {_whose(p)} SIGNI zones"
    what = {"signi": "SIGNI", "lrig": "LRIGs"}.get(zone, "cards")
    where = "field" if zone in ("signi", "lrig") else zone.replace("_", " ")
    if zone == PUBLIC:
        what, where = "cards", "public zones"
    names = " with different names" if p.get("distinct") else ""
    names += " next to it" if p.get("next_to") else ""
    other = "other " if p.get("other") else ""
    every = f"groups of {p['every']} " if p.get("every", 1) != 1 else ""
    text = f"{every}{other}{what} {filter_text(p.get('filter', {}))}{names} in {_whose(p)} {where}"
    most = f" (up to {p['most']} of them)" if "most" in p else ""
    return text.replace("  ", " ") + most


def _count_text(p: dict[str, Any]) -> str:
    names = "different names of " if p.get("distinct") == "name" else ""
    return f"the number of {names}{_counted(p)}"


@measure(
    "count",
    {
        "side": ("you", "opponent", "any"),
        "zone": str,
        "filter": dict,
        "distinct": ("name",),
        "other": bool,
        "every": int,
        "most": int,
        "zones": list,
        "next_to": bool,
    },
    _count_text,
)
def _count(c: Ctx, p: dict[str, Any]) -> int:
    """Cards in a zone of that side (``any``: both sides) that fit the filter (SIGNI and LRIGs: on the field;
    ``public``: every public zone, see ``_public``); with ``distinct: name``, the different names among them
    ("different <Angel> SIGNI"); ``other``: this card not counted; ``every: n``: how many whole groups of n
    ("for every two cards"); ``most: n``: no more than n counted ("it counts up to fifteen cards");
    ``zones``: several zones counted together, in place of ``zone`` ("on your field and in your ener
    zone"); ``next_to``: only the SIGNI in the SIGNI zones next to this card's, on its side ("to its left
    or right")."""
    s = c.s
    side = p.get("side", "you")
    players = [c.controller, opponent(c.controller)] if side == "any" else [side_of(c.controller, side)]
    found: list[str] = []
    near = _next_zones(s, c.source) if p.get("next_to") else None
    for zone in p.get("zones") or [p.get("zone", "signi")]:  # several zones: counted together
        found += _in_zone(c, players, str(zone), p.get("filter", {}), near)
    found = [iid for iid in found if not (p.get("other") and iid == c.source)]
    n = len({facts.card_of(s, i).name for i in found}) if p.get("distinct") == "name" else len(found)
    n //= int(p.get("every", 1))
    return min(n, int(p["most"])) if "most" in p else n


def _in_zone(
    c: Ctx, players: list[str], zone: str, f: Filter, near: set[tuple[str, str]] | None = None
) -> list[str]:
    """The cards of one zone of these players that fit the filter (SIGNI and LRIGs: on the field; ``near``:
    only the SIGNI in those zones)."""
    s = c.s
    found: list[str] = []
    for player in players:
        ps = s.players[player]
        if zone == "signi":
            found += [
                sl.iid
                for z, sl in ps.signi_slots()
                if slot_fits(s, sl, z, f) and (near is None or (player, z) in near)
            ]
        elif zone == "lrig":  # a position names the LRIG zone: "your center LRIG is white"
            found += [sl.iid for pos, sl in ps.lrig.items() if sl is not None and slot_fits(s, sl, pos, f)]
        elif zone == PUBLIC:
            found += _public(s, player, f)
        elif zone == "face_down":  # face-down cards in the SIGNI zones (rule face-down.signi): no filter fits
            found += [] if f else [e["iid"] for _z, e in ps.face_down_cards()]
        else:
            found += [iid for iid in ps.zones[zone] if card_fits(_as_counted(s, iid, player, c), f)]
    return found


def _next_zones(s: GameState, iid: str) -> set[tuple[str, str]]:
    """The SIGNI zones next to the one this card is in (its owner's, as (player, zone)); none off the
    field."""
    owner = s.owners.get(iid)
    where = s.players[owner].find(iid) if owner is not None else None
    if owner is None or not where or not where.startswith("signi:"):
        return set()
    i = SIGNI_ZONES.index(where.split(":")[1])
    return {(owner, SIGNI_ZONES[j]) for j in (i - 1, i + 1) if 0 <= j < len(SIGNI_ZONES)}


PUBLIC = "public"  # the public zones of a side, as a zone ``count`` may name
PUBLIC_PILES = ("ener", "check", "trash", "lrig_trash", "excluded")


def _public(s: GameState, player: str, f: Filter) -> list[str]:
    """The cards of a player's public zones that fit the filter (000 'Public zone': the LRIG zone, the SIGNI
    zones, the ener zone, the check zone, the trash, the LRIG trash and the cards excluded from the game),
    the cards lying under an LRIG or a SIGNI there too: the face-up cards there (a card turned face down in a
    SIGNI zone is left out, not the cards under it)."""
    ps = s.players[player]
    out: list[str] = []
    for zone, sl in [*ps.lrig.items(), *ps.signi.items()]:
        if sl is None:
            continue
        if slot_fits(s, sl, zone, f):
            out.append(sl.iid)
        out += [u for u in sl.under if card_fits(facts.card_of(s, u), f)]
    for _zone, entry in ps.face_down_cards():  # a face-down card is not counted; the cards under it are
        out += [u for u in entry["under"] if card_fits(facts.card_of(s, u), f)]
    for pile in PUBLIC_PILES:
        out += [iid for iid in ps.zones[pile] if card_fits(facts.card_of(s, iid), f)]
    return out


def _as_counted(s: GameState, iid: str, owner: str, c: Ctx) -> Card:
    """A card of a pile zone as an ability of ``c.controller`` counts it: what its owner's effects may treat
    it as (``Card.also``, rule effect.zone-level) is not for the opponent's."""
    card = facts.card_of(s, iid)
    return card if card.also is None or owner == c.controller else replace(card, also=None)


@measure(
    "level_total",
    {"side": ("you", "opponent"), "mod": int},
    lambda p: "the total level of the SIGNI on the field" + (f" modulo {p['mod']}" if p.get("mod") else ""),
)
def _level_total(c: Ctx, p: dict[str, Any]) -> int:
    """The total level of that side's SIGNI on the field (``mod``: its remainder; 2: 0 when it is even)."""
    ps = c.s.players[side_of(c.controller, p.get("side", "you"))]
    total = sum(facts.level(c.s, sl.iid) for _z, sl in ps.signi_slots())
    return total % int(p["mod"]) if p.get("mod") else total


@measure(
    "power",
    {"of": ("self", "your_signi"), "filter": dict},
    lambda p: (
        f"the total power of your SIGNI {filter_text(p.get('filter', {}))}".rstrip()
        if p.get("of") == "your_signi"
        else "its power"
    ),
)
def _power(c: Ctx, p: dict[str, Any]) -> int | None:
    """This card's power, while it is on the field; ``of: your_signi``: the total power of your SIGNI (with
    ``filter``: of those that fit it, "the total power of your <Angel> SIGNI")."""
    if p.get("of") == "your_signi":
        f = p.get("filter", {})
        slots = c.s.players[c.controller].signi_slots()
        return sum(facts.power(c.s, sl) for z, sl in slots if not f or slot_fits(c.s, sl, z, f))
    slot = slot_of(c.s, c.source)
    if c.s.where(c.source) is None or slot is None:
        return None
    return facts.power(c.s, slot)


def _level_text(p: dict[str, Any]) -> str:
    if p.get("of") == "affected":
        return "its levels"
    if p.get("of") == "self":
        return "this card's levels"
    if p.get("of") == "it":
        return "the level of the card targeted before"
    whose = "the opponent's" if p.get("whose") == "opponent" else "your"
    if p.get("of") in ("total", "signi", "assists"):
        what = {"total": "LRIGs", "signi": "SIGNI", "assists": "Assist LRIGs"}[str(p.get("of"))]
        return f"the levels of {whose} {what} added up"
    return f"{whose} {'lowest LRIG' if p.get('of') == 'lowest' else 'center LRIG'} level"


@measure(
    "level",
    {
        "whose": ("you", "opponent"),
        "of": ("center", "lowest", "total", "signi", "affected", "assists", "self", "it"),
    },
    _level_text,
)
def _level(c: Ctx, p: dict[str, Any]) -> int:
    """The level of a player's center LRIG, the lowest level among their LRIGs, their levels added up, the
    levels of the SIGNI on their field added up, those of their Assist LRIGs (left and right) added up
    (none: 0), or the level of the SIGNI a constant's power goes to (``affected``, noted by the constant; none
    noted: 0), or this card's own (``self``: on the field as it is now, elsewhere as printed, or as a
    constant changes it there: "for each of this SIGNI's levels", read after it was vanished)."""
    if p.get("of") == "self":
        return facts.level(c.s, c.source)
    if p.get("of") == "it":  # "as many as its level": the card an earlier step targeted, wherever it is now
        return sum(facts.level(c.s, i) for i in c.vars.get("targeted", []))
    if p.get("of") == "affected":
        affected = c.vars.get("affected")
        return facts.level(c.s, affected) if isinstance(affected, str) else 0
    player = c.controller if p.get("whose", "you") == "you" else opponent(c.controller)
    if p.get("of", "center") == "center":
        return facts.center_level(c.s, player)
    if p.get("of") == "signi":
        return sum(facts.level(c.s, sl.iid) for _z, sl in c.s.players[player].signi_slots())
    if p.get("of") == "assists":  # the levels of the assist LRIGs on that player's field added up
        assists = [sl for pos, sl in c.s.players[player].lrig.items() if sl is not None and pos != "center"]
        return sum(facts.level(c.s, sl.iid) for sl in assists)
    levels = [facts.level(c.s, sl.iid) for sl in c.s.players[player].lrig.values() if sl is not None]
    return sum(levels) if p.get("of") == "total" else min(levels, default=0)


@measure("lrigs", {"team": str}, lambda p: f"your LRIGs of {p.get('team') or 'its team'}")
def _lrigs(c: Ctx, p: dict[str, Any]) -> int:
    """Your LRIGs of a team (by default this card's own)."""
    team = p.get("team") or facts.card_of(c.s, c.source).team
    if not team:
        return 0
    lrigs = c.s.players[c.controller].lrig.values()
    return sum(1 for sl in lrigs if sl is not None and facts.card_of(c.s, sl.iid).team == team)


@measure(
    "colors",
    {"of": ("lrigs", "signi", "paid", "ener", "trashed")},
    lambda p: f"the colours among the {'cards trashed' if p.get('of') == 'trashed' else p.get('of')}",
)
def _colors(c: Ctx, p: dict[str, Any]) -> int:
    """The colours (colourless is none) among your LRIGs, your SIGNI, the ener the cost was paid with, or the
    cards in your ener zone."""
    s, ps = c.s, c.s.players[c.controller]
    of = p.get("of", "lrigs")
    if of == "lrigs":
        cards = [sl.iid for sl in ps.lrig.values() if sl is not None]
    elif of == "signi":
        cards = [sl.iid for _z, sl in ps.signi_slots()]
    elif of == "ener":
        cards = list(ps.zones["ener"])
    elif of == "trashed":  # "the cards put into the trash this way" (from the ener zone or the hand)
        cards = list(c.vars.get("trashed") or [])
    else:
        cards = list(c.vars.get("paid", []))
    return len({col for i in cards for col in facts.card_of(s, i).colors} - {"colorless"})


@measure("shared_color", {}, lambda _p: "the most of your LRIGs that share a colour")
def _shared_color(c: Ctx, _p: dict[str, Any]) -> int:
    """The most of your LRIGs that share one colour (colourless is no colour)."""
    lrigs = [facts.card_of(c.s, sl.iid) for sl in c.s.players[c.controller].lrig.values() if sl is not None]
    colors = {col for card in lrigs for col in card.colors} - {"colorless"}
    return max((sum(1 for card in lrigs if col in card.colors) for col in colors), default=0)


@measure("shared_team", {}, lambda _p: "the most of your LRIGs that are of one team")
def _shared_team(c: Ctx, _p: dict[str, Any]) -> int:
    """The most of your LRIGs that are of one team ("your three LRIGs are of the same team": 3)."""
    lrigs = [facts.card_of(c.s, sl.iid) for sl in c.s.players[c.controller].lrig.values() if sl is not None]
    teams = [card.team for card in lrigs if card.team]
    return max((teams.count(t) for t in set(teams)), default=0)


@measure(
    "classes",
    {"zone": ("ener", "trash")},
    lambda p: f"the classes among the SIGNI in your {p.get('zone', 'ener')} zone",
)
def _classes(c: Ctx, p: dict[str, Any]) -> int:
    """The classes among the SIGNI in your ener zone (or trash)."""
    cards = [facts.card_of(c.s, iid) for iid in c.s.players[c.controller].zones[p.get("zone", "ener")]]
    return len({k for card in cards if card.is_signi for k in class_kinds(card)})


def _lead_text(p: dict[str, Any]) -> str:
    if p.get("zone", "hand") == "life_cloth":
        return "how many more Life Cloth you have than the opponent"
    return "how many more cards you hold than the opponent"


@measure("hand_lead", {"zone": ("hand", "life_cloth")}, _lead_text)
def _hand_lead(c: Ctx, p: dict[str, Any]) -> int:
    """How many more cards you hold than the opponent (fewer: below 0); ``zone: life_cloth``: how many more
    Life Cloth you have."""
    zone = p.get("zone", "hand")
    mine = len(c.s.players[c.controller].zones[zone])
    return mine - len(c.s.players[opponent(c.controller)].zones[zone])


@measure(
    "coins_gained",
    {"whose": ("you", "opponent")},
    lambda p: f"the coins {'the opponent' if p.get('whose') == 'opponent' else 'you'} gained this game",
)
def _coins_gained(c: Ctx, p: dict[str, Any]) -> int:
    """The coins a player gained this game, however many they paid since (rule ``effect.coins``)."""
    who = opponent(c.controller) if p.get("whose") == "opponent" else c.controller
    return c.s.players[who].coins_gained


def _under_text(p: dict[str, Any]) -> str:
    where = f"under your SIGNI {filter_text(p['of'])}".rstrip() if "of" in p else "under it"
    cards = f"the cards {filter_text(p.get('filter', {}))} {where}".replace("  ", " ")
    cards += " as it left the field" if p.get("as_left") else ""
    return f"the total power of {cards}" if p.get("total") == "power" else cards


@measure("under", {"filter": dict, "total": ("power",), "as_left": bool, "of": dict}, _under_text)
def _under(c: Ctx, p: dict[str, Any]) -> int | None:
    """The cards under this card (that fit the ``filter``), while it is on the field (under a SIGNI, a [Soul]
    is attached, not under it); ``total: power``: their printed powers added up ("the total power of the SIGNI
    under this SIGNI"); ``as_left``: the cards that lay under it as it last left the field this turn (the
    turn's tally noted them: "for each card that was under this SIGNI", read once it was vanished); ``of``:
    the cards under all the SIGNI on your field that fit that filter ("the cards under your <Liberation
    Faction> SIGNI in all")."""
    if "of" in p:
        return _under_yours(c, p)
    if p.get("as_left"):
        was = (tally.last_known(c.s, c.source) or {}).get("under", [])
        return sum(1 for i in was if card_fits(facts.card_of(c.s, i), p.get("filter", {})))
    slot = slot_of(c.s, c.source)
    if slot is None:
        return None
    cards = [facts.card_of(c.s, i) for i in slot.under]
    if facts.card_of(c.s, c.source).is_signi:  # a [Soul] is attached to a SIGNI, not under it
        cards = [card for card in cards if not card.is_lrig_deck_card]
    fit = [card for card in cards if card_fits(card, p.get("filter", {}))]
    return sum(int(card.power or 0) for card in fit) if p.get("total") == "power" else len(fit)


def _under_yours(c: Ctx, p: dict[str, Any]) -> int:
    """The cards under the SIGNI on your field that fit ``of`` (a [Soul] attached is not under), that fit the
    ``filter``."""
    ps = c.s.players[c.controller]
    under = [
        i for _z, sl in ps.signi_slots() if card_fits(facts.card_of(c.s, sl.iid), p["of"]) for i in sl.under
    ]
    cards = [facts.card_of(c.s, i) for i in under]
    return sum(1 for card in cards if not card.is_lrig_deck_card and card_fits(card, p.get("filter", {})))


NOTED = ("discarded", "moved", "done", "trashed", "extra_paid", "attack_damaged", "revealed_count")


def _noted_text(p: dict[str, Any]) -> str:
    if "filter" in p:
        return f"the cards the effect just moved that are {filter_text(p['filter']).strip().strip('()')}"
    if p.get("what") == "trashed":
        return "the cards put into the trash this way"
    return f"what the effect noted as {p.get('what')}"


@measure("noted", {"what": NOTED, "filter": dict}, _noted_text)
def _noted(c: Ctx, p: dict[str, Any]) -> int:
    """What the effect in progress noted: cards discarded, moved (its last move; with a ``filter``, those of
    them that fit it), moved by the step just before, put into the trash from the ener zone or the hand by its
    ``trash`` step (``trashed``: "for each card put into the trash this way"); whether the extra cost was
    paid, whether the attack it waited for dealt damage (1 or 0)."""
    what = p.get("what")
    value = c.vars.get(str(what), 0)
    if what == "trashed":  # the cards a trash step put into the trash from a zone other than the field
        return len(value or [])
    if what == "moved":
        f = p.get("filter")
        return sum(1 for i in value or [] if not f or card_fits(facts.card_of(c.s, i), f))
    return int(bool(value)) if what in ("extra_paid", "attack_damaged") else int(value)


# -- what happened this turn (``domain.tally``) ------------------------------------------------------

TALLIED = tally.WHATS
TALLY_ZONES = tally.ZONES
TALLY_BY = tally.BY
_TALLY_NOUNS = {
    "moved": "cards moved",
    "drawn": "cards drawn",
    "discarded": "cards discarded",
    "entered": "SIGNI that entered the field",
    "spell": "spells used",
    "piece": "PIECEs used",
    "arts": "ARTS used",
    "grew": "grows",
    "damaged": "times damage was taken",
    "attacked": "attacks",
    "coins": "coins paid",
}


def _tally_text(p: dict[str, Any]) -> str:
    what = str(p.get("what", "moved"))
    noun = _TALLY_NOUNS.get(what, what)
    if p.get("self"):
        noun = "times this card " + {"entered": "entered the field", "moved": "moved"}.get(what, what)
    if p.get("filter"):
        noun += f" {filter_text(p['filter'])}".rstrip()
    whose = {"you": "your", "opponent": "the opponent's", "any": "either player's"}[p.get("whose", "you")]
    parts = [f"the {noun} ({whose})"]
    if p.get("from"):
        parts.append(f"from the {str(p['from']).replace('_', ' ')}")
    if p.get("not_from"):
        parts.append(f"from a zone other than the {str(p['not_from']).replace('_', ' ')}")
    if p.get("to"):
        parts.append(f"to the {str(p['to']).replace('_', ' ')}")
    by = p.get("by", "any")
    if by != "any":
        parts.append(
            "by " + by.replace("_or_", " or ").replace("_", " ").replace("opponent", "the opponent's")
        )
    return " ".join(parts) + " this turn"


@measure(
    "this_turn",
    {
        "what": TALLIED,
        "whose": ("you", "opponent", "any"),
        "from": TALLY_ZONES,
        "not_from": TALLY_ZONES,
        "to": TALLY_ZONES,
        "by": TALLY_BY,
        "filter": dict,
        "self": bool,
    },
    _tally_text,
)
def _this_turn(c: Ctx, p: dict[str, Any]) -> int:
    """What happened this turn, read from the turn's events (``domain.tally``): the cards of that side
    (``whose``: the cards' owner; for a draw, a discard, a use, a grow or damage: who did it or took it)
    that were ``moved`` (from a zone, to a zone), ``drawn``, ``discarded``, that ``entered`` the field, the
    spells (PIECEs, ARTS) used, the grows, the damage taken; ``by``: by any effect, an effect of your card or
    of the opponent's, a cost, or either; ``filter``: the cards that fit it. ``self``: this card only, as it
    is now: a card that entered the field is counted by its last entry (it is a new card each time)."""
    whose = p.get("whose", "you")
    players = {c.controller, opponent(c.controller)} if whose == "any" else {side_of(c.controller, whose)}
    what = p.get("what", "moved")
    found = [e for e in tally.this_turn(c.s) if e.get("what") == what and e.get("player") in players]
    if p.get("self"):
        found = [e for e in found if e.get("card") == c.source][-1:]
    f: Filter = p.get("filter", {})
    return sum(
        1
        for e in found
        if (not p.get("from") or e.get("from") == p["from"])
        and (not p.get("not_from") or e.get("from") != p["not_from"])
        and (not p.get("to") or e.get("to") == p["to"])
        and tally.by_fits(c.s.owners, c.controller, e, str(p.get("by", "any")))
        and (not f or (e.get("card") is not None and card_fits(facts.card_of(c.s, str(e["card"])), f)))
    )


# -- whether something is so: 1 or 0 (None: there is nothing to ask of) ------------------------------


@measure("your_turn", {}, lambda _p: "whether it is your turn")
def _your_turn(c: Ctx, _p: dict[str, Any]) -> int:
    """Whether it is the controller's turn (1 or 0)."""
    return int(c.s.turn_player == c.controller)


@measure("your_main_phase", {}, lambda _p: "whether it is your main phase")
def _your_main_phase(c: Ctx, _p: dict[str, Any]) -> int:
    """Whether it is the controller's main phase (1 or 0): "outside of your main phase" is 0."""
    return int(c.s.turn_player == c.controller and c.s.phase == "main")


@measure("awakened", {}, lambda _p: "whether it is awakened")
def _awakened(c: Ctx, _p: dict[str, Any]) -> int:
    """Whether this SIGNI is awakened (one that left the field: as it was then)."""
    slot = slot_of(c.s, c.source)
    return int(slot.awakened if slot is not None else c.source in c.s.flags.get("left_awakened", ()))


@measure("upped", {}, lambda _p: "whether it is upped")
def _upped(c: Ctx, _p: dict[str, Any]) -> int | None:
    """Whether this card is upped on the field (1 or 0; not on the field: nothing)."""
    slot = slot_of(c.s, c.source)
    return None if slot is None else int(not slot.downed)


@measure("discarded_this_turn", {}, lambda _p: "whether you discarded a card this turn")
def _discarded_this_turn(c: Ctx, _p: dict[str, Any]) -> int:
    """Whether you discarded a card this turn, by any means (1 or 0)."""
    return int(c.controller in c.s.flags.get("discarded", ()))


@measure(
    "deck_to_ener_this_turn", {}, lambda _p: "whether a card moved from your deck to your ener zone this turn"
)
def _deck_to_ener_this_turn(c: Ctx, _p: dict[str, Any]) -> int:
    """Whether a card moved from your deck into your ener zone this turn, by any means (1 or 0)."""
    return int(c.controller in c.s.flags.get("deck_to_ener", ()))


@measure("attacker_front_empty", {}, lambda _p: "whether the zone in front of the attacking SIGNI is empty")
def _attacker_front_empty(c: Ctx, _p: dict[str, Any]) -> int | None:
    """Whether your zone in front of the opponent's attacking SIGNI is empty (no such attack: nothing)."""
    a = c.s.attack
    if a is None or a["player"] == c.controller or a["zone"] == "lrig":
        return None
    return int(c.s.players[c.controller].signi[facing(a["zone"])] is None)


@measure("moved_share_class", {}, lambda _p: "whether the cards just moved share a class")
def _moved_share_class(c: Ctx, _p: dict[str, Any]) -> int | None:
    """Whether the cards the effect just moved share a class (fewer than two: nothing)."""
    cards = [facts.card_of(c.s, i) for i in c.vars.get("moved", [])]
    return None if len(cards) < 2 else int(not distinct_classes(cards))


@measure(
    "subject",
    {"filter": dict},
    lambda p: f"the SIGNI the trigger was about {filter_text(p.get('filter', {}))}",
)
def _subject(c: Ctx, p: dict[str, Any]) -> int | None:
    """Whether the SIGNI the trigger's event was about ("the SIGNI that entered", noted by the trigger) fits
    the filter, as it is now (on the field: its zone and states too; elsewhere: its printed facts); 1 or 0,
    nothing when the trigger noted none."""
    iid = c.vars.get("subject")
    if not isinstance(iid, str):
        return None
    slot = slot_of(c.s, iid)
    where = c.s.where(iid)
    if slot is not None and where is not None and where[1].startswith("signi:"):
        return int(slot_fits(c.s, slot, where[1].split(":")[1], p.get("filter", {})))
    return int(card_fits(facts.card_of(c.s, iid), p.get("filter", {})))


@measure("front", {"filter": dict}, lambda p: f"the SIGNI in front of it {filter_text(p.get('filter', {}))}")
def _front(c: Ctx, p: dict[str, Any]) -> int | None:
    """The opponent's SIGNI in front of this SIGNI that fit the filter (1 or 0; not on the field: nothing)."""
    where = c.s.where(c.source)
    if where is None or not where[1].startswith("signi:"):
        return None
    zone = facing(where[1].split(":")[1])
    front = c.s.players[opponent(where[0])].signi[zone]
    return int(front is not None and slot_fits(c.s, front, zone, p.get("filter", {})))


@measure(
    "unfit",
    {"side": ("you", "opponent"), "filter": dict},
    lambda p: f"the SIGNI on {_whose(p)} field not {filter_text(p.get('filter', {}))}",
)
def _unfit(c: Ctx, p: dict[str, Any]) -> int:
    """The SIGNI on that side's field that do not fit the filter."""
    ps = c.s.players[side_of(c.controller, p.get("side", "you"))]
    return sum(1 for z, sl in ps.signi_slots() if not slot_fits(c.s, sl, z, p.get("filter", {})))


@measure(
    "moved_unfit",
    {"filter": dict},
    lambda p: f"the cards just moved that are not {filter_text(p.get('filter', {}))}",
)
def _moved_unfit(c: Ctx, p: dict[str, Any]) -> int | None:
    """The cards the effect's last move took (a mill, a charge ...) that do not fit the filter (none moved:
    nothing); "if all the cards put into the trash this way are level one SIGNI" is 0 of them."""
    cards = list(c.vars.get("moved", []))
    if not cards:
        return None
    return sum(1 for i in cards if not card_fits(facts.card_of(c.s, i), p.get("filter", {})))


_NOTED_OF = {"moved": "moved this way", "discarded": "discarded this way", "revealed": "revealed this way"}


@measure(
    "noted_fit",
    {"of": ("moved", "discarded", "revealed"), "filter": dict, "unfit": bool},
    lambda p: (
        f"the cards {_NOTED_OF.get(str(p.get('of')), '')} that are {'not ' if p.get('unfit') else ''}"
        f"{filter_text(p.get('filter', {})).strip('()')}"
    ),
)
def _noted_fit(c: Ctx, p: dict[str, Any]) -> int | None:
    """How many of the cards an earlier step of the effect took fit the filter, as printed (``unfit``: how
    many do not): those its last move took (``moved``), its last discard, its last reveal (``revealed``: all
    the cards revealed, "three or more level one SIGNI among them"); none taken: nothing."""
    key = {"moved": "moved", "discarded": "discarded_cards", "revealed": "revealed_cards"}[str(p["of"])]
    cards = list(c.vars.get(key) or [])
    if not cards:
        return None
    fits = sum(1 for i in cards if card_fits(facts.card_of(c.s, i), p.get("filter", {})))
    return len(cards) - fits if p.get("unfit") else fits


@measure(
    "revealed", {"filter": dict}, lambda p: f"whether the revealed card is {filter_text(p.get('filter', {}))}"
)
def _revealed(c: Ctx, p: dict[str, Any]) -> int | None:
    """Whether the card the effect last revealed fits the filter (none revealed: nothing)."""
    if "revealed" not in c.vars:
        return None
    return int(card_fits(facts.card_of(c.s, c.vars["revealed"]), p.get("filter", {})))


@measure(
    "moved_fit",
    {"filter": dict},
    lambda p: f"the cards the effect just moved that are {filter_text(p.get('filter', {}))}",
)
def _moved_fit(c: Ctx, p: dict[str, Any]) -> int | None:
    """How many of the cards the effect last moved (off the field, or from the deck into the trash) fit the
    filter, as printed (none moved: nothing)."""
    moved = c.vars.get("moved")
    if not moved:
        return None
    return sum(1 for i in moved if card_fits(facts.card_of(c.s, i), p.get("filter", {})))


# -- reading and checking measures ----------------------------------------------------------------


def kind_of(m: Measure) -> str | None:
    """The measure's kind: its one key that names a measure."""
    found = [k for k in m if k in MEASURES]
    return found[0] if len(found) == 1 else None


def value(c: Ctx, m: Measure) -> int | None:
    kind = kind_of(m)
    if kind is None:
        raise ValueError(f"not a measure: {dict(m)!r}")
    return MEASURES[kind].value(c, dict(m[kind] or {}))


def text(m: Measure) -> str:
    kind = kind_of(m)
    return MEASURES[kind].text(dict(m[kind] or {})) if kind is not None else "?"


def problems(m: Any, keys: tuple[str, ...] = ()) -> list[str]:
    """What is wrong with a measure (``keys``: other keys the object holding it may have)."""
    if not isinstance(m, Mapping):
        return [f"a measure is an object naming one of {sorted(MEASURES)}, not {m!r}"]
    named = [k for k in m if k in MEASURES]
    if len(named) != 1:
        return [f"a measure names one of {sorted(MEASURES)}, not {sorted(named) or 'none'}"]
    out = [f"unknown field {k!r}" for k in m if k not in MEASURES and k not in keys]
    kind = MEASURES[named[0]]
    params = m[named[0]] or {}
    if not isinstance(params, Mapping):
        return [*out, f"{kind.name}: its parameters are an object, not {params!r}"]
    for key, v in params.items():
        allowed = kind.params.get(key)
        if allowed is None:
            out.append(f"{kind.name}: unknown parameter {key!r}")
        elif isinstance(allowed, tuple) and v not in allowed:
            out.append(f"{kind.name}: {key} must be one of {allowed}, not {v!r}")
        elif isinstance(allowed, type) and not isinstance(v, allowed):
            out.append(f"{kind.name}: {key} must be a {allowed.__name__}, not {v!r}")
        elif key == "filter" and set(v) - set(FILTER_KEYS):
            out.append(f"unknown filter key(s) {sorted(set(v) - set(FILTER_KEYS))}")
    return out


# -- "for each X, +N" -----------------------------------------------------------------------------

PER_NAMES: dict[str, dict[str, Any]] = {
    "your_signi_colors": {"colors": {"of": "signi"}},  # the colours among the SIGNI on your field
}


def per_measure(per: Any) -> Measure | None:
    """The measure a ``per`` names (an older name, or a measure object); None for no ``per``."""
    if per is None:
        return None
    return PER_NAMES[per] if isinstance(per, str) else per


def bonus(c: Ctx, amount: int, per: Any) -> int:
    """``amount``, once for each of what ``per`` measures ("for each colour among your SIGNI, -3000"); with
    no ``per``, the amount itself."""
    m = per_measure(per)
    if m is None:
        return amount
    return amount * max(0, value(c, m) or 0)  # "for each card more than ...": none when there are fewer


def per_problems(per: Any) -> list[str]:
    if isinstance(per, str):
        return (
            [] if per in PER_NAMES else [f"per must be one of {sorted(PER_NAMES)} or a measure, not {per!r}"]
        )
    return problems(per)


def per_text(per: Any) -> str:
    m = per_measure(per)
    if m is None:
        return ""
    if kind_of(m) == "count":
        return f" for each of the {_counted(dict(m['count'] or {}))}"
    return f" for each of {text(m)}"
