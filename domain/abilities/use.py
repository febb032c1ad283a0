"""Using cards and abilities: spells, ARTS, PIECEs and [Action] abilities; costs; Life Bursts.

Declaring a use pays its cost at once (ener: the given cards or a canonical payment; down: the card is downed;
a discard, or other cards to pay with, is asked as a choice before the effect), then the effect resolves. A
spell waits in the check zone while it resolves, after the opponent has had the chance to cut in, and then
goes to the trash; an ARTS waits there while it resolves and then goes to the LRIG trash; a PIECE is removed
from the game after use. 1/Turn and 1/Game abilities are counted per
card.
"""

from __future__ import annotations

from typing import Any

from domain import costs, facts
from domain.abilities import effects
from domain.abilities import targets as tg
from domain.abilities.catalogue import FROM_ZONES, abilities_of, is_enforced
from domain.abilities.constants import action_cost_extra
from domain.abilities.measures import Ctx, bonus
from domain.abilities.triggers import abilities_gained, team_ok
from domain.actions import Action
from domain.cards import Card, CardType, CostItem
from domain.errors import IllegalAction
from domain.recorder import Recorder
from domain.state import GameState, opponent


def resolve_with_cost(
    rec: Recorder,
    card: str,
    player: str,
    index: int | str,
    ab: dict[str, Any],
    rule: str,
    optional: bool,
    vars: dict[str, Any] | None = None,
) -> None:
    """Resolve an ability whose cost (if any) is optional: the player may pay it or not; ``vars``: what its
    trigger noted (``was_in``: the zone a vanished SIGNI was in)."""
    cost = ab.get("cost")
    if cost and optional:
        pay: dict[str, Any] = {"op": "may_pay", "cost": cost, "then": ab.get("effect", []), "_cost": True}
        if effects.reads_payment(ab.get("effect", [])):
            pay["choose_payment"] = True  # the player chooses the ener cards: what follows looks at them
        ab = {**ab, "effect": [pay]}
    negation = effects.negation_step(rec.state, card, player, str(ab.get("kind")))  # as it activates
    if negation is not None:
        ab = {**ab, "effect": [negation, *ab.get("effect", [])]}
    effects.start(rec, card, player, index, ab, rule, vars=vars)


def _ener_items(cost: dict[str, Any]) -> tuple[CostItem, ...]:
    return tuple(CostItem(c["color"], int(c["n"])) for c in cost.get("ener", []))


def eased_costs(items: tuple[CostItem, ...]) -> list[tuple[CostItem, ...]]:
    """The ways to pay a cost with one of its coloured ener items paid as colorless instead: the cost itself
    first, then each coloured item in turn recoloured."""
    out = [items]
    for k, item in enumerate(items):
        if item.color == "colorless" or item.n < 1:
            continue
        rest = [*items[:k], *([CostItem(item.color, item.n - 1)] if item.n > 1 else []), *items[k + 1 :]]
        out.append((*rest, CostItem("colorless", 1)))
    return out


def _pay_ener(
    s: GameState, p: str, cost: dict[str, Any], pay: list[str] | None, what: str, eased: bool = False
) -> list[str]:
    from domain.answers import resolve_refs

    items = _ener_items(cost)
    if facts.ener_locked(s, p, sum(i.n for i in items)):
        raise IllegalAction("effect.ener-locked", f"an effect says {p} cannot pay ener costs this turn")
    ways = eased_costs(items) if eased else [items]
    if pay is None:
        ener = [(e, facts.ener_card(s, e)) for e in s.players[p].zones["ener"]]
        for way in ways:
            chosen = costs.choose_payment(way, ener)
            if chosen is not None:
                return chosen
        raise IllegalAction("cost.ener", f"{p}'s ener zone cannot pay the cost of {what}")
    paid = resolve_refs(s, p, pay, ["ener"])
    if not any(costs.can_pay_with(way, [facts.ener_card(s, i) for i in paid]) for way in ways):
        raise IllegalAction("cost.ener", f"those ener cards do not pay the cost of {what} exactly")
    return paid


def _once_key(iid: str, index: int | str) -> str:
    return f"{iid}/{index}"


def check_once(s: GameState, iid: str, index: int | str, ab: dict[str, Any], name: str) -> None:
    once = ab.get("once")
    used = s.used.get(_once_key(iid, index))
    if once == "turn" and used == s.turn:
        raise IllegalAction("ability.once", f"{name}'s ability is once per turn and was used this turn")
    if once == "game" and used is not None:
        raise IllegalAction("ability.once", f"{name}'s ability is once per game and was used")
    if once == "twice" and used == s.turn and s.used.get(_once_key(iid, index) + "#2") == s.turn:
        raise IllegalAction("ability.once", f"{name}'s ability is twice per turn and was used twice")


def _timing(s: GameState) -> str:
    """The use timing the pending decision stands for: ``main``, ``spell_cut_in``, ``piece_cut_in`` (the
    window a card's own text opens just after the opponent uses a PIECE, rule ``piece.cut-in``) or
    ``attack``."""
    pending = s.pending or {}
    kind = pending.get("kind")
    if kind == "spell_cut_in" and "piece" in (pending.get("resume") or {}):
        return "piece_cut_in"
    return {"main": "main", "spell_cut_in": "spell_cut_in"}.get(str(kind), "attack")


def _find_ability(
    s: GameState, iid: str, act: Action, kinds: tuple[str, ...]
) -> tuple[int | str, dict[str, Any]]:
    """The ability the action names (its number, or a gained ability's reference), among the card's own of
    those kinds and, for an [Action], those it gained until end of turn (000 '[Action]': an ability a card
    gained is used like its own)."""
    card_id = s.cards[iid]
    name = facts.catalogue().get(card_id).name
    zone = used_from(s, iid)
    options: list[tuple[int | str, dict[str, Any]]] = [
        (i, ab)
        for i, ab in enumerate(abilities_of(card_id))
        if ab["kind"] in kinds and (ab["kind"] != "action" or ab.get("from") == zone)
    ]
    if "action" in kinds:
        options += [(ref, ab) for ref, ab in abilities_gained(s, iid) if ab["kind"] == "action"]
    if not options:
        if not is_enforced(card_id):
            raise IllegalAction(
                "judge.unenforced",
                f"{name}'s abilities are not enforced by the service: a judge "
                "resolves them with an 'adjust' action",
            )
        raise IllegalAction("decision.invalid", f"{name} has no ability of that kind")
    wanted = act.get("ability")
    if wanted is None:
        return options[0]
    for i, ab in options:  # numbered from 1 in the card's order of abilities, as the legal actions send them
        names = (i,) if isinstance(i, str) else (str(i + 1), i + 1, ab.get("id"))
        if wanted in names:
            return i, ab
    numbers = ", ".join(str(i + 1) if isinstance(i, int) else repr(i) for i, _ab in options)
    raise IllegalAction(
        "decision.invalid",
        f"{name} has no ability {wanted!r} of that kind: its abilities are numbered from 1 in the card's "
        f"order; this one may use {numbers}",
    )


def use_ability(rec: Recorder, act: Action) -> None:
    s, p = rec.state, act.player or ""
    iid = _on_field(s, p, act.get("card"))
    index, ab = _find_ability(s, iid, act, ("action",))
    name = facts.card_of(s, iid).name
    timing = _timing(s)
    if timing not in ab.get("timing", ["main"]):
        raise IllegalAction(
            "use.timing",
            f"{name}'s ability is used in the {'/'.join(ab.get('timing', ['main']))} phase, not now",
        )
    if timing == "main" and s.turn_player != p:
        raise IllegalAction("use.timing", "[Action] abilities are used in your own main phase")
    check_once(s, iid, index, ab, name)
    if tg.lost(s, iid):
        raise IllegalAction("effect.lose-abilities", f"{name} lost its abilities this turn")
    if ab.get("team") and not team_ok(s, p, s.cards[iid], ab["team"]):
        raise IllegalAction("ability.action", f"{name}'s Team ability needs your three LRIGs of its team")
    if not tg.holds(s, p, iid, ab.get("condition")):
        raise IllegalAction("ability.action", f"the condition of {name}'s ability does not hold")
    cost = ab.get("cost", {})
    extra = action_cost_extra(s, p, iid)  # a constant may make it cost more ener
    if extra:
        cost = {**cost, "ener": [*cost.get("ener", []), *extra]}
    slot = tg._slot(s, iid)
    if cost.get("down") and (slot is None or slot.downed):
        raise IllegalAction("ability.action", f"{name} must be upped to be downed for the cost")
    if effects.cost_steps(s, p, iid, p, cost) is None:
        raise IllegalAction("ability.action", f"{name}'s cost cannot be paid: {effects.describe_cost(cost)}")
    paid = _pay_ener(s, p, cost, act.get("pay"), name)
    rec.emit(
        "AbilityUsed",
        p,
        "ability.action",
        {
            "player": p,
            "card": iid,
            "ability": index,
            "once": ab.get("once"),
            "ener": paid,
            "down": bool(cost.get("down")),
        },
    )
    _start_paid(rec, iid, p, index, ab, "ability.action", act)


def _start_paid(
    rec: Recorder,
    iid: str,
    p: str,
    index: int | str,
    ab: dict[str, Any],
    rule: str,
    act: Action,
    vars: dict[str, Any] | None = None,
) -> None:
    paying = effects.cost_steps(rec.state, p, iid, p, ab.get("cost", {}), as_cost=True) or []
    negation = (
        effects.negation_step(rec.state, iid, p, str(ab.get("kind"))) if rule == "ability.action" else None
    )
    paying += [negation] if negation is not None else []  # once its cost is paid, it activates
    effect = [*paying, *ab.get("effect", [])]  # discards and the like are paid before the effect
    modes = act.get("modes")
    effects.start(
        rec,
        iid,
        p,
        index,
        {**ab, "effect": effect},
        rule,
        modes=[int(m) for m in modes] if modes else None,
        vars=vars,
    )


def _on_field(s: GameState, p: str, ref: str) -> str:
    ps = s.players[p]
    for slot in [*ps.signi.values(), *ps.lrig.values()]:
        if slot is not None and ref in (slot.iid, s.cards[slot.iid]):
            return slot.iid
    for iid in ps.zones["hand"]:  # an [Action] used from the hand, paid by discarding its card
        if ref in (iid, s.cards[iid]) and from_hand(s.cards[iid]):
            return iid
    for zone in FROM_ZONES:  # an [Action] used from the trash or the ener zone
        for iid in ps.zones[zone]:
            if ref in (iid, s.cards[iid]) and from_zone(s.cards[iid], zone):
                return iid
    raise IllegalAction("decision.invalid", f"{p} has no {ref} on the field")


def from_zone(card_id: str, zone: str) -> bool:
    """Whether the card has an [Action] ability used while it lies in that zone (``from``: trash, ener)."""
    return any(ab["kind"] == "action" and ab.get("from") == zone for ab in abilities_of(card_id))


def used_from(s: GameState, iid: str) -> str | None:
    """The zone of its owner (trash, ener) an [Action] ability of the card is used from now; None on the
    field or in the hand."""
    owner = s.owners.get(iid)
    if owner is None:
        return None
    return next((z for z in FROM_ZONES if iid in s.players[owner].zones[z]), None)


def from_hand(card_id: str) -> bool:
    """Whether the card has an [Action] ability used from the hand (its cost discards the card)."""
    return any(
        ab["kind"] == "action" and ab.get("cost", {}).get("self_to") == "discard"
        for ab in abilities_of(card_id)
    )


def _spell_named(s: GameState, p: str, act: Action) -> tuple[str, str | None]:
    """The spell the action uses: from the hand; or, answering an effect that lets its player use a spell
    now (decision ``effect_spell``), that card, wherever it waits (the opponent's trash); with the card
    whose effect let it be used."""
    from domain.answers import resolve_ref

    pending = s.pending or {}
    if pending.get("kind") != "effect_spell":
        return resolve_ref(s, p, act.get("card"), ["hand"]), None
    iid = str(pending["card"])
    if act.get("card") not in (iid, s.cards[iid]):
        raise IllegalAction("decision.invalid", f"the effect lets {p} use {s.cards[iid]} only")
    return iid, str(pending.get("by_effect") or "")


def use_spell(rec: Recorder, act: Action) -> None:
    s, p = rec.state, act.player or ""
    iid, by_effect = _spell_named(s, p, act)
    card = facts.card_of(s, iid)
    if card.type != CardType.SPELL:
        raise IllegalAction("spell.use", f"{card.name} is not a spell")
    index, ab = _find_ability(s, iid, act, ("spell",))
    timing = _timing(s)
    if by_effect is None and (
        timing not in (ab.get("timing") or list(card.timings) or ["main"])
        or (s.turn_player != p and timing == "main")
    ):
        raise IllegalAction("use.timing", f"{card.name} cannot be used now")
    _limiting(s, p, card)
    if not tg.holds(s, p, iid, ab.get("use_condition")):  # "can only be used if ..."
        raise IllegalAction("spell.use", f"the use condition of {card.name} does not hold")
    if p in s.flags.get("no_spells", ()):
        raise IllegalAction("effect.no-spells", f"an effect says {p} cannot use spells this turn")
    from domain.abilities.constants import spell_banned

    if spell_banned(s, iid):
        raise IllegalAction("effect.no-spells", f"a constant ability says no player can use {card.name}")
    under = _extra_cost(s, p, ab, act, card.name)
    from domain.abilities.constants import spell_cost_extra, spell_cost_less

    extra = spell_cost_extra(s, p)  # constants of the opponent's cards that make spells cost more
    printed = spell_cost_less(s, p, iid, card.cost)  # constants of the player's own that make it cost less
    cost = {"ener": [{"color": c.color, "n": c.n} for c in printed] + extra}
    eased = p in s.flags.get("spell_eased", ())  # this turn's next spell: one ener item may be colorless
    paid = _pay_ener(s, p, cost, act.get("pay"), card.name, eased)
    data: dict[str, Any] = {"player": p, "card": iid, "ener": paid}
    if extra:
        data["cost_increased"] = extra
    if under is not None:
        data["extra_cost"] = True
    if by_effect is not None:  # used by an effect: removed from the game as it leaves the check zone
        data["by_effect"], data["excluded_after"] = by_effect, True
    rec.emit("SpellUsed", p, "spell.use", data)
    resume = {"spell": iid, "player": p, "ability": index, "modes": act.get("modes")}
    if under is not None:
        _pay_extra(rec, p, iid, ab, under)
        resume["extra_paid"] = True
    rec.ask(opponent(p), "spell_cut_in", "spell.cut-in", card=iid, resume=resume)


def _extra_cost(s: GameState, p: str, ab: dict[str, Any], act: Action, name: str) -> list[str] | None:
    """The extra cost (a Bet, an optional Exceed) the player chose to pay as the card is used (action field
    ``extra``), checked: None when not chosen; else the cards from under the LRIGs it puts into the LRIG trash
    (those named in ``exceed``, or the first ones)."""
    if not act.get("extra"):
        if act.get("exceed"):
            raise IllegalAction("effect.extra-cost", "cards to exceed are named only with 'extra': true")
        return None
    extra = ab.get("extra_cost")
    if not extra:
        raise IllegalAction("effect.extra-cost", f"{name} has no extra cost to pay")
    if act.get("exceed") and not extra.get("exceed"):
        raise IllegalAction("effect.extra-cost", f"the extra cost of {name} is no Exceed")
    if s.players[p].coins < int(extra.get("coins", 0)):
        raise IllegalAction("effect.coins", f"{p} holds fewer coins than the extra cost of {name}")
    n = int(extra.get("exceed", 0))
    under = effects.under_lrigs(s, p)
    if len(under) < n:
        raise IllegalAction("effect.exceed", f"{p} has fewer than {n} cards under their LRIGs for {name}")
    given = act.get("exceed")
    if not given:
        return under[:n]
    chosen: list[str] = []
    for ref in given:  # a catalogue id names the first copy not yet named
        chosen.append(next((u for u in under if ref in (u, s.cards[u]) and u not in chosen), ""))
    if len(chosen) != n or "" in chosen:
        raise IllegalAction("effect.exceed", f"name {n} different cards from under your LRIGs to exceed")
    return chosen


def _pay_extra(rec: Recorder, p: str, iid: str, ab: dict[str, Any], under: list[str]) -> None:
    extra = ab["extra_cost"]
    if extra.get("coins"):
        rec.emit("CoinsPaid", p, "effect.coins", {"player": p, "count": int(extra["coins"]), "for": iid})
    if under:
        effects.exceed_cards(rec, "effect.exceed", p, under, iid)


def spell_resolves(rec: Recorder, resume: dict[str, Any]) -> None:
    """After the cut-in window: the spell's effect, then the spell goes to the trash."""
    iid, p, index = resume["spell"], resume["player"], resume["ability"]
    ab = abilities_of(rec.state.cards[iid])[index]
    effect = [*ab.get("effect", []), {"op": "then"}]
    modes = resume.get("modes")
    effects.start(
        rec,
        iid,
        p,
        index,
        {**ab, "effect": effect},
        "spell.use",
        modes=[int(m) for m in modes] if modes else None,
        vars={"extra_paid": bool(resume.get("extra_paid"))},
    )


def piece_resolves(rec: Recorder, resume: dict[str, Any]) -> None:
    """After the cut-in window a PIECE opened (rule ``piece.cut-in``): the PIECE's effect, then it is
    removed from the game as a used PIECE is."""
    iid, p, index = resume["piece"], resume["player"], resume["ability"]
    ab = abilities_of(rec.state.cards[iid])[index]
    paying = effects.cost_steps(rec.state, p, iid, p, ab.get("cost", {}), as_cost=True) or []
    modes = resume.get("modes")
    effects.start(
        rec,
        iid,
        p,
        index,
        {**ab, "effect": [*paying, *ab.get("effect", [])]},
        "piece.use",
        modes=[int(m) for m in modes] if modes else None,
        vars={"extra_paid": bool(resume.get("extra_paid"))},
    )


def cut_in_passed(rec: Recorder, resume: dict[str, Any]) -> None:
    """The opponent did not cut in: the spell (or the PIECE) answered resolves."""
    if "piece" in resume:
        piece_resolves(rec, resume)
    else:
        spell_resolves(rec, resume)


def after_cut_in(rec: Recorder) -> None:
    """The card that cut in to a spell has resolved: the spell resolves now, unless an effect countered it;
    then it goes to the trash without its effect (000 "Use timing: Spell Cut-in"). So does a PIECE a card
    cut in to (rule ``piece.cut-in``): countered, it is removed from the game without its effect."""
    resume = dict(rec.state.flags["cut_in"])
    piece = "piece" in resume
    card = resume["piece"] if piece else resume["spell"]
    countered = card in rec.state.flags.get("countered", ())
    data: dict[str, Any] = {"player": resume["player"], "countered": countered}
    data["piece" if piece else "spell"] = card
    if countered:
        data["put"] = "excluded" if piece or card in rec.state.flags.get("exclude_leaving", ()) else "trash"
    rec.emit("CutInResolved", "rules", "piece.cut-in" if piece else "spell.cut-in", data)
    if not countered:
        cut_in_passed(rec, resume)


def _answering_piece(s: GameState, p: str, iid: str, ab: dict[str, Any], timing: str) -> bool:
    """Whether the PIECE may be used now: at one of its timings, or as a cut-in to the opponent's PIECE that
    its ``cut_in_piece`` filter names (rule ``piece.cut-in``)."""
    card = facts.card_of(s, iid)
    if timing != "piece_cut_in":
        return timing in (list(card.timings) or ["main"])
    answered = ((s.pending or {}).get("resume") or {}).get("piece")
    wanted = ab.get("cut_in_piece")
    return (
        wanted is not None
        and answered is not None
        and s.owners.get(answered) != p
        and tg.card_fits(facts.card_of(s, answered), wanted)
    )


def _cut_in_possible(s: GameState, p: str, piece: str) -> bool:
    """Whether the opponent of ``p`` holds a PIECE that could be used as a cut-in to ``piece`` now (rule
    ``piece.cut-in``): in their LRIG deck, with three LRIGs on their field, its use condition holding, its
    ``cut_in_piece`` filter fitting the PIECE. Only then is the window opened: no other card answers a
    PIECE (000 "Use timing: Spell Cut-in")."""
    o = opponent(p)
    if sum(1 for sl in s.players[o].lrig.values() if sl is not None) < 3:
        return False
    used = facts.card_of(s, piece)
    for iid in s.players[o].zones["lrig_deck"]:
        for ab in abilities_of(s.cards[iid]):
            wanted = ab.get("cut_in_piece") if ab["kind"] == "piece" else None
            if wanted is None or not tg.card_fits(used, wanted):
                continue
            if tg.holds(s, o, iid, ab.get("use_condition")):
                return True
    return False


def piece_cost(s: GameState, p: str, iid: str, ab: dict[str, Any]) -> list[dict[str, Any]]:
    """A PIECE's use cost: as printed, less what its ``cost_less`` takes off while its condition holds
    ("while two or more white LRIGs are on your field, it costs one white less for each", rule
    piece.cost-less); a colour's part never goes below nothing."""
    printed = [(c.color, c.n) for c in facts.card_of(s, iid).cost]
    less = ab.get("cost_less")
    cut = bonus(Ctx(s, p, iid, {}), 1, less["per"]) if less and tg.holds(s, p, iid, less["while"]) else 0
    items: list[dict[str, Any]] = []
    for color, n in printed:
        off = min(cut, n) if less and color == less["color"] else 0
        cut -= off
        if n - off > 0:
            items.append({"color": color, "n": n - off})
    return items


def use_piece(rec: Recorder, act: Action) -> None:
    from domain.answers import resolve_ref

    s, p = rec.state, act.player or ""
    iid = resolve_ref(s, p, act.get("card"), ["lrig_deck"])
    card = facts.card_of(s, iid)
    if not card.is_piece:
        raise IllegalAction("piece.use", f"{card.name} is not a PIECE")
    index, ab = _find_ability(s, iid, act, ("piece",))
    timing = _timing(s)
    if not _answering_piece(s, p, iid, ab, timing):
        raise IllegalAction("use.timing", f"{card.name} cannot be used now")
    if sum(1 for sl in s.players[p].lrig.values() if sl is not None) < 3:
        raise IllegalAction("piece.use", "a PIECE is used only with three LRIGs on your field")
    if not tg.holds(s, p, iid, ab.get("use_condition")):
        raise IllegalAction("piece.use", f"the use condition of {card.name} does not hold")
    check_once(s, iid, index, ab, card.name)
    under = _extra_cost(s, p, ab, act, card.name)
    paid = _pay_ener(s, p, {"ener": piece_cost(s, p, iid, ab)}, act.get("pay"), card.name)
    data: dict[str, Any] = {"player": p, "card": iid, "ener": paid}
    if under is not None:
        data["extra_cost"] = True
    if timing == "spell_cut_in":  # the spell answered waits until this card has resolved
        resume = dict((s.pending or {})["resume"])
        cut_in = {"player": p, "card": iid, "spell": resume["spell"], "resume": resume}
        rec.emit("CutInDeclared", p, "spell.cut-in", cut_in)
    if timing == "piece_cut_in":  # so does the PIECE answered (rule piece.cut-in)
        resume = dict((s.pending or {})["resume"])
        cut_in = {"player": p, "card": iid, "piece": resume["piece"], "resume": resume}
        rec.emit("CutInDeclared", p, "piece.cut-in", cut_in)
    rec.emit("PieceUsed", p, "piece.use", data)
    if under is not None:
        _pay_extra(rec, p, iid, ab, under)
    if not timing.endswith("cut_in") and _cut_in_possible(rec.state, p, iid):
        resume = {"piece": iid, "player": p, "ability": index, "modes": act.get("modes")}
        if under is not None:
            resume["extra_paid"] = True
        rec.ask(opponent(p), "spell_cut_in", "piece.cut-in", card=iid, resume=resume)
        return
    _start_paid(rec, iid, p, index, ab, "piece.use", act, {"extra_paid": under is not None})


def use_arts(rec: Recorder, act: Action) -> None:
    """Use an ARTS from the LRIG deck (002 "Main Phase": ARTS with Use Timing [Main Phase] in your main phase;
    002 "ARTS Use Step": those with [Attack Phase] in that step, the turn player's first, then the other
    player's; in Diva Selection the pre-attack and defense steps, 000 "Use timing"). Its effect is encoded
    as a ``spell`` ability (an ARTS with none encoded is refused with ``judge.unenforced``); the ARTS waits
    in the check zone while it resolves, then goes to the LRIG trash."""
    from domain.answers import resolve_ref

    s, p = rec.state, act.player or ""
    iid = resolve_ref(s, p, act.get("card"), ["lrig_deck"])
    card = facts.card_of(s, iid)
    if card.type != CardType.ARTS:
        raise IllegalAction("arts.use", f"{card.name} is not an ARTS")
    index, ab = _find_ability(s, iid, act, ("spell",))
    timing = _timing(s)
    timings = ab.get("timing") or list(card.timings) or ["main"]
    if timing not in timings or (timing == "main" and s.turn_player != p):
        raise IllegalAction(
            "use.timing",
            f"{card.name} is used at {'/'.join(timings)} timing ({'; '.join(ARTS_TIMINGS)}), not now",
        )
    _limiting(s, p, card)
    check_once(s, iid, index, ab, card.name)
    paid = _pay_ener(
        s, p, {"ener": [{"color": c.color, "n": c.n} for c in card.cost]}, act.get("pay"), card.name
    )
    rec.emit("ArtsUsed", p, "arts.use", {"player": p, "card": iid, "ener": paid})
    _start_paid(rec, iid, p, index, ab, "arts.use", act)


def _limiting(s: GameState, p: str, card: Card) -> None:
    """A spell or ARTS printed with a limiting condition ("Tama only") is used only while the center LRIG is
    of that LRIG type (001 and 004 "Parts of a Card": Limiting Condition)."""
    if not facts.limiting_ok(s, p, card):
        raise IllegalAction(
            "use.limiting",
            f"{card.name} is limited to {'/'.join(card.limiting)}; {p}'s center LRIG is not of that type",
        )


# what each use timing of an ARTS means (for refusals): 002 "Main Phase" and "ARTS Use Step"
ARTS_TIMINGS = (
    "main: your main phase",
    "attack: the attack phase's ARTS use step, or the pre-attack or defense step",
)


def life_burst(rec: Recorder, iid: str, player: str) -> bool:
    """Resolve an encoded Life Burst (its own, or the one a constant ability gives a card without one);
    False when the card's Life Burst is not encoded."""
    from domain.abilities.constants import given_life_burst

    for index, ab in enumerate(abilities_of(rec.state.cards[iid])):
        if ab["kind"] == "life_burst":
            resolve_with_cost(rec, iid, player, index, ab, "life-burst.use", optional=False)
            return True
    given = given_life_burst(rec.state, iid)
    if given is not None:
        resolve_with_cost(rec, iid, player, given[0], given[1], "life-burst.use", optional=False)
        return True
    return False
