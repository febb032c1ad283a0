"""Costs inside effects: coins, Exceed, "you may pay ... if you do", "unless the opponent pays", and the
steps that pay a cost other than ener.
"""

from __future__ import annotations

import json
from itertools import combinations
from typing import Any

from domain import coins, costs, facts
from domain.abilities import targets as tg
from domain.abilities.catalogue import _cost_text
from domain.abilities.effects.running import ask_in_step, ask_options, op, take, taken, who
from domain.abilities.effects.targeting import insert_targeted, targets_first
from domain.abilities.frames import (
    Answer,
    Frame,
    Pending,
)
from domain.abilities.vocabulary import step_text
from domain.cards import CostItem
from domain.recorder import Recorder
from domain.state import COIN_LIMIT, GameState, fresh, marker_kind, opponent


@op("gain_coins")
def _gain_coins(rec: Recorder, frame: Frame, at: Pending, _t: list[str]) -> bool:
    """You gain coins; a player holds at most five, and what would go beyond is not gained; a player a
    constant ability keeps from gaining coins gains none."""
    step = at.step
    p = who(frame, step)
    if not coins.can_gain(rec.state, p):
        return True
    n = min(int(step.get("n", 1)), COIN_LIMIT - rec.state.players[p].coins)
    if n > 0:
        rec.emit("CoinsGained", "rules", frame.rule, {"player": p, "count": n, "by_effect": frame.card})
    return True


@op("pay_coins")
def _pay_coins(rec: Recorder, frame: Frame, at: Pending, _t: list[str]) -> bool:
    """Pay coins (a cost: checked beforehand); a player without enough pays none."""
    step = at.step
    p = who(frame, step)
    n = int(step.get("n", 1))
    if rec.state.players[p].coins >= n:
        rec.emit("CoinsPaid", "rules", "effect.coins", {"player": p, "count": n, "for": frame.card})
    return True


def under_lrigs(s: GameState, p: str) -> list[str]:
    """The cards under a player's LRIGs (center, left, right), each LRIG's from the bottom up."""
    return [u for pos in ("center", "left", "right") if (sl := s.players[p].lrig[pos]) for u in sl.under]


def _choose_exactly(
    rec: Recorder, frame: Frame, at: Pending, player: str, pile: list[str], n: int, prompt: str
) -> list[str] | bool:
    """The n cards of ``pile`` that ``player`` picks: every one when there are just n, the answer once it is
    given; otherwise what the step returns: True (fewer than n: nothing is done) or the question asked."""
    if len(pile) < n:
        return True
    if at.progress.answer is not None:
        return list(take(at)["cards"])
    if len(pile) == n:
        return pile
    return ask_in_step(rec, frame, at, player, min=n, max=n, choices=pile, prompt=prompt)


@op("exceed")
def _exceed(rec: Recorder, frame: Frame, at: Pending, _t: list[str]) -> bool:
    """Exceed N: put N cards from under your LRIGs (any of them) into the LRIG trash, chosen by you."""
    step = at.step
    p = who(frame, step)
    n = int(step.get("n", 1))
    cards = _choose_exactly(
        rec, frame, at, p, under_lrigs(rec.state, p), n, f"exceed {n}: choose the cards from under your LRIGs"
    )
    if not isinstance(cards, list):
        return cards
    exceed_cards(rec, frame.rule, p, cards, frame.card)
    return True


@op("shed_under")
def _shed_under(rec: Recorder, frame: Frame, at: Pending, _t: list[str]) -> bool:
    """Put n cards from under this card (its player chooses) into the LRIG trash: a move, not an Exceed
    cost (seed 000 'LRIG Trash'); "if you do" reads it."""
    step = at.step
    slot = tg._slot(rec.state, frame.card)
    under = list(slot.under) if slot is not None else []
    n = int(step.get("n", 1))
    prompt = f"choose {n} card(s) from under this LRIG to put into the LRIG trash"
    cards = _choose_exactly(rec, frame, at, frame.player, under, n, prompt)
    if not isinstance(cards, list):
        return cards
    rec.emit(
        "CardsMoved",
        "rules",
        frame.rule,
        {
            "player": frame.player,
            "cards": cards,
            "to": "lrig_trash",
            "from": "under",
            "by_effect": frame.card,
        },
    )
    frame.notes["done"] = frame.notes.get("done", 0) + len(cards)
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


def _chosen_cost_steps(
    s: GameState, player: str, card: str, rel: str, cost: dict[str, Any]
) -> list[dict[str, Any]] | None:
    """The steps of the parts of a cost paid with cards the payer chooses: downing LRIGs or SIGNI, putting
    ener cards, or cards from under this card, into the trash (None: they cannot all be paid)."""
    steps: list[dict[str, Any]] = []
    for key, op_name, zone, extra in (
        ("down_lrig", "down", "lrig", {"upped": True}),
        ("down_signi", "down", "signi", {"upped": True}),
        ("trash_ener", "trash", "ener", {}),
        ("trash_under", "trash", "under", {}),
    ):
        if key not in cost:
            continue
        c = cost[key]
        spec: dict[str, Any] = {
            "side": rel,
            "zone": zone,
            "count": int(c.get("n", 1)),
            "filter": {**c.get("filter", {}), **extra},
        }
        if zone == "under":  # "put n cards from under this SIGNI into the trash"
            spec["of"] = "self"
        if c.get("all"):  # "put all the cards of your ener zone into the trash": none there pays it too
            steps.append({"op": op_name, "target": {**spec, "all": True}})
            continue
        if "total_level" in c:  # any number of cards whose levels total exactly that
            spec = {k: v for k, v in spec.items() if k != "count"} | {"total_level": int(c["total_level"])}
            levels = [facts.level(s, i) for i in tg.candidates(s, player, card, spec)]
            reach = {0}
            for lv in levels:
                reach |= {r + lv for r in reach if r + lv <= spec["total_level"]}
            if spec["total_level"] not in reach:
                return None
            steps.append({"op": op_name, "target": spec})
            continue
        together = {k: c[k] for k in ("distinct", "shared") if c.get(k)}
        spec.update(together)
        found = tg.candidates(s, player, card, spec)
        if len(found) < spec["count"]:
            return None
        combos = combinations(found, spec["count"])
        if together and not any(_together(s, combo, together) for combo in combos):
            return None
        steps.append({"op": op_name, "target": spec})
    if cost.get("exclude_piece"):  # "remove a PIECE in your LRIG deck from the game"
        spec = {
            "side": rel,
            "zone": "lrig_deck",
            "count": int(cost["exclude_piece"]),
            "filter": {"type": "piece"},
        }
        if len(tg.candidates(s, player, card, spec)) < spec["count"]:
            return None
        steps.append({"op": "exclude", "target": spec, "_cost": True})
    if cost.get("trash_to_deck"):  # "shuffle n cards of your trash that share a colour into your deck"
        back = _trash_to_deck_step(s, player, card, rel, cost["trash_to_deck"])
        if back is None:
            return None
        steps.append(back)
    return steps


def _reveal_steps(
    s: GameState, player: str, payer: str, hand: list[str], shown: dict[str, Any] | None
) -> list[dict[str, Any]] | None:
    """The step that pays a cost "reveal n cards of your hand that fit" (none when the cost asks no reveal);
    None when the hand holds fewer (or the payer is not the ability's player)."""
    if not shown:
        return []
    f, n = shown.get("filter", {}), int(shown.get("n", 1))
    if payer != player or sum(1 for i in hand if tg._card_fits(facts.card_of(s, i), f)) < n:
        return None
    return [{"op": "look_hand", "who": "you", "pick": {"filter": f, "count": n, "exact": True}}]


def cost_steps(
    s: GameState,
    player: str,
    card: str,
    payer: str,
    cost: dict[str, Any],
    as_cost: bool = False,
    down_self: bool = False,
) -> list[dict[str, Any]] | None:
    """The steps that pay a cost other than ener (discards, downing LRIGs, putting ener cards into the trash,
    this card leaving the field or the hand), each followed by a ``then``; None when ``payer`` cannot pay all
    of it. ``as_cost``: an ability's printed cost (not an effect's "you may ... if you do"): its discards say
    so. ``down_self``: "down this card" is paid here too (an [Enter] or [Auto] cost; an [Action] pays it as it
    is used): only while it is upped on the field (000 '[Enter]': a cost that cannot be paid is not paid)."""
    rel = "you" if payer == player else "opponent"
    steps: list[dict[str, Any]] = []
    if down_self and cost.get("down"):
        slot = tg._slot(s, card)
        if slot is None or slot.downed or payer != player:
            return None
        steps.append({"op": "down", "target": {"self": True}})
    discard: Any = cost.get("discard")
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
    shown = _reveal_steps(s, player, payer, left, cost.get("reveal"))  # "reveal six <Angel> SIGNI ..."
    if shown is None:
        return None
    steps += shown
    piles = _pile_top_steps(s, payer, rel, cost)
    if piles is None:
        return None
    steps += piles
    if cost.get("self_to") == "discard":  # an [Action] used from the hand: this card is discarded
        if payer != player or card not in s.players[payer].zones["hand"]:
            return None
        steps.append(
            {"op": "discard", "n": 1, "filter": {"card": [s.cards[card]]}, "_cost": True, "_this": card}
        )
    if cost.get("coins"):
        if s.players[payer].coins < int(cost["coins"]):
            return None
        steps.append({"op": "pay_coins", "n": int(cost["coins"]), "who": rel})
    if cost.get("exceed"):
        if len(under_lrigs(s, payer)) < int(cost["exceed"]):
            return None
        steps.append({"op": "exceed", "n": int(cost["exceed"]), "who": rel})
    chosen = _chosen_cost_steps(s, player, card, rel, cost)
    if chosen is None:
        return None
    steps.extend(chosen)
    if cost.get("power_self"):  # "this SIGNI gets -10000 power until end of turn" as a cost
        if not tg.on_field(s, card):
            return None
        steps.append({"op": "power", "amount": int(cost["power_self"]), "target": {"self": True}})
    if cost.get("remove_marker"):  # remove a marker (a Virus) from a SIGNI zone of that field
        m = cost["remove_marker"]
        side = player if m.get("side") == "you" else opponent(player)
        if not any(marker_kind(x) == m["marker"] for here in s.players[side].markers.values() for x in here):
            return None
        steps.append(
            {"op": "remove_marker", "marker": m["marker"], "side": m.get("side", "opponent"), "_cost": True}
        )
    if cost.get("self_to") in ("excluded", "trash"):
        own = _self_from_zone(s, player, card, payer, str(cost["self_to"]))
        if own is None:
            return None
        steps.append(own)
    if cost.get("self_to") == "deck_bottom":  # this card leaves the field as the cost, paid last:
        if payer != player or tg._slot(s, card) is None:  # only while it is on the field
            return None
        steps.append({"op": "to_deck", "bottom": True, "target": {"self": True}})
    if cost.get("put_signi"):  # this SIGNI, or SIGNI of yours, into the trash or the ener zone, paid last
        put = signi_cost_step(s, player, card, payer, rel, cost["put_signi"])
        if put is None:
            return None
        steps.append(put)
    return [x for st in steps for x in (st, {"op": "then"})]


def _pile_top_steps(s: GameState, payer: str, rel: str, cost: dict[str, Any]) -> list[dict[str, Any]] | None:
    """The cost steps that take cards off the top of a pile: ``mill`` ("put the top n cards of your deck into
    the trash") and ``crush`` ("crush n of your Life Cloth": they go to the ener zone, and a Life Burst among
    them activates); a pile with fewer cards cannot pay (None)."""
    steps: list[dict[str, Any]] = []
    zones = s.players[payer].zones
    if cost.get("mill"):
        if len(zones["deck"]) < int(cost["mill"]):
            return None
        steps.append({"op": "mill", "n": int(cost["mill"]), "who": rel, "_cost": True})
    if cost.get("crush"):
        if len(zones["life_cloth"]) < int(cost["crush"]):
            return None
        steps.append({"op": "crush", "n": int(cost["crush"]), "who": rel})
    return steps


def _self_from_zone(s: GameState, player: str, card: str, payer: str, to: str) -> dict[str, Any] | None:
    """The cost step of an [Action] used from the trash or the ener zone that moves its own card: removed
    from the game (``excluded``) or, from the ener zone, put into the trash (``trash``); None when the card
    is not there."""
    zones = ("ener",) if to == "trash" else ("trash", "ener")
    zone = next((z for z in zones if card in s.players[payer].zones[z]), None)
    if payer != player or zone is None:
        return None
    return {
        "op": "exclude" if to == "excluded" else "trash",
        "target": {"self": True, "zone": zone},
        "_cost": True,
    }


def _trash_to_deck_step(
    s: GameState, player: str, card: str, rel: str, t: dict[str, Any]
) -> dict[str, Any] | None:
    """The step that shuffles n cards of the payer's trash (``shared: color``: all sharing a colour) into the
    deck; None when there are not that many."""
    spec = {"side": rel, "zone": "trash", "count": int(t.get("n", 1)), "filter": t.get("filter", {})}
    spec.update({"shared": "color"} if t.get("shared") == "color" else {})
    found = tg.candidates(s, player, card, spec)
    colors = [set(facts.card_of(s, i).colors) - {"colorless"} for i in found]
    enough = any(sum(1 for cs in colors if c in cs) >= spec["count"] for c in set().union(*colors))
    if len(found) < spec["count"] or (spec.get("shared") and not enough):
        return None
    return {"op": "to_deck", "target": spec, "_cost": True}


def signi_cost_step(
    s: GameState, player: str, card: str, payer: str, rel: str, c: dict[str, Any]
) -> dict[str, Any] | None:
    """The step that pays "put this SIGNI / n (other) SIGNI of yours / all your SIGNI into the trash (or the
    ener zone)" (000 'Cost': a cost is paid in full or not at all, so one that cannot be paid is None). The
    SIGNI go into their owner's zone, and the move is marked as paid for a cost (``_cost``)."""
    if c.get("self"):
        if payer != player or tg._slot(s, card) is None:  # only while this SIGNI is on the field
            return None
        spec: dict[str, Any] = {"self": True}
    else:
        spec = {"side": rel, "zone": "signi", "count": int(c.get("n", 1)), "filter": c.get("filter", {})}
        spec.update({k: True for k in ("another", "all") if c.get(k)})
    found = tg.candidates(s, player, card, spec)
    if not spec.get("all") and len(found) < int(spec.get("count", 1)):
        return None
    to = c.get("to", "trash")
    return {"op": "move", "to": to, "into": "owner", "target": spec, "_cost": True}


def _together(s: GameState, cards: tuple[str, ...], how: dict[str, Any]) -> bool:
    """Whether the cards of a cost part fit together: ``distinct`` ``level`` (all of different levels: "three
    SIGNI of different levels") or ``class``; ``shared`` ``name`` (all of one name: "two cards of the same
    name")."""
    printed = [facts.card_of(s, i) for i in cards]
    if how.get("shared") == "name" and len({c.name_key for c in printed}) != 1:
        return False
    if how.get("distinct") == "level":
        return len({c.level for c in printed}) == len(printed)
    return not how.get("distinct") or tg.distinct_classes(printed)


@op("may_pay")
def _may_pay(rec: Recorder, frame: Frame, at: Pending, _t: list[str]) -> bool:
    """You may pay a cost; if you do, what follows (``then``) happens, if you do not, ``else`` does. An empty
    cost is a plain "you may": paying it is doing what follows. ``target_first``: the first step of ``then``
    that takes targets has them chosen before the payment is asked (the printed order "target ...; you may pay
    ...; if you do, ... it"; and the first step of ``else`` that takes targets has them too: "if you did not,
    ... it"); with nothing to target there is nothing to pay for, and nothing happens.
    ``must``: not asked: paid whenever it can be ("pay ... and ...; if you do" of a mode chosen). ``costs``
    instead of ``cost``: one of several costs, as the player chooses (options ``pay_1``, ``pay_2`` ...: "you
    may pay {Blue} or {Black}")."""
    step = at.step
    s, p = rec.state, frame.player
    first = targets_first(rec, frame, at)
    if isinstance(first, bool):
        return first
    chosen = first
    if "costs" in step:
        return _may_pay_one_of(rec, frame, at, chosen)
    cost = step["cost"]
    if step.get("per") == "target_level":  # "pay this for each level of the target": the target's level now
        times = facts.level(s, chosen[0]) if chosen and tg.on_field(s, chosen[0]) else 0
        cost = {**cost, "ener": [{**c, "n": int(c["n"]) * times} for c in cost.get("ener", [])]}
    if "less" in step:  # "this cost is one colorless less for each ...": counted now, never below nothing
        cost = _less(s, frame, cost, step["less"])
    payment = ener_payment(s, p, cost)
    paying = cost_steps(s, p, frame.card, p, cost, as_cost=bool(step.get("_cost")), down_self=True)
    if payment is None or paying is None:
        frame.queue.pop(0)  # a cost that cannot be paid is not paid: what follows does not happen
        _otherwise(frame, step, chosen)
        return True
    if at.progress.answer is None and step.get("must"):
        at.progress.answer = Answer(cards=[], option="pay")
    if at.progress.answer is None:
        then = "; ".join(step_text(x) for x in step.get("then", []))
        return ask_options(
            rec,
            frame,
            at,
            p,
            ["pay", "decline"],
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
        payment, answer = picked, Answer(cards=[], option="pay")
    frame.queue.pop(0)
    if answer.get("option") == "pay":
        if cost:
            rec.emit("CostPaid", p, "cost.ener", {"player": p, "ener": payment, "for": frame.card})
        frame.notes["paid"] = list(payment)  # the ener cards paid, for a condition about them
        if chosen:
            insert_targeted(frame, paying, step.get("then", []), chosen)
        else:
            frame.insert(paying + step.get("then", []))
    else:
        _otherwise(frame, step, chosen)
    return True


def _may_pay_one_of(rec: Recorder, frame: Frame, at: Pending, chosen: list[str]) -> bool:
    """ "You may pay X or Y; if you do, ...": the player picks one of the costs they can pay, or declines."""
    step, s, p = at.step, rec.state, frame.player
    payable: dict[str, tuple[dict[str, Any], list[str], list[dict[str, Any]]]] = {}
    for k, cost in enumerate(step["costs"]):
        payment = ener_payment(s, p, cost)
        paying = cost_steps(s, p, frame.card, p, cost, as_cost=bool(step.get("_cost")), down_self=True)
        if payment is not None and paying is not None:
            payable[f"pay_{k + 1}"] = (cost, payment, paying)
    if payable and at.progress.answer is None:
        what = " or ".join(describe_cost(c) for c, _e, _p in payable.values())
        return ask_options(
            rec,
            frame,
            at,
            p,
            [*payable, "decline"],
            prompt=f"pay {what}?",
            rule="cost.ener",
        )
    option = str(take(at).get("option")) if payable else "decline"
    frame.queue.pop(0)
    if option not in payable:
        _otherwise(frame, step, chosen)
        return True
    _cost, payment, paying = payable[option]
    if payment:
        rec.emit("CostPaid", p, "cost.ener", {"player": p, "ener": payment, "for": frame.card})
    frame.notes["paid"] = list(payment)
    if chosen:
        insert_targeted(frame, paying, step.get("then", []), chosen)
    else:
        frame.insert(paying + step.get("then", []))
    return True


def _otherwise(frame: Frame, step: dict[str, Any], chosen: list[str]) -> None:
    """What happens when the cost is not paid (``else``); with targets chosen first, the first step of else
    that takes targets has them ("target ...; you may pay ...; if you did not, ... it")."""
    if chosen:
        insert_targeted(frame, [], step.get("else", []), chosen)
    else:
        frame.insert(step.get("else", []))


def _less(s: GameState, frame: Frame, cost: dict[str, Any], measure: dict[str, Any]) -> dict[str, Any]:
    """The cost with as many colorless fewer as the measure counts now (``less``)."""
    from domain.abilities import measures as ms

    off = int(ms.value(ms.Ctx(s, frame.player, frame.card, frame.notes), measure) or 0)
    ener = []
    for c in cost.get("ener", []):
        n = int(c["n"])
        if c["color"] == "colorless":
            n, off = max(0, n - off), max(0, off - n)
        ener.append({**c, "n": n})
    return {**cost, "ener": [c for c in ener if c["n"] > 0]}


def _pick_payment(rec: Recorder, frame: Frame, at: Pending, cost: dict[str, Any]) -> list[str] | None:
    """The player chooses the ener cards that pay (when what follows looks at them), one at a time among
    those that can still complete a payment; with only one payment left, it is taken. None: it asked."""

    s, p = rec.state, frame.player
    items = tuple(CostItem(c["color"], int(c["n"])) for c in cost.get("ener", []))
    total = sum(i.n for i in items)
    picked: list[str] = at.progress.picked or []

    def payments(rest: list[str], need: int) -> list[tuple[str, ...]]:
        return [
            combo
            for combo in combinations(rest, need)
            if costs.can_pay_with(items, [facts.ener_card(s, i) for i in [*picked, *combo]])
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

    return '"paid_colors"' in json.dumps(steps)


@op("unless")
def _unless(rec: Recorder, frame: Frame, at: Pending, _t: list[str]) -> bool:
    """What follows happens unless the opponent (``who: you``: the ability's controller) pays a cost, which
    they may always decline; ``costs``: one of several costs, as the payer chooses (options ``pay_1``,
    ``pay_2`` ...). Ener is paid too. ``target_first``: the first step of ``then`` that takes targets has
    them chosen before the payer is asked (the printed order "target ...; unless the opponent pays ..., it
    ..."); with nothing to target, nothing is asked and nothing happens. ``paid``: what happens when they
    pay ("the opponent may pay ...; if they do, ...")."""
    step = at.step
    s = rec.state
    first = targets_first(rec, frame, at)
    if isinstance(first, bool):
        return first
    targets = first
    payer = frame.player if step.get("who") == "you" else opponent(frame.player)
    alternatives = step["costs"] if "costs" in step else [step["cost"]]
    payable: dict[str, tuple[dict[str, Any], list[str], list[dict[str, Any]]]] = {}
    for k, cost in enumerate(alternatives):
        ener = ener_payment(s, payer, cost)
        paying = cost_steps(s, frame.player, frame.card, payer, cost)
        if ener is not None and paying is not None:
            payable["pay" if "costs" not in step else f"pay_{k + 1}"] = (cost, ener, paying)
    if payable and at.progress.answer is None:
        what = " or ".join(describe_cost(c) for c in alternatives)
        return ask_options(
            rec,
            frame,
            at,
            payer,
            [*payable, "decline"],
            prompt=f"pay {what} to stop: " + "; ".join(step_text(x) for x in step.get("then", []))
            if step.get("then") or not step.get("paid")
            else f"pay {what}? if you do: " + "; ".join(step_text(x) for x in step["paid"]),
        )
    answer = taken(at) or Answer(cards=[])
    frame.queue.pop(0)
    chosen = payable.get(str(answer.get("option")))
    if chosen is not None:
        cost, ener, paying = chosen
        if cost.get("ener"):
            rec.emit("CostPaid", payer, "cost.ener", {"player": payer, "ener": ener, "for": frame.card})
        frame.insert(paying + fresh(step.get("paid", [])))  # "the opponent may pay ...; if they do, ..."
    elif targets:
        insert_targeted(frame, [], step.get("then", []), targets)
    else:
        frame.insert(step.get("then", []))
    return True


def ener_payment(s: GameState, p: str, cost: dict[str, Any]) -> list[str] | None:

    items = tuple(CostItem(c["color"], int(c["n"])) for c in cost.get("ener", []))
    if facts.ener_locked(s, p, sum(i.n for i in items)):
        return None  # an effect says this player cannot pay ener costs this turn
    ener = [(e, facts.ener_card(s, e)) for e in s.players[p].zones["ener"]]
    return costs.choose_payment(items, ener)


def describe_cost(cost: dict[str, Any]) -> str:

    return _cost_text(cost)
