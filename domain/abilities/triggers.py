"""Triggered abilities: what an event triggers, and the order they resolve in.

A triggered ability waits (``AbilityTriggered``) until the current effect has finished and rule processing is
done. Then the turn player's waiting abilities resolve one at a time, in the order that player chooses, then
the other player's; any they trigger in turn wait the same way.

A card that lost its abilities triggers nothing (a card that left the field is looked at as it was then); a
card that gained an ability until end of turn (``AbilityGranted``) triggers it like its own. A 1/Turn or
1/Game triggered ability triggers only while it has not been counted (``AbilityCounted``, when it resolves).

An effect can also wait for a later moment (``EffectDelayed``): the end of the attack under way, or the start
of the next turn. It waits among the triggered abilities and resolves like one once its moment has come; one
waiting for a card that left the field and came back ends (``EffectEnded``), since the card is new there.
"""

from __future__ import annotations

from typing import Any

from domain import facts
from domain.abilities import targets as tg
from domain.abilities.catalogue import abilities_of, ability_at
from domain.engine import Recorder
from domain.state import GameState

TRIGGERING = (
    "SigniPlayed",
    "SigniPutOntoField",
    "LrigGrew",
    "AttackDeclared",
    "SigniVanished",
    "StepBegan",
    "CardsMoved",
    "CardsMilled",
    "SigniRemoved",
    "SigniTrashed",
    "EnerCharged",
)


def team_ok(s: GameState, player: str, card_id: str) -> bool:
    """A Team ability is valid while the player's three LRIGs all belong to the card's team."""
    team = facts.catalogue().get(card_id).team
    lrigs = [sl for sl in s.players[player].lrig.values() if sl is not None]
    return bool(team) and len(lrigs) == 3 and all(facts.card_of(s, sl.iid).team == team for sl in lrigs)


def granted(s: GameState, iid: str) -> list[str]:
    """The abilities a card on the field gained until end of turn."""
    slot = tg._slot(s, iid)
    return [] if slot is None else [k.split(":", 1)[1] for k in slot.keywords if k.startswith("ability:")]


def abilities(s: GameState, iid: str) -> list[tuple[int | str, dict[str, Any]]]:
    """(reference, ability) of every ability the card has now: its own unless it lost them, and those it
    gained."""
    own: list[tuple[int | str, dict[str, Any]]] = []
    if not tg.lost(s, iid):
        own = list(enumerate(abilities_of(s.cards[iid])))
    return own + [(ref, ability_at(s.cards[iid], ref)) for ref in granted(s, iid)]


def left_field(s: GameState, event: Any) -> list[str]:
    """The SIGNI an event took off the field."""
    t, d = event.type, event.data
    if t in ("SigniVanished", "SigniTrashed"):
        return [d["card"]]
    if t == "SigniRemoved":
        return list(d["cards"])
    if t == "CardsMoved" and d.get("from") == "signi":
        return list(d["cards"])
    if t == "EnerCharged" and d.get("from") == "field":
        return [d["card"]]
    return []


def collect(s: GameState, event: Any) -> list[dict[str, Any]]:
    """The abilities an event (just applied to ``s``) triggers."""
    t, d = event.type, event.data
    found: list[dict[str, Any]] = []

    def add(card: str, player: str, kind: str, on: str | None = None) -> None:
        for ref, ab in abilities(s, card):
            if ab["kind"] != kind or (on is not None and ab.get("trigger", {}).get("on") != on):
                continue
            if ab.get("team") and not team_ok(s, player, s.cards[card]):
                continue
            if not tg.holds(s, player, card, ab.get("trigger", {}).get("during")):
                continue
            if ab.get("once") and _counted(s, card, ref, ab["once"], found):
                continue
            found.append({"card": card, "player": player, "ability": ref, "kind": kind})

    if (t in ("SigniPlayed", "SigniPutOntoField") and not d.get("no_enter")) or t == "LrigGrew":
        add(d["card"], d["player"], "enter")
    elif t == "AttackDeclared":
        add(d["card"], d["player"], "auto", "attack")
    elif t == "StepBegan" and d.get("step") == "pre_attack" and s.turn_player:
        tp = s.turn_player
        for _z, slot in s.players[tp].signi_slots():
            add(slot.iid, tp, "auto", "attack_phase_start")
        for slot in s.players[tp].lrig.values():
            if slot is not None:
                add(slot.iid, tp, "auto", "attack_phase_start")
    elif t == "CardsMilled" and d.get("cards") and d.get("by"):
        for _z, slot in s.players[d["by"]].signi_slots():
            add(slot.iid, d["by"], "auto", "milled")
    if t == "SigniVanished":
        add(d["card"], d["player"], "auto", "vanished")
    gone = left_field(s, event)
    for iid in gone:
        add(iid, s.owners[iid], "auto", "leaves_field")
    for owner in sorted({s.owners[i] for i in gone}):
        for _z, slot in s.players[owner].signi_slots():
            add(slot.iid, owner, "auto", "other_leaves_field")  # once, however many others left
    return found


def _counted(s: GameState, card: str, ref: int | str, once: str, found: list[dict[str, Any]]) -> bool:
    """Whether a 1/Turn or 1/Game triggered ability already triggered (this turn, or at all)."""
    used = s.used.get(f"{card}/{ref}")
    if (once == "turn" and used == s.turn) or (once == "game" and used is not None):
        return True
    return any(w["card"] == card and w["ability"] == ref for w in [*s.waiting, *found])


def after_emit(rec: Recorder, event: Any) -> None:
    """Recorder hook: what the event triggers, and what waits on it."""
    if event.type not in TRIGGERING:
        return
    if event.type == "SigniVanished":
        _vanished_to_trash(rec, event)
    if event.type in ("SigniPlayed", "SigniPutOntoField"):
        _end_waiting_for(rec, event.data["card"])
    for w in collect(rec.state, event):
        rec.emit("AbilityTriggered", "rules", f"ability.{'enter' if w['kind'] == 'enter' else 'auto'}", w)


def _vanished_to_trash(rec: Recorder, event: Any) -> None:
    """A SIGNI vanished in battle by an attacker whose constant says so goes to the trash, not the ener."""
    from domain.abilities.constants import vanishes_to_trash

    s, d = rec.state, event.data
    attacker = (s.attack or {}).get("card")
    if d.get("cause") != "battle" or attacker is None or not vanishes_to_trash(s, attacker):
        return
    rec.emit(
        "CardsMoved",
        "rules",
        "effect.vanish-to-trash",
        {"player": d["player"], "cards": [d["card"]], "to": "trash", "from": "ener", "by_effect": attacker},
    )


def _end_waiting_for(rec: Recorder, iid: str) -> None:
    """A card that comes onto the field is a new card: effects waiting to apply to it again end."""
    for w in list(rec.state.waiting):
        if w.get("kind") == "delayed" and any(
            iid in st.get("target", {}).get("cards", []) for st in w.get("effect", [])
        ):
            rec.emit(
                "EffectEnded",
                "rules",
                "effect.delayed",
                {"key": w["key"], "card": iid, "reason": "new on the field"},
            )


# -- resolving ------------------------------------------------------------------------------------


def _ready(s: GameState, w: dict[str, Any]) -> bool:
    """Whether a waiting entry may resolve now (a delayed effect waits for its moment)."""
    if w.get("kind") != "delayed":
        return True
    if w.get("until") == "turn":
        return s.turn >= int(w["turn"])
    a = s.attack
    return (
        a is None or a.get("card") != w.get("attack") or (a.get("zone") == "lrig" and bool(a.get("resolved")))
    )


def next_waiting(rec: Recorder, player: str) -> bool:
    """Resolve the player's next waiting triggered ability, or ask the order; False when none waits."""
    s = rec.state
    for w in s.waiting:  # an effect waiting for the end of an attack of a turn that ended with it
        if w["player"] == player and w.get("until") == "attack_end" and w.get("turn", s.turn) != s.turn:
            rec.emit("EffectEnded", "rules", "effect.delayed", {"key": w["key"], "reason": "the turn ended"})
            return True
    mine = [w for w in s.waiting if w["player"] == player and _ready(s, w)]
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
    return all(
        (e["card"], e["ability"], e.get("kind"))
        == (entries[0]["card"], entries[0]["ability"], entries[0].get("kind"))
        and e.get("kind") != "delayed"
        for e in entries
    )


def activate(rec: Recorder, w: dict[str, Any]) -> None:
    from domain.abilities import effects, use

    s = rec.state
    if w.get("kind") == "delayed":
        a = s.attack
        damaged = bool(
            a and a.get("card") == w.get("attack") and a.get("zone") == "lrig" and a.get("resolved")
        )
        rec.emit(
            "AbilityActivated",
            "rules",
            "effect.delayed",
            {
                "key": w["key"],
                "card": w["card"],
                "player": w["player"],
                "ability": w["ability"],
                "kind": "delayed",
            },
        )
        effects.start(
            rec,
            w["card"],
            w["player"],
            w["ability"],
            {"effect": w["effect"]},
            "effect.delayed",
            vars={"attack_damaged": damaged},
        )
        return
    ab = ability_at(s.cards[w["card"]], w["ability"])
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
    if ab.get("once"):
        rec.emit("AbilityCounted", "rules", "ability.once", {"card": w["card"], "ability": w["ability"]})
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
