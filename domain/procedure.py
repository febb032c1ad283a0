"""The game running on by itself: set-up, the phases of a turn, and the steps of the attack phase.

``advance`` loops until somebody must decide: first rule processing (always before anything else), then
waiting triggered abilities (Life Bursts), then the next piece of the turn's procedure. Each piece either
emits events that move the game on, or asks a decision and stops.
"""

from __future__ import annotations

from domain import coins, combat, facts, rba
from domain.abilities.triggers import next_waiting
from domain.abilities.use import after_cut_in
from domain.formats import DIVA, format_of
from domain.kinds import DecisionKind
from domain.recorder import Recorder
from domain.state import GameState, opponent
from domain.turn_end import clear_check_zone, end_turn, end_turn_now

HAND_LIMIT = 6


def advance(rec: Recorder) -> None:
    guard = 0
    while True:
        guard += 1
        if guard > 10_000:  # a bug, not a game: never loop for ever
            raise RuntimeError("the procedure did not reach a decision")
        s = rec.state
        if s.status == "finished" or s.pending is not None:
            return
        if s.status == "setup":
            setup_step(rec)
            continue
        if s.flags.get("cut_in") is not None:  # a card cut in to a spell and has resolved: the spell goes on
            after_cut_in(rec)
            continue
        if rba.process(rec):
            continue
        if triggers(rec):
            continue
        turn_step(rec)


# -- set-up ---------------------------------------------------------------------------------------


def setup_step(rec: Recorder) -> None:
    """Mulligans (the first player declares first; both redraw at once), Life Cloth, LRIGs face up."""
    s = rec.state
    fp = s.first_player
    assert fp is not None
    sp = opponent(fp)
    for p in (fp, sp):
        if s.players[p].mulligan is None:
            rec.ask(p, DecisionKind.MULLIGAN, "setup.mulligan", max=len(s.players[p].zones["hand"]))
            return
    for p in (fp, sp):
        cards = list(s.players[p].mulligan or ())
        if not cards:
            continue
        rec.emit("CardsReturned", "rules", "setup.mulligan", {"player": p, "cards": cards})
        deck = list(s.players[p].zones["deck"])
        rec.random(f"mulligan:{p}").shuffle(deck)
        rec.emit("DeckShuffled", "rules", "setup.mulligan", {"player": p, "order": deck})
        rec.emit("CardsDrawn", "rules", "setup.mulligan", {"player": p, "cards": deck[: len(cards)]})
    for p in (fp, sp):
        top = s.players[p].zones["deck"][:7]
        rec.emit("LifeClothPlaced", "rules", "setup.life-cloth", {"player": p, "cards": top})
    rec.emit("LrigsRevealed", "rules", "setup.reveal", {})
    for p in (fp, sp):  # the coins printed on the LRIGs just turned face up
        lrigs = [slot.iid for slot in s.players[p].lrig.values() if slot is not None]
        coins.gain_printed(rec, p, sum(facts.card_of(s, iid).coin for iid in lrigs))
    rec.emit("TurnBegan", "rules", "turn.begin", {"turn": 1, "player": fp})


# -- triggered abilities --------------------------------------------------------------------------


def triggers(rec: Recorder) -> bool:
    """Waiting triggered abilities and Life Bursts: the turn player's first, then the other player's."""
    s = rec.state
    tp = s.turn_player or "p1"
    for p in (tp, opponent(tp)):
        if next_waiting(rec, p):
            return True
        bursts = [iid for iid, status in s.crushed.items() if status == "ask" and s.owners[iid] == p]
        if bursts:
            bursts.sort(key=lambda iid: s.players[p].zones["check"].index(iid))
            if len(bursts) == 1:
                rec.ask(p, DecisionKind.LIFE_BURST, "crush.check", card=bursts[0], card_id=s.cards[bursts[0]])
            else:  # two crushed at once (Double Crush): their player chooses which Life Burst comes first
                rec.ask(
                    p,
                    "life_burst",
                    "crush.check",
                    card=bursts[0],
                    card_id=s.cards[bursts[0]],
                    cards=bursts,
                    prompt="several of your crushed cards have a Life Burst: choose the one to decide first "
                    "(activate it or not); the others are asked next",
                )
            return True
    return False


# -- the turn -------------------------------------------------------------------------------------


def turn_step(rec: Recorder) -> None:
    s = rec.state
    tp = s.turn_player
    assert tp is not None
    phase, stage = s.phase, s.stage
    if phase == "up":
        if stage == "begin":
            up(rec, tp)
        else:
            rec.emit("PhaseBegan", "rules", "draw.phase", {"phase": "draw"})
    elif phase == "draw":
        if stage == "begin":
            draw_phase(rec, tp)
        else:
            rec.emit("PhaseBegan", "rules", "ener.phase", {"phase": "ener"})
    elif phase == "ener":
        if stage == "begin" and _ener_has_choice(s, tp):
            rec.ask(tp, DecisionKind.ENER, "ener.phase")
        else:
            rec.emit("PhaseBegan", "rules", "grow.phase", {"phase": "grow"})
    elif phase == "grow":
        if stage == "begin" and s.players[tp].zones["lrig_deck"]:
            rec.ask(tp, DecisionKind.GROW, "grow.phase")
        else:
            rec.emit("PhaseBegan", "rules", "main.phase", {"phase": "main"})
    elif phase == "main":
        if stage == "begin":
            rec.ask(tp, DecisionKind.MAIN, "main.phase")
        elif s.turn == 1:
            rec.emit("PhaseBegan", "rules", "attack.first-turn", {"phase": "end", "skipped": "attack"})
        else:
            rec.emit("PhaseBegan", "rules", "attack.phase", {"phase": "attack"})
    elif phase == "attack":
        format_of(s).attack_step(rec, tp)
    elif phase == "end":
        end_phase(rec, tp)
    else:  # pragma: no cover - the phases are closed
        raise RuntimeError(f"unknown phase {phase!r}")


def up(rec: Recorder, tp: str) -> None:
    ps = rec.state.players[tp]
    slots = [sl for sl in [*ps.lrig.values(), *ps.signi.values()] if sl is not None]
    upped = [sl.iid for sl in slots if sl.downed and not sl.frozen]
    thawed = [sl.iid for sl in slots if sl.frozen]
    rec.emit("CardsUpped", "rules", "up.phase", {"player": tp, "cards": upped, "thawed": thawed})


def draw_phase(rec: Recorder, tp: str) -> None:
    s = rec.state
    first_turn = s.turn == 1 and tp == s.first_player
    n = format_of(s).first_turn_draw if first_turn else format_of(s).phase_draw
    deck = s.players[tp].zones["deck"]
    rule = "draw.first-turn" if first_turn else "draw.phase"
    left = facts.draws_left(s, tp)  # an effect capped the cards drawn in this draw phase
    if left is not None and left < n:
        n, rule = left, "effect.draw-cap"
    # Drawing stops when the deck runs out: the refresh then comes, and the draw does not go on.
    cards = deck[: min(n, len(deck))]
    data = {"player": tp, "cards": cards, "phase_draw": True}
    if len(cards) < n:
        data["stopped"] = "refresh.draw"
    rec.emit("CardsDrawn", "rules", rule, data)


def _ener_has_choice(s: GameState, tp: str) -> bool:
    ps = s.players[tp]
    return bool(ps.zones["hand"]) or any(sl is not None for sl in ps.signi.values())


@DIVA.registers("attack_step")
def attack_step(rec: Recorder, tp: str) -> None:
    s = rec.state
    step, stage = s.step, s.stage
    defender = opponent(tp)
    if step is None:
        rec.emit("StepBegan", "rules", "attack.pre-attack", {"step": "pre_attack"})
    elif step == "pre_attack":
        if stage == "begin":
            rec.ask(tp, DecisionKind.PRE_ATTACK, "attack.pre-attack")
        else:
            rec.emit("StepBegan", "rules", "attack.defense", {"step": "defense"})
    elif step == "defense":
        if stage == "begin":
            rec.ask(defender, DecisionKind.DEFENSE, "attack.defense")
        else:
            rec.emit("StepBegan", "rules", "attack.signi", {"step": "signi_attack"})
    elif step == "signi_attack":
        if s.attack is not None:
            combat.resolve(rec)
        elif stage == "begin" and combat.signi_can_attack(s, tp):
            rec.ask(tp, DecisionKind.SIGNI_ATTACK, "attack.signi")
        else:
            rec.emit("StepBegan", "rules", "attack.lrig", {"step": "lrig_attack"})
    elif step in ("lrig_attack", "guard"):
        if s.attack is not None:
            combat.resolve(rec)
        elif stage == "begin" and combat.lrig_can_attack(s, tp):  # an LRIG upped again may attack again
            rec.ask(tp, DecisionKind.LRIG_ATTACK, "attack.lrig")
        else:
            rec.emit("PhaseBegan", "rules", "end.phase", {"phase": "end"})


def end_phase(rec: Recorder, tp: str) -> None:
    """In order: end-of-turn abilities (none are enforced yet), the turn player discards down to six,
    until-end-of-turn effects end, the check zone is emptied; then the other player's turn begins."""
    s = rec.state
    hand = s.players[tp].zones["hand"]
    limit = format_of(s).hand_limit
    if len(hand) > limit:
        n = len(hand) - limit
        rec.ask(tp, DecisionKind.DISCARD, "end.hand-size", count=n, min=n, max=n)
        return
    if not s.flags.get("expired"):
        rec.emit("EffectsExpired", "rules", "end.expire", {})
        return
    if any(s.players[p].zones["check"] for p in s.players):
        clear_check_zone(rec)
        return
    end_turn(rec, tp, "end.phase")


__all__ = ["advance", "clear_check_zone", "end_turn", "end_turn_now", "facts"]
