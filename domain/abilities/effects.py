"""The interpreter of effects: steps run in printed order, asking for targets and choices as decisions.

An effect in progress is a *frame*: the card and player it belongs to, the steps still to do (``queue``) and
the current segment (the steps up to the next ``then``, whose targets are all chosen before any of them
resolves). When a choice is needed the frame travels in the ``Asked`` event (``resume``), so the effect can go
on from exactly there when the answer comes; the state between two events is always serialisable. Nothing else
happens in the middle of an effect: rule processing and triggered abilities wait until it has finished.

Steps (``op``): draw, ener_charge, discard, mill, vanish, down, up, freeze, bounce, trash, to_hand, to_field,
power, grant, look_top, reveal_top, shuffle, modes, if, may_pay, then.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from domain import costs, facts
from domain.abilities import targets as tg
from domain.engine import Recorder
from domain.state import SIGNI_ZONES, GameState, opponent

Frame = dict[str, Any]
Op = Callable[[Recorder, Frame, dict[str, Any], list[str]], bool]  # False: it asked, the frame waits
OPS: dict[str, Op] = {}
TARGETED = ("vanish", "down", "up", "freeze", "bounce", "trash", "to_hand", "to_field", "power", "grant")
CONTROL = ("modes", "if", "may_pay", "reveal_top", "then")
STEP_KEYS = {
    "draw": {"n", "who"},
    "ener_charge": {"n"},
    "discard": {"n", "who", "random"},
    "mill": {"n", "who"},
    "shuffle": {"who"},
    "look_top": {"n", "pick", "to", "rest", "no_enter", "reveal"},
    "reveal_top": {"filter", "then"},
    "modes": {"choose", "modes"},
    "if": {"condition", "then", "else"},
    "may_pay": {"cost", "then"},
    "then": set(),
    "power": {"target", "amount"},
    "grant": {"target", "keywords"},
    "to_field": {"target", "no_enter"},
}


def op(name: str) -> Callable[[Op], Op]:
    def register(fn: Op) -> Op:
        OPS[name] = fn
        return fn

    return register


def start(
    rec: Recorder,
    card: str,
    player: str,
    index: int,
    ability: dict[str, Any],
    rule: str,
    modes: list[int] | None = None,
) -> None:
    """Begin resolving an ability's effect."""
    frame: Frame = {
        "card": card,
        "player": player,
        "ability": index,
        "rule": rule,
        "queue": copy.deepcopy(ability.get("effect", [])),
        "segment": None,
        "vars": {},
    }
    if modes is not None:
        frame["vars"]["modes"] = list(modes)
    run(rec, frame)


def run(rec: Recorder, frame: Frame) -> None:
    """Go on with a frame until it needs a decision (it asks, and returns) or it is done."""
    while True:
        if rec.state.status == "finished":
            return
        seg = frame.get("segment")
        if seg is not None:
            if not _choose_targets(rec, frame, seg):
                return
            while seg["steps"]:
                step = seg["steps"][0]
                done = OPS[step["op"]](rec, frame, step, step.get("_targets", []))
                if not done:
                    return
                seg["steps"].pop(0)
            frame["segment"] = None
            continue
        queue = frame["queue"]
        if not queue:
            data: dict[str, Any] = {
                "card": frame["card"],
                "player": frame["player"],
                "ability": frame["ability"],
            }
            where = rec.state.where(frame["card"])
            if frame["rule"] in ("spell.use", "piece.use") and where is not None and where[1] == "check":
                data["put"] = "excluded" if frame["rule"] == "piece.use" else "trash"
            rec.emit("AbilityResolved", "rules", frame["rule"], data)
            return
        step = queue[0]
        if step["op"] == "then":
            queue.pop(0)
            continue
        if step["op"] in CONTROL:
            if not OPS[step["op"]](rec, frame, step, []):
                return
            continue
        steps = []
        while queue and queue[0]["op"] not in CONTROL:
            steps.append(queue.pop(0))
        frame["segment"] = {"steps": steps}


def _choose_targets(rec: Recorder, frame: Frame, seg: dict[str, Any]) -> bool:
    """Choose every target of a segment before any of its steps resolves. False: a choice was asked."""
    s = rec.state
    for step in seg["steps"]:
        spec = step.get("target")
        if spec is None or "_targets" in step:
            continue
        found = tg.candidates(s, frame["player"], frame["card"], spec)
        n = int(spec.get("count", 1))
        if spec.get("self"):
            step["_targets"] = found
            continue
        if spec.get("up_to"):
            lo, hi = 0, min(n, len(found))
        elif len(found) < n:
            step["_targets"] = []  # not enough targets for "n target": none is targeted
            continue
        else:
            lo = hi = n
        if hi == 0:
            step["_targets"] = []
            continue
        if lo == hi == len(found):
            step["_targets"] = found  # the only choice there is
            continue
        step["_await"] = "targets"
        private = spec.get("zone") == "hand"
        rec.ask(
            frame["player"],
            "choose",
            "target.choose",
            purpose="target",
            min=lo,
            max=hi,
            choices=found,
            prompt=f"choose {tg.target_text(spec)} for {step_text(step)}",
            private=private,
            resume=frame,
        )
        return False
    return True


def resume(rec: Recorder, frame: Frame, answer: dict[str, Any]) -> None:
    """Continue a frame with the answer to what it asked."""
    seg = frame.get("segment")
    step = None
    if seg is not None:
        step = next((st for st in seg["steps"] if "_await" in st), None)
    if step is None:
        step = next((st for st in frame["queue"] if "_await" in st), None)
    assert step is not None, "a frame resumed without a question"
    kind = step.pop("_await")
    if kind == "targets":
        step["_targets"] = answer["cards"]
    else:
        step["_answer"] = answer
    run(rec, frame)


def ask_in_step(rec: Recorder, frame: Frame, step: dict[str, Any], player: str, **data: Any) -> bool:
    step["_await"] = "answer"
    rec.ask(player, "choose", data.pop("rule", "target.choose"), purpose="effect", resume=frame, **data)
    return False


# -- the steps ------------------------------------------------------------------------------------


def _who(frame: Frame, step: dict[str, Any]) -> str:
    return frame["player"] if step.get("who", "you") == "you" else opponent(frame["player"])


def _live(rec: Recorder, frame: Frame, step: dict[str, Any], chosen: list[str]) -> list[str]:
    """Chosen targets that still fit: a target that became illegal before resolution is not affected."""
    return [i for i in chosen if tg.still_fits(rec.state, frame["player"], frame["card"], step["target"], i)]


@op("draw")
def _draw(rec: Recorder, frame: Frame, step: dict[str, Any], _t: list[str]) -> bool:
    p = _who(frame, step)
    deck = rec.state.players[p].zones["deck"]
    cards = deck[: int(step.get("n", 1))]  # an empty deck draws nothing; refresh waits for the effect's end
    rec.emit("CardsDrawn", "rules", frame["rule"], {"player": p, "cards": cards, "by_effect": frame["card"]})
    return True


@op("ener_charge")
def _ener_charge(rec: Recorder, frame: Frame, step: dict[str, Any], _t: list[str]) -> bool:
    p = frame["player"]
    for iid in rec.state.players[p].zones["deck"][: int(step.get("n", 1))]:
        rec.emit("EnerCharged", "rules", frame["rule"], {"player": p, "card": iid, "from": "deck"})
    return True


@op("mill")
def _mill(rec: Recorder, frame: Frame, step: dict[str, Any], _t: list[str]) -> bool:
    p = _who(frame, step)
    cards = rec.state.players[p].zones["deck"][: int(step.get("n", 1))]
    rec.emit("CardsMilled", "rules", frame["rule"], {"player": p, "cards": cards})
    return True


@op("shuffle")
def _shuffle(rec: Recorder, frame: Frame, step: dict[str, Any], _t: list[str]) -> bool:
    p = _who(frame, step)
    deck = list(rec.state.players[p].zones["deck"])
    rec.random(f"effect-shuffle:{p}").shuffle(deck)
    rec.emit("DeckShuffled", "rules", frame["rule"], {"player": p, "order": deck})
    return True


@op("discard")
def _discard(rec: Recorder, frame: Frame, step: dict[str, Any], _t: list[str]) -> bool:
    p = _who(frame, step)
    hand = rec.state.players[p].zones["hand"]
    n = min(int(step.get("n", 1)), len(hand))
    if n == 0:
        return True
    if step.get("random"):
        cards = rec.random(f"discard:{p}").sample(list(hand), n)
    elif "_answer" in step:
        cards = step.pop("_answer")["cards"]
    elif n == len(hand):
        cards = list(hand)
    else:
        return ask_in_step(
            rec,
            frame,
            step,
            p,
            min=n,
            max=n,
            choices=list(hand),
            private=True,
            prompt=f"choose {n} card(s) to discard",
        )
    rec.emit(
        "CardsDiscarded", "rules", frame["rule"], {"player": p, "cards": cards, "by_effect": frame["card"]}
    )
    return True


@op("vanish")
def _vanish(rec: Recorder, frame: Frame, step: dict[str, Any], chosen: list[str]) -> bool:
    for iid in _live(rec, frame, step, chosen):
        owner = rec.state.owners[iid]
        zone = (rec.state.players[owner].find(iid) or "").split(":")[-1]
        rec.emit(
            "SigniVanished",
            "rules",
            frame["rule"],
            {"player": owner, "card": iid, "zone": zone, "cause": "effect", "by_effect": frame["card"]},
        )
    return True


def _set_flag(name: str, value: bool) -> Op:
    def run_flag(rec: Recorder, frame: Frame, step: dict[str, Any], chosen: list[str]) -> bool:
        cards = _live(rec, frame, step, chosen)
        if cards:
            rec.emit(
                "CardsSet", "rules", frame["rule"], {"cards": cards, name: value, "by_effect": frame["card"]}
            )
        return True

    return run_flag


OPS["down"] = _set_flag("downed", True)
OPS["up"] = _set_flag("downed", False)
OPS["freeze"] = _set_flag("frozen", True)


@op("bounce")
def _bounce(rec: Recorder, frame: Frame, step: dict[str, Any], chosen: list[str]) -> bool:
    for iid in _live(rec, frame, step, chosen):
        rec.emit(
            "CardsMoved",
            "rules",
            frame["rule"],
            {"player": rec.state.owners[iid], "cards": [iid], "to": "hand", "by_effect": frame["card"]},
        )
    return True


@op("trash")
def _trash(rec: Recorder, frame: Frame, step: dict[str, Any], chosen: list[str]) -> bool:
    for iid in _live(rec, frame, step, chosen):
        rec.emit(
            "CardsMoved",
            "rules",
            frame["rule"],
            {"player": rec.state.owners[iid], "cards": [iid], "to": "trash", "by_effect": frame["card"]},
        )
    return True


@op("to_hand")
def _to_hand(rec: Recorder, frame: Frame, step: dict[str, Any], chosen: list[str]) -> bool:
    cards = _live(rec, frame, step, chosen)
    if cards:
        rec.emit(
            "CardsMoved",
            "rules",
            frame["rule"],
            {"player": frame["player"], "cards": cards, "to": "hand", "by_effect": frame["card"]},
        )
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


@op("to_field")
def _to_field(rec: Recorder, frame: Frame, step: dict[str, Any], chosen: list[str]) -> bool:
    p = frame["player"]
    live = _live(rec, frame, step, chosen)
    if not live:
        return True
    iid = live[0]
    zones = legal_zones(rec.state, p, iid)
    if not zones:  # a SIGNI that would exceed the level or limit never enters the field
        return True
    if "_answer" in step:
        zone = step.pop("_answer").get("zone")
    elif len(zones) == 1:
        zone = zones[0]
    else:
        return ask_in_step(
            rec,
            frame,
            step,
            p,
            min=1,
            max=1,
            choices=[],
            zones=zones,
            prompt="choose the SIGNI zone to put it in",
        )
    rec.emit(
        "SigniPutOntoField",
        "rules",
        frame["rule"],
        {
            "player": p,
            "card": iid,
            "zone": zone,
            "by_effect": frame["card"],
            "no_enter": bool(step.get("no_enter")),
        },
    )
    return True


@op("power")
def _power(rec: Recorder, frame: Frame, step: dict[str, Any], chosen: list[str]) -> bool:
    for iid in _live(rec, frame, step, chosen):
        rec.emit(
            "PowerChanged",
            "rules",
            frame["rule"],
            {"card": iid, "amount": int(step["amount"]), "until": "end_of_turn", "by_effect": frame["card"]},
        )
    return True


@op("grant")
def _grant(rec: Recorder, frame: Frame, step: dict[str, Any], chosen: list[str]) -> bool:
    for iid in _live(rec, frame, step, chosen):
        rec.emit(
            "KeywordsGranted",
            "rules",
            frame["rule"],
            {
                "card": iid,
                "keywords": list(step["keywords"]),
                "until": "end_of_turn",
                "by_effect": frame["card"],
            },
        )
    return True


@op("look_top")
def _look_top(rec: Recorder, frame: Frame, step: dict[str, Any], _t: list[str]) -> bool:
    """Look at the top N cards of your deck, take up to some that fit into the hand (or onto the field), and
    put the rest on the bottom of the deck in a random order (or into the trash)."""
    s, p = rec.state, frame["player"]
    top = list(s.players[p].zones["deck"][: int(step["n"])])
    pick = step.get("pick", {})
    fits = [i for i in top if tg._card_fits(facts.card_of(s, i), pick.get("filter", {}))]
    hi = min(int(pick.get("count", 1)), len(fits))
    if "_answer" in step:
        taken = step.pop("_answer")["cards"]
    elif hi == 0:
        taken = []
    else:
        return ask_in_step(
            rec,
            frame,
            step,
            p,
            min=0 if pick.get("up_to", True) else hi,
            max=hi,
            choices=fits,
            private=True,
            looked=top,
            prompt=f"choose up to {hi} card(s) from the top {len(top)}",
        )
    rest = [i for i in top if i not in taken]
    to = step.get("to", "hand")
    if taken and to == "hand":
        reveal = bool(step.get("reveal", False))
        rec.emit(
            "CardsMoved",
            "rules",
            frame["rule"],
            {"player": p, "cards": taken, "to": "hand", "reveal": reveal, "from_hidden": not reveal},
        )
    elif taken and to == "field":
        for iid in taken:
            zones = legal_zones(rec.state, p, iid)
            if zones:
                rec.emit(
                    "SigniPutOntoField",
                    "rules",
                    frame["rule"],
                    {
                        "player": p,
                        "card": iid,
                        "zone": zones[0],
                        "by_effect": frame["card"],
                        "no_enter": bool(step.get("no_enter")),
                    },
                )
            else:
                rest.append(iid)
    if rest:
        if step.get("rest", "bottom") == "trash":
            rec.emit("CardsMilled", "rules", frame["rule"], {"player": p, "cards": rest})
        else:
            rec.random(f"bottom:{p}").shuffle(rest)
            rec.emit("CardsToDeckBottom", "rules", frame["rule"], {"player": p, "cards": rest})
    return True


@op("reveal_top")
def _reveal_top(rec: Recorder, frame: Frame, step: dict[str, Any], _t: list[str]) -> bool:
    p = frame["player"]
    frame["queue"].pop(0)
    deck = rec.state.players[p].zones["deck"]
    if not deck:
        return True
    iid = deck[0]
    rec.emit(
        "CardRevealed", "rules", frame["rule"], {"player": p, "card": iid, "card_id": rec.state.cards[iid]}
    )
    if tg._card_fits(facts.card_of(rec.state, iid), step.get("filter", {})):
        frame["queue"][0:0] = copy.deepcopy(step.get("then", []))
    return True


@op("modes")
def _modes(rec: Recorder, frame: Frame, step: dict[str, Any], _t: list[str]) -> bool:
    """Choose modes (each at most once), resolved in printed order."""
    k = int(step.get("choose", 1))
    chosen = frame["vars"].pop("modes", None)
    if chosen is None and "_answer" in step:
        chosen = [int(x) for x in step.pop("_answer")["option"].split(",")]
    if chosen is None:
        options = [str(i + 1) for i in range(len(step["modes"]))]
        return ask_in_step(
            rec,
            frame,
            step,
            frame["player"],
            min=k,
            max=k,
            choices=[],
            options=options,
            prompt=f"choose {k} mode(s)",
            rule="mode.choose",
        )
    frame["queue"].pop(0)
    steps: list[dict[str, Any]] = []
    for m in sorted(set(chosen)):
        steps.extend(copy.deepcopy(step["modes"][m - 1]))
        steps.append({"op": "then"})
    frame["queue"][0:0] = steps
    return True


@op("if")
def _if(rec: Recorder, frame: Frame, step: dict[str, Any], _t: list[str]) -> bool:
    frame["queue"].pop(0)
    ok = tg.holds(rec.state, frame["player"], frame["card"], step["condition"])
    frame["queue"][0:0] = copy.deepcopy(step.get("then" if ok else "else", []))
    return True


@op("may_pay")
def _may_pay(rec: Recorder, frame: Frame, step: dict[str, Any], _t: list[str]) -> bool:
    """You may pay a cost; if you do, what follows happens."""
    s, p = rec.state, frame["player"]
    cost = step["cost"]
    payment = ener_payment(s, p, cost)
    discard = int(cost.get("discard", 0))
    if payment is None or len(s.players[p].zones["hand"]) < discard:
        frame["queue"].pop(0)  # a cost that cannot be paid is not paid: what follows does not happen
        return True
    if "_answer" not in step:
        return ask_in_step(
            rec,
            frame,
            step,
            p,
            min=0,
            max=0,
            choices=[],
            options=["pay", "decline"],
            prompt=f"pay {describe_cost(cost)}?",
            rule="cost.ener",
        )
    answer = step.pop("_answer")
    frame["queue"].pop(0)
    if answer.get("option") == "pay":
        rec.emit("CostPaid", p, "cost.ener", {"player": p, "ener": payment, "for": frame["card"]})
        paid_by_discard = [{"op": "discard", "n": discard, "who": "you"}, {"op": "then"}] if discard else []
        frame["queue"][0:0] = paid_by_discard + copy.deepcopy(step.get("then", []))
    return True


def ener_payment(s: GameState, p: str, cost: dict[str, Any]) -> list[str] | None:
    from domain.cards import CostItem

    items = tuple(CostItem(c["color"], int(c["n"])) for c in cost.get("ener", []))
    ener = [(e, facts.card_of(s, e)) for e in s.players[p].zones["ener"]]
    return costs.choose_payment(items, ener)


def describe_cost(cost: dict[str, Any]) -> str:
    from domain.abilities.catalogue import _cost_text

    return _cost_text(cost)


# -- description and validation -------------------------------------------------------------------


def step_text(step: dict[str, Any]) -> str:
    o = step["op"]
    t = tg.target_text(step["target"]) if "target" in step else ""
    who = "the opponent" if step.get("who") == "opponent" else "you"
    n = step.get("n", 1)
    texts = {
        "draw": f"{who} draw {n}",
        "ener_charge": f"ener charge {n}",
        "discard": f"{who} discard {n}" + (" at random" if step.get("random") else ""),
        "mill": f"put the top {n} of {'your' if who == 'you' else 'their'} deck into the trash",
        "shuffle": "shuffle the deck",
        "vanish": f"vanish {t}",
        "down": f"down {t}",
        "up": f"up {t}",
        "freeze": f"freeze {t}",
        "bounce": f"return {t} to its owner's hand",
        "trash": f"put {t} into the trash",
        "to_hand": f"add {t} to your hand",
        "to_field": f"put {t} onto your field",
        "power": f"{t} gets {step.get('amount', 0):+d} power until end of turn",
        "grant": f"{t} gains {', '.join(step.get('keywords', []))} until end of turn",
        "then": "then",
    }
    if o in texts:
        return texts[o]
    if o == "look_top":
        pick = step.get("pick", {})
        return (
            f"look at the top {step['n']}, take up to {pick.get('count', 1)} "
            f"{tg.filter_text(pick.get('filter', {}))} to your {step.get('to', 'hand')}, the rest to the "
            f"{'trash' if step.get('rest') == 'trash' else 'bottom of the deck'}"
        )
    if o == "reveal_top":
        inner = "; ".join(step_text(x) for x in step.get("then", []))
        return f"reveal the top card; if it is {tg.filter_text(step.get('filter', {}))}: {inner}"
    if o == "modes":
        modes = " / ".join("; ".join(step_text(x) for x in m) for m in step["modes"])
        return f"choose {step.get('choose', 1)}: {modes}"
    if o == "if":
        then = "; ".join(step_text(x) for x in step.get("then", []))
        other = "; ".join(step_text(x) for x in step.get("else", []))
        return f"if {tg.condition_text(step['condition'])}: {then}" + (
            f", otherwise {other}" if other else ""
        )
    if o == "may_pay":
        then = "; ".join(step_text(x) for x in step.get("then", []))
        return f"you may pay {describe_cost(step['cost'])} to {then}"
    return o


def step_problems(step: dict[str, Any]) -> list[str]:
    o = step.get("op")
    if o not in OPS:
        return [f"unknown step {o!r}"]
    out = []
    allowed = STEP_KEYS.get(o, {"target"} if o in TARGETED else {"n", "who"}) | {"op", "target"}
    extra = set(step) - allowed
    if extra:
        out.append(f"step {o}: unknown field(s) {sorted(extra)}")
    if o in TARGETED and "target" not in step:
        out.append(f"step {o} needs a target")
    if "target" in step:
        spec = step["target"]
        if spec.get("zone", "signi") not in tg.ZONES:
            out.append(f"step {o}: unknown zone {spec.get('zone')!r}")
        bad = set(spec.get("filter", {})) - set(tg.FILTER_KEYS)
        if bad:
            out.append(f"step {o}: unknown filter key(s) {sorted(bad)}")
    for key in ("then", "else"):
        for sub in step.get(key, []) if isinstance(step.get(key), list) else []:
            out.extend(step_problems(sub))
    for mode in step.get("modes", []):
        for sub in mode:
            out.extend(step_problems(sub))
    if o == "if":
        out.extend(tg.condition_problems(step.get("condition", {})))
    return out
