"""The interpreter of effects: steps run in printed order, asking for targets and choices as decisions.

An effect in progress is a *frame*: the card and player it belongs to, the steps still to do (``queue``) and
the current segment (the steps up to the next ``then``, whose targets are all chosen before any of them
resolves); a typed ``domain.abilities.frames.Frame``. When a choice is needed the frame travels in the
``Asked`` event (``resume``, as ``frames.dump`` writes it, versioned), so the effect can go on from exactly
there when the answer comes (``frames.load`` reads it back, upcasting an older shape); the state between two
events is always serialisable. Nothing else happens in the middle of an effect: rule processing and triggered
abilities wait until it has finished.

A frame keeps notes (``notes``; ``vars`` of a version 1 frame) that later steps may look at: the cards the
last move put somewhere (``moved``), cards the player looked at and sees in the next question (``looked``),
and, for an effect that waited for the end of an attack, whether that attack dealt damage
(``attack_damaged``); the ener cards an optional cost was paid with (``paid``), and the zone a vanished SIGNI
was in, noted by its trigger (``was_in``); how many cards the last discard took (``discarded``: a draw may
count it), how many cards the step just before moved (``done``: "if you do"), and the card last revealed
(``revealed``).

Steps (``op``): draw, ener_charge, discard, mill, vanish, down, up, freeze, bounce, trash, to_hand, to_field,
to_deck, power, grant, grant_ability, lose_abilities, look, look_top, reveal_top, shuffle, life_add,
life_to_deck, gather_under, damage, ener_to_trash, search, crush, life_to_trash, negate_attack, return_lrig,
set_base, move_to_attacker_front, swap_with_ener, modes, if, may_pay, unless, delay, then; arrange_top (look
at the top cards, put any on the bottom and the rest back, both in a chosen order), gain_coins, pay_coins,
exceed, declare (a number, noted as ``declared``: a filter value ``"declared"`` names it), look_hand (look at,
or reveal, a hand), ban_spells, forbid_attack_zone, awaken; may (a player, you or the opponent, may do what
follows), exclude (remove from the game), attach_soul (a card from under this LRIG becomes a SIGNI's [Soul]),
prevent_damage (the next damage this turn is not taken), attack_limit (this LRIG attacks fewer times),
to_hand_or_field (the target to the hand or onto the field, as its player chooses).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from itertools import combinations, islice
from typing import Any

from domain import costs, facts
from domain.abilities import targets as tg
from domain.abilities.frames import (
    Answer,
    Arrange,
    BottomOrders,
    Frame,
    LookTop,
    Pending,
    Segment,
    Step,
    dump,
)
from domain.abilities.frames import load as load_frame
from domain.abilities.frames import pending as pending_steps
from domain.abilities.vocabulary import is_control, runner, step_text, targets
from domain.abilities.vocabulary import step_problems as step_problems
from domain.recorder import Recorder
from domain.state import SIGNI_ZONES, GameState, fresh, opponent

Op = Callable[[Recorder, Frame, Pending, list[str]], bool]  # False: it asked, the frame waits
OPS: dict[str, Op] = {}
NOTED = ("declared",)  # a filter value that names what the effect noted: the number its player declared
CHOOSE_COUNTS = ("opponent_center_level",)  # "choose" of a modes step may name a number the game gives
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
            queue.pop(0)
            continue
        if is_control(at.step["op"]):
            if not runner(at.step["op"])(rec, frame, at, []):
                return
            continue
        steps = []
        while queue and not is_control(queue[0].step["op"]):
            at = queue.pop(0)
            at.step = _bind(at.step, frame.notes)
            steps.append(at)
        frame.segment = Segment(steps)


def _run_segment(rec: Recorder, frame: Frame, seg: Segment) -> bool:
    """Choose the segment's targets, tell them, and resolve its steps. False: a step asked."""
    if not _choose_targets(rec, frame, seg):
        return False
    if not seg.told:
        seg.told = True
        _tell_targeted(rec, frame, seg)
    while seg.steps:
        at = seg.steps[0]
        frame.notes["done"] = 0  # how many cards the step moved: "if you do" asks it
        if not runner(at.step["op"])(rec, frame, at, at.progress.targets or []):
            return False
        seg.steps.pop(0)
    return True


def _resolved(rec: Recorder, frame: Frame) -> None:
    data: dict[str, Any] = {"card": frame.card, "player": frame.player, "ability": frame.ability}
    where = rec.state.where(frame.card)
    if frame.rule in ("spell.use", "piece.use") and where is not None and where[1] == "check":
        data["put"] = "excluded" if frame.rule == "piece.use" else "trash"
    rec.emit("AbilityResolved", "rules", frame.rule, data)


def _choose_targets(rec: Recorder, frame: Frame, seg: Segment) -> bool:
    """Choose every target of a segment before any of its steps resolves. False: a choice was asked."""
    before: list[str] = []
    for at in seg.steps:
        if at.step.get("target") is None:
            continue
        if at.progress.targets is None:
            found = _targets_of(rec, frame, at, before)
            if found is None:
                return False
            at.progress.targets = found
        before = at.progress.targets
    return True


def _targets_of(rec: Recorder, frame: Frame, at: Pending, before: list[str]) -> list[str] | None:
    """A step's targets, when no choice is left to make; None: a choice was asked."""
    s, step = rec.state, at.step
    spec = step["target"]
    if spec.get("it"):
        return list(before)  # "... and freeze it": what the step before targeted
    if spec.get("facing"):  # not a target: the opponent's SIGNI in front of this card, or of where it was
        return _facing(s, frame)
    if "power_below" in spec.get("filter", {}):
        spec = step["target"] = _power_below_moved(s, frame, spec)
    found = tg.candidates(s, frame.player, frame.card, spec)
    if spec.get("self") or spec.get("all") or "cards" in spec:
        return found
    if spec.get("distinct"):
        return _distinct_targets(rec, frame, at, spec, found)
    n = int(spec.get("count", 1))
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
    at.progress.awaiting = "targets"
    private = spec.get("zone") in ("hand", "lrig_deck")
    rec.ask(
        frame.player,
        "choose",
        "target.choose",
        purpose="target",
        min=lo,
        max=hi,
        choices=found,
        prompt=f"choose {tg.target_text(spec)} for {step_text(step)}",
        private=private,
        resume=dump(frame),
    )
    return None


def _bind(step: Step, vars: dict[str, Any]) -> Step:
    """The step with the filter values that name a noted number (``"declared"``) replaced by that number."""
    if not any(k in vars for k in NOTED):
        return step

    def walk(value: Any, in_filter: bool) -> Any:
        if isinstance(value, dict):
            return {k: walk(v, in_filter or k == "filter") for k, v in value.items()}
        if isinstance(value, list):
            return [walk(v, in_filter) for v in value]
        if in_filter and isinstance(value, str) and value in NOTED and value in vars:
            return vars[value]
        return value

    bound: Step = walk(step, False)
    return bound


def _tell_targeted(rec: Recorder, frame: Frame, seg: Segment) -> None:
    """The opponent's SIGNI on the field that the segment's steps target (not "all", not "it") are told, for
    the abilities that trigger when a SIGNI becomes the target of the opponent's ability or effect."""
    s, p = rec.state, frame.player
    cards: list[str] = []
    for at in seg.steps:
        spec = at.step.get("target") or {}
        if spec.get("self") or spec.get("all") or spec.get("it") or "cards" in spec:
            continue
        for iid in at.progress.targets or []:
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
    """A filter ``power_below: moved`` made concrete when its targets are chosen: power lower than that of the
    SIGNI the effect just put onto the field (none fits when it put none there)."""
    f = {k: v for k, v in spec.get("filter", {}).items() if k != "power_below"}
    slots = [sl for i in frame.notes.get("moved", []) if (sl := tg._slot(s, i)) is not None]
    below = facts.power(s, slots[0]) - 1 if slots else -1
    f["power_max"] = min(int(f.get("power_max", below)), below)
    return {**spec, "filter": f}


def _distinct_targets(
    rec: Recorder, frame: Frame, at: Pending, spec: dict[str, Any], found: list[str]
) -> list[str] | None:
    """Targets of pairwise different classes, chosen one at a time among those that can still make a full
    set ("up to" may stop early). None: a choice was asked."""
    s = rec.state
    n = min(int(spec.get("count", 1)), len(found))
    if at.progress.picked is None:
        at.progress.picked = []
    picked = at.progress.picked

    def ok(cards: list[str]) -> bool:
        return tg.distinct_classes([facts.card_of(s, i) for i in cards])

    def completes(cards: list[str], size: int) -> bool:
        rest = [i for i in found if i not in cards]
        need = size - len(cards)
        return need <= 0 or any(ok([*cards, *c]) for c in combinations(rest, need))

    want = int(spec.get("count", 1))
    if not spec.get("up_to"):
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
        at.progress.awaiting = "one_target"
        rec.ask(
            frame.player,
            "choose",
            "target.choose",
            purpose="target",
            min=0 if spec.get("up_to") else 1,
            max=1,
            choices=options,
            prompt=f"choose the next of {tg.target_text(spec)} for {step_text(at.step)}",
            private=spec.get("zone") == "hand",
            resume=dump(frame),
        )
        return None
    at.progress.picked = None
    return picked


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


def _ask_hand_or_field(rec: Recorder, frame: Frame, at: Pending, player: str) -> bool:
    """Ask where a card found goes, when the step lets the player choose its hand or the field."""
    return ask_in_step(
        rec,
        frame,
        at,
        player,
        min=0,
        max=0,
        choices=[],
        options=["hand", "field"],
        prompt="add it to your hand or put it onto your field?",
    )


def _who(frame: Frame, step: dict[str, Any]) -> str:
    return frame.player if step.get("who", "you") == "you" else opponent(frame.player)


def _live(rec: Recorder, frame: Frame, step: dict[str, Any], chosen: list[str]) -> list[str]:
    """Chosen targets that still fit: a target that became illegal before resolution is not affected."""
    spec = step["target"]
    if spec.get("it") or spec.get("facing"):
        return [i for i in chosen if tg._on_field(rec.state, i)]
    return [i for i in chosen if tg.still_fits(rec.state, frame.player, frame.card, spec, i)]


def _facing(s: GameState, frame: Frame) -> list[str]:
    """The opponent's SIGNI in the zone in front of this card's SIGNI zone (or of the one it was in, noted by
    its trigger as ``was_in``)."""
    from domain.state import facing

    where = s.where(frame.card)
    zone = where[1].split(":")[1] if where is not None and where[1].startswith("signi:") else None
    zone = zone or frame.notes.get("was_in")
    if zone not in SIGNI_ZONES:
        return []
    owner = s.owners[frame.card]
    front = s.players[opponent(owner)].signi[facing(zone)]
    return [] if front is None else [front.iid]


def _zone_of(s: GameState, iid: str) -> str:
    where = s.where(iid)
    return "" if where is None else where[1].split(":")[0]


COUNTS = ("discarded",)  # a step's "n" may name a number the effect noted: the cards it just discarded


def count(frame: Frame, step: dict[str, Any]) -> int:
    """The step's number: given, or noted by the effect in progress (``discarded``)."""
    n = step.get("n", 1)
    return int(frame.notes.get(n, 0)) if n in COUNTS else int(n)


@op("draw")
def _draw(rec: Recorder, frame: Frame, at: Pending, _t: list[str]) -> bool:
    step = at.step
    p = _who(frame, step)
    deck = rec.state.players[p].zones["deck"]
    cards = deck[: count(frame, step)]  # an empty deck draws nothing; refresh waits for the effect's end
    rec.emit("CardsDrawn", "rules", frame.rule, {"player": p, "cards": cards, "by_effect": frame.card})
    return True


@op("ener_charge")
def _ener_charge(rec: Recorder, frame: Frame, at: Pending, _t: list[str]) -> bool:
    step = at.step
    p = _who(frame, step)
    cards = list(rec.state.players[p].zones["deck"][: int(step.get("n", 1))])
    for iid in cards:
        rec.emit("EnerCharged", "rules", frame.rule, {"player": p, "card": iid, "from": "deck"})
    frame.notes["moved"] = cards
    return True


@op("mill")
def _mill(rec: Recorder, frame: Frame, at: Pending, _t: list[str]) -> bool:
    step = at.step
    p = _who(frame, step)
    cards = rec.state.players[p].zones["deck"][: int(step.get("n", 1))]
    _milled(rec, frame, p, cards)
    return True


def _milled(rec: Recorder, frame: Frame, p: str, cards: list[str]) -> None:
    rec.emit(
        "CardsMilled",
        "rules",
        frame.rule,
        {"player": p, "cards": cards, "by": frame.player, "by_effect": frame.card},
    )
    frame.notes["moved"] = list(cards)


@op("shuffle")
def _shuffle(rec: Recorder, frame: Frame, at: Pending, _t: list[str]) -> bool:
    step = at.step
    _shuffle_deck(rec, frame, _who(frame, step))
    return True


def _shuffle_deck(rec: Recorder, frame: Frame, p: str) -> None:
    deck = list(rec.state.players[p].zones["deck"])
    rec.random(f"effect-shuffle:{p}").shuffle(deck)
    rec.emit("DeckShuffled", "rules", frame.rule, {"player": p, "order": deck})


@op("discard")
def _discard(rec: Recorder, frame: Frame, at: Pending, _t: list[str]) -> bool:
    step = at.step
    s = rec.state
    p = _who(frame, step)
    f = step.get("filter", {})
    hand = [i for i in s.players[p].zones["hand"] if tg._card_fits(facts.card_of(s, i), f)]
    n = len(hand) if step.get("all") else min(int(step.get("n", 1)), len(hand))  # "all": the whole hand
    up_to = bool(step.get("up_to"))  # "discard up to n": the player may discard fewer, or none
    frame.notes["discarded"] = 0
    if n == 0:
        return True
    if step.get("random"):
        cards = rec.random(f"discard:{p}").sample(list(hand), n)
    elif at.progress.answer is not None:
        cards = take(at)["cards"]
    elif (n == len(hand) and not f and not up_to) or step.get("all"):
        cards = list(hand)
    else:
        what = f" {tg.filter_text(f)}" if f else ""
        return ask_in_step(
            rec,
            frame,
            at,
            p,
            min=0 if up_to else n,
            max=n,
            choices=list(hand),
            private=True,
            prompt=f"choose {'up to ' if up_to else ''}{n} card(s){what} to discard",
        )
    frame.notes["discarded"] = len(cards)
    if not cards:
        return True
    data = {"player": p, "cards": cards, "by_effect": frame.card}
    if step.get("_cost"):
        data["as_cost"] = True
    rec.emit("CardsDiscarded", "rules", frame.rule, data)
    return True


@op("vanish")
def _vanish(rec: Recorder, frame: Frame, at: Pending, chosen: list[str]) -> bool:
    step = at.step
    from domain.abilities.constants import immune

    for iid in _live(rec, frame, step, chosen):
        if immune(rec.state, iid, "vanish", frame.player):
            continue  # a constant keeps it from being vanished by this player's effects
        owner = rec.state.owners[iid]
        zone = (rec.state.players[owner].find(iid) or "").split(":")[-1]
        rec.emit(
            "SigniVanished",
            "rules",
            frame.rule,
            {"player": owner, "card": iid, "zone": zone, "cause": "effect", "by_effect": frame.card},
        )
    return True


def _set_flag(name: str, value: bool) -> Op:
    def run_flag(rec: Recorder, frame: Frame, at: Pending, chosen: list[str]) -> bool:
        step = at.step
        cards = _live(rec, frame, step, chosen)
        if cards:
            rec.emit("CardsSet", "rules", frame.rule, {"cards": cards, name: value, "by_effect": frame.card})
        return True

    return run_flag


OPS["down"] = _set_flag("downed", True)
OPS["up"] = _set_flag("downed", False)
OPS["freeze"] = _set_flag("frozen", True)


def _move(rec: Recorder, frame: Frame, player: str, cards: list[str], to: str, **extra: Any) -> None:
    """Move cards from one zone (noted as ``from``); a SIGNI that leaves the field may trigger abilities."""
    src = _zone_of(rec.state, cards[0])
    data = {"player": player, "cards": cards, "to": to, "from": src, "by_effect": frame.card, **extra}
    rec.emit("CardsMoved", "rules", frame.rule, data)
    frame.notes["done"] = frame.notes.get("done", 0) + len(cards)
    if src == "signi":
        frame.notes["moved"] = list(cards)


@op("bounce")
def _bounce(rec: Recorder, frame: Frame, at: Pending, chosen: list[str]) -> bool:
    step = at.step
    for iid in _live(rec, frame, step, chosen):
        _move(rec, frame, rec.state.owners[iid], [iid], "hand")
    return True


@op("trash")
def _trash(rec: Recorder, frame: Frame, at: Pending, chosen: list[str]) -> bool:
    step = at.step
    for iid in _live(rec, frame, step, chosen):
        _move(rec, frame, rec.state.owners[iid], [iid], "trash")
    return True


@op("exclude")
def _exclude(rec: Recorder, frame: Frame, at: Pending, chosen: list[str]) -> bool:
    """Remove the targets from the game (the excluded zone): a SIGNI so removed leaves the field, and is not
    vanished."""
    step = at.step
    for iid in _live(rec, frame, step, chosen):
        _move(rec, frame, rec.state.owners[iid], [iid], "excluded")
    return True


@op("to_hand")
def _to_hand(rec: Recorder, frame: Frame, at: Pending, chosen: list[str]) -> bool:
    step = at.step
    cards = _live(rec, frame, step, chosen)
    if cards:
        _move(rec, frame, frame.player, cards, "hand")
    return True


@op("to_deck")
def _to_deck(rec: Recorder, frame: Frame, at: Pending, chosen: list[str]) -> bool:
    """Shuffle the targets into their owner's deck (``bottom``: put them on the bottom of it, unshuffled)."""
    step = at.step
    s = rec.state
    cards = _live(rec, frame, step, chosen)
    bottom = step.get("bottom") or step.get("position") == "bottom"
    orders = at.progress.bottom if at.progress.bottom is not None else BottomOrders()
    answer = taken(at)
    if answer is not None and orders.asking is not None:
        # the order the owner asked gave: from the one nearest the top to the very bottom
        orders.orders[orders.asking], orders.asking = list(answer["cards"]), None
    for owner in sorted({s.owners[i] for i in cards}):
        mine = [i for i in cards if s.owners[i] == owner]
        if bottom and len({s.cards[i] for i in mine}) > 1 and owner not in orders.orders:
            # cards put on the bottom of a deck together: their owner chooses the order
            orders.asking = owner
            at.progress.bottom = orders
            return ask_in_step(
                rec,
                frame,
                at,
                owner,
                min=len(mine),
                max=len(mine),
                choices=mine,
                order=True,
                prompt="these cards go to the bottom of your deck: give them all, in order; the last one "
                "goes to the very bottom",
            )
    for owner in sorted({s.owners[i] for i in cards}):
        mine = [i for i in cards if s.owners[i] == owner]
        if owner in orders.orders:
            mine = [i for i in orders.orders[owner] if i in mine]
        _move(rec, frame, owner, mine, "deck")  # a card moved into the deck goes to its bottom
        if not bottom:
            _shuffle_deck(rec, frame, owner)
    return True


def legal_zones(s: GameState, player: str, iid: str) -> list[str]:
    """Empty SIGNI zones where a SIGNI may be put by an effect: level, limit and limiting condition hold."""
    from domain.answers import check_play
    from domain.errors import IllegalAction

    out = []
    for zone in SIGNI_ZONES:
        try:
            check_play(s, player, iid, zone)
        except IllegalAction:
            continue
        out.append(zone)
    return out


def _put(rec: Recorder, frame: Frame, iid: str, zone: str, no_enter: bool, downed: bool = False) -> None:
    data: dict[str, Any] = {
        "player": frame.player,
        "card": iid,
        "zone": zone,
        "by_effect": frame.card,
        "no_enter": no_enter,
    }
    if downed:
        data["downed"] = True
    below = rec.state.players[frame.player].signi[zone]
    if below is not None:  # Rise: on top of the SIGNI there
        data["rise_on"] = below.iid
    rec.emit("SigniPutOntoField", "rules", frame.rule, data)


@op("to_field")
def _to_field(rec: Recorder, frame: Frame, at: Pending, chosen: list[str]) -> bool:
    step = at.step
    p = frame.player
    live = _live(rec, frame, step, chosen)
    if not live:
        return True
    iid = live[0]
    zones = legal_zones(rec.state, p, iid)
    if not zones:  # a SIGNI that would exceed the level or limit never enters the field
        return True
    if at.progress.answer is not None:
        zone = take(at).get("zone")
    elif len(zones) == 1:
        zone = zones[0]
    else:
        return ask_in_step(
            rec,
            frame,
            at,
            p,
            min=1,
            max=1,
            choices=[],
            zones=zones,
            prompt="choose the SIGNI zone to put it in",
        )
    _put(rec, frame, iid, zone, bool(step.get("no_enter")), bool(step.get("downed")))
    frame.notes["moved"] = [iid]
    return True


@op("attach_soul")
def _attach_soul(rec: Recorder, frame: Frame, at: Pending, chosen: list[str]) -> bool:
    """Attach a card from under this LRIG (the player chooses which) to the target SIGNI as its [Soul]; a Soul
    already attached to it goes to the LRIG trash (one Soul at most)."""
    step = at.step
    from domain.abilities.triggers import souls

    s, p = rec.state, frame.player
    live = _live(rec, frame, step, chosen)
    source = tg._slot(s, frame.card)
    under = list(source.under) if source is not None else []
    if not live or not under:
        return True
    if at.progress.answer is not None:
        card = take(at)["cards"][0]
    elif len(under) == 1:
        card = under[0]
    else:
        return ask_in_step(
            rec,
            frame,
            at,
            p,
            min=1,
            max=1,
            choices=under,
            prompt="choose the card from under this LRIG to attach as a Soul",
        )
    old = souls(s, live[0])
    if old:
        data = {"player": p, "cards": old, "to": "lrig_trash", "from": "under", "by_effect": frame.card}
        rec.emit("CardsMoved", "rules", "kw.soul", data)
    data = {"player": p, "cards": [card], "card": live[0], "soul": True, "by_effect": frame.card}
    rec.emit("CardsPutUnder", "rules", "kw.soul", data)
    return True


PER = ("your_signi_colors",)  # what a power change may be multiplied by


def _per(s: GameState, player: str, per: str | None) -> int:
    """The multiplier of a power change: 1, or ``your_signi_colors``: the different colours (colourless is
    none) among the SIGNI on the player's field."""
    if per is None:
        return 1
    colors = {c for _z, sl in s.players[player].signi_slots() for c in facts.card_of(s, sl.iid).colors}
    return len(colors - {"colorless"})


@op("power")
def _power(rec: Recorder, frame: Frame, at: Pending, chosen: list[str]) -> bool:
    step = at.step
    s = rec.state
    lasting = step.get("until") == "opponent_next_turn" and s.turn_player == frame.player
    amount = int(step["amount"]) * _per(s, frame.player, step.get("per"))
    for iid in _live(rec, frame, step, chosen):
        data = {
            "card": iid,
            "amount": amount,
            "until": "end_of_turn",
            "by_effect": frame.card,
        }
        if lasting:
            data["lasts"] = "opponent_next_turn"
        rec.emit("PowerChanged", "rules", frame.rule, data)
        if lasting:  # the opponent's turn gets the same change, for as long as the card stays on the field
            _again_next_turn(
                rec, frame, {"op": "power", "amount": int(step["amount"]), "target": {"cards": [iid]}}
            )
    return True


def _again_next_turn(rec: Recorder, frame: Frame, step: dict[str, Any]) -> None:
    """Apply ``step`` once more at the start of the next turn (the opponent's): an effect that lasts "until
    the end of the opponent's next turn"."""
    rec.emit(
        "EffectDelayed",
        "rules",
        "effect.delayed",
        {
            "player": frame.player,
            "card": frame.card,
            "ability": frame.ability,
            "until": "turn",
            "turn": rec.state.turn + 1,
            "effect": [step],
        },
    )


@op("grant")
def _grant(rec: Recorder, frame: Frame, at: Pending, chosen: list[str]) -> bool:
    step = at.step
    for iid in _live(rec, frame, step, chosen):
        rec.emit(
            "KeywordsGranted",
            "rules",
            frame.rule,
            {
                "card": iid,
                "keywords": list(step["keywords"]),
                "until": "end_of_turn",
                "by_effect": frame.card,
            },
        )
    return True


@op("grant_ability")
def _grant_ability(rec: Recorder, frame: Frame, at: Pending, chosen: list[str]) -> bool:
    """The targets gain the ability written in the step, until end of turn."""
    step = at.step
    from domain.abilities.catalogue import granted_ref

    ref = granted_ref(rec.state.cards[frame.card], int(frame.ability), step["ability"])
    for iid in _live(rec, frame, step, chosen):
        rec.emit(
            "AbilityGranted",
            "rules",
            "ability.granted",
            {"card": iid, "ability": ref, "until": "end_of_turn", "by_effect": frame.card},
        )
    return True


@op("lose_abilities")
def _lose_abilities(rec: Recorder, frame: Frame, at: Pending, chosen: list[str]) -> bool:
    step = at.step
    cards = _live(rec, frame, step, chosen)
    if cards:
        rec.emit(
            "AbilitiesLost",
            "rules",
            "effect.lose-abilities",
            {"cards": cards, "until": "end_of_turn", "by_effect": frame.card},
        )
    return True


@op("look")
def _look(rec: Recorder, frame: Frame, at: Pending, _t: list[str]) -> bool:
    """Look at the top cards of a hidden zone of yours: they are shown with the next question, to you."""
    step = at.step
    zone = step.get("zone", "life_cloth")
    frame.notes["looked"] = list(rec.state.players[frame.player].zones[zone][: int(step.get("n", 1))])
    return True


@op("look_top")
def _look_top(rec: Recorder, frame: Frame, at: Pending, _t: list[str]) -> bool:
    """Look at the top N cards of your deck; take up to some that fit (one group of picks after another) into
    the hand, onto the field, or either, one card at a time; put the rest on the bottom of the deck in a
    random order, or (``order: chosen``) in the order the player chooses (not asked when they are all copies
    of one card), or into the trash."""
    step, s, p = at.step, rec.state, frame.player
    if at.progress.look is None:
        at.progress.look = LookTop(top=list(s.players[p].zones["deck"][: int(step["n"])]))
    look = at.progress.look
    answer = taken(at)
    if answer is not None:
        _look_answered(rec, frame, at, look, answer)
    while True:
        if look.taking:
            asked = _look_put_next(rec, frame, at, look)
            if asked is not None:
                return asked
            continue
        groups = step["picks"] if "picks" in step else [step.get("pick", {})]
        if look.group >= len(groups):
            break
        if _look_pick(rec, frame, at, look, groups[look.group]):
            return False
    return _look_rest(rec, frame, at, look)


def _look_answered(rec: Recorder, frame: Frame, at: Pending, look: LookTop, answer: Answer) -> None:
    stage, look.stage = look.stage, None
    if stage == "pick":
        look.taking = list(answer["cards"])
        look.group += 1
    elif stage == "dest" and answer.get("option") == "hand":
        look.hand.append(look.taking.pop(0))
    elif stage == "dest":
        look.to_field = True
    elif stage == "order":  # the rest, from the one nearest the top to the very bottom
        look.rest = list(answer["cards"])
    else:  # the zone for the card going onto the field
        _put(rec, frame, look.taking.pop(0), answer["zone"], bool(at.step.get("no_enter")))
        look.to_field = False


def _look_put_next(rec: Recorder, frame: Frame, at: Pending, look: LookTop) -> bool | None:
    """Put the next picked card where it goes (the hand, or the field); False: it asked, None: go on."""
    s, p = rec.state, frame.player
    to = at.step.get("to", "hand")
    if to == "hand":
        look.hand.extend(look.taking)
        look.taking = []
        return None
    iid = look.taking[0]
    zones = legal_zones(s, p, iid)
    if not zones:  # it cannot go onto the field: to the hand if it may, else it stays with the rest
        look.taking.pop(0)
        if to == "hand_or_field":
            look.hand.append(iid)
        return None
    if to == "hand_or_field" and not look.to_field:
        look.stage = "dest"
        return _ask_hand_or_field(rec, frame, at, p)
    if len(zones) == 1:
        _put(rec, frame, look.taking.pop(0), zones[0], bool(at.step.get("no_enter")))
        look.to_field = False
        return None
    look.stage = "zone"
    return ask_in_step(
        rec, frame, at, p, min=1, max=1, choices=[], zones=zones, prompt="choose the SIGNI zone"
    )


def _look_pick(rec: Recorder, frame: Frame, at: Pending, look: LookTop, pick: dict[str, Any]) -> bool:
    """Ask for the cards of one group of picks; False: none can be picked (the next group comes)."""
    s, p = rec.state, frame.player
    to = at.step.get("to", "hand")
    deck = s.players[p].zones["deck"]
    fits = [
        i
        for i in look.top
        if i in deck
        and i not in look.hand
        and tg._card_fits(facts.card_of(s, i), pick.get("filter", {}))
        and (to != "field" or legal_zones(s, p, i))
    ]
    hi = min(int(pick.get("count", 1)), len(fits))
    if hi == 0:
        look.group += 1
        return False
    look.stage = "pick"
    where = {"hand": "to your hand", "field": "onto your field"}.get(to, "")
    # 000 "Hidden zone": a card of a hidden zone sought by what it is (a filter) may go unfound,
    # since nobody else can check that one was there; only "any card" must be taken
    must = not pick.get("up_to", True) and not pick.get("filter")
    ask_in_step(
        rec,
        frame,
        at,
        p,
        min=hi if must else 0,
        max=hi,
        choices=fits,
        private=True,
        looked=look.top,
        prompt=f"choose up to {hi} card(s) {tg.filter_text(pick.get('filter', {}))} from the top "
        f"{len(look.top)} {where}".replace("  ", " "),
    )
    return True


def _look_rest(rec: Recorder, frame: Frame, at: Pending, look: LookTop) -> bool:
    """The cards taken go to the hand; the rest to the bottom of the deck (in a chosen order) or the trash."""
    step, s, p = at.step, rec.state, frame.player
    left = [i for i in s.players[p].zones["deck"] if i in look.top and i not in look.hand]
    chosen_order = step.get("order") == "chosen" and step.get("rest", "bottom") == "bottom"
    distinct = len({s.cards[i] for i in left}) > 1  # copies of one card need no order
    if chosen_order and distinct and look.rest is None:
        look.stage = "order"
        return ask_in_step(
            rec,
            frame,
            at,
            p,
            min=len(left),
            max=len(left),
            choices=left,
            order=True,
            private=True,
            prompt="put the rest on the bottom of your deck: give them all, in order; the last one "
            "goes to the very bottom",
        )
    if look.hand:
        reveal = bool(step.get("reveal", False))
        rec.emit(
            "CardsMoved",
            "rules",
            frame.rule,
            {"player": p, "cards": look.hand, "to": "hand", "reveal": reveal, "from_hidden": not reveal},
        )
    rest = [i for i in s.players[p].zones["deck"] if i in look.top]
    if rest:
        if step.get("rest", "bottom") == "trash":
            _milled(rec, frame, p, rest)
        elif look.rest is not None:
            rec.emit("CardsToDeckBottom", "rules", frame.rule, {"player": p, "cards": look.rest})
        else:
            rec.random(f"bottom:{p}").shuffle(rest)
            rec.emit("CardsToDeckBottom", "rules", frame.rule, {"player": p, "cards": rest})
    return True


@op("arrange_top")
def _arrange_top(rec: Recorder, frame: Frame, at: Pending, _t: list[str]) -> bool:
    """Look at the top N cards of your deck; put any number of them on the bottom in the order you choose,
    and the rest back on top in the order you choose (both orders: the first chosen is nearest the top)."""
    step, s, p = at.step, rec.state, frame.player
    if at.progress.arrange is None:
        at.progress.arrange = Arrange(top=list(s.players[p].zones["deck"][: int(step.get("n", 1))]))
    arr = at.progress.arrange
    top = arr.top
    if not top:
        return True
    answer = taken(at)
    if answer is not None:
        if arr.bottom is None:
            arr.bottom = list(answer["cards"])
        else:
            arr.order = list(answer["cards"])
    if arr.bottom is None:
        return ask_in_step(
            rec,
            frame,
            at,
            p,
            min=0,
            max=len(top),
            choices=list(top),
            private=True,
            looked=top,
            prompt=f"choose any of the top {len(top)} to put on the bottom of your deck, in their order",
        )
    rest = [i for i in top if i not in arr.bottom]
    if len(rest) > 1 and arr.order is None:
        return ask_in_step(
            rec,
            frame,
            at,
            p,
            min=len(rest),
            max=len(rest),
            choices=rest,
            private=True,
            prompt="put the rest back on top of your deck: list them from the top down",
        )
    rec.emit(
        "DeckTopArranged",
        "rules",
        frame.rule,
        {"player": p, "top": arr.order if arr.order is not None else rest, "bottom": arr.bottom},
    )
    return True


@op("gain_coins")
def _gain_coins(rec: Recorder, frame: Frame, at: Pending, _t: list[str]) -> bool:
    """You gain coins; a player holds at most five, and what would go beyond is not gained."""
    step = at.step
    from domain.state import COIN_LIMIT

    p = _who(frame, step)
    n = min(int(step.get("n", 1)), COIN_LIMIT - rec.state.players[p].coins)
    if n > 0:
        rec.emit("CoinsGained", "rules", frame.rule, {"player": p, "count": n, "by_effect": frame.card})
    return True


@op("pay_coins")
def _pay_coins(rec: Recorder, frame: Frame, at: Pending, _t: list[str]) -> bool:
    """Pay coins (a cost: checked beforehand); a player without enough pays none."""
    step = at.step
    p = _who(frame, step)
    n = int(step.get("n", 1))
    if rec.state.players[p].coins >= n:
        rec.emit("CoinsPaid", "rules", "effect.coins", {"player": p, "count": n, "for": frame.card})
    return True


def _under_lrigs(s: GameState, p: str) -> list[str]:
    """The cards under a player's LRIGs (center, left, right), each LRIG's from the bottom up."""
    return [u for pos in ("center", "left", "right") if (sl := s.players[p].lrig[pos]) for u in sl.under]


@op("exceed")
def _exceed(rec: Recorder, frame: Frame, at: Pending, _t: list[str]) -> bool:
    """Exceed N: put N cards from under your LRIGs (any of them) into the LRIG trash, chosen by you."""
    step = at.step
    p = _who(frame, step)
    under = _under_lrigs(rec.state, p)
    n = int(step.get("n", 1))
    if len(under) < n:
        return True
    if at.progress.answer is not None:
        cards = take(at)["cards"]
    elif len(under) == n:
        cards = under
    else:
        return ask_in_step(
            rec,
            frame,
            at,
            p,
            min=n,
            max=n,
            choices=under,
            prompt=f"exceed {n}: choose the cards from under your LRIGs",
        )
    exceed_cards(rec, frame.rule, p, cards, frame.card)
    return True


def exceed_cards(rec: Recorder, rule: str, p: str, cards: list[str], source: str) -> None:
    rec.emit(
        "CardsMoved",
        "rules",
        rule,
        {
            "player": p,
            "cards": cards,
            "to": "lrig_trash",
            "from": "under",
            "exceed": True,
            "by_effect": source,
        },
    )


@op("awaken")
def _awaken(rec: Recorder, frame: Frame, at: Pending, chosen: list[str]) -> bool:
    """The targets (this SIGNI) awaken: they stay awakened while they are on the field."""
    step = at.step
    for iid in _live(rec, frame, step, chosen):
        slot = tg._slot(rec.state, iid)
        if slot is not None and not slot.awakened:
            rec.emit(
                "SigniAwakened",
                "rules",
                frame.rule,
                {"player": rec.state.owners[iid], "card": iid, "by_effect": frame.card},
            )
    return True


@op("ban_spells")
def _ban_spells(rec: Recorder, frame: Frame, at: Pending, _t: list[str]) -> bool:
    """A player cannot use spells for the rest of this turn."""
    step = at.step
    p = _who(frame, step)
    rec.emit("SpellsBanned", "rules", "effect.no-spells", {"player": p, "by_effect": frame.card})
    return True


@op("declare")
def _declare(rec: Recorder, frame: Frame, at: Pending, _t: list[str]) -> bool:
    """You declare a number from ``min`` (0 unless given) to ``max`` (a number, or the level of the opponent's
    center LRIG); filters of later steps may name it as ``"declared"``."""
    step = at.step
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


@op("look_hand")
def _look_hand(rec: Recorder, frame: Frame, at: Pending, _t: list[str]) -> bool:
    """You look at a player's hand (``who``: the opponent unless given): shown to you and its owner only; with
    ``reveal``, shown to everyone, and with ``deck_top`` the top card of that player's deck too."""
    step = at.step
    owner = _who(frame, {"who": step.get("who", "opponent")})
    s = rec.state
    cards = list(s.players[owner].zones["hand"])
    to = "all" if step.get("reveal") else frame.player
    rec.emit(
        "HandRevealed",
        "rules",
        frame.rule,
        {"player": owner, "to": to, "cards": cards, "by_effect": frame.card},
    )
    deck = s.players[owner].zones["deck"]
    if step.get("deck_top") and deck:
        rec.emit(
            "CardRevealed",
            "rules",
            frame.rule,
            {"player": owner, "card": deck[0], "card_id": s.cards[deck[0]]},
        )
    return True


@op("forbid_attack_zone")
def _forbid_attack_zone(rec: Recorder, frame: Frame, at: Pending, _t: list[str]) -> bool:
    """You choose one of the opponent's SIGNI zones: this turn, SIGNI in it cannot attack."""
    p = frame.player
    if at.progress.answer is None:
        return ask_in_step(
            rec,
            frame,
            at,
            p,
            min=1,
            max=1,
            choices=[],
            zones=list(SIGNI_ZONES),
            prompt="choose one of the opponent's SIGNI zones: SIGNI in it cannot attack this turn",
        )
    zone = take(at)["zone"]
    rec.emit(
        "AttackForbidden",
        "rules",
        frame.rule,
        {"player": opponent(p), "zone": zone, "until": "end_of_turn", "by_effect": frame.card},
    )
    return True


@op("reveal_top")
def _reveal_top(rec: Recorder, frame: Frame, at: Pending, _t: list[str]) -> bool:
    """Reveal the top card of a deck (yours, or ``who``'s); if it fits the filter, what follows happens."""
    step = at.step
    p = _who(frame, step)
    frame.queue.pop(0)
    deck = rec.state.players[p].zones["deck"]
    if not deck:
        return True
    iid = deck[0]
    rec.emit("CardRevealed", "rules", frame.rule, {"player": p, "card": iid, "card_id": rec.state.cards[iid]})
    frame.notes["revealed"] = iid  # later steps may ask what it was (condition "revealed")
    if tg._card_fits(facts.card_of(rec.state, iid), step.get("filter", {})):
        frame.insert(step.get("then", []))
    return True


@op("life_add")
def _life_add(rec: Recorder, frame: Frame, at: Pending, _t: list[str]) -> bool:
    """Add the top N cards of your deck to the top of your Life Cloth (both hidden: only a count is told)."""
    step = at.step
    p = frame.player
    n = min(int(step.get("n", 1)), len(rec.state.players[p].zones["deck"]))
    if n:
        rec.emit("LifeClothAdded", "rules", "effect.life-cloth", {"player": p, "count": n})
    return True


@op("life_to_deck")
def _life_to_deck(rec: Recorder, frame: Frame, at: Pending, _t: list[str]) -> bool:
    """Put the top N cards of your Life Cloth on top of your deck (a shuffle is a step of its own)."""
    step = at.step
    p = frame.player
    n = min(int(step.get("n", 1)), len(rec.state.players[p].zones["life_cloth"]))
    if n:
        rec.emit("LifeClothToDeck", "rules", "effect.life-cloth", {"player": p, "count": n})
    return True


@op("gather_under")
def _gather_under(rec: Recorder, frame: Frame, at: Pending, _t: list[str]) -> bool:
    """Put every card under your other LRIGs under this LRIG."""
    s, p = rec.state, frame.player
    cards = [
        u for sl in s.players[p].lrig.values() if sl is not None and sl.iid != frame.card for u in sl.under
    ]
    if cards and tg._on_field(s, frame.card):
        rec.emit(
            "CardsPutUnder",
            "rules",
            frame.rule,
            {"player": p, "cards": cards, "card": frame.card, "by_effect": frame.card},
        )
    return True


@op("damage")
def _damage(rec: Recorder, frame: Frame, at: Pending, _t: list[str]) -> bool:
    """This card deals damage to a player: a Life Cloth is crushed, or with none left that player loses."""
    step = at.step
    from domain.combat import crush

    p = _who(frame, {"who": step.get("who", "opponent")})
    from domain.combat import prevented

    if prevented(rec, p, frame.card, attack=False):
        return True
    n = rec.emit(
        "EffectDamageDealt",
        "rules",
        "effect.damage",
        {"player": p, "source": frame.card, "by_effect": frame.card},
    )
    if not rec.state.players[p].zones["life_cloth"]:
        rec.emit(
            "GameEnded",
            "rules",
            "damage.no-life",
            {
                "winner": opponent(p),
                "loser": p,
                "reason": "damage with no Life Cloth left",
                "rule": "damage.no-life",
            },
            caused_by=n,
        )
        return True
    crush(rec, p, 1, "damage", "damage.crush", caused_by=n)
    return True


@op("ener_to_trash")
def _ener_to_trash(rec: Recorder, frame: Frame, at: Pending, _t: list[str]) -> bool:
    """A player chooses N cards of their own ener zone (all, when there are no more) and puts them into the
    trash: ``who`` is that player (``opponent``: the opponent chooses theirs)."""
    step = at.step
    s = rec.state
    p = _who(frame, step)
    ener = list(s.players[p].zones["ener"])
    n = min(int(step.get("n", 1)), len(ener))
    if n == 0:
        return True
    if at.progress.answer is not None:
        cards = take(at)["cards"]
    elif n == len(ener):
        cards = ener
    else:
        return ask_in_step(
            rec,
            frame,
            at,
            p,
            min=n,
            max=n,
            choices=ener,
            prompt=f"choose {n} card(s) of your ener zone to put into the trash",
        )
    rec.emit(
        "CardsMoved",
        "rules",
        frame.rule,
        {"player": p, "cards": cards, "to": "trash", "from": "ener", "by_effect": frame.card},
    )
    return True


@op("search")
def _search(rec: Recorder, frame: Frame, at: Pending, _t: list[str]) -> bool:
    """Search your deck for a card that fits the filter, reveal it and add it to your hand (a search of a
    hidden zone may find nothing); then shuffle the deck."""
    step = at.step
    s, p = rec.state, frame.player
    f = step.get("filter", {})
    if at.progress.answer is not None:
        cards = list(take(at)["cards"])
    else:
        fits = [i for i in s.players[p].zones["deck"] if tg._card_fits(facts.card_of(s, i), f)]
        if fits:
            return ask_in_step(
                rec,
                frame,
                at,
                p,
                min=0,
                max=1,
                choices=fits,
                private=True,
                prompt=f"search your deck for a card {tg.filter_text(f)} to reveal and add to your hand",
            )
        cards = []
    if cards:
        rec.emit(
            "CardsMoved",
            "rules",
            frame.rule,
            {
                "player": p,
                "cards": cards,
                "to": "hand",
                "from": "deck",
                "reveal": True,
                "by_effect": frame.card,
            },
        )
    _shuffle_deck(rec, frame, p)
    return True


@op("crush")
def _crush(rec: Recorder, frame: Frame, at: Pending, _t: list[str]) -> bool:
    """Crush the top N Life Cloth of a player (the opponent by default): not damage; with none left, nothing
    happens."""
    step = at.step
    from domain.combat import crush

    p = _who(frame, {"who": step.get("who", "opponent")})
    cancel = None
    if step.get("burst_cancel"):  # you may pay this to keep the crushed card's Life Burst from activating
        cancel = {"by": frame.player, "cost": step["burst_cancel"], "by_effect": frame.card}
    crush(rec, p, int(step.get("n", 1)), "effect", frame.rule, caused_by=None, cancel=cancel)
    return True


@op("negate_attack")
def _negate_attack(rec: Recorder, frame: Frame, at: Pending, _t: list[str]) -> bool:
    """The attack under way ends at once: no battle, no damage (its own on-attack abilities have resolved
    or still resolve; only the attack is stopped)."""
    a = rec.state.attack
    if a is not None and not a.get("resolved"):
        rec.emit(
            "AttackEnded",
            "rules",
            "effect.negate-attack",
            {"result": "negated", "zone": a["zone"], "card": a["card"], "by_effect": frame.card},
        )
    return True


@op("to_hand_or_field")
def _to_hand_or_field(rec: Recorder, frame: Frame, at: Pending, chosen: list[str]) -> bool:
    """Add the target to your hand or put it onto your field, as you choose (onto the field only where it may
    go: level, limit, Rise; where it may not, it goes to the hand)."""
    step = at.step
    p = frame.player
    live = _live(rec, frame, step, chosen)
    if not live:
        return True
    iid = live[0]
    zones = legal_zones(rec.state, p, iid)
    answer = taken(at)
    if answer is not None and answer.get("zone"):
        _put(rec, frame, iid, answer["zone"], False)
        return True
    if not zones or (answer is not None and answer.get("option") == "hand"):
        _move(rec, frame, p, [iid], "hand")
        return True
    if answer is None:
        return _ask_hand_or_field(rec, frame, at, p)
    if len(zones) == 1:
        _put(rec, frame, iid, zones[0], False)
        return True
    return ask_in_step(
        rec,
        frame,
        at,
        p,
        min=1,
        max=1,
        choices=[],
        zones=zones,
        prompt="choose the SIGNI zone to put it in",
    )


@op("move_to_attacker_front")
def _move_to_attacker_front(rec: Recorder, frame: Frame, at: Pending, _t: list[str]) -> bool:
    """This SIGNI moves to the zone of its field in front of the attacking SIGNI, if that zone is empty."""
    from domain.state import facing

    s, iid = rec.state, frame.card
    a, owner = s.attack, s.owners[iid]
    where = s.players[owner].find(iid) or ""
    if a is None or a["zone"] == "lrig" or a["player"] == owner or not where.startswith("signi:"):
        return True
    to = facing(a["zone"])
    if s.players[owner].signi[to] is None:
        rec.emit(
            "SigniMoved",
            "rules",
            frame.rule,
            {"player": owner, "card": iid, "from": where.split(":")[1], "to": to, "by_effect": frame.card},
        )
    return True


@op("swap_with_ener")
def _swap_with_ener(rec: Recorder, frame: Frame, at: Pending, chosen: list[str]) -> bool:
    """This SIGNI and the target SIGNI of your ener zone change places: it goes into the ener zone, and the
    target onto the field in the zone it left (if it may be there: level, limit), its [Enter] abilities
    triggering."""
    step = at.step
    s, iid, p = rec.state, frame.card, frame.player
    live = _live(rec, frame, step, chosen)
    where = s.players[p].find(iid) or ""
    if not live or not where.startswith("signi:"):
        return True
    zone = where.split(":")[1]
    _move(rec, frame, p, [iid], "ener")
    if zone in legal_zones(rec.state, p, live[0]):
        _put(rec, frame, live[0], zone, False)
    return True


@op("set_base")
def _set_base(rec: Recorder, frame: Frame, at: Pending, chosen: list[str]) -> bool:
    """The targets' base level and base power become the given numbers until end of turn (``until:
    opponent_next_turn``: in your turn, and again through the opponent's next turn while it stays)."""
    step = at.step
    s = rec.state
    lasting = step.get("until") == "opponent_next_turn" and s.turn_player == frame.player
    level, power = int(step["level"]), int(step["power"])
    for iid in _live(rec, frame, step, chosen):
        data = {"card": iid, "level": level, "power": power, "by_effect": frame.card}
        rec.emit("BaseChanged", "rules", frame.rule, data)
        if lasting:
            _again_next_turn(
                rec, frame, {"op": "set_base", "level": level, "power": power, "target": {"cards": [iid]}}
            )
    return True


@op("return_lrig")
def _return_lrig(rec: Recorder, frame: Frame, at: Pending, chosen: list[str]) -> bool:
    """The target LRIGs return to their owner's LRIG deck; the cards under each stay on the field, the one
    just under it now the LRIG there (in the same state)."""
    step = at.step
    s = rec.state
    for iid in _live(rec, frame, step, chosen):
        owner = s.owners[iid]
        pos = next(k for k, sl in s.players[owner].lrig.items() if sl is not None and sl.iid == iid)
        rec.emit(
            "LrigReturned",
            "rules",
            frame.rule,
            {"player": owner, "card": iid, "position": pos, "to": "lrig_deck", "by_effect": frame.card},
        )
    return True


@op("life_to_trash")
def _life_to_trash(rec: Recorder, frame: Frame, at: Pending, _t: list[str]) -> bool:
    """Put the top N cards of your Life Cloth into your trash (fewer when fewer are left); the cards moved are
    noted (``moved``)."""
    step = at.step
    p = frame.player
    cards = list(rec.state.players[p].zones["life_cloth"][: int(step.get("n", 1))])
    frame.notes["moved"] = cards
    if cards:
        rec.emit(
            "CardsMoved",
            "rules",
            frame.rule,
            {"player": p, "cards": cards, "to": "trash", "from": "life_cloth", "by_effect": frame.card},
        )
    return True


@op("modes")
def _modes(rec: Recorder, frame: Frame, at: Pending, _t: list[str]) -> bool:
    """Choose modes (each at most once), resolved in printed order; with ``repeat``, choose one mode at a time
    as many times as the count says, the same one again if you like, each resolved before the next choice."""
    step = at.step
    choose = step.get("choose", 1)
    if choose == "opponent_center_level":
        k = facts.center_level(rec.state, opponent(frame.player))
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
    if chosen is None and at.progress.answer is not None:
        chosen = [int(x) for x in take(at)["option"].split(",")]
    if chosen is None and k == 0:
        chosen = []
    if chosen is None:
        return ask_in_step(
            rec,
            frame,
            at,
            frame.player,
            min=k,
            max=k,
            choices=[],
            options=numbers,
            prompt=f"choose {k} mode(s)",
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
    """A player (you, or with ``who: opponent`` the opponent) may do what follows, or not."""
    step = at.step
    p = _who(frame, step)
    if at.progress.answer is None:
        return ask_in_step(
            rec,
            frame,
            at,
            p,
            min=0,
            max=0,
            choices=[],
            options=["yes", "no"],
            prompt="do this? " + "; ".join(step_text(x) for x in step.get("then", [])),
        )
    answer = take(at)
    frame.queue.pop(0)
    if answer.get("option") == "yes":
        frame.insert(step.get("then", []))
    return True


@op("attack_limit")
def _attack_limit(rec: Recorder, frame: Frame, at: Pending, _t: list[str]) -> bool:
    """How many times this LRIG may attack this turn changes by ``amount`` (see the constant
    ``lrig_attacks``)."""
    step = at.step
    data = {"player": frame.player, "card": frame.card, "amount": int(step.get("amount", -1))}
    rec.emit("AttackLimitChanged", "rules", "effect.attack-count", {**data, "by_effect": frame.card})
    return True


@op("prevent_damage")
def _prevent_damage(rec: Recorder, frame: Frame, at: Pending, _t: list[str]) -> bool:
    """This turn, the next ``times`` times you would take damage, you take none instead; each time, the steps
    in ``then`` happen too (they may only give this card an ability: nothing is asked in the middle of
    damage)."""
    step = at.step
    rec.emit(
        "PreventionSet",
        "rules",
        "effect.prevent-damage",
        {
            "player": frame.player,
            "card": frame.card,
            "ability": frame.ability,
            "times": int(step.get("times", 1)),
            "effect": fresh(step.get("then", [])),
            "by_effect": frame.card,
        },
    )
    return True


@op("then")
def _then(rec: Recorder, frame: Frame, at: Pending, _t: list[str]) -> bool:
    frame.queue.pop(0)  # the targets of what follows are chosen only when it is reached
    return True


@op("if")
def _if(rec: Recorder, frame: Frame, at: Pending, _t: list[str]) -> bool:
    step = at.step
    frame.queue.pop(0)
    ok = tg.holds(rec.state, frame.player, frame.card, step["condition"], frame.notes)
    frame.insert(step.get("then" if ok else "else", []))
    return True


def cost_steps(
    s: GameState, player: str, card: str, payer: str, cost: dict[str, Any], as_cost: bool = False
) -> list[dict[str, Any]] | None:
    """The steps that pay a cost other than ener and downing the card itself (discards, downing LRIGs, putting
    ener cards into the trash), each followed by a ``then``; None when ``payer`` cannot pay all of it.
    ``as_cost``: an ability's printed cost (not an effect's "you may ... if you do"): its discards say so."""
    rel = "you" if payer == player else "opponent"
    steps: list[dict[str, Any]] = []
    discard = cost.get("discard")
    # a list: parts of different kinds ("two cards and a SIGNI with Guard"), the ones with a filter paid first
    parts = sorted(discard, key=lambda x: not x.get("filter")) if isinstance(discard, list) else [discard]
    left = list(s.players[payer].zones["hand"])
    for d in parts if discard else []:
        d = d if isinstance(d, dict) else {"n": d}
        f = d.get("filter", {})
        have = [i for i in left if tg._card_fits(facts.card_of(s, i), f)]
        if len(have) < int(d.get("n", 1)) and not d.get("up_to") and not d.get("all"):
            return None
        left = [i for i in left if i not in have[: int(d.get("n", 1))]]
        steps.append(
            {
                "op": "discard",
                "n": int(d.get("n", 1)),
                "who": rel,
                **({"filter": f} if f else {}),
                **({"up_to": True} if d.get("up_to") else {}),
                **({"all": True} if d.get("all") else {}),
                **({"_cost": True} if as_cost else {}),
            }
        )
    if cost.get("coins"):
        if s.players[payer].coins < int(cost["coins"]):
            return None
        steps.append({"op": "pay_coins", "n": int(cost["coins"]), "who": rel})
    if cost.get("exceed"):
        if len(_under_lrigs(s, payer)) < int(cost["exceed"]):
            return None
        steps.append({"op": "exceed", "n": int(cost["exceed"]), "who": rel})
    for key, op_name, zone, extra in (
        ("down_lrig", "down", "lrig", {"upped": True}),
        ("down_signi", "down", "signi", {"upped": True}),
        ("trash_ener", "trash", "ener", {}),
    ):
        if key not in cost:
            continue
        c = cost[key]
        spec = {
            "side": rel,
            "zone": zone,
            "count": int(c.get("n", 1)),
            "filter": {**c.get("filter", {}), **extra},
        }
        if c.get("distinct"):
            spec["distinct"] = c["distinct"]
        found = tg.candidates(s, player, card, spec)
        if len(found) < spec["count"]:
            return None
        if c.get("distinct") and not any(
            tg.distinct_classes([facts.card_of(s, i) for i in combo])
            for combo in combinations(found, spec["count"])
        ):
            return None
        steps.append({"op": op_name, "target": spec})
    return [x for st in steps for x in (st, {"op": "then"})]


@op("may_pay")
def _may_pay(rec: Recorder, frame: Frame, at: Pending, _t: list[str]) -> bool:
    """You may pay a cost; if you do, what follows (``then``) happens, if you do not, ``else`` does. An empty
    cost is a plain "you may": paying it is doing what follows."""
    step = at.step
    s, p = rec.state, frame.player
    cost = step["cost"]
    payment = ener_payment(s, p, cost)
    paying = cost_steps(s, p, frame.card, p, cost, as_cost=bool(step.get("_cost")))
    if payment is None or paying is None:
        frame.queue.pop(0)  # a cost that cannot be paid is not paid: what follows does not happen
        frame.insert(step.get("else", []))
        return True
    if at.progress.answer is None:
        then = "; ".join(step_text(x) for x in step.get("then", []))
        return ask_in_step(
            rec,
            frame,
            at,
            p,
            min=0,
            max=0,
            choices=[],
            options=["pay", "decline"],
            prompt=f"pay {describe_cost(cost)}?" if cost else f"do this: {then}?",
            rule="cost.ener",
        )
    answer = take(at)
    choosing = answer.get("option") == "pay" or at.progress.picked is not None
    if step.get("choose_payment") and cost.get("ener") and choosing:
        at.progress.picked = [*(at.progress.picked or []), *(answer.get("cards") or [])]
        picked = _pick_payment(rec, frame, at, cost)
        if picked is None:
            return False  # it asked for the next ener card
        payment, answer = picked, {"option": "pay"}
    frame.queue.pop(0)
    if answer.get("option") == "pay":
        if cost:
            rec.emit("CostPaid", p, "cost.ener", {"player": p, "ener": payment, "for": frame.card})
        frame.notes["paid"] = list(payment)  # the ener cards paid, for a condition about them
        frame.insert(paying + step.get("then", []))
    else:
        frame.insert(step.get("else", []))
    return True


def _pick_payment(rec: Recorder, frame: Frame, at: Pending, cost: dict[str, Any]) -> list[str] | None:
    """The player chooses the ener cards that pay (when what follows looks at them), one at a time among
    those that can still complete a payment; with only one payment left, it is taken. None: it asked."""
    from domain.cards import CostItem

    s, p = rec.state, frame.player
    items = tuple(CostItem(c["color"], int(c["n"])) for c in cost.get("ener", []))
    total = sum(i.n for i in items)
    picked: list[str] = at.progress.picked or []

    def payments(rest: list[str], need: int) -> list[tuple[str, ...]]:
        return [
            combo
            for combo in combinations(rest, need)
            if costs.can_pay_with(items, [facts.card_of(s, i) for i in [*picked, *combo]])
        ]

    rest = [e for e in s.players[p].zones["ener"] if e not in picked]
    full = payments(rest, total - len(picked))
    kinds = {tuple(sorted(s.cards[i] for i in combo)) for combo in full}
    if len(full) == 1 or len(kinds) == 1:  # one payment left (or only copies of the same cards): taken
        return [*picked, *full[0]] if full else list(picked)
    options = [e for e in rest if any(e in combo for combo in full)]
    ask_in_step(
        rec,
        frame,
        at,
        p,
        min=1,
        max=1,
        choices=options,
        prompt=f"choose the next ener card to pay {describe_cost(cost)} with ({total - len(picked)} to go)",
    )
    return None


def reads_payment(steps: list[dict[str, Any]]) -> bool:
    """Whether steps look at the ener cards their cost was paid with (then the player chooses them)."""
    import json

    return '"paid_colors"' in json.dumps(steps)


@op("unless")
def _unless(rec: Recorder, frame: Frame, at: Pending, _t: list[str]) -> bool:
    """What follows happens unless the opponent pays a cost (which they may always decline)."""
    step = at.step
    s = rec.state
    payer = opponent(frame.player)
    paying = cost_steps(s, frame.player, frame.card, payer, step["cost"])
    if paying is not None and at.progress.answer is None:
        return ask_in_step(
            rec,
            frame,
            at,
            payer,
            min=0,
            max=0,
            choices=[],
            options=["pay", "decline"],
            prompt=f"pay {describe_cost(step['cost'])} to stop: "
            + "; ".join(step_text(x) for x in step.get("then", [])),
        )
    answer = taken(at) or Answer(cards=[])
    frame.queue.pop(0)
    if paying is not None and answer.get("option") == "pay":
        frame.insert(paying)
    else:
        frame.insert(step.get("then", []))
    return True


@op("delay")
def _delay(rec: Recorder, frame: Frame, at: Pending, _t: list[str]) -> bool:
    """What follows waits for a later moment (``attack_end``: the end of the attack under way)."""
    step = at.step
    s = rec.state
    frame.queue.pop(0)
    rec.emit(
        "EffectDelayed",
        "rules",
        "effect.delayed",
        {
            "player": frame.player,
            "card": frame.card,
            "ability": frame.ability,
            "until": step.get("until", "attack_end"),
            "attack": (s.attack or {}).get("card"),
            "turn": s.turn,
            "effect": fresh(step.get("then", [])),
        },
    )
    return True


def ener_payment(s: GameState, p: str, cost: dict[str, Any]) -> list[str] | None:
    from domain.cards import CostItem

    items = tuple(CostItem(c["color"], int(c["n"])) for c in cost.get("ener", []))
    ener = [(e, facts.card_of(s, e)) for e in s.players[p].zones["ener"]]
    return costs.choose_payment(items, ener)


def describe_cost(cost: dict[str, Any]) -> str:
    from domain.abilities.catalogue import _cost_text

    return _cost_text(cost)


# -- description and validation: the registry's (``vocabulary``, filled by ``words``) ----------------


def __getattr__(name: str) -> Any:
    if name == "TARGETED":  # the step names that need a target, as the registry says
        return tuple(n for n in OPS if targets(n))
    raise AttributeError(name)
