"""Steps that steer an effect: modes, "you may", "if", "then", a delayed part, a declared number."""

from __future__ import annotations

from typing import Any

from domain import facts
from domain.abilities import measures as ms
from domain.abilities import targets as tg
from domain.abilities.effects.running import DECLARED_COLOR, ask_in_step, ask_options, op, take, who
from domain.abilities.effects.targeting import choose_first, choose_own, insert_targeted, targets_first
from domain.abilities.frames import (
    Frame,
    Pending,
)
from domain.abilities.vocabulary import step_text
from domain.cards import COLORS
from domain.recorder import Recorder
from domain.state import fresh, opponent


@op("declare")
def _declare(rec: Recorder, frame: Frame, at: Pending, _t: list[str]) -> bool:
    """You declare a number from ``min`` (0 unless given) to ``max`` (a number, or the level of the opponent's
    center LRIG); filters of later steps may name it as ``"declared"``."""
    step = at.step
    if step.get("what") == "color":
        return _declare_color(rec, frame, at)
    hi = step.get("max", 5)
    top = facts.center_level(rec.state, opponent(frame.player)) if hi == "opponent_center_level" else int(hi)
    lo = int(step.get("min", 0))
    if at.progress.answer is None:
        return ask_in_step(
            rec,
            frame,
            at,
            frame.player,
            min=1,
            max=1,
            choices=[],
            options=[str(i) for i in range(lo, max(lo, top) + 1)],
            prompt=f"declare a number from {lo} to {max(lo, top)}",
        )
    frame.queue.pop(0)
    frame.notes["declared"] = int(take(at)["option"])
    rec.emit(
        "NumberDeclared",
        "rules",
        frame.rule,
        {"player": frame.player, "number": frame.notes["declared"], "by_effect": frame.card},
    )
    return True


def _declare_color(rec: Recorder, frame: Frame, at: Pending) -> bool:
    """You declare a colour (colorless is none, 000 'Color'); later steps name it as ``declared_color``."""
    if at.progress.answer is None:
        return ask_in_step(
            rec, frame, at, frame.player, min=1, max=1, choices=[], options=list(COLORS),
            prompt="declare a colour",
        )  # fmt: skip
    frame.queue.pop(0)
    frame.notes[DECLARED_COLOR] = str(take(at)["option"])
    data = {"player": frame.player, "color": frame.notes[DECLARED_COLOR], "by_effect": frame.card}
    rec.emit("ColorDeclared", "rules", frame.rule, data)
    return True


@op("modes")
def _modes(rec: Recorder, frame: Frame, at: Pending, _t: list[str]) -> bool:
    """Choose modes (each at most once), resolved in printed order; ``up_to``: one of them up to the count
    ("choose up to two of the following"); ``chooser: opponent``: the opponent chooses, the ability's player
    performs them; with ``repeat``, choose one mode at a time as many times as the
    count says, the same one again if you like, each resolved before the next choice."""
    step = at.step
    choose = step.get("choose", 1)
    if choose == "opponent_center_level":
        k = facts.center_level(rec.state, opponent(frame.player))
    elif isinstance(choose, dict):  # "choose one for every ten cards in your trash": a measure, divided
        got = ms.value(ms.Ctx(rec.state, frame.player, frame.card, frame.notes), choose["measure"])
        k = (got or 0) // max(1, int(choose.get("every", 1)))
    elif choose == "center_level":  # one for each level of your center LRIG (never more than there are)
        k = min(facts.center_level(rec.state, frame.player), len(step["modes"]))
    else:
        k = int(choose)
    numbers = [str(i + 1) for i in range(len(step["modes"]))]
    if step.get("repeat"):
        if at.progress.left is None:
            at.progress.left = k
        left = at.progress.left
        if at.progress.answer is not None:
            m = int(take(at)["option"])
            at.progress.left = left - 1
            frame.insert([*step["modes"][m - 1], {"op": "then"}])
            return True
        if left <= 0:
            frame.queue.pop(0)
            return True
        return ask_in_step(
            rec,
            frame,
            at,
            frame.player,
            min=1,
            max=1,
            choices=[],
            options=numbers,
            prompt=f"choose a mode ({left} more to go; the same one may be chosen again)",
            rule="mode.choose",
        )
    chosen = frame.notes.pop("modes", None)
    chooser = frame.player
    if step.get("chooser") == "opponent":  # "the opponent chooses one; you perform it": asked of them
        chooser, chosen = opponent(frame.player), None
    if chosen is None and at.progress.answer is not None:
        chosen = [int(x) for x in take(at)["option"].split(",")]
    if chosen is None and k == 0:
        chosen = []
    if chosen is None:
        up_to = bool(step.get("up_to"))
        return ask_in_step(
            rec,
            frame,
            at,
            chooser,
            min=min(1, k) if up_to else k,
            max=k,
            choices=[],
            options=numbers,
            prompt=f"choose {'up to ' if up_to else ''}{k} mode(s)",
            rule="mode.choose",
        )
    frame.queue.pop(0)
    steps: list[dict[str, Any]] = []
    for m in sorted(set(chosen)):
        steps.extend(fresh(step["modes"][m - 1]))
        steps.append({"op": "then"})
    frame.insert(steps)
    return True


@op("may")
def _may(rec: Recorder, frame: Frame, at: Pending, _t: list[str]) -> bool:
    """A player (you, or with ``who: opponent`` the opponent) may do what follows, or not. ``target_first``:
    the first step of what follows that takes targets has them chosen before the question (the printed order
    "target ...; you may ...; if you do, ... it"); with nothing to target, nothing is asked and nothing
    happens."""
    step = at.step
    p = who(frame, step)
    first = targets_first(rec, frame, at)
    if isinstance(first, bool):
        return first
    chosen = first
    if at.progress.answer is None:
        return ask_options(
            rec,
            frame,
            at,
            p,
            ["yes", "no"],
            prompt="do this? " + "; ".join(step_text(x) for x in step.get("then", [])),
        )
    answer = take(at)
    frame.queue.pop(0)
    if answer.get("option") == "yes":
        if chosen:
            insert_targeted(frame, [], step.get("then", []), chosen)
        else:
            frame.insert(step.get("then", []))
    return True


@op("then")
def _then(rec: Recorder, frame: Frame, at: Pending, _t: list[str]) -> bool:
    frame.queue.pop(0)  # the targets of what follows are chosen only when it is reached
    return True


@op("if")
def _if(rec: Recorder, frame: Frame, at: Pending, _t: list[str]) -> bool:
    """What follows (``then``) when the condition holds, else ``else``. ``target_first``: the first step of
    ``then`` that takes targets has them chosen before the steps before the ``if`` (up to the last ``then``)
    resolve (``choose_ahead``), kept whatever the condition says, and not chosen again (the printed order
    "target ...; [you may] do X; if you do, ... it"); when the condition does not hold, the first step of
    ``else`` that takes targets takes those ("target ...; if X, it gains A; if not, it gains B")."""
    step = at.step
    chosen: list[str] = []
    if step.get("target_first"):
        first = choose_first(rec, frame, at)
        if first is None:
            return False
        chosen = first
    frame.queue.pop(0)
    ok = tg.holds(rec.state, frame.player, frame.card, step["condition"], frame.notes)
    if step.get("target_first"):
        insert_targeted(frame, [], step.get("then" if ok else "else", []), chosen)
    else:
        frame.insert(step.get("then" if ok else "else", []))
    return True


@op("delay")
def _delay(rec: Recorder, frame: Frame, at: Pending, _t: list[str]) -> bool:
    """What follows waits for a later moment (``attack_end``: the end of the attack under way; ``end_phase``:
    the start of your next end phase; ``turn_end``: the end phase of this turn, seed 001 "End phase", with the
    "at the end of the turn" abilities; ``opponent_next_turn``: the start of the next turn, the opponent's
    when used in your turn; ``attacks``: an attack this turn, see ``_watch_attacks``). A step of what follows
    that names ``it`` names the cards the step before targeted, as they are now: "put it onto your field; at
    the end of the turn, put it into the trash" (those of them that left the field since are new cards)."""
    step = at.step
    s = rec.state
    if step.get("until") == "attacks":
        return _watch_attacks(rec, frame, at)
    if step.get("until") == "enters":
        return _watch_enters(rec, frame, at)
    frame.queue.pop(0)
    next_turn = step.get("until") == "opponent_next_turn"
    then = fresh(step.get("then", []))
    _bind_it(then, list(frame.notes.get("targeted", [])))
    rec.emit(
        "EffectDelayed",
        "rules",
        "effect.delayed",
        {
            "player": frame.player,
            "card": frame.card,
            "ability": frame.ability,
            "until": "turn" if next_turn else step.get("until", "attack_end"),
            "attack": (s.attack or {}).get("card"),
            "turn": s.turn + 1 if next_turn else s.turn,
            "effect": then,
        },
    )
    return True


def _bind_it(steps: list[dict[str, Any]], targeted: list[str]) -> None:
    """The steps that wait name ``it`` as the cards targeted now, those inside an ``if`` too ("at the end of
    the turn, if ..., put it into the trash")."""
    for st in steps:
        if st.get("target", {}).get("it"):
            st["target"] = {"cards": targeted}
        for key in ("then", "else"):
            if isinstance(st.get(key), list):
                _bind_it(st[key], targeted)


def _watch_enters(rec: Recorder, frame: Frame, at: Pending) -> bool:
    """ "This turn, each time a SIGNI of yours enters the field (``by: effect``: is put onto it by an effect),
    ...": that player's field is watched until the turn ends; each time, what follows resolves as a triggered
    ability of this effect's player (``domain.abilities.triggers``)."""
    step, s = at.step, rec.state
    frame.queue.pop(0)
    watch: dict[str, Any] = {"player": who(frame, {"who": step.get("whose", "you")})}
    if step.get("by") == "effect":
        watch["by"] = "effect"
    data: dict[str, Any] = {"player": frame.player, "card": frame.card, "ability": frame.ability}
    effect = fresh(step.get("then", []))
    data.update({"until": "enters", "turn": s.turn, "watch": watch, "effect": effect})
    rec.emit("EffectDelayed", "rules", "effect.delayed", data)
    return True


def _watch_attacks(rec: Recorder, frame: Frame, at: Pending) -> bool:
    """ "This turn, when <target> attacks (next / each time), ...": the step's ``target`` (the SIGNI or LRIG
    watched, chosen and told now; none: nothing waits) or ``whose`` (any SIGNI of that player) is watched
    until the turn ends. When it attacks, what follows resolves as a triggered ability of this effect's
    player, before the attack is decided (the SIGNI attacking is ``{"attacker": true}``); ``each``: every
    time, else only the next time (``domain.abilities.triggers``)."""
    step = at.step
    s = rec.state
    watch: dict[str, Any]
    if "target" in step:
        found = choose_own(rec, frame, at)
        if found is None:
            return False  # it asked for the target
        frame.queue.pop(0)
        if not found:
            return True
        watch = {"cards": list(found)}
    else:
        frame.queue.pop(0)
        watch = {"player": who(frame, {"who": step.get("whose", "you")})}
    rec.emit(
        "EffectDelayed",
        "rules",
        "effect.delayed",
        {
            "player": frame.player,
            "card": frame.card,
            "ability": frame.ability,
            "until": "attacks",
            "turn": s.turn,
            "watch": watch,
            "each": bool(step.get("each")),
            "effect": fresh(step.get("then", [])),
        },
    )
    return True
