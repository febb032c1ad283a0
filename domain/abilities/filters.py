"""Card filters: which cards fit what an ability names, and how a filter reads.

A filter is an object of ``FILTER_KEYS``: ``power_max``, ``power_min``, ``level``, ``level_max``,
``level_min``, ``upped``, ``frozen``, ``class``, ``color``, ``colors_any``, ``not_color`` (none of its colours
is that one: "non-black"), ``type``, ``guard``, ``life_burst`` (the card has a Life Burst, or not), ``card``
(a list of catalogue ids), ``position``, ``shares_center_color`` (whether the card shares a colour with its
owner's center LRIG), ``shares_class_with_yours`` (it shares a class with a SIGNI on the field of the
ability's controller), ``team`` (a team's name, or true: of any team), ``any_of`` (a list of filters: it fits
one of them), ``level_max_self`` (level at most this card's), ``power_below: moved`` (less power than the
SIGNI the effect just put onto the field, or put into the trash as a cost), ``power_below: self`` (less power
than this SIGNI) or ``power_below: your_signi`` (less power than a SIGNI of yours), set when chosen;
``power_max_of: it`` (power no more than that of the card the step before targeted; set when chosen);
``under`` (whether a card lies under it or is attached to it, on the field), ``soul`` (whether a [Soul] is
attached to it), ``not_card`` (a list of catalogue ids the card is none of: "other than X"), ``awakened``
(whether the SIGNI is awakened), ``power_above_base`` (whether its power is higher than its printed power),
``infected`` (whether a Virus is in the SIGNI zone the SIGNI is in: seed 001 'Virus'), ``in_front`` (the
opponent's SIGNI in the zone in front of this card), ``highest_power`` (a SIGNI with the highest power on its
side's field), ``lowest_power`` (one with the lowest power there; both checked where targets are found);
``level_of`` / ``name_of`` (the same level, the same name, as one of the cards an earlier step of the effect
took: ``moved``, ``discarded``, ``revealed`` or ``it``, the cards the step before targeted, or ``under``, the
cards lying under this card; set when chosen, see ``NOTED_CARDS``), ``name`` (a list of printed names, as
deck rules compare them: reprints share one),
``shares_lrig_color`` (``any``: the card shares a colour with one of its owner's LRIGs; ``not_center``: with
one of them that is not the center LRIG), ``not_timing`` (an Assist LRIG or ARTS without that use timing:
``attack``), ``grow_cost_zero`` (whether the card's grow cost is zero, of any colour), ``power_is_base``
(whether a SIGNI's power on the field is its printed power), ``has_abilities`` (whether a SIGNI on the field
has an ability: printed and not lost, or gained), ``has_enter`` (whether the card has an [Enter] ability: on
the field, one it has now, not lost, or gained; elsewhere, one printed), ``cost_max`` (the ener cost printed
on the card, all its colours added up, is at most that), ``attacked`` (whether the SIGNI on the field attacked
this turn), ``rise`` (whether the card has Rise: the Rise icon; checked where targets are found), ``frame``
(whether the card has the frame icon: Rise or Harmony), ``power_max_self`` (power no more than this card's
own, as it is now; checked where targets are found), ``was_under_self`` (the card lay under this SIGNI as this
SIGNI last left the field this turn: the turn's tally noted it, ``tally.last_known``; checked where targets
are found), ``dissona`` (whether the card has the Dissona icon, rule card.dissona-icon).

Classes are printed as a general class and a sub-class ("Performer" and "Space"); two SIGNI share a class when
they share a sub-class (``class_kinds``).

Targets (``targets``), conditions (``conditions``) and what is counted (``measures``) all read cards through
these functions, and none of them imports another for it.

``level_max_measure`` (targets only): a level no more than what a measure (``measures``) counts as the target
is chosen ("a level no more than the number of white LRIGs on your field").
"""

from __future__ import annotations

from typing import Any

from domain import facts
from domain.cards import Card
from domain.state import GameState, Slot, opponent

Filter = dict[str, Any]

FILTER_KEYS = (
    "dissona",
    "power_max",
    "power_min",
    "level",
    "level_max",
    "level_min",
    "upped",
    "frozen",
    "class",
    "not_class",
    "color",
    "colors_any",
    "not_color",
    "type",
    "guard",
    "card",
    "position",
    "shares_center_color",
    "power_below",
    "team",
    "any_of",
    "level_max_self",
    "shares_class_with_yours",
    "power_max_of",
    "under",
    "cards_under",
    "soul",
    "life_burst",
    "not_card",
    "awakened",
    "power_above_base",
    "in_front",
    "highest_power",
    "lowest_power",
    "level_of",
    "name_of",
    "name",
    "infected",
    "shares_lrig_color",
    "not_timing",
    "grow_cost_zero",
    "rise",
    "frame",
    "power_max_self",
    "was_under_self",
    "power_is_base",
    "has_abilities",
    "has_enter",
    "attacked",
    "cost_max",
    "level_max_measure",
)
# which LRIGs of the card's owner ``shares_lrig_color`` asks about: any of them, or one that is not the center
LRIG_COLOR_WHICH = ("any", "not_center")
# what ``level_of`` / ``name_of`` (and a target's ``total_level``) may refer to: the cards the effect's
# last move took (``moved``), its last discard (``discarded``), its last reveal (``revealed``), the step
# before's targets (``it``); or the cards lying under this card (``under``)
NOTED_CARDS = ("moved", "discarded", "revealed", "it", "under")
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


DREAM_TEAM = "Dream Team"  # the catalogue's team of a PIECE with a Dream Team use condition


def _team_fits(team: str | None, wanted: Any) -> bool:
    """``team``: a team's name (that team), or true or false: whether the card belongs to a team at all (a
    PIECE with a Team use condition has its team; Dream Team is a keyword of its own, not a Team)."""
    if isinstance(wanted, bool):
        return (bool(team) and team != DREAM_TEAM) == wanted
    return bool(team == wanted)


def slot_of(s: GameState, iid: str) -> Slot | None:
    """The field slot (SIGNI or LRIG) a card instance is in; None when it is not on the field."""
    owner = s.owners.get(iid)
    if owner is None:
        return None
    ps = s.players[owner]
    for sl in [*ps.signi.values(), *ps.lrig.values()]:
        if sl is not None and sl.iid == iid:
            return sl
    return None


def on_field(s: GameState, iid: str) -> bool:
    where = s.where(iid)
    return where is not None and where[1].startswith(("signi:", "lrig:"))


def lost(s: GameState, iid: str) -> bool:
    """Whether the card lost its abilities this turn while on the field (so they neither apply nor trigger).
    A card that left the field is looked at as it was when it left."""
    slot = slot_of(s, iid)
    if slot is not None:
        return "no_abilities" in slot.keywords
    return iid in s.flags.get(LOST, ())


def attacked_this_turn(s: GameState, iid: str) -> bool:
    """Whether the card on the field attacked this turn since it last came onto the field (a card that left
    and came back is a new card), as the turn's tally says (``domain.tally``)."""
    from domain import tally

    attacked = False
    for e in tally.this_turn(s):
        if e.get("card") != iid:
            continue
        if e.get("what") == "entered":
            attacked = False
        elif e.get("what") == "attacked":
            attacked = True
    return attacked


def has_abilities(s: GameState, slot: Slot) -> bool:
    """Whether a card on the field has an ability: one printed on it (a Life Burst too) while it has not lost
    its abilities, or one it gained (a keyword, an ability, "cannot attack") (000 'Ability')."""
    gained = {k for k in slot.keywords if k != "no_abilities" and not k.startswith("lose:")}
    if "no_abilities" in slot.keywords:
        return bool(gained)
    return facts.card_of(s, slot.iid).has_abilities or bool(gained) or bool(facts.keywords(s, slot))


def _printed_fits(card: Card, f: Filter) -> bool:
    """The filter keys about numbers and kinds printed on the card."""
    level = card.level or 0
    return not (
        ("type" in f and card.type.value != f["type"])
        or ("level" in f and level != f["level"])
        or ("level_max" in f and level > f["level_max"])
        or ("level_min" in f and level < f["level_min"])
        or ("guard" in f and card.guard != f["guard"])
        or ("team" in f and not _team_fits(card.team, f["team"]))
        or ("card" in f and card.id not in f["card"])
        or ("life_burst" in f and card.life_burst != f["life_burst"])
        or ("dissona" in f and card.dissona != f["dissona"])
        or ("not_card" in f and card.id in f["not_card"])
        or ("name" in f and card.name_key not in f["name"])
        or ("not_timing" in f and f["not_timing"] in card.timings)
        or ("grow_cost_zero" in f and (sum(c.n for c in card.grow_cost) == 0) != f["grow_cost_zero"])
        or ("cost_max" in f and sum(c.n for c in card.cost) > f["cost_max"])
        or ("rise" in f and _has_rise(card) != f["rise"])
        or ("frame" in f and _has_frame(card.id) != f["frame"])
        or ("has_enter" in f and _printed_enter(card) != f["has_enter"])
    )


def _printed_enter(card: Card) -> bool:
    """Whether an [Enter] ability is printed on the card (its encoding has one)."""
    from domain.abilities.catalogue import abilities_of

    return any(ab["kind"] == "enter" for ab in abilities_of(card.id))


def has_enter(s: GameState, iid: str) -> bool:
    """Whether a card on the field has an [Enter] ability now: its own while it has not lost its abilities,
    or one it gained (000 '[Enter]')."""
    from domain.abilities.triggers import abilities

    return any(ab["kind"] == "enter" for _ref, ab in abilities(s, iid))


def _has_frame(card_id: str) -> bool:
    """Whether the card has the frame icon: Rise or Harmony (its encoding has such an ability)."""
    from domain.abilities.catalogue import abilities_of

    return any(ab["kind"] in ("rise", "harmony") for ab in abilities_of(card_id))


def _has_rise(card: Card) -> bool:
    """Whether the card has Rise (the Rise icon: its encoding has a ``rise`` ability)."""
    from domain.abilities.catalogue import rise_filter

    return rise_filter(card.id) is not None


def card_fits(card: Card, f: Filter) -> bool:
    """Whether a card's printed facts fit a filter (the keys about the board are checked elsewhere); a card
    that may be treated as something else (``Card.also``: "as a level one SIGNI") fits as either."""
    if card.also is not None and _fits(card.also, f):
        return True
    return _fits(card, f)


def _fits(card: Card, f: Filter) -> bool:
    if not _printed_fits(card, f):
        return False
    if "class" in f and f["class"] not in card.classes:
        return False
    if "not_class" in f and f["not_class"] in card.classes:  # "not an <Angel>"
        return False
    if "color" in f and f["color"] not in card.colors:
        return False
    if "colors_any" in f and not set(f["colors_any"]) & set(card.colors):
        return False
    if "not_color" in f and f["not_color"] in card.colors:  # "non-black": no black among its colours
        return False
    return not ("any_of" in f and not any(card_fits(card, g) for g in f["any_of"]))


def _cards_under(s: GameState, slot: Slot) -> bool:
    """Whether a card lies under the SIGNI: a [Soul] (an LRIG card) is attached to it, not under it."""
    return any(not facts.card_of(s, u).is_lrig_deck_card for u in slot.under)


def slot_fits(s: GameState, slot: Slot, zone: str, f: Filter) -> bool:
    card = facts.card_of(s, slot.iid)
    if "has_enter" in f:  # on the field: the abilities it has now, not those printed
        if has_enter(s, slot.iid) != f["has_enter"]:
            return False
        f = {k: v for k, v in f.items() if k != "has_enter"}
    if not card_fits(card, f):
        return False
    if "power_max" in f or "power_min" in f:  # asked only then: a constant's condition about SIGNI would loop
        power = facts.power(s, slot)
        if "power_max" in f and power > f["power_max"]:
            return False
        if "power_min" in f and power < f["power_min"]:
            return False
    if "power_above_base" in f and (facts.power(s, slot) > (card.power or 0)) != f["power_above_base"]:
        return False
    if "power_is_base" in f and (facts.power(s, slot) == (card.power or 0)) != f["power_is_base"]:
        return False
    if "has_abilities" in f and has_abilities(s, slot) != f["has_abilities"]:
        return False
    if "attacked" in f and attacked_this_turn(s, slot.iid) != f["attacked"]:
        return False
    if "upped" in f and (not slot.downed) != f["upped"]:
        return False
    if "frozen" in f and slot.frozen != f["frozen"]:
        return False
    if "under" in f and bool(slot.under) != f["under"]:  # a Soul lies under the SIGNI it is attached to
        return False
    if "cards_under" in f and _cards_under(s, slot) != f["cards_under"]:  # cards lying under: no Soul
        return False
    if "soul" in f and any(facts.card_of(s, u).is_lrig_deck_card for u in slot.under) != f["soul"]:
        return False
    if "awakened" in f and slot.awakened != f["awakened"]:
        return False
    if "infected" in f and infected(s, slot.iid, zone) != f["infected"]:
        return False
    return not ("position" in f and zone not in f["position"])


def infected(s: GameState, iid: str, zone: str) -> bool:
    """Whether a SIGNI is infected: a Virus is in the SIGNI zone it is in (seed 001 'Virus')."""
    owner = s.owners.get(iid)
    return owner is not None and "virus" in s.players[owner].markers.get(zone, ())


SHADOW = "shadow"  # the keyword; "shadow:<qualifier>" is Shadow against the sources that fit the qualifier
_SHADOW_NUMBERS = ("level", "level_min", "level_max", "power_max", "power_min")
_SHADOW_WORDS = ("signi", "lrig", "spell", "white", "red", "blue", "green", "black", "colorless")


def shadow_qualifier(keyword: str) -> Filter | None:
    """What a qualified Shadow keyword (``shadow:signi,level_min=3``, ``shadow:red``) protects from, as a
    filter on the source of the ability: a card type (``signi``, ``lrig``, ``spell``), a colour, and numbers
    (``level_min=3``, ``level_max=2``, ``power_max=10000``, ``power_min=...``); None when it is not one."""
    if not keyword.startswith(SHADOW + ":"):
        return None
    f: Filter = {}
    for part in keyword[len(SHADOW) + 1 :].split(","):
        key, _eq, value = part.partition("=")
        if key in _SHADOW_NUMBERS and value.isdigit():
            f[key] = int(value)
        elif key in ("signi", "lrig", "spell") and not value:
            f["type"] = key
        elif key in _SHADOW_WORDS and not value:
            f["color"] = key
        else:
            return None
    return f or None


def shadow_text(keyword: str) -> str:
    """How a qualified Shadow reads: "Shadow (against level 3 or more SIGNI)"."""
    f = shadow_qualifier(keyword)
    if f is None:
        return keyword.replace("_", " ")
    kind = {"signi": "SIGNI", "lrig": "LRIG", "spell": "spells"}.get(str(f.pop("type", "")), "cards")
    return f"Shadow (against {filter_text(f).strip().strip('()')} {kind})".replace("  ", " ")


def shadow_blocks(s: GameState, keywords: frozenset[str], source: str) -> bool:
    """Whether a SIGNI with these keywords cannot be targeted by an ability of ``source`` (the opponent's):
    plain Shadow stops every source, a qualified one those that fit it, their level and power as they are now
    on the field (seed 000, Shadow)."""
    if SHADOW in keywords:
        return True
    for k in keywords:
        f = shadow_qualifier(k)
        if f is None:
            continue
        card = facts.card_of(s, source)
        kind = {"lrig": card.is_lrig, "signi": card.is_signi}.get(str(f.get("type")))
        if kind is False or (kind is None and "type" in f and card.type.value != f["type"]):
            continue
        if "color" in f and f["color"] not in card.colors:
            continue
        slot = slot_of(s, source)
        level = facts.level(s, source) if slot is not None else card.level or 0
        if ("level_min" in f and level < f["level_min"]) or ("level_max" in f and level > f["level_max"]):
            continue
        if "level" in f and level != f["level"]:
            continue
        if "power_max" in f or "power_min" in f:
            power = facts.power(s, slot) if slot is not None else card.power or 0
            if ("power_max" in f and power > f["power_max"]) or ("power_min" in f and power < f["power_min"]):
                continue
        return True
    return False


def shares_center_color(s: GameState, owner: str, iid: str) -> bool:
    """Whether a card shares a colour with the center LRIG of ``owner`` (colourless is no colour)."""
    center = s.players[owner].lrig["center"]
    if center is None:
        return False
    colors = set(facts.card_of(s, center.iid).colors) - {"colorless"}
    return bool(colors & set(facts.card_of(s, iid).colors))


def shares_lrig_color(s: GameState, owner: str, iid: str, which: str) -> bool:
    """Whether a card shares a colour (colourless is none) with one of ``owner``'s LRIGs on the field: any of
    them, or (``not_center``) one that is not the center LRIG."""
    colors = set(facts.card_of(s, iid).colors) - {"colorless"}
    return any(
        colors & set(facts.card_of(s, sl.iid).colors)
        for pos, sl in s.players[owner].lrig.items()
        if sl is not None and (which != "not_center" or pos != "center")
    )


_FILTER_TEXT: dict[str, Any] = {
    "power_max": "power {} or less",
    "power_min": "power {} or more",
    "level_max": "level {} or less",
    "cost_max": "of total cost {} or less",
    "level_min": "level {} or more",
    "class": "<{}>",
    "type": "{}",
    "team": "of the team {}",
}


def _filter_bit(k: str, v: Any) -> str | None:
    if k == "team" and isinstance(v, bool):
        return "of a team" if v else "of no team"
    if k in _FILTER_TEXT:
        return str(_FILTER_TEXT[k]).format(v)
    flags = {
        "upped": ("upped", "downed"),
        "frozen": ("frozen", "not frozen"),
        "guard": ("with Guard", "without Guard"),
        "under": ("with a card under it", "with no card under it"),
        "cards_under": ("with a card lying under it", "with no card lying under it"),
        "soul": ("with a Soul attached", "without a Soul"),
        "life_burst": ("with a Life Burst", "without a Life Burst"),
        "dissona": ("with the Dissona icon", "without the Dissona icon"),
        "awakened": ("awakened", "not awakened"),
        "grow_cost_zero": ("whose grow cost is zero", "whose grow cost is not zero"),
        "rise": ("with Rise", "without Rise"),
        "frame": ("with the frame icon (Rise, Harmony)", "without the frame icon (Rise, Harmony)"),
        "infected": ("infected", "not infected"),
        "power_above_base": ("with more power than printed", "with no more power than printed"),
        "power_is_base": ("with its printed power", "with a power other than printed"),
        "has_abilities": ("with abilities", "with no abilities"),
        "has_enter": ("with an [Enter] ability", "without an [Enter] ability"),
        "attacked": ("that attacked this turn", "that did not attack this turn"),
        "shares_center_color": (
            "sharing colour with its owner's center LRIG",
            "sharing no colour with its owner's center LRIG",
        ),
    }
    if k in flags:
        return flags[k][0 if v else 1]
    if k == "level":
        return "of the declared level" if v == "declared" else f"level {v}"
    if k in ("color", "colors_any"):
        return "/".join(v) if isinstance(v, list) else str(v)
    if k == "not_color":
        return f"non-{v}"
    if k == "not_class":
        return f"not <{v}>"
    if k == "not_timing":
        return f"without the {v} phase timing"
    if k == "any_of":
        return " or ".join(filter_text(g).strip("()") for g in v)
    if k == "card":
        return "named " + " or ".join(v)
    if k in ("level_of", "name_of"):
        what = {"level_of": "level", "name_of": "name"}[k]
        return f"with the same {what} as {noted_cards_text(v)}"
    if k == "name":
        return "named " + " or ".join(v)
    if k == "shares_lrig_color":
        return "sharing a colour with " + (
            "an LRIG of its owner's other than the center" if v == "not_center" else "an LRIG of its owner's"
        )
    if k == "not_card":
        return "not named " + " or ".join(v)
    if k == "position":
        return "in the " + "/".join(v) + " zone"
    if k == "level_max_measure":
        return "with a level no more than the number counted"
    return {
        "in_front": "in front of this card",
        "highest_power": "with the highest power on that field",
        "lowest_power": "with the lowest power on that field",
        "level_max_self": "of a level no higher than this card's",
        "power_max_self": "with no more power than this card",
        "was_under_self": "that was under this SIGNI as it left the field",
        "shares_class_with_yours": "sharing a class with a SIGNI on your field",
        "power_below": "with less power than "
        + {"self": "this SIGNI", "your_signi": "a SIGNI of yours"}.get(v, "the SIGNI the effect moved"),
        "power_max_of": "with no more power than that SIGNI",
    }.get(k)


def noted_cards_text(ref: str) -> str:
    """How a reference to cards an earlier step took reads (``NOTED_CARDS``)."""
    return {
        "moved": "the card moved this way",
        "discarded": "the card discarded this way",
        "revealed": "the card revealed this way",
        "it": "that card",
        "under": "a SIGNI under this card",
    }.get(ref, str(ref))


def filter_text(f: Filter) -> str:
    bits = [b for k, v in f.items() if (b := _filter_bit(k, v)) is not None]
    return ("(" + ", ".join(bits) + ")") if bits else ""
