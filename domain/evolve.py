"""``evolve(state, event) -> state``: the one function that builds the game state from events.

``apply`` changes a state in place (the fold uses it on a state it owns); ``evolve`` is the pure form;
``fold`` builds the state after a sequence of events. Evolving never decides anything and never draws a
random number: every outcome is in the event.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from domain import durations, tally
from domain.state import LRIG_POSITIONS, SIGNI_ZONES, GameState, PlayerState, Slot


class EvolveError(ValueError):
    """An event that cannot apply to the state it is folded onto (a corrupt or reordered log)."""


Handler = Callable[[GameState, dict[str, Any], Any], None]
_HANDLERS: dict[str, Handler] = {}


def handles(*types: str) -> Callable[[Handler], Handler]:
    def register(fn: Handler) -> Handler:
        for t in types:
            _HANDLERS[t] = fn
        return fn

    return register


def apply(state: GameState, event: Any) -> GameState:
    """Apply one event to ``state`` in place and return it; the state's version goes up by one."""
    handler = _HANDLERS.get(event.type)
    if handler is None:
        raise EvolveError(f"no rule to apply an event of type {event.type!r}")
    happened = tally.entries(state, event)  # where the cards were: read before they move
    handler(state, event.data, event)
    if event.type != "Rewound":
        state.version += 1
    tally.add(state, happened)
    return state


def evolve(state: GameState, event: Any) -> GameState:
    """The pure form: a new state, the given one untouched."""
    return apply(state.copy(), event)


def fold(events: Iterable[Any], state: GameState | None = None) -> GameState:
    """The state after ``events``, starting from ``state`` (which is not modified) or from nothing."""
    s = GameState() if state is None else state.copy()
    for e in events:
        apply(s, e)
    return s


# -- moving cards ---------------------------------------------------------------------------------


def take(state: GameState, iid: str) -> None:
    """Take a card out of wherever it is. A SIGNI taken from the field leaves its under-cards in limbo,
    for rule processing (rba.3) to put into the trash."""
    if iid in state.limbo:
        state.limbo.remove(iid)
        return
    if iid in state.flags.get("became", ()):  # a card off the field is its printed card again; what its
        # leaving triggers looks at it as it was (``triggers.abilities``): the card it had become
        state.flags["left_as"] = {**state.flags.get("left_as", {}), iid: state.cards[iid]}
        _unbecome(state, [iid])
    elif iid in state.flags.get("left_as", ()):  # it moves on: no longer the card that left as another
        state.flags["left_as"] = {k: v for k, v in state.flags["left_as"].items() if k != iid}
    owner = state.owners.get(iid)
    if owner is None:
        raise EvolveError(f"unknown card instance {iid!r}")
    ps = state.players[owner]
    for cards in ps.zones.values():
        if iid in cards:
            cards.remove(iid)
            return
    for zone, slot in ps.signi.items():
        if slot is None:
            continue
        if slot.iid == iid:
            state.limbo.extend(slot.under)
            ps.signi[zone] = None
            was = [i for i in state.flags.get("left_awakened", []) if i != iid]
            if slot.awakened:  # remembered for the turn: what it triggers as it leaves looks at it as it was
                state.flags["left_awakened"] = [*was, iid]
            elif "left_awakened" in state.flags:
                state.flags["left_awakened"] = was
            gained = [k.split(":", 1)[1] for k in slot.keywords if k.startswith("ability:")]
            if gained or iid in state.flags.get("left_granted", {}):  # so are the abilities it had gained
                left = {k: v for k, v in state.flags.get("left_granted", {}).items() if k != iid}
                state.flags["left_granted"] = {**left, iid: gained} if gained else left
            if iid in state.flags.get("leave_choice", {}):  # the answer about its replacement is spent
                left = {k: v for k, v in state.flags["leave_choice"].items() if k != iid}
                state.flags["leave_choice"] = left
            return
        if iid in slot.under:
            slot.under.remove(iid)
            return
    if _take_face_down(state, ps, iid):
        return
    for pos, slot in ps.lrig.items():
        if slot is None:
            continue
        if slot.iid == iid:
            ps.lrig[pos] = None
            return
        if iid in slot.under:
            slot.under.remove(iid)
            return
    raise EvolveError(f"card {iid!r} is nowhere on {owner}'s side")


def _take_face_down(state: GameState, ps: PlayerState, iid: str) -> bool:
    """Take a face-down card (or a card under one) out of its SIGNI zone; the cards under a face-down card
    that leaves go to limbo, as a SIGNI's do (rba.3)."""
    for zone, entries in list(ps.face_down.items()):
        for e in entries:
            if e["iid"] == iid:
                state.limbo.extend(e["under"])
                entries.remove(e)
            elif iid in e["under"]:
                e["under"].remove(iid)
            else:
                continue
            if not entries:
                del ps.face_down[zone]
            return True
    return False


def put(state: GameState, iid: str, zone: str, *, top: bool = False) -> None:
    """Put a card into one of its owner's pile zones (at the end, or on top)."""
    pile = state.players[state.owners[iid]].zones[zone]
    if top:
        pile.insert(0, iid)
    else:
        pile.append(iid)


def move(state: GameState, iid: str, zone: str, *, top: bool = False) -> None:
    take(state, iid)
    put(state, iid, zone, top=top)


def _player(state: GameState, data: dict[str, Any]) -> PlayerState:
    return state.players[data["player"]]


# -- set-up ---------------------------------------------------------------------------------------


@handles("MatchCreated")
def _created(state: GameState, d: dict[str, Any], _e: Any) -> None:
    state.format = d["format"]
    state.options = dict(d.get("options") or {})  # absent (older logs, Diva Selection): the defaults
    state.seed = int(d["seed"])
    state.cards = dict(d["cards"])
    state.owners = dict(d["owners"])
    for p, info in d["players"].items():
        ps = state.players[p]
        ps.name = info["name"]
        ps.zones["lrig_deck"] = list(info["lrig_deck"])
        ps.zones["deck"] = list(info["main_deck"])
    state.status = "setup"
    state.phase = "setup"


@handles("PositionSet")
def _position(state: GameState, d: dict[str, Any], _e: Any) -> None:
    new = GameState.from_dict(d["state"])
    for name in GameState.__slots__:
        setattr(state, name, getattr(new, name))
    state.version = 0


@handles("LrigsPlaced")
def _lrigs_placed(state: GameState, d: dict[str, Any], _e: Any) -> None:
    ps = _player(state, d)
    for pos in LRIG_POSITIONS:
        iid = d.get(pos)  # one LRIG in the original format (seed 002): the center only
        if iid is not None:
            take(state, iid)
            ps.lrig[pos] = Slot(iid)


@handles("DeckShuffled")
def _shuffled(state: GameState, d: dict[str, Any], _e: Any) -> None:
    ps = _player(state, d)
    if sorted(ps.zones["deck"]) != sorted(d["order"]):
        raise EvolveError("a shuffle must keep the deck's cards")
    ps.zones["deck"] = list(d["order"])


@handles("FirstPlayerChosen")
def _first(state: GameState, d: dict[str, Any], _e: Any) -> None:
    state.first_player = d["player"]


@handles("CardsDrawn")
def _drawn(state: GameState, d: dict[str, Any], _e: Any) -> None:
    ps = _player(state, d)
    deck = ps.zones["deck"]
    n = len(d["cards"])
    if deck[:n] != list(d["cards"]):
        raise EvolveError("drawn cards must be the top of the deck")
    del deck[:n]
    ps.zones["hand"].extend(d["cards"])
    if d.get("phase_draw"):
        state.stage = "done"
    if ps.lasting and n:  # a limit on the cards drawn in a window counts them while it applies
        ps.lasting = [
            {**e, "drawn": int(e.get("drawn", 0)) + n}
            if e["what"] == "draws" and durations.within(state, e["window"])
            else e
            for e in ps.lasting
        ]


@handles("MulliganDeclared")
def _mulligan(state: GameState, d: dict[str, Any], _e: Any) -> None:
    _player(state, d).mulligan = list(d["cards"])
    state.pending = None


@handles("CardsReturned")
def _returned(state: GameState, d: dict[str, Any], _e: Any) -> None:
    for iid in d["cards"]:
        move(state, iid, "deck")
    _player(state, d).mulligan = None


@handles("LifeClothPlaced")
def _life_cloth(state: GameState, d: dict[str, Any], _e: Any) -> None:
    ps = _player(state, d)
    n = len(d["cards"])
    if ps.zones["deck"][:n] != list(d["cards"]):
        raise EvolveError("Life Cloth comes from the top of the deck")
    del ps.zones["deck"][:n]
    ps.zones["life_cloth"] = list(d["cards"]) + ps.zones["life_cloth"]


@handles("LrigsRevealed")
def _revealed(state: GameState, d: dict[str, Any], _e: Any) -> None:
    for ps in state.players.values():
        ps.lrigs_face_up = True
        ps.mulligan = None
    state.status = "active"


# -- the turn -------------------------------------------------------------------------------------


@handles("TurnBegan")
def _turn_began(state: GameState, d: dict[str, Any], _e: Any) -> None:
    state.turn = int(d["turn"])
    state.turn_player = d["player"]
    state.flags = {}
    state.attack = None
    for ps in state.players.values():
        ps.refreshes_this_turn = 0
        if ps.lasting:  # effects lasting a stated time whose last turn has passed are gone
            ps.lasting = [e for e in ps.lasting if not durations.over(state, e["window"])]
    state.phase = "up"
    state.step = None
    state.stage = "begin"


@handles("PhaseBegan")
def _phase(state: GameState, d: dict[str, Any], _e: Any) -> None:
    state.phase = d["phase"]
    state.step = None
    state.stage = "begin"


@handles("StepBegan")
def _step(state: GameState, d: dict[str, Any], _e: Any) -> None:
    state.step = d["step"]
    state.stage = "begin"


@handles("CardsUpped")
def _upped(state: GameState, d: dict[str, Any], _e: Any) -> None:
    ps = _player(state, d)
    up, thaw = set(d["cards"]), set(d["thawed"])
    for slot in [*ps.lrig.values(), *ps.signi.values()]:
        if slot is None:
            continue
        if slot.iid in up:
            slot.downed = False
        if slot.iid in thaw:
            slot.frozen = False
    state.stage = "done"


@handles("EnerCharged")
def _ener(state: GameState, d: dict[str, Any], e: Any) -> None:
    move(state, d["card"], "ener")
    _deck_to_ener(state, d)
    if e.rule == "ener.charge":  # the ener phase's own charge; an effect's charge ends no phase
        state.flags["ener"] = True
        state.stage = "done"
    state.pending = None


@handles("LrigGrew")
def _grew(state: GameState, d: dict[str, Any], _e: Any) -> None:
    ps = _player(state, d)
    for iid in d["paid"]:
        move(state, iid, "trash")
    pos = d["position"]
    old = ps.lrig[pos]
    take(state, d["card"])
    if old is None:
        ps.lrig[pos] = Slot(d["card"])
    else:
        ps.lrig[pos] = Slot(d["card"], old.downed, old.frozen, [*old.under, old.iid])
    if pos == "center" and state.phase == "grow":
        state.flags["grow"] = True
        state.stage = "done"
    state.pending = None


@handles("SigniPlayed")
def _played(state: GameState, d: dict[str, Any], _e: Any) -> None:
    ps = _player(state, d)
    take(state, d["card"])
    _below_unbecomes(state, ps.signi[d["zone"]])
    ps.signi[d["zone"]] = _on_top(ps.signi[d["zone"]], d["card"])
    state.pending = None


def _below_unbecomes(state: GameState, below: Slot | None) -> None:
    """A SIGNI that goes under another (Rise) is no SIGNI any more: its printed card again."""
    if below is not None and below.iid in state.flags.get("became", ()):
        _unbecome(state, [below.iid])


def _on_top(below: Slot | None, iid: str) -> Slot:
    """A SIGNI put into a zone: a new card, upped; with Rise, on top of the SIGNI there, which goes under it
    with what was under it, keeping none of its states, changes or gained abilities."""
    return Slot(iid) if below is None else Slot(iid, under=[*below.under, below.iid])


@handles("SigniRemoved")
def _removed(state: GameState, d: dict[str, Any], _e: Any) -> None:
    for iid in d["cards"]:
        move(state, iid, "trash")
    state.flags["remove"] = True
    state.pending = None


@handles("Passed")
def _passed(state: GameState, d: dict[str, Any], _e: Any) -> None:
    kind = d["kind"]
    if kind == "guard" and state.attack is not None:
        state.attack["guard"] = "passed"
    elif kind not in ("spell_cut_in", "effect_spell"):  # no phase ends: its user goes on after it
        state.stage = d.get("stage", "done")  # "other": the other player acts next in the same step
    state.pending = None


@handles("Asked")
def _asked(state: GameState, d: dict[str, Any], _e: Any) -> None:
    state.pending = {k: (list(v) if isinstance(v, list) else v) for k, v in d.items()}


# -- attacks --------------------------------------------------------------------------------------


@handles("AttackDeclared")
def _attack(state: GameState, d: dict[str, Any], _e: Any) -> None:
    ps = _player(state, d)
    zone = d["zone"]
    slot = ps.lrig["center"] if zone == "lrig" else ps.signi[zone]
    if slot is None or slot.iid != d["card"]:
        raise EvolveError("the attacker is not where the event says")
    slot.downed = True
    state.attack = {"player": d["player"], "zone": zone, "card": d["card"], "guard": None}
    if zone == "lrig":
        state.flags["lrig_attacked"] = True
        state.flags["lrig_attacks"] = int(state.flags.get("lrig_attacks", 0)) + 1
    elif state.flags.get("signi_attack_max"):  # counted only while a limit applies
        state.flags["signi_attacks"] = int(state.flags.get("signi_attacks", 0)) + 1
    state.pending = None


@handles("UnchosenAttacksBarred")
def _unchosen_attacks_barred(state: GameState, d: dict[str, Any], _e: Any) -> None:
    """This turn only the player's SIGNI that must attack if able may attack (``attack_only_must``)."""
    state.flags["attack_only_must"] = sorted({*state.flags.get("attack_only_must", []), d["player"]})


@handles("AttacksCompelled")
def _attacks_compelled(state: GameState, d: dict[str, Any], _e: Any) -> None:
    """This turn every SIGNI of the player must attack if able (``must_attack_all``)."""
    state.flags["must_attack_all"] = sorted({*state.flags.get("must_attack_all", []), d["player"]})


@handles("SpellCostEased")
def _spell_cost_eased(state: GameState, d: dict[str, Any], _e: Any) -> None:
    """This turn the player's next spell may have one ener item of its use cost paid as colorless."""
    state.flags["spell_eased"] = sorted({*state.flags.get("spell_eased", []), d["player"]})


@handles("EnerCostsLocked")
def _ener_costs_locked(state: GameState, d: dict[str, Any], _e: Any) -> None:
    """This turn the player cannot pay ener costs of one or more (``ener_locked``)."""
    state.flags["ener_locked"] = sorted({*state.flags.get("ener_locked", []), d["player"]})


@handles("SigniCountCapped")
def _signi_count_capped(state: GameState, d: dict[str, Any], _e: Any) -> None:
    """This turn the player may have at most ``max`` SIGNI on the field (the lowest cap holds)."""
    old = dict(state.flags.get("signi_max", {}))  # the flags are copied shallowly: build new values
    old[d["player"]] = min(int(d["max"]), int(old.get(d["player"], d["max"])))
    state.flags["signi_max"] = old


@handles("SigniEntryBarred")
def _signi_entry_barred(state: GameState, d: dict[str, Any], _e: Any) -> None:
    """This turn the player can put no SIGNI but the one named (``except``) onto the field."""
    old = dict(state.flags.get("signi_entry_barred", {}))  # the flags are copied shallowly: build new values
    old[d["player"]] = [*old.get(d["player"], []), d["except"]]
    state.flags["signi_entry_barred"] = old


@handles("SigniAttackBarred")
def _signi_attack_barred(state: GameState, d: dict[str, Any], _e: Any) -> None:
    """This turn the player's SIGNI with power ``power_max`` or less cannot attack (the highest bar holds)."""
    old = dict(state.flags.get("attack_power_max", {}))  # the flags are copied shallowly: build new values
    old[d["player"]] = max(int(d["power_max"]), int(old.get(d["player"], d["power_max"])))
    state.flags["attack_power_max"] = old


@handles("SigniAttacksLimited")
def _signi_attacks_limited(state: GameState, d: dict[str, Any], _e: Any) -> None:
    """This turn the player's SIGNI attack at most ``max`` times in all (the lowest limit holds)."""
    old = dict(state.flags.get("signi_attack_max", {}))  # the flags are copied shallowly: build new values
    old[d["player"]] = min(int(d["max"]), int(old.get(d["player"], d["max"])))
    state.flags["signi_attack_max"] = old


@handles("Battled", "DamageDealt")
def _noted(state: GameState, d: dict[str, Any], _e: Any) -> None:
    if state.attack is not None:
        state.attack["resolved"] = True
        if d.get("lancer"):
            state.attack["lancer"] = "due"
        if d.get("s_lancer"):  # S Lancer: with no Life Cloth left, the crush becomes damage
            state.attack["s_lancer"] = True


@handles("SigniVanished")
def _vanished(state: GameState, d: dict[str, Any], _e: Any) -> None:
    slot = next((sl for _z, sl in state.players[d["player"]].signi_slots() if sl.iid == d["card"]), None)
    if slot is not None:  # what it was as it left the field ("when this SIGNI is vanished while upped")
        known = dict(state.flags.get("last_known", {}))
        known[d["card"]] = {"upped": not slot.downed}
        state.flags["last_known"] = known  # this turn only, as the flags are
    move(state, d["card"], "ener")


@handles("Guarded")
def _guarded(state: GameState, d: dict[str, Any], _e: Any) -> None:
    move(state, d["card"], "trash")
    for iid in d.get("ener", ()):  # the extra cost of the Guard, when one is asked
        move(state, iid, "trash")
    if d["player"] not in state.flags.get("discarded", ()):  # a guard discards the Guard card
        state.flags["discarded"] = [*state.flags.get("discarded", []), d["player"]]
    if state.attack is not None:
        state.attack["guard"] = d["card"]
    state.pending = None


@handles("GuardedInstead")
def _guarded_instead(state: GameState, d: dict[str, Any], _e: Any) -> None:
    """A Guard paid otherwise (its cards already discarded): the attack is guarded, with no card of Guard."""
    if state.attack is not None:
        state.attack["guard"] = "instead"
    state.pending = None


@handles("LifeClothCrushed")
def _crushed(state: GameState, d: dict[str, Any], _e: Any) -> None:
    ps = _player(state, d)
    n = len(d["cards"])
    if ps.zones["life_cloth"][:n] != list(d["cards"]):
        raise EvolveError("crushed Life Cloth comes from the top")
    del ps.zones["life_cloth"][:n]
    bursts = set(d.get("bursts", ()))
    if d.get("cause") == "lancer" and state.attack is not None:
        state.attack["lancer"] = "done"
    for iid in d["cards"]:
        ps.zones["check"].append(iid)
        state.crushed[iid] = "ask" if iid in bursts else "none"
        if iid in bursts and d.get("cancel"):  # who may pay to keep its Life Burst from activating
            state.flags.setdefault("burst_cancel", {})[iid] = dict(d["cancel"])


@handles("LifeBurstChosen")
def _burst(state: GameState, d: dict[str, Any], _e: Any) -> None:
    state.crushed[d["card"]] = "used" if d["use"] else "declined"
    state.pending = None


@handles("AttackEnded")
def _attack_ended(state: GameState, d: dict[str, Any], _e: Any) -> None:
    state.attack = None
    if d.get("key"):  # a negation of the next attack was spent
        left = [e for e in state.flags.get("preventions", []) if e["key"] != d["key"]]
        state.flags["preventions"] = left


# -- rule processing and the end of the turn ------------------------------------------------------


@handles("CardEnered")
def _card_enered(state: GameState, d: dict[str, Any], _e: Any) -> None:
    move(state, d["card"], "ener")
    state.crushed.pop(d["card"], None)


@handles("Refreshed")
def _refreshed(state: GameState, d: dict[str, Any], _e: Any) -> None:
    ps = _player(state, d)
    if sorted(ps.zones["trash"]) != sorted(d["order"]) or ps.zones["deck"]:
        raise EvolveError("a refresh turns the whole trash into the new deck")
    ps.zones["deck"] = list(d["order"])
    ps.zones["trash"] = []
    if d.get("life_cloth"):
        move(state, d["life_cloth"], "trash")
    ps.refreshes_this_turn += 1


@handles("SigniTrashed", "CardsTrashed", "CardsDiscarded", "CheckZoneCleared")
def _trashed(state: GameState, d: dict[str, Any], e: Any) -> None:
    for iid in d.get("cards") or [d["card"]]:
        move(state, iid, d.get("to", "trash"))
        state.crushed.pop(iid, None)
    if e.type == "CardsDiscarded" and d.get("cards") and d["player"] not in state.flags.get("discarded", ()):
        state.flags["discarded"] = [*state.flags.get("discarded", []), d["player"]]  # who discarded this turn
    state.pending = None


@handles("LrigTrashed")
def _lrig_trashed(state: GameState, d: dict[str, Any], _e: Any) -> None:
    ps = _player(state, d)
    slot = ps.lrig[d["position"]]
    if slot is None:
        raise EvolveError("no LRIG there")
    ps.lrig[d["position"]] = None
    ps.zones["lrig_trash"].extend([*slot.under, slot.iid])
    state.pending = None


@handles("CardReturned")
def _card_returned(state: GameState, d: dict[str, Any], _e: Any) -> None:
    move(state, d["card"], d.get("to", "lrig_deck"))


@handles("EffectsExpired")
def _expired(state: GameState, d: dict[str, Any], _e: Any) -> None:
    state.flags["expired"] = True
    state.flags.pop("erased", None)  # zones erased until end of turn are back
    _unbecome(state, list(state.flags.get("became", ())))  # SIGNI that became other cards are theirs again
    for ps in state.players.values():
        for slot in [*ps.lrig.values(), *ps.signi.values()]:
            if slot is not None:
                slot.power_mod = 0
                slot.keywords = []


@handles("TurnEnded")
def _turn_ended(state: GameState, d: dict[str, Any], _e: Any) -> None:
    state.attack = None
    state.pending = None
    state.stage = "done"
    state.phase = "end"
    state.step = None


@handles("GameEnded")
def _game_ended(state: GameState, d: dict[str, Any], _e: Any) -> None:
    state.status = "finished"
    state.winner = d["winner"]
    state.result = {"winner": d["winner"], "reason": d["reason"], "rule": d["rule"]}
    state.pending = None
    state.attack = None


@handles("Conceded")
def _conceded(state: GameState, d: dict[str, Any], _e: Any) -> None:
    state.pending = None


@handles("Rewound")
def _rewound(state: GameState, d: dict[str, Any], e: Any) -> None:
    version = state.version + 1
    takebacks = state.takebacks  # the match's, not the position's: a rewind keeps them
    new = GameState.from_dict(d["state"])
    for name in GameState.__slots__:
        setattr(state, name, getattr(new, name))
    state.version = version
    state.takebacks = dict(takebacks)
    if "rng_shift" in d:  # a takeback's rewind: the RNG goes on as it did from the point taken back to
        state.takebacks["rng_shift"] = int(d["rng_shift"])


# -- takebacks (``domain.takebacks``): the match's policy and requests, never the position ------------


@handles("TakebackPolicySet")
def _takeback_policy_set(state: GameState, d: dict[str, Any], _e: Any) -> None:
    state.takebacks = {**state.takebacks, "policy": dict(d["policy"])}


@handles("TakebackRequested")
def _takeback_requested(state: GameState, d: dict[str, Any], _e: Any) -> None:
    opened = {"id": d["takeback"], "player": d["player"], "to": d["to"]}
    state.takebacks = {**state.takebacks, "open": opened}


@handles("TakebackAccepted")
def _takeback_accepted(state: GameState, d: dict[str, Any], _e: Any) -> None:
    used = dict(state.takebacks.get("used") or {})
    used[d["player"]] = used.get(d["player"], 0) + 1
    state.takebacks = {k: v for k, v in state.takebacks.items() if k != "open"} | {"used": used}


@handles("TakebackDeclined")
def _takeback_declined(state: GameState, d: dict[str, Any], _e: Any) -> None:
    state.takebacks = {k: v for k, v in state.takebacks.items() if k != "open"}


# -- abilities ------------------------------------------------------------------------------------


@handles("AbilityTriggered")
def _triggered(state: GameState, d: dict[str, Any], _e: Any) -> None:
    state.waiting.append({**d, "key": f"t{state.version + 1}"})


@handles("TriggersOrdered")
def _ordered(state: GameState, d: dict[str, Any], _e: Any) -> None:
    rank = {k: i for i, k in enumerate(d["order"])}
    state.waiting.sort(key=lambda w: rank.get(w["key"], len(rank)))
    state.pending = None


@handles("AbilityActivated")
def _activated(state: GameState, d: dict[str, Any], _e: Any) -> None:
    state.waiting = [w for w in state.waiting if w["key"] != d["key"]]
    state.pending = None


def _pay(state: GameState, d: dict[str, Any]) -> None:
    for iid in d.get("ener", ()):
        move(state, iid, "trash")


@handles("AbilityUsed")
def _ability_used(state: GameState, d: dict[str, Any], _e: Any) -> None:
    _pay(state, d)
    if d.get("down"):
        _slot_of(state, d["card"]).downed = True
    key = f"{d['card']}/{d['ability']}"
    if d.get("once") == "twice" and state.used.get(key) == state.turn:
        key += "#2"  # the second use of a 2/Turn ability this turn (rule ability.once)
    state.used[key] = state.turn
    state.pending = None


@handles("SpellUsed", "PieceUsed", "ArtsUsed")
def _card_used(state: GameState, d: dict[str, Any], e: Any) -> None:
    _pay(state, d)
    if e.type == "SpellUsed" and d["player"] in state.flags.get("spell_eased", ()):  # the next spell used
        state.flags["spell_eased"] = [p for p in state.flags["spell_eased"] if p != d["player"]]
    if d.get("excluded_after"):  # this turn, leaving the check zone, it is removed from the game instead
        state.flags["exclude_leaving"] = [*state.flags.get("exclude_leaving", []), d["card"]]
    move(state, d["card"], "check")
    state.pending = None


@handles("CostPaid")
def _cost_paid(state: GameState, d: dict[str, Any], _e: Any) -> None:
    _pay(state, d)
    state.pending = None


@handles("CutInDeclared")
def _cut_in_declared(state: GameState, d: dict[str, Any], _e: Any) -> None:
    """The spell cut in to waits in the check zone; how it goes on is kept until the cut-in resolved."""
    state.flags["cut_in"] = dict(d["resume"])
    state.pending = None


@handles("EffectCountered")
def _effect_countered(state: GameState, d: dict[str, Any], _e: Any) -> None:
    state.flags["countered"] = [*state.flags.get("countered", ()), d["card"]]


@handles("CutInResolved")
def _cut_in_resolved(state: GameState, d: dict[str, Any], _e: Any) -> None:
    state.flags.pop("cut_in", None)
    if d.get("countered"):
        card = d["piece"] if "piece" in d else d["spell"]  # a PIECE answered by a cut-in (piece.cut-in)
        state.flags["countered"] = [c for c in state.flags.get("countered", ()) if c != card]
        move(state, card, d.get("put", "trash"))


@handles("AbilityResolved")
def _resolved(state: GameState, d: dict[str, Any], _e: Any) -> None:
    if d.get("put"):
        move(state, d["card"], d["put"])


@handles("CardsMilled")
def _milled(state: GameState, d: dict[str, Any], _e: Any) -> None:
    for iid in d["cards"]:
        move(state, iid, "trash")


@handles("CardsSet")
def _set(state: GameState, d: dict[str, Any], _e: Any) -> None:
    for iid in d["cards"]:
        slot = _slot_of(state, iid)
        if "downed" in d:
            slot.downed = bool(d["downed"])
        if "frozen" in d:
            slot.frozen = bool(d["frozen"])


def _deck_to_ener(state: GameState, d: dict[str, Any]) -> None:
    """Who moved a card from their deck into their ener zone this turn ("if a card moved from your deck to
    your ener zone this turn")."""
    if d.get("from") == "deck" and d["player"] not in state.flags.get("deck_to_ener", ()):
        state.flags["deck_to_ener"] = [*state.flags.get("deck_to_ener", []), d["player"]]


@handles("CardsMoved")
def _moved(state: GameState, d: dict[str, Any], _e: Any) -> None:
    top = bool(d.get("top"))  # on top of the pile: the first card on the very top
    for iid in reversed(d["cards"]) if top else d["cards"]:
        move(state, iid, d["to"], top=top)
    if d.get("to") == "ener":
        _deck_to_ener(state, d)
    state.pending = None


@handles("SigniPutOntoField")
def _put_onto_field(state: GameState, d: dict[str, Any], _e: Any) -> None:
    take(state, d["card"])
    ps = state.players[d["player"]]
    _below_unbecomes(state, ps.signi[d["zone"]])
    slot = ps.signi[d["zone"]] = _on_top(ps.signi[d["zone"]], d["card"])
    if d.get("downed"):
        slot.downed = True
    if d.get("no_abilities"):  # put onto the field as a SIGNI with no abilities: it never has them there
        slot.keywords = ["no_abilities"]
        state.flags["lost_abilities"] = [*state.flags.get("lost_abilities", []), d["card"]]
    state.pending = None


@handles("PowerChanged")
def _power_changed(state: GameState, d: dict[str, Any], _e: Any) -> None:
    _slot_of(state, d["card"]).power_mod += int(d["amount"])


@handles("EnerZoneGranted")
def _ener_zone_granted(state: GameState, d: dict[str, Any], _e: Any) -> None:
    """The player's ener zone gives its cards Multi Ener until end of turn (the flags end with it)."""
    state.flags["multi_ener_zone"] = [*state.flags.get("multi_ener_zone", []), d["player"]]


@handles("KeywordsGranted")
def _granted(state: GameState, d: dict[str, Any], _e: Any) -> None:
    if d.get("zone") == "ener":  # an ener card gains Multi Ener until end of turn (the flags end with it)
        state.flags["multi_ener"] = [*state.flags.get("multi_ener", []), d["card"]]
        return
    if d.get("zone") == "hand":  # a SIGNI in the hand gains the Guard icon this turn (facts.card_of)
        state.flags["guard_icon"] = [*state.flags.get("guard_icon", []), d["card"]]
        return
    _slot_of(state, d["card"]).keywords.extend(d["keywords"])


@handles("Answered")
def _answered(state: GameState, d: dict[str, Any], _e: Any) -> None:
    state.pending = None


@handles("CardRevealed")
def _revealed_card(state: GameState, d: dict[str, Any], _e: Any) -> None:
    return None


@handles("CardsToDeckBottom")
def _to_bottom(state: GameState, d: dict[str, Any], _e: Any) -> None:
    for iid in d["cards"]:
        move(state, iid, "deck")


@handles("NumberDeclared", "ColorDeclared", "HandRevealed", "AbilityNegated")
def _told(state: GameState, d: dict[str, Any], _e: Any) -> None:
    return None  # information only


@handles("SigniAwakened")
def _awakened(state: GameState, d: dict[str, Any], _e: Any) -> None:
    _slot_of(state, d["card"]).awakened = True


@handles("MinusDoubled")
def _minus_doubled(state: GameState, d: dict[str, Any], _e: Any) -> None:
    if d["player"] not in state.flags.get("minus_doubled", ()):  # this turn only, as the flags are
        state.flags["minus_doubled"] = [*state.flags.get("minus_doubled", []), d["player"]]


@handles("VanishRedirected")
def _vanish_redirected(state: GameState, d: dict[str, Any], _e: Any) -> None:
    redirected = dict(state.flags.get("vanish_to_trash", {}))  # this turn only, as the flags are
    redirected.setdefault(d["player"], d["by_effect"])
    state.flags["vanish_to_trash"] = redirected


@handles("SpellsBanned")
def _spells_banned(state: GameState, d: dict[str, Any], _e: Any) -> None:
    state.flags["no_spells"] = [*state.flags.get("no_spells", []), d["player"]]


@handles("CoinsGained")
def _coins_gained(state: GameState, d: dict[str, Any], _e: Any) -> None:
    ps = _player(state, d)
    ps.coins += int(d["count"])
    ps.coins_gained += int(d["count"])  # the record of the game (rule effect.coins)


@handles("CoinsPaid")
def _coins_paid(state: GameState, d: dict[str, Any], _e: Any) -> None:
    ps = _player(state, d)
    if ps.coins < int(d["count"]):
        raise EvolveError("a player cannot pay more coins than they hold")
    ps.coins -= int(d["count"])


@handles("SigniTargeted")
def _targeted(state: GameState, d: dict[str, Any], _e: Any) -> None:
    return None  # only what it triggers follows


@handles("ZoneKeywordsGranted")
def _zone_keywords(state: GameState, d: dict[str, Any], _e: Any) -> None:
    old = state.flags.get("zone_keywords", {})  # the flags are copied shallowly: build new values
    mine = dict(old.get(d["player"], {}))
    for zone in d["zones"]:
        mine[zone] = [*mine.get(zone, []), *d["keywords"]]
    state.flags["zone_keywords"] = {**old, d["player"]: mine}


@handles("AttackForbidden")
def _attack_forbidden(state: GameState, d: dict[str, Any], _e: Any) -> None:
    old = state.flags.get("attack_forbidden", {})  # the flags are copied shallowly: build new values
    state.flags["attack_forbidden"] = {**old, d["player"]: [*old.get(d["player"], []), d["zone"]]}
    state.pending = None


@handles("DeckTopArranged")
def _arranged(state: GameState, d: dict[str, Any], _e: Any) -> None:
    deck = _player(state, d).zones["deck"]
    top, bottom = list(d["top"]), list(d["bottom"])
    if sorted(deck[: len(top) + len(bottom)]) != sorted(top + bottom):
        raise EvolveError("the arranged cards must be the top of the deck")
    deck[:] = top + deck[len(top) + len(bottom) :] + bottom


@handles("EffectDelayed")
def _delayed(state: GameState, d: dict[str, Any], _e: Any) -> None:
    state.waiting.append({**d, "kind": "delayed", "key": f"t{state.version + 1}"})


@handles("EffectEnded")
def _delay_ended(state: GameState, d: dict[str, Any], _e: Any) -> None:
    state.waiting = [w for w in state.waiting if w["key"] != d["key"]]


@handles("AbilityGranted")
def _ability_granted(state: GameState, d: dict[str, Any], _e: Any) -> None:
    _slot_of(state, d["card"]).keywords.append(f"ability:{d['ability']}")


@handles("LastingEffectSet")
def _lasting(state: GameState, d: dict[str, Any], _e: Any) -> None:
    entry = {k: v for k, v in d.items() if k != "player"}
    _player(state, d).lasting = [*_player(state, d).lasting, entry]


@handles("AbilityHeld")
def _ability_held(state: GameState, d: dict[str, Any], _e: Any) -> None:
    held = {"card": d["card"], "ability": d["ability"], "holder": d["holder"]}
    _player(state, d).held.append(held)


@handles("SigniMoved")
def _signi_moved(state: GameState, d: dict[str, Any], _e: Any) -> None:
    ps = _player(state, d)
    if d.get("moves"):  # several SIGNI put back in the zones together
        slots = {m["from"]: ps.signi[m["from"]] for m in d["moves"]}
        for m in d["moves"]:
            if slots[m["from"]] is None or slots[m["from"]].iid != m["card"]:  # type: ignore[union-attr]
                raise EvolveError("a SIGNI moves from where it is")
            ps.signi[m["from"]] = None
        for m in d["moves"]:
            if ps.signi[m["to"]] is not None:
                raise EvolveError("SIGNI are put back only into empty SIGNI zones")
            ps.signi[m["to"]] = slots[m["from"]]
        return
    slot, other = ps.signi[d["from"]], ps.signi[d["to"]]
    if d.get("with"):  # two SIGNI change places
        if slot is None or other is None or slot.iid != d["card"] or other.iid != d["with"]:
            raise EvolveError("two SIGNI change places from where they are")
        ps.signi[d["to"]], ps.signi[d["from"]] = slot, other
        return
    if slot is None or slot.iid != d["card"] or other is not None:
        raise EvolveError("a SIGNI moves from where it is to an empty SIGNI zone")
    ps.signi[d["to"]], ps.signi[d["from"]] = slot, None


@handles("LifeBurstCancelled")
def _burst_cancelled(state: GameState, d: dict[str, Any], _e: Any) -> None:
    return None  # the card stays "used": rule processing puts it into the ener zone


@handles("BaseChanged")
def _base_changed(state: GameState, d: dict[str, Any], _e: Any) -> None:
    """Kept with what the card gained until end of turn; a flag tells ``facts.level`` to look, this turn."""
    slot = _slot_of(state, d["card"])
    if d.get("level") is not None:  # an effect may set the base power alone
        slot.keywords.append(f"base_level:{int(d['level'])}")
    slot.keywords.append(f"base_power:{int(d['power'])}")
    state.flags["base_changed"] = True


@handles("LrigReturned")
def _lrig_returned(state: GameState, d: dict[str, Any], _e: Any) -> None:
    """The card just under it is now the LRIG in that place, in the same state, the rest still under it."""
    ps = _player(state, d)
    slot = ps.lrig[d["position"]]
    if slot is None or slot.iid != d["card"]:
        raise EvolveError("the returned LRIG is not where the event says")
    below = slot.under[-1] if slot.under else None
    ps.lrig[d["position"]] = None if below is None else Slot(below, slot.downed, slot.frozen, slot.under[:-1])
    put(state, d["card"], "lrig_deck")


@handles("AbilitiesLost")
def _abilities_lost(state: GameState, d: dict[str, Any], _e: Any) -> None:
    """What the cards gained before is lost too; what they gain afterwards they keep. The flags remember the
    loss for a card that then leaves the field (its leave-the-field abilities do not trigger)."""
    for iid in d["cards"]:
        _slot_of(state, iid).keywords = ["no_abilities"]
    state.flags["lost_abilities"] = [*state.flags.get("lost_abilities", []), *d["cards"]]


@handles("SigniBecame")
def _became(state: GameState, d: dict[str, Any], _e: Any) -> None:
    """The SIGNI is that card until end of turn: the card map is replaced by a new one (states share theirs,
    and card facts are cached per map), the printed card kept in the flags to be restored (``_unbecome``)."""
    iid = d["card"]
    _slot_of(state, iid)  # on the field
    became = dict(state.flags.get("became", {}))
    became.setdefault(iid, state.cards[iid])  # becoming again: still its printed card underneath
    state.flags["became"] = became
    state.cards = {**state.cards, iid: str(d["as"])}


def _unbecome(state: GameState, iids: list[str]) -> None:
    """The cards are their printed cards again (a new card map, as ``_became`` makes one)."""
    became = state.flags.get("became") or {}
    back = {i: became[i] for i in iids if i in became}
    if not back:
        return
    state.cards = {**state.cards, **back}
    rest = {k: v for k, v in became.items() if k not in back}
    if rest:
        state.flags["became"] = rest
    else:
        state.flags.pop("became", None)


@handles("AbilityCounted")
def _ability_counted(state: GameState, d: dict[str, Any], _e: Any) -> None:
    state.used[f"{d['card']}/{d['ability']}" + ("#2" if d.get("second") else "")] = state.turn


@handles("LifeClothAdded")
def _life_added(state: GameState, d: dict[str, Any], _e: Any) -> None:
    ps = _player(state, d)
    n = int(d["count"])
    if len(ps.zones["deck"]) < n:
        raise EvolveError("cannot add more cards to the Life Cloth than the deck holds")
    cards = ps.zones["deck"][:n]
    del ps.zones["deck"][:n]
    ps.zones["life_cloth"] = cards + ps.zones["life_cloth"]


@handles("LifeClothToDeck")
def _life_to_deck(state: GameState, d: dict[str, Any], _e: Any) -> None:
    ps = _player(state, d)
    n = int(d["count"])
    if len(ps.zones["life_cloth"]) < n:
        raise EvolveError("cannot take more cards from the Life Cloth than it holds")
    cards = ps.zones["life_cloth"][:n]
    del ps.zones["life_cloth"][:n]
    ps.zones["deck"] = cards + ps.zones["deck"]


@handles("CardsPutUnder")
def _put_under(state: GameState, d: dict[str, Any], _e: Any) -> None:
    target = _slot_of(state, d["card"])
    for iid in d["cards"]:
        take(state, iid)
        target.under.append(iid)


@handles("AttackLimitChanged")
def _attack_limit(state: GameState, d: dict[str, Any], _e: Any) -> None:
    mods = dict(state.flags.get("attack_limit_mod", {}))
    mods[d["card"]] = int(mods.get(d["card"], 0)) + int(d["amount"])
    state.flags["attack_limit_mod"] = mods  # this turn only, as the flags are


@handles("PreventionSet")
def _prevention_set(state: GameState, d: dict[str, Any], _e: Any) -> None:
    entry = {**d, "key": f"s{state.version + 1}"}
    state.flags["preventions"] = [*state.flags.get("preventions", []), entry]  # flags end with the turn


@handles("DamagePrevented")
def _damage_prevented(state: GameState, d: dict[str, Any], _e: Any) -> None:
    left = []
    for entry in state.flags.get("preventions", []):
        if entry["key"] == d["key"] and not entry.get("all"):  # one for all of the turn is not spent
            entry = {**entry, "times": int(entry["times"]) - 1}
        if int(entry["times"]) > 0:
            left.append(entry)
    state.flags["preventions"] = left
    if d.get("attack") and state.attack is not None:
        state.attack["resolved"] = True


@handles("DamageReplaced")
def _damage_replaced(state: GameState, d: dict[str, Any], _e: Any) -> None:
    if state.attack is not None:  # the attack's damage was replaced: it is done
        state.attack["resolved"] = True


@handles("LeavingReplaced")
def _leaving_replaced(state: GameState, d: dict[str, Any], _e: Any) -> None:
    if d["card"] in state.flags.get("leave_choice", {}):  # the answer about its replacement is spent
        state.flags["leave_choice"] = {k: v for k, v in state.flags["leave_choice"].items() if k != d["card"]}


@handles("ReplacementChosen")
def _replacement_chosen(state: GameState, d: dict[str, Any], _e: Any) -> None:
    state.flags["leave_choice"] = {**state.flags.get("leave_choice", {}), d["card"]: d["option"]}
    state.pending = None


@handles("ReplacementDeclined")
def _replacement_declined(state: GameState, d: dict[str, Any], _e: Any) -> None:
    if state.attack is not None:  # not asked again for this attack
        state.attack["declined"] = [*state.attack.get("declined", []), d["card"]]


@handles("EffectDamageDealt")
def _effect_damage(state: GameState, d: dict[str, Any], _e: Any) -> None:
    return None  # the crush (or the end of the game) that follows is an event of its own


def _slot_of(state: GameState, iid: str) -> Slot:
    ps = state.players[state.owners[iid]]
    for slot in [*ps.signi.values(), *ps.lrig.values()]:
        if slot is not None and slot.iid == iid:
            return slot
    raise EvolveError(f"card {iid} is not on the field")


@handles("Branched")
def _branched(state: GameState, d: dict[str, Any], _e: Any) -> None:
    return None


@handles("Adjusted")
def _adjusted(state: GameState, d: dict[str, Any], _e: Any) -> None:
    apply_steps(state, d["steps"])
    if d.get("reopen"):
        state.pending = None


@handles("CardsArranged")
def _cards_arranged(state: GameState, d: dict[str, Any], _e: Any) -> None:
    cards = dict(state.cards)  # a new mapping: states share theirs, and card facts are cached per mapping
    for a, b in d.get("swaps") or ():
        cards[a], cards[b] = cards[b], cards[a]
    state.cards = cards
    if d.get("seed") is not None:
        state.seed = int(d["seed"])


# A judge's adjustment (``domain.adjust`` checks the steps before they are recorded)
def _slot(s: GameState, iid: str) -> Slot:
    ps = s.players[s.owners[iid]]
    for slot in [*ps.signi.values(), *ps.lrig.values()]:
        if slot is not None and slot.iid == iid:
            return slot
    raise ValueError(f"{iid} is not on the field")


def apply_steps(state: GameState, steps: list[dict[str, Any]]) -> None:
    for step in steps:
        op = step["op"]
        if op == "move":
            if step["to"] == "signi":
                take(state, step["card"])
                state.players[step["player"]].signi[step["zone"]] = Slot(step["card"])
            else:
                move(state, step["card"], step["to"], top=bool(step.get("top")))
        elif op == "power":
            _slot(state, step["card"]).power_mod += int(step["amount"])
        elif op in ("down", "up"):
            _slot(state, step["card"]).downed = op == "down"
        elif op == "freeze":
            _slot(state, step["card"]).frozen = True
        elif op == "draw":
            ps = state.players[step["player"]]
            n = len(step["cards"])
            if ps.zones["deck"][:n] != step["cards"]:
                raise ValueError("drawn cards must be the top of the deck")
            del ps.zones["deck"][:n]
            ps.zones["hand"].extend(step["cards"])
        elif op == "shuffle":
            ps = state.players[step["player"]]
            if sorted(ps.zones["deck"]) != sorted(step["order"]):
                raise ValueError("a shuffle keeps the deck's cards")
            ps.zones["deck"] = list(step["order"])


__all__ = ["SIGNI_ZONES", "EvolveError", "apply", "apply_steps", "evolve", "fold", "move", "put", "take"]


# -- zone markers and erased zones ----------------------------------------------------------------


@handles("MarkersPlaced")
def _markers_placed(state: GameState, d: dict[str, Any], _e: Any) -> None:
    """A marker (Virus ...) is put in each of the player's SIGNI zones named; it stays there, whatever
    SIGNI come and go, until an effect or a cost removes it."""
    ps = _player(state, d)
    for zone in d["zones"]:
        if zone not in SIGNI_ZONES:
            raise EvolveError(f"{zone!r} is not a SIGNI zone")
        ps.markers[zone] = [*ps.markers.get(zone, []), d["marker"]]


@handles("MarkersRemoved")
def _markers_removed(state: GameState, d: dict[str, Any], _e: Any) -> None:
    ps = _player(state, d)
    for zone in d["zones"]:
        here = list(ps.markers.get(zone, []))
        if d["marker"] not in here:
            raise EvolveError(f"no {d['marker']} in {d['player']}'s {zone} SIGNI zone")
        here.remove(d["marker"])
        if here:
            ps.markers[zone] = here
        else:
            ps.markers.pop(zone, None)


@handles("ZoneErased")
def _zone_erased(state: GameState, d: dict[str, Any], _e: Any) -> None:
    """Until end of turn no SIGNI can be put in the zone (the flags end with the turn, or as effects until
    end of turn expire)."""
    old = state.flags.get("erased", {})  # the flags are copied shallowly: build new values
    state.flags["erased"] = {**old, d["player"]: sorted({*old.get(d["player"], []), d["zone"]})}


@handles("SigniTurnedFaceDown")
def _turned_face_down(state: GameState, d: dict[str, Any], _e: Any) -> None:
    """A SIGNI turned face down (rule face-down.signi): it stays in its SIGNI zone as a face-down card, which
    is not a SIGNI; it keeps none of its states or changes (the cards under it stay under it)."""
    ps = _player(state, d)
    slot = ps.signi[d["zone"]]
    if slot is None or slot.iid != d["card"]:
        raise EvolveError("a SIGNI is turned face down where it is")
    if slot.iid in state.flags.get("became", ()):  # no SIGNI any more: its printed card again
        _unbecome(state, [slot.iid])
    ps.signi[d["zone"]] = None
    entry = {"iid": slot.iid, "under": list(slot.under), "seen_by": list(d["seen_by"])}
    ps.face_down[d["zone"]] = [*ps.face_down.get(d["zone"], []), entry]
    state.pending = None


@handles("CardTurnedFaceUp")
def _turned_face_up(state: GameState, d: dict[str, Any], _e: Any) -> None:
    """A face-down card in a SIGNI zone with no SIGNI is turned face up: a new SIGNI there, upped."""
    ps = _player(state, d)
    entries = ps.face_down.get(d["zone"], [])
    entry = next((e for e in entries if e["iid"] == d["card"]), None)
    if entry is None or ps.signi[d["zone"]] is not None:
        raise EvolveError("a face-down card is turned face up in its own SIGNI zone, with no SIGNI there")
    entries.remove(entry)
    if not entries:
        del ps.face_down[d["zone"]]
    ps.signi[d["zone"]] = Slot(entry["iid"], under=list(entry["under"]))
    state.pending = None
