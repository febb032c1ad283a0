"""Rule processing (rule-based actions), numbered as in the rule-processing text.

Checked after every action and every complete effect, never in the middle of one, and before any triggered
ability. The kinds that need no choice happen together, as one check; then the level/limit kind (rba.2), which
asks the player whose SIGNI must go, one SIGNI at a time in the A -> B -> C order.

- rba.1 power 0 or less: vanished.             - rba.6 a Resona outside its zones: back to the LRIG deck.
- rba.2 level or limit exceeded: trash one.    - rba.7 a Key outside its zones: to the LRIG trash.
- rba.3 cards left under a SIGNI: trash.       - rba.8 over a designated limit: no card of the encoded
- rba.4 crushed card, burst not used: ener.      set designates one, so nothing can exceed it.
- rba.5 deck empty (trash not): refresh.       - rba.9 limiting condition not met: trash.
- rba.lrig-type: two LRIGs of exactly one LRIG type: a non-center one goes to the LRIG trash.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from domain import facts
from domain.abilities import leaving
from domain.abilities.constants import active
from domain.cards import CardType
from domain.per_match import PerMatch
from domain.recorder import Recorder
from domain.state import LRIG_POSITIONS, GameState, Slot, opponent
from domain.turn_end import end_turn_now

RESONA_ZONES = ("lrig_deck", "lrig_trash")
KEY_ZONES = ("lrig_deck", "lrig_trash")


def process(rec: Recorder) -> bool:
    """One round of rule processing; True when it did something or asked something."""
    s = rec.state
    if s.status != "active":
        return False
    if _simultaneous(rec):
        return True
    if _lrig_types(rec):
        return True
    return _level_and_limit(rec)


def _players_in_order(s: GameState) -> list[str]:
    tp = s.turn_player or "p1"
    return [tp, opponent(tp)]


def _simultaneous(rec: Recorder) -> bool:
    s = rec.state
    moves: list[tuple[str, str, dict[str, Any]]] = []
    replacing: list[tuple[str, leaving.Own]] = []  # SIGNI that go elsewhere instead, by their own replacement
    applying: list[Any] | None = None
    for p in _players_in_order(s):
        ps = s.players[p]
        types = facts.lrig_types(s, p)
        lvl = facts.center_level(s, p)
        for zone, slot in ps.signi_slots():
            card = facts.card_of(s, slot.iid)
            if applying is None:  # the constant power steps that apply now, worked out once for every SIGNI
                applying = list(active(s, "power"))
            vanish = facts.power(s, slot, applying) <= 0
            limiting = bool(card.limiting) and not (set(card.limiting) & types)
            above = (card.level or 0) > lvl
            only = vanish and not (limiting or above)  # vanished, not put into the trash
            if (vanish or limiting) and leaving.own_replacement(s, slot.iid, vanish=only) is not None:
                # it would leave the field: its own replacement first (its player asked when it says "may")
                if leaving.undecided(s, [slot.iid], vanish=only) is not None:
                    leaving.ask(rec, slot.iid, vanish=only)
                    return True
                own = leaving.replaced(s, slot.iid, vanish=only)
                if own is not None:
                    replacing.append((slot.iid, own))
                    continue
            if vanish and (limiting or above):
                # one card, two rule processes sending it to different zones: its owner chooses the order
                other = "rba.9" if limiting else "rba.2"
                rec.ask(
                    p,
                    "choose",
                    "rba.order",
                    purpose="rba.order",
                    card=slot.iid,
                    options=["rba.1", other],
                    min=0,
                    max=0,
                    choices=[],
                    prompt="two rule processes apply to this SIGNI: choose which is applied first "
                    f"(rba.1 vanishes it into the ener zone, {other} puts it into the trash)",
                )
                return True
            if vanish:
                moves.append(
                    (
                        "SigniVanished",
                        "rba.1",
                        {"player": p, "card": slot.iid, "zone": zone, "cause": "power"},
                    )
                )
            elif limiting:
                moves.append(("SigniTrashed", "rba.9", {"player": p, "card": slot.iid, "zone": zone}))
        # rba.6 and rba.7: Resonas and Keys where they may not be (most matches have none)
        special = _resonas_and_keys(s)
        for zone, cards in ps.zones.items() if special else ():
            for iid in cards:
                if iid not in special:
                    continue
                t = facts.card_of(s, iid).type
                if t == CardType.RESONA and zone not in RESONA_ZONES:
                    moves.append(
                        ("CardReturned", "rba.6", {"player": p, "card": iid, "from": zone, "to": "lrig_deck"})
                    )
                elif t == CardType.KEY and zone not in KEY_ZONES:
                    moves.append(
                        (
                            "CardReturned",
                            "rba.7",
                            {"player": p, "card": iid, "from": zone, "to": "lrig_trash"},
                        )
                    )
        # rba.4: crushed cards whose Life Burst is absent, declined or done
        for iid in ps.zones["check"]:
            if s.crushed.get(iid) in ("none", "declined", "used"):
                moves.append(("CardEnered", "rba.4", {"player": p, "card": iid}))
    # rba.3: cards left behind by a SIGNI that left the field
    for p in _players_in_order(s):
        left = [iid for iid in s.limbo if s.owners[iid] == p]
        main = [iid for iid in left if not facts.card_of(s, iid).is_lrig_deck_card]
        souls = [iid for iid in left if facts.card_of(s, iid).is_lrig_deck_card]  # a Soul: to the LRIG trash
        if main:
            moves.append(("CardsTrashed", "rba.3", {"player": p, "cards": main, "from": "under"}))
        if souls:
            data = {"player": p, "cards": souls, "from": "under", "to": "lrig_trash"}
            moves.append(("CardsTrashed", "kw.soul", data))
    for iid, own in replacing:
        leaving.redirect(rec, iid, own)
    for etype, rule, data in moves:
        rec.emit(etype, "rules", rule, data)
    refreshed = _refresh(rec)
    return bool(moves) or bool(replacing) or refreshed


_SPECIAL: PerMatch[frozenset[str]] = PerMatch(256)


def _resonas_and_keys(s: GameState) -> frozenset[str]:
    """The match's Resona and Key instances, found once per match."""
    return _SPECIAL.get(
        s.cards,
        lambda: frozenset(
            i for i, c in s.cards.items() if facts.catalogue().get(c).type in (CardType.RESONA, CardType.KEY)
        ),
    )


def _refresh(rec: Recorder) -> bool:
    """rba.5: a player with an empty deck and a non-empty trash refreshes. The turn player's second refresh
    in one turn ends the turn."""
    s = rec.state
    did = False
    for p in _players_in_order(s):
        ps = s.players[p]
        if ps.zones["deck"] or not ps.zones["trash"]:
            continue
        order = list(ps.zones["trash"])
        rec.random(f"refresh:{p}").shuffle(order)
        life = ps.zones["life_cloth"][0] if ps.zones["life_cloth"] else None
        if life is not None and any(q == p for q, _src, _st in active(s, "refresh_keeps_life")):
            life = None  # a constant of the player's card: the refresh trashes no Life Cloth
        rec.emit(
            "Refreshed",
            "rules",
            "rba.5",
            {"player": p, "order": order, "life_cloth": life, "count": len(order)},
        )
        did = True
        if p == s.turn_player and ps.refreshes_this_turn >= 2:
            end_turn_now(rec, p, "refresh.second")
            return True
    return did


def _lrig_types(rec: Recorder) -> bool:
    """Two LRIGs on one field with exactly the same LRIG types: a non-center one goes (with the cards
    under it) to the LRIG trash; between two assists, their player chooses."""
    s = rec.state
    for p in _players_in_order(s):
        ps = s.players[p]
        clash = _clash(*_lrig_ids(s, ps.lrig))
        if clash in ("left", "right"):
            rec.emit("LrigTrashed", "rules", "rba.lrig-type", {"player": p, "position": clash})
            return True
        if clash == "assists":
            choices = [ps.lrig["left"].iid, ps.lrig["right"].iid]  # type: ignore[union-attr]
            rec.ask(
                p,
                "choose",
                "rba.lrig-type",
                purpose="rba.lrig-type",
                min=1,
                max=1,
                choices=choices,
                prompt="two assist LRIGs share their LRIG types: choose the one to put into the LRIG trash",
            )
            return True
    return False


def _lrig_ids(s: GameState, lrig: dict[str, Slot | None]) -> tuple[str | None, str | None, str | None]:
    """The catalogue ids of the center, left and right LRIGs (None where there is none)."""
    ids = [None if (sl := lrig.get(pos)) is None else s.cards[sl.iid] for pos in LRIG_POSITIONS]
    return ids[0], ids[1], ids[2]


@cache
def _clash(center: str | None, left: str | None, right: str | None) -> str | None:
    """Which LRIG of a field (given by catalogue id, position by position) must go by rba.lrig-type: the
    assist (``left`` or ``right``) with exactly the center's LRIG types, else ``assists`` when the two
    assists share theirs (their player chooses), else None. It depends on the cards alone: worked out once
    per line-up."""
    types = {
        pos: facts.lrig_types_of(cid)
        for pos, cid in (("center", center), ("left", left), ("right", right))
        if cid is not None
    }
    for pos in ("left", "right"):
        if types.get(pos) and types[pos] == types.get("center"):
            return pos
    if types.get("left") and types.get("left") == types.get("right"):
        return "assists"
    return None


@cache
def _printed_over(lrigs: tuple[str | None, ...], signi: tuple[str, ...]) -> tuple[tuple[int, ...], bool]:
    """``over`` for printed levels (no level set by an effect this turn), by catalogue ids: the indexes of
    the SIGNI above the center LRIG's level, and whether their levels total more than the limit. It depends
    on the cards alone: worked out once per line-up."""
    cat = facts.catalogue()
    center = lrigs[0]
    if center is None:
        lvl, limit = 0, 0
    else:
        lvl = cat.get(center).level or 0
        limit = sum(cat.get(c).limit or 0 for c in lrigs if c is not None)
    levels = [cat.get(c).level or 0 for c in signi]
    return tuple(i for i, n in enumerate(levels) if n > lvl), sum(levels) > limit


def over(s: GameState, p: str) -> tuple[list[str], bool]:
    """SIGNI above the center LRIG's level (tier A), and whether the total level is above the limit."""
    ps = s.players[p]
    if not s.flags.get("base_changed") and not ps.lasting:  # a limit raised for a time is read below
        slots = [sl.iid for sl in ps.signi.values() if sl is not None]
        above_at, over_limit = _printed_over(_lrig_ids(s, ps.lrig), tuple(s.cards[i] for i in slots))
        return [slots[i] for i in above_at], over_limit
    lvl = facts.center_level(s, p)
    levels = [(sl.iid, facts.level(s, sl.iid)) for _, sl in s.players[p].signi_slots()]
    above = [iid for iid, n in levels if n > lvl]
    return above, sum(n for _, n in levels) > facts.limit(s, p)


def candidates(s: GameState, p: str) -> list[str]:
    """The SIGNI rba.2 may put into the trash next, in the A -> B -> C order of the rule-processing text
    (004, "Additional rule processing rulings" 4): A, those above the center LRIG's level; B, those whose
    level an effect changed (``changed``); C, any SIGNI. Within a step the player chooses."""
    above, over_limit = over(s, p)
    if above:
        return above
    if over_limit:
        slots = [sl.iid for _, sl in s.players[p].signi_slots()]
        return changed(s, slots) or slots
    return capped(s, p)


def capped(s: GameState, p: str) -> list[str]:
    """More SIGNI than an effect lets the player have this turn (``signi_max``): any of them goes to the
    trash, as the player chooses, until the number is kept."""
    cap = s.flags.get("signi_max", {}).get(p)
    slots = [sl.iid for _, sl in s.players[p].signi_slots()]
    return slots if cap is not None and len(slots) > int(cap) else []


def changed(s: GameState, iids: list[str]) -> list[str]:
    """Step B of rba.2: the SIGNI whose level is not their printed level any more (an effect set it). A
    level is changed only by an effect, so with none this turn there is none."""
    if not s.flags.get("base_changed"):
        return []
    return [i for i in iids if facts.level(s, i) != (facts.card_of(s, i).level or 0)]


def _level_and_limit(rec: Recorder) -> bool:
    s = rec.state
    for p in _players_in_order(s):
        options = candidates(s, p)
        if not options:
            continue
        if len(options) == 1:
            zone = s.players[p].find(options[0])
            data = {"player": p, "card": options[0], "zone": (zone or "").split(":")[-1]}
            leaving.leave_or_ask(rec, "SigniTrashed", "rules", "rba.2", data)  # its own replacement first
        else:
            above, _ = over(s, p)
            if above:
                why = "above the center LRIG's level"
            elif changed(s, options):
                why = "over the limit, and these had their level changed by an effect (they go first)"
            elif not over(s, p)[1]:
                why = "more than an effect allows this turn"
            else:
                why = "over the limit"
            rec.ask(
                p,
                "choose",
                "rba.2",
                purpose="rba.2",
                min=1,
                max=1,
                choices=options,
                prompt=f"your SIGNI are {why}: choose one to put into the trash",
            )
        return True
    return False
