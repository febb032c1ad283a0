"""Continuous ([Constant]) effects, computed from the board whenever a rule asks.

A constant ability applies while its card is on the field and its condition holds (a Team constant, while the
player's three LRIGs are of its team). Each ``power`` step of a constant adds to the power of every SIGNI its
target spec names: ``{"self": true}`` or a side/zone/filter spec (``count`` is ignored: "all that fit").
"""

from __future__ import annotations

from functools import cache

from domain import facts
from domain.abilities import targets as tg
from domain.abilities.catalogue import abilities_of
from domain.state import GameState, Slot


@cache
def _constants(card_id: str) -> tuple[tuple[int, dict], ...]:
    return tuple((i, ab) for i, ab in enumerate(abilities_of(card_id)) if ab["kind"] == "constant")


def power_bonus(s: GameState, slot: Slot) -> int:
    total = 0
    target_owner = s.owners[slot.iid]
    for p, ps in s.players.items():
        for source in [*ps.signi.values(), *ps.lrig.values()]:
            if source is None:
                continue
            consts = _constants(s.cards[source.iid])
            if not consts:
                continue
            for _i, ab in consts:
                total += _applies(s, p, source.iid, ab, slot, target_owner)
    return total


def _applies(s: GameState, p: str, source: str, ab: dict, slot: Slot, target_owner: str) -> int:
    from domain.abilities.triggers import team_ok

    if ab.get("team") and not team_ok(s, p, s.cards[source]):
        return 0
    if not tg.holds(s, p, source, ab.get("condition")):
        return 0
    bonus = 0
    for step in ab.get("effect", []):
        if step["op"] != "power":
            continue
        spec = step["target"]
        if spec.get("self"):
            if source == slot.iid:
                bonus += int(step["amount"])
            continue
        if tg.side_of(p, spec.get("side", "you")) != target_owner:
            continue
        zone = (s.players[target_owner].find(slot.iid) or "").split(":")[-1]
        f = spec.get("filter", {})
        if spec.get("attacking") and not (s.attack and s.attack.get("card") == slot.iid):
            continue
        if spec.get("another") and source == slot.iid:
            continue
        # the filter is checked on printed facts and position (power filters would loop)
        card = facts.card_of(s, slot.iid)
        if tg._card_fits(card, f) and ("position" not in f or zone in f["position"]):
            bonus += int(step["amount"])
    return bonus
