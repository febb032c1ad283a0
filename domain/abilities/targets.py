"""What an ability may target, and the conditions abilities check.

A target is chosen just before its step resolves: a card that fits the filter at that moment, on the side and
in the zone the step names. A SIGNI with Shadow cannot be targeted by the opponent's abilities. A step that
names more targets than there are cannot target any; "up to" allows fewer, down to none.

Target spec: ``{"self": true}`` (this card), ``{"it": true}`` (the card or cards the step before targeted:
"down target SIGNI and freeze it"), or ``{"side": "opponent" | "you", "zone": "signi" | "trash" | "ener" |
"hand" | "lrig", "count": 1, "up_to": false, "another": false, "all": false, "distinct": "class",
"filter": {...}}``. ``all`` names every card that fits, without targeting (Shadow does not protect from it);
``distinct: "class"`` asks for cards of pairwise different classes (chosen one at a time).
Filter keys: ``power_max``, ``power_min``, ``level``, ``level_max``, ``level_min``, ``upped``, ``frozen``,
``class``, ``color``, ``colors_any``, ``type``, ``guard``, ``card`` (a list of catalogue ids), ``position``,
``shares_center_color`` (whether the card shares a colour with its owner's center LRIG), ``team``,
``any_of`` (a list of filters: it fits one of them), ``level_max_self`` (level at most this card's),
``power_below: moved`` (less power than the SIGNI the effect just put onto the field; set when chosen). Zone
``field`` names SIGNI and LRIG on that side's field.

Classes are printed as a general class and a sub-class ("Performer" and "Space"); two SIGNI share a class when
they share a sub-class (``class_kinds``).

Conditions (``CONDITIONS``), besides those about the board and the team: ``lrig_colors`` (an LRIG of each
colour, each a different LRIG), ``phase``, ``front`` (the SIGNI in front of this one fits a filter), and two
that read what the effect in progress noted: ``moved_share_class`` (whether the cards it just moved share a
class) and ``attack_damaged`` (whether the LRIG attack it waited for dealt damage), ``discarded_at_least``,
``moved_at_least`` and ``paid_colors`` (the colours among the ener cards its optional cost was paid with),
``did`` (whether the step just before moved any card: "if you do"); ``discarded_this_turn`` (a flag of the
turn); ``revealed`` (the card the effect last revealed fits a filter); ``extra_paid`` (whether the spell's or
PIECE's extra cost was paid as it was used); ``awakened`` (this SIGNI is awakened, or was when it left the
field). ``{"self": true, "zone": "ener"}`` (or trash, hand) names this card in that zone of its owner.
"""

from __future__ import annotations

from typing import Any

from domain import facts
from domain.cards import Card
from domain.state import GameState, Slot, facing, opponent

FILTER_KEYS = (
    "power_max",
    "power_min",
    "level",
    "level_max",
    "level_min",
    "upped",
    "frozen",
    "class",
    "color",
    "colors_any",
    "type",
    "guard",
    "card",
    "position",
    "shares_center_color",
    "power_below",
    "team",
    "any_of",
    "level_max_self",
)
ZONES = ("signi", "trash", "ener", "hand", "lrig", "field", "lrig_deck")
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
    "lrig_colors",
    "phase",
    "front",
    "moved_share_class",
    "extra_paid",
    "awakened",
    "attack_damaged",
    "opponent_lrig_level",
    "lrig_color_count",
    "attacker_front_empty",
    "all_signi",
    "discarded_at_least",
    "moved_at_least",
    "paid_colors",
    "did",
    "discarded_this_turn",
    "revealed",
)
LOST = "lost_abilities"  # state.flags key: the SIGNI that lost their abilities this turn


def side_of(controller: str, side: str) -> str:
    return controller if side == "you" else opponent(controller)


def class_kinds(card: Card) -> frozenset[str]:
    """The classes that tell SIGNI apart: the sub-classes after the general class, when it is printed."""
    return frozenset(card.classes[1:] if len(card.classes) > 1 else card.classes)


def distinct_classes(cards: list[Card]) -> bool:
    """Whether no two of the cards share a class (a card without a class shares none)."""
    seen: set[str] = set()
    for card in cards:
        kinds = class_kinds(card)
        if kinds & seen:
            return False
        seen |= kinds
    return True


def lost(s: GameState, iid: str) -> bool:
    """Whether the card lost its abilities this turn while on the field (so they neither apply nor trigger).
    A card that left the field is looked at as it was when it left."""
    slot = _slot(s, iid)
    if slot is not None:
        return "no_abilities" in slot.keywords
    return iid in s.flags.get(LOST, ())


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
    if "team" in f and card.team != f["team"]:
        return False
    if "any_of" in f and not any(_card_fits(card, g) for g in f["any_of"]):
        return False
    return not ("card" in f and card.id not in f["card"])


def slot_fits(s: GameState, slot: Slot, zone: str, f: dict[str, Any]) -> bool:
    card = facts.card_of(s, slot.iid)
    if not _card_fits(card, f):
        return False
    if "power_max" in f or "power_min" in f:  # asked only then: a constant's condition about SIGNI would loop
        power = facts.power(s, slot)
        if "power_max" in f and power > f["power_max"]:
            return False
        if "power_min" in f and power < f["power_min"]:
            return False
    if "upped" in f and (not slot.downed) != f["upped"]:
        return False
    if "frozen" in f and slot.frozen != f["frozen"]:
        return False
    return not ("position" in f and zone not in f["position"])


def candidates(s: GameState, controller: str, source: str, spec: dict[str, Any]) -> list[str]:
    """The cards a target spec may name now, in zone order."""
    if spec.get("self"):
        zone = spec.get("zone")
        if zone in ("trash", "ener", "hand"):  # this card, in that zone of its owner ("from your ener zone")
            return [source] if source in s.players[s.owners[source]].zones[zone] else []
        return [source] if _on_field(s, source) else []
    if spec.get("it"):
        return []  # resolved from the step before (see effects)
    if "cards" in spec:  # named instances (an effect that goes on later): those still on the field
        return [i for i in spec["cards"] if _on_field(s, i)]
    if spec.get("side") == "any":  # either field: yours first
        out = []
        for side in ("you", "opponent"):
            out += candidates(s, controller, source, {**spec, "side": side})
        return out
    if spec.get("zone") == "field":  # SIGNI and LRIG of that side
        return [
            *candidates(s, controller, source, {**spec, "zone": "signi"}),
            *candidates(s, controller, source, {**spec, "zone": "lrig"}),
        ]
    owner = side_of(controller, spec.get("side", "opponent"))
    ps = s.players[owner]
    zone = spec.get("zone", "signi")
    f = spec.get("filter", {})
    out: list[str] = []
    if zone == "signi":
        for z, slot in ps.signi_slots():
            if not slot_fits(s, slot, z, f):
                continue
            if owner != controller and not spec.get("all") and "shadow" in facts.keywords(s, slot):
                continue  # Shadow: the opponent's abilities cannot target it
            out.append(slot.iid)
    elif zone == "lrig":
        for slot in ps.lrig.values():
            if slot is not None and _card_fits(facts.card_of(s, slot.iid), f):
                if "level" in f and facts.level(s, slot.iid) != f["level"]:
                    continue
                if "upped" in f and (not slot.downed) != f["upped"]:
                    continue
                if "frozen" in f and slot.frozen != f["frozen"]:
                    continue
                out.append(slot.iid)
    else:
        out = [iid for iid in ps.zones[zone] if _card_fits(facts.card_of(s, iid), f)]
    if spec.get("another"):
        out = [i for i in out if i != source]
    if "shares_center_color" in f:
        out = [i for i in out if shares_center_color(s, owner, i) == f["shares_center_color"]]
    if f.get("level_max_self"):  # a level no higher than this card's own (as it is now)
        out = [i for i in out if facts.level(s, i) <= facts.level(s, source)]
    return out


def shares_center_color(s: GameState, owner: str, iid: str) -> bool:
    """Whether a card shares a colour with the center LRIG of ``owner`` (colourless is no colour)."""
    center = s.players[owner].lrig["center"]
    if center is None:
        return False
    colors = set(facts.card_of(s, center.iid).colors) - {"colorless"}
    return bool(colors & set(facts.card_of(s, iid).colors))


def _on_field(s: GameState, iid: str) -> bool:
    where = s.where(iid)
    return where is not None and where[1].startswith(("signi:", "lrig:"))


def still_fits(s: GameState, controller: str, source: str, spec: dict[str, Any], iid: str) -> bool:
    """A chosen target that no longer fits (it moved, or changed) is not affected."""
    return iid in candidates(s, controller, source, spec)


# -- conditions -----------------------------------------------------------------------------------


def holds(
    s: GameState,
    controller: str,
    source: str,
    cond: dict[str, Any] | None,
    vars: dict[str, Any] | None = None,
) -> bool:
    """Whether every part of a condition holds for the ability of ``source`` controlled by ``controller``;
    ``vars`` are what the effect in progress noted (the cards it moved, whether the attack dealt damage)."""
    if not cond:
        return True
    vars = vars or {}
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
            if n < want.get("at_least", 1) or n > want.get("at_most", n):
                return False
        elif key == "your_turn":
            if (s.turn_player == controller) != want:
                return False
        elif key == "ener_classes":
            classes = {
                c
                for iid in ps.zones["ener"]
                if facts.card_of(s, iid).is_signi
                for c in class_kinds(facts.card_of(s, iid))
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
        elif key == "lrig_colors":  # one LRIG of each colour, each a different LRIG
            lrigs = [facts.card_of(s, sl.iid).colors for sl in ps.lrig.values() if sl is not None]
            if not _one_each(list(want), lrigs):
                return False
        elif key == "phase":
            if s.phase not in ([want] if isinstance(want, str) else want):
                return False
        elif key == "front":  # the opponent's SIGNI in front of this SIGNI exists and fits the filter
            where = s.where(source)
            if where is None or not where[1].startswith("signi:"):
                return False
            zone = facing(where[1].split(":")[1])
            front = s.players[opponent(where[0])].signi[zone]
            if front is None or not slot_fits(s, front, zone, want):
                return False
        elif key == "moved_share_class":  # the cards the effect just moved share a class (or not)
            cards = [facts.card_of(s, i) for i in vars.get("moved", [])]
            if len(cards) < 2 or (not distinct_classes(cards)) != want:
                return False
        elif key == "awakened":  # this SIGNI is awakened (one that left the field: as it was then)
            slot = _slot(s, source)
            was = slot.awakened if slot is not None else source in s.flags.get("left_awakened", ())
            if was != want:
                return False
        elif key == "extra_paid":  # whether the extra cost (Bet, an optional Exceed) was paid as it was used
            if bool(vars.get("extra_paid")) != want:
                return False
        elif key == "attack_damaged":  # whether the attack this waited for dealt damage to the opponent
            if bool(vars.get("attack_damaged")) != want:
                return False
        elif key == "opponent_lrig_level":
            if facts.center_level(s, opponent(controller)) < want:
                return False
        elif key == "attacker_front_empty":  # an opponent's SIGNI attacks, your zone in front of it empty
            a = s.attack
            if a is None or a["player"] == controller or a["zone"] == "lrig":
                return False
            if (ps.signi[facing(a["zone"])] is None) != want:
                return False
        elif key == "lrig_color_count":  # three LRIGs with this many colours among them (Dream Team)
            lrigs = [sl for sl in ps.lrig.values() if sl is not None]
            colors = {c for sl in lrigs for c in facts.card_of(s, sl.iid).colors} - {"colorless"}
            if len(lrigs) < 3 or len(colors) < want:
                return False
        elif key == "all_signi":  # every SIGNI on that side's field fits the filter (none: it holds)
            side = side_of(controller, want.get("side", "you"))
            if not all(
                slot_fits(s, sl, z, want.get("filter", {})) for z, sl in s.players[side].signi_slots()
            ):
                return False
        elif key == "discarded_at_least":  # the effect in progress discarded this many cards or more
            if int(vars.get("discarded", 0)) < want:
                return False
        elif key == "moved_at_least":  # the effect's last move took this many cards or more
            if len(vars.get("moved", [])) < want:
                return False
        elif key == "revealed":  # the card the effect last revealed fits the filter
            if "revealed" not in vars or not _card_fits(facts.card_of(s, vars["revealed"]), want):
                return False
        elif key == "did":  # "if you do": whether the effect's last step moved any card
            if (int(vars.get("done", 0)) > 0) != want:
                return False
        elif key == "discarded_this_turn":  # whether you discarded a card this turn (by any means)
            if (controller in s.flags.get("discarded", ())) != want:
                return False
        elif key == "paid_colors":  # the ener cards its optional cost was paid with have this many colours
            colors = {c for i in vars.get("paid", []) for c in facts.card_of(s, i).colors} - {"colorless"}
            if len(colors) < want:
                return False
        else:
            raise ValueError(f"unknown condition {key!r}")
    return True


def _one_each(colors: list[str], lrigs: list[tuple[str, ...]]) -> bool:
    """Whether each colour can be matched to a different LRIG having it."""
    if not colors:
        return True
    head, rest = colors[0], colors[1:]
    return any(head in c and _one_each(rest, lrigs[:i] + lrigs[i + 1 :]) for i, c in enumerate(lrigs))


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
            whose = "your" if v.get("side", "you") == "you" else "their"
            many = f"at most {v['at_most']}" if "at_most" in v else f"{v.get('at_least', 1)}+"
            what = f"{many} cards {filter_text(v.get('filter', {}))}".rstrip()
            parts.append(f"{what} in {whose} {v['zone'].replace('_', ' ')}")
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
        elif k == "lrig_colors":
            parts.append("you have " + ", ".join(f"a {c}" for c in v) + " LRIG")
        elif k == "phase":
            parts.append(f"it is {'the ' + v if isinstance(v, str) else '/'.join(v)} phase")
        elif k == "front":
            parts.append(f"the SIGNI in front of it is {filter_text(v).strip('()') or 'there'}")
        elif k == "moved_share_class":
            parts.append("those cards share a class" if v else "those cards share no class")
        elif k == "attack_damaged":
            parts.append("the attack dealt damage" if v else "the attack dealt no damage")
        elif k == "awakened":
            parts.append("it is awakened" if v else "it is not awakened")
        elif k == "extra_paid":
            parts.append("its extra cost was paid" if v else "its extra cost was not paid")
        elif k == "opponent_lrig_level":
            parts.append(f"the opponent's center LRIG is level {v}+")
        elif k == "attacker_front_empty":
            parts.append(f"the zone in front of the attacking SIGNI is {'empty' if v else 'taken'}")
        elif k == "lrig_color_count":
            parts.append(f"your three LRIGs have {v}+ colours among them")
        elif k == "all_signi":
            whose = "your" if v.get("side", "you") == "you" else "the opponent's"
            parts.append(f"every SIGNI on {whose} field is {filter_text(v.get('filter', {})).strip('()')}")
        elif k == "discarded_at_least":
            parts.append(f"{v}+ cards were discarded")
        elif k == "moved_at_least":
            parts.append(f"{v}+ cards were moved")
        elif k == "paid_colors":
            parts.append(f"the ener paid has {v}+ colours")
        elif k == "did":
            parts.append("you did" if v else "you did not")
        elif k == "revealed":
            parts.append(f"the revealed card is {filter_text(v).strip('()')}")
        elif k == "discarded_this_turn":
            parts.append("you discarded a card this turn" if v else "you discarded no card this turn")
    return " and ".join(parts)


def filter_text(f: dict[str, Any]) -> str:
    bits = []
    for k, v in f.items():
        if k == "power_max":
            bits.append(f"power {v} or less")
        elif k == "power_min":
            bits.append(f"power {v} or more")
        elif k == "level":
            bits.append("of the declared level" if v == "declared" else f"level {v}")
        elif k == "level_max":
            bits.append(f"level {v} or less")
        elif k == "level_min":
            bits.append(f"level {v} or more")
        elif k == "upped":
            bits.append("upped" if v else "downed")
        elif k == "frozen":
            bits.append("frozen" if v else "not frozen")
        elif k == "class":
            bits.append(f"<{v}>")
        elif k in ("color", "colors_any"):
            bits.append("/".join(v) if isinstance(v, list) else v)
        elif k == "type":
            bits.append(v)
        elif k == "guard":
            bits.append("with Guard" if v else "without Guard")
        elif k == "team":
            bits.append(f"of the team {v}")
        elif k == "any_of":
            bits.append(" or ".join(filter_text(g).strip("()") for g in v))
        elif k == "level_max_self":
            bits.append("of a level no higher than this card's")
        elif k == "card":
            bits.append("named " + " or ".join(v))
        elif k == "position":
            bits.append("in the " + "/".join(v) + " zone")
        elif k == "shares_center_color":
            bits.append(("sharing" if v else "sharing no") + " colour with its owner's center LRIG")
        elif k == "power_below":
            bits.append("with less power than the SIGNI it put onto the field")
    return ("(" + ", ".join(bits) + ")") if bits else ""


def target_text(spec: dict[str, Any]) -> str:
    if spec.get("self"):
        where = spec.get("zone")
        return "this card" + (f" in your {where}" if where in ("trash", "ener", "hand") else "")
    if spec.get("it"):
        return "it"
    if spec.get("facing"):
        return "the opponent's SIGNI in front of it"
    n = spec.get("count", 1)
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
    zone = {"signi": "field", "lrig": "field", "field": "field", "life_cloth": "Life Cloth"}.get(
        zone_name, str(zone_name).replace("_", " ")
    )
    up_to = "up to " if spec.get("up_to") else ""
    other = "another " if spec.get("another") else ""
    distinct = " with different classes" if spec.get("distinct") else ""
    attacking = "attacking " if spec.get("attacking") else ""
    if spec.get("all"):
        return f"every {other}{attacking}{what} {filter_text(f)} in {side} {zone}".replace("  ", " ")
    return (
        f"{up_to}{n} {other}target {attacking}{what}{distinct} {filter_text(f)} in {side} {zone}"
    ).replace("  ", " ")
