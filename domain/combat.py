"""Attacks: declaring them, the guard step, battle, damage and crush.

An attack is resolved against the board as it is once the attack's own triggers and rule processing are
done: a SIGNI that left the spot in front means damage. Battle is one-sided: only the attacked SIGNI can be
vanished. Damage crushes Life Cloth (two with Double Crush); damage with no Life Cloth left loses the game.
A crush by Lancer is not damage and does nothing when no Life Cloth is left.
"""

from __future__ import annotations

from typing import Any

from domain import facts
from domain.abilities import effects, leaving
from domain.abilities.constants import immune, lrig_attack_terms, replacements
from domain.abilities.filters import card_fits
from domain.abilities.vocabulary import steps_text
from domain.formats import format_of
from domain.kinds import DecisionKind
from domain.recorder import Recorder
from domain.state import GameState, Slot, facing, opponent


def signi_can_attack(s: GameState, tp: str) -> bool:
    ps = s.players[tp]
    able = any(
        sl is not None and not sl.downed and not facts.signi_cannot_attack(s, sl) for sl in ps.signi.values()
    )
    return able or lrig_can_attack(s, tp)


def lrig_can_attack(s: GameState, tp: str) -> bool:
    return lrig_attack_refusal(s, tp) is None


def lrig_attack_refusal(s: GameState, tp: str) -> tuple[str, str] | None:
    """Why the center LRIG cannot attack now (a rule id and a reason), or None when it can. An LRIG attacks
    only while upped, as often as it is upped again, unless a constant lets it attack while downed, up to a
    number of times this turn (``effect.attack-count``)."""

    c = s.players[tp].lrig["center"]
    if c is None:
        return "decision.invalid", f"{tp} has no center LRIG"
    while_downed, limit = lrig_attack_terms(s, c.iid)
    done = int(s.flags.get("lrig_attacks", 0))
    if limit is not None and done >= limit:
        return "effect.attack-count", f"{tp}'s center LRIG may attack {max(limit, 0)} time(s) this turn: done"
    if c.downed and not while_downed:
        return "attack.downed", f"{tp}'s center LRIG is downed and cannot attack"
    if "cannot_attack" in facts.keywords(s, c):  # an effect gave it "cannot attack" (000 "Effect")
        return "effect.cannot-attack", f"an effect says {tp}'s center LRIG cannot attack"
    return None


def attacker_slot(s: GameState) -> Slot | None:
    a = s.attack
    assert a is not None
    ps = s.players[a["player"]]
    slot = ps.lrig["center"] if a["zone"] == "lrig" else ps.signi[a["zone"]]
    return slot if slot is not None and slot.iid == a["card"] else None


def resolve(rec: Recorder) -> None:
    """One piece of the attack under way; called again until the attack has ended."""
    s = rec.state
    a = s.attack
    assert a is not None
    tp, defender = a["player"], opponent(a["player"])
    if not a.get("resolved"):
        slot = attacker_slot(s)
        if slot is None:  # the attacker left the field before the attack was resolved
            rec.emit("AttackEnded", "rules", "attack.triggers", {"result": "attacker left the field"})
            return
        negation = next((e for e in s.flags.get("preventions", []) if e.get("what") == "attack"), None)
        if negation is not None and a["zone"] != "lrig":  # "the next time a SIGNI attacks, negate it"
            data = {"result": "negated", "zone": a["zone"], "card": a["card"], "key": negation["key"]}
            rec.emit("AttackEnded", "rules", "effect.negate-attack", {**data, "by_effect": negation["card"]})
            return
        if a["zone"] == "lrig":
            if s.step != "guard":
                rec.emit("StepBegan", "rules", "guard.step", {"step": "guard"})
                return
            if a.get("guard") is None:
                rec.ask(defender, DecisionKind.GUARD, "guard.step", attacker=a["card"])
                return
            if a["guard"] == "instead":  # guarded by a cost paid in place of a card with Guard
                rec.emit("AttackEnded", "rules", "effect.guard-cost", {"result": "guarded"})
                return
            if a["guard"] != "passed":
                rec.emit("AttackEnded", "rules", "kw.guard", {"result": "guarded", "card": a["guard"]})
                return
            damage(rec, tp, defender, slot, "attack.lrig")
            return
        kws = facts.keywords(s, slot)
        front_zone = facing(a["zone"])
        front = s.players[defender].signi[front_zone]
        if front is not None and "assassin" not in kws:
            battle(rec, tp, slot, defender, front_zone, front)
        else:
            damage(rec, tp, defender, slot, "kw.assassin" if front is not None else "damage.signi")
        return
    if a.get("lancer") == "due":
        slot = attacker_slot(s)
        struck = a.get("s_lancer") and not s.players[defender].zones["life_cloth"] and slot is not None
        crush(rec, defender, 1, "lancer", "kw.lancer", caused_by=None)
        if struck and slot is not None:  # S Lancer with no Life Cloth left: it deals damage instead
            damage(rec, tp, defender, slot, "kw.s-lancer")
        return
    rec.emit("AttackEnded", "rules", "attack.phase", {"zone": a["zone"], "card": a["card"]})


def battle(rec: Recorder, tp: str, slot: Slot, defender: str, front_zone: str, front: Slot) -> None:
    s = rec.state
    ap, dp = facts.power(s, slot), facts.power(s, front)
    # 000 'Battle': the SIGNI with less (or equal) power is vanished, unless it cannot be vanished at all
    vanished = ap >= dp and not immune(s, front.iid, "vanish", tp, battle=True)
    own = leaving.own_replacement(s, front.iid, vanish=True) if vanished else None
    if own is not None and leaving.undecided(s, [front.iid], vanish=True) is not None:
        leaving.ask(rec, front.iid, vanish=True)  # its player is asked first, the battle waiting
        return
    instead = leaving.replaced(s, front.iid, vanish=True) if own is not None else None
    if instead is not None:  # not vanished: it goes where its own replacement says
        data = {"attacker": slot.iid, "defender": front.iid, "attacker_power": ap, "defender_power": dp}
        rec.emit("Battled", "rules", "battle.compare", {**data, "result": "replaced", "lancer": False})
        leaving.redirect(rec, front.iid, instead)
        return
    kws = facts.keywords(s, slot)
    lancer = vanished and bool({"lancer", "s_lancer"} & kws)
    n = rec.emit(
        "Battled",
        "rules",
        "battle.compare",
        {
            "attacker": slot.iid,
            "defender": front.iid,
            "attacker_power": ap,
            "defender_power": dp,
            "result": "vanished" if vanished else "nothing",
            "lancer": lancer,
            **({"s_lancer": True} if lancer and "s_lancer" in kws else {}),
        },
    )
    if vanished:
        v = rec.emit(
            "SigniVanished",
            "rules",
            "battle.compare",
            {"player": defender, "card": front.iid, "zone": front_zone, "cause": "battle"},
            caused_by=n,
        )
        if lancer and format_of(s).setting(s.options, "lancer") == "battle":
            # the option lancer: battle (the rule before 2018-02-22, WXR-042): the crush is part of the
            # battle's result ("vanish; if so, crush one"), not a triggered ability waiting for the others
            crush(rec, defender, 1, "lancer", "orig.kw.lancer-battle", caused_by=v)


def prevented(rec: Recorder, player: str, source: str, attack: bool) -> bool:
    """Whether damage the player would take is prevented instead (``effect.prevent-damage``): one use of a
    prevention set this turn is spent, one that costs nothing first, and what it says happens then. A
    prevention ``from`` a SIGNI (or an LRIG) spares only damage that kind of card deals, by its attack or its
    effect (seed 000, Damage); one with a ``filter`` only damage a card fitting it deals; one for ``all`` of
    the turn is not spent."""

    def spares(e: dict[str, Any]) -> bool:  # a prevention "from" a kind of card spares only its damage
        if e.get("from") is None and not e.get("filter") and not e.get("whose"):
            return True
        if source not in rec.state.cards:  # no card dealt it: a prevention "from" a kind of card spares none
            return False
        if e.get("whose") == "opponent" and rec.state.owners.get(source) == player:  # "the opponent's SIGNI"
            return False
        kind = facts.card_of(rec.state, source)
        if e.get("filter") and not card_fits(kind, e["filter"]):  # "from a level three or less SIGNI"
            return False
        return e.get("from") is None or (kind.is_signi if e["from"] == "signi" else kind.is_lrig)

    mine = [
        e
        for e in rec.state.flags.get("preventions", [])
        if e["player"] == player
        and e.get("what") != "attack"  # a negation of the next attack is no prevention of damage
        and spares(e)
    ]
    if not mine:
        return False
    entry = next((e for e in mine if not e.get("effect")), mine[0])
    rec.emit(
        "DamagePrevented",
        "rules",
        "effect.prevent-damage",
        {"player": player, "source": source, "card": entry["card"], "key": entry["key"], "attack": attack},
    )
    if entry.get("effect"):
        effect = {"effect": entry["effect"]}
        effects.start(rec, entry["card"], player, entry["ability"], effect, "effect.prevent-damage")
    return True


def replaced(rec: Recorder, defender: str, source: str) -> bool:
    """Whether the damage of the attack under way is replaced (``effect.replace``), or waits for the defender
    to answer whether to replace it: a replacement that says "you may" is asked first (once each for this
    attack); one that does not is used at once. What it names happens instead, as an effect of its card."""
    a = rec.state.attack or {}
    found = [r for r in replacements(rec.state, defender, "damage") if r[0] not in a.get("declined", [])]
    if not found:
        return False
    card, _ref, step = found[0]
    if step.get("optional"):
        rec.ask(
            defender,
            DecisionKind.CHOOSE,
            "effect.replace",
            purpose="replace",
            card=card,
            min=0,
            max=0,
            choices=[],
            options=["replace", "decline"],
            prompt=f"replace the damage of this attack? instead: {steps_text(step['instead'])}",
        )
        return True
    replace_damage(rec, defender, card)
    return True


def replace_damage(rec: Recorder, defender: str, card: str) -> None:
    """The damage of the attack under way is replaced by the replacement constant of ``card``: what it names
    happens instead (the defender chose to, or it says no "may")."""
    s = rec.state
    found = [r for r in replacements(s, defender, "damage") if r[0] == card]
    if not found or s.attack is None:  # it left the field, or lost its abilities, while asked: not replaced
        return
    _card, ref, step = found[0]
    data = {"player": defender, "source": s.attack["card"], "card": card, "attack": True}
    rec.emit("DamageReplaced", "rules", "effect.replace", data)
    effects.start(rec, card, defender, ref, {"effect": step["instead"]}, "effect.replace")


def damage(rec: Recorder, tp: str, defender: str, slot: Slot, rule: str) -> None:
    s = rec.state
    if replaced(rec, defender, slot.iid):
        return
    if prevented(rec, defender, slot.iid, attack=True):
        return
    kws = facts.keywords(s, slot)
    n_crush = 2 if "double_crush" in kws else 1
    life = s.players[defender].zones["life_cloth"]
    data: dict[str, Any] = {"player": defender, "source": slot.iid, "crushes": n_crush}
    if n_crush == 2:
        data["keyword"] = "double_crush"
    n = rec.emit("DamageDealt", "rules", rule, data)
    if not life:
        rec.emit(
            "GameEnded",
            "rules",
            "damage.no-life",
            {
                "winner": tp,
                "loser": defender,
                "reason": "damage with no Life Cloth left",
                "rule": "damage.no-life",
            },
            caused_by=n,
        )
        return
    crush(
        rec, defender, n_crush, "damage", "kw.double-crush" if n_crush == 2 else "damage.crush", caused_by=n
    )


def crush(
    rec: Recorder,
    player: str,
    count: int,
    cause: str,
    rule: str,
    caused_by: int | None,
    cancel: dict[str, Any] | None = None,
) -> None:
    """Crush the top ``count`` Life Cloth (fewer if fewer are left) into the check zone. ``cancel``: who may
    pay what to keep a Life Burst of these cards from activating once its player chooses to use it."""
    s = rec.state
    cards = s.players[player].zones["life_cloth"][:count]
    bursts = [iid for iid in cards if facts.has_life_burst(s, iid)]  # printed, or given by a constant
    data: dict[str, Any] = {"player": player, "cards": cards, "bursts": bursts, "cause": cause}
    if cancel and bursts:
        data["cancel"] = cancel
    if not cards:
        data["note"] = "no Life Cloth left: nothing is crushed"
    rec.emit("LifeClothCrushed", "rules", rule, data, caused_by=caused_by)
