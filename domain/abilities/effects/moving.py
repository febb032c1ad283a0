"""Steps that move cards between zones: draw, charge ener, mill, shuffle, discard, vanish, bounce, trash,
exclude, to the hand, to the deck (shuffled or to the bottom in an order their owner chooses), from the Life
Cloth, from the ener zone, search.
"""

from __future__ import annotations

import json
from typing import Any

from domain import facts
from domain.abilities import leaving
from domain.abilities import targets as tg
from domain.abilities.catalogue import ability_at
from domain.abilities.constants import immune, leave_redirect
from domain.abilities.effects.running import REFERS, ask_in_step, count, op, refers_later, take, taken, who
from domain.abilities.effects.targeting import live_targets
from domain.abilities.frames import (
    BottomOrders,
    Frame,
    Pending,
)
from domain.abilities.measures import Ctx, bonus
from domain.recorder import Recorder
from domain.state import GameState


def _paid(step: dict[str, Any]) -> dict[str, Any]:
    """What a move tells when it pays a cost ("put this SIGNI into the trash" as a cost): ``as_cost``."""
    return {"as_cost": True} if step.get("_cost") else {}


def zone_of(s: GameState, iid: str) -> str:
    where = s.where(iid)
    return "" if where is None else where[1].split(":")[0]


@op("draw")
def _draw(rec: Recorder, frame: Frame, at: Pending, _t: list[str]) -> bool:
    step = at.step
    p = who(frame, step)
    deck = rec.state.players[p].zones["deck"]
    n = count(frame, step, rec.state)
    left = facts.draws_left(rec.state, p)  # an effect capped the cards this player draws now
    cards = deck[: n if left is None else min(n, left)]  # an empty deck draws nothing; refresh waits
    rule = frame.rule if left is None or left >= n else "effect.draw-cap"
    rec.emit("CardsDrawn", "rules", rule, {"player": p, "cards": cards, "by_effect": frame.card})
    return True


@op("ener_charge")
def _ener_charge(rec: Recorder, frame: Frame, at: Pending, _t: list[str]) -> bool:
    step = at.step
    p = who(frame, step)
    n = int(step.get("n", 1))
    if "per" in step:  # "ener charge 1 for each level of ...": n once for each of what the measure counts
        n = bonus(Ctx(rec.state, frame.player, frame.card, frame.notes), n, step["per"])
    cards = list(rec.state.players[p].zones["deck"][:n])
    for iid in cards:
        rec.emit("EnerCharged", "rules", frame.rule, {"player": p, "card": iid, "from": "deck"})
    frame.notes["moved"] = cards
    return True


@op("mill")
def _mill(rec: Recorder, frame: Frame, at: Pending, _t: list[str]) -> bool:
    step = at.step
    p = who(frame, step)
    deck, n = rec.state.players[p].zones["deck"], count(frame, step, rec.state)
    bottom = step.get("position") == "bottom"  # "the bottom card of the deck"
    cards = (deck[-n:] if n else []) if bottom else deck[:n]
    milled(rec, frame, p, cards, **_paid(step))
    return True


def milled(rec: Recorder, frame: Frame, p: str, cards: list[str], **extra: Any) -> None:
    """Cards put from the top of a deck into the trash (``as_cost``: paying a cost, which is no effect)."""
    by = frame.notes.get("effect_of", frame.player)  # each player's part of one effect: still its player's
    rec.emit(
        "CardsMilled",
        "rules",
        frame.rule,
        {"player": p, "cards": cards, "by": by, "by_effect": frame.card, **extra},
    )
    frame.notes["moved"] = list(cards)


@op("top_to_bottom")
def _top_to_bottom(rec: Recorder, frame: Frame, at: Pending, _t: list[str]) -> bool:
    """Put the top N cards of a deck (yours, or ``who``'s) on the bottom of that deck, in their order
    (``position: shuffled``: in a random order, the match's)."""
    step = at.step
    p = who(frame, step)
    cards = list(rec.state.players[p].zones["deck"][: int(step.get("n", 1))])
    if step.get("position") == "shuffled":
        rec.random(f"effect-bottom:{p}").shuffle(cards)
    if cards:
        rec.emit("CardsToDeckBottom", "rules", frame.rule, {"player": p, "cards": cards})
    frame.notes["done"] = len(cards)
    return True


@op("shuffle")
def _shuffle(rec: Recorder, frame: Frame, at: Pending, _t: list[str]) -> bool:
    step = at.step
    shuffle_deck(rec, frame, who(frame, step))
    return True


def shuffle_deck(rec: Recorder, frame: Frame, p: str) -> None:
    deck = list(rec.state.players[p].zones["deck"])
    rec.random(f"effect-shuffle:{p}").shuffle(deck)
    rec.emit("DeckShuffled", "rules", frame.rule, {"player": p, "order": deck})


@op("discard")
def _discard(rec: Recorder, frame: Frame, at: Pending, _t: list[str]) -> bool:
    step = at.step
    s = rec.state
    p = who(frame, step)
    if step.get("or_ener"):
        return _discard_or_ener(rec, frame, at, p)
    f = step.get("filter", {})
    hand = [i for i in s.players[p].zones["hand"] if tg._card_fits(facts.card_of(s, i), f)]
    n = len(hand) if step.get("all") else min(count(frame, step, s), len(hand))  # "all": the whole hand
    up_to = bool(step.get("up_to"))  # "discard up to n": the player may discard fewer, or none
    frame.notes["discarded"] = 0
    noting = refers_later(frame, "discarded", *REFERS)  # "the SIGNI discarded this way"
    if noting:
        frame.notes["discarded_cards"] = []
    if n == 0:
        return True
    if step.get("random"):
        cards = rec.random(f"discard:{p}").sample(list(hand), n)
    elif step.get("_this") in hand:  # the card itself (an [Action] used from the hand discards it)
        cards = [step["_this"]]
    elif at.progress.answer is not None:
        cards = take(at)["cards"]
    elif (n == len(hand) and not f and not up_to) or step.get("all"):
        cards = list(hand)
    else:
        what = f" {tg.filter_text(f)}" if f else ""
        chooser = frame.player if step.get("chooser") == "you" else p  # "you choose a card; they discard it"
        return ask_in_step(
            rec,
            frame,
            at,
            chooser,
            min=0 if up_to else n,
            max=n,
            choices=list(hand),
            private=True,
            prompt=f"choose {'up to ' if up_to else ''}{n} card(s){what} to discard",
        )
    frame.notes["discarded"] = len(cards)
    if noting:
        frame.notes["discarded_cards"] = list(cards)
    if not cards:
        return True
    data: dict[str, Any] = {"player": p, "cards": cards, "by_effect": frame.card}
    if step.get("_cost"):
        data["as_cost"] = True
    rec.emit("CardsDiscarded", "rules", frame.rule, data)
    return True


def _n_of(
    rec: Recorder,
    frame: Frame,
    at: Pending,
    p: str,
    pile: list[str],
    n: int,
    prompt: str,
    *,
    private: bool = False,
) -> list[str] | None:
    """The n cards of ``pile`` its player chose (all of them, not asked, when the pile holds no more); None:
    the choice was asked."""
    if at.progress.answer is not None:
        return list(take(at)["cards"])
    if len(pile) <= n:
        return list(pile)
    hidden: dict[str, Any] = {"private": True} if private else {}
    ask_in_step(rec, frame, at, p, min=n, max=n, choices=pile, **hidden, prompt=prompt)
    return None


def _discard_or_ener(rec: Recorder, frame: Frame, at: Pending, p: str) -> bool:
    """Discard n cards, each of which may be a card of the ener zone put into the trash instead ("discard a
    card, or put a card from your ener zone into the trash, n times in all"), the player choosing each; when
    the hand and the ener zone hold fewer, as much as can be done is done (all of them: ruling WXR-018), and
    "if you do" reads whether the n were done."""
    s = rec.state
    n = count(frame, at.step)
    pile = [*s.players[p].zones["hand"], *s.players[p].zones["ener"]]
    if n <= 0:
        return True
    prompt = f"choose {n} card(s) in all: those of your hand are discarded, those of your ener zone "
    prompt += "put into the trash"
    cards = _n_of(rec, frame, at, p, pile, n, prompt, private=True)
    if cards is None:
        return False
    hand = [c for c in cards if c in s.players[p].zones["hand"]]
    ener = [c for c in cards if c not in hand]
    if hand:
        rec.emit("CardsDiscarded", "rules", frame.rule, {"player": p, "cards": hand, "by_effect": frame.card})
    if ener:
        data = {"player": p, "cards": ener, "to": "trash", "from": "ener", "by_effect": frame.card}
        rec.emit("CardsMoved", "rules", frame.rule, data)
    frame.notes["discarded"] = len(hand)
    if len(cards) == n:  # fewer: done as far as it could be, and "if you do" fails
        frame.notes["done"] = frame.notes.get("done", 0) + len(cards)
    return True


@op("vanish")
def _vanish(rec: Recorder, frame: Frame, at: Pending, chosen: list[str]) -> bool:
    step = at.step

    for iid in live_targets(rec, frame, step, chosen):
        owner = rec.state.owners[iid]
        zone = (rec.state.players[owner].find(iid) or "").split(":")[-1]
        slot = tg._slot(rec.state, iid)
        if "trash_if" in step and slot is not None and tg.slot_fits(rec.state, slot, zone, step["trash_if"]):
            move_cards(rec, frame, owner, [iid], "trash")  # "if it is ..., put it into the trash instead"
            continue
        if immune(rec.state, iid, "vanish", frame.player, effect_of=frame.card) or immune(
            rec.state, iid, "move", frame.player, effect_of=frame.card
        ):
            continue  # a constant keeps it from being vanished (moved off the field) by this player's effects
        own = leaving.replaced(rec.state, iid, frame.player, vanish=True)
        if own is not None:  # not vanished: it goes where its own replacement says instead (or stays)
            leaving.redirect(rec, iid, own, by_effect=frame.card)
            continue
        rec.emit(
            "SigniVanished",
            "rules",
            frame.rule,
            {"player": owner, "card": iid, "zone": zone, "cause": "effect", "by_effect": frame.card},
        )
        if _did_follows(frame):  # "vanish it; if you do"
            frame.notes["done"] = frame.notes.get("done", 0) + 1
    return True


def _did_follows(frame: Frame) -> bool:
    """Whether the next step asks "if you do" (a vanish is noted as done only for it)."""
    nxt = frame.queue[0].step if frame.queue else {}
    return nxt.get("op") == "if" and '"did"' in json.dumps(nxt.get("condition", {}))


def move_cards(rec: Recorder, frame: Frame, player: str, cards: list[str], to: str, **extra: Any) -> None:
    """Move cards from one zone (noted as ``from``); a SIGNI that leaves the field may trigger abilities. A
    SIGNI that a replacement constant sends elsewhere as it leaves the field goes there instead
    (``effect.replace``)."""
    src = zone_of(rec.state, cards[0])
    if src == "signi":  # a constant may keep a SIGNI from being moved off the field by this player's effects
        s, by, of = rec.state, frame.player, frame.card
        cards = [
            i
            for i in cards
            if not immune(s, i, "move", by, effect_of=of)
            and not (to != "ener" and immune(s, i, "move_not_ener", by, effect_of=of))
        ]
        if not cards:
            return
    if src == "signi":
        redirected: list[tuple[str, tuple[str, str]]] = []
        staying: list[str] = []
        for i in cards:  # its own replacement (its player asked before the step), then the opponent's
            own = leaving.replaced(rec.state, i, frame.player)
            if own is not None and own.zone is None:  # it stays: what its replacement names happens instead
                leaving.redirect(rec, i, own, by_effect=frame.card)
                staying.append(i)
                continue
            r = (own.zone, own.source) if own is not None and own.zone else leave_redirect(rec.state, i)
            if r is not None and r[0] != to:
                redirected.append((i, r))
        cards = [i for i in cards if i not in staying]
        if not cards:
            return
        for iid, (zone, source) in redirected:
            data = {"player": player, "cards": [iid], "to": zone, "from": src, "by_effect": frame.card}
            kept = {k: v for k, v in extra.items() if k == "as_cost"}
            rec.emit("CardsMoved", "rules", "effect.replace", {**data, **kept, "replaced_by": source})
            frame.notes["done"] = frame.notes.get("done", 0) + 1
        cards = [i for i in cards if i not in {r[0] for r in redirected}]
        if not cards:
            frame.notes["moved"] = [r[0] for r in redirected]
            return
    if src == "signi" and extra.get("as_cost"):  # its power as it leaves: "less power than the SIGNI put
        slots = [(i, sl) for i in cards if (sl := tg._slot(rec.state, i)) is not None]  # into the trash"
        frame.notes["moved_power"] = {i: facts.power(rec.state, sl) for i, sl in slots}
    data = {"player": player, "cards": cards, "to": to, "from": src, "by_effect": frame.card, **extra}
    rec.emit("CardsMoved", "rules", frame.rule, data)
    frame.notes["done"] = frame.notes.get("done", 0) + len(cards)
    if src == "signi" or _asks_moved(frame):
        frame.notes["moved"] = list(cards)


def _asks_moved(frame: Frame) -> bool:
    """Whether a step still to come asks whether the cards just moved fit a filter ("then, if it is X"): a
    move from a pile zone (the trash, the hand ...) is noted only then."""
    later = json.dumps([at.step for at in frame.queue])
    return '"moved_fits"' in later or '"moved_fit"' in later


@op("bounce")
def _bounce(rec: Recorder, frame: Frame, at: Pending, chosen: list[str]) -> bool:
    step = at.step
    for iid in live_targets(rec, frame, step, chosen):
        move_cards(rec, frame, rec.state.owners[iid], [iid], "hand")
    return True


@op("trash")
def _trash(rec: Recorder, frame: Frame, at: Pending, chosen: list[str]) -> bool:
    """Put the targets into their owner's trash; those taken from a zone other than the field (the ener zone,
    the hand) are noted together as ``trashed`` ("the cards put into the trash this way"), the SIGNI taken
    off the field together as ``moved`` ("one for each SIGNI put into the trash this way")."""
    step = at.step
    off_field: list[str] = []
    from_field: list[str] = []
    for iid in live_targets(rec, frame, step, chosen):
        src = zone_of(rec.state, iid)
        move_cards(rec, frame, rec.state.owners[iid], [iid], "trash", **_paid(step))
        (from_field if src == "signi" else off_field).append(iid)
    if len(from_field) > 1:  # each move noted its own card: the step's SIGNI are noted together
        frame.notes["moved"] = from_field
    if off_field and _reads_trashed(ability_at(rec.state.cards[frame.card], frame.ability)):
        frame.notes["trashed"] = off_field  # noted only for an ability that asks about them
    return True


def _reads_trashed(value: Any) -> bool:
    """Whether an ability (or a part of it) asks about the cards put into the trash this way (the measure
    ``colors`` of ``trashed``, or ``noted`` ``trashed``: how many)."""
    if isinstance(value, dict):
        colors, noted = value.get("colors"), value.get("noted")
        if isinstance(colors, dict) and colors.get("of") == "trashed":
            return True
        if isinstance(noted, dict) and noted.get("what") == "trashed":
            return True
        return any(_reads_trashed(v) for v in value.values())
    if isinstance(value, list):
        return any(_reads_trashed(v) for v in value)
    return False


@op("exclude")
def _exclude(rec: Recorder, frame: Frame, at: Pending, chosen: list[str]) -> bool:
    """Remove the targets from the game (the excluded zone): a SIGNI so removed leaves the field, and is not
    vanished."""
    step = at.step
    for iid in live_targets(rec, frame, step, chosen):
        move_cards(rec, frame, rec.state.owners[iid], [iid], "excluded")
    return True


@op("to_hand")
def _to_hand(rec: Recorder, frame: Frame, at: Pending, chosen: list[str]) -> bool:
    step = at.step
    cards = live_targets(rec, frame, step, chosen)
    if cards:
        move_cards(rec, frame, frame.player, cards, "hand")
    return True


@op("to_life_cloth")
def _to_life_cloth(rec: Recorder, frame: Frame, at: Pending, chosen: list[str]) -> bool:
    """Add the targets (cards of your ener zone, trash or hand) to the top of your Life Cloth, one by one (000
    'Life Cloth')."""
    cards = live_targets(rec, frame, at.step, chosen)
    if cards:
        move_cards(rec, frame, frame.player, cards, "life_cloth", top=True)
    return True


@op("to_ener")
def _to_ener(rec: Recorder, frame: Frame, at: Pending, chosen: list[str]) -> bool:
    """Put the targets into the Ener Zone: cards of your trash or hand into yours, a SIGNI on a field into
    its owner's (000 'Ener Zone': a card always goes to its owner's zone)."""
    cards = live_targets(rec, frame, at.step, chosen)
    s = rec.state
    for owner in sorted({s.owners[i] for i in cards}):
        mine = [i for i in cards if s.owners[i] == owner]
        if zone_of(s, mine[0]) == "signi":
            for iid in mine:  # each SIGNI leaves the field on its own (what it triggers names it)
                move_cards(rec, frame, owner, [iid], "ener", **_paid(at.step))
        else:
            move_cards(rec, frame, owner, mine, "ener", **_paid(at.step))
    return True


@op("to_deck")
def _to_deck(rec: Recorder, frame: Frame, at: Pending, chosen: list[str]) -> bool:
    """Shuffle the targets into their owner's deck (``bottom``: put them on the bottom of it, unshuffled;
    position ``top``: on top of it, unshuffled). Cards put on the top or the bottom together are ordered by
    their owner (000 'Deck': the order of a deck's cards is hidden and is not changed unless told)."""
    step = at.step
    s = rec.state
    cards = live_targets(rec, frame, step, chosen)
    top = bool(step.get("top")) or step.get("position") == "top"
    bottom = step.get("bottom") or step.get("position") == "bottom" or top
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
                prompt="these cards go on top of your deck: give them all, in order; the first one goes on "
                "the very top"
                if top
                else "these cards go to the bottom of your deck: give them all, in order; the last one "
                "goes to the very bottom",
            )
    for owner in sorted({s.owners[i] for i in cards}):
        mine = [i for i in cards if s.owners[i] == owner]
        if owner in orders.orders:
            mine = [i for i in orders.orders[owner] if i in mine]
        if top:  # on top, the first one given on the very top
            move_cards(rec, frame, owner, mine, "deck", top=True)
        else:
            move_cards(rec, frame, owner, mine, "deck")  # a card moved into the deck goes to its bottom
        if not bottom:
            shuffle_deck(rec, frame, owner)
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


@op("life_to_hand")
def _life_to_hand(rec: Recorder, frame: Frame, at: Pending, _t: list[str]) -> bool:
    """A player (``who``) adds the top N cards of their Life Cloth to their hand: the other player learns only
    how many (000 'Life Cloth')."""
    step = at.step
    p = who(frame, step)
    cards = list(rec.state.players[p].zones["life_cloth"][: int(step.get("n", 1))])
    if cards:
        move_cards(rec, frame, p, cards, "hand", from_hidden=True)
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


@op("swap_life_top")
def _swap_life_top(rec: Recorder, frame: Frame, at: Pending, _t: list[str]) -> bool:
    """The top card of a player's (``who``'s) Life Cloth and the top card of their deck change places; with
    either pile empty, nothing happens. Both moves are hidden: only the counts are told."""
    p = who(frame, at.step)
    zones = rec.state.players[p].zones
    if not zones["life_cloth"] or not zones["deck"]:
        return True
    life, top = zones["life_cloth"][0], zones["deck"][0]
    move_cards(rec, frame, p, [life], "deck", top=True, from_hidden=True)
    move_cards(rec, frame, p, [top], "life_cloth", top=True, from_hidden=True)
    return True


@op("ener_to_trash")
def _ener_to_trash(rec: Recorder, frame: Frame, at: Pending, _t: list[str]) -> bool:
    """A player chooses N cards of their own ener zone (all, when there are no more) and puts them into the
    trash: ``who`` is that player (``opponent``: the opponent chooses theirs); with ``per``, N for each of
    what the measure counts ("one for each card this effect put into your trash")."""
    step = at.step
    s = rec.state
    p = who(frame, step)
    ener = list(s.players[p].zones["ener"])
    n = min(count(frame, step, s), len(ener))
    if n == 0:
        return True
    prompt = f"choose {n} card(s) of your ener zone to put into the trash"
    cards = _n_of(rec, frame, at, p, ener, n, prompt)
    if cards is None:
        return False
    rec.emit(
        "CardsMoved",
        "rules",
        frame.rule,
        {"player": p, "cards": cards, "to": "trash", "from": "ener", "by_effect": frame.card},
    )
    return True


def _up_to(step: dict[str, Any]) -> str:
    n = int(step.get("n", 1))
    return "a card" if n == 1 else f"up to {n} cards"


@op("search")
def _search(rec: Recorder, frame: Frame, at: Pending, _t: list[str]) -> bool:
    """Search your deck for a card that fits the filter (or up to ``n`` of them), reveal it and add it to your
    hand (a search of a hidden zone may find nothing); then shuffle the deck."""
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
                max=min(int(step.get("n", 1)), len(fits)),
                choices=fits,
                private=True,
                prompt=f"search your deck for {_up_to(step)} {tg.filter_text(f)} to reveal and add to your "
                "hand",
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
    shuffle_deck(rec, frame, p)
    return True


@op("exclude_from_trash")
def _exclude_from_trash(rec: Recorder, frame: Frame, at: Pending, _t: list[str]) -> bool:
    """You choose N cards of your trash that fit the filter (``up_to``: up to N; fewer there: all of them) and
    remove them from the game; not targeted. The cards removed are noted (``moved``: "for each card removed
    this way")."""
    step, s, p = at.step, rec.state, frame.player
    f = step.get("filter", {})
    fits = [i for i in s.players[p].zones["trash"] if tg._card_fits(facts.card_of(s, i), f)]
    n = min(count(frame, step), len(fits))
    answer = taken(at)
    if answer is not None:
        cards = [i for i in answer["cards"] if i in fits]
    elif n == 0:
        cards = []
    elif n == len(fits) and not step.get("up_to"):
        cards = fits
    else:
        return ask_in_step(
            rec,
            frame,
            at,
            p,
            min=0 if step.get("up_to") else n,
            max=n,
            choices=fits,
            prompt=f"choose {'up to ' if step.get('up_to') else ''}{n} card(s) {tg.filter_text(f)} of your "
            "trash to remove from the game",
        )
    if cards:
        move_cards(rec, frame, p, cards, "excluded")
    frame.notes["moved"] = list(cards)
    return True


@op("life_to_trash")
def _life_to_trash(rec: Recorder, frame: Frame, at: Pending, _t: list[str]) -> bool:
    """Put the top N cards of your Life Cloth (``who: opponent``: the opponent's) into its owner's trash
    (fewer when fewer are left); the cards moved are noted (``moved``)."""
    step = at.step
    p = who(frame, step)
    cards = list(rec.state.players[p].zones["life_cloth"][: int(step.get("n", 1))])
    frame.notes["moved"] = cards
    frame.notes["done"] = frame.notes.get("done", 0) + len(cards)  # "if you do"
    if cards:
        rec.emit(
            "CardsMoved",
            "rules",
            frame.rule,
            {"player": p, "cards": cards, "to": "trash", "from": "life_cloth", "by_effect": frame.card},
        )
    return True
