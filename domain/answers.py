"""The answers to each kind of decision: checks that cite rules, then the events they produce.

``handler(kind, action_type)`` finds the function for an answer; ``refuse_out_of_turn`` explains, with the
most specific rule, why an action does not answer the decision that is pending.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import combinations
from typing import Any

from domain import coins, costs, facts
from domain.abilities import effects, is_enforced, leaving, use
from domain.abilities.catalogue import rise_filter, rise_from
from domain.abilities.constants import given_life_burst, grow_cost, leave_redirect
from domain.abilities.effects import describe_cost, ener_payment
from domain.abilities.filters import card_fits
from domain.abilities.frames import load as load_frame
from domain.abilities.targets import slot_fits
from domain.abilities.triggers import activate
from domain.actions import Action
from domain.cards import Card, CardType, CostItem
from domain.combat import lrig_attack_refusal, replace_damage
from domain.errors import IllegalAction
from domain.formats import format_of
from domain.kinds import describe_pending
from domain.original import ARTS_STEP
from domain.recorder import Recorder
from domain.state import SIGNI_ZONES, GameState, opponent

Handler = Callable[[Recorder, Action], None]
_TABLE: dict[tuple[str, str], Handler] = {}


def answers(kind: str, *types: str) -> Callable[[Handler], Handler]:
    def register(fn: Handler) -> Handler:
        for t in types:
            _TABLE[(kind, t)] = fn
        return fn

    return register


def handler(kind: str, action_type: str) -> Handler | None:
    return _TABLE.get((kind, action_type))


# -- finding the cards an action names --------------------------------------------------------------


def resolve_ref(s: GameState, player: str, ref: str, zones: Sequence[str], taken: Sequence[str] = ()) -> str:
    """An instance id, or a catalogue id resolved to the first such card (not already taken) in ``zones``."""
    ps = s.players[player]
    if ref not in s.owners and ref in facts.catalogue():
        ref = facts.catalogue().canonical(ref)
    if ref in s.owners:
        if s.owners[ref] == player and any(ref in ps.zones[z] for z in zones) and ref not in taken:
            return ref
        raise IllegalAction("decision.invalid", f"card {ref} is not in {player}'s {_zones_text(zones)}")
    for z in zones:
        for iid in ps.zones[z]:
            if s.cards[iid] == ref and iid not in taken:
                return iid
    raise IllegalAction("decision.invalid", f"there is no {ref} in {player}'s {_zones_text(zones)}")


def resolve_refs(s: GameState, player: str, refs: Sequence[str], zones: Sequence[str]) -> list[str]:
    out: list[str] = []
    for ref in refs:
        iid = resolve_ref(s, player, ref, zones, out)
        if iid in out:
            raise IllegalAction("decision.invalid", f"card {ref} is named twice")
        out.append(iid)
    return out


def _zones_text(zones: Sequence[str]) -> str:
    return " or ".join(z.replace("_", " ") for z in zones)


def _field_signi(s: GameState, player: str, ref: str) -> tuple[str, str]:
    """(zone, iid) of one of the player's SIGNI on the field, named by instance or catalogue id."""
    for zone, slot in s.players[player].signi_slots():
        if ref in (slot.iid, s.cards[slot.iid]):
            return zone, slot.iid
    raise IllegalAction("decision.invalid", f"{player} has no SIGNI {ref} on the field")


def option_counts(pending: dict[str, Any]) -> tuple[int, int]:
    """How many options an answer names: exactly ``max`` (at least one), or, when the question asks for
    between ``min`` (one or more) and a ``max`` above it, any number in between ("choose up to two modes")."""
    hi = max(int(pending.get("max", 1)), 1)
    lo = int(pending.get("min", hi))
    return (lo, hi) if 1 <= lo < hi else (hi, hi)


# -- set-up ---------------------------------------------------------------------------------------


@answers("mulligan", "mulligan")
def mulligan(rec: Recorder, act: Action) -> None:
    cards = resolve_refs(rec.state, act.player or "", act.get("cards"), ["hand"])
    rec.emit("MulliganDeclared", act.player or "", "setup.mulligan", {"player": act.player, "cards": cards})


# -- ener phase -----------------------------------------------------------------------------------


@answers("ener", "ener_charge")
def ener_charge(rec: Recorder, act: Action) -> None:
    s, p = rec.state, act.player or ""
    src = act.get("from")
    ref = act.get("card")
    iid: str | None = None
    if src in (None, "hand"):
        try:
            iid, src = resolve_ref(s, p, ref, ["hand"]), "hand"
        except IllegalAction:
            if src == "hand":
                raise
    if iid is None:
        try:
            _zone, iid = _field_signi(s, p, ref)
        except IllegalAction:
            raise IllegalAction(
                "decision.invalid", f"{p} has no card {ref} in hand or SIGNI {ref} on the field"
            ) from None
        src = "field"
        redirect = leave_redirect(s, iid)
        if redirect is not None:  # a replacement constant sends the SIGNI leaving the field elsewhere
            data = {"player": p, "cards": [iid], "to": redirect[0], "from": "signi"}
            rec.emit("CardsMoved", p, "effect.replace", {**data, "replaced_by": redirect[1]})
            return
        leaving.leave_or_ask(rec, "EnerCharged", p, "ener.charge", {"player": p, "card": iid, "from": src})
        return  # its own replacement may send it elsewhere, its player asked first
    rec.emit("EnerCharged", p, "ener.charge", {"player": p, "card": iid, "from": src})


@answers("ener", "pass")
@answers("grow", "pass")
@answers("main", "pass")
@answers("pre_attack", "pass")
@answers("defense", "pass")
@answers("signi_attack", "pass")
@answers("lrig_attack", "pass")
@answers("guard", "pass")
def pass_(rec: Recorder, act: Action) -> None:
    kind = rec.state.pending["kind"]  # type: ignore[index]
    rule = {
        "ener": "ener.phase",
        "grow": "grow.phase",
        "main": "main.phase",
        "pre_attack": "attack.pre-attack",
        "defense": "attack.defense",
        "signi_attack": "attack.signi",
        "lrig_attack": "attack.lrig",
        "guard": "guard.step",
    }[kind]
    must = facts.must_attack(rec.state, act.player or "") if kind == "signi_attack" else []
    if must:
        raise IllegalAction("effect.must-attack", _must_text(must))
    rec.emit("Passed", act.player or "", rule, {"player": act.player, "kind": kind})


# -- grow -----------------------------------------------------------------------------------------


def check_grow(s: GameState, p: str, iid: str, position: str) -> tuple[Card, list[str] | None]:
    """The checks shared by growing the center (grow phase) and an assist (at its use timing)."""
    new = facts.card_of(s, iid)
    current = s.players[p].lrig[position]
    if position == "center":
        if new.type != CardType.LRIG:
            raise IllegalAction("grow.center", f"{new.name} is not an LRIG the center can grow into")
    elif new.type != CardType.ASSIST_LRIG:
        raise IllegalAction(
            "grow.assist", f"{new.name} is not an assist LRIG: only assist LRIGs grow an assist"
        )
    if current is None:
        raise IllegalAction("grow.level", f"there is no LRIG in {p}'s {position} LRIG zone to grow")
    old = facts.card_of(s, current.iid)
    refusal = format_of(s).grow_level_refusal(old, new)  # 001 / 002 "Grow Phase" (domain.formats)
    if refusal is not None:
        raise IllegalAction("grow.level", refusal)
    if position != "center" and (new.level or 0) > facts.center_level(s, p):
        raise IllegalAction(
            "grow.assist",
            f"an assist LRIG cannot grow above the center LRIG's level ({facts.center_level(s, p)})",
        )
    if not set(new.lrig_types) & set(old.lrig_types):
        raise IllegalAction(
            "grow.type",
            f"{new.name} ({'/'.join(new.lrig_types) or 'no type'}) shares no LRIG type with "
            f"{old.name} ({'/'.join(old.lrig_types) or 'no type'})",
        )
    bad = costs.unsupported(new.grow_cost)
    if bad:
        raise IllegalAction(
            "judge.unenforced", f"the grow cost of {new.name} ({', '.join(bad)}) is not enforced"
        )
    if facts.ener_locked(s, p, sum(c.n for c in new.grow_cost)):
        raise IllegalAction("effect.ener-locked", f"an effect says {p} cannot pay ener costs this turn")
    ener = [(e, facts.ener_card(s, e)) for e in s.players[p].zones["ener"]]
    return new, costs.choose_payment(grow_cost(s, p, new.grow_cost), ener)


def _pay(
    s: GameState, p: str, new: Card, pay: list[str] | None, auto: list[str] | None, rule: str
) -> list[str]:
    if pay is None:
        if auto is None:
            raise IllegalAction(
                rule, f"{p}'s ener zone cannot pay the cost of {new.name} ({_cost_text(s, p, new)})"
            )
        return auto
    paid = resolve_refs(s, p, pay, ["ener"])
    if not costs.can_pay_with(grow_cost(s, p, new.grow_cost), [facts.ener_card(s, i) for i in paid]):
        raise IllegalAction(
            [rule, "cost.ener"], f"those ener cards do not pay {_cost_text(s, p, new)} exactly"
        )
    return paid


def _cost_text(s: GameState, p: str, card: Card) -> str:
    parts = [f"{c.n} {c.color}" for c in grow_cost(s, p, card.grow_cost) if c.n]
    return ", ".join(parts) or "nothing"


@answers("grow", "grow")
def grow(rec: Recorder, act: Action) -> None:
    s, p = rec.state, act.player or ""
    iid = resolve_ref(s, p, act.get("card"), ["lrig_deck"])
    new, auto = check_grow(s, p, iid, "center")
    paid = _pay(s, p, new, act.get("pay"), auto, "grow.cost")
    data = {"player": p, "card": iid, "position": "center", "paid": paid}
    rec.emit("LrigGrew", p, "grow.phase", data)
    coins.gain_printed(rec, p, new.coin)  # the coins printed on the LRIG grown into


@answers("main", "grow_assist")
@answers("pre_attack", "grow_assist")
@answers("defense", "grow_assist")
def grow_assist(rec: Recorder, act: Action) -> None:
    s, p = rec.state, act.player or ""
    iid = resolve_ref(s, p, act.get("card"), ["lrig_deck"])
    new, auto = check_grow(s, p, iid, act.get("position"))
    timing = "main" if s.pending["kind"] == "main" else "attack"  # type: ignore[index]
    if timing not in new.timings:
        when = " or ".join(new.timings) or "no"
        raise IllegalAction(
            "use.timing", f"{new.name} grows at its use timing ({when} phase), not in the {timing} phase"
        )
    paid = _pay(s, p, new, act.get("pay"), auto, "grow.cost")
    rec.emit(
        "LrigGrew",
        p,
        "grow.assist",
        {"player": p, "card": iid, "position": act.get("position"), "paid": paid},
    )
    coins.gain_printed(rec, p, new.coin)  # the coins printed on the LRIG grown into


# -- main phase -----------------------------------------------------------------------------------


def rise_cards(s: GameState, p: str, iid: str) -> tuple[list[str], int] | None:
    """For a SIGNI whose Rise puts cards of the trash under it: the cards of the trash that fit, and how many
    go under it; None for any other SIGNI."""
    found = rise_from(s.cards[iid])
    if found is None:
        return None
    zone, n, f = found
    fits = [c for c in s.players[p].zones[zone] if c != iid and card_fits(facts.card_of(s, c), f)]
    return fits, n


def check_play(s: GameState, p: str, iid: str, zone: str, under: list[str] | None = None) -> None:
    """Whether the SIGNI may be played into that zone (``under``: the cards a Rise from the trash puts under
    it; None: only whether enough fit), or put there by an effect. An opponent's SIGNI may say the SIGNI must
    go in front of it when it can (rule effect.place-front)."""
    _check_play_here(s, p, iid, zone, under)
    from domain.abilities.constants import placed_in_front

    fronts = [z for z in placed_in_front(s, p) if _may_play_here(s, p, iid, z)]
    if fronts and zone not in fronts:
        raise IllegalAction(
            "effect.place-front",
            f"an opponent's SIGNI says {p}'s SIGNI go in front of it when they can: "
            f"the {' or '.join(fronts)} zone",
        )


def _may_play_here(s: GameState, p: str, iid: str, zone: str) -> bool:
    try:
        _check_play_here(s, p, iid, zone)
    except IllegalAction:
        return False
    return True


def _check_play_here(s: GameState, p: str, iid: str, zone: str, under: list[str] | None = None) -> None:
    card = facts.printed(s, iid)  # as it will be on the field: a level changed in the trash is not kept
    if card.type != CardType.SIGNI:
        raise IllegalAction("main.play-signi", f"{card.name} is not a SIGNI")
    from_trash = rise_cards(s, p, iid)
    if from_trash is not None:
        fits, n = from_trash
        if len(fits) < n or (under is not None and (len(set(under)) != n or not set(under) <= set(fits))):
            raise IllegalAction(
                "kw.rise",
                f"{card.name} has Rise: it goes onto the field with {n} cards of "
                "the trash that fit put under it (under)",
            )
    rise = rise_filter(card.id) if from_trash is None else None  # Rise: only on top of a SIGNI that fits
    below = s.players[p].signi[zone]
    if rise is not None and (below is None or not slot_fits(s, below, zone, rise)):
        raise IllegalAction("kw.rise", f"{card.name} has Rise: it goes only on top of a SIGNI that fits")
    if rise is None and below is not None:
        raise IllegalAction("play.zone", f"{p}'s {zone} SIGNI zone is not empty")
    if zone in s.flags.get("erased", {}).get(p, ()):
        raise IllegalAction("zone.erased", f"{p}'s {zone} SIGNI zone is erased until end of turn")
    barred = s.flags.get("signi_entry_barred", {}).get(p)
    if barred and any(iid != other for other in barred):
        raise IllegalAction("effect.signi-entry", f"an effect says {p} can put no other SIGNI onto the field")
    cap = s.flags.get("signi_max", {}).get(p)
    if rise is None and cap is not None and len(s.players[p].signi_slots()) >= int(cap):
        raise IllegalAction("effect.signi-max", f"an effect says {p} may have at most {cap} SIGNI this turn")
    lvl = facts.center_level(s, p)
    if (card.level or 0) > lvl:
        raise IllegalAction(
            "play.level", f"{card.name} is level {card.level}, above the center LRIG's level {lvl}"
        )
    covered = facts.level(s, below.iid) if below is not None else 0  # under a Rise SIGNI it counts no more
    total = facts.signi_levels(s, p) - covered + (card.level or 0)
    lim = facts.limit(s, p)
    if total > lim:
        raise IllegalAction("play.limit", f"the SIGNI's levels would total {total}, above the limit {lim}")
    if not facts.limiting_ok(s, p, card):
        raise IllegalAction(
            "play.limiting",
            f"{card.name} is limited to {'/'.join(card.limiting)}; the center LRIG is not of that type",
        )


@answers("main", "play_signi")
def play_signi(rec: Recorder, act: Action) -> None:
    s, p = rec.state, act.player or ""
    iid = resolve_ref(s, p, act.get("card"), ["hand"])
    from_trash = rise_cards(s, p, iid)
    under = resolve_refs(s, p, act.get("under") or [], ["trash"]) if from_trash is not None else None
    if under is None and act.get("under"):
        raise IllegalAction(
            "decision.invalid", "only a SIGNI whose Rise takes cards of the trash names under"
        )
    check_play(s, p, iid, act.get("zone"), under)
    data = {"player": p, "card": iid, "zone": act.get("zone")}
    below = s.players[p].signi[act.get("zone")]
    if below is not None:
        data["rise_on"] = below.iid
    rec.emit("SigniPlayed", p, "main.play-signi", data)
    if under:  # Rise: the cards of the trash go under it as it is played
        rec.emit("CardsPutUnder", p, "kw.rise", {"player": p, "cards": under, "card": iid, "from": "trash"})


@answers("main", "remove_signi")
def remove_signi(rec: Recorder, act: Action) -> None:
    s, p = rec.state, act.player or ""
    if s.flags.get("remove"):
        raise IllegalAction("remove.once", f"{p} already removed SIGNI this turn")
    zones = act.get("zones")
    if not zones:
        raise IllegalAction("decision.invalid", "name at least one SIGNI zone to remove from")
    cards = []
    for z in zones:
        slot = s.players[p].signi[z]
        if slot is None:
            raise IllegalAction("decision.invalid", f"{p} has no SIGNI in the {z} zone")
        if facts.card_of(s, slot.iid).type == CardType.RESONA:
            raise IllegalAction("remove.resona", "a Resona cannot be removed")
        cards.append(slot.iid)
    data = {"player": p, "cards": cards, "zones": list(zones)}
    leaving.leave_or_ask(rec, "SigniRemoved", p, "main.remove", data)  # a SIGNI's own replacement first


def _use(name: str) -> Handler:
    def run_use(rec: Recorder, act: Action) -> None:

        getattr(use, name)(rec, act)

    return run_use


for _kind in ("main", "pre_attack", "defense"):
    _TABLE[(_kind, "use_arts")] = _use("use_arts")  # an ARTS with no encoding: judge.unenforced (use)
    _TABLE[(_kind, "use_ability")] = _use("use_ability")
    _TABLE[(_kind, "use_piece")] = _use("use_piece")
_TABLE[("main", "use_spell")] = _use("use_spell")
_TABLE[("spell_cut_in", "use_piece")] = _use("use_piece")  # a PIECE with Spell Cut-In timing
_TABLE[("effect_spell", "use_spell")] = _use("use_spell")  # the spell an effect lets its player use now


@answers("effect_spell", "pass")
def effect_spell_pass(rec: Recorder, act: Action) -> None:
    """The player does not use the spell the effect let them use."""
    rec.emit("Passed", act.player or "", "spell.use", {"player": act.player, "kind": "effect_spell"})


@answers("spell_cut_in", "pass")
def cut_in_pass(rec: Recorder, act: Action) -> None:

    resume = (rec.state.pending or {})["resume"]
    rule = "piece.cut-in" if "piece" in resume else "spell.cut-in"
    rec.emit("Passed", act.player or "", rule, {"player": act.player, "kind": "spell_cut_in"})
    use.cut_in_passed(rec, resume)


@answers("trigger_order", "choose")
def trigger_order(rec: Recorder, act: Action) -> None:
    s = rec.state
    pending = s.pending or {}
    keys: list[str] = pending["choices"]
    by_card = dict(zip(pending["cards"], keys, strict=True))
    given = act.get("order") or act.get("cards") or []
    order = [by_card.get(x, x) for x in given]
    if not order or any(k not in keys for k in order) or len(set(order)) != len(order):
        raise IllegalAction("decision.invalid", f"order the waiting abilities: {', '.join(keys)}")
    rest = [k for k in keys if k not in order]
    rec.emit(
        "TriggersOrdered", act.player or "", "trigger.order", {"player": act.player, "order": order + rest}
    )

    activate(rec, next(w for w in rec.state.waiting if w["key"] == order[0]))


# -- attacks --------------------------------------------------------------------------------------


def _must_text(zones: list[str]) -> str:
    return f"the SIGNI in the {' / '.join(zones)} zone must attack first, as it is able to"


@answers("signi_attack", "attack")
@answers("lrig_attack", "attack")
def attack(rec: Recorder, act: Action) -> None:
    s, p = rec.state, act.player or ""
    ps = s.players[p]
    zone = act.get("zone")
    ref = act.get("card")
    if ref is not None:
        for pos in ("left", "right"):
            slot = ps.lrig[pos]
            if slot is not None and ref in (slot.iid, s.cards[slot.iid]):
                raise IllegalAction(
                    "attack.assist", "an assist LRIG never attacks: only the center LRIG does"
                )
    if zone == "lrig":
        slot = ps.lrig["center"]
        if slot is None:
            raise IllegalAction("decision.invalid", f"{p} has no center LRIG")
        if ref is not None and ref not in (slot.iid, s.cards[slot.iid]):
            raise IllegalAction("decision.invalid", f"{ref} is not {p}'s center LRIG")

        refusal = lrig_attack_refusal(s, p)
        if refusal is not None:
            raise IllegalAction(*refusal)
        must = facts.must_attack(s, p) if s.step == "signi_attack" else []
        if must:
            raise IllegalAction("effect.must-attack", _must_text(must))
        from domain.abilities.constants import attack_cost

        due = attack_cost(s, slot)  # an LRIG given "cannot attack unless you pay" pays with the attack
        if due:
            _pay_attack_cost(rec, act, p, slot.iid, due)
        if s.step == "signi_attack":  # an LRIG attack first ends the SIGNI attack step
            rec.emit("StepBegan", p, "attack.lrig", {"step": "lrig_attack"})
        rec.emit("AttackDeclared", p, "attack.lrig", {"player": p, "zone": "lrig", "card": slot.iid})
        return
    if s.step != "signi_attack":
        raise IllegalAction(
            "attack.step",
            "SIGNI attack only in the SIGNI attack step, which is over once the LRIG attack step begins",
        )
    slot = ps.signi[zone]
    if slot is None:
        raise IllegalAction("decision.invalid", f"{p} has no SIGNI in the {zone} zone")
    if ref is not None and ref not in (slot.iid, s.cards[slot.iid]):
        raise IllegalAction("decision.invalid", f"{ref} is not the SIGNI in {p}'s {zone} zone")
    if slot.downed:
        raise IllegalAction("attack.downed", f"{p}'s SIGNI in the {zone} zone is downed and cannot attack")
    if facts.signi_cannot_attack(s, slot):
        raise IllegalAction(
            "effect.cannot-attack", f"an effect says {p}'s SIGNI in the {zone} zone cannot attack"
        )
    must = facts.must_attack(s, p)
    if must and zone not in must:
        raise IllegalAction("effect.must-attack", _must_text(must))
    from domain.abilities.constants import attack_cost

    due = attack_cost(s, slot)
    if due:
        _pay_attack_cost(rec, act, p, slot.iid, due)
    if act.get("face_down"):
        _turn_down_with_attack(rec, act, p, slot.iid)
    rec.emit("AttackDeclared", p, "attack.signi", {"player": p, "zone": zone, "card": slot.iid})


def _turn_down_with_attack(rec: Recorder, act: Action, p: str, iid: str) -> None:
    """A SIGNI whose constant lets its player turn other SIGNI of theirs face down instead as it attacks
    (``attack_face_down``, rule face-down.signi): the action's ``face_down`` names them; they are turned face
    down before the attack is declared, so what the attack triggers sees them face down."""
    from domain.abilities.constants import attack_face_down
    from domain.abilities.effects.facedown import turn_down, wait_to_turn_up

    s = rec.state
    slots = {sl.iid: sl for _z, sl in s.players[p].signi_slots()}
    given = attack_face_down(s, slots[iid])
    if given is None:
        raise IllegalAction("face-down.signi", "this SIGNI turns no other SIGNI face down as it attacks")
    ref, step = given
    cards: list[str] = []
    for named in act.get("face_down"):  # other SIGNI of yours, by instance or catalogue id, each once
        if named not in s.owners and named in facts.catalogue():
            named = facts.catalogue().canonical(named)
        found = next((i for i in slots if i != iid and i not in cards and named in (i, s.cards[i])), None)
        if found is None:
            raise IllegalAction("face-down.signi", f"{named} is not another SIGNI of {p}'s on the field")
        cards.append(found)
    if len(cards) > int(step.get("up_to", 2)):
        raise IllegalAction("face-down.signi", f"at most {step.get('up_to', 2)} SIGNI are turned face down")
    turned = [c for c in cards if turn_down(rec, c, iid)]
    if turned and step.get("back"):
        wait_to_turn_up(rec, p, iid, ref, turned, step["back"])


def _pay_attack_cost(rec: Recorder, act: Action, p: str, iid: str, due: dict[str, Any]) -> None:
    """A SIGNI that cannot attack unless its player pays: the ener (the action's ``pay``, or a canonical
    payment) and the discards (the action's ``discard``) are paid as it attacks, or it does not attack."""
    s = rec.state
    ener: list[str] = []
    if due.get("ener"):
        items = tuple(CostItem(c["color"], int(c["n"])) for c in due["ener"])
        if act.get("pay") is not None:
            ener = resolve_refs(s, p, act.get("pay"), ["ener"])
            if facts.ener_locked(s, p, sum(i.n for i in items)) or not costs.can_pay_with(
                items, [facts.ener_card(s, i) for i in ener]
            ):
                raise IllegalAction("effect.attack-cost", "those ener cards do not pay the attack's cost")
        else:
            auto = _ener_payment(s, p, due)
            if auto is None:
                raise IllegalAction("effect.attack-cost", f"{p} cannot pay what this card's attack costs")
            ener = auto
    cards: list[str] = []
    n = int(due.get("discard", 0))
    if n:
        cards = resolve_refs(s, p, act.get("discard") or [], ["hand"])
        if len(cards) != n or len(set(cards)) != n:
            raise IllegalAction("effect.attack-cost", f"this card attacks only as {p} discards {n} card(s)")
    if ener:
        rec.emit("CostPaid", p, "effect.attack-cost", {"player": p, "ener": ener, "for": iid})
    if cards:
        data = {"player": p, "cards": cards, "by_effect": iid, "as_cost": True}
        rec.emit("CardsDiscarded", p, "effect.attack-cost", data)


@answers("guard", "guard")
def guard(rec: Recorder, act: Action) -> None:
    """A Guard: a card with Guard discarded from the hand (or, where the player's own constant lets them, what
    it names paid instead), with what the opponent's constants add to its cost (``guard_cost``: the action's
    ``pay`` and ``discard``; of several costs to choose from, the one those pay)."""
    from domain.abilities.constants import guard_dues

    s, p = rec.state, act.player or ""
    iid = resolve_ref(s, p, act.get("card"), ["hand"]) if act.get("card") is not None else None
    if iid is not None and not facts.card_of(s, iid).guard:
        raise IllegalAction("kw.guard", f"{facts.card_of(s, iid).name} has no Guard")
    attacker = s.players[opponent(p)].lrig["center"]
    if attacker is not None and "unguardable" in facts.keywords(s, attacker):
        raise IllegalAction("effect.no-guard", "an effect says this LRIG attack cannot be guarded")
    dues = guard_dues(s, p, instead=iid is None)
    if not dues:
        raise IllegalAction("kw.guard", "a Guard discards a card with Guard (name it: card)")
    ener, cards = _guard_paid(s, p, act, dues, iid)
    if iid is None:
        if ener:
            rec.emit("CostPaid", p, "effect.guard-cost", {"player": p, "ener": ener})
        rec.emit("CardsDiscarded", p, "effect.guard-cost", {"player": p, "cards": cards, "as_cost": True})
        rec.emit("GuardedInstead", p, "effect.guard-cost", {"player": p, "cards": cards, "version": 1})
        return
    if cards:
        rec.emit("CardsDiscarded", p, "effect.guard-cost", {"player": p, "cards": cards, "as_cost": True})
    rec.emit("Guarded", p, "kw.guard", {"player": p, "card": iid, **({"ener": ener} if ener else {})})


def _guard_paid(
    s: GameState, p: str, act: Action, dues: list[dict[str, Any]], iid: str | None
) -> tuple[list[str], list[str]]:
    """(the ener cards, the cards discarded) that pay one of the totals a Guard may cost: the action's
    ``pay`` (or a canonical payment) and ``discard``."""
    cards = resolve_refs(s, p, act.get("discard") or [], ["hand"])
    if len(set(cards)) != len(cards) or iid in cards:
        raise IllegalAction(
            ["kw.guard", "effect.guard-cost"], "each card discarded for a Guard is another card of the hand"
        )
    given = resolve_refs(s, p, act.get("pay"), ["ener"]) if act.get("pay") is not None else None
    for due in dues:
        if int(due.get("discard", 0)) != len(cards):
            continue
        items = tuple(CostItem(c["color"], int(c["n"])) for c in due.get("ener", []))
        if not items:
            if not given:
                return [], cards
            continue
        if given is None:
            auto = _ener_payment(s, p, due)
            if auto is not None:
                return auto, cards
        elif not facts.ener_locked(s, p, sum(i.n for i in items)) and costs.can_pay_with(
            items, [facts.ener_card(s, e) for e in given]
        ):
            return given, cards
    owed = " or ".join(describe_cost(d) or "nothing more" for d in dues)
    raise IllegalAction(
        ["kw.guard", "effect.guard-cost"], f"this Guard costs {owed}, which those cards do not pay"
    )


@answers("life_burst", "life_burst")
@answers("life_burst", "pass")
def life_burst(rec: Recorder, act: Action) -> None:
    s, p = rec.state, act.player or ""
    pending = s.pending or {}
    chosen = bool(act.get("use", False))
    ref = act.get("card", pending.get("card"))
    waiting: list[str] = pending.get("cards") or [pending["card"]]  # several: their player picks the first
    iid = next((c for c in waiting if ref in (c, s.cards.get(c))), None)
    if iid is None:
        names = " or ".join(waiting)
        raise IllegalAction("decision.invalid", f"the Life Burst being decided is that of {names}")

    data: dict[str, Any] = {"player": p, "card": iid, "use": chosen}
    # a Life Burst a constant gives a card without one is the constant's, encoded with it
    enforced = is_enforced(s.cards[iid]) or given_life_burst(s, iid) is not None
    if chosen and not enforced:
        data["enforced"] = False
        data["note"] = (
            "the Life Burst's effect is not enforced by the service: a judge resolves it with 'adjust'"
        )
    rec.emit("LifeBurstChosen", p, "life-burst.use", data)
    cancel = s.flags.get("burst_cancel", {}).get(iid)
    if chosen and cancel and _ener_payment(s, cancel["by"], cancel["cost"]) is not None:
        rec.ask(  # the crushing effect lets its player pay to keep the Life Burst from activating
            cancel["by"],
            "choose",
            "life-burst.use",
            purpose="burst_cancel",
            card=iid,
            min=0,
            max=0,
            choices=[],
            options=["pay", "decline"],
            prompt=f"pay {effects.describe_cost(cancel['cost'])} so that this Life Burst is not used?",
        )
        return
    if chosen and enforced:
        use.life_burst(rec, iid, p)


def _ener_payment(s: GameState, p: str, cost: dict[str, Any]) -> list[str] | None:

    return ener_payment(s, p, cost)


def _burst_cancel(rec: Recorder, act: Action, pending: dict[str, Any]) -> None:
    """The answer to whether to pay to keep a Life Burst from activating; declined, it resolves."""

    s, p = rec.state, act.player or ""
    option = act.get("option")
    if option not in ("pay", "decline"):
        raise IllegalAction("decision.invalid", "choose an option: pay or decline")
    iid = pending["card"]
    cancel = s.flags["burst_cancel"][iid]
    rec.emit(
        "Answered",
        p,
        "life-burst.use",
        {"player": p, "answer": {"option": option}, "purpose": "burst_cancel", "private": False},
    )
    payment = _ener_payment(s, p, cancel["cost"]) if option == "pay" else None
    if payment is not None:
        rec.emit("CostPaid", p, "cost.ener", {"player": p, "ener": payment, "for": cancel["by_effect"]})
        rec.emit(
            "LifeBurstCancelled",
            "rules",
            "life-burst.use",
            {"player": s.owners[iid], "card": iid, "by": p, "by_effect": cancel["by_effect"]},
        )
        return
    if is_enforced(s.cards[iid]) or given_life_burst(s, iid) is not None:
        use.life_burst(rec, iid, s.owners[iid])


def _replace(rec: Recorder, act: Action, pending: dict[str, Any]) -> None:
    """The answer to whether to use a replacement effect that says "you may" (``effect.replace``): used, what
    it names happens instead of the damage; declined, the attack goes on and it is not asked again."""
    p, option = act.player or "", act.get("option")
    if option not in ("replace", "decline"):
        raise IllegalAction("decision.invalid", "choose an option: replace or decline")
    cards = [
        next((c for c in pending.get("choices", []) if ref in (c, rec.state.cards[c])), ref)
        for ref in act.get("cards") or []
    ]
    problem = leaving.payment_problem(rec.state, pending, option, cards)
    if problem is not None:
        raise IllegalAction("decision.invalid", problem)
    said: dict[str, Any] = {"option": option, **({"cards": cards} if cards else {})}
    answer = {"player": p, "answer": said, "purpose": "replace", "private": False}
    rec.emit("Answered", p, "effect.replace", answer)
    if pending.get("event") == "leave_field":  # a SIGNI's own replacement of its leaving the field
        data = {"player": p, "card": pending["card"], "option": option, "event": "leave_field"}
        rec.emit("ReplacementChosen", p, "effect.replace", data)
        if option == "replace" and pending.get("pay"):  # its cost, paid with the cards named
            leaving.pay(rec, pending["card"], cards, None, bool(pending.get("vanish")))
        w = pending.get("waiting")
        if w is not None:  # the leaving waited in the question: it goes on now (asked again for another)
            leaving.leave_or_ask(rec, w["type"], w["actor"], w["rule"], dict(w["data"]))
        return  # else what waits (a battle, rule processing) is worked out again, with the answer
    if option == "replace":
        replace_damage(rec, p, pending["card"])
    else:
        rec.emit("ReplacementDeclined", p, "effect.replace", {"player": p, "card": pending["card"]})


# -- discards and choices -------------------------------------------------------------------------


@answers("discard", "discard")
def discard(rec: Recorder, act: Action) -> None:
    s, p = rec.state, act.player or ""
    pending = s.pending or {}
    cards = resolve_refs(s, p, act.get("cards"), ["hand"])
    if len(cards) != pending.get("count"):
        raise IllegalAction(
            ["end.hand-size", "decision.invalid"],
            f"discard exactly {pending.get('count')} card(s), not {len(cards)}",
        )
    rec.emit("CardsDiscarded", p, "end.hand-size", {"player": p, "cards": cards})


@answers("choose", "choose")
def choose(rec: Recorder, act: Action) -> None:
    s, p = rec.state, act.player or ""
    pending = s.pending or {}
    if pending.get("purpose") in ("target", "effect"):
        _answer_effect(rec, act, pending)
        return
    if pending.get("purpose") == "burst_cancel":
        _burst_cancel(rec, act, pending)
        return
    if pending.get("purpose") == "replace":
        _replace(rec, act, pending)
        return
    if pending.get("purpose") == "rba.order":
        option = act.get("option")
        if option not in pending["options"]:
            raise IllegalAction("decision.invalid", f"choose an option: {' or '.join(pending['options'])}")
        iid = pending["card"]
        zone = (s.players[p].find(iid) or "").split(":")[-1]
        if option == "rba.1":
            data = {"player": p, "card": iid, "zone": zone, "cause": "power"}
            leaving.leave_or_ask(rec, "SigniVanished", p, "rba.1", data)
        else:
            leaving.leave_or_ask(rec, "SigniTrashed", p, option, {"player": p, "card": iid, "zone": zone})
        return
    choices: list[str] = pending.get("choices", [])
    picked: list[str] = []
    for ref in act.get("cards") or []:
        match = next((c for c in choices if ref in (c, s.cards[c]) and c not in picked), None)
        if match is None:
            raise IllegalAction("decision.invalid", f"{ref} is not one of the choices: {', '.join(choices)}")
        picked.append(match)
    lo, hi = pending.get("min", 1), pending.get("max", 1)
    if not lo <= len(picked) <= hi:
        raise IllegalAction("decision.invalid", f"choose between {lo} and {hi} card(s), not {len(picked)}")
    purpose = pending.get("purpose")
    if purpose == "rba.2":
        zone = (s.players[p].find(picked[0]) or "").split(":")[-1]
        leaving.leave_or_ask(rec, "SigniTrashed", p, "rba.2", {"player": p, "card": picked[0], "zone": zone})
    elif purpose == "rba.lrig-type":
        left = s.players[p].lrig["left"]
        pos = "left" if left is not None and left.iid == picked[0] else "right"
        rec.emit("LrigTrashed", p, "rba.lrig-type", {"player": p, "position": pos})
    else:  # pragma: no cover - every choice the engine asks is handled above
        raise IllegalAction("decision.invalid", f"no rule asks this choice ({purpose})")


def _answer_effect(rec: Recorder, act: Action, pending: dict[str, Any]) -> None:
    """An answer to a choice asked in the middle of an effect: targets, cards, a zone, or an option."""

    s = rec.state
    choices: list[str] = pending.get("choices", [])
    picked: list[str] = []
    for ref in act.get("cards") or act.get("order") or []:  # an order is given as "order" or as "cards"
        match = next((c for c in choices if ref in (c, s.cards[c]) and c not in picked), None)
        if match is None:
            raise IllegalAction("decision.invalid", f"{ref} is not one of the choices")
        picked.append(match)
    answer: dict[str, Any] = {"cards": picked}
    if pending.get("zones"):
        zones = act.get("zones") or []
        if len(zones) != 1 or zones[0] not in pending["zones"]:
            raise IllegalAction("decision.invalid", f"choose one zone of: {', '.join(pending['zones'])}")
        answer["zone"] = zones[0]
    elif pending.get("options"):
        option = act.get("option")
        lo, k = option_counts(pending)
        parts = str(option).split(",") if option is not None else []
        if (
            not lo <= len(parts) <= k
            or any(x not in pending["options"] for x in parts)
            or len(set(parts)) != len(parts)
        ):
            many = f"{lo} to {k}" if lo < k else str(k)
            raise IllegalAction("decision.invalid", f"choose {many} of: {', '.join(pending['options'])}")
        answer["option"] = option
        problem = leaving.payment_problem(s, pending, str(option), picked) if "pay" in pending else None
        if problem is not None:  # a replacement paid with chosen cards
            raise IllegalAction("decision.invalid", problem)
    else:
        lo, hi = int(pending.get("min", 1)), int(pending.get("max", 1))
        if not lo <= len(picked) <= hi:
            raise IllegalAction(
                "decision.invalid", f"choose between {lo} and {hi} card(s), not {len(picked)}"
            )
        missing = [c for c in pending.get("must_include", []) if c not in picked]
        if missing:  # a constant says these must be targeted if possible
            names = ", ".join(f"{s.cards[c]} ({c})" for c in missing)
            raise IllegalAction("effect.must-target", f"the target(s) must include {names}")
    frame = load_frame(pending["resume"])  # the stored frame, of whichever version: upcast when older
    rec.emit(
        "Answered",
        act.player or "",
        "target.choose",
        {
            "player": act.player,
            "answer": answer,
            "purpose": pending["purpose"],
            "private": bool(pending.get("private")),
        },
    )
    effects.resume(rec, frame, answer)


# -- concede and refusals -------------------------------------------------------------------------


def concede(rec: Recorder, act: Action) -> None:
    p = act.player or ""
    n = rec.emit("Conceded", p, "game.concede", {"player": p})
    rec.emit(
        "GameEnded",
        "rules",
        "game.concede",
        {"winner": opponent(p), "loser": p, "reason": f"{p} conceded", "rule": "game.concede"},
        caused_by=n,
    )


def refuse_whoever_decides(s: GameState, act: Action) -> None:
    """Refusals that hold whoever is deciding now, with the rule that explains them best."""
    pending = s.pending or {}
    if act.type == "guard" and pending.get("kind") != "guard":
        raise IllegalAction(
            ["guard.lrig-only", "decision.not-pending"],
            "a guard only stops an LRIG attack's damage, in the guard step; no LRIG attack waits for one",
        )
    lrig_attacked = s.phase == "attack" and (
        s.flags.get("lrig_attacked") or s.step in ("lrig_attack", "guard")
    )
    if act.type == "attack" and act.get("zone") != "lrig" and lrig_attacked and act.player == s.turn_player:
        raise IllegalAction("attack.step", "no SIGNI may attack once the LRIG attack step has begun")


def refuse_out_of_turn(s: GameState, act: Action) -> None:
    """Raise the most specific refusal for an action that does not answer the pending decision."""
    pending = s.pending or {}
    now = describe_pending(pending)
    t = act.type
    if t == "ener_charge" and s.flags.get("ener") and s.turn_player == act.player:
        raise IllegalAction(
            "ener.once", f"{act.player} already ener-charged this turn (at most one card a turn)"
        )
    if t == "grow" and s.flags.get("grow") and s.turn_player == act.player:
        raise IllegalAction("grow.once", f"{act.player} already grew the center LRIG this turn")
    if t == "attack":
        if s.turn == 1:
            raise IllegalAction("attack.first-turn", "the first player's first turn has no attack phase")
        if s.phase == "attack" and s.step in ("lrig_attack", "guard") and act.get("zone") != "lrig":
            raise IllegalAction("attack.step", "no SIGNI may attack once the LRIG attack step has begun")
        raise IllegalAction(
            ["attack.step", "decision.not-pending"], f"attacks are declared in the attack steps; now: {now}"
        )
    rules_for = {
        "ener_charge": "ener.phase",
        "grow": "grow.phase",
        "play_signi": "main.play-signi",
        "remove_signi": "main.remove",
        "grow_assist": "use.timing",
        "guard": "guard.lrig-only",
        "use_spell": "use.timing",
        "use_arts": "use.timing",
        "use_piece": "use.timing",
        "use_ability": "use.timing",
    }
    refs = [r for r in (rules_for.get(t),) if r] + ["decision.not-pending"]
    raise IllegalAction(refs, f"'{t}' does not answer the decision now pending ({now})")


__all__ = ["SIGNI_ZONES", "combinations", "handler", "refuse_out_of_turn", "resolve_ref"]


# -- the original format's ARTS use step (002 "Attack Phase"; the step itself: ``domain.original``) ---------


@answers("arts_use", "pass")
def pass_arts_use(rec: Recorder, act: Action) -> None:
    """The turn player's pass hands the step to the other player; the other player's pass ends it."""
    p = act.player or ""
    data: dict[str, str] = {"player": p, "kind": "arts_use"}
    if p == rec.state.turn_player:
        data["stage"] = "other"
    rec.emit("Passed", p, ARTS_STEP, data)


answers("arts_use", "use_arts")(_use("use_arts"))
answers("arts_use", "use_ability")(_use("use_ability"))
answers("arts_use", "use_piece")(_use("use_piece"))
