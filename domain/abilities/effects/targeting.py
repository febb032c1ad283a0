"""Targets: every target of a segment is chosen before any of its steps resolves (distinct classes one at a
time); the SIGNI targeted are told; a target that became illegal before resolution is not affected.
"""

from __future__ import annotations

import json
from itertools import combinations, islice
from typing import Any

from domain import facts
from domain.abilities import targets as tg
from domain.abilities.constants import must_target
from domain.abilities.frames import (
    Frame,
    Pending,
    Segment,
    dump,
)
from domain.abilities.vocabulary import step_text
from domain.recorder import Recorder
from domain.state import SIGNI_ZONES, GameState, facing, opponent

PILES = ("trash", "ener", "hand")  # the zones a card the trigger was about is named in ("from the trash")


def choose_targets(rec: Recorder, frame: Frame, seg: Segment) -> bool:
    """Choose every target of a segment before any of its steps resolves. False: a choice was asked. "It"
    names what the step before targeted, or, first in a segment ("...; if you do, it ..."), what was targeted
    last."""
    before: list[str] = list(frame.notes.get("targeted", []))
    for at in seg.steps:
        if at.step.get("target") is None:
            continue
        if at.progress.targets is None:
            found = _targets_of(rec, frame, at, before)
            if found is None:
                return False
            at.progress.targets = found
        before = at.progress.targets
    if any(_says_it(later.step) for later in frame.queue):  # a later segment says "it"
        frame.notes["targeted"] = list(before)
    return True


def choose_ahead(rec: Recorder, frame: Frame) -> bool:
    """Before the next step resolves: the targets of every ``if`` with ``target_first`` still to come before
    the next ``then`` (the printed order "target ...; [you may] do X; if you do, ... it": the target is chosen
    before X, and before its question) are chosen now, each the targets of the first step of its ``then``
    that takes targets (``choose_first``). False: a choice was asked."""
    for at in frame.queue:
        if at.step.get("op") == "then":
            return True
        if at.step.get("op") == "if" and at.step.get("target_first") and choose_first(rec, frame, at) is None:
            return False
    return True


def _says_it(step: dict[str, Any]) -> bool:
    """Whether a step names what was targeted before: ``it``, or a filter or total that refers to it."""
    text = json.dumps(step)
    keys = ("level_of", "name_of", "total_level", "of")  # "of": a measure of it (its level)
    return '"it": true' in text or any(f'"{k}": "it"' in text for k in keys)


def refers_to_noted(spec: dict[str, Any]) -> bool:
    """Whether a target spec refers to cards an earlier step took (``level_of``, ``name_of``, a named
    total)."""
    f = spec.get("filter", {})
    return "level_of" in f or "name_of" in f or isinstance(spec.get("total_level"), str)


def noted_cards(frame: Frame, ref: str, before: list[str]) -> list[str]:
    """The cards an earlier step of the effect took (``tg.NOTED_CARDS``): its last move's (``moved``), its
    last discard's, its last reveal's, or what the step before targeted (``it``)."""
    if ref == "it":
        return list(before)
    if ref == "discarded":
        return list(frame.notes.get("discarded_cards", []))
    if ref == "revealed":
        shown = frame.notes.get("revealed_cards")
        if shown is None and "revealed" in frame.notes:
            shown = [frame.notes["revealed"]]
        return list(shown or [])
    return list(frame.notes.get("moved", []))


def _referred(s: GameState, frame: Frame, ref: str, before: list[str]) -> list[str]:
    """The cards a filter's ``level_of`` / ``name_of`` refers to: those an earlier step took, or (``under``)
    the cards lying under this card ("the same level as a SIGNI under this SIGNI")."""
    if ref == "under":
        slot = tg._slot(s, frame.card)
        return list(slot.under) if slot is not None else []
    return noted_cards(frame, ref, before)


def _same_as_noted(s: GameState, frame: Frame, spec: dict[str, Any], before: list[str]) -> dict[str, Any]:
    """A target spec that refers to cards an earlier step took, made concrete when its targets are chosen:
    ``level_of`` becomes the levels of those that are SIGNI ("the same level as the SIGNI discarded this
    way": none fits when none of them is a SIGNI), ``name_of`` their names, a ``total_level`` naming them the
    total of their SIGNI's levels."""
    f = dict(spec.get("filter", {}))
    out = dict(spec)
    if "level_of" in f:
        cards = _referred(s, frame, str(f.pop("level_of")), before)
        levels = sorted({facts.level(s, i) for i in cards if facts.card_of(s, i).is_signi})
        if not levels:
            f["name"] = []  # no SIGNI was taken: nothing has its level
        elif len(levels) == 1:
            f["level"] = levels[0]
        else:
            f["any_of"] = [{**g, "level": lv} for lv in levels for g in f.get("any_of", [{}])]
    if "name_of" in f:
        cards = _referred(s, frame, str(f.pop("name_of")), before)
        f["name"] = sorted({facts.card_of(s, i).name_key for i in cards})
    if isinstance(spec.get("total_level"), str):
        cards = noted_cards(frame, str(spec["total_level"]), before)
        out["total_level"] = sum(facts.level(s, i) for i in cards if facts.card_of(s, i).is_signi)
    out["filter"] = f
    return out


def _targets_of(rec: Recorder, frame: Frame, at: Pending, before: list[str]) -> list[str] | None:
    """A step's targets, when no choice is left to make; None: a choice was asked."""
    s, step = rec.state, at.step
    spec = step["target"]
    if spec.get("it"):  # "... and freeze it": what the step before targeted ("if it is a X": those that fit)
        f = spec.get("filter")
        return [i for i in before if not f or tg.card_fits(facts.card_of(s, i), f)]
    if spec.get("facing"):  # not a target: the opponent's SIGNI in front of this card, or of where it was
        return facing_targets(s, frame)
    if spec.get("attacker"):  # not a target: the SIGNI attacking now ("it", of "when ... attacks")
        card = (s.attack or {}).get("card")
        return [card] if card is not None and tg._on_field(s, card) else []
    if spec.get("cause"):  # not a target: the card whose ability caused the trigger ("that SIGNI")
        card = frame.notes.get("cause")
        return [card] if isinstance(card, str) and tg._on_field(s, card) else []
    if spec.get("subject"):  # not a target: the SIGNI the trigger was about ("the SIGNI that entered")
        card = frame.notes.get("subject")
        if not isinstance(card, str):
            return []
        pile = spec.get("zone")  # "that card, from the trash": there, in its owner's zone
        if pile in PILES:
            return [card] if card in s.players[s.owners[card]].zones[str(pile)] else []
        return [card] if tg._on_field(s, card) else []
    if spec.get("marker_zone"):  # not a target: the SIGNI in the zone of the marker whose ability this is
        side, _, zone = str(frame.notes.get("marker_zone", "")).partition(":")
        slot = s.players[side].signi.get(zone) if side in s.players else None
        return [slot.iid] if slot is not None else []
    if "power_below" in spec.get("filter", {}):
        spec = step["target"] = _power_below_moved(s, frame, spec)
    if "power_max_of" in spec.get("filter", {}):
        spec = step["target"] = _power_max_of_it(s, spec, before)
    if refers_to_noted(spec):
        spec = step["target"] = _same_as_noted(s, frame, spec, before)
    found = tg.candidates(s, frame.player, frame.card, spec)
    if spec.get("self") or spec.get("all") or "cards" in spec:
        return found
    if spec.get("distinct") or spec.get("shared") or "level_total_max" in spec:
        return _distinct_targets(rec, frame, at, spec, found)
    if "total_level" in spec:
        return _total_level_targets(rec, frame, at, spec, found)
    n = _count(frame, spec)
    if spec.get("up_to"):
        lo, hi = 0, min(n, len(found))
    elif len(found) < n:
        return []  # not enough targets for "n target": none is targeted
    else:
        lo = hi = n
    if hi == 0:
        return []
    if lo == hi == len(found):
        return found  # the only choice there is
    forced = must_target(s, frame.player, frame.card, found) if spec.get("zone", "signi") == "signi" else []
    if forced:  # "must target this SIGNI if possible": as many of them as the count allows are chosen
        lo = max(lo, min(len(forced), hi))
        if len(forced) >= hi:
            found = forced
        if lo == hi == len(found):
            return found
    at.progress.awaiting = "targets"
    private = spec.get("zone") in ("hand", "lrig_deck")
    rec.ask(
        opponent(frame.player) if spec.get("chooser") == "opponent" else frame.player,
        "choose",
        "target.choose",
        purpose="target",
        min=lo,
        max=hi,
        choices=found,
        prompt=f"the opponent's effect: {step_text(step)}; choose which of yours"
        if spec.get("chooser") == "opponent"
        else f"choose {tg.target_text(spec)} for {step_text(step)}",
        private=private,
        resume=dump(frame),
        **({"must_include": forced} if forced and len(forced) < hi else {}),
    )
    return None


def is_target(spec: dict[str, Any] | None) -> bool:
    """Whether a step's target spec names cards chosen as targets (not this card, not "all", not the cards
    before, not the attacker or the SIGNI in front, not the opponent's choice, not named instances)."""
    return bool(spec) and not any(
        (spec or {}).get(k) for k in ("self", "all", "it", "attacker", "facing", "chooser", "cards")
    )


def first_targeted(steps: list[dict[str, Any]]) -> int | None:
    """The index of the first of ``steps`` (at their own level) that takes targets."""
    return next((k for k, st in enumerate(steps) if is_target(st.get("target"))), None)


def choose_first(rec: Recorder, frame: Frame, at: Pending) -> list[str] | None:
    """The targets of the first step of a control step's ``then`` that takes targets, chosen by the control
    step before it asks its question (``target_first``: "target ...; you may pay ...; if you do, ... it",
    "target ...; unless the opponent pays ..., it ..."), and told at once. They are kept in the control
    step's progress until its question is answered; ``insert_targeted`` hands them to that step. None: a
    choice was asked."""
    then: list[dict[str, Any]] = at.step.get("then", [])
    k = first_targeted(then)
    if at.progress.targets is None:
        found = [] if k is None else _targets_of(rec, frame, Pending(then[k], at.progress), [])
        if found is None:
            return None
        at.progress.targets = found
    return _told_once(rec, frame, at)


def targets_first(rec: Recorder, frame: Frame, at: Pending) -> list[str] | bool:
    """What a control step (``may``, ``may_pay``, ``unless``) with ``target_first`` does before its question:
    the targets chosen first (``choose_first``; none without ``target_first``). A bool is what the step
    returns at once: False, a choice was asked; True, there was nothing to target, so the step is over and
    nothing happens."""
    if not at.step.get("target_first"):
        return []
    first = choose_first(rec, frame, at)
    if first is None:
        return False
    if not first:
        frame.queue.pop(0)
        return True
    return first


def _told_once(rec: Recorder, frame: Frame, at: Pending) -> list[str]:
    """The targets kept in the step's progress, told the first time they are read."""
    targets = at.progress.targets or []
    if not at.step.get("_told"):
        at.step["_told"] = True
        _tell(rec, frame, targets)
    return targets


def choose_own(rec: Recorder, frame: Frame, at: Pending) -> list[str] | None:
    """The targets of a control step's own ``target`` (chosen and told once, kept in its progress). None: a
    choice was asked."""
    if at.progress.targets is None:
        found = _targets_of(rec, frame, at, [])
        if found is None:
            return None
        at.progress.targets = found
    return _told_once(rec, frame, at)


def insert_targeted(
    frame: Frame, before: list[dict[str, Any]], then: list[dict[str, Any]], chosen: list[str]
) -> None:
    """Put ``before`` and then ``then`` at the front of the queue, the first step of ``then`` that takes
    targets holding the targets chosen first (``choose_first``): it does not choose them again, nor tell them
    again, and a target that became illegal since is not affected."""
    k = first_targeted(then)
    frame.insert([*before, *then])
    if k is not None:
        at = frame.queue[len(before) + k]
        at.step["_told"] = True
        at.progress.targets = list(chosen)


def _count(frame: Frame, spec: dict[str, Any]) -> int:
    """How many targets a spec names: a number, or ``"discarded"``: as many as the cards the effect (its
    cost included) just discarded ("the same number of targets as the cards discarded this way"), or
    ``"moved"``: as many as the cards its last move took ("one target for each SIGNI put into the trash this
    way")."""
    n = spec.get("count", 1)
    if n == "moved":
        return len(frame.notes.get("moved") or [])
    return int(frame.notes.get("discarded", 0)) if n == "discarded" else int(n)


def tell_targeted(rec: Recorder, frame: Frame, seg: Segment) -> None:
    """The opponent's SIGNI on the field that the segment's steps target (not "all", not "it") are told, for
    the abilities that trigger when a SIGNI becomes the target of the opponent's ability or effect (not again
    those chosen first by a control step, already told)."""
    cards: list[str] = []
    for at in seg.steps:
        spec = at.step.get("target") or {}
        if (
            spec.get("self")
            or spec.get("all")
            or spec.get("it")
            or spec.get("attacker")
            or spec.get("cause")
            or spec.get("subject")
            or spec.get("marker_zone")
            or spec.get("chooser")
            or "cards" in spec
            or at.step.get("_told")
        ):
            continue  # not targets: this card, all, the cards before, the attacker, the opponent's choice
        cards.extend(i for i in at.progress.targets or [] if i not in cards)
    _tell(rec, frame, cards)


def _tell(rec: Recorder, frame: Frame, targets: list[str]) -> None:
    s, p = rec.state, frame.player
    cards: list[str] = []
    for iid in targets:
        where = s.where(iid)
        if where and where[0] != p and where[1].startswith("signi:") and iid not in cards:
            cards.append(iid)
    if cards:
        rec.emit(
            "SigniTargeted",
            "rules",
            frame.rule,
            {"player": opponent(p), "cards": cards, "by": p, "by_effect": frame.card},
        )


def _power_below_moved(s: GameState, frame: Frame, spec: dict[str, Any]) -> dict[str, Any]:
    """A filter ``power_below`` made concrete when its targets are chosen: power lower than that of the SIGNI
    the effect just moved (``moved``: put onto the field, or taken off it, as it was then; none fits when it
    moved none), or of this SIGNI (``self``: as it is now; none fits when it is not on the field)."""
    f = {k: v for k, v in spec.get("filter", {}).items() if k != "power_below"}
    which = spec["filter"]["power_below"]
    if which == "your_signi":  # less power than one of your SIGNI: than the strongest
        powers = [facts.power(s, sl) for _z, sl in s.players[frame.player].signi_slots()]
        f["power_max"] = min(int(f.get("power_max", max(powers, default=0) - 1)), max(powers, default=0) - 1)
        return {**spec, "filter": f}
    ids = [frame.card] if which == "self" else list(frame.notes.get("moved", []))
    slots = [sl for i in ids if (sl := tg._slot(s, i)) is not None]
    was = frame.notes.get("moved_power", {}) if which == "moved" else {}
    if slots:
        below = facts.power(s, slots[0]) - 1
    elif ids and ids[0] in was:  # it left the field: its power as it was then
        below = int(was[ids[0]]) - 1
    else:
        below = -1
    f["power_max"] = min(int(f.get("power_max", below)), below)
    return {**spec, "filter": f}


def _power_max_of_it(s: GameState, spec: dict[str, Any], before: list[str]) -> dict[str, Any]:
    """A filter ``power_max_of: it`` made concrete when its targets are chosen: power no more than that of the
    SIGNI the step before targeted (none fits when it targeted none, or that SIGNI left the field)."""
    f = {k: v for k, v in spec.get("filter", {}).items() if k != "power_max_of"}
    slots = [sl for i in before if (sl := tg._slot(s, i)) is not None]
    most = facts.power(s, slots[0]) if slots else -1
    f["power_max"] = min(int(f.get("power_max", most)), most)
    return {**spec, "filter": f}


def _fit_together(s: GameState, cards: list[str], spec: dict[str, Any]) -> bool:
    """Whether targets fit together as the spec's ``shared`` or ``distinct`` asks (printed facts)."""
    printed = [facts.card_of(s, i) for i in cards]
    if spec.get("shared") == "color":  # "that share a colour" (colourless is no colour)
        return bool(set.intersection(*(set(c.colors) for c in printed)) - {"colorless"})
    if spec.get("shared") == "name":  # "two cards of the same name"
        return len({c.name_key for c in printed}) == 1
    if spec.get("shared") == "class":  # "that share a class" (a class printed on each of them)
        return bool(frozenset.intersection(*(tg.class_kinds(c) for c in printed)))
    if spec.get("distinct") == "level":
        return len({c.level for c in printed}) == len(printed)
    if spec.get("distinct") == "color":  # no two share a colour (colourless is no colour)
        colors = [set(c.colors) - {"colorless"} for c in printed]
        return not any(a & b for a, b in combinations(colors, 2))
    return not spec.get("distinct") or tg.distinct_classes(printed)


def _distinct_targets(
    rec: Recorder, frame: Frame, at: Pending, spec: dict[str, Any], found: list[str]
) -> list[str] | None:
    """Targets that must fit together (pairwise different classes, levels or colours, ``shared: color``: all
    of one colour at least, ``shared: class``: all of one class at least, ``shared: name``: all of one
    name; ``level_total_max``: levels
    totalling at most n, or ``opponent_center``: the
    level of the opponent's center LRIG), chosen one at a time among those that can still make a full set
    ("up to" may stop early). None: a choice was asked."""
    s = rec.state
    n = min(int(spec.get("count", 1)), len(found))
    if at.progress.picked is None:
        at.progress.picked = []
    picked = at.progress.picked
    most = spec.get("level_total_max")
    budget = (
        facts.center_level(s, opponent(frame.player))
        if most == "opponent_center"
        else None
        if most is None
        else int(most)
    )

    def ok(cards: list[str]) -> bool:
        if not _fit_together(s, cards, spec):
            return False
        return budget is None or sum(facts.level(s, i) for i in cards) <= budget

    def colors(i: str) -> set[str]:
        return set(facts.card_of(s, i).colors) - {"colorless"}

    def completes(cards: list[str], size: int) -> bool:
        rest = [i for i in found if i not in cards]
        need = size - len(cards)
        if need > 0 and spec.get("shared") == "color" and budget is None:  # a colour enough of the rest have
            pool = cards or rest
            common = set.intersection(*map(colors, pool)) if cards else set().union(*map(colors, pool))
            return any(sum(1 for i in rest if c in colors(i)) >= need for c in common)
        return need <= 0 or any(ok([*cards, *c]) for c in combinations(rest, need))

    want = int(spec.get("count", 1))
    if not spec.get("up_to") and spec.get("shared") == "color" and budget is None and not picked:
        if not completes([], min(want, len(found))) or len(found) < want:  # no colour that many share
            at.progress.picked = None
            return []
        if len(found) == want:
            at.progress.picked = None
            return found
        n = want
    elif not spec.get("up_to"):
        if not picked:
            sets = list(islice((list(c) for c in combinations(found, want) if ok(list(c))), 2))
            if len(sets) < 2:  # no full set of different classes (none is targeted), or only one
                at.progress.picked = None
                return sets[0] if sets else []
        n = want
    while len(picked) < n:
        options = [
            i
            for i in found
            if i not in picked and ok([*picked, i]) and (spec.get("up_to") or completes([*picked, i], n))
        ]
        if not options:
            break
        if len(options) == 1 and not spec.get("up_to"):
            picked.append(options[0])
            continue
        _ask_next_target(rec, frame, at, spec, options, optional=bool(spec.get("up_to")))
        return None
    at.progress.picked = None
    return picked


def _total_level_targets(
    rec: Recorder, frame: Frame, at: Pending, spec: dict[str, Any], found: list[str]
) -> list[str] | None:
    """Cards whose levels total exactly ``total_level`` (no more of them than ``count``, when it is given),
    chosen one at a time among those that can still complete such a set (none: nothing is targeted; ``up_to``:
    the player may choose none at all). None: a choice was asked."""
    s = rec.state
    goal = int(spec["total_level"])
    most = int(spec["count"]) if "count" in spec else len(found)
    if at.progress.picked is None:
        at.progress.picked = []
    picked = at.progress.picked

    def level(i: str) -> int:
        return facts.level(s, i)

    def completes(cards: list[str]) -> bool:
        need = goal - sum(level(i) for i in cards)
        room = most - len(cards)
        # reach[t]: the fewest cards of the rest whose levels total t
        reach = {0: 0}
        for lv in (level(i) for i in found if i not in cards):
            for t, k in list(reach.items()):
                if t + lv <= need and reach.get(t + lv, room + 1) > k + 1:
                    reach[t + lv] = k + 1
        return reach.get(need, room + 1) <= room

    while sum(level(i) for i in picked) < goal:
        options = [i for i in found if i not in picked and completes([*picked, i])]
        if not options:
            picked.clear()
            break
        if len(options) == 1 and (picked or not spec.get("up_to")):
            picked.append(options[0])
            continue
        _ask_next_target(rec, frame, at, spec, options, optional=bool(spec.get("up_to")) and not picked)
        return None
    at.progress.picked = None
    return list(picked)


def _ask_next_target(
    rec: Recorder, frame: Frame, at: Pending, spec: dict[str, Any], options: list[str], optional: bool
) -> None:
    """Asks for the next of several targets chosen one at a time (each choice narrows the next one's options);
    ``optional``: the player may stop choosing."""
    at.progress.awaiting = "one_target"
    rec.ask(
        frame.player,
        "choose",
        "target.choose",
        purpose="target",
        min=0 if optional else 1,
        max=1,
        choices=options,
        prompt=f"choose the next of {tg.target_text(spec)} for {step_text(at.step)}",
        private=spec.get("zone") == "hand",
        resume=dump(frame),
    )


def live_targets(rec: Recorder, frame: Frame, step: dict[str, Any], chosen: list[str]) -> list[str]:
    """Chosen targets that still fit: a target that became illegal before resolution is not affected."""
    spec = step["target"]
    if spec.get("subject") and spec.get("zone") in PILES:  # that card, still in that zone of its owner's
        s = rec.state
        return [i for i in chosen if i in s.players[s.owners[i]].zones[str(spec["zone"])]]
    if (
        spec.get("it")
        or spec.get("facing")
        or spec.get("attacker")
        or spec.get("cause")
        or spec.get("subject")
        or spec.get("marker_zone")
    ):
        return [i for i in chosen if tg._on_field(rec.state, i)]
    return [i for i in chosen if tg.still_fits(rec.state, frame.player, frame.card, spec, i)]


def facing_targets(s: GameState, frame: Frame) -> list[str]:
    """The opponent's SIGNI in the zone in front of this card's SIGNI zone (or of the one it was in, noted by
    its trigger as ``was_in``)."""

    where = s.where(frame.card)
    zone = where[1].split(":")[1] if where is not None and where[1].startswith("signi:") else None
    zone = zone or frame.notes.get("was_in")
    if zone not in SIGNI_ZONES:
        return []
    owner = s.owners[frame.card]
    front = s.players[opponent(owner)].signi[facing(zone)]
    return [] if front is None else [front.iid]
