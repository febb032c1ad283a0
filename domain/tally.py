"""What happened this turn: the turn's events, kept as a tally in the state for abilities to count.

Cards ask about the turn so far: "if you have drawn two or more cards by effects this turn", "if your opponent
discarded two or more cards this turn", "if a card was moved from your ener zone into the trash by your
opponent's effect this turn", "if you used a spell this turn", "if this SIGNI entered the field from your
trash this turn". The events say all of it: as ``evolve.apply`` folds each event, what it did (``entries``,
read before it is folded) is added to ``state.flags[KEY]``, a list of entries that ends with the turn as the
flags do. An entry is a dict:

- ``what``: ``moved`` (a card went from one zone to another), ``drawn``, ``discarded``, ``entered`` (a SIGNI
  entered the field), ``spell`` (a spell was used), ``piece``, ``arts``, ``grew`` (an LRIG grew), ``damaged``
  (a player took damage), ``attacked`` (a SIGNI or the center LRIG attacked: ``from`` ``field`` or ``lrig``),
  ``frozen`` (a SIGNI on the field became frozen), ``coins`` (a coin a player paid, one entry each: "if you
  have paid three or more coins this turn", rule effect.coins);
- ``player``: whose card it is (its owner), or who did it (drew, discarded, used, grew, took damage);
- ``card``: the card instance (none for damage);
- ``from`` and ``to``: the zones (``field`` for a SIGNI zone, ``lrig`` for an LRIG zone, ``under`` for the
  cards under a SIGNI or LRIG, else the pile's name: ``hand``, ``deck``, ``ener``, ``trash``, ``life_cloth``,
  ``check``, ``lrig_deck``, ``lrig_trash``, ``excluded``);
- ``cause``: ``effect``, ``cost``, ``battle`` or ``rule`` (the game's own procedure and rule processing:
  the draw phase, the ener phase, playing a SIGNI, a Guard ...);
- ``by``: the card whose effect did it, when the event names one;
- ``was``: for a SIGNI that left the field, what it was as it left (``last_known``), with its colours
  (``colors``) when effects had added some (effect.colors-added).

Every entry of a move is a ``moved`` entry too: a draw is also a move from the deck to the hand, a discard one
from the hand to the trash, a SIGNI entering one from its zone to the field. ``domain.abilities.measures``
counts them (``this_turn``). The tally is what the turn's events say, kept for reading: ``GameState.digest``
leaves it out (as it leaves out the version), so the digest of a position is what it was before the tally.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from domain import facts
from domain.state import PILE_ZONES, GameState

KEY = "tally"

Entry = dict[str, Any]
Where = Callable[[str], str]


WHATS = (
    "moved",
    "drawn",
    "discarded",
    "entered",
    "spell",
    "piece",
    "arts",
    "grew",
    "damaged",
    "attacked",
    "frozen",
    "coins",
)
ZONES = ("field", "lrig", "under_signi", "under_lrig", *PILE_ZONES)
# by whom or how: any effect, an effect of your card, of the opponent's card, a cost, either, or anything
BY = ("effect", "your_effect", "opponent_effect", "cost", "cost_or_effect", "cost_or_your_effect", "any")


def zone_name(place: str | None) -> str:
    """The zone of a place as ``PlayerState.find`` names it: ``signi:center`` is ``field``, ``lrig:center``
    is ``lrig``, ``under:signi:left`` is ``under_signi`` (``under:lrig:...``: ``under_lrig``); ``signi`` (as
    a move's ``from`` names it) is ``field``."""
    if not place:
        return ""
    parts = place.split(":")
    if parts[0] == "under" and len(parts) > 1:
        return f"under_{parts[1]}"
    return {"signi": "field"}.get(parts[0], parts[0])


def by_fits(owners: dict[str, str], controller: str, entry: dict[str, Any], by: str) -> bool:
    """Whether what an entry tells was done the way ``by`` names (``BY``), for the player ``controller``."""
    cause = entry.get("cause")
    source = owners.get(str(entry.get("by")))
    mine = cause == "effect" and source == controller
    theirs = cause == "effect" and source is not None and source != controller
    return {
        "any": True,
        "effect": cause == "effect",
        "your_effect": mine,
        "opponent_effect": theirs,
        "cost": cause == "cost",
        "cost_or_effect": cause in ("cost", "effect"),
        "cost_or_your_effect": cause == "cost" or mine,
    }[by]


def _cause(d: dict[str, Any]) -> str:
    if d.get("as_cost") or d.get("exceed"):  # an Exceed is a cost
        return "cost"
    return "effect" if d.get("by_effect") else "rule"


def _moves(
    what: str, player: str, cards: list[str], src: str, to: str, cause: str, by: Any
) -> Iterator[Entry]:
    for card in cards:
        entry: Entry = {"what": what, "player": player, "card": card, "from": src, "to": to, "cause": cause}
        if isinstance(by, str):
            entry["by"] = by
        yield entry
        if what != "moved":
            yield {**entry, "what": "moved"}


def _each_from(
    s: GameState, cards: list[str], to: str, cause: str, by: Any, what: str = "moved"
) -> Iterator[Entry]:
    """Cards moved, each from where it is now (looked at before the event is folded); a SIGNI that leaves the
    field carries what it was as it left (``was``, see ``last_known``)."""
    for card in cards:
        where = s.where(card)
        owner = s.owners.get(card, "")
        was = _was(s, owner, where[1] if where else "")
        for entry in _moves(what, owner, [card], zone_name(where[1] if where else None), to, cause, by):
            yield {**entry, "was": was} if was is not None else entry


def _was(s: GameState, owner: str, place: str) -> dict[str, Any] | None:
    """What a SIGNI on the field is as it leaves: upped or downed, frozen or not, the cards under it, its
    power."""
    zone, _, pos = place.partition(":")
    slot = s.players[owner].signi.get(pos) if zone == "signi" and owner in s.players else None
    if slot is None:
        return None
    was: dict[str, Any] = {"upped": not slot.downed, "frozen": slot.frozen, "under": list(slot.under)}
    was["power"] = facts.power(s, slot)  # "when your SIGNI of power 10000 or more is vanished"
    colours = facts.card_of(s, slot.iid).colors
    if colours != facts.catalogue().get(s.cards[slot.iid]).colors:  # effects had added some
        was["colors"] = list(colours)
    return was


def last_known(s: GameState, iid: str) -> dict[str, Any] | None:
    """What a SIGNI was as it last left the field this turn (000 '[Auto]': an ability that looks at a card
    that left the field looks at it as it was then): ``upped``, ``frozen``, ``under`` (the cards under
    it), ``power`` and ``colors`` (when effects had added some); None when it did not leave the field this
    turn."""
    for e in reversed(s.flags.get(KEY, ())):
        if e.get("card") == iid and "was" in e:
            return dict(e["was"])
    return None


Reader = Callable[[GameState, dict[str, Any], Any], list[Entry]]
_READERS: dict[str, Reader] = {}


def reads(*types: str) -> Callable[[Reader], Reader]:
    def register(fn: Reader) -> Reader:
        for t in types:
            _READERS[t] = fn
        return fn

    return register


@reads("CardsDrawn")
def _drawn(_s: GameState, d: dict[str, Any], _e: Any) -> list[Entry]:
    return list(_moves("drawn", d["player"], list(d["cards"]), "deck", "hand", _cause(d), d.get("by_effect")))


@reads("CardsDiscarded")
def _discarded(_s: GameState, d: dict[str, Any], _e: Any) -> list[Entry]:
    to = str(d.get("to", "trash"))
    return list(_moves("discarded", d["player"], list(d["cards"]), "hand", to, _cause(d), d.get("by_effect")))


@reads("Guarded")
def _guarded(_s: GameState, d: dict[str, Any], _e: Any) -> list[Entry]:
    out = list(_moves("discarded", d["player"], [d["card"]], "hand", "trash", "rule", None))
    return out + list(_moves("moved", d["player"], list(d.get("ener", ())), "ener", "trash", "cost", None))


@reads("CardsMilled")
def _milled(_s: GameState, d: dict[str, Any], _e: Any) -> list[Entry]:
    return list(
        _moves("moved", d["player"], list(d["cards"]), "deck", "trash", _cause(d), d.get("by_effect"))
    )


@reads("EnerCharged")
def _charged(s: GameState, d: dict[str, Any], e: Any) -> list[Entry]:
    """The ener phase's own charge is the game's; any other is an effect's (its event names no card)."""
    return list(_each_from(s, [d["card"]], "ener", "rule" if e.rule == "ener.charge" else "effect", None))


@reads("CardsMoved")
def _moved(s: GameState, d: dict[str, Any], _e: Any) -> list[Entry]:
    return list(_each_from(s, list(d["cards"]), str(d["to"]), _cause(d), d.get("by_effect")))


@reads("SigniVanished")
def _vanished(s: GameState, d: dict[str, Any], _e: Any) -> list[Entry]:
    cause = {"battle": "battle", "effect": "effect"}.get(str(d.get("cause")), "rule")
    return list(_each_from(s, [d["card"]], "ener", cause, d.get("by_effect")))


@reads("SigniTrashed", "CardsTrashed", "CheckZoneCleared", "SigniRemoved")
def _by_rule(s: GameState, d: dict[str, Any], _e: Any) -> list[Entry]:
    """``cards`` may be empty (a removal whose every SIGNI a replacement took elsewhere): no entry."""
    cards = list(d["cards"]) if "cards" in d else [d["card"]]
    return list(_each_from(s, cards, str(d.get("to", "trash")), "rule", None))


@reads("AttackDeclared")
def _attacked(_s: GameState, d: dict[str, Any], _e: Any) -> list[Entry]:
    """An attack: by whose SIGNI or LRIG (``player``), which card, from which zone (``field`` or ``lrig``)."""
    src = "lrig" if d.get("zone") == "lrig" else "field"
    return [{"what": "attacked", "player": d["player"], "card": d["card"], "from": src, "cause": "rule"}]


@reads("SigniPlayed")
def _played(s: GameState, d: dict[str, Any], _e: Any) -> list[Entry]:
    return list(_each_from(s, [d["card"]], "field", "rule", None, "entered"))


@reads("SigniPutOntoField")
def _put_onto_field(s: GameState, d: dict[str, Any], _e: Any) -> list[Entry]:
    return list(_each_from(s, [d["card"]], "field", "effect", d.get("by_effect"), "entered"))


@reads("SpellUsed", "PieceUsed", "ArtsUsed")
def _used(s: GameState, d: dict[str, Any], e: Any) -> list[Entry]:
    what = {"SpellUsed": "spell", "PieceUsed": "piece", "ArtsUsed": "arts"}[e.type]
    out = list(_each_from(s, [d["card"]], "check", "rule", None, what))
    for entry in out:
        entry["player"] = d["player"]  # who used it
    return out + list(_moves("moved", d["player"], list(d.get("ener", ())), "ener", "trash", "cost", None))


@reads("AbilityUsed", "CostPaid")
def _paid(_s: GameState, d: dict[str, Any], _e: Any) -> list[Entry]:
    return list(
        _moves("moved", str(d.get("player", "")), list(d.get("ener", ())), "ener", "trash", "cost", None)
    )


@reads("CoinsPaid")
def _coins(_s: GameState, d: dict[str, Any], _e: Any) -> list[Entry]:
    """One entry for each coin paid, by the player who paid it."""
    return [{"what": "coins", "player": str(d.get("player", "")), "cause": "cost"}] * int(d.get("count", 0))


@reads("LrigGrew")
def _grew(s: GameState, d: dict[str, Any], _e: Any) -> list[Entry]:
    out = list(_each_from(s, [d["card"]], "lrig", "rule", None, "grew"))
    return out + list(_moves("moved", d["player"], list(d.get("paid", ())), "ener", "trash", "cost", None))


@reads("LifeClothCrushed")
def _crushed(_s: GameState, d: dict[str, Any], _e: Any) -> list[Entry]:
    cause = "effect" if d.get("cause") == "effect" else "battle"
    return list(_moves("moved", d["player"], list(d.get("cards", ())), "life_cloth", "check", cause, None))


@reads("CardsSet")
def _frozen(s: GameState, d: dict[str, Any], _e: Any) -> list[Entry]:
    """SIGNI that become frozen (those frozen already do not become so again)."""
    if not d.get("frozen"):
        return []
    out: list[Entry] = []
    for card in d["cards"]:
        where = s.where(card)
        ps = s.players[where[0]] if where else None
        slot = (
            ps.signi.get(where[1].split(":")[1]) if ps and where and where[1].startswith("signi:") else None
        )
        if slot is not None and not slot.frozen:
            entry: Entry = {
                "what": "frozen",
                "player": where[0] if where else "",
                "card": card,
                "cause": _cause(d),
            }
            if isinstance(d.get("by_effect"), str):
                entry["by"] = d["by_effect"]
            out.append(entry)
    return out


@reads("DamageDealt", "EffectDamageDealt")
def _damaged(_s: GameState, d: dict[str, Any], e: Any) -> list[Entry]:
    cause = "effect" if e.type == "EffectDamageDealt" else "battle"
    return [{"what": "damaged", "player": str(d.get("player", "")), "cause": cause}]


def entries(s: GameState, event: Any) -> list[Entry]:
    """What an event did, as tally entries; ``s`` is the state before the event is folded (where a card was
    is read from it). Nothing is tallied before the game is under way."""
    reader = _READERS.get(event.type)
    if reader is None or s.status != "active":
        return []
    return reader(s, event.data, event)


READ = tuple(_READERS)  # the event types the tally reads


def add(s: GameState, new: list[Entry]) -> None:
    """Add an event's entries to this turn's tally (a new list: the flags are copied shallowly), each marked
    ``at`` the state's version after the event (the event's own number in the match)."""
    if new:
        s.flags[KEY] = [*s.flags.get(KEY, []), *({**e, "at": s.version} for e in new)]


def just_now(s: GameState) -> list[Entry]:
    """The entries of the event just folded (a trigger looks at what it did)."""
    return [e for e in s.flags.get(KEY, ()) if e.get("at") == s.version]


def this_turn(s: GameState) -> list[Entry]:
    """This turn's tally, oldest first."""
    return list(s.flags.get(KEY, ()))
