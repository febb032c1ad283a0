"""A SIGNI's own replacement of its leaving the field (``replace`` of ``leave_field``, subject ``this``): "if
this SIGNI would leave the field, instead (you may) put it ..." (``effect.replace``).

Wherever a SIGNI is about to leave the field (an effect or a cost, battle, rule processing, the ener phase, a
removal in the main phase), the place that moves it asks ``own_replacement`` first. One that says "you may"
is asked of the SIGNI's player while the leaving waits (``ask``); the answer is kept in the state
(``ReplacementChosen``, ``flags.leave_choice``, until the card moves), and the leaving goes on with it: used,
the SIGNI goes where the replacement says instead (``redirect``), and is not vanished (or trashed ...);
declined, it leaves as it would have. A replacement without "may" is used at once.

A replacement of ``vanish`` applies only as the SIGNI would be vanished (by an effect, battle, or rule
processing); one of ``leave_field`` however it would leave. One with a ``cost`` ("instead you may down this
SIGNI and put a card under it and a card of your ener zone into the trash") is asked only while the cost can
be paid; the question lists the cards it may be paid with (``pay``: how many of each), and the answer
``replace`` names them: the cost is paid with the answer (``pay``), before the event that waited goes on.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from domain.abilities.catalogue import abilities_of
from domain.abilities.constant_words import expand
from domain.abilities.constants import active
from domain.abilities.vocabulary import steps_text
from domain.recorder import Recorder
from domain.state import GameState

ZONE_OF = {"deck_bottom": "deck", "trash": "trash"}  # where a replacement sends it: the zone moved into


class Own(NamedTuple):
    zone: str | None  # the zone it goes to instead (a CardsMoved ``to``); None: it stays, ``instead`` happens
    source: str  # the card whose constant says so (this SIGNI)
    optional: bool
    instead: tuple[dict[str, Any], ...] = ()  # what happens instead, as an effect of this card (it stays)
    ability: int = 0  # the number of the constant ability, for that effect
    cost: tuple[tuple[str, Any], ...] = ()  # what is paid to use it, with the answer (``pay``)


def own_replacement(s: GameState, iid: str, by: str | None = None, vanish: bool = False) -> Own | None:
    """The SIGNI's own constant replacing its leaving the field, when one applies now. ``by``: the player
    whose effect (or cost) takes it off the field; None when no effect does (battle, rule processing, the
    ener phase, a removal): a replacement of its leaving "by the opponent's effects" applies only to those.
    ``vanish``: it would be vanished (a replacement of being vanished applies only then)."""
    owner = s.owners.get(iid)
    events = ("leave_field", "vanish") if vanish else ("leave_field",)
    for _p, source, st in active(s, "replace"):
        g = expand(st)
        if source != iid or g.get("event") not in events or g.get("subject") != "this":
            continue
        if g.get("cause") == "opponent_effect" and (by is None or by == owner):
            continue
        zone = ZONE_OF[str(g["to"])] if "to" in g else None
        ref = next((i for i, ab in enumerate(abilities_of(s.cards[iid])) if st in ab.get("effect", [])), 0)
        cost = tuple(sorted(dict(g.get("cost", {})).items()))
        return Own(zone, source, bool(g.get("optional")), tuple(g.get("instead", ())), ref, cost)
    return None


def payable(s: GameState, iid: str, own: Own) -> dict[str, list[str]] | None:
    """The cards each part of the replacement's cost may be paid with (``under``: cards under this SIGNI,
    ``ener``: its player's ener cards), with how many; None when the cost cannot be paid now (a cost "down
    this upped SIGNI" needs it upped)."""
    cost = dict(own.cost)
    where = s.where(iid)
    slot = s.players[where[0]].signi.get(where[1].split(":")[-1]) if where is not None else None
    if slot is None or (cost.get("down") and slot.downed):
        return None
    out = {"under": list(slot.under), "ener": list(s.players[s.owners[iid]].zones["ener"])}
    for part, key in (("under", "trash_under"), ("ener", "trash_ener")):
        if len(out[part]) < count(own, key):
            return None
    return out


def count(own: Own, key: str) -> int:
    """How many cards a part of the replacement's cost names (``trash_under``, ``trash_ener``)."""
    part = dict(own.cost).get(key)
    return int(part.get("n", 1)) if isinstance(part, dict) else 0


def choice(s: GameState, iid: str) -> str | None:
    """What the SIGNI's player answered about its replacement ("replace" or "decline"), if asked."""
    value = s.flags.get("leave_choice", {}).get(iid)
    return str(value) if value is not None else None


def replaced(s: GameState, iid: str, by: str | None = None, vanish: bool = False) -> Own | None:
    """The replacement to use now, as the SIGNI leaves (None: it leaves as it would have). A replacement
    that says "you may" and was not answered yet is not used: the caller asks first (``undecided``)."""
    own = own_replacement(s, iid, by, vanish)
    if own is None or (own.optional and choice(s, iid) != "replace"):
        return None
    return own


def undecided(s: GameState, cards: list[str], by: str | None = None, vanish: bool = False) -> str | None:
    """The first of these SIGNI whose player must still be asked whether to use its replacement (one whose
    cost cannot be paid now is not asked: it is not used)."""
    for iid in cards:
        own = own_replacement(s, iid, by, vanish)
        if own is not None and own.optional and choice(s, iid) is None:
            if own.cost and payable(s, iid, own) is None:
                continue
            return iid
    return None


def prompt(own: Own) -> str:
    """The question of a replacement that says "you may"."""
    if own.cost:
        paid = cost_text(own)
        then = f", then {steps_text(list(own.instead))}" if own.instead else ""
        return f"this SIGNI would leave the field: instead, {paid}{then}? (choose the cards to pay with)"
    if own.zone is None:
        return f"this SIGNI would leave the field: instead, {steps_text(list(own.instead))}?"
    where = "on the bottom of its deck" if own.zone == "deck" else f"into the {own.zone}"
    return f"this SIGNI would leave the field: put it {where} instead?"


def cost_text(own: Own) -> str:
    """The cost of a replacement, in words."""
    cost, parts = dict(own.cost), []
    if cost.get("down"):
        parts.append("down this upped SIGNI")
    if count(own, "trash_under"):
        parts.append(f"put {count(own, 'trash_under')} card(s) from under it into the trash")
    if count(own, "trash_ener"):
        parts.append(f"put {count(own, 'trash_ener')} card(s) of your ener zone into the trash")
    return " and ".join(parts)


def question(s: GameState, iid: str, own: Own) -> dict[str, Any]:
    """What the question about a replacement lists: the options, and for a cost paid with chosen cards those
    it may be paid with (``choices``) and how many of each (``pay``)."""
    base: dict[str, Any] = {"card": iid, "options": ["replace", "decline"], "prompt": prompt(own)}
    found = payable(s, iid, own) if own.cost else None
    if found is None:
        return {**base, "min": 0, "max": 0, "choices": []}
    pay = {"under": count(own, "trash_under"), "ener": count(own, "trash_ener")}
    choices = [c for part in ("under", "ener") if pay[part] for c in found[part]]
    return {**base, "min": 0, "max": 0, "choices": choices, "pay": pay}  # the cards named with the option


def payment_problem(s: GameState, pending: dict[str, Any], option: str, cards: list[str]) -> str | None:
    """What is wrong with the cards an answer about a replacement names (None: nothing): ``replace`` names
    as many of each kind as its cost says, ``decline`` none."""
    pay = pending.get("pay")
    if not pay:
        return "this replacement is paid with no cards" if cards else None
    if option != "replace":
        return "declined, no cards are paid" if cards else None
    iid = pending["card"]
    where = s.where(iid)
    slot = s.players[where[0]].signi.get(where[1].split(":")[-1]) if where is not None else None
    under = [c for c in cards if slot is not None and c in slot.under]
    ener = [c for c in cards if c in s.players[s.owners[iid]].zones["ener"]]
    if (
        len(under) != int(pay["under"])
        or len(ener) != int(pay["ener"])
        or len(cards) != len(under) + len(ener)
    ):
        return f"pay with {pay['under']} card(s) from under the SIGNI and {pay['ener']} ener card(s)"
    return None


def pay(rec: Recorder, iid: str, cards: list[str], by: str | None = None, vanish: bool = False) -> None:
    """Pay the cost of the SIGNI's replacement with the cards its player named, as they choose to use it."""
    s = rec.state
    own = own_replacement(s, iid, by, vanish)
    if own is None or not own.cost:
        return
    p, data = s.owners[iid], {"by_effect": own.source}
    if dict(own.cost).get("down"):
        rec.emit("CardsSet", "rules", "effect.replace", {"cards": [iid], "downed": True, **data})
    where = s.where(iid)
    slot = s.players[where[0]].signi.get(where[1].split(":")[-1]) if where is not None else None
    under = [c for c in cards if slot is not None and c in slot.under]
    ener = [c for c in cards if c not in under]
    for part, got in (("under", under), ("ener", ener)):
        if got:
            moved = {"player": p, "cards": got, "to": "trash", "from": part, **data}
            rec.emit("CardsMoved", "rules", "effect.replace", moved)


def ask(rec: Recorder, iid: str, waiting: dict[str, Any] | None = None, vanish: bool = False) -> None:
    """Ask the SIGNI's player whether to use its replacement, while its leaving waits (``waiting``: the event
    that happens when declined, for the answers that are not asked again)."""
    own = own_replacement(rec.state, iid, None, vanish)
    assert own is not None
    rec.ask(
        rec.state.owners[iid],
        "choose",
        "effect.replace",
        purpose="replace",
        event="leave_field",
        **question(rec.state, iid, own),
        **({"vanish": True} if vanish else {}),
        **({"waiting": waiting} if waiting is not None else {}),
    )


def redirect(rec: Recorder, iid: str, own: Own, actor: str = "rules", by_effect: str | None = None) -> None:
    """The SIGNI goes where its replacement says, instead of leaving as it would have; or it stays, and what
    the replacement names happens instead (steps that ask nothing: the leaving was in the middle of
    something)."""
    if own.zone is None:
        from domain.abilities import effects  # the effects move SIGNI with this module: imported as it runs

        owner = rec.state.owners[iid]
        data: dict[str, Any] = {"player": owner, "card": iid, "replaced_by": own.source}
        if by_effect is not None:
            data["by_effect"] = by_effect
        rec.emit("LeavingReplaced", actor, "effect.replace", data)
        if not own.instead:  # all it does was paid with the answer
            return
        effects.start(rec, own.source, owner, own.ability, {"effect": list(own.instead)}, "effect.replace")
        return
    moved: dict[str, Any] = {"player": rec.state.owners[iid], "cards": [iid], "to": own.zone, "from": "signi"}
    if by_effect is not None:
        moved["by_effect"] = by_effect
    rec.emit("CardsMoved", actor, "effect.replace", {**moved, "replaced_by": own.source})


def leave_or_ask(rec: Recorder, etype: str, actor: str, rule: str, data: dict[str, Any]) -> None:
    """An event that takes SIGNI off the field (``data["card"]`` or ``data["cards"]``), emitted once every
    replacement of theirs that says "you may" has been answered (else the first is asked, the event
    waiting in the question); the SIGNI whose replacement is used go where it says instead."""
    s = rec.state
    cards = list(data["cards"]) if "cards" in data else [data["card"]]
    vanish = etype == "SigniVanished"
    ask_about = undecided(s, cards, vanish=vanish)
    if ask_about is not None:
        ask(rec, ask_about, {"type": etype, "actor": actor, "rule": rule, "data": data}, vanish)
        return
    moved = [(iid, own) for iid in cards if (own := replaced(s, iid, vanish=vanish)) is not None]
    for iid, own in moved:
        redirect(rec, iid, own, actor)
    rest = [iid for iid in cards if iid not in {m[0] for m in moved}]
    if not rest and etype != "SigniRemoved":  # a removal is still the turn's one removal, all replaced
        return
    if "cards" in data:
        out = {**data, "cards": rest}
        if isinstance(data.get("zones"), list) and len(data["zones"]) == len(cards):  # one zone per card
            out["zones"] = [z for iid, z in zip(cards, data["zones"], strict=True) if iid in rest]
        rec.emit(etype, actor, rule, out)
    else:
        rec.emit(etype, actor, rule, data)
