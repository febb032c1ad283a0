"""Continuous ([Constant]) effects, computed from the board whenever a rule asks.

A constant ability applies while its card is on the field, has not lost its abilities, and its condition holds
(a Team constant, while the player's three LRIGs are of its team). Its steps are the constant words
(``constant_words``: ``grant`` and ``rule``, whose ``change`` names ``power``, ``immune``, ``spell_cost``,
``vanished_to_trash``, ``keywords``, ``soul_grant`` or ``lrig_attacks``, each also an alias of its general
word); ``active(s, change)`` yields those of one change that apply now, written as the
encoding wrote them (an alias among them), and the functions below read them.

A constant ability a card gained until end of turn (``grant_ability``) applies like one of its own; so does
one a player or their center LRIG holds for the game (``hold_ability``: the player's applies from wherever
the card that gave it is).

This module registers the power and keywords constants give with ``domain.facts`` as it loads
(``facts.use_constant_effects``): the facts of a card ask no module of the abilities."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from contextvars import ContextVar
from dataclasses import replace
from functools import cache
from itertools import product
from typing import Any

from domain import coins, facts, tally
from domain.abilities import targets as tg
from domain.abilities.catalogue import abilities_of, ability_at, forget_with_encodings, granted_ref
from domain.abilities.constant_words import CONSTANT_OPS, expand, form_of
from domain.abilities.filters import infected
from domain.abilities.measures import Ctx, bonus
from domain.abilities.triggers import held, holding, team_ok, use_constant_abilities
from domain.cards import Card, CardType, CostItem
from domain.per_match import PerMatch
from domain.state import GameState, Slot, facing, opponent

__all__ = [
    "CONSTANT_OPS",
    "action_cost_extra",
    "active",
    "attack_face_down",
    "coins_banned",
    "front_to_trash",
    "given_life_burst",
    "immune",
    "keyword_bonus",
    "leave_redirect",
    "lrig_attack_terms",
    "must_target",
    "placed_in_front",
    "power_bonus",
    "replacements",
    "spell_banned",
    "spell_cost_extra",
    "spell_cost_less",
    "vanishes_to_trash",
]

Ability = dict[str, Any]
Step = dict[str, Any]
Applying = tuple[str, str, Step]  # (controller, source card, step)


@cache
def _constants(card_id: str) -> tuple[tuple[int, Ability], ...]:
    return tuple((i, ab) for i, ab in enumerate(abilities_of(card_id)) if ab["kind"] == "constant")


@cache
def _steps(card_id: str, op: str) -> tuple[tuple[Ability, Step], ...]:
    """(ability, step) of a card's constant steps of one word (its aliases included)."""
    return tuple(
        (ab, st) for _i, ab in _constants(card_id) for st in ab.get("effect", []) if form_of(st) == op
    )


_HOLDERS: PerMatch[frozenset[str]] = PerMatch()


def _forget() -> None:
    """Other encodings: what the cards hold is found anew."""
    global _HOLDERS
    _constants.cache_clear()
    _steps.cache_clear()
    adds_colours.cache_clear()
    changes_zones.cache_clear()
    _HOLDERS = PerMatch()
    facts.use_colour_effects(added_colors, adds_colours)
    facts.use_zone_effects(zone_card, changes_zones)


forget_with_encodings(_forget)


def _holders(s: GameState, op: str) -> frozenset[str]:
    """The match's card instances whose own constant abilities have steps of kind ``op``, found once per
    match and kind."""
    return _HOLDERS.get(s.cards, lambda: frozenset(i for i, c in s.cards.items() if _steps(c, op)), op)


def active(s: GameState, op: str) -> Iterator[Applying]:
    """(controller, source card, step) of every constant step of kind ``op`` that applies now."""
    holders = _holders(s, op)
    for p, ps in s.players.items():
        center = ps.lrig.get("center")
        for source in (*ps.signi.values(), *ps.lrig.values()):
            if source is None or (source.iid not in holders and not source.keywords and source is not center):
                continue
            steps = _steps(s.cards[source.iid], op)
            if source.keywords:  # abilities gained until end of turn are kept among the keywords
                steps += _granted_steps(s, source, op)
            if source is center and ps.held:  # what the center LRIG holds for the game
                steps += _held_steps(s, source.iid, op)
            if not steps or tg.lost(s, source.iid):
                continue
            for ab, st in steps:
                if ab.get("team") and not team_ok(s, p, s.cards[source.iid], ab["team"]):
                    continue
                if not tg.holds(s, p, source.iid, ab.get("condition")):
                    continue
                yield p, source.iid, st
        for host in holding(s, p) if ps.held else ():  # what the player holds for the game, from its card
            for ab, st in _held_steps(s, host, op):
                if tg.holds(s, p, host, ab.get("condition")):
                    yield p, host, st
    yield from _from_under(s, op, holders)


def _held_steps(s: GameState, iid: str, op: str) -> tuple[tuple[Ability, Step], ...]:
    """(ability, step) of the constant steps of one word among the abilities held for the game that the card
    carries (``triggers.held``)."""
    return tuple(
        (ab, st)
        for _ref, ab in held(s, iid)
        if ab["kind"] == "constant"
        for st in ab.get("effect", [])
        if form_of(st) == op
    )


def above(step: Step) -> bool:
    """Whether a constant step names the SIGNI on top of its card ("the SIGNI on top of this card gets ..."):
    such a step applies only while its card lies under a SIGNI on the field, and names only that SIGNI."""
    return bool(step.get("target", {}).get("above"))


def _from_under(s: GameState, op: str, holders: frozenset[str]) -> Iterator[Applying]:
    """(controller, card under, step) of the constant steps of cards lying under a SIGNI on the field that
    name the SIGNI on top of them; the SIGNI's controller controls them (a [Soul] is attached, not under)."""
    for p, ps in s.players.items():
        for _z, slot in ps.signi_slots():
            for u in slot.under:
                if u not in holders:
                    continue
                for ab, st in _steps(s.cards[u], op):
                    if above(st) and tg.holds(s, p, u, ab.get("condition")):
                        yield p, u, st


def under_card_above(s: GameState, under: str, iid: str, f: tg.Filter) -> bool:
    """Whether the SIGNI ``iid`` on the field has the card ``under`` lying under it and fits the filter."""
    slot = tg._slot(s, iid)
    return slot is not None and under in slot.under and tg.card_fits(facts.card_of(s, iid), f)


def _granted_steps(s: GameState, slot: Slot, op: str) -> tuple[tuple[Ability, Step], ...]:
    """(ability, step) of the constant steps of one word among the abilities the card gained."""
    if not any(k.startswith("ability:") for k in slot.keywords):
        return ()
    out: list[tuple[Ability, Step]] = []
    for k in slot.keywords:
        if k.startswith("ability:"):
            ab = ability_at(s.cards[slot.iid], k.split(":", 1)[1])
            if ab["kind"] == "constant":
                out.extend((ab, st) for st in ab.get("effect", []) if form_of(st) == op)
    return tuple(out)


def keyword_bonus(s: GameState, slot: Slot, granting: Sequence[Any] | None = None) -> frozenset[str]:
    """Keywords a card has from constant abilities (its own or gained) that apply now. ``granting``: the
    constant keyword steps that apply now (``active(s, "keywords")``), when the caller has worked them out."""
    out: set[str] = set()
    for p, source, step in active(s, "keywords") if granting is None else granting:
        target = step.get("target", {})
        if target.get("above"):  # the SIGNI on top of the card it is on
            if under_card_above(s, source, slot.iid, target.get("filter", {})):
                out.update(step.get("keywords", []))
        elif target.get("facing"):  # the opponent's SIGNI in the zone in front of this SIGNI
            here = (s.players[p].find(source) or "").split(":")
            front = s.players[opponent(p)].signi.get(facing(here[1])) if here[0] == "signi" else None
            if front is not None and front.iid == slot.iid:
                out.update(step.get("keywords", []))
        elif target.get("self", True) and "side" not in target:
            if source == slot.iid:
                out.update(step.get("keywords", []))
        elif slot.iid in tg.candidates(s, p, source, {**target, "all": True}):  # other SIGNI it names
            out.update(step.get("keywords", []))
    return frozenset(out)


def power_bonus(s: GameState, slot: Slot, applying: Sequence[Any] | None = None) -> int:
    """What constant abilities add to a SIGNI's power now; a minus from the opponent's constants is left out
    when the SIGNI's own constant says its power cannot be lowered by their effects."""
    target_owner = s.owners[slot.iid]
    steps = active(s, "power") if applying is None else applying
    total = 0
    for p, source, step in steps:
        n = _applies(s, p, source, step, slot, target_owner)
        if n < 0 and p != target_owner and immune(s, slot.iid, "power_minus", p):
            continue
        total += n
    return total


def lrig_attack_terms(s: GameState, iid: str) -> tuple[bool, int | None]:
    """(may attack while downed, how many attacks this turn at most: None for no count) for an LRIG."""
    steps = [st for _p, source, st in active(s, "lrig_attacks") if source == iid]
    if not steps:
        return False, None
    limit = max(int(st.get("max", 1)) for st in steps) + int(s.flags.get("attack_limit_mod", {}).get(iid, 0))
    return any(st.get("downed") for st in steps), limit


def _applies(s: GameState, p: str, source: str, step: Step, slot: Slot, target_owner: str) -> int:
    spec = step["target"]
    if spec.get("self"):
        return _amount(s, p, source, step, slot.iid) if source == slot.iid else 0
    if spec.get("facing"):  # the opponent's SIGNI in the zone in front of this SIGNI
        here = (s.players[p].find(source) or "").split(":")
        front = s.players[target_owner].signi.get(facing(here[1])) if here[0] == "signi" else None
        mine = target_owner == p or front is None or front.iid != slot.iid
        return 0 if mine else _amount(s, p, source, step, slot.iid)
    if spec.get("above"):  # the SIGNI on top of the card that has it
        on_top = under_card_above(s, source, slot.iid, spec.get("filter", {}))
        return _amount(s, p, source, step, slot.iid) if on_top else 0
    if tg.side_of(p, spec.get("side", "you")) != target_owner:
        return 0
    zone = (s.players[target_owner].find(slot.iid) or "").split(":")[-1]
    f = spec.get("filter", {})
    if spec.get("attacking") and not (s.attack and s.attack.get("card") == slot.iid):
        return 0
    if spec.get("another") and source == slot.iid:
        return 0
    if spec.get("next_to") and not _next_to(s, target_owner, source, zone):
        return 0
    if "in_front_of" in spec and not _facing_fits(s, p, target_owner, zone, spec["in_front_of"]):
        return 0
    # the filter is checked on printed facts, position and states (power filters would loop)
    card = facts.card_of(s, slot.iid)
    if "awakened" in f and slot.awakened != f["awakened"]:
        return 0
    if "infected" in f and infected(s, slot.iid, zone) != f["infected"]:  # a Virus in its zone (001 'Virus')
        return 0
    if tg.card_fits(card, f) and ("position" not in f or zone in f["position"]):
        return _amount(s, p, source, step, slot.iid)
    return 0


def _facing_fits(s: GameState, p: str, owner: str, zone: str, f: tg.Filter) -> bool:
    """Whether the SIGNI of the other field in front of ``owner``'s SIGNI zone ``zone`` fits the filter (its
    printed facts, states and what lies under it: "the SIGNI in front of a SIGNI of yours with a Soul")."""
    if owner == p or zone not in ("left", "center", "right"):
        return False
    front = s.players[p].signi.get(facing(zone))
    return front is not None and tg.slot_fits(s, front, facing(zone), f)


def _next_to(s: GameState, owner: str, source: str, zone: str) -> bool:
    """Whether the SIGNI zone ``zone`` of ``owner``'s field is next to the one the source is in (left and
    right are each next to the center)."""
    where = (s.players[owner].find(source) or "").split(":")
    return (
        len(where) == 2
        and where[0] == "signi"
        and {where[1], zone} in ({"left", "center"}, {"center", "right"})
    )


def _amount(s: GameState, p: str, source: str, step: Step, affected: str) -> int:
    """A power step's amount; with ``per``, once for each of what its measure counts now (the SIGNI the power
    goes to is noted as ``affected``: "for each of its levels")."""
    if "per" not in step:
        return int(step["amount"])
    return bonus(Ctx(s, p, source, {"affected": affected}), int(step["amount"]), step["per"])


def immune(
    s: GameState, iid: str, what: str, by: str, battle: bool = False, effect_of: str | None = None
) -> bool:
    """Whether a constant keeps the card from being ``what``-ed (vanished, downed) by an effect of player
    ``by``; ``battle``: vanished in battle, which only "cannot be vanished" (``by: any``) keeps from it.
    ``effect_of``: the card whose effect it is; a constant with a ``source`` filter keeps the card only from
    the effects of cards that fit it ("by the effects of the opponent's level one SIGNI"), their level as
    it is on the field."""
    for p, source, step in active(s, "immune"):
        if step.get("from") != what or not _keeps(s, p, source, step, iid):
            continue
        f = step.get("source")
        if f is not None and (battle or effect_of is None or not _source_fits(s, effect_of, f)):
            continue
        whom = step.get("by", "opponent")
        if whom == "self":  # "by this SIGNI's own effects"
            if effect_of == iid:
                return True
            continue
        if whom == "any" or (not battle and (whom == "opponent") == (by != p)):
            return True
    return False


def _keeps(s: GameState, p: str, source: str, step: Step, iid: str) -> bool:
    """Whether an immunity names the card: its own card, or the SIGNI its ``target`` names ("your level one
    SIGNI cannot be vanished ...")."""
    if "target" not in step:
        return source == iid
    return iid in tg.candidates(s, p, source, {**step["target"], "all": True})


def _source_fits(s: GameState, iid: str, f: tg.Filter) -> bool:
    """Whether the card whose effect it is fits a filter: its printed facts, and its level as it is now
    when it is on the field."""
    if iid not in s.cards:
        return False
    levels = {k: f[k] for k in ("level", "level_min", "level_max") if k in f}
    rest = {k: v for k, v in f.items() if k not in levels}
    if not tg.card_fits(facts.card_of(s, iid), rest):
        return False
    level = facts.level(s, iid) if tg.on_field(s, iid) else facts.card_of(s, iid).level or 0
    too_low = "level_min" in levels and level < levels["level_min"]
    too_high = "level_max" in levels and level > levels["level_max"]
    return not (too_low or too_high or ("level" in levels and level != levels["level"]))


def replacements(s: GameState, player: str, event: str) -> list[tuple[str, int | str, Step]]:
    """(source card, the number of its constant ability, step) of every replacement constant (``replace``)
    of ``player``'s cards that applies now to an event of that kind happening to them."""
    out: list[tuple[str, int | str, Step]] = []
    for p, source, st in active(s, "replace"):
        g = expand(st)
        if p != player or g.get("event") != event:
            continue
        ref = next((i for i, ab in _constants(s.cards[source]) if any(x is st for x in ab["effect"])), None)
        if ref is not None:
            out.append((source, ref, g))
    return out


def must_target(s: GameState, chooser: str, source: str, found: Sequence[str]) -> list[str]:
    """Among the cards ``found`` that a player (``chooser``) may target with the ability or effect of
    ``source``, those a constant of their opponent's says must be targeted if possible (``must_target``: the
    source a SIGNI card)."""
    if source not in s.cards or not facts.card_of(s, source).is_signi:
        return []
    return [
        src
        for p, src, st in active(s, "must_target")
        if p != chooser and src in found and expand(st).get("by", "signi") == "signi"
    ]


def leave_redirect(s: GameState, iid: str) -> tuple[str, str] | None:
    """(the zone, the card whose constant says so) where a SIGNI that leaves the field goes instead of where
    it would have gone (``replace`` of ``leave_field``), or None when no such constant applies now."""
    owner = s.owners.get(iid)
    for p, source, st in active(s, "replace"):
        g = expand(st)
        if g.get("event") != "leave_field" or "to" not in g:
            continue
        if g.get("subject") == "opponent_signi" and owner is not None and owner != p:
            return str(g["to"]), source  # (a SIGNI's own replacement: domain.abilities.leaving)
    return None


def minus_to_plus(s: GameState, iid: str, by: str) -> bool:
    """Whether a constant of the SIGNI itself turns minus power given by player ``by``'s effects (the
    opponent's) into plus."""
    return any(source == iid and p != by for p, source, _st in active(s, "minus_to_plus"))


def grow_cost(s: GameState, player: str, printed: tuple[CostItem, ...]) -> tuple[CostItem, ...]:
    """The ener a player pays to grow an LRIG with this printed grow cost, less what their constants reduce
    it by (a colour's part by that colour, colorless by colorless; never below nothing)."""
    cut: dict[str, int] = {}
    for p, _source, st in active(s, "grow_cost"):
        if p == player:
            for c in st.get("reduce", []):
                cut[c["color"]] = cut.get(c["color"], 0) + int(c["n"])
    return _less_by(printed, cut)


def attack_cost(s: GameState, slot: Slot) -> dict[str, Any]:
    """What a SIGNI's player must pay for it to attack (constants ``attack_cost`` it has, gained ones too,
    added up: ener items and discards); empty: nothing."""
    ener: list[dict[str, Any]] = []
    discard = 0
    for p, source, st in active(s, "attack_cost"):
        if st.get("of") == "opponent_signi":  # every SIGNI of the opponent's, not an LRIG
            if s.owners.get(slot.iid) == p or not facts.card_of(s, slot.iid).is_signi:
                continue
        elif source != slot.iid:
            continue
        ener += list(st["cost"].get("ener", []))
        d = st["cost"].get("discard", 0)
        discard += int(d.get("n", 1)) if isinstance(d, dict) else int(d)
    out: dict[str, Any] = {}
    if ener:
        out["ener"] = ener
    if discard:
        out["discard"] = discard
    return out


facts._attack_has_cost[0] = lambda s, slot: bool(attack_cost(s, slot))


def attack_face_down(s: GameState, slot: Slot) -> tuple[int | str, Step] | None:
    """The SIGNI's constant "if this SIGNI attacks, its player may instead turn up to n other SIGNI of theirs
    face down and attack" (``attack_face_down``), its own or one a constant gives it: (the ability's
    reference, the step); None when it has none now."""
    for _p, source, st in active(s, "attack_face_down"):
        if source == slot.iid:
            own = next((i for i, ab in _constants(s.cards[source]) if st in ab.get("effect", [])), 0)
            return own, st
    if tg.lost(s, slot.iid):
        return None
    for ref, ab in given_abilities(s, slot.iid):
        for st in ab.get("effect", []) if ab.get("kind") == "constant" else ():
            if form_of(st) == "attack_face_down":
                return ref, st
    return None


def guard_dues(s: GameState, guarding: str, *, instead: bool = False) -> list[dict[str, Any]]:
    """What the guarding player may pay with a Guard, besides discarding its card with Guard: each total they
    may choose (``{"ener": [...], "discard": n}``; ``[{}]``: nothing more). The opponent's constants
    ``guard_cost`` add ener (``add``) and one of their ``either`` costs each, the guarding player picking;
    with ``instead``, the totals of a Guard paid without a card with Guard: one of their own ``instead`` costs
    and the same extras (none such: no total)."""
    fixed: list[dict[str, Any]] = []
    picks: list[list[dict[str, Any]]] = []
    for p, _source, st in active(s, "guard_cost"):
        if p == guarding:
            continue
        fixed.extend(st.get("add", []))
        if st.get("either"):
            picks.append(list(st["either"]))
    bases: list[dict[str, Any]] = [{}]
    if instead:
        bases = [
            dict(st["instead"])
            for p, _src, st in active(s, "guard_cost")
            if p == guarding and "instead" in st
        ]
    out: list[dict[str, Any]] = []
    for base in bases:
        for chosen in product(*picks):
            total = _cost_sum([base, {"ener": fixed}, *chosen])
            if total not in out:
                out.append(total)
    return out


def _cost_sum(parts: list[dict[str, Any]]) -> dict[str, Any]:
    ener = [c for part in parts for c in part.get("ener", [])]
    discard = sum(int(part.get("discard", 0)) for part in parts)
    return {**({"ener": ener} if ener else {}), **({"discard": discard} if discard else {})}


def spell_cost_extra(s: GameState, caster: str) -> list[dict[str, Any]]:
    """Ener added to the cost of ``caster``'s spells by constant abilities."""
    extra: list[dict[str, Any]] = []
    for p, _source, step in active(s, "spell_cost"):
        if (step.get("whose", "opponent") == "opponent") == (caster != p):
            extra.extend(step.get("add", []))
    return extra


def spell_cost_less(
    s: GameState, caster: str, spell: str, printed: tuple[CostItem, ...]
) -> tuple[CostItem, ...]:
    """The printed cost of ``caster``'s spell less what their constants reduce it by (``reduce``, for the
    spells that fit the step's filter; a colour's part by that colour, colorless by colorless, never below
    nothing: rule effect.spell-cost-less)."""
    card = facts.card_of(s, spell)
    cut: dict[str, int] = {}
    for p, _source, st in active(s, "spell_cost"):
        mine = (st.get("whose", "opponent") == "opponent") == (caster != p)
        if mine and "reduce" in st and tg.card_fits(card, st.get("filter", {})):
            for c in st["reduce"]:
                cut[c["color"]] = cut.get(c["color"], 0) + int(c["n"])
    return _less_by(printed, cut)


def _less_by(printed: tuple[CostItem, ...], cut: dict[str, int]) -> tuple[CostItem, ...]:
    if not cut:
        return printed
    out = []
    for item in printed:
        less = min(item.n, cut.get(item.color, 0))
        cut[item.color] = cut.get(item.color, 0) - less
        out.append(CostItem(item.color, item.n - less))
    return tuple(out)


def action_cost_extra(s: GameState, user: str, iid: str) -> list[dict[str, Any]]:
    """Ener added by constant abilities to the cost of an [Action] ability of ``user``'s card ``iid``: their
    center LRIG's, or a SIGNI's of theirs on the field (``of``)."""
    ps = s.players[user]
    center = ps.lrig.get("center")
    kinds = {"center_lrig"} if center is not None and center.iid == iid else set()
    if any(sl.iid == iid for _z, sl in ps.signi_slots()):
        kinds.add("signi")
    if not kinds:
        return []
    extra: list[dict[str, Any]] = []
    for p, _source, step in active(s, "action_cost"):
        if (step.get("whose", "opponent") == "opponent") == (user != p) and kinds & set(step.get("of", [])):
            extra.extend(step.get("add", []))
    return extra


def spell_banned(s: GameState, spell: str) -> bool:
    """Whether a constant ability says no player can use this spell (000 '[Constant]')."""
    card = facts.card_of(s, spell)
    return any(tg.card_fits(card, step.get("filter", {})) for _p, _src, step in active(s, "spell_ban"))


def coins_banned(s: GameState, player: str) -> bool:
    """Whether a constant ability says ``player`` cannot gain coins (rule ``effect.coins``)."""
    return any(
        (step.get("whose", "you") == "you") == (p == player) for p, _src, step in active(s, "coin_ban")
    )


def vanishes_to_trash(s: GameState, attacker: str, vanished: str) -> bool:
    """Whether a SIGNI the attacker vanishes in battle goes to the trash instead of the ener zone (with a
    ``filter``: only one that fits it, read as it was as it left the field: "a frozen SIGNI")."""
    return any(
        source == attacker
        and expand(st).get("which", "battled") == "battled"
        and _was_fitting(s, vanished, st.get("filter", {}))
        for _p, source, st in active(s, "vanished_to_trash")
    )


def _was_fitting(s: GameState, iid: str, f: dict[str, Any]) -> bool:
    """Whether a SIGNI that just left the field fitted a filter as it was then: its printed facts, and whether
    it was upped or frozen (``tally.last_known``)."""
    if not f:
        return True
    was = tally.last_known(s, iid) or {}
    states = {k: f[k] for k in ("upped", "frozen") if k in f}
    printed = {k: v for k, v in f.items() if k not in states}
    fits_then = all(bool(was.get(k)) == v for k, v in states.items())
    return fits_then and tg.card_fits(facts.card_of(s, iid), printed)


def front_to_trash(s: GameState, owner: str, zone: str) -> str | None:
    """The card whose constant sends the SIGNI of ``owner`` vanished in ``zone`` (the one in front of it) to
    the trash instead of the ener zone, during an attack phase; None when there is none."""
    if s.phase != "attack":
        return None
    for p, source, st in active(s, "vanished_to_trash"):
        if (
            expand(st).get("which") == "front"
            and p != owner
            and s.players[p].find(source) == f"signi:{facing(zone)}"
        ):
            return source
    return None


def given_abilities(s: GameState, iid: str) -> list[tuple[int | str, Ability]]:
    """(reference, ability) of the abilities constant ``grant_ability`` steps that apply now give the card:
    "your center LRIG gains ...", "as long as ..., this SIGNI gains ..." (000 '[Constant]'); those naming the
    SIGNI on top of their card (``above``) are found with the cards under it (``triggers.soul_given``)."""
    out: list[tuple[int | str, Ability]] = []
    for p, source, step in active(s, "grant_ability"):
        spec = step.get("target", {"self": True})
        if above(step):
            continue
        if spec.get("self"):
            if source != iid:
                continue
        elif iid not in tg.candidates(s, p, source, {**spec, "all": True}):
            continue
        ref = _given_ref(s.cards[source], step)
        if ref is not None:
            out.append((ref, step["ability"]))
    return out


def given_life_burst(s: GameState, iid: str) -> tuple[int | str, Ability] | None:
    """(reference, ability) of the Life Burst a constant ability gives a card without one of its own ("cards
    in your Life Cloth and check zone without a Life Burst gain ..."); None when none does."""
    if facts.card_of(s, iid).life_burst:
        return None
    return next(((ref, ab) for ref, ab in given_abilities(s, iid) if ab["kind"] == "life_burst"), None)


def _given_ref(card_id: str, step: Step) -> str | None:
    """The reference of the ability a constant ``grant_ability`` step gives: a card's own constant's, or one
    its player holds for the game from this card (``hold_ability``: a constant inside it); None for a
    constant gained until end of turn."""
    for i, ab in enumerate(abilities_of(card_id)):
        if ab["kind"] == "constant" and any(st is step or st == step for st in ab.get("effect", [])):
            return granted_ref(card_id, i, step["ability"])
    for i, ab in enumerate(abilities_of(card_id)):
        for h in _held_in(ab.get("effect", [])) if ab["kind"] != "constant" else ():
            if any(st is step for st in h.get("effect", [])):
                return granted_ref(card_id, i, step["ability"])
    return None


def _held_in(steps: list[Step]) -> Iterator[Ability]:
    """The abilities the ``hold_ability`` steps among ``steps`` give (inside ``then``, ``else`` and modes)."""
    for st in steps:
        if st.get("op") == "hold_ability":
            yield st["ability"]
        for key in ("then", "else"):
            if isinstance(st.get(key), list):
                yield from _held_in(st[key])
        for mode in st.get("modes", []):
            yield from _held_in(mode)


COLOR_KEYWORD = "color:"  # a colour a card on the field gained until end of turn ("color:green"): a keyword
_colouring: ContextVar[bool] = ContextVar("colouring", default=False)


@cache
def adds_colours(card_id: str) -> bool:
    """Whether a catalogue card has an ability (its own, or one it gives) that may add colours to cards: a
    ``colors`` constant or a ``gain_color`` step."""
    text = json.dumps(abilities_of(card_id))
    words = ('"op": "colors"', '"change": "colors"', '"gain_color"', '"change": "color"')
    return any(w in text for w in words)


def added_colors(s: GameState, iid: str, printed: Card) -> tuple[str, ...]:
    """The colours effects add to a card now (000 'Color', effect.colors-added): those it gained until end of
    turn on the field, and those constants (``colors``) that apply now give it. While they are worked out,
    a card's colours are its printed ones (a constant's condition reading colours would loop)."""
    if _colouring.get():
        return ()
    token = _colouring.set(True)
    try:
        return tuple(_added_colors(s, iid, printed))
    finally:
        _colouring.reset(token)


def _added_colors(s: GameState, iid: str, printed: Card) -> Iterator[str]:
    owner = s.owners.get(iid)
    if owner is None:
        return
    ps = s.players[owner]
    where = (ps.find(iid) or "").split(":")
    if len(where) == 2 and where[0] in ("signi", "lrig"):
        slot = (ps.signi if where[0] == "signi" else ps.lrig).get(where[1])
        for k in slot.keywords if slot is not None else ():
            if k.startswith(COLOR_KEYWORD):
                yield k[len(COLOR_KEYWORD) :]
    for p, source, st in active(s, "colors"):
        spec = st.get("target", {})
        if spec.get("self"):
            reached = source == iid
        else:
            side = spec.get("side", "you")
            reached = (
                (side == "any" or tg.side_of(p, side) == owner)
                and where[0] in spec.get("zones", ["signi"])
                and len(where) <= 2  # not a card under another
                and tg.card_fits(printed, spec.get("filter", {}))
            )
        if reached:
            yield from st.get("colors", [])


_OFF_FIELD = ("deck", "trash")
_zoning: ContextVar[bool] = ContextVar("zoning", default=False)


@cache
def changes_zones(card_id: str) -> bool:
    """Whether a catalogue card has an ability (its own, or one it gives or makes its player hold) that
    changes cards in a deck or a trash: a ``zone_level`` constant."""
    return '"zone_level"' in json.dumps(abilities_of(card_id))


def zone_card(s: GameState, iid: str, card: Card) -> Card:
    """A card of a deck or a trash as the ``zone_level`` constants that apply now change it (rule
    effect.zone-level): its base level there (for every effect), or what its owner's effects may treat it as
    (``Card.also``); the card's own such constant applies from there (``self``). Anywhere else, and while
    this is worked out (a constant's condition reading the trash would loop), the card is as it is."""
    where = s.where(iid)
    if where is None or where[1] not in _OFF_FIELD or _zoning.get():
        return card
    owner, zone = where
    token = _zoning.set(True)
    try:
        own = [(owner, st) for _ab, st in _steps(s.cards[iid], "zone_level") if expand(st).get("self")]
        others = [(p, st) for p, _src, st in active(s, "zone_level") if not expand(st).get("self")]
        for p, st in own + others:
            g = expand(st)
            if p != owner or zone not in g.get("zones", ()):
                continue
            if g.get("self") or tg.card_fits(replace(card, also=None), g.get("filter", {})):
                card = _treated(card, g)
    finally:
        _zoning.reset(token)
    return card


def _treated(card: Card, g: Step) -> Card:
    """The card with its base level set, or (``may``) with that level as what it may be treated as
    (``signi``: as a SIGNI of that level)."""
    if not g.get("may"):
        return replace(card, level=int(g["level"]))
    alt = replace(card.also or card, level=int(g["level"]), also=None)
    if g.get("signi"):
        alt = replace(alt, type=CardType.SIGNI)
    return replace(card, also=alt)


facts.use_colour_effects(added_colors, adds_colours)
facts.use_zone_effects(zone_card, changes_zones)
facts.use_constant_effects(power_bonus, keyword_bonus)
use_constant_abilities(given_abilities)
coins.use_coin_ban(coins_banned)
facts.use_given_life_burst(lambda s, iid: given_life_burst(s, iid) is not None)


def placed_in_front(s: GameState, player: str) -> list[str]:
    """The SIGNI zones of ``player`` in front of an opponent's SIGNI whose constant says the player must put
    their SIGNI there when they can (``place_front``, 000 '[Constant]'): played or put by an effect."""
    out: list[str] = []
    for q, source, _st in active(s, "place_front"):
        if q == player:
            continue
        here = (s.players[q].find(source) or "").split(":")
        if here[0] == "signi" and facing(here[1]) not in out:
            out.append(facing(here[1]))
    return out
