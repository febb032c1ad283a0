"""What an ability may target.

A target is chosen just before its step resolves: a card that fits the filter at that moment, on the side and
in the zone the step names. A SIGNI with Shadow cannot be targeted by the opponent's abilities. A step that
names more targets than there are cannot target any; "up to" allows fewer, down to none.

Target spec: ``{"self": true}`` (this card), ``{"it": true}`` (the card or cards the step before targeted:
"down target SIGNI and freeze it"; with a ``filter``, only those that fit: "if it is a <Venom> ..."),
``{"attacker": true}`` (the SIGNI attacking now, not targeted), ``{"cause": true}`` (the card whose ability or
effect caused the trigger: "that SIGNI", noted by the trigger; not targeted), ``{"subject": true}`` (the SIGNI
the trigger's event was about: "the SIGNI that entered", noted by the trigger; not targeted; with ``zone``
``trash``, ``ener`` or ``hand``: that card, if it is in that zone of its owner's: "put that card from the
trash onto the field"),
``{"marker_zone": true}`` (the SIGNI in the SIGNI zone of the marker whose ability this is; not targeted), or
``{"side": "opponent" | "you", "zone": "signi" | "trash" | "ener" | "hand" | "lrig" | "under", "count": 1,
"up_to": false, "another": false, "all": false, "distinct": "class", "filter": {...}}``. ``all`` names every
card that fits, without targeting (Shadow does not protect from it);
``chooser: "opponent"``: the opponent chooses the cards (not a target: Shadow does not protect);
``distinct: "class"`` (or ``"level"``, ``"color"``) asks for cards of pairwise different classes (levels, or
sharing no colour), ``shared:
"color"`` (``"class"``) for cards that all share a colour (a class), ``level_total_max: n`` for cards whose
levels total n or less
(``"opponent_center"``: no more than the level of the opponent's center LRIG), ``total_level``: cards whose
levels total exactly that (a number, or ``filters.NOTED_CARDS``: the total of the SIGNI an earlier step took;
``count``: no more cards than that), chosen one at a time.
Filters (which cards fit) live in ``filters``, and the conditions abilities check in ``conditions``; both are
named here too, for the modules that read them through this one. Zone ``field`` names SIGNI and LRIG on that
side's field; zone ``under`` names the cards lying under that side's SIGNI (a [Soul] is attached, not
under), with ``above``: a filter the SIGNI on top of the card must fit, ``of: "self"``: only the cards under
this card, ``of: "face_down"``: the cards under that side's face-down cards instead; zone ``face_down`` names
the face-down cards in that side's SIGNI zones (rule face-down.signi: no SIGNI, so no filter fits one; with
``all`` only), for "every card in the SIGNI zones". ``{"self": true, "zone": "ener"}``
(or trash, hand) names this card in that zone of its owner.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from domain import facts
from domain.abilities import measures as ms
from domain.abilities.conditions import CONDITIONS, condition_problems, condition_text, holds
from domain.abilities.filters import (
    FILTER_KEYS,
    LOST,
    LRIG_COLOR_WHICH,
    NOTED_CARDS,
    Filter,
    card_fits,
    class_kinds,
    distinct_classes,
    filter_text,
    lost,
    noted_cards_text,
    on_field,
    shadow_blocks,
    shadow_qualifier,
    shadow_text,
    shares_center_color,
    shares_lrig_color,
    side_of,
    slot_fits,
    slot_of,
)
from domain.cards import Card
from domain.state import GameState, facing

__all__ = [
    "CONDITIONS",
    "FILTER_KEYS",
    "LOST",
    "LRIG_COLOR_WHICH",
    "NOTED_CARDS",
    "ZONES",
    "Filter",
    "candidates",
    "card_fits",
    "class_kinds",
    "condition_problems",
    "condition_text",
    "distinct_classes",
    "filter_text",
    "holds",
    "lost",
    "on_field",
    "shadow_qualifier",
    "shadow_text",
    "shares_center_color",
    "shares_lrig_color",
    "side_of",
    "slot_fits",
    "slot_of",
    "still_fits",
    "target_text",
]

ZONES = (
    *("signi", "trash", "ener", "hand", "lrig", "field", "lrig_deck", "life_cloth", "under", "check"),
    "face_down",
)
UNDER_OF = ("self", "face_down")  # what the cards of zone ``under`` lie under: this card, face-down cards

# the names the rest of the abilities used before the filters had a module of their own
_card_fits = card_fits
_slot = slot_of
_on_field = on_field


def _referred(s: GameState, iid: str, owner: str, controller: str) -> Card:
    """A card of a pile zone as an effect of ``controller`` refers to it: what its owner's effects may treat
    it as (``Card.also``) is not for the opponent's effects."""
    card = facts.card_of(s, iid)
    return card if card.also is None or owner == controller else replace(card, also=None)


def candidates(s: GameState, controller: str, source: str, spec: dict[str, Any]) -> list[str]:
    """The cards a target spec may name now, in zone order."""
    if spec.get("self"):
        zone = spec.get("zone")
        if zone in ("trash", "ener", "hand"):  # this card, in that zone of its owner ("from your ener zone")
            return [source] if source in s.players[s.owners[source]].zones[zone] else []
        return [source] if on_field(s, source) else []
    if spec.get("it") or spec.get("cause") or spec.get("subject") or spec.get("marker_zone"):
        return []  # resolved from the step before, or from what the trigger noted (see effects)
    if spec.get("attacker"):  # the SIGNI attacking now
        card = (s.attack or {}).get("card")
        return [card] if card is not None and on_field(s, card) else []
    if "cards" in spec:  # named instances (an effect that goes on later): those still on the field
        return [i for i in spec["cards"] if on_field(s, i)]
    if spec.get("side") == "any":  # either field: yours first
        return [
            i
            for side in ("you", "opponent")
            for i in candidates(s, controller, source, {**spec, "side": side})
        ]
    if spec.get("zone") == "field":  # SIGNI and LRIG of that side
        return [
            *candidates(s, controller, source, {**spec, "zone": "signi"}),
            *candidates(s, controller, source, {**spec, "zone": "lrig"}),
        ]
    owner = side_of(controller, spec.get("side", "opponent"))
    zone = spec.get("zone", "signi")
    f: Filter = spec.get("filter", {})
    if "level_max_measure" in f:  # "a level no more than the number of ...": the measure as it is now
        top = ms.value(ms.Ctx(s, controller, source, {}), f["level_max_measure"]) or 0
        f = {**{k: v for k, v in f.items() if k != "level_max_measure"}, "level_max": top}
    if zone == "signi":
        # a card the opponent chooses ("chooser": "opponent") is not targeted: Shadow does not keep it out
        chosen_by_owner = spec.get("chooser") == "opponent" and owner != controller
        targeted = owner != controller and not spec.get("all") and not chosen_by_owner
        out = _signi(s, owner, f, shadow=source if targeted else None)
    elif zone == "lrig":
        out = _lrigs(s, owner, f)
    elif zone == "under" and spec.get("of") == "face_down":
        out = [u for _z, e in s.players[owner].face_down_cards() for u in e["under"]]
        out = [u for u in out if card_fits(facts.card_of(s, u), f)]
    elif zone == "under":
        out = _under(s, owner, f, spec.get("above", {}), source if spec.get("of") == "self" else None)
    elif zone == "face_down":  # a face-down card is no SIGNI: nothing of it fits a filter
        out = [] if f else [e["iid"] for _z, e in s.players[owner].face_down_cards()]
    else:
        out = [
            iid
            for iid in s.players[owner].zones[zone]
            if card_fits(_referred(s, iid, owner, controller), f)
            and _printed_power_fits(facts.card_of(s, iid), f)
        ]
    if spec.get("another"):
        out = [i for i in out if i != source]
    if "shares_center_color" in f:
        out = [i for i in out if shares_center_color(s, owner, i) == f["shares_center_color"]]
    if "shares_lrig_color" in f:
        out = [i for i in out if shares_lrig_color(s, owner, i, f["shares_lrig_color"])]
    if f.get("shares_class_with_yours"):  # a class in common with a SIGNI on the controller's field
        yours = {
            k for _z, sl in s.players[controller].signi_slots() for k in class_kinds(facts.card_of(s, sl.iid))
        }
        out = [i for i in out if class_kinds(facts.card_of(s, i)) & yours]
    if "rise" in f:  # the card has Rise (the Rise icon)
        out = [i for i in out if has_rise(s, i) == f["rise"]]
    if f.get("power_max_self"):  # power no more than this card's own (as it is now)
        mine = _power_of(s, source)
        out = [i for i in out if _power_of(s, i) <= mine]
    if f.get("was_under_self"):  # under this SIGNI as it last left the field (the turn's tally noted them)
        from domain import tally

        was = (tally.last_known(s, source) or {}).get("under", [])
        out = [i for i in out if i in was]
    if f.get("level_max_self"):  # a level no higher than this card's own (as it is now)
        out = [i for i in out if facts.level(s, i) <= facts.level(s, source)]
    if (f.get("highest_power") or f.get("lowest_power")) and zone == "signi":  # among that side's SIGNI
        powers = {sl.iid: facts.power(s, sl) for _z, sl in s.players[owner].signi_slots()}
        pick = max if f.get("highest_power") else min  # the highest (or lowest) power there; ties: all
        top = pick(powers.values(), default=0)
        out = [i for i in out if powers.get(i) == top]
    if f.get("in_front"):  # the SIGNI in the zone in front of this card's (none when it is not a SIGNI there)
        here = (s.players[s.owners[source]].find(source) or "").split(":")
        front = s.players[owner].signi.get(facing(here[1])) if here[0] == "signi" else None
        out = [i for i in out if front is not None and i == front.iid]
    return out


def _printed_power_fits(card: Card, f: Filter) -> bool:
    """A card off the field has its printed power: ``power_max`` / ``power_min`` read it there."""
    power = int(card.power or 0)
    too_high = "power_max" in f and power > f["power_max"]
    return not (too_high or ("power_min" in f and power < f["power_min"]))


def _power_of(s: GameState, iid: str) -> int:
    """A card's power: as it is now on the field, else as printed."""
    slot = _slot(s, iid)
    return facts.power(s, slot) if slot is not None else int(facts.card_of(s, iid).power or 0)


def _signi(s: GameState, owner: str, f: Filter, shadow: str | None) -> list[str]:
    """The owner's SIGNI that fit; with ``shadow`` (the opponent's card whose ability targets), not those
    whose Shadow, plain or qualified, protects them from it."""
    return [
        slot.iid
        for z, slot in s.players[owner].signi_slots()
        if slot_fits(s, slot, z, f) and not (shadow and shadow_blocks(s, facts.keywords(s, slot), shadow))
    ]


def _under(s: GameState, owner: str, f: Filter, above: Filter, only: str | None) -> list[str]:
    """The cards lying under the owner's SIGNI that fit (a [Soul] is attached, not lying under), under a SIGNI
    that fits ``above`` ("a card under a SIGNI of yours with Rise"); ``only``: under that SIGNI alone."""
    return [
        u
        for z, slot in s.players[owner].signi_slots()
        if slot_fits(s, slot, z, above)
        and only in (None, slot.iid)
        and ("rise" not in above or has_rise(s, slot.iid) == above["rise"])
        for u in slot.under
        if not facts.card_of(s, u).is_lrig_deck_card and card_fits(facts.card_of(s, u), f)
    ]


def has_rise(s: GameState, iid: str) -> bool:
    """Whether the card has Rise (the Rise icon): a rise ability among its encoded ones."""
    from domain.abilities.catalogue import rise_filter

    return rise_filter(s.cards[iid]) is not None


def _lrigs(s: GameState, owner: str, f: Filter) -> list[str]:
    """The owner's LRIGs that fit (their level as it is now, upped, frozen; ``position``: center, left,
    right)."""
    out: list[str] = []
    for pos, slot in s.players[owner].lrig.items():
        if slot is None or not card_fits(facts.card_of(s, slot.iid), f):
            continue
        if "position" in f and pos not in f["position"]:
            continue
        if "level" in f and facts.level(s, slot.iid) != f["level"]:
            continue
        if ("upped" in f and (not slot.downed) != f["upped"]) or (
            "frozen" in f and slot.frozen != f["frozen"]
        ):
            continue
        out.append(slot.iid)
    return out


def still_fits(s: GameState, controller: str, source: str, spec: dict[str, Any], iid: str) -> bool:
    """A chosen target that no longer fits (it moved, or changed) is not affected."""
    return iid in candidates(s, controller, source, spec)


def up_to_text(spec: dict[str, Any]) -> str:
    return "up to " if spec.get("up_to") else ""


def target_text(spec: dict[str, Any]) -> str:
    if spec.get("self"):
        where = spec.get("zone")
        return "this card" + (f" in your {where}" if where in ("trash", "ener", "hand") else "")
    if spec.get("it"):
        f = spec.get("filter")
        return f"it (if it is {filter_text(f).strip().strip('()')})" if f else "it"
    if spec.get("facing"):
        return "the opponent's SIGNI in front of it"
    if spec.get("next_to"):
        return "each SIGNI of yours next to it"
    if spec.get("attacker"):
        return "the LRIG that attacked" if spec.get("zone") == "lrig" else "the attacking SIGNI"
    if spec.get("cause"):
        return "that card (whose ability or effect caused this)"
    if spec.get("subject"):
        where = spec.get("zone")
        if where in ("trash", "ener", "hand"):  # the card the trigger was about, now in that zone
            return f"that card (the one the trigger was about) from the {where}"
        return "that SIGNI (the one the trigger was about)"
    if spec.get("marker_zone"):
        return "the SIGNI in this marker's zone"
    n = spec.get("count", 1)
    n = "as many as the cards moved this way:" if n == "moved" else n
    side = {"you": "your", "any": "either"}.get(spec.get("side", "opponent"), "the opponent's")
    zone_name = spec.get("zone", "signi")
    f = dict(spec.get("filter", {}))
    kind = f.pop("type", None)
    if zone_name == "lrig":
        what = "LRIG"
    elif zone_name == "field":
        what = "SIGNI or LRIG"
    elif kind == "spell":
        what = "spell"
    elif zone_name == "signi" or kind == "signi":
        what = "SIGNI"
    else:
        what = "card" if kind is None else kind
    if zone_name == "face_down":
        return f"every face-down card in {side} SIGNI zones"
    if zone_name == "under":
        above = filter_text(spec.get("above", {}))
        where = "this SIGNI" if spec.get("of") == "self" else f"a SIGNI {above} in {side} field"
        if spec.get("of") == "face_down":
            where = f"a face-down card in {side} SIGNI zones"
        text = f"{up_to_text(spec)}{n} target {what} {filter_text(f)} under {where}"
        return text.replace("  ", " ")
    zone = {"signi": "field", "lrig": "field", "field": "field", "life_cloth": "Life Cloth"}.get(
        zone_name, str(zone_name).replace("_", " ")
    )
    up_to = "up to " if spec.get("up_to") else ""
    other = "another " if spec.get("another") else ""
    if spec.get("chooser") == "opponent":
        return f"{up_to}{n} {what} {filter_text(f)} in {side} {zone}, chosen by the opponent".replace(
            "  ", " "
        )
    distinct = {
        "class": " with different classes",
        "level": " with different levels",
        "color": " sharing no colour with each other",
    }.get(
        str(spec.get("distinct")),
        {"color": " that share a colour", "class": " that share a class"}.get(str(spec.get("shared")), ""),
    )
    if spec.get("level_total_max") == "opponent_center":
        distinct += " of total level no more than the opponent's center LRIG's level"
    elif "level_total_max" in spec:
        distinct += f" with levels totalling {spec['level_total_max']} or less"
    if "total_level" in spec:
        total = spec["total_level"]
        if isinstance(total, str):
            total = f"the total level of the SIGNI among {noted_cards_text(total)}"
        most = f"up to {n} " if "count" in spec else ""
        text = f"{most}cards {filter_text(f)} with levels totalling {total} in {side} {zone}"
        return text.replace("  ", " ")
    attacking = "attacking " if spec.get("attacking") else ""
    if spec.get("all"):
        front = (
            f" in front of a SIGNI {filter_text(spec['in_front_of'])} of yours"
            if "in_front_of" in spec
            else ""
        )
        return f"every {other}{attacking}{what} {filter_text(f)} in {side} {zone}{front}".replace("  ", " ")
    return (
        f"{up_to}{n} {other}target {attacking}{what}{distinct} {filter_text(f)} in {side} {zone}"
    ).replace("  ", " ")
