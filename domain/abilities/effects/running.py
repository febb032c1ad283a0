"""How an effect runs: a frame goes on step by step until a step asks (the frame then waits in the ``Asked``
event) or the effect is done; the answer resumes it. The step registry (``OPS``) and what every step uses:
asking in a step, taking the answer, whose step it is, its number.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from domain import facts
from domain.abilities import leaving
from domain.abilities.effects.targeting import choose_ahead, choose_targets, tell_targeted
from domain.abilities.frames import (
    Answer,
    Frame,
    Pending,
    Segment,
    Step,
    dump,
)
from domain.abilities.frames import load as load_frame
from domain.abilities.frames import pending as pending_steps
from domain.abilities.measures import Ctx, bonus
from domain.abilities.vocabulary import expand, is_control, runner
from domain.cards import CardType
from domain.recorder import Recorder
from domain.state import GameState, opponent

Op = Callable[[Recorder, Frame, Pending, list[str]], bool]  # False: it asked, the frame waits


OPS: dict[str, Op] = {}


NOTED = ("declared", "declared_color")  # a filter value that names what the effect noted: the number (or
# the colour) its player declared; a keyword naming ``declared_color`` ("shadow:signi,declared_color") too
DECLARED_COLOR = "declared_color"


# "choose" of a modes step may name a number the game gives
CHOOSE_COUNTS = ("opponent_center_level", "center_level")


DELAYS = ("attack_end",)


def op(name: str) -> Callable[[Op], Op]:
    def register(fn: Op) -> Op:
        OPS[name] = fn
        return fn

    return register


def start(
    rec: Recorder,
    card: str,
    player: str,
    index: int | str,
    ability: dict[str, Any],
    rule: str,
    modes: list[int] | None = None,
    vars: dict[str, Any] | None = None,
) -> None:
    """Begin resolving an ability's effect."""
    frame = Frame(card, player, index, rule, pending_steps(ability.get("effect", [])), None, dict(vars or {}))
    if modes is not None:
        frame.notes["modes"] = list(modes)
    run(rec, frame)


def run(rec: Recorder, frame: Frame) -> None:
    """Go on with a frame until it needs a decision (it asks, and returns) or it is done."""
    while rec.state.status != "finished":
        seg = frame.segment
        if seg is not None:
            if not _run_segment(rec, frame, seg):
                return
            frame.segment = None
            continue
        queue = frame.queue
        if not queue:
            _resolved(rec, frame)
            return
        at = queue[0]
        at.step = _bind(at.step, frame.notes)
        if at.step["op"] == "then":
            if "negation" in at.step and not _negation(rec, frame, at):
                return
            queue.pop(0)
            _each_turn(frame, at.step)
            continue
        if not choose_ahead(rec, frame):
            return  # an if's target, printed first, was asked
        if is_control(at.step["op"]):
            if not runner(at.step["op"])(rec, frame, at, []):
                return
            continue
        if at.step.get("each"):  # each player does it with their own cards (a control step's each is its own)
            queue[0:1] = pending_steps(_for_each_player(rec, frame, at.step))
            continue
        steps: list[Pending] = []
        while queue and not is_control(queue[0].step["op"]) and not (steps and queue[0].step.get("each")):
            at = queue.pop(0)
            at.step = _bind(at.step, frame.notes)
            steps.append(at)
        frame.segment = Segment(steps)


def _for_each_player(rec: Recorder, frame: Frame, step: Step) -> list[Step]:
    """A step each player does with their own cards (``each``), the turn player first, then the other
    (``effect.each-player``): a copy for each, "you" in it that player, who looks and chooses; between them
    a ``then`` the engine writes (``_as``) hands the effect to the next player, and the last one back to its
    own player. It stays that player's effect (``effect_of``: what it mills is milled by them)."""
    one = {k: v for k, v in step.items() if k != "each"}
    frame.notes["effect_of"] = frame.player
    tp = rec.state.turn_player or frame.player
    out: list[Step] = []
    for p in (tp, opponent(tp)):
        out.extend([{"op": "then", "_as": p}, dict(one)])
    out.append({"op": "then", "_as": frame.player, "_last": True})
    return out


def _each_turn(frame: Frame, step: Step) -> None:
    """A ``then`` written by ``_for_each_player``: the player whose copy of the step comes next."""
    if "_as" in step:
        frame.player = str(step["_as"])
        if step.get("_last"):
            frame.notes.pop("effect_of", None)


def _run_segment(rec: Recorder, frame: Frame, seg: Segment) -> bool:
    """Choose the segment's targets, tell them, and resolve its steps. False: a step asked."""
    if not choose_targets(rec, frame, seg):
        return False
    if not seg.told:
        seg.told = True
        tell_targeted(rec, frame, seg)
    while seg.steps:
        at = seg.steps[0]
        if not _leaving_answered(rec, frame, at):
            return False
        frame.notes["done"] = 0  # how many cards the step moved: "if you do" asks it
        if not runner(at.step["op"])(rec, frame, at, at.progress.targets or []):
            return False
        seg.steps.pop(0)
    return True


def _leaving_answered(rec: Recorder, frame: Frame, at: Pending) -> bool:
    """Before a step takes SIGNI off the field, the player of each whose own replacement says "you may" is
    asked whether to use it (``domain.abilities.leaving``); False: asked, the step waits."""
    s = rec.state
    vanish = expand(at.step).get("op") == "vanish"
    asked = frame.notes.get("leave_asking")
    if asked is not None and at.progress.answer is not None:
        answer = take(at)
        option = str(answer.get("option"))
        del frame.notes["leave_asking"]
        data = {"player": s.owners[asked], "card": asked, "option": option, "event": "leave_field"}
        rec.emit("ReplacementChosen", s.owners[asked], "effect.replace", data)
        if option == "replace" and answer.get("cards"):  # its cost, paid with the cards named
            leaving.pay(rec, asked, list(answer["cards"]), frame.player, vanish)
    iid = leaving.undecided(s, _leaving(rec, frame, at), frame.player, vanish)
    if iid is None:
        return True
    frame.notes["leave_asking"] = iid
    own = leaving.own_replacement(s, iid, frame.player, vanish)
    assert own is not None
    return ask_in_step(rec, frame, at, s.owners[iid], rule="effect.replace", **leaving.question(s, iid, own))


def negation_step(s: GameState, card: str, player: str, kind: str) -> dict[str, Any] | None:
    """The step that asks, as an ability of ``kind`` of a SIGNI activates, the player of a constant that may
    negate it (``negate_ability``) whether to pay for it; None when none can (its cost cannot be paid)."""
    from domain.abilities.constant_words import expand as expand_constant
    from domain.abilities.constants import active

    if kind not in ("auto", "enter", "action") or facts.card_of(s, card).type != CardType.SIGNI:
        return None
    for p, source, st in active(s, "negate_ability"):
        g = expand_constant(st)
        n = int(g.get("cost", {}).get("trash_under", {}).get("n", 1))
        where = s.where(source)
        slot = s.players[where[0]].signi.get(where[1].split(":")[-1]) if where is not None else None
        if p != player and kind in g.get("kinds", ()) and slot is not None and len(slot.under) >= n:
            return {"op": "then", "negation": source, "n": n}
    return None


def _negation(rec: Recorder, frame: Frame, at: Pending) -> bool:
    """Ask whether to negate the ability as it activates (``negate_ability``); paid with the cards from under
    the SIGNI named with the answer, it does nothing: the rest of its effect is dropped. False: asked."""
    s, source, n = rec.state, str(at.step["negation"]), int(at.step["n"])
    where = s.where(source)
    slot = s.players[where[0]].signi.get(where[1].split(":")[-1]) if where is not None else None
    if at.progress.answer is None:
        if slot is None or len(slot.under) < n:  # it left the field, or the cards under it did
            return True
        return ask_in_step(
            rec,
            frame,
            at,
            s.owners[source],
            rule="effect.replace",
            card=source,
            min=0,
            max=0,
            choices=list(slot.under),
            options=["replace", "decline"],
            pay={"under": n, "ener": 0},
            prompt=f"this ability activates: put {n} card(s) from under your SIGNI into the trash so that "
            "it does nothing instead?",
        )
    answer = take(at)
    if answer.get("option") != "replace":
        return True
    data = {
        "player": s.owners[source],
        "cards": list(answer.get("cards") or []),
        "to": "trash",
        "from": "under",
    }
    rec.emit("CardsMoved", "rules", "effect.replace", {**data, "by_effect": source})
    negated = {"player": frame.player, "card": frame.card, "ability": frame.ability, "version": 1}
    rec.emit("AbilityNegated", "rules", "effect.replace", {**negated, "by_effect": source})
    del frame.queue[1:]  # the ability does nothing
    return True


def _leaving(rec: Recorder, frame: Frame, at: Pending) -> list[str]:
    """The SIGNI on the field a step would take off it: what it vanishes (unless a constant keeps them from
    it) or moves elsewhere than the field, or this card as it changes places with one of the ener zone."""
    from domain.abilities.constants import immune
    from domain.abilities.effects.targeting import live_targets

    s, g = rec.state, expand(at.step)
    if g.get("op") == "swap_with_ener":
        return [frame.card] if _on_signi_zone(s, frame.card) else []
    if g.get("op") == "vanish" or (g.get("op") == "move" and g.get("to") not in ("field", "hand_or_field")):
        if "target" not in at.step:
            return []
        raw = [i for i in at.progress.targets or [] if _on_signi_zone(s, i)]
        vanish = g.get("op") == "vanish"
        if not any(leaving.own_replacement(s, i, frame.player, vanish) for i in raw):
            return []  # none of them has a replacement of its own: nothing to ask (the common case)
        live = live_targets(rec, frame, at.step, raw)
        out = [i for i in live if _on_signi_zone(s, i)]
        if g.get("op") == "vanish":
            out = [i for i in out if not immune(s, i, "vanish", frame.player, effect_of=frame.card)]
        return out
    return []


def _on_signi_zone(s: Any, iid: str) -> bool:
    where = s.where(iid)
    return where is not None and where[1].startswith("signi:")


# where a used card waiting in the check zone goes once its effect resolved: a spell into the trash, an ARTS
# into the LRIG trash, a PIECE out of the game (000 "Check Zone", "PIECE"; 002 "Main Phase")
USED_CARDS_GO = {"spell.use": "trash", "arts.use": "lrig_trash", "piece.use": "excluded"}


def _resolved(rec: Recorder, frame: Frame) -> None:
    data: dict[str, Any] = {"card": frame.card, "player": frame.player, "ability": frame.ability}
    where = rec.state.where(frame.card)
    if frame.rule in USED_CARDS_GO and where is not None and where[1] == "check":
        data["put"] = USED_CARDS_GO[frame.rule]
        if frame.card in rec.state.flags.get("exclude_leaving", ()):  # this turn it leaves the game instead
            data["put"] = "excluded"
    rec.emit("AbilityResolved", "rules", frame.rule, data)


def _bind(step: Step, vars: dict[str, Any]) -> Step:
    """The step with the filter values that name a noted number (``"declared"``) or colour
    (``"declared_color"``) replaced by it, and the keywords naming the declared colour written with it."""
    if not any(k in vars for k in NOTED):
        return step

    def walk(value: Any, in_filter: bool, in_keywords: bool = False) -> Any:
        if isinstance(value, dict):
            return {k: walk(v, in_filter or k == "filter", k == "keywords") for k, v in value.items()}
        if isinstance(value, list):
            return [walk(v, in_filter, in_keywords) for v in value]
        if in_filter and isinstance(value, str) and value in NOTED and value in vars:
            return vars[value]
        if in_keywords and isinstance(value, str) and DECLARED_COLOR in value and DECLARED_COLOR in vars:
            return value.replace(DECLARED_COLOR, str(vars[DECLARED_COLOR]))
        return value

    bound: Step = walk(step, False)
    return bound


def resume(rec: Recorder, stored: Mapping[str, Any] | Frame, answer: Mapping[str, Any]) -> None:
    """Continue a frame (as stored in the ``Asked`` event, any version, or already loaded) with the answer to
    what it asked."""
    frame = stored if isinstance(stored, Frame) else load_frame(dict(stored))
    at = frame.waiting()
    kind, at.progress.awaiting = at.progress.awaiting, None
    cards = list(answer.get("cards") or [])
    if kind == "targets":
        at.progress.targets = cards
    elif kind == "one_target":
        picked = at.progress.picked if at.progress.picked is not None else []
        if cards:
            picked.append(cards[0])
            at.progress.picked = picked
        else:  # "up to": the player stops choosing
            at.progress.targets, at.progress.picked = picked, None
    else:
        given = Answer(cards=cards)
        if "zone" in answer:
            given["zone"] = str(answer["zone"])
        if "option" in answer:
            given["option"] = str(answer["option"])
        at.progress.answer = given
    run(rec, frame)


def take(at: Pending) -> Answer:
    """The answer the step was given: it reads it once."""
    answer = taken(at)
    assert answer is not None, "a step read an answer it was not given"
    return answer


def taken(at: Pending) -> Answer | None:
    answer, at.progress.answer = at.progress.answer, None
    return answer


def ask_in_step(rec: Recorder, frame: Frame, at: Pending, player: str, **data: Any) -> bool:
    at.progress.awaiting = "answer"
    looked = frame.notes.pop("looked", None)
    if looked is not None and player == frame.player:
        data["looked"] = looked  # what the player just looked at, shown with the question, to them only
        data["private"] = True
    rec.ask(player, "choose", data.pop("rule", "target.choose"), purpose="effect", resume=dump(frame), **data)
    return False


def ask_options(
    rec: Recorder, frame: Frame, at: Pending, player: str, options: list[str], **data: Any
) -> bool:
    """Ask the player to pick one of ``options`` (no cards to choose): pay or decline, yes or no, a pile."""
    return ask_in_step(rec, frame, at, player, min=0, max=0, choices=[], options=options, **data)


def ask_zone(
    rec: Recorder,
    frame: Frame,
    at: Pending,
    player: str,
    zones: list[str],
    prompt: str = "choose the SIGNI zone to put it in",
) -> bool:
    """Ask which one of ``zones`` (SIGNI zones) the step acts on."""
    return ask_in_step(rec, frame, at, player, min=1, max=1, choices=[], zones=zones, prompt=prompt)


def ask_hand_or_field(rec: Recorder, frame: Frame, at: Pending, player: str) -> bool:
    """Ask where a card found goes, when the step lets the player choose its hand or the field."""
    return ask_options(
        rec,
        frame,
        at,
        player,
        ["hand", "field"],
        prompt="add it to your hand or put it onto your field?",
    )


# where a step refers to cards an earlier step took: a filter's ``level_of`` / ``name_of``, a target's
# ``total_level``, a measure's ``of`` (``revealed_fit``)
REFERS = ("level_of", "name_of", "total_level", "of")


def refers_later(frame: Frame, ref: str, *keys: str) -> bool:
    """Whether a step still to come refers to cards an earlier step took (``ref``: ``discarded``,
    ``revealed`` ...) by one of ``keys`` (a filter's ``level_of``, a measure's ``of`` ...): only then are they
    noted, so an effect's notes stay as they were for every other card."""
    later = json.dumps([at.step for at in frame.queue])
    return any(f'"{k}": "{ref}"' in later for k in keys)


def who(frame: Frame, step: dict[str, Any]) -> str:
    return frame.player if step.get("who", "you") == "you" else opponent(frame.player)


# a step's "n" may name a number the effect noted: the cards it just discarded, or added to the hand from the
# cards it looked at ("added": "discard a card for each card added this way"), the number its player declared
COUNTS = ("discarded", "added", "declared")


def count(frame: Frame, step: dict[str, Any], s: GameState | None = None) -> int:
    """The step's number: given, or noted by the effect in progress (``discarded``, ``added``), and ``plus``
    (which may be below 0: "that many minus one"); never below 0. With ``per`` (a measure, ``measures``) and
    the state: n once for each of what it measures now ("two cards for each of its levels", "as many cards
    as the blue cards discarded this way")."""
    n = step.get("n", 1)
    base = int(frame.notes.get(n, 0)) if n in COUNTS else int(n)
    if "per" in step and s is not None:
        base = bonus(Ctx(s, frame.player, frame.card, frame.notes), base, step["per"])
    return max(0, base + int(step.get("plus", 0)))
