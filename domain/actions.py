"""The action vocabulary: what a player (or a judge for a player) may send, checked for shape only.

``parse_action`` turns a JSON object into an ``Action`` or raises ``InvalidAction`` with a sentence saying
what is wrong. Whether the rules allow it is ``decide``'s business.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from domain.errors import InvalidAction

PLAYER_VALUES = ("p1", "p2")
SIGNI_ZONE_VALUES = ("left", "center", "right")
ATTACK_ZONE_VALUES = ("left", "center", "right", "lrig")

# the fields of using a spell or a PIECE: the card, which ability, the ener paid, modes, and an extra cost
_CARD_USE = {
    "card": "card",
    "ability": "str",
    "pay": "cards",
    "modes": "list",
    "extra": "bool",
    "exceed": "cards",
}

# type -> {field: kind}; kinds: card, cards, zone, zones, attack_zone, position, bool, str, steps, from, list
ACTION_FIELDS: dict[str, dict[str, str]] = {
    "mulligan": {"cards": "cards"},
    "ener_charge": {"card": "card", "from": "from"},
    "grow": {"card": "card", "pay": "cards"},
    "grow_assist": {"card": "card", "position": "position", "pay": "cards"},
    "play_signi": {"card": "card", "zone": "zone", "under": "cards"},
    "remove_signi": {"zones": "zones"},
    "use_spell": _CARD_USE,
    "use_arts": {"card": "card", "ability": "str", "pay": "cards", "modes": "list"},
    "use_piece": _CARD_USE,
    "use_ability": {"card": "card", "ability": "str", "pay": "cards", "modes": "list"},
    "attack": {
        "zone": "attack_zone",
        "card": "card",
        "pay": "cards",
        "discard": "cards",
        "face_down": "cards",
    },
    "guard": {"card": "card", "pay": "cards", "discard": "cards"},
    "life_burst": {"card": "card", "use": "bool"},
    "discard": {"cards": "cards"},
    "choose": {"cards": "cards", "zones": "zones", "option": "str", "order": "cards"},
    "pass": {},
    "concede": {},
    "adjust": {"steps": "steps", "reason": "str"},
}
REQUIRED: dict[str, tuple[str, ...]] = {
    "mulligan": ("cards",),
    "ener_charge": ("card",),
    "grow": ("card",),
    "grow_assist": ("card", "position"),
    "play_signi": ("card", "zone"),
    "remove_signi": ("zones",),
    "use_spell": ("card",),
    "use_arts": ("card",),
    "use_piece": ("card",),
    "use_ability": ("card",),
    "attack": ("zone",),
    "life_burst": ("card", "use"),
    "discard": ("cards",),
    "adjust": ("steps", "reason"),
}
ACTION_TYPES = tuple(ACTION_FIELDS)


@dataclass(frozen=True, slots=True)
class Action:
    type: str
    player: str | None
    fields: dict[str, Any] = field(default_factory=dict)

    def get(self, name: str, default: Any = None) -> Any:
        return self.fields.get(name, default)

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"type": self.type}
        if self.player is not None:
            d["player"] = self.player
        d.update(self.fields)
        return d


def _check(kind: str, name: str, value: Any, atype: str) -> Any:
    where = f"field '{name}' of a '{atype}' action"
    if kind == "card":
        if not isinstance(value, str) or not value:
            raise InvalidAction(f"{where} must be a card reference (an instance id or a catalogue id)")
        return value
    if kind == "cards":
        if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
            raise InvalidAction(f"{where} must be a list of card references")
        return list(value)
    if kind == "zone":
        if value not in SIGNI_ZONE_VALUES:
            raise InvalidAction(f"{where} must be one of left, center, right")
        return value
    if kind == "zones":
        if not isinstance(value, list) or not all(v in SIGNI_ZONE_VALUES for v in value):
            raise InvalidAction(f"{where} must be a list of SIGNI zones (left, center, right)")
        if len(set(value)) != len(value):
            raise InvalidAction(f"{where} names a zone twice")
        return list(value)
    if kind == "attack_zone":
        if value not in ATTACK_ZONE_VALUES:
            raise InvalidAction(f"{where} must be one of left, center, right, lrig")
        return value
    if kind == "position":
        if value not in ("left", "right"):
            raise InvalidAction(f"{where} must be left or right (an assist LRIG position)")
        return value
    if kind == "from":
        if value not in ("hand", "field"):
            raise InvalidAction(f"{where} must be hand or field")
        return value
    if kind == "bool":
        if not isinstance(value, bool):
            raise InvalidAction(f"{where} must be true or false")
        return value
    if kind == "str":
        if not isinstance(value, str):
            raise InvalidAction(f"{where} must be a string")
        return value
    if kind == "list":
        if not isinstance(value, list):
            raise InvalidAction(f"{where} must be a list")
        return list(value)
    if kind == "steps":
        if not isinstance(value, list) or not value or not all(isinstance(v, dict) for v in value):
            raise InvalidAction(f"{where} must be a non-empty list of step objects")
        return [dict(v) for v in value]
    raise AssertionError(kind)


def parse_action(raw: Any) -> Action:
    """Check an action's shape: a known type, the player, the type's fields and nothing else."""
    if not isinstance(raw, dict):
        raise InvalidAction("an action must be a JSON object with at least 'type' and 'player'")
    atype = raw.get("type")
    if not isinstance(atype, str) or atype not in ACTION_FIELDS:
        known = ", ".join(ACTION_TYPES)
        raise InvalidAction(f"unknown action type {atype!r}; the action types are: {known}")
    player = raw.get("player")
    if (atype != "adjust" or player is not None) and player not in PLAYER_VALUES:
        raise InvalidAction(f"a '{atype}' action needs 'player': 'p1' or 'p2'")
    spec = ACTION_FIELDS[atype]
    unknown = sorted(set(raw) - set(spec) - {"type", "player"})
    if unknown:
        allowed = ", ".join(["type", "player", *spec]) or "type, player"
        raise InvalidAction(
            f"unknown field(s) {', '.join(unknown)} for a '{atype}' action (allowed: {allowed})"
        )
    missing = [f for f in REQUIRED.get(atype, ()) if f not in raw]
    if missing:
        raise InvalidAction(f"a '{atype}' action needs the field(s): {', '.join(missing)}")
    fields = {name: _check(kind, name, raw[name], atype) for name, kind in spec.items() if name in raw}
    return Action(atype, player, fields)
