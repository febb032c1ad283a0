"""A SIGNI's own replacement of its leaving the field (``replace`` of ``leave_field``, subject ``this``): "if
this SIGNI would leave the field, instead (you may) put it ..." (``effect.replace``).

Wherever a SIGNI is about to leave the field (an effect or a cost, battle, rule processing, the ener phase, a
removal in the main phase), the place that moves it asks ``own_replacement`` first. One that says "you may"
is asked of the SIGNI's player while the leaving waits (``ask``); the answer is kept in the state
(``ReplacementChosen``, ``flags.leave_choice``, until the card moves), and the leaving goes on with it: used,
the SIGNI goes where the replacement says instead (``redirect``), and is not vanished (or trashed ...);
declined, it leaves as it would have. A replacement without "may" is used at once.
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


def own_replacement(s: GameState, iid: str, by: str | None = None) -> Own | None:
    """The SIGNI's own constant replacing its leaving the field, when one applies now. ``by``: the player
    whose effect (or cost) takes it off the field; None when no effect does (battle, rule processing, the
    ener phase, a removal): a replacement of its leaving "by the opponent's effects" applies only to those."""
    owner = s.owners.get(iid)
    for _p, source, st in active(s, "replace"):
        g = expand(st)
        if source != iid or g.get("event") != "leave_field" or g.get("subject") != "this":
            continue
        if g.get("cause") == "opponent_effect" and (by is None or by == owner):
            continue
        zone = ZONE_OF[str(g["to"])] if "to" in g else None
        ref = next((i for i, ab in enumerate(abilities_of(s.cards[iid])) if st in ab.get("effect", [])), 0)
        return Own(zone, source, bool(g.get("optional")), tuple(g.get("instead", ())), ref)
    return None


def choice(s: GameState, iid: str) -> str | None:
    """What the SIGNI's player answered about its replacement ("replace" or "decline"), if asked."""
    value = s.flags.get("leave_choice", {}).get(iid)
    return str(value) if value is not None else None


def replaced(s: GameState, iid: str, by: str | None = None) -> Own | None:
    """The replacement to use now, as the SIGNI leaves (None: it leaves as it would have). A replacement
    that says "you may" and was not answered yet is not used: the caller asks first (``undecided``)."""
    own = own_replacement(s, iid, by)
    if own is None or (own.optional and choice(s, iid) != "replace"):
        return None
    return own


def undecided(s: GameState, cards: list[str], by: str | None = None) -> str | None:
    """The first of these SIGNI whose player must still be asked whether to use its replacement."""
    for iid in cards:
        own = own_replacement(s, iid, by)
        if own is not None and own.optional and choice(s, iid) is None:
            return iid
    return None


def prompt(own: Own) -> str:
    """The question of a replacement that says "you may"."""
    if own.zone is None:
        return f"this SIGNI would leave the field: instead, {steps_text(list(own.instead))}?"
    where = "on the bottom of its deck" if own.zone == "deck" else f"into the {own.zone}"
    return f"this SIGNI would leave the field: put it {where} instead?"


def ask(rec: Recorder, iid: str, waiting: dict[str, Any] | None = None) -> None:
    """Ask the SIGNI's player whether to use its replacement, while its leaving waits (``waiting``: the event
    that happens when declined, for the answers that are not asked again)."""
    own = own_replacement(rec.state, iid)
    assert own is not None
    rec.ask(
        rec.state.owners[iid],
        "choose",
        "effect.replace",
        purpose="replace",
        event="leave_field",
        card=iid,
        min=0,
        max=0,
        choices=[],
        options=["replace", "decline"],
        prompt=prompt(own),
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
    ask_about = undecided(s, cards)
    if ask_about is not None:
        ask(rec, ask_about, {"type": etype, "actor": actor, "rule": rule, "data": data})
        return
    moved = [(iid, own) for iid in cards if (own := replaced(s, iid)) is not None]
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
