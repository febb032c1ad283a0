"""Steps that put cards onto the field or move them on it: onto the field (a zone chosen among the legal
ones), to the hand or the field, [Soul], swapping with ener, moving in front of the attacker, returning an
LRIG, gathering the cards under LRIGs.
"""

from __future__ import annotations

from typing import Any

from domain import facts
from domain.abilities import targets as tg
from domain.abilities.effects.moving import move_cards
from domain.abilities.effects.running import (
    ask_hand_or_field,
    ask_in_step,
    ask_options,
    ask_zone,
    op,
    take,
    taken,
)
from domain.abilities.effects.targeting import live_targets
from domain.abilities.frames import (
    Frame,
    Pending,
)
from domain.abilities.triggers import souls
from domain.errors import IllegalAction
from domain.recorder import Recorder
from domain.state import SIGNI_ZONES, GameState, facing


def legal_zones(s: GameState, player: str, iid: str) -> list[str]:
    """Empty SIGNI zones where a SIGNI may be put by an effect: level, limit and limiting condition hold."""
    from domain.abilities.catalogue import rise_from
    from domain.answers import check_play

    if rise_from(s.cards[iid]) is not None:  # its Rise takes cards of the trash: not put there by an effect
        return []
    out = []
    for zone in SIGNI_ZONES:
        try:
            check_play(s, player, iid, zone)
        except IllegalAction:
            continue
        out.append(zone)
    return out


def put_onto_field(
    rec: Recorder,
    frame: Frame,
    iid: str,
    zone: str,
    no_enter: bool,
    downed: bool = False,
    no_abilities: bool = False,
) -> None:
    """Put a SIGNI onto the field (``no_abilities``: as a SIGNI with no abilities, from the moment it is
    there: none of its abilities triggers on its entering, and what it gains later it keeps)."""
    data: dict[str, Any] = {
        "player": frame.player,
        "card": iid,
        "zone": zone,
        "by_effect": frame.card,
        "no_enter": no_enter,
    }
    if downed:
        data["downed"] = True
    if no_abilities:
        data["no_abilities"] = True
    below = rec.state.players[frame.player].signi[zone]
    if below is not None:  # Rise: on top of the SIGNI there
        data["rise_on"] = below.iid
    rec.emit("SigniPutOntoField", "rules", frame.rule, data)


@op("to_field")
def _to_field(rec: Recorder, frame: Frame, at: Pending, chosen: list[str]) -> bool:
    """Put the targets onto the field one after the other, each in a zone its player chooses (when more than
    one is legal; ``signi_zone``: only that one, "into your center SIGNI zone"; ``no_abilities``: "as a SIGNI
    with no abilities"); a target that fits no zone stays where it is."""
    step = at.step
    p = frame.player
    moved: list[str] = list(frame.notes.get("moved", [])) if at.progress.answer is not None else []
    for iid in live_targets(rec, frame, step, chosen):
        zones = legal_zones(rec.state, p, iid)
        if step.get("signi_zone"):
            zones = [z for z in zones if z == step["signi_zone"]]
        if not zones:  # a SIGNI that would exceed the level or limit never enters the field
            continue
        if at.progress.answer is not None:
            zone = take(at)["zone"]
        elif len(zones) == 1:
            zone = zones[0]
        else:
            frame.notes["moved"] = moved
            return ask_zone(rec, frame, at, p, zones)
        put_onto_field(
            rec,
            frame,
            iid,
            zone,
            bool(step.get("no_enter")),
            bool(step.get("downed")),
            bool(step.get("no_abilities")),
        )
        moved.append(iid)
    if moved:
        frame.notes["moved"] = moved
    return True


@op("attach_soul")
def _attach_soul(rec: Recorder, frame: Frame, at: Pending, chosen: list[str]) -> bool:
    """Attach a card from under this LRIG (the player chooses which) to the target SIGNI as its [Soul]; a Soul
    already attached to it goes to the LRIG trash (one Soul at most). ``from: lrig_trash``: an LRIG of your
    LRIG trash instead (seed 000 'Soul')."""
    step = at.step

    s, p = rec.state, frame.player
    live = live_targets(rec, frame, step, chosen)
    source = tg._slot(s, frame.card)
    under = list(source.under) if source is not None else []
    if step.get("from") == "lrig_trash":
        under = [
            i
            for i in s.players[p].zones["lrig_trash"]
            if facts.card_of(s, i).type.value in ("lrig", "assist_lrig")
        ]
    if not live or not under:
        return True
    if at.progress.answer is not None:
        card = take(at)["cards"][0]
    elif len(under) == 1:
        card = under[0]
    else:
        return ask_in_step(
            rec,
            frame,
            at,
            p,
            min=1,
            max=1,
            choices=under,
            prompt="choose the card from "
            + ("your LRIG trash" if step.get("from") == "lrig_trash" else "under this LRIG")
            + " to attach as a Soul",
        )
    old = souls(s, live[0])
    if old:
        moved = {"player": p, "cards": old, "to": "lrig_trash", "from": "under", "by_effect": frame.card}
        rec.emit("CardsMoved", "rules", "kw.soul", moved)
    data: dict[str, Any] = {
        "player": p,
        "cards": [card],
        "card": live[0],
        "soul": True,
        "by_effect": frame.card,
    }
    rec.emit("CardsPutUnder", "rules", "kw.soul", data)
    return True


@op("gather_under")
def _gather_under(rec: Recorder, frame: Frame, at: Pending, _t: list[str]) -> bool:
    """Put every card under your other LRIGs under this LRIG."""
    s, p = rec.state, frame.player
    cards = [
        u for sl in s.players[p].lrig.values() if sl is not None and sl.iid != frame.card for u in sl.under
    ]
    if cards and tg._on_field(s, frame.card):
        rec.emit(
            "CardsPutUnder",
            "rules",
            frame.rule,
            {"player": p, "cards": cards, "card": frame.card, "by_effect": frame.card},
        )
    return True


@op("deck_to_under")
def _deck_to_under(rec: Recorder, frame: Frame, at: Pending, _t: list[str]) -> bool:
    """Put the top N cards of your deck under this card, while it is on the field (fewer when fewer are
    left); they are shown."""
    s, p = rec.state, frame.player
    cards = list(s.players[p].zones["deck"][: int(at.step.get("n", 1))])
    if cards and tg._on_field(s, frame.card):
        rec.emit(
            "CardsPutUnder",
            "rules",
            frame.rule,
            {"player": p, "cards": cards, "card": frame.card, "by_effect": frame.card},
        )
    return True


@op("put_under")
def _put_under(rec: Recorder, frame: Frame, at: Pending, chosen: list[str]) -> bool:
    """Put the targets under this card while it is on the field (face up): cards of a zone, or SIGNI of the
    field, which leave it (the cards under such a SIGNI go to the trash by rule processing)."""
    s = rec.state
    cards = [i for i in live_targets(rec, frame, at.step, chosen) if i != frame.card]
    if cards and tg._on_field(s, frame.card):
        data = {"player": s.owners[frame.card], "cards": cards, "card": frame.card, "by_effect": frame.card}
        rec.emit("CardsPutUnder", "rules", frame.rule, data)
        frame.notes["done"] = frame.notes.get("done", 0) + len(cards)
    return True


@op("put_self_under")
def _put_self_under(rec: Recorder, frame: Frame, at: Pending, chosen: list[str]) -> bool:
    """Put this card (a SIGNI of the field, which leaves it, or a spell being used) under the target SIGNI."""
    s = rec.state
    live = [i for i in live_targets(rec, frame, at.step, chosen) if i != frame.card]
    where = s.where(frame.card)
    here = where is not None and (where[1] == "check" or where[1].startswith("signi:"))
    if live and here:
        data = {"player": s.owners[live[0]], "cards": [frame.card], "card": live[0], "by_effect": frame.card}
        rec.emit("CardsPutUnder", "rules", frame.rule, data)
        frame.notes["done"] = frame.notes.get("done", 0) + 1
    return True


@op("to_hand_or_field")
def _to_hand_or_field(rec: Recorder, frame: Frame, at: Pending, chosen: list[str]) -> bool:
    """Add the target to your hand or put it onto your field, as you choose (onto the field only where it may
    go: level, limit, Rise; where it may not, it goes to the hand)."""
    step = at.step
    p = frame.player
    live = live_targets(rec, frame, step, chosen)
    if not live:
        return True
    iid = live[0]
    zones = legal_zones(rec.state, p, iid)
    answer = taken(at)
    if answer is not None and answer.get("zone"):
        put_onto_field(rec, frame, iid, answer["zone"], False)
        return True
    if not zones or (answer is not None and answer.get("option") == "hand"):
        move_cards(rec, frame, p, [iid], "hand")
        return True
    if answer is None:
        return ask_hand_or_field(rec, frame, at, p)
    if len(zones) == 1:
        put_onto_field(rec, frame, iid, zones[0], False)
        return True
    return ask_zone(rec, frame, at, p, zones)


@op("move_to_attacker_front")
def _move_to_attacker_front(rec: Recorder, frame: Frame, at: Pending, _t: list[str]) -> bool:
    """This SIGNI moves to the zone of its field in front of the attacking SIGNI, if that zone is empty."""

    s, iid = rec.state, frame.card
    a, owner = s.attack, s.owners[iid]
    where = s.players[owner].find(iid) or ""
    if a is None or a["zone"] == "lrig" or a["player"] == owner or not where.startswith("signi:"):
        return True
    to = facing(a["zone"])
    if s.players[owner].signi[to] is None and to not in s.flags.get("erased", {}).get(owner, ()):
        rec.emit(
            "SigniMoved",
            "rules",
            frame.rule,
            {"player": owner, "card": iid, "from": where.split(":")[1], "to": to, "by_effect": frame.card},
        )
    return True


@op("relocate")
def _relocate(rec: Recorder, frame: Frame, at: Pending, chosen: list[str]) -> bool:
    """The target SIGNI moves to another SIGNI zone of its field, an empty one its controller's effect chooses
    (000 'SIGNI Zone': a SIGNI is put only into a zone without one, and moves only by a card's effect); with
    none empty, it stays. It keeps its state, and is noted as done ("if you do")."""
    s = rec.state
    live = live_targets(rec, frame, at.step, chosen)
    if not live:
        return True
    iid = live[0]
    owner = s.owners[iid]
    where = (s.players[owner].find(iid) or "").split(":")
    erased = s.flags.get("erased", {}).get(owner, ())  # no SIGNI is put in an erased zone
    empty = [z for z in SIGNI_ZONES if s.players[owner].signi[z] is None and z not in erased]
    if len(where) < 2 or where[0] != "signi" or not empty:
        return True
    answer = taken(at)
    if answer is None and len(empty) > 1:
        return ask_zone(rec, frame, at, frame.player, empty, "choose the SIGNI zone it moves to")
    to = answer["zone"] if answer is not None else empty[0]
    data = {"player": owner, "card": iid, "from": where[1], "to": to, "by_effect": frame.card}
    rec.emit("SigniMoved", "rules", frame.rule, data)
    frame.notes["done"] = frame.notes.get("done", 0) + 1
    return True


@op("swap_places")
def _swap_places(rec: Recorder, frame: Frame, at: Pending, chosen: list[str]) -> bool:
    """Two SIGNI of one field change places: the two targets, or the one target and this SIGNI. Each keeps its
    state; a SIGNI no longer there (or on the other field) swaps with none."""
    s = rec.state
    live = live_targets(rec, frame, at.step, chosen)
    pair = live[:2] if len(live) >= 2 else [frame.card, *live]
    if len(pair) != 2 or pair[0] == pair[1]:
        return True
    owners = {s.owners[i] for i in pair}
    zones = [(s.players[s.owners[i]].find(i) or "").split(":") for i in pair]
    if len(owners) != 1 or any(len(z) < 2 or z[0] != "signi" for z in zones):
        return True
    data = {
        "player": owners.pop(),
        "card": pair[0],
        "from": zones[0][1],
        "to": zones[1][1],
        "with": pair[1],
        "by_effect": frame.card,
    }
    rec.emit("SigniMoved", "rules", frame.rule, data)
    frame.notes["done"] = frame.notes.get("done", 0) + 1
    return True


@op("rearrange")
def _rearrange(rec: Recorder, frame: Frame, at: Pending, chosen: list[str]) -> bool:
    """The SIGNI of one field (the targets, all of that field) are put back in the SIGNI zones as this
    effect's player chooses: one answer names the new zone of each, in the order of the zones they are in
    (the same zones: nothing moves). Each keeps its state; they move together."""
    from itertools import permutations

    s = rec.state
    live = live_targets(rec, frame, at.step, chosen)
    if not live:
        return True
    owner = s.owners[live[0]]
    now = [(z, sl.iid) for z, sl in s.players[owner].signi_slots() if sl.iid in live]
    options = ["/".join(p) for p in permutations(SIGNI_ZONES, len(now))]  # "center/left": the first to ...
    answer = taken(at)
    if answer is None:
        return ask_options(
            rec,
            frame,
            at,
            frame.player,
            options,
            cards=[iid for _z, iid in now],
            prompt="choose the new SIGNI zone of each of these SIGNI, in the order of the zones they are in",
        )
    new = str(answer.get("option", "")).split("/")
    moves = [{"card": iid, "from": z, "to": to} for (z, iid), to in zip(now, new, strict=True) if z != to]
    if moves:
        rec.emit(
            "SigniMoved", "rules", frame.rule, {"player": owner, "moves": moves, "by_effect": frame.card}
        )
        frame.notes["done"] = frame.notes.get("done", 0) + len(moves)
    return True


@op("swap_with_ener")
def _swap_with_ener(rec: Recorder, frame: Frame, at: Pending, chosen: list[str]) -> bool:
    """This SIGNI and the target SIGNI of your ener zone change places: it goes into the ener zone, and the
    target onto the field in the zone it left (if it may be there: level, limit), its [Enter] abilities
    triggering (``no_enter``: not); ``with: revealed``: the target SIGNI of yours and the card just
    revealed on top of the deck; ``with: deck_top``: the target card of your ener zone and the top card of
    your deck; ``with: attacker``: your SIGNI attacking now (not this one) and the target of your ener
    zone."""
    step = at.step
    s, iid, p = rec.state, frame.card, frame.player
    live = live_targets(rec, frame, step, chosen)
    if step.get("with") == "revealed":
        return _swap_with_revealed(rec, frame, live, bool(step.get("no_enter")))
    if step.get("with") == "deck_top":
        return _swap_with_deck_top(rec, frame, live)
    if step.get("with") == "attacker":  # "that SIGNI of yours": the one attacking now
        iid = (s.attack or {}).get("card") or ""
    where = s.players[p].find(iid) or ""
    if not live or not where.startswith("signi:"):
        return True
    zone = where.split(":")[1]
    move_cards(rec, frame, p, [iid], "ener")
    if zone in legal_zones(rec.state, p, live[0]):
        put_onto_field(rec, frame, live[0], zone, bool(step.get("no_enter")))
    return True


def _swap_with_deck_top(rec: Recorder, frame: Frame, live: list[str]) -> bool:
    """The target card of your ener zone (this card, vanished there) and the top card of your deck change
    places: that card goes into the ener zone, the target onto the top of the deck; with no card in the deck,
    or the target no longer in the ener zone, nothing happens."""
    s, p = rec.state, frame.player
    deck = s.players[p].zones["deck"]
    if not live or not deck or live[0] not in s.players[p].zones["ener"]:
        return True
    top = deck[0]
    move_cards(rec, frame, p, [top], "ener")
    move_cards(rec, frame, p, [live[0]], "deck", top=True)
    return True


def _swap_with_revealed(rec: Recorder, frame: Frame, live: list[str], no_enter: bool) -> bool:
    """The target SIGNI of yours and the SIGNI just revealed on top of your deck change places: the target
    goes on top of the deck, the revealed SIGNI onto the field in the zone it left (if it may be there:
    level, limit, limiting)."""
    s, p = rec.state, frame.player
    revealed = frame.notes.get("revealed")
    deck = s.players[p].zones["deck"]
    if not live or revealed is None or not deck or deck[0] != revealed:
        return True
    target = live[0]
    zone = (s.players[p].find(target) or ":").split(":")[1]
    card = facts.card_of(s, revealed)
    total = facts.signi_levels(s, p) - facts.level(s, target) + (card.level or 0)
    if (
        (card.level or 0) > facts.center_level(s, p)
        or total > facts.limit(s, p)
        or not facts.limiting_ok(s, p, card)
    ):
        return True
    move_cards(rec, frame, p, [target], "deck", top=True)
    put_onto_field(rec, frame, revealed, zone, no_enter)
    return True


@op("return_lrig")
def _return_lrig(rec: Recorder, frame: Frame, at: Pending, chosen: list[str]) -> bool:
    """The target LRIGs return to their owner's LRIG deck; the cards under each stay on the field, the one
    just under it now the LRIG there (in the same state)."""
    step = at.step
    s = rec.state
    for iid in live_targets(rec, frame, step, chosen):
        owner = s.owners[iid]
        pos = next(k for k, sl in s.players[owner].lrig.items() if sl is not None and sl.iid == iid)
        rec.emit(
            "LrigReturned",
            "rules",
            frame.rule,
            {"player": owner, "card": iid, "position": pos, "to": "lrig_deck", "by_effect": frame.card},
        )
    return True
