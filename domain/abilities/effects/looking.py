"""Steps that look at or reveal hidden cards: the top of the deck (take some, put the rest back), arranging
the top of the deck, a hand, the top card revealed.
"""

from __future__ import annotations

from typing import Any

from domain import facts
from domain.abilities import targets as tg
from domain.abilities.effects.field import legal_zones, put_onto_field
from domain.abilities.effects.moving import milled, move_cards
from domain.abilities.effects.running import (
    REFERS,
    ask_hand_or_field,
    ask_in_step,
    ask_options,
    ask_zone,
    op,
    refers_later,
    taken,
    who,
)
from domain.abilities.frames import (
    Answer,
    Arrange,
    Frame,
    LookTop,
    Pending,
)
from domain.recorder import Recorder
from domain.state import GameState, opponent


@op("look")
def _look(rec: Recorder, frame: Frame, at: Pending, _t: list[str]) -> bool:
    """Look at the top cards of a hidden zone of yours (of the Life Cloth, ``who``'s): they are shown with
    the next question, to you; ``reveal``: they are revealed to both players."""
    step = at.step
    zone = step.get("zone", "life_cloth")
    p = who(frame, step) if zone == "life_cloth" else frame.player
    looked = list(rec.state.players[p].zones[zone][: int(step.get("n", 1))])
    frame.notes["looked"] = looked
    for iid in looked if step.get("reveal") else ():
        data = {"player": p, "card": iid, "card_id": rec.state.cards[iid]}
        if zone != "deck":
            data["zone"] = zone
        rec.emit("CardRevealed", "rules", frame.rule, data)
    return True


def _downed(at: Pending) -> bool:
    """Whether a card the look puts onto the field enters downed (``downed``)."""
    return bool(at.step.get("downed"))


@op("look_top")
def _look_top(rec: Recorder, frame: Frame, at: Pending, _t: list[str]) -> bool:
    """Look at the top N cards of your deck; take up to some that fit (one group of picks after another, each
    to the step's destination or to its own ``to``; a group with ``unlike_taken`` takes only cards sharing no
    colour with those taken before it) into the hand, onto the field (``downed``: downed), or
    either, one card at a time, or under this card (``under``, face up, while it is on the field), or into
    the trash (``trash``); put the
    rest on the bottom of the deck in a random order, or (``order: chosen``) in the order the player chooses
    (not asked when they are all copies of one card), or into the trash, or (``rest: hand``) into the hand,
    or (``rest: top``) back on top (in the order the player chooses, with ``order: chosen``). ``and_bottom``:
    the bottom card of the deck is looked at too; ``from_bottom``: the bottom N cards instead of the top N
    (with ``reveal``, revealed to both players as they are looked at)."""
    step, s, p = at.step, rec.state, frame.player
    if at.progress.look is None:
        deck = s.players[p].zones["deck"]
        top = list(deck[: int(step["n"])])
        if step.get("from_bottom"):  # "reveal the bottom card of your deck": the bottom n, shown to both
            top = list(deck[-int(step["n"]) :]) if int(step["n"]) > 0 else []
            for iid in top if step.get("reveal") else []:
                data = {"player": p, "card": iid, "card_id": s.cards[iid]}
                rec.emit("CardRevealed", "rules", frame.rule, data)
        if step.get("and_bottom") and len(deck) > len(top):  # "the top card and the bottom card"
            top.append(deck[-1])
        at.progress.look = LookTop(top=top)
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
        groups = _pick_groups(step)
        if look.group >= len(groups):
            break
        if _look_pick(rec, frame, at, look, groups[look.group]):
            return False
    return _look_rest(rec, frame, at, look)


def _pick_groups(step: dict[str, Any]) -> list[dict[str, Any]]:
    """The groups of cards to pick among those looked at; none when no pick is named and all of them go into
    the hand (``rest: hand``: "add them to your hand": nothing to choose)."""
    if "picks" in step:
        return list(step["picks"])
    if "pick" not in step and step.get("rest") == "hand":
        return []
    return [step.get("pick", {})]


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
    elif stage == "top":  # the one card going back on top
        look.on_top = answer["cards"][0]
    else:  # the zone for the card going onto the field
        put_onto_field(
            rec, frame, look.taking.pop(0), answer["zone"], bool(at.step.get("no_enter")), _downed(at)
        )
        look.to_field = False


def _pick_to(step: dict[str, Any], group: int) -> str:
    """Where the cards of a group of picks go: the group's own ``to`` ("one card to your hand and up to two
    SIGNI onto your field"), else the step's."""
    groups = step["picks"] if "picks" in step else [step.get("pick", {})]
    own = groups[group].get("to") if 0 <= group < len(groups) else None
    return str(own or step.get("to", "hand"))


def _look_put_next(rec: Recorder, frame: Frame, at: Pending, look: LookTop) -> bool | None:
    """Put the next picked card where it goes (the hand, or the field); False: it asked, None: go on."""
    s, p = rec.state, frame.player
    to = _pick_to(at.step, look.group - 1)  # the group just picked
    if to == "trash" and at.step.get("to") != "trash":  # a group to the trash, others elsewhere: there now
        milled(rec, frame, p, list(look.taking))
        look.taking = []
        return None
    if to in ("hand", "ener", "under", "trash"):  # all together, as the rest goes (``_look_rest``)
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
        return ask_hand_or_field(rec, frame, at, p)
    if len(zones) == 1:
        put_onto_field(rec, frame, look.taking.pop(0), zones[0], bool(at.step.get("no_enter")), _downed(at))
        look.to_field = False
        return None
    look.stage = "zone"
    return ask_zone(rec, frame, at, p, zones, "choose the SIGNI zone")


def _look_pick(rec: Recorder, frame: Frame, at: Pending, look: LookTop, pick: dict[str, Any]) -> bool:
    """Ask for the cards of one group of picks; False: none can be picked (the next group comes)."""
    s, p = rec.state, frame.player
    to = _pick_to(at.step, look.group)
    deck = s.players[p].zones["deck"]
    fits = [
        i
        for i in look.top
        if i in deck
        and i not in look.hand
        and tg._card_fits(facts.card_of(s, i), pick.get("filter", {}))
        and (
            "shares_center_color" not in pick.get("filter", {})
            or tg.shares_center_color(s, p, i) == pick["filter"]["shares_center_color"]
        )
        and (
            "shares_lrig_color" not in pick.get("filter", {})
            or tg.shares_lrig_color(s, p, i, pick["filter"]["shares_lrig_color"])
        )
        and (to != "field" or legal_zones(s, p, i))
        and not (pick.get("unlike_taken") and _shares_color(s, i, look.hand))
    ]
    hi = min(int(pick.get("count", 1)), len(fits))
    if hi == 0:
        look.group += 1
        return False
    look.stage = "pick"
    where = {
        "hand": "to your hand",
        "field": "onto your field",
        "ener": "into your ener zone",
        "trash": "into your trash",
    }.get(to, "")
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
        prompt=f"choose up to {hi} card(s) {tg.filter_text(pick.get('filter', {}))} from the "
        f"{'bottom' if at.step.get('from_bottom') else 'top'} {len(look.top)} {where}".replace("  ", " "),
    )
    return True


def _shares_color(s: GameState, iid: str, taken: list[str]) -> bool:
    """Whether a card shares a colour with one of the cards taken before (colourless is no colour)."""
    mine = set(facts.card_of(s, iid).real_colors)
    return any(mine & set(facts.card_of(s, t).real_colors) for t in taken)


def _look_rest(rec: Recorder, frame: Frame, at: Pending, look: LookTop) -> bool:
    """The cards taken go to the hand; the rest to the bottom of the deck (in a chosen order) or the trash."""
    step, s, p = at.step, rec.state, frame.player
    left = [i for i in s.players[p].zones["deck"] if i in look.top and i not in look.hand]
    if step.get("rest") == "hand" and left:  # "add the rest to your hand": with the cards taken
        look.hand.extend(left)
        left = []
    if step.get("rest") == "top_one" and left and look.on_top is None:  # one goes back on top
        if len(left) == 1:
            look.on_top = left[0]
        else:
            look.stage = "top"
            return ask_in_step(
                rec,
                frame,
                at,
                p,
                min=1,
                max=1,
                choices=left,
                private=True,
                prompt="choose the card that goes back on top of your deck; the rest go to the bottom",
            )
    left = [i for i in left if i != look.on_top]
    chosen_order = step.get("order") == "chosen" and step.get("rest", "bottom") in (
        "bottom",
        "top_one",
        "top",
    )
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
            prompt="put the rest back on top of your deck: list them from the top down"
            if step.get("rest") == "top"
            else "put the rest on the bottom of your deck: give them all, in order; the last one "
            "goes to the very bottom",
        )
    if look.hand and step.get("to") == "under":  # under this card, face up; not on the field: they stay
        if tg._on_field(s, frame.card):
            data = {"player": p, "cards": look.hand, "card": frame.card, "by_effect": frame.card}
            rec.emit("CardsPutUnder", "rules", frame.rule, data)
            frame.notes["done"] = frame.notes.get("done", 0) + len(look.hand)
    elif look.hand and step.get("to") == "trash":  # "put one of them into the trash"
        milled(rec, frame, p, list(look.hand))
        frame.notes["done"] = frame.notes.get("done", 0) + len(look.hand)
    elif look.hand and step.get("to") == "ener":  # into the ener zone: public there
        rec.emit(
            "CardsMoved", "rules", frame.rule, {"player": p, "cards": look.hand, "to": "ener", "from": "deck"}
        )
        frame.notes["done"] = frame.notes.get("done", 0) + len(look.hand)
    elif look.hand:
        reveal = bool(step.get("reveal", False))
        rec.emit(
            "CardsMoved",
            "rules",
            frame.rule,
            {"player": p, "cards": look.hand, "to": "hand", "reveal": reveal, "from_hidden": not reveal},
        )
        frame.notes["done"] = frame.notes.get("done", 0) + len(look.hand)  # "if you added a card this way"
        frame.notes["added"] = len(look.hand)  # "discard a card for each card added this way"
        if reveal and refers_later(frame, "revealed", *REFERS):  # "the same level as the SIGNI revealed"
            frame.notes["revealed_cards"] = list(look.hand)
    rest = [i for i in s.players[p].zones["deck"] if i in look.top and i != look.on_top]
    if rest:
        if step.get("rest", "bottom") == "top" and look.rest is not None:  # back on top in the order chosen
            rec.emit("DeckTopArranged", "rules", frame.rule, {"player": p, "top": look.rest, "bottom": []})
        elif step.get("rest", "bottom") == "top":
            pass  # the cards not taken stay where they are, on top (one card, or copies of one: no order)
        elif step.get("rest", "bottom") == "trash":
            milled(rec, frame, p, rest)
        elif look.rest is not None:
            rec.emit("CardsToDeckBottom", "rules", frame.rule, {"player": p, "cards": look.rest})
        else:
            rec.random(f"bottom:{p}").shuffle(rest)
            rec.emit("CardsToDeckBottom", "rules", frame.rule, {"player": p, "cards": rest})
    return True


@op("split_piles")
def _split_piles(rec: Recorder, frame: Frame, at: Pending, _t: list[str]) -> bool:
    """Look at the top N cards of your deck and split them into two piles: ``pile`` of them, chosen by you,
    face up (revealed), the rest face down; the opponent chooses one pile to go into your trash, and you add
    the other to your hand (the face-down one unseen by the opponent)."""
    step, s, p = at.step, rec.state, frame.player
    if at.progress.look is None:
        at.progress.look = LookTop(top=list(s.players[p].zones["deck"][: int(step.get("n", 1))]))
    look = at.progress.look
    if not look.top:
        return True
    answer = taken(at)
    if answer is not None and look.stage == "pick":
        look.stage, look.taking = None, list(answer["cards"])
        for iid in look.taking:
            rec.emit("CardRevealed", "rules", frame.rule, {"player": p, "card": iid, "card_id": s.cards[iid]})
        look.hand = [i for i in look.top if i not in look.taking]  # the face-down pile
    elif answer is not None and look.stage == "dest":
        up, down = look.taking, look.hand
        trashed, kept = (up, down) if answer.get("option") == "face_up" else (down, up)
        if trashed:
            milled(rec, frame, p, trashed)
        if kept:
            hidden = kept is down
            data = {"player": p, "cards": kept, "to": "hand", "from": "deck", "reveal": not hidden}
            rec.emit("CardsMoved", "rules", frame.rule, {**data, "from_hidden": hidden})
        return True
    if look.stage is None and not look.taking and not look.hand:
        size = min(int(step.get("pile", 1)), len(look.top))
        look.stage = "pick"
        return ask_in_step(
            rec,
            frame,
            at,
            p,
            min=size,
            max=size,
            choices=list(look.top),
            private=True,
            looked=look.top,
            prompt=f"choose the {size} card(s) of the face-up pile; the rest make the face-down pile",
        )
    look.stage = "dest"
    return ask_options(
        rec,
        frame,
        at,
        opponent(p),
        ["face_up", "face_down"],
        prompt=f"choose the pile that goes into the opponent's trash: the face-up pile ({len(look.taking)} "
        f"card(s), shown) or the face-down pile ({len(look.hand)} card(s)); they add the other to their hand",
    )


@op("arrange_top")
def _arrange_top(rec: Recorder, frame: Frame, at: Pending, _t: list[str]) -> bool:
    """Look at the top N cards of your deck; put any number of them on the bottom in the order you choose,
    and the rest back on top in the order you choose (both orders: the first chosen is nearest the top); with
    ``bottom: false``, none goes to the bottom: only their order on top is chosen; ``keep_max``: at most that
    many go back on top; ``keep``: exactly that many go back on top (all of them when fewer were looked
    at)."""
    step, s, p = at.step, rec.state, frame.player
    if at.progress.arrange is None:
        at.progress.arrange = Arrange(top=list(s.players[p].zones["deck"][: int(step.get("n", 1))]))
        if step.get("bottom") is False:
            at.progress.arrange.bottom = []
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
        exact = "keep" in step  # "one back on top, the rest on the bottom"
        keep = int(step["keep"] if exact else step.get("keep_max", len(top)))  # keep_max: "up to one on top"
        return ask_in_step(
            rec,
            frame,
            at,
            p,
            min=max(0, len(top) - keep),
            max=max(0, len(top) - keep) if exact else len(top),
            choices=list(top),
            private=True,
            looked=top,
            prompt=f"choose any of the top {len(top)} to put on the bottom of your deck, in their order"
            + (f" ({'exactly' if exact else 'at most'} {keep} stay on top)" if keep < len(top) else ""),
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


@op("look_hand")
def _look_hand(rec: Recorder, frame: Frame, at: Pending, _t: list[str]) -> bool:
    """You look at a player's hand (``who``: the opponent unless given): shown to you and its owner only; with
    ``reveal``, shown to everyone, and with ``deck_top`` the top card of that player's deck too."""
    step = at.step
    owner = who(frame, {"who": step.get("who", "opponent")})
    s = rec.state
    cards = list(s.players[owner].zones["hand"])
    if "take" in step:  # you look at the hand (or n cards of it at random) and put one on the deck bottom
        return _look_take(rec, frame, at, owner)
    if "pick" in step:  # you reveal any number of the cards of your hand that fit (none: nothing happens)
        return _reveal_some(
            rec,
            frame,
            at,
            [i for i in cards if tg._card_fits(facts.card_of(s, i), step["pick"].get("filter", {}))],
            step["pick"].get("count"),
            bool(step["pick"].get("exact")),
        )
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


def _look_take(rec: Recorder, frame: Frame, at: Pending, owner: str) -> bool:
    """You look at a player's hand, or at ``random`` cards of it chosen at random (shown to you and its
    owner), and choose one of them that fits the ``take`` filter: it goes to the bottom of its owner's
    deck (``take.up_to``: you may choose none)."""
    step, s = at.step, rec.state
    if at.progress.look is None:
        hand = list(s.players[owner].zones["hand"])
        if "random" in step:
            hand = rec.random(f"look-hand:{owner}").sample(hand, min(int(step["random"]), len(hand)))
        at.progress.look = LookTop(top=hand)
        if hand:
            data = {"player": owner, "to": frame.player, "cards": hand, "by_effect": frame.card}
            rec.emit("HandRevealed", "rules", frame.rule, data)
    look = at.progress.look
    f = step["take"].get("filter", {})
    fits = [
        i for i in look.top if i in s.players[owner].zones["hand"] and tg._card_fits(facts.card_of(s, i), f)
    ]
    answer = taken(at)
    optional = bool(step["take"].get("up_to"))  # "you may put one of them on the bottom"
    if answer is None and (len(fits) > 1 or (optional and fits)):
        return ask_in_step(
            rec,
            frame,
            at,
            frame.player,
            min=0 if optional else 1,
            max=1,
            choices=fits,
            private=True,
            prompt=f"choose the card {tg.filter_text(f)} to put on the bottom of its owner's deck".replace(
                "  ", " "
            ),
        )
    chosen = [i for i in (answer["cards"] if answer is not None else fits) if i in fits][:1]
    if chosen:
        move_cards(rec, frame, owner, chosen, "deck")  # a card moved into the deck goes to its bottom
    return True


def _reveal_some(
    rec: Recorder, frame: Frame, at: Pending, fits: list[str], most: int | None = None, exact: bool = False
) -> bool:
    """Reveal the cards of your hand you choose among those that fit (up to ``most``, the pick's ``count``,
    when it is given: "you may reveal a spell"; ``exact``: that many, as a cost "reveal six ..." asks); their
    number is noted (``revealed_count``)."""
    answer = taken(at)
    if answer is None and fits and exact and most is not None and len(fits) == int(most):
        answer = Answer(cards=list(fits))  # the only cards that pay it
    if answer is None and fits:
        return ask_in_step(
            rec,
            frame,
            at,
            frame.player,
            min=min(int(most), len(fits)) if exact and most is not None else 0,
            max=len(fits) if most is None else min(int(most), len(fits)),
            choices=fits,
            private=True,
            prompt="choose any number of these cards of your hand to reveal"
            if most is None
            else f"choose up to {most} of these cards of your hand to reveal",
        )
    cards = [i for i in (answer["cards"] if answer is not None else []) if i in fits]
    cards = cards if most is None else cards[: int(most)]
    if cards:
        data = {"player": frame.player, "to": "all", "cards": cards, "by_effect": frame.card}
        rec.emit("HandRevealed", "rules", frame.rule, data)
    frame.notes["revealed_count"] = len(cards)
    return True


@op("reveal_top")
def _reveal_top(rec: Recorder, frame: Frame, at: Pending, _t: list[str]) -> bool:
    """Reveal the top card (``n``: the top n cards) of a deck (yours, or ``who``'s); if it fits the filter
    (one of them does), what follows happens. The cards stay where they are."""
    step = at.step
    p = who(frame, step)
    frame.queue.pop(0)
    deck = rec.state.players[p].zones["deck"]
    if not deck:
        return True
    shown = deck[: int(step.get("n", 1))]
    for iid in shown:
        rec.emit(
            "CardRevealed", "rules", frame.rule, {"player": p, "card": iid, "card_id": rec.state.cards[iid]}
        )
    frame.notes["revealed"] = shown[0]  # later steps may ask what it was (condition "revealed")
    if any(tg._card_fits(facts.card_of(rec.state, iid), step.get("filter", {})) for iid in shown):
        frame.insert(step.get("then", []))
    if refers_later(frame, "revealed", *REFERS):  # what all of them were (measure "noted_fit" ...)
        frame.notes["revealed_cards"] = list(shown)
    return True
