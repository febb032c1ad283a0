"""What an ability may target, and the conditions abilities check.

A target is chosen just before its step resolves: a card that fits the filter at that moment, on the side and
in the zone the step names. A SIGNI with Shadow cannot be targeted by the opponent's abilities. A step that
names more targets than there are cannot target any; "up to" allows fewer, down to none.

Target spec: ``{"self": true}`` (this card) or ``{"side": "opponent" | "you", "zone": "signi" | "trash" |
"ener" | "hand" | "lrig", "count": 1, "up_to": false, "another": false, "filter": {...}}``.
Filter keys: ``power_max``, ``power_min``, ``level``, ``level_max``, ``level_min``, ``upped``, ``class``,
``color``, ``colors_any``, ``type``, ``guard``, ``card`` (a list of catalogue ids), ``position``.
"""

from __future__ import annotations

from typing import Any

from domain import facts
from domain.cards import Card
from domain.state import GameState, Slot, opponent

FILTER_KEYS = (
    "power_max",
    "power_min",
    "level",
    "level_max",
    "level_min",
    "upped",
    "class",
    "color",
    "colors_any",
    "type",
    "guard",
    "card",
    "position",
)
ZONES = ("signi", "trash", "ener", "hand", "lrig")
CONDITIONS = (
    "team_lrigs",
    "signi",
    "count",
    "your_turn",
    "ener_classes",
    "hand_lead",
    "self_power",
    "team_level",
    "position",
    "under_at_least",
    "lrig_level",
)


def side_of(controller: str, side: str) -> str:
    return controller if side == "you" else opponent(controller)


def _card_fits(card: Card, f: dict[str, Any]) -> bool:
    if "type" in f and card.type.value != f["type"]:
        return False
    if "level" in f and (card.level or 0) != f["level"]:
        return False
    if "level_max" in f and (card.level or 0) > f["level_max"]:
        return False
    if "level_min" in f and (card.level or 0) < f["level_min"]:
        return False
    if "class" in f and f["class"] not in card.classes:
        return False
    if "color" in f and f["color"] not in card.colors:
        return False
    if "colors_any" in f and not set(f["colors_any"]) & set(card.colors):
        return False
    if "guard" in f and card.guard != f["guard"]:
        return False
    return not ("card" in f and card.id not in f["card"])


def slot_fits(s: GameState, slot: Slot, zone: str, f: dict[str, Any]) -> bool:
    card = facts.card_of(s, slot.iid)
    if not _card_fits(card, f):
        return False
    power = facts.power(s, slot)
    if "power_max" in f and power > f["power_max"]:
        return False
    if "power_min" in f and power < f["power_min"]:
        return False
    if "upped" in f and (not slot.downed) != f["upped"]:
        return False
    return not ("position" in f and zone not in f["position"])


def candidates(s: GameState, controller: str, source: str, spec: dict[str, Any]) -> list[str]:
    """The cards a target spec may name now, in zone order."""
    if spec.get("self"):
        return [source] if _on_field(s, source) else []
    owner = side_of(controller, spec.get("side", "opponent"))
    ps = s.players[owner]
    zone = spec.get("zone", "signi")
    f = spec.get("filter", {})
    out: list[str] = []
    if zone == "signi":
        for z, slot in ps.signi_slots():
            if not slot_fits(s, slot, z, f):
                continue
            if owner != controller and "shadow" in facts.keywords(s, slot):
                continue  # Shadow: the opponent's abilities cannot target it
            out.append(slot.iid)
    elif zone == "lrig":
        for slot in ps.lrig.values():
            if slot is not None and _card_fits(facts.card_of(s, slot.iid), f):
                if "level" in f and facts.level(s, slot.iid) != f["level"]:
                    continue
                out.append(slot.iid)
    else:
        out = [iid for iid in ps.zones[zone] if _card_fits(facts.card_of(s, iid), f)]
    if spec.get("another"):
        out = [i for i in out if i != source]
    return out


def _on_field(s: GameState, iid: str) -> bool:
    where = s.where(iid)
    return where is not None and where[1].startswith(("signi:", "lrig:"))


def still_fits(s: GameState, controller: str, source: str, spec: dict[str, Any], iid: str) -> bool:
    """A chosen target that no longer fits (it moved, or changed) is not affected."""
    return iid in candidates(s, controller, source, spec)


# -- conditions -----------------------------------------------------------------------------------


def holds(s: GameState, controller: str, source: str, cond: dict[str, Any] | None) -> bool:
    """Whether every part of a condition holds for the ability of ``source`` controlled by ``controller``."""
    if not cond:
        return True
    ps = s.players[controller]
    for key, want in cond.items():
        if key == "team_lrigs":  # {"team": name (default: the card's own team), "count": n}
            team = want.get("team") or facts.card_of(s, source).team
            n = sum(1 for sl in ps.lrig.values() if sl and team and facts.card_of(s, sl.iid).team == team)
            if n < int(want.get("count", 3)):
                return False
        elif key == "team_level":  # all three LRIGs of the card's team, each at least this level
            team = facts.card_of(s, source).team
            lrigs = [sl for sl in ps.lrig.values() if sl is not None]
            if len(lrigs) < 3 or not all(facts.card_of(s, sl.iid).team == team for sl in lrigs):
                return False
            if not all(facts.level(s, sl.iid) >= want for sl in lrigs):
                return False
        elif key == "signi":
            side = side_of(controller, want.get("side", "you"))
            n = sum(
                1 for z, sl in s.players[side].signi_slots() if slot_fits(s, sl, z, want.get("filter", {}))
            )
            if n < want.get("at_least", 1):
                return False
        elif key == "count":
            side = side_of(controller, want.get("side", "you"))
            zone = want["zone"]
            n = sum(
                1
                for iid in s.players[side].zones[zone]
                if _card_fits(facts.card_of(s, iid), want.get("filter", {}))
            )
            if n < want.get("at_least", 1):
                return False
        elif key == "your_turn":
            if (s.turn_player == controller) != want:
                return False
        elif key == "ener_classes":
            classes = {
                c
                for iid in ps.zones["ener"]
                for c in facts.card_of(s, iid).classes
                if facts.card_of(s, iid).is_signi
            }
            if len(classes) < want:
                return False
        elif key == "hand_lead":
            if len(ps.zones["hand"]) - len(s.players[opponent(controller)].zones["hand"]) < want:
                return False
        elif key == "self_power":
            where = s.where(source)
            slot = _slot(s, source)
            if where is None or slot is None or facts.power(s, slot) < want:
                return False
        elif key == "position":
            where = s.where(source)
            if where is None or where[1].split(":")[-1] not in want:
                return False
        elif key == "under_at_least":
            slot = _slot(s, source)
            if slot is None or len(slot.under) < want:
                return False
        elif key == "lrig_level":
            if facts.center_level(s, controller) < want:
                return False
        else:
            raise ValueError(f"unknown condition {key!r}")
    return True


def _slot(s: GameState, iid: str) -> Slot | None:
    owner = s.owners.get(iid)
    if owner is None:
        return None
    ps = s.players[owner]
    for sl in [*ps.signi.values(), *ps.lrig.values()]:
        if sl is not None and sl.iid == iid:
            return sl
    return None


def condition_problems(cond: dict[str, Any]) -> list[str]:
    return [f"unknown condition {k!r}" for k in cond if k not in CONDITIONS]


def condition_text(cond: dict[str, Any]) -> str:
    parts = []
    for k, v in cond.items():
        if k == "team_lrigs":
            parts.append(f"{v.get('count', 3)} LRIGs of {v.get('team') or 'its team'} are on your field")
        elif k == "team_level":
            parts.append(f"your three LRIGs are all of its team and of level {v} or more")
        elif k == "signi":
            parts.append(
                f"{v.get('at_least', 1)}+ SIGNI {filter_text(v.get('filter', {}))} on "
                f"{'your' if v.get('side', 'you') == 'you' else 'the opponent' + chr(39) + 's'} field"
            )
        elif k == "count":
            parts.append(
                f"{v.get('at_least', 1)}+ cards {filter_text(v.get('filter', {}))} in your {v['zone']}"
            )
        elif k == "your_turn":
            parts.append("it is your turn" if v else "it is the opponent's turn")
        elif k == "ener_classes":
            parts.append(f"SIGNI of {v}+ classes in your ener zone")
        elif k == "hand_lead":
            parts.append(f"you hold {v}+ more cards than the opponent")
        elif k == "self_power":
            parts.append(f"its power is {v}+")
        elif k == "position":
            parts.append(f"it is in your {'/'.join(v)} zone")
        elif k == "under_at_least":
            parts.append(f"{v}+ cards are under it")
        elif k == "lrig_level":
            parts.append(f"your center LRIG is level {v}+")
    return " and ".join(parts)


def filter_text(f: dict[str, Any]) -> str:
    bits = []
    for k, v in f.items():
        if k == "power_max":
            bits.append(f"power {v} or less")
        elif k == "power_min":
            bits.append(f"power {v} or more")
        elif k == "level":
            bits.append(f"level {v}")
        elif k == "level_max":
            bits.append(f"level {v} or less")
        elif k == "level_min":
            bits.append(f"level {v} or more")
        elif k == "upped":
            bits.append("upped" if v else "downed")
        elif k == "class":
            bits.append(f"<{v}>")
        elif k in ("color", "colors_any"):
            bits.append("/".join(v) if isinstance(v, list) else v)
        elif k == "type":
            bits.append(v)
        elif k == "guard":
            bits.append("with Guard" if v else "without Guard")
        elif k == "card":
            bits.append("named " + " or ".join(v))
        elif k == "position":
            bits.append("in the " + "/".join(v) + " zone")
    return ("(" + ", ".join(bits) + ")") if bits else ""


def target_text(spec: dict[str, Any]) -> str:
    if spec.get("self"):
        return "this card"
    n = spec.get("count", 1)
    side = "your" if spec.get("side", "opponent") == "you" else "the opponent's"
    what = "SIGNI" if spec.get("zone", "signi") in ("signi", "trash", "ener", "hand") else "LRIG"
    zone = {"signi": "field", "lrig": "field"}.get(spec.get("zone", "signi"), spec.get("zone", "signi"))
    up_to = "up to " if spec.get("up_to") else ""
    other = "another " if spec.get("another") else ""
    return f"{up_to}{n} {other}target {what} {filter_text(spec.get('filter', {}))} in {side} {zone}".replace(
        "  ", " "
    )
