"""The conditions abilities check: one registry entry per condition word.

A condition is an object; each key is a condition word, its value the word's parameters, and it holds when
every part holds. A word (``ConditionWord``) is, in one place: its parameters' type, how it is evaluated, how
it reads in English, and what else is checked of it when the encodings load.

The general word is ``compare``: a measure (see ``measures``: a count, a power, a level ...), an ``op`` (one
of ``OPS``) and a ``value``, or a list of such comparisons that must all hold::

    {"compare": {"count": {"zone": "trash", "filter": {"type": "spell"}}, "op": ">=", "value": 3}}

The older names of count conditions (``lrig_level: 3``, ``hand_lead: 4``, ``count: {"zone": ..., "at_least":
n}`` ...) are aliases (``ConditionAlias``): each stands for a ``compare`` and is evaluated as one; it keeps
its own sentence, so explanations read as before.

Whether something is so is a measure of 1 or 0 (``your_turn``, ``awakened``, ``upped``,
``discarded_this_turn``, ``attacker_front_empty``, ``moved_share_class``; ``front`` and ``revealed`` with a
filter; ``unfit``: the SIGNI on a side not fitting a filter, for ``all_signi``): those older names are aliases
of ``compare`` too.

The other words are no number: ``phase``, ``position`` (this card's zone), ``lrig_colors`` (an LRIG of each
colour, each a different LRIG)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from domain import facts
from domain.abilities import measures as ms
from domain.abilities.filters import (
    filter_text,
)
from domain.abilities.measures import Ctx

Condition = Mapping[str, Any]
Holds = Callable[[Ctx, Any], bool]
Text = Callable[[Any], str]
Check = Callable[[Any], list[str]]

OPS: dict[str, Callable[[int, int], bool]] = {
    "<": lambda a, b: a < b,
    "<=": lambda a, b: a <= b,
    "==": lambda a, b: a == b,
    ">=": lambda a, b: a >= b,
    ">": lambda a, b: a > b,
    "divisible": lambda a, b: b != 0 and a % b == 0,  # "even": divisible by 2
    "not_divisible": lambda a, b: b != 0 and a % b != 0,  # "odd": not divisible by 2
}
_OP_TEXT = {
    "<": "less than",
    "<=": "at most",
    "==": "exactly",
    ">=": "at least",
    ">": "more than",
    "divisible": "divisible by",
    "not_divisible": "not divisible by",
}


@dataclass(frozen=True)
class ConditionWord:
    name: str
    params: Any  # the type of the word's value: a Python type, or a tuple of the values it may take
    holds: Holds
    text: Text
    doc: str
    check: Check | None = None


@dataclass(frozen=True)
class ConditionAlias:
    name: str
    of: str  # the general word
    params: Any
    expand: Callable[[Any], Any]  # the general word's value the alias stands for
    text: Text
    doc: str = ""
    keys: frozenset[str] | None = None  # of a value that is a dict picked apart: the keys it reads


WORDS: dict[str, ConditionWord] = {}
ALIASES: dict[str, ConditionAlias] = {}


def condition(name: str, params: Any, text: Text, *, check: Check | None = None) -> Callable[[Holds], Holds]:
    """Register the decorated function as the condition word ``name`` (its docstring describes it)."""

    def register(fn: Holds) -> Holds:
        _free(name)
        WORDS[name] = ConditionWord(name, params, fn, text, (fn.__doc__ or "").strip(), check)
        return fn

    return register


def alias(
    name: str,
    params: Any,
    expand: Callable[[Any], Any],
    text: Text,
    doc: str = "",
    *,
    keys: tuple[str, ...] | None = None,
) -> None:
    """Register ``name`` as an older name of a ``compare``. ``keys``: those a dict value may hold (the
    expansion reads only these; any other key would be dropped unnoticed, so it is a problem)."""
    _free(name)
    if not doc:  # the compare it stands for, with n for its value
        doc = "n: " + "; ".join(
            f"{k} {cmp[k]} {cmp['op']} {cmp['value']}" for cmp in expand("n") for k in cmp if k in ms.MEASURES
        )
    ALIASES[name] = ConditionAlias(
        name, "compare", params, expand, text, doc, frozenset(keys) if keys else None
    )


def _free(name: str) -> None:
    if name in WORDS or name in ALIASES:
        raise ValueError(f"the condition {name!r} is registered twice")


# -- compare: every count, power and level --------------------------------------------------------


def _comparisons(v: Any) -> list[Mapping[str, Any]]:
    return list(v) if isinstance(v, list) else [v]


def _compare_one(c: Ctx, cmp: Mapping[str, Any]) -> bool:
    got = ms.value(c, cmp)
    return got is not None and OPS[cmp.get("op", ">=")](got, int(cmp["value"]))


def _compare_text(v: Any) -> str:
    return " and ".join(
        f"{ms.text(cmp)} is {_OP_TEXT.get(cmp.get('op', '>='), '?')} {cmp.get('value')}"
        for cmp in _comparisons(v)
    )


def _compare_problems(v: Any) -> list[str]:
    out: list[str] = []
    for cmp in _comparisons(v):
        out.extend(f"compare: {p}" for p in ms.problems(cmp, ("op", "value")))
        if not isinstance(cmp, Mapping):
            continue
        if cmp.get("op", ">=") not in OPS:
            out.append(f"compare: op must be one of {tuple(OPS)}, not {cmp.get('op')!r}")
        value = cmp.get("value")
        if not isinstance(value, int) or isinstance(value, bool):
            out.append(f"compare: value must be a number, not {value!r}")
        out.extend(_any_of_problems(cmp))
    return out


@condition("compare", (dict, list), _compare_text, check=_compare_problems)
def _compare(c: Ctx, v: Any) -> bool:
    """A measure compared with a number: ``{<measure>, "op", "value"}`` (or a list of them, all holding)."""
    return all(_compare_one(c, cmp) for cmp in _comparisons(v))


@ms.measure(
    "any_of",
    {"of": list},
    lambda p: "whether " + " or ".join(_compare_text(cmp) for cmp in p.get("of", [])) + " (1 or 0)",
)
def _any_of(c: Ctx, p: dict[str, Any]) -> int:
    """Whether one of the comparisons ``of`` holds (1 or 0): "if X, or if Y" (each ``{<measure>, "op",
    "value"}``)."""
    return int(any(_compare_one(c, cmp) for cmp in p.get("of", [])))


def _any_of_problems(cmp: Mapping[str, Any]) -> list[str]:
    """The comparisons inside an ``any_of`` measure, checked as those of ``compare``."""
    inner = cmp.get("any_of")
    if not isinstance(inner, Mapping):
        return []
    of = inner.get("of")
    if not isinstance(of, list) or not of:
        return ["any_of: 'of' is a list of comparisons"]
    return [p for one in of for p in _compare_problems(one)]


def _at_least(m: Mapping[str, Any], n: Any) -> dict[str, Any]:
    return {**m, "op": ">=", "value": n}


def _count_expand(v: Mapping[str, Any]) -> list[dict[str, Any]]:
    m = {"count": {"side": v.get("side", "you"), "zone": v["zone"], "filter": v.get("filter", {})}}
    out = [_at_least(m, v.get("at_least", 1))]
    if "at_most" in v:
        out.append({**m, "op": "<=", "value": int(v["at_most"])})
    return out


def _count_text(v: Mapping[str, Any]) -> str:
    whose = "your" if v.get("side", "you") == "you" else "their"
    many = f"at most {v['at_most']}" if "at_most" in v else f"{v.get('at_least', 1)}+"
    what = f"{many} cards {filter_text(v.get('filter', {}))}".rstrip()
    if v["zone"] == "face_down":  # face-down cards in the SIGNI zones (rule face-down.signi)
        return f"{many} face-down cards in {whose} SIGNI zones"
    return f"{what} in {whose} {v['zone'].replace('_', ' ')}"


def _signi_text(v: Mapping[str, Any]) -> str:
    side = "your" if v.get("side", "you") == "you" else "the opponent's"
    return f"{v.get('at_least', 1)}+ SIGNI {filter_text(v.get('filter', {}))} on {side} field"


alias(
    "team_lrigs",
    dict,
    lambda v: [_at_least({"lrigs": {"team": v.get("team") or ""}}, v.get("count", 3))],
    lambda v: f"{v.get('count', 3)} LRIGs of {v.get('team') or 'its team'} are on your field",
    "{team, count}: that many of your LRIGs are of the team (by default this card's)",
    keys=("team", "count"),
)
alias(
    "team_level",
    int,
    lambda v: [_at_least({"lrigs": {}}, 3), _at_least({"level": {"of": "lowest"}}, v)],
    lambda v: f"your three LRIGs are all of its team and of level {v} or more",
    "n: your three LRIGs are all of this card's team, each of level n or more",
)
alias(
    "signi",
    dict,
    lambda v: [
        _at_least(
            {"count": {"side": v.get("side", "you"), "zone": "signi", "filter": v.get("filter", {})}},
            v.get("at_least", 1),
        )
    ],
    _signi_text,
    "{side, filter, at_least}: at least that many SIGNI on that side's field fit the filter",
    keys=("side", "filter", "at_least"),
)
alias(
    "count",
    dict,
    _count_expand,
    _count_text,
    "{side, zone, filter, at_least, at_most}: cards in a zone (other keys of the count measure, such as "
    "other, only in the compare form)",
    keys=("side", "zone", "filter", "at_least", "at_most"),
)
alias(
    "ener_classes",
    int,
    lambda v: [_at_least({"classes": {"zone": "ener"}}, v)],
    lambda v: f"SIGNI of {v}+ classes in your ener zone",
)
alias(
    "hand_lead",
    int,
    lambda v: [_at_least({"hand_lead": {}}, v)],
    lambda v: f"you hold {v}+ more cards than the opponent",
)
alias("self_power", int, lambda v: [_at_least({"power": {}}, v)], lambda v: f"its power is {v}+")
alias("under_at_least", int, lambda v: [_at_least({"under": {}}, v)], lambda v: f"{v}+ cards are under it")
alias(
    "lrig_level",
    int,
    lambda v: [_at_least({"level": {"whose": "you"}}, v)],
    lambda v: f"your center LRIG is level {v}+",
)
alias(
    "opponent_lrig_level",
    int,
    lambda v: [_at_least({"level": {"whose": "opponent"}}, v)],
    lambda v: f"the opponent's center LRIG is level {v}+",
)
alias(
    "lrig_color_count",
    int,
    lambda v: [_at_least({"count": {"zone": "lrig"}}, 3), _at_least({"colors": {"of": "lrigs"}}, v)],
    lambda v: f"your three LRIGs have {v}+ colours among them",
)
alias(
    "discarded_at_least",
    int,
    lambda v: [_at_least({"noted": {"what": "discarded"}}, v)],
    lambda v: f"{v}+ cards were discarded",
)
alias(
    "moved_at_least",
    int,
    lambda v: [_at_least({"noted": {"what": "moved"}}, v)],
    lambda v: f"{v}+ cards were moved",
)
alias(
    "paid_colors",
    int,
    lambda v: [_at_least({"colors": {"of": "paid"}}, v)],
    lambda v: f"the ener paid has {v}+ colours",
)
alias(
    "did",
    bool,
    lambda v: [{"noted": {"what": "done"}, "op": ">=" if v else "==", "value": 1 if v else 0}],
    lambda v: "you did" if v else "you did not",
    'true | false: "if you do": whether the step just before moved any card',
)
alias(
    "extra_paid",
    bool,
    lambda v: [{"noted": {"what": "extra_paid"}, "op": "==", "value": int(v)}],
    lambda v: "its extra cost was paid" if v else "its extra cost was not paid",
    "true | false: whether the spell's or PIECE's extra cost (Bet, an optional Exceed) was paid",
)
alias(
    "attack_damaged",
    bool,
    lambda v: [{"noted": {"what": "attack_damaged"}, "op": "==", "value": int(v)}],
    lambda v: "the attack dealt damage" if v else "the attack dealt no damage",
    "true | false: whether the LRIG attack the effect waited for dealt damage",
)


# -- the other words ------------------------------------------------------------------------------


def _is(measure: str, v: Any) -> list[dict[str, Any]]:
    """Whether something is (or is not) so: a 1-or-0 measure equal to the value."""
    return [{measure: {}, "op": "==", "value": int(v)}]


def _yes_no(measure: str, yes: str, no: str, doc: str) -> None:
    alias(measure, bool, lambda v: _is(measure, v), lambda v: yes if v else no, f"true | false: {doc}")


_yes_no("your_turn", "it is your turn", "it is the opponent's turn", "whether it is the controller's turn")
_yes_no(
    "your_main_phase",
    "it is your main phase",
    "it is outside your main phase",
    "whether it is the controller's main phase",
)
_yes_no("awakened", "it is awakened", "it is not awakened", "this SIGNI is awakened (or was, as it left)")
_yes_no("upped", "it is upped", "it is downed", "this card is on the field and upped (or downed)")
_yes_no(
    "discarded_this_turn",
    "you discarded a card this turn",
    "you discarded no card this turn",
    "whether you discarded a card this turn (by any means)",
)
_yes_no(
    "deck_to_ener_this_turn",
    "a card moved from your deck to your ener zone this turn",
    "no card moved from your deck to your ener zone this turn",
    "whether a card moved from your deck to your ener zone this turn (by any means)",
)
_yes_no(
    "attacker_front_empty",
    "the zone in front of the attacking SIGNI is empty",
    "the zone in front of the attacking SIGNI is taken",
    "an opponent's SIGNI attacks, and your zone in front of it is empty (or taken)",
)
_yes_no(
    "moved_share_class",
    "those cards share a class",
    "those cards share no class",
    "the cards the effect just moved (two or more) share a class (or not)",
)
alias(
    "subject_fits",
    dict,
    lambda v: [{"subject": {"filter": v}, "op": "==", "value": 1}],
    lambda v: f"the SIGNI the trigger was about is {filter_text(v).strip('()')}",
    "filter: the SIGNI the trigger's event was about (the one that entered ...) fits the filter",
)
alias(
    "front",
    dict,
    lambda v: [{"front": {"filter": v}, "op": "==", "value": 1}],
    lambda v: f"the SIGNI in front of it is {filter_text(v).strip('()') or 'there'}",
    "filter: the opponent's SIGNI in front of this SIGNI exists and fits the filter",
)


def _all_signi_text(v: Any) -> str:
    whose = "your" if v.get("side", "you") == "you" else "the opponent's"
    return f"every SIGNI on {whose} field is {filter_text(v.get('filter', {})).strip('()')}"


alias(
    "all_signi",
    dict,
    lambda v: [
        {"unfit": {"side": v.get("side", "you"), "filter": v.get("filter", {})}, "op": "==", "value": 0}
    ],
    _all_signi_text,
    "{side, filter}: every SIGNI on that side's field fits the filter (none there: it holds)",
    keys=("side", "filter"),
)
alias(
    "moved_fits",
    dict,
    lambda v: [{"moved_fit": {"filter": v}, "op": ">=", "value": 1}],
    lambda v: f"the card moved is {filter_text(v).strip('()')}",
    "filter: a card the effect just moved (off the field, from the deck into the trash, or from another "
    "zone: 'then, if it is X') fits the filter",
)
alias(
    "revealed",
    dict,
    lambda v: [{"revealed": {"filter": v}, "op": "==", "value": 1}],
    lambda v: f"the revealed card is {filter_text(v).strip('()')}",
    "filter: the card the effect last revealed fits the filter",
)


# -- what is no number: the phase, this card's zone, the LRIGs' colours -----------------------------


@condition("phase", (str, list), lambda v: f"it is {'the ' + v if isinstance(v, str) else '/'.join(v)} phase")
def _phase(c: Ctx, v: Any) -> bool:
    """The phase is this one (or one of these)."""
    return c.s.phase in ([v] if isinstance(v, str) else v)


@condition("position", list, lambda v: f"it is in your {'/'.join(v)} zone")
def _position(c: Ctx, v: Any) -> bool:
    """This card is in one of these SIGNI zones."""
    where = c.s.where(c.source)
    return where is not None and where[1].split(":")[-1] in v


@condition("lrig_colors", list, lambda v: "you have " + ", ".join(f"a {col}" for col in v) + " LRIG")
def _lrig_colors(c: Ctx, v: Any) -> bool:
    """One LRIG of each colour, each a different LRIG."""
    lrigs = [facts.card_of(c.s, sl.iid).colors for sl in c.s.players[c.controller].lrig.values() if sl]
    return _one_each(list(v), lrigs)


def _one_each(colors: list[str], lrigs: list[tuple[str, ...]]) -> bool:
    """Whether each colour can be matched to a different LRIG having it."""
    if not colors:
        return True
    head, rest = colors[0], colors[1:]
    return any(head in col and _one_each(rest, lrigs[:i] + lrigs[i + 1 :]) for i, col in enumerate(lrigs))


# -- reading, checking and evaluating conditions --------------------------------------------------

CONDITIONS = tuple([*WORDS, *ALIASES])


def general(name: str, value: Any) -> tuple[str, Any]:
    """A condition part in its general form: an alias's ``compare``, any other word as it is."""
    a = ALIASES.get(name)
    return (a.of, a.expand(value)) if a is not None else (name, value)


def holds(
    s: Any,
    controller: str,
    source: str,
    cond: Condition | None,
    vars: Mapping[str, Any] | None = None,
) -> bool:
    """Whether every part of a condition holds for the ability of ``source`` controlled by ``controller``;
    ``vars`` are what the effect in progress noted (the cards it moved, whether the attack dealt damage)."""
    if not cond:
        return True
    c = Ctx(s, controller, source, vars or {})
    for key, want in cond.items():
        name, value = general(key, want)
        w = WORDS.get(name)
        if w is None:
            raise ValueError(f"unknown condition {key!r}")
        if not w.holds(c, value):
            return False
    return True


def condition_text(cond: Condition) -> str:
    parts = []
    for k, v in cond.items():
        entry = ALIASES.get(k) or WORDS.get(k)
        if entry is not None:
            parts.append(entry.text(v))
    return " and ".join(parts)


def _fits(value: Any, kind: Any) -> bool:
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if isinstance(value, bool) and bool not in kinds:
        return False
    return isinstance(value, kinds)


def condition_problems(cond: Condition) -> list[str]:
    """Everything in a condition outside the vocabulary: an unknown word, a value of the wrong type, and what
    the word checks itself (of an alias: of the ``compare`` it stands for)."""
    out: list[str] = []
    for k, v in cond.items():
        entry = ALIASES.get(k) or WORDS.get(k)
        if entry is None:
            out.append(f"unknown condition {k!r}")
            continue
        if not _fits(v, entry.params):
            out.append(f"condition {k}: {v!r} is not of the word's type")
            continue
        keys = entry.keys if isinstance(entry, ConditionAlias) else None
        unread = sorted(set(v) - keys) if keys and isinstance(v, dict) else []
        if unread:
            out.append(
                f"condition {k}: it reads only {', '.join(sorted(keys or ()))}; not {', '.join(unread)}"
            )
            continue
        name, value = general(k, v)
        check = WORDS[name].check
        if check is not None:
            out.extend(f"condition {k}: {p}" for p in check(value))
    return out


def count_uses(encodings: Mapping[str, list[dict[str, Any]]]) -> dict[str, set[str]]:
    """Which cards use each condition word (core words and aliases), wherever a condition is written."""
    uses: dict[str, set[str]] = {}

    def walk(card: str, value: Any) -> None:
        if isinstance(value, dict):
            for key in ("condition", "use_condition", "during"):
                if isinstance(value.get(key), dict):
                    for name in value[key]:
                        uses.setdefault(name, set()).add(card)
            for v in value.values():
                walk(card, v)
        elif isinstance(value, list):
            for v in value:
                walk(card, v)

    for card, abilities in encodings.items():
        walk(card, abilities)
    return uses
