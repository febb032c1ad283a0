"""Triggered abilities: what an event triggers, and the order they resolve in.

A triggered ability waits (``AbilityTriggered``) until the current effect has finished and rule processing is
done. Then the turn player's waiting abilities resolve one at a time, in the order that player chooses, then
the other player's; any they trigger in turn wait the same way.
"""

from __future__ import annotations

from typing import Any

from domain import facts
from domain.abilities import targets as tg
from domain.abilities.catalogue import abilities_of
from domain.engine import Recorder
from domain.state import GameState

TRIGGERING = ("SigniPlayed", "SigniPutOntoField", "LrigGrew", "AttackDeclared", "SigniVanished", "StepBegan")


def team_ok(s: GameState, player: str, card_id: str) -> bool:
    """A Team ability is valid while the player's three LRIGs all belong to the card's team."""
    team = facts.catalogue().get(card_id).team
    lrigs = [sl for sl in s.players[player].lrig.values() if sl is not None]
    return bool(team) and len(lrigs) == 3 and all(facts.card_of(s, sl.iid).team == team for sl in lrigs)


def collect(s: GameState, event: Any) -> list[dict[str, Any]]:
    """The abilities an event (just applied to ``s``) triggers."""
    t, d = event.type, event.data
    found: list[dict[str, Any]] = []

    def add(card: str, player: str, kind: str, on: str | None = None) -> None:
        for i, ab in enumerate(abilities_of(s.cards[card])):
            if ab["kind"] != kind or (on is not None and ab.get("trigger", {}).get("on") != on):
                continue
            if ab.get("team") and not team_ok(s, player, s.cards[card]):
                continue
            found.append({"card": card, "player": player, "ability": i, "kind": kind})

    if (t in ("SigniPlayed", "SigniPutOntoField") and not d.get("no_enter")) or t == "LrigGrew":
        add(d["card"], d["player"], "enter")
    elif t == "AttackDeclared":
        add(d["card"], d["player"], "auto", "attack")
    elif t == "SigniVanished":
        add(d["card"], d["player"], "auto", "vanished")
    elif t == "StepBegan" and d.get("step") == "pre_attack" and s.turn_player:
        tp = s.turn_player
        for _z, slot in s.players[tp].signi_slots():
            add(slot.iid, tp, "auto", "attack_phase_start")
        for slot in s.players[tp].lrig.values():
            if slot is not None:
                add(slot.iid, tp, "auto", "attack_phase_start")
    return found


def after_emit(rec: Recorder, event: Any) -> None:
    """Recorder hook: record what the event triggered."""
    if event.type not in TRIGGERING:
        return
    for w in collect(rec.state, event):
        rec.emit("AbilityTriggered", "rules", f"ability.{'enter' if w['kind'] == 'enter' else 'auto'}", w)


def next_waiting(rec: Recorder, player: str) -> bool:
    """Resolve the player's next waiting triggered ability, or ask the order; False when none waits."""
    s = rec.state
    mine = [w for w in s.waiting if w["player"] == player]
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


def _same(entries: list[dict[str, Any]]) -> bool:
    return all((e["card"], e["ability"]) == (entries[0]["card"], entries[0]["ability"]) for e in entries)


def activate(rec: Recorder, w: dict[str, Any]) -> None:
    from domain.abilities import use

    s = rec.state
    ab = abilities_of(s.cards[w["card"]])[w["ability"]]
    rule = f"ability.{'enter' if w['kind'] == 'enter' else 'auto'}"
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
    use.resolve_with_cost(rec, w["card"], w["player"], w["ability"], ab, rule, optional=True)
