"""The words of constant ([Constant]) abilities: two general words (``CONSTANT_WORDS``), ``grant`` (what a
card has: power, keywords, a Soul's ability) and ``rule`` (a rule that changes: immunity, spell costs, where a
vanished SIGNI goes, LRIG attacks), each with a ``change`` naming one of the forms below (``FORMS``); each
form's name is an alias of its general word with ``change`` fixed, and the encodings write those aliases.

A form is its parameters and their types, how it reads in English, and what else is checked of it;
``constants`` computes what each word does from the board whenever a rule asks (``active(s, word)``).

- ``power``: ``{"target": spec, "amount": n, "per": measure}``: adds to the power of every SIGNI its target
  spec names (``{"self": true}`` or a side/zone/filter spec; ``count`` is ignored: "all that fit"); with
  ``per``, the amount is added once for each of what the measure counts ("+1000 for each ...", see
  ``measures``);
- ``immune``: ``{"from": "vanish" | "down" | "power_minus" | "gain_abilities" | "move", "by": "opponent" |
  "any"}``: the card cannot be vanished (downed, given minus power, given new abilities or keywords;
  ``move``: moved from the field to any other zone) by those effects (``any``: by any effect; vanished: nor
  in battle);
- ``spell_cost``: ``{"add": [{"color", "n"}], "whose": "opponent" | "you"}``: spells of that player cost more;
  ``{"reduce": [{"color", "n"}], "whose": "you", "filter": {...}}``: their spells that fit the filter cost
  less (a colour's part by that colour, colorless by colorless; never below nothing);
- ``spell_ban``: ``{"filter"}``: no player can use a spell that fits the filter ("non-white spells");
- ``coin_ban``: ``{"whose": "you" | "opponent"}``: that player cannot gain coins (by effects, nor those
  printed on their LRIGs);
- ``vanished_to_trash``: ``{"which": "battled" | "front", "filter"}``: a SIGNI this SIGNI vanishes in battle
  (``battled``; with a ``filter``, one that fits it as it left the field: "a frozen SIGNI"), or, during an
  attack phase, the SIGNI in front of it vanished however (``front``), goes to the trash instead of the ener
  zone; ``front_vanished_to_trash`` is its alias for ``front``;
- ``keywords``: ``{"target": {"self": true}, "keywords": [...]}``: the card has these keywords;
- ``colors``: ``{"target": {"self": true} | {"side", "zones", "filter"}, "colors": [...]}``: the cards the
  target names are also of these colours ("SIGNI on your field and in your ener zone are additionally
  black": side ``you``, zones ``signi`` and ``ener``, a filter of printed facts);
- ``soul_grant``: ``{"ability": {...}}``: the SIGNI this card is attached to as a [Soul] has the ability;
- ``grant_ability``: ``{"target": spec, "ability": {...}}``: the cards the target names have the ability while
  the constant applies: ``{"self": true}`` (this card: "as long as ..., this SIGNI gains ..."), a side/zone/
  filter spec (every card that fits: "your center LRIG gains ...", ``{"side": "you", "zone": "lrig",
  "filter": {"position": ["center"]}}``), or ``{"above": true, "filter": {...}}``: the SIGNI on top of
  this card (that fits the filter) has the ability while this card lies under it (and as it leaves the field:
  what it triggers then looks at it as it was, ``triggers.given_from_under``). ``power`` and ``keywords``
  take the same ``above`` target: a card under a SIGNI gives it power or keywords (only such steps of a card
  lying under a SIGNI apply, and they apply only there);
- ``attack_cost``: ``{"cost": {"ener": [...], "discard": n}}``: this SIGNI (or LRIG, given it by an effect)
  attacks only as its player pays that (paid with the attack: the action's ``pay`` and ``discard``); with
  ``of: opponent_signi``, each SIGNI of the opponent's does ("your opponent cannot attack with SIGNI unless
  they pay");
- ``guard_cost``: ``{"add": [{"color", "n"}]}`` and/or ``{"either": [cost, cost]}``: the opponent's Guard
  costs that ener more, and one of the ``either`` costs (ener, or ``discard``: n cards from the hand), the
  guarding player picking which; ``{"instead": cost}``: its own player may Guard by paying that cost in place
  of discarding a card with Guard ("discard three cards instead"). Paid with the guard action (its ``pay``
  and ``discard``);
- ``lrig_attacks``: ``{"max": n, "downed": true}``: this LRIG may attack up to n times a turn, and (with
  ``downed``) even while downed;
- ``must_target``: ``{"by": "signi"}``: as the opponent chooses targets for an ability or effect of a SIGNI,
  they must choose this SIGNI if they can (its ability's condition says when: "during the opponent's turn");
- ``replace``: ``{"event": "damage", "cause": "attack", "instead": [steps], "optional": true}``: a replacement
  effect: when what ``event`` names would happen to its controller (``damage``: they would take damage by the
  attack of the opponent's SIGNI or LRIG), the steps of ``instead`` happen in its place, as an effect of this
  card; ``optional`` ("you may"): its controller is asked first, while the event waits. ``{"event":
  "leave_field", "subject": "opponent_signi" | "this", "to": "trash" | "deck_bottom", "optional": true}``: a
  SIGNI of the opponent's (or this SIGNI) that would leave the field (however: an effect, a cost, battle,
  rule processing, an ener charge, a removal) goes to that zone instead (``domain.abilities.leaving``).
  ``{"event": "vanish", "subject": "this", ...}``: the same, only as this SIGNI would be vanished. ``cost``
  (with ``optional``): ``{"down": true, "trash_under": {"n": 1}, "trash_ener": {"n": 1}}``: "instead you
  may down this upped SIGNI and put n cards from under it / of your ener zone into the trash": asked only
  while it can be paid, the cards named with the answer, the cost paid as it is used; ``instead`` then
  names what else happens (if anything).
- ``negate_ability``: ``{"kinds": ["auto", "enter", "action"], "of": "opponent_signi", "cost": {"trash_under":
  {"n": 2}}}``: as such an ability of a SIGNI of the opponent's activates (an [Auto] or [Enter] ability as it
  begins to resolve, an [Action] ability once its cost is paid), this card's player is asked whether to pay
  the cost (the cards named with the answer); paid, the ability does nothing
  (``domain.abilities.effects.running``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from domain.abilities.measures import per_problems, per_text
from domain.abilities.targets import (
    FILTER_KEYS,
    ZONES,
    filter_text,
    shadow_qualifier,
    shadow_text,
    target_text,
)
from domain.abilities.vocabulary import fits, step_problems, steps_text, type_text
from domain.cards import COLORS

Step = Mapping[str, Any]
Text = Callable[[Step], str]
Check = Callable[[Step], list[str]]


@dataclass(frozen=True)
class ConstantWord:
    name: str
    params: Mapping[str, Any]
    text: Text
    doc: str
    check: Check | None = None
    required: tuple[str, ...] = ()


@dataclass(frozen=True)
class ConstantAlias:
    name: str
    of: str
    fixed: Mapping[str, Any]


CONSTANT_WORDS: dict[str, ConstantWord] = {}  # the general words: grant and rule
FORMS: dict[
    str, ConstantWord
] = {}  # what a general word's ``change`` may name: each reads and checks its own
CONSTANT_ALIASES: dict[str, ConstantAlias] = {}
_describe: list[Callable[[dict[str, Any]], str]] = []


def describe_abilities_with(fn: Callable[[dict[str, Any]], str]) -> None:
    """Set how an ability a constant gives reads (the catalogue's sentence of an ability)."""
    _describe[:] = [fn]


def constant(
    name: str,
    params: Mapping[str, Any],
    text: Text,
    doc: str,
    *,
    check: Check | None = None,
    required: tuple[str, ...] = (),
) -> None:
    if name in FORMS:
        raise ValueError(f"the constant word {name!r} is registered twice")
    FORMS[name] = ConstantWord(name, dict(params), text, doc, check, required)


def constant_alias(name: str, of: str, **fixed: Any) -> None:
    if name in CONSTANT_WORDS or name in CONSTANT_ALIASES:
        raise ValueError(f"the constant word {name!r} is registered twice")
    CONSTANT_ALIASES[name] = ConstantAlias(name, of, dict(fixed))


def _target_check(st: Step, reads: tuple[str, ...] = ()) -> list[str]:
    """Problems of a constant's target; ``reads``: the state keys its word does read after all."""
    spec = st.get("target", {})
    out = []
    if spec.get("zone", "signi") not in ZONES:
        out.append(f"unknown zone {spec.get('zone')!r}")
    bad = set(spec.get("filter", {})) - set(FILTER_KEYS)
    if bad:
        out.append(f"unknown filter key(s) {sorted(bad)}")
    if set(spec.get("in_front_of", {})) - set(FILTER_KEYS) or set(spec.get("in_front_of", {})) & {
        "power_max",
        "power_min",
    }:
        out.append("in_front_of is a filter of the SIGNI of yours in front (no power keys)")
    if spec.get("above") and set(spec) - {"above", "filter"}:
        out.append("the SIGNI on top of this card (above) takes only a filter")
    unread = sorted((set(spec.get("filter", {})) & set(_UNREAD_BY_CONSTANTS)) - set(reads))
    if unread:  # a constant reads printed facts, position and awakened (a power filter would loop)
        out.append(f"a constant's target cannot filter on {unread}")
    return out


_UNREAD_BY_CONSTANTS = (
    "power_max", "power_min", "power_above_base", "power_below", "upped", "frozen", "in_front",
    "highest_power", "lowest_power", "infected", "power_is_base", "has_abilities", "has_enter", "attacked",
)  # fmt: skip


def above_text(spec: Mapping[str, Any]) -> str:
    """How "the SIGNI on top of this card" reads (``{"above": true, "filter": ...}``)."""
    return f"the SIGNI {filter_text(spec.get('filter', {}))} on top of this card".replace("  ", " ")


def _power_text(st: Step) -> str:
    spec = st["target"]
    who = "this SIGNI" if spec.get("self") else target_text({**spec, "all": True})
    if spec.get("above"):
        who = above_text(spec)
    return f"{who} gets {int(st.get('amount', 0)):+d} power{per_text(st.get('per'))}"


constant(
    "power",
    {"target": dict, "amount": int, "per": str | dict},
    _power_text,
    "adds power to every SIGNI the target names (with per: once for each of what it measures)",
    check=lambda st: _target_check(st, ("infected",)) + (per_problems(st["per"]) if "per" in st else []),
    required=("target", "amount"),
)


def _immune_text(st: Step) -> str:
    by = "the opponent's" if st.get("by", "opponent") == "opponent" else "any"
    if "source" in st:  # the effects of those cards only
        kind = "SIGNI" if st["source"].get("type") == "signi" else "cards"
        rest = {k: v for k, v in st["source"].items() if k != "type"}
        by = f"{by} {filter_text(rest).strip()} {kind}'".replace("  ", " ")
    what = st.get("from", "vanish")
    who = target_text({**st["target"], "all": True}) if "target" in st else "this SIGNI"
    if what == "power_minus":
        whose = f"the power of {who}" if "target" in st else "this SIGNI's power"
        return f"{whose} cannot be lowered by {by} effects"
    if what == "gain_abilities":
        return f"{who} cannot gain new abilities by {by} effects"
    if what == "move":
        return f"{who} cannot be moved from the field to another zone by {by} effects"
    if what == "move_not_ener":
        return f"{who} cannot be moved from the field to a zone other than the ener zone by {by} effects"
    if what == "negate_attack":  # by: self: its own effects ("not negated by this SIGNI's effects")
        of = "its own" if st.get("by") == "self" else by
        return f"the attack of {who} is not negated by {of} effects"
    battle = ", nor in battle" if what == "vanish" and by == "any" else ""
    return f"{who} cannot be {'downed' if what == 'down' else 'vanished'} by {by} effects{battle}"


constant(
    "immune",
    {
        "from": Literal[
            "vanish", "down", "power_minus", "gain_abilities", "move", "move_not_ener", "negate_attack"
        ],
        "by": Literal["opponent", "any", "self"],
        "source": dict,
        "target": dict,
    },
    _immune_text,
    "the card cannot be vanished (downed, given minus power, given new abilities, moved from the field to "
    "another zone) by the opponent's (or any) "
    "effects (``source``: of the cards that fit this filter only, their level as on the field; not battle; "
    '``target``: the SIGNI it names instead of this card, "your level one SIGNI")',
    check=lambda st: (
        [
            "source is a filter of the card whose effect it is (type, class, level, colour)"
            for _ in [0]
            if set(st.get("source", {})) - {"type", "class", "level", "level_min", "level_max", "color"}
        ]
        + (_target_check(st) if "target" in st else [])
    ),
)


def _spell_cost_text(st: Step) -> str:
    whose = "the opponent's" if st.get("whose", "opponent") == "opponent" else "your"
    spells = f"spells {filter_text(st.get('filter', {}))}".strip()
    if "reduce" in st:
        less = ", ".join(f"{c['n']} {c['color']}" for c in st.get("reduce", []))
        return f"{whose} {spells} cost {less} less"
    add = ", ".join(f"{c['n']} {c['color']}" for c in st.get("add", []))
    return f"{whose} {spells} cost {add} more"


def _spell_cost_check(st: Step) -> list[str]:
    out = [
        "add and reduce are lists of {color, n}"
        for c in [*st.get("add", []), *st.get("reduce", [])]
        if not isinstance(c, dict) or set(c) != {"color", "n"} or not isinstance(c.get("n"), int)
    ]
    if ("add" in st) == ("reduce" in st):
        out.append("spell_cost: either add or reduce")
    out += [f"unknown filter key(s) {sorted(set(st.get('filter', {})) - set(FILTER_KEYS))}"] * bool(
        set(st.get("filter", {})) - set(FILTER_KEYS)
    )
    return out


constant(
    "spell_cost",
    {"add": list, "reduce": list, "whose": Literal["opponent", "you"], "filter": dict},
    _spell_cost_text,
    "spells of that player cost more (add), or those of them that fit the filter cost less (reduce; rule "
    "effect.spell-cost-less)",
    check=_spell_cost_check,
)


def _action_cost_text(st: Step) -> str:
    whose = "the opponent's" if st.get("whose", "opponent") == "opponent" else "your"
    of = " and ".join({"center_lrig": "center LRIG", "signi": "SIGNI"}[o] for o in st.get("of", ["signi"]))
    add = ", ".join(f"{c['n']} {c['color']}" for c in st.get("add", []))
    return f"the [Action] abilities of {whose} {of} cost {add} more to use"


constant(
    "action_cost",
    {"add": list, "whose": Literal["opponent", "you"], "of": list},
    _action_cost_text,
    "[Action] abilities of that player's cards (of: center_lrig, signi on the field) cost more ener to use",
    required=("add", "of"),
    check=lambda st: [
        f"action_cost: of names center_lrig or signi, not {o!r}"
        for o in st.get("of", [])
        if o not in ("center_lrig", "signi")
    ],
)


constant(
    "spell_ban",
    {"filter": dict},
    lambda st: f"no player can use a spell {filter_text(st.get('filter', {}))}".rstrip(),
    "players cannot use the spells that fit the filter",
)


constant(
    "coin_ban",
    {"whose": Literal["you", "opponent"]},
    lambda st: f"{'the opponent' if st.get('whose') == 'opponent' else 'you'} cannot gain coins",
    "that player (you unless whose says opponent) cannot gain coins, by effects or from the coins printed on "
    "their LRIGs",
)


def _to_trash_text(st: Step) -> str:
    if st.get("which", "battled") == "front":
        return (
            "during an attack phase, the SIGNI in front of it goes to the trash instead of the ener zone "
            "when vanished"
        )
    what = f"a SIGNI {filter_text(st['filter'])} " if st.get("filter") else "a SIGNI "
    return f"{what}this SIGNI vanishes in battle goes to the trash instead of the ener zone"


constant(
    "vanished_to_trash",
    {"which": Literal["battled", "front"], "filter": dict},
    _to_trash_text,
    "a SIGNI it vanishes in battle (or the one in front of it) goes to the trash instead of the ener zone",
)


def _keywords_text(st: Step) -> str:
    kws = ", ".join(shadow_text(k) for k in st.get("keywords", []))
    if st.get("target", {}).get("above"):
        return f"{above_text(st['target'])} has {kws}".replace("_", " ")
    if "side" in st.get("target", {}):  # the SIGNI its target names (every one that fits)
        return f"{target_text({**st['target'], 'all': True})} has {kws}".replace("_", " ")
    return f"this card has {kws}"


def _attack_cost_text(st: Step) -> str:
    from domain.abilities.effects import describe_cost

    who = "the opponent's SIGNI" if st.get("of") == "opponent_signi" else "this card"
    return f"{who} cannot attack unless its player pays {describe_cost(st.get('cost', {}))}"


constant(
    "attack_cost",
    {"cost": dict, "of": Literal["opponent_signi"]},
    _attack_cost_text,
    "this SIGNI or LRIG (of: opponent_signi: each SIGNI of the opponent's) attacks only as its player pays "
    "the cost, ener or discards (000 'Effect': 'cannot attack unless you pay')",
    required=("cost",),
)


def _attack_face_down_text(st: Step) -> str:
    from domain.abilities.words import face_down_back_text

    n = int(st.get("up_to", 2))
    back = face_down_back_text(st.get("back", {}))
    return (
        f"if this SIGNI attacks, its player may instead turn up to {n} other SIGNI of theirs face down and "
        f"attack{'; ' + back if back else ''}"
    )


constant(
    "attack_face_down",
    {"up_to": int, "back": dict},
    _attack_face_down_text,
    "as this SIGNI attacks, its player may turn up to that many other SIGNI of theirs face down instead, "
    "and it attacks (chosen with the attack: the action's face_down); back: when they are turned face up "
    "again, as turn_face_down's (rule face-down.signi)",
    check=lambda st: _back_check(st),
)


def _back_check(st: Step) -> list[str]:
    from domain.abilities.words import back_problems

    return back_problems(st.get("back", {}))


constant(
    "place_front",
    {},
    lambda _st: "the opponent must put each SIGNI they put onto their field in front of this one if they can",
    "as the opponent puts a SIGNI onto their field (played, or by an effect), it must go into the zone in "
    "front of this SIGNI when it can go there (rule effect.place-front)",
)


def _guard_payment_text(cost: Step) -> str:
    parts = [f"{c['n']} {c['color']} ener" for c in cost.get("ener", [])]
    n = int(cost.get("discard", 0))
    if n:
        parts.append(f"discard {n} card{'s' if n != 1 else ''} from the hand")
    return " and ".join(parts)


def _guard_cost_text(st: Step) -> str:
    if "instead" in st:
        other = _guard_payment_text(st["instead"])
        return f"as you Guard, you may {other} instead of discarding a card with Guard"
    paid = []
    if st.get("add"):
        paid.append(", ".join(f"{c['n']} {c['color']}" for c in st["add"]))
    if st.get("either"):
        paid.append(" or ".join(_guard_payment_text(c) for c in st["either"]) + " (they choose which)")
    return "the opponent cannot Guard unless they also pay " + " and ".join(paid)


def _guard_cost_check(st: Step) -> list[str]:
    out = []
    if not any(k in st for k in ("add", "either", "instead")):
        out.append("guard_cost names add, either or instead")
    if "instead" in st and ("add" in st or "either" in st):
        out.append("guard_cost: instead (your own Guard) stands alone, apart from add and either")
    for c in [*st.get("either", []), *([st["instead"]] if "instead" in st else [])]:
        if not isinstance(c, dict) or not c or set(c) - {"ener", "discard"}:
            out.append(f"guard_cost: a cost here is ener and/or discard (n), not {c!r}")
        elif not isinstance(c.get("discard", 0), int):
            out.append("guard_cost: discard is a number of cards")
    return out


constant(
    "guard_cost",
    {"add": list, "either": list, "instead": dict},
    _guard_cost_text,
    "the opponent's Guard costs more: this ener (add), and one of the costs of either, the guarding player "
    "picking which (ener or discards from the hand, paid with the Guard); or, for its own player's Guard, a "
    "cost they may pay instead of discarding a card with Guard (instead) (000 'Guard', 'Effect')",
    check=_guard_cost_check,
)


def _grow_cost_text(st: Step) -> str:
    less = ", ".join(f"{c['n']} {c['color']}" for c in st.get("reduce", []))
    return f"the cost for you to grow your LRIGs is reduced by {less}"


constant(
    "grow_cost",
    {"reduce": list},
    _grow_cost_text,
    "the ener its controller pays to grow their LRIGs is reduced (a colour's part by that colour; colorless "
    "by colorless)",
    check=lambda st: [
        "reduce is a list of {color, n}"
        for c in st.get("reduce", [])
        if not isinstance(c, dict) or set(c) != {"color", "n"} or not isinstance(c.get("n"), int)
    ],
    required=("reduce",),
)


def _zone_level_text(st: Step) -> str:
    where = (" or " if st.get("self") else " and ").join(str(z) for z in st.get("zones", []))
    what = "this card" if st.get("self") else f"the cards {filter_text(st.get('filter', {}))} in your {where}"
    what = what.replace("  ", " ")
    if st.get("self"):
        what += f" (while it is in your {where})"
    level = f"level {st.get('level')}" + (" SIGNI" if st.get("signi") else "")
    level = f"a {level}" if st.get("signi") else level
    if st.get("may"):
        return f"when an effect of yours refers to {what}, you may treat it as {level}"
    return f"the base level of {what} becomes {st.get('level')}"


constant(
    "zone_level",
    {"zones": list, "filter": dict, "level": int, "signi": bool, "may": bool, "self": bool},
    _zone_level_text,
    "the level of cards in a deck or a trash: the base level of its controller's cards there that fit the "
    "filter becomes ``level`` (for every effect); with ``may``, its controller's effects may treat them as "
    "that level (``signi``: as a SIGNI of that level), the card fitting a filter as printed or so; ``self``: "
    "this card, while it is in one of ``zones`` (its ability applies from there)",
    check=lambda st: (
        [
            "zones are deck and trash"
            for z in [st.get("zones")]
            if not z or not isinstance(z, list) or set(z) - {"deck", "trash"}
        ]
        + (["signi is only for may"] if st.get("signi") and not st.get("may") else [])
    ),
    required=("zones", "level"),
)
constant(
    "minus_to_plus",
    {},
    lambda _st: "when an opponent's effect would give this SIGNI minus power, it gets that much plus instead",
    "the opponent's effects that would lower this SIGNI's power raise it as much instead",
)
constant(
    "refresh_keeps_life",
    {},
    lambda _st: "your Life Cloth is not put into the trash when you refresh",
    "a refresh of its controller puts no Life Cloth card into the trash (000 'Refresh')",
)
constant(
    "keywords",
    {"target": dict, "keywords": list},
    lambda st: _keywords_text(st),
    "the card has these keywords while the ability applies (``shadow:<qualifier>``: Shadow against the "
    "sources that fit it)",
    check=lambda st: [
        f"keyword {k!r} is not a Shadow qualifier"
        for k in st.get("keywords", [])
        if str(k).startswith("shadow:") and shadow_qualifier(str(k)) is None
    ],
)


_COLOUR_ZONES = ("signi", "lrig", "ener", "hand", "trash")


def _colors_text(st: Step) -> str:
    spec = st.get("target", {})
    colours = " and ".join(str(c) for c in st.get("colors", []))
    if spec.get("self"):
        return f"this card is also {colours}"
    side = {"you": "your", "opponent": "the opponent's", "any": "each player's"}[spec.get("side", "you")]
    names = {"signi": "field", "lrig": "LRIG zone", "ener": "ener zone", "hand": "hand", "trash": "trash"}
    where = " and ".join(names[z] for z in spec.get("zones", ["signi"]))
    what = filter_text(spec.get("filter", {})).strip() or "cards"
    return f"{what} in {side} {where} are also {colours}".replace("  ", " ")


def _colors_check(st: Step) -> list[str]:
    """A colour constant names colours (colorless is none) and either this card or a side's zones with a
    filter of printed facts (no colour keys: the colours it reads are those it gives)."""
    spec = st.get("target", {})
    out = [f"{c!r} is not a colour" for c in st.get("colors", []) if c not in COLORS]
    if not st.get("colors"):
        out.append("colors names one colour or more")
    if spec.get("self"):
        if set(spec) != {"self"}:
            out.append("a target of this card takes nothing else")
        return out
    if set(spec) - {"side", "zones", "filter"}:
        out.append("the target is this card (self), or a side, its zones and a filter")
    if spec.get("side", "you") not in ("you", "opponent", "any"):
        out.append("side is you, opponent or any")
    if set(spec.get("zones", ["signi"])) - set(_COLOUR_ZONES):
        out.append(f"zones are among {_COLOUR_ZONES}")
    f = spec.get("filter", {})
    if set(f) - {"type", "class", "level", "level_min", "level_max", "card", "dissona"}:
        out.append("the filter reads printed facts only: type, class, level, card, the Dissona icon")
    return out


constant(
    "colors",
    {"target": dict, "colors": list},
    _colors_text,
    "the cards the target names (this card, or the cards of a side's zones that fit a filter of printed "
    "facts) are also of these colours while the ability applies (effect.colors-added)",
    check=_colors_check,
    required=("target", "colors"),
)


def _lrig_attacks_text(st: Step) -> str:
    downed = " even while downed" if st.get("downed") else ""
    return f"this LRIG can attack{downed}, up to {st.get('max', 1)} times this turn"


constant(
    "lrig_attacks",
    {"max": int, "downed": bool},
    _lrig_attacks_text,
    "this LRIG may attack up to max times a turn (with downed: even while downed)",
)


def _soul_grant_text(st: Step) -> str:
    gained = _describe[0](st["ability"]).rstrip(".") if _describe else "an ability"
    return f'the SIGNI this card is attached to as a Soul has "{gained}"'


constant(
    "soul_grant",
    {"ability": dict},
    _soul_grant_text,
    "the SIGNI this card is attached to as a [Soul] has the ability",
    required=("ability",),
)


def _grant_ability_text(st: Step) -> str:
    gained = _describe[0](st["ability"]).rstrip(".") if _describe else "an ability"
    spec = st.get("target", {})
    if spec.get("above"):
        who = above_text(spec)
    else:
        who = "this card" if spec.get("self") else target_text({**spec, "all": True})
    return f'{who} has "{gained}"'


constant(
    "grant_ability",
    {"target": dict, "ability": dict},
    _grant_ability_text,
    "the cards the target names have the ability while the constant applies: this card (self), every card a "
    "side/zone/filter spec names (your center LRIG), or the SIGNI on top of this card (target above, with a "
    "filter it must fit) while this card lies under it",
    check=_target_check,
    required=("target", "ability"),
)


constant(
    "must_target",
    {"by": Literal["signi"]},
    lambda _st: (
        "as the opponent chooses targets for a SIGNI's ability or effect, they must choose this "
        "SIGNI if possible"
    ),
    "the opponent choosing targets for an ability or effect of a SIGNI must choose this SIGNI if they can",
)


def _replace_cost_text(cost: Mapping[str, Any]) -> str:
    parts = ["down this upped SIGNI"] if cost.get("down") else []
    for key, where in (("trash_under", "from under this SIGNI"), ("trash_ener", "from your ener zone")):
        if key in cost:
            parts.append(f"put {int(cost[key].get('n', 1))} card(s) {where} into the trash")
    return " and ".join(parts)


def _replace_text(st: Step) -> str:
    if st.get("event") in ("leave_field", "vanish"):
        who = "this SIGNI" if st.get("subject") == "this" else "a SIGNI of the opponent's"
        by = " by the opponent's effects" if st.get("cause") == "opponent_effect" else ""
        leave = "be vanished" if st.get("event") == "vanish" else "leave the field"
        if "cost" in st:
            then = f"; if you do, {steps_text(st['instead'])}" if st.get("instead") else ""
            return f"if {who} would {leave}{by}, you may instead {_replace_cost_text(st['cost'])}{then}"
        if "instead" in st:
            may = "you may instead" if st.get("optional") else "instead"
            return f"if {who} would {leave}{by}, {may}: {steps_text(st['instead'])}"
        where = "on the bottom of its deck" if st.get("to") == "deck_bottom" else f"into the {st.get('to')}"
        may = "you may put it" if st.get("optional") else "it is put"
        return f"if {who} would leave the field{by}, {may} {where} instead"
    what = {"damage": "you would take damage by the attack of the opponent's SIGNI or LRIG"}.get(
        str(st.get("event")), str(st.get("event"))
    )
    may = "you may instead" if st.get("optional") else "instead"
    return f"if {what}, {may}: {steps_text(st.get('instead', []))}"


def _asks_nothing(step: Step) -> bool:
    """Whether a step resolves without asking anything: it names this card, or every card that fits."""
    target = step.get("target")
    return (
        isinstance(target, Mapping)
        and bool(target.get("self") or target.get("all"))
        and not any(k in step for k in ("then", "modes", "cost"))
    )


def _replace_check(st: Step) -> list[str]:
    out = [p for x in st.get("instead", []) for p in step_problems(x)]
    if st.get("event") == "damage" and st.get("cause", "attack") != "attack":
        out.append("a damage replacement names the damage of an attack (cause: attack)")
    if "cost" in st:
        cost = st["cost"]
        if not isinstance(cost, Mapping) or not cost or set(cost) - {"down", "trash_under", "trash_ener"}:
            out.append("a replacement's cost is down, trash_under and/or trash_ener")
        if not st.get("optional") or st.get("subject") != "this" or "to" in st:
            out.append("a replacement with a cost says 'you may', of this SIGNI, with no zone")
    if st.get("event") == "vanish" and st.get("subject") != "this":
        out.append("a vanish replacement is this SIGNI's own")
    if st.get("event") in ("leave_field", "vanish"):
        if "subject" not in st or ("to" in st) == ("instead" in st or "cost" in st):
            out.append("a leave_field replacement names its subject, and where it goes (to) or what happens")
        if st.get("optional") and st.get("subject") != "this":
            out.append("only a SIGNI's own leave_field replacement may say 'you may'")
        if st.get("cause", "opponent_effect") != "opponent_effect" or ("cause" in st and "to" in st):
            out.append("a leave_field replacement's cause is opponent_effect, with instead")
        if not all(_asks_nothing(x) for x in st.get("instead", [])):
            out.append("what happens instead of leaving the field asks nothing (this card, or all that fit)")
    elif not st.get("instead") or "to" in st or "subject" in st:
        out.append("a damage replacement names the steps that happen instead (instead), not a zone")
    return out


constant(
    "replace",
    {
        "event": Literal["damage", "leave_field", "vanish"],
        "cause": Literal["attack", "opponent_effect"],
        "instead": list,
        "optional": bool,
        "subject": Literal["opponent_signi", "this"],
        "to": Literal["trash", "deck_bottom"],
        "cost": dict,
    },
    _replace_text,
    "a replacement effect: when the event would happen to its controller, the steps of instead happen in its "
    "place (optional: its controller is asked first, while the event waits)",
    check=_replace_check,
    required=("event",),
)


def _negate_ability_text(st: Step) -> str:
    kinds = "/".join(f"[{k.capitalize()}]" for k in st.get("kinds", ()))
    return (
        f"if an {kinds} ability of a SIGNI of the opponent's activates, you may "
        f"{_replace_cost_text(st.get('cost', {}))}; if you do, that ability does nothing instead"
    )


def _negate_ability_check(st: Step) -> list[str]:
    out = []
    if not st.get("kinds") or set(st["kinds"]) - {"auto", "enter", "action"}:
        out.append("negate_ability names the kinds of ability it negates: auto, enter, action")
    if set(st.get("cost", {})) != {"trash_under"}:
        out.append("negate_ability is paid with cards from under this SIGNI (cost trash_under)")
    return out


constant(
    "negate_ability",
    {"kinds": list, "of": Literal["opponent_signi"], "cost": dict},
    _negate_ability_text,
    "as an ability of those kinds of a SIGNI of the opponent's activates, this card's player may pay the "
    "cost (cards from under this SIGNI, chosen with the answer); if they do, the ability does nothing",
    check=_negate_ability_check,
    required=("kinds", "cost"),
)


def general_constant(name: str, changes: tuple[str, ...], doc: str) -> None:
    """Register ``name`` as the general word whose ``change`` names one of ``changes``; each of those is an
    alias of it with ``change`` fixed."""
    params: dict[str, Any] = {"change": Literal[changes]}
    for c in changes:
        params.update(FORMS[c].params)
    CONSTANT_WORDS[name] = ConstantWord(name, params, lambda st: FORMS[st["change"]].text(st), doc)
    for c in changes:
        constant_alias(c, name, change=c)


general_constant(
    "grant",
    ("power", "keywords", "soul_grant", "grant_ability", "colors"),
    "what a card has while the ability applies: power (the target, amount, per), keywords, colours, the "
    "ability the SIGNI this card is attached to as a [Soul] has, or an ability the cards its target names "
    "have (this card, your center LRIG ...; target above: the constants of a card lying under a SIGNI that "
    "name the SIGNI on top of it)",
)
general_constant(
    "rule",
    (
        "immune",
        "spell_cost",
        "action_cost",
        "spell_ban",
        "coin_ban",
        "vanished_to_trash",
        "lrig_attacks",
        "refresh_keeps_life",
        "guard_cost",
        "attack_cost",
        "minus_to_plus",
        "must_target",
        "replace",
        "negate_ability",
        "grow_cost",
        "zone_level",
        "attack_face_down",
        "place_front",
    ),
    "a rule that changes while the ability applies: what cannot vanish the card, what spells cost, which "
    "spells no player can use, who cannot gain coins, where a SIGNI vanished goes, how often and when this "
    "LRIG may attack, "
    "whether a refresh trashes Life Cloth, what the opponent's Guard costs, what happens instead of an event",
)
constant_alias("front_vanished_to_trash", "vanished_to_trash", which="front")

CONSTANT_OPS = (*CONSTANT_WORDS, *CONSTANT_ALIASES)


def expand(step: Step) -> dict[str, Any]:
    """The general form of a constant step (an alias with its fixed parameters, an alias of an alias with
    both's)."""
    a = CONSTANT_ALIASES.get(str(step.get("op")))
    return dict(step) if a is None else expand({**step, "op": a.of, **a.fixed})


def core_op(op: str) -> str:
    return str(expand({"op": op})["op"])


def form_of(step: Step) -> str:
    """What a constant step changes (``power``, ``immune`` ...): the general form's ``change``."""
    return str(expand(step).get("change", ""))


def constant_text(step: Step) -> str:
    g = expand(step)
    w = FORMS.get(str(g.get("change")))
    return w.text(g) if w is not None and g.get("op") in CONSTANT_WORDS else str(step.get("op"))


def constant_problems(step: Step) -> list[str]:
    """Everything in a constant step outside the vocabulary: an aliased step is checked against its own
    parameters, a general one against those of what its ``change`` names."""
    op = step.get("op")
    if op not in CONSTANT_OPS:
        return [f"a constant ability's step must be one of {CONSTANT_OPS}"]
    g = expand(step)
    general = CONSTANT_WORDS[g["op"]]
    if not fits(g.get("change"), general.params["change"]):
        return [
            f"constant {op}: change must be {type_text(general.params['change'])}, not {g.get('change')!r}"
        ]
    w = FORMS[g["change"]]
    own = set(w.params) | ({"change"} if op in CONSTANT_WORDS else set())
    out = [f"constant {op}: unknown field(s) {sorted(k for k in step if k != 'op' and k not in own)}"]
    if all(k == "op" or k in own for k in step):
        out = []
    for k, kind in w.params.items():
        if k in g and not fits(g[k], kind):
            out.append(f"constant {op}: {k} must be {type_text(kind)}, not {g[k]!r}")
    out.extend(f"constant {op}: {k} is required" for k in w.required if k not in g)
    if not out and w.check is not None:
        out.extend(f"constant {op}: {p}" for p in w.check(g))
    return out


def count_uses(encodings: Mapping[str, list[dict[str, Any]]]) -> dict[str, set[str]]:
    """Which cards use each constant word (core words and aliases)."""
    uses: dict[str, set[str]] = {}

    def walk(card: str, value: Any) -> None:
        if isinstance(value, dict):
            if value.get("kind") == "constant":
                for st in value.get("effect", []):
                    uses.setdefault(str(st.get("op")), set()).add(card)
            for v in value.values():
                walk(card, v)
        elif isinstance(value, list):
            for v in value:
                walk(card, v)

    for card, abilities in encodings.items():
        walk(card, abilities)
    return uses
