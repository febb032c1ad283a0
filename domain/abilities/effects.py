"""The interpreter of effects: steps run in printed order, asking for targets and choices as decisions.

An effect in progress is a *frame*: the card and player it belongs to, the steps still to do (``queue``) and
the current segment (the steps up to the next ``then``, whose targets are all chosen before any of them
resolves). When a choice is needed the frame travels in the ``Asked`` event (``resume``), so the effect can go
on from exactly there when the answer comes; the state between two events is always serialisable. Nothing else
happens in the middle of an effect: rule processing and triggered abilities wait until it has finished.

A frame keeps notes (``vars``) that later steps may look at: the cards the last move put somewhere
(``moved``), cards the player looked at and sees in the next question (``looked``), and, for an effect that
waited for the end of an attack, whether that attack dealt damage (``attack_damaged``).

Steps (``op``): draw, ener_charge, discard, mill, vanish, down, up, freeze, bounce, trash, to_hand, to_field,
to_deck, power, grant, grant_ability, lose_abilities, look, look_top, reveal_top, shuffle, life_add,
life_to_deck, gather_under, damage, modes, if, may_pay, unless, delay, then.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from itertools import combinations, islice
from typing import Any

from domain import costs, facts
from domain.abilities import targets as tg
from domain.engine import Recorder
from domain.state import SIGNI_ZONES, GameState, opponent

Frame = dict[str, Any]
Op = Callable[[Recorder, Frame, dict[str, Any], list[str]], bool]  # False: it asked, the frame waits
OPS: dict[str, Op] = {}
TARGETED = (
    "vanish",
    "down",
    "up",
    "freeze",
    "bounce",
    "trash",
    "to_hand",
    "to_field",
    "to_deck",
    "power",
    "grant",
    "grant_ability",
    "lose_abilities",
)
CONTROL = ("modes", "if", "may_pay", "unless", "delay", "reveal_top", "then")
STEP_KEYS = {
    "draw": {"n", "who"},
    "ener_charge": {"n"},
    "discard": {"n", "who", "random", "filter"},
    "mill": {"n", "who"},
    "shuffle": {"who"},
    "look": {"zone", "n"},
    "look_top": {"n", "pick", "picks", "to", "rest", "no_enter", "reveal"},
    "reveal_top": {"filter", "then"},
    "life_add": {"n"},
    "life_to_deck": {"n"},
    "gather_under": set(),
    "damage": {"who"},
    "modes": {"choose", "modes", "repeat"},
    "if": {"condition", "then", "else"},
    "may_pay": {"cost", "then"},
    "unless": {"cost", "then"},
    "delay": {"until", "then"},
    "then": set(),
    "power": {"target", "amount", "until"},
    "grant": {"target", "keywords"},
    "grant_ability": {"target", "ability"},
    "to_field": {"target", "no_enter"},
}
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
    frame: Frame = {
        "card": card,
        "player": player,
        "ability": index,
        "rule": rule,
        "queue": copy.deepcopy(ability.get("effect", [])),
        "segment": None,
        "vars": dict(vars or {}),
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
    before: list[str] = []
    for step in seg["steps"]:
        spec = step.get("target")
        if spec is None:
            continue
        if "_targets" in step:
            before = step["_targets"]
            continue
        if spec.get("it"):
            step["_targets"] = list(before)  # "... and freeze it": what the step before targeted
            continue
        found = tg.candidates(s, frame["player"], frame["card"], spec)
        if spec.get("self") or spec.get("all") or "cards" in spec:
            step["_targets"] = found
            before = found
            continue
        if spec.get("distinct"):
            if not _distinct_targets(rec, frame, step, spec, found):
                return False
            before = step["_targets"]
            continue
        n = int(spec.get("count", 1))
        if spec.get("up_to"):
            lo, hi = 0, min(n, len(found))
        elif len(found) < n:
            step["_targets"] = before = []  # not enough targets for "n target": none is targeted
            continue
        else:
            lo = hi = n
        if hi == 0:
            step["_targets"] = before = []
            continue
        if lo == hi == len(found):
            step["_targets"] = before = found  # the only choice there is
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


def _distinct_targets(
    rec: Recorder, frame: Frame, step: dict[str, Any], spec: dict[str, Any], found: list[str]
) -> bool:
    """Targets of pairwise different classes, chosen one at a time among those that can still make a full
    set ("up to" may stop early). False: a choice was asked."""
    s = rec.state
    n = min(int(spec.get("count", 1)), len(found))
    picked: list[str] = step.setdefault("_picked", [])

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
                step.pop("_picked")
                step["_targets"] = sets[0] if sets else []
                return True
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
        step["_await"] = "one_target"
        rec.ask(
            frame["player"],
            "choose",
            "target.choose",
            purpose="target",
            min=0 if spec.get("up_to") else 1,
            max=1,
            choices=options,
            prompt=f"choose the next of {tg.target_text(spec)} for {step_text(step)}",
            private=spec.get("zone") == "hand",
            resume=frame,
        )
        return False
    step["_targets"] = step.pop("_picked")
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
    elif kind == "one_target":
        if answer["cards"]:
            step["_picked"].append(answer["cards"][0])
        else:  # "up to": the player stops choosing
            step["_targets"] = step.pop("_picked")
    else:
        step["_answer"] = answer
    run(rec, frame)


def ask_in_step(rec: Recorder, frame: Frame, step: dict[str, Any], player: str, **data: Any) -> bool:
    step["_await"] = "answer"
    looked = frame["vars"].pop("looked", None)
    if looked is not None and player == frame["player"]:
        data["looked"] = looked  # what the player just looked at, shown with the question, to them only
        data["private"] = True
    rec.ask(player, "choose", data.pop("rule", "target.choose"), purpose="effect", resume=frame, **data)
    return False


def _who(frame: Frame, step: dict[str, Any]) -> str:
    return frame["player"] if step.get("who", "you") == "you" else opponent(frame["player"])


def _live(rec: Recorder, frame: Frame, step: dict[str, Any], chosen: list[str]) -> list[str]:
    """Chosen targets that still fit: a target that became illegal before resolution is not affected."""
    spec = step["target"]
    if spec.get("it"):
        return [i for i in chosen if tg._on_field(rec.state, i)]
    return [i for i in chosen if tg.still_fits(rec.state, frame["player"], frame["card"], spec, i)]


def _zone_of(s: GameState, iid: str) -> str:
    where = s.where(iid)
    return "" if where is None else where[1].split(":")[0]


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
    cards = list(rec.state.players[p].zones["deck"][: int(step.get("n", 1))])
    for iid in cards:
        rec.emit("EnerCharged", "rules", frame["rule"], {"player": p, "card": iid, "from": "deck"})
    frame["vars"]["moved"] = cards
    return True


@op("mill")
def _mill(rec: Recorder, frame: Frame, step: dict[str, Any], _t: list[str]) -> bool:
    p = _who(frame, step)
    cards = rec.state.players[p].zones["deck"][: int(step.get("n", 1))]
    _milled(rec, frame, p, cards)
    return True


def _milled(rec: Recorder, frame: Frame, p: str, cards: list[str]) -> None:
    rec.emit(
        "CardsMilled",
        "rules",
        frame["rule"],
        {"player": p, "cards": cards, "by": frame["player"], "by_effect": frame["card"]},
    )
    frame["vars"]["moved"] = list(cards)


@op("shuffle")
def _shuffle(rec: Recorder, frame: Frame, step: dict[str, Any], _t: list[str]) -> bool:
    _shuffle_deck(rec, frame, _who(frame, step))
    return True


def _shuffle_deck(rec: Recorder, frame: Frame, p: str) -> None:
    deck = list(rec.state.players[p].zones["deck"])
    rec.random(f"effect-shuffle:{p}").shuffle(deck)
    rec.emit("DeckShuffled", "rules", frame["rule"], {"player": p, "order": deck})


@op("discard")
def _discard(rec: Recorder, frame: Frame, step: dict[str, Any], _t: list[str]) -> bool:
    s = rec.state
    p = _who(frame, step)
    f = step.get("filter", {})
    hand = [i for i in s.players[p].zones["hand"] if tg._card_fits(facts.card_of(s, i), f)]
    n = min(int(step.get("n", 1)), len(hand))
    if n == 0:
        return True
    if step.get("random"):
        cards = rec.random(f"discard:{p}").sample(list(hand), n)
    elif "_answer" in step:
        cards = step.pop("_answer")["cards"]
    elif n == len(hand) and not f:
        cards = list(hand)
    else:
        what = f" {tg.filter_text(f)}" if f else ""
        return ask_in_step(
            rec,
            frame,
            step,
            p,
            min=n,
            max=n,
            choices=list(hand),
            private=True,
            prompt=f"choose {n} card(s){what} to discard",
        )
    rec.emit(
        "CardsDiscarded", "rules", frame["rule"], {"player": p, "cards": cards, "by_effect": frame["card"]}
    )
    return True


@op("vanish")
def _vanish(rec: Recorder, frame: Frame, step: dict[str, Any], chosen: list[str]) -> bool:
    from domain.abilities.constants import immune

    for iid in _live(rec, frame, step, chosen):
        if immune(rec.state, iid, "vanish", frame["player"]):
            continue  # a constant keeps it from being vanished by this player's effects
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


def _move(rec: Recorder, frame: Frame, player: str, cards: list[str], to: str, **extra: Any) -> None:
    """Move cards from one zone (noted as ``from``); a SIGNI that leaves the field may trigger abilities."""
    src = _zone_of(rec.state, cards[0])
    data = {"player": player, "cards": cards, "to": to, "from": src, "by_effect": frame["card"], **extra}
    rec.emit("CardsMoved", "rules", frame["rule"], data)
    if src == "signi":
        frame["vars"]["moved"] = list(cards)


@op("bounce")
def _bounce(rec: Recorder, frame: Frame, step: dict[str, Any], chosen: list[str]) -> bool:
    for iid in _live(rec, frame, step, chosen):
        _move(rec, frame, rec.state.owners[iid], [iid], "hand")
    return True


@op("trash")
def _trash(rec: Recorder, frame: Frame, step: dict[str, Any], chosen: list[str]) -> bool:
    for iid in _live(rec, frame, step, chosen):
        _move(rec, frame, rec.state.owners[iid], [iid], "trash")
    return True


@op("to_hand")
def _to_hand(rec: Recorder, frame: Frame, step: dict[str, Any], chosen: list[str]) -> bool:
    cards = _live(rec, frame, step, chosen)
    if cards:
        _move(rec, frame, frame["player"], cards, "hand")
    return True


@op("to_deck")
def _to_deck(rec: Recorder, frame: Frame, step: dict[str, Any], chosen: list[str]) -> bool:
    """Shuffle the targets into their owner's deck."""
    cards = _live(rec, frame, step, chosen)
    for owner in sorted({rec.state.owners[i] for i in cards}):
        mine = [i for i in cards if rec.state.owners[i] == owner]
        _move(rec, frame, owner, mine, "deck")
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


def _put(rec: Recorder, frame: Frame, iid: str, zone: str, no_enter: bool) -> None:
    rec.emit(
        "SigniPutOntoField",
        "rules",
        frame["rule"],
        {
            "player": frame["player"],
            "card": iid,
            "zone": zone,
            "by_effect": frame["card"],
            "no_enter": no_enter,
        },
    )


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
    _put(rec, frame, iid, zone, bool(step.get("no_enter")))
    return True


@op("power")
def _power(rec: Recorder, frame: Frame, step: dict[str, Any], chosen: list[str]) -> bool:
    s = rec.state
    lasting = step.get("until") == "opponent_next_turn" and s.turn_player == frame["player"]
    for iid in _live(rec, frame, step, chosen):
        data = {
            "card": iid,
            "amount": int(step["amount"]),
            "until": "end_of_turn",
            "by_effect": frame["card"],
        }
        if lasting:
            data["lasts"] = "opponent_next_turn"
        rec.emit("PowerChanged", "rules", frame["rule"], data)
        if lasting:  # the opponent's turn gets the same change, for as long as the card stays on the field
            again = {"op": "power", "amount": int(step["amount"]), "target": {"cards": [iid]}}
            rec.emit(
                "EffectDelayed",
                "rules",
                "effect.delayed",
                {
                    "player": frame["player"],
                    "card": frame["card"],
                    "ability": frame["ability"],
                    "until": "turn",
                    "turn": s.turn + 1,
                    "effect": [again],
                },
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


@op("grant_ability")
def _grant_ability(rec: Recorder, frame: Frame, step: dict[str, Any], chosen: list[str]) -> bool:
    """The targets gain the ability written in the step, until end of turn."""
    from domain.abilities.catalogue import granted_ref

    ref = granted_ref(rec.state.cards[frame["card"]], int(frame["ability"]), step["ability"])
    for iid in _live(rec, frame, step, chosen):
        rec.emit(
            "AbilityGranted",
            "rules",
            "ability.granted",
            {"card": iid, "ability": ref, "until": "end_of_turn", "by_effect": frame["card"]},
        )
    return True


@op("lose_abilities")
def _lose_abilities(rec: Recorder, frame: Frame, step: dict[str, Any], chosen: list[str]) -> bool:
    cards = _live(rec, frame, step, chosen)
    if cards:
        rec.emit(
            "AbilitiesLost",
            "rules",
            "effect.lose-abilities",
            {"cards": cards, "until": "end_of_turn", "by_effect": frame["card"]},
        )
    return True


@op("look")
def _look(rec: Recorder, frame: Frame, step: dict[str, Any], _t: list[str]) -> bool:
    """Look at the top cards of a hidden zone of yours: they are shown with the next question, to you."""
    zone = step.get("zone", "life_cloth")
    frame["vars"]["looked"] = list(rec.state.players[frame["player"]].zones[zone][: int(step.get("n", 1))])
    return True


@op("look_top")
def _look_top(rec: Recorder, frame: Frame, step: dict[str, Any], _t: list[str]) -> bool:
    """Look at the top N cards of your deck; take up to some that fit (one group of picks after another) into
    the hand, onto the field, or either, one card at a time; put the rest on the bottom of the deck in a
    random order (or into the trash)."""
    s, p = rec.state, frame["player"]
    if "_top" not in step:
        step.update(_top=list(s.players[p].zones["deck"][: int(step["n"])]), _group=0, _queue=[], _hand=[])
    top: list[str] = step["_top"]
    groups = step["picks"] if "picks" in step else [step.get("pick", {})]
    to = step.get("to", "hand")
    while True:
        if "_answer" in step:
            answer, stage = step.pop("_answer"), step.pop("_stage")
            if stage == "pick":
                step["_queue"] = list(answer["cards"])
                step["_group"] += 1
            elif stage == "dest" and answer.get("option") == "hand":
                step["_hand"].append(step["_queue"].pop(0))
            elif stage == "dest":
                step["_field"] = True
            else:  # the zone for the card going onto the field
                _put(rec, frame, step["_queue"].pop(0), answer["zone"], bool(step.get("no_enter")))
                step.pop("_field", None)
        if step["_queue"]:
            if to == "hand":
                step["_hand"].extend(step["_queue"])
                step["_queue"] = []
                continue
            iid = step["_queue"][0]
            zones = legal_zones(s, p, iid)
            if not zones:  # it cannot go onto the field: to the hand if it may, else it stays with the rest
                step["_queue"].pop(0)
                if to == "hand_or_field":
                    step["_hand"].append(iid)
                continue
            if to == "hand_or_field" and not step.get("_field"):
                step["_stage"] = "dest"
                return ask_in_step(
                    rec,
                    frame,
                    step,
                    p,
                    min=0,
                    max=0,
                    choices=[],
                    options=["hand", "field"],
                    prompt="add it to your hand or put it onto your field?",
                )
            if len(zones) == 1:
                _put(rec, frame, step["_queue"].pop(0), zones[0], bool(step.get("no_enter")))
                step.pop("_field", None)
                continue
            step["_stage"] = "zone"
            return ask_in_step(
                rec, frame, step, p, min=1, max=1, choices=[], zones=zones, prompt="choose the SIGNI zone"
            )
        if step["_group"] < len(groups):
            pick = groups[step["_group"]]
            deck = s.players[p].zones["deck"]
            fits = [
                i
                for i in top
                if i in deck
                and i not in step["_hand"]
                and tg._card_fits(facts.card_of(s, i), pick.get("filter", {}))
                and (to != "field" or legal_zones(s, p, i))
            ]
            hi = min(int(pick.get("count", 1)), len(fits))
            if hi == 0:
                step["_group"] += 1
                continue
            step["_stage"] = "pick"
            where = {"hand": "to your hand", "field": "onto your field"}.get(to, "")
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
                prompt=f"choose up to {hi} card(s) {tg.filter_text(pick.get('filter', {}))} from the top "
                f"{len(top)} {where}".replace("  ", " "),
            )
        break
    taken = step["_hand"]
    if taken:
        reveal = bool(step.get("reveal", False))
        rec.emit(
            "CardsMoved",
            "rules",
            frame["rule"],
            {"player": p, "cards": taken, "to": "hand", "reveal": reveal, "from_hidden": not reveal},
        )
    deck = s.players[p].zones["deck"]
    rest = [i for i in deck if i in top]
    if rest:
        if step.get("rest", "bottom") == "trash":
            _milled(rec, frame, p, rest)
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


@op("life_add")
def _life_add(rec: Recorder, frame: Frame, step: dict[str, Any], _t: list[str]) -> bool:
    """Add the top N cards of your deck to the top of your Life Cloth (both hidden: only a count is told)."""
    p = frame["player"]
    n = min(int(step.get("n", 1)), len(rec.state.players[p].zones["deck"]))
    if n:
        rec.emit("LifeClothAdded", "rules", "effect.life-cloth", {"player": p, "count": n})
    return True


@op("life_to_deck")
def _life_to_deck(rec: Recorder, frame: Frame, step: dict[str, Any], _t: list[str]) -> bool:
    """Put the top N cards of your Life Cloth on top of your deck (a shuffle is a step of its own)."""
    p = frame["player"]
    n = min(int(step.get("n", 1)), len(rec.state.players[p].zones["life_cloth"]))
    if n:
        rec.emit("LifeClothToDeck", "rules", "effect.life-cloth", {"player": p, "count": n})
    return True


@op("gather_under")
def _gather_under(rec: Recorder, frame: Frame, step: dict[str, Any], _t: list[str]) -> bool:
    """Put every card under your other LRIGs under this LRIG."""
    s, p = rec.state, frame["player"]
    cards = [
        u for sl in s.players[p].lrig.values() if sl is not None and sl.iid != frame["card"] for u in sl.under
    ]
    if cards and tg._on_field(s, frame["card"]):
        rec.emit(
            "CardsPutUnder",
            "rules",
            frame["rule"],
            {"player": p, "cards": cards, "card": frame["card"], "by_effect": frame["card"]},
        )
    return True


@op("damage")
def _damage(rec: Recorder, frame: Frame, step: dict[str, Any], _t: list[str]) -> bool:
    """This card deals damage to a player: a Life Cloth is crushed, or with none left that player loses."""
    from domain.combat import crush

    p = _who(frame, {"who": step.get("who", "opponent")})
    n = rec.emit(
        "EffectDamageDealt",
        "rules",
        "effect.damage",
        {"player": p, "source": frame["card"], "by_effect": frame["card"]},
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


@op("modes")
def _modes(rec: Recorder, frame: Frame, step: dict[str, Any], _t: list[str]) -> bool:
    """Choose modes (each at most once), resolved in printed order; with ``repeat``, choose one mode at a time
    as many times as the count says, the same one again if you like, each resolved before the next choice."""
    choose = step.get("choose", 1)
    if choose == "opponent_center_level":
        k = facts.center_level(rec.state, opponent(frame["player"]))
    else:
        k = int(choose)
    numbers = [str(i + 1) for i in range(len(step["modes"]))]
    if step.get("repeat"):
        left = step.setdefault("_left", k)
        if "_answer" in step:
            m = int(step.pop("_answer")["option"])
            step["_left"] = left - 1
            frame["queue"][0:0] = [*copy.deepcopy(step["modes"][m - 1]), {"op": "then"}]
            return True
        if left <= 0:
            frame["queue"].pop(0)
            return True
        return ask_in_step(
            rec,
            frame,
            step,
            frame["player"],
            min=1,
            max=1,
            choices=[],
            options=numbers,
            prompt=f"choose a mode ({left} more to go; the same one may be chosen again)",
            rule="mode.choose",
        )
    chosen = frame["vars"].pop("modes", None)
    if chosen is None and "_answer" in step:
        chosen = [int(x) for x in step.pop("_answer")["option"].split(",")]
    if chosen is None and k == 0:
        chosen = []
    if chosen is None:
        return ask_in_step(
            rec,
            frame,
            step,
            frame["player"],
            min=k,
            max=k,
            choices=[],
            options=numbers,
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


@op("then")
def _then(rec: Recorder, frame: Frame, step: dict[str, Any], _t: list[str]) -> bool:
    frame["queue"].pop(0)  # the targets of what follows are chosen only when it is reached
    return True


@op("if")
def _if(rec: Recorder, frame: Frame, step: dict[str, Any], _t: list[str]) -> bool:
    frame["queue"].pop(0)
    ok = tg.holds(rec.state, frame["player"], frame["card"], step["condition"], frame["vars"])
    frame["queue"][0:0] = copy.deepcopy(step.get("then" if ok else "else", []))
    return True


def cost_steps(
    s: GameState, player: str, card: str, payer: str, cost: dict[str, Any]
) -> list[dict[str, Any]] | None:
    """The steps that pay a cost other than ener and downing the card itself (discards, downing LRIGs, putting
    ener cards into the trash), each followed by a ``then``; None when ``payer`` cannot pay all of it."""
    rel = "you" if payer == player else "opponent"
    steps: list[dict[str, Any]] = []
    discard = cost.get("discard")
    if discard:
        d = discard if isinstance(discard, dict) else {"n": discard}
        f = d.get("filter", {})
        have = [i for i in s.players[payer].zones["hand"] if tg._card_fits(facts.card_of(s, i), f)]
        if len(have) < int(d.get("n", 1)):
            return None
        steps.append({"op": "discard", "n": int(d.get("n", 1)), "who": rel, **({"filter": f} if f else {})})
    for key, op_name, zone, extra in (
        ("down_lrig", "down", "lrig", {"upped": True}),
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
def _may_pay(rec: Recorder, frame: Frame, step: dict[str, Any], _t: list[str]) -> bool:
    """You may pay a cost; if you do, what follows happens."""
    s, p = rec.state, frame["player"]
    cost = step["cost"]
    payment = ener_payment(s, p, cost)
    paying = cost_steps(s, p, frame["card"], p, cost)
    if payment is None or paying is None:
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
        frame["queue"][0:0] = paying + copy.deepcopy(step.get("then", []))
    return True


@op("unless")
def _unless(rec: Recorder, frame: Frame, step: dict[str, Any], _t: list[str]) -> bool:
    """What follows happens unless the opponent pays a cost (which they may always decline)."""
    s = rec.state
    payer = opponent(frame["player"])
    paying = cost_steps(s, frame["player"], frame["card"], payer, step["cost"])
    if paying is not None and "_answer" not in step:
        return ask_in_step(
            rec,
            frame,
            step,
            payer,
            min=0,
            max=0,
            choices=[],
            options=["pay", "decline"],
            prompt=f"pay {describe_cost(step['cost'])} to stop: "
            + "; ".join(step_text(x) for x in step.get("then", [])),
        )
    answer = step.pop("_answer", {})
    frame["queue"].pop(0)
    if paying is not None and answer.get("option") == "pay":
        frame["queue"][0:0] = paying
    else:
        frame["queue"][0:0] = copy.deepcopy(step.get("then", []))
    return True


@op("delay")
def _delay(rec: Recorder, frame: Frame, step: dict[str, Any], _t: list[str]) -> bool:
    """What follows waits for a later moment (``attack_end``: the end of the attack under way)."""
    s = rec.state
    frame["queue"].pop(0)
    rec.emit(
        "EffectDelayed",
        "rules",
        "effect.delayed",
        {
            "player": frame["player"],
            "card": frame["card"],
            "ability": frame["ability"],
            "until": step.get("until", "attack_end"),
            "attack": (s.attack or {}).get("card"),
            "turn": s.turn,
            "effect": copy.deepcopy(step.get("then", [])),
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


# -- description and validation -------------------------------------------------------------------


def step_text(step: dict[str, Any]) -> str:
    o = step["op"]
    t = tg.target_text(step["target"]) if "target" in step else ""
    who = "the opponent" if step.get("who") == "opponent" else "you"
    n = step.get("n", 1)
    f = tg.filter_text(step.get("filter", {}))
    texts = {
        "draw": f"{who} draw {n}",
        "ener_charge": f"ener charge {n}",
        "discard": f"{who} discard {n}{' ' + f if f else ''}" + (" at random" if step.get("random") else ""),
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
        "to_deck": f"shuffle {t} into its owner's deck",
        "power": f"{t} gets {step.get('amount', 0):+d} power until end of "
        + ("the opponent's next turn" if step.get("until") == "opponent_next_turn" else "turn"),
        "grant": f"{t} gains {', '.join(step.get('keywords', []))} until end of turn",
        "lose_abilities": f"{t} loses its abilities until end of turn",
        "look": f"look at the top {n} of your {step.get('zone', 'life_cloth').replace('_', ' ')}",
        "life_add": f"add the top {n} of your deck to your Life Cloth",
        "life_to_deck": f"put the top {n} of your Life Cloth into your deck",
        "gather_under": "put every card under your other LRIGs under this LRIG",
        "damage": f"this card deals damage to {'you' if step.get('who') == 'you' else 'the opponent'}",
        "then": "then",
    }
    if o in texts:
        return texts[o]
    if o == "grant_ability":
        from domain.abilities.catalogue import describe_ability

        return f'{t} gains "{describe_ability(step["ability"]).rstrip(".")}" until end of turn'
    if o == "look_top":
        groups = step["picks"] if "picks" in step else [step.get("pick", {})]
        picks = " and ".join(
            ("up to " if g.get("up_to", True) else "")
            + f"{g.get('count', 1)} {tg.filter_text(g.get('filter', {}))}".rstrip()
            for g in groups
        )
        where = {"field": "onto your field", "hand_or_field": "to your hand or onto your field"}.get(
            step.get("to", "hand"), "to your hand"
        )
        return (
            f"look at the top {step['n']}, take {picks} {where}, the rest to the "
            f"{'trash' if step.get('rest') == 'trash' else 'bottom of the deck'}"
        )
    if o == "reveal_top":
        inner = "; ".join(step_text(x) for x in step.get("then", []))
        return f"reveal the top card; if it is {tg.filter_text(step.get('filter', {}))}: {inner}"
    if o == "modes":
        modes = " / ".join("; ".join(step_text(x) for x in m) for m in step["modes"])
        k = step.get("choose", 1)
        count = "as many as the opponent's center LRIG's level" if k == "opponent_center_level" else k
        again = ", repeats allowed" if step.get("repeat") else ""
        return f"choose {count}{again}: {modes}"
    if o == "if":
        then = "; ".join(step_text(x) for x in step.get("then", []))
        other = "; ".join(step_text(x) for x in step.get("else", []))
        return f"if {tg.condition_text(step['condition'])}: {then}" + (
            f", otherwise {other}" if other else ""
        )
    if o == "may_pay":
        then = "; ".join(step_text(x) for x in step.get("then", []))
        return f"you may pay {describe_cost(step['cost'])}; if you do: {then}"
    if o == "unless":
        then = "; ".join(step_text(x) for x in step.get("then", []))
        return f"{then}, unless the opponent pays {describe_cost(step['cost'])}"
    if o == "delay":
        then = "; ".join(step_text(x) for x in step.get("then", []))
        return f"at the end of this attack: {then}"
    return o


def step_problems(step: dict[str, Any]) -> list[str]:
    from domain.abilities.catalogue import COST_KEYS, ability_problems

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
        if "cards" in spec:
            out.append(f"step {o}: a target names no card instances")
    for key in ("then", "else"):
        for sub in step.get(key, []) if isinstance(step.get(key), list) else []:
            out.extend(step_problems(sub))
    for mode in step.get("modes", []):
        for sub in mode:
            out.extend(step_problems(sub))
    if o == "if":
        out.extend(tg.condition_problems(step.get("condition", {})))
    if o in ("may_pay", "unless"):
        out.extend(f"step {o}: unknown cost {k!r}" for k in step.get("cost", {}) if k not in COST_KEYS)
    if (
        o == "modes"
        and not isinstance(step.get("choose", 1), int)
        and step.get("choose") not in CHOOSE_COUNTS
    ):
        out.append(f"step modes: choose must be a number or one of {CHOOSE_COUNTS}")
    if o == "delay" and step.get("until", "attack_end") not in DELAYS:
        out.append(f"step delay: until must be one of {DELAYS}")
    if o == "power" and step.get("until", "end_of_turn") not in ("end_of_turn", "opponent_next_turn"):
        out.append("step power: until must be end_of_turn or opponent_next_turn")
    if o == "grant_ability":
        out.extend(ability_problems("granted ability", step.get("ability", {})))
    return out
