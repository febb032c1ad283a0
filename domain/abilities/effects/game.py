"""Steps about the game rather than cards: damage, crush, negating an attack, forbidding spells or attacks,
preventing damage, the number of LRIG attacks; zone markers (a Virus) put in or removed from SIGNI zones, and
SIGNI zones erased.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from domain import durations
from domain.abilities.constants import immune
from domain.abilities.effects.moving import move_cards
from domain.abilities.effects.running import Op, ask_zone, op, take, taken, who
from domain.abilities.effects.targeting import live_targets
from domain.abilities.frames import (
    Frame,
    Pending,
)
from domain.recorder import Recorder
from domain.state import SIGNI_ZONES, fresh, marker_kind, marker_of, opponent

Extra = Callable[[Frame, dict[str, Any]], dict[str, Any]]


@dataclass(frozen=True)
class Restriction:
    """A step that only records, for the rest of this turn, what a player may no longer do (or may do
    otherwise): the event it emits and its rule (None: the rule of the ability whose effect it is), whose
    it is (``who``: the step's ``who``, or this default; None: always the effect's own player), whether the
    event names its end (``until``), and what else the event tells, in order (``extra``)."""

    doc: str
    event: str
    rule: str | None
    who: str | None
    until: bool = True
    extra: Extra = field(default=lambda _f, _s: {})


RESTRICTIONS: dict[str, Restriction] = {
    "ban_spells": Restriction(
        "A player cannot use spells for the rest of this turn.",
        "SpellsBanned", "effect.no-spells", "you", until=False,
    ),
    "vanished_to_trash_this_turn": Restriction(
        "For the rest of this turn, a SIGNI of a player (``who``: the opponent by default) that is vanished "
        "goes to the trash instead of the ener zone.",
        "VanishRedirected", "effect.vanish-to-trash", "opponent", until=False,
    ),
    "double_minus_this_turn": Restriction(
        "For the rest of this turn, the minus power the effects of your SIGNI give the opponent's SIGNI is "
        "doubled.",
        "MinusDoubled", "power.modify", None, until=False,
    ),
    "signi_attack_limit": Restriction(
        "This turn a player's SIGNI (``who``) may attack at most ``amount`` times in all (seed 000 'Attack "
        "phase'); the attacks are counted from the moment the limit is set.",
        "SigniAttacksLimited", "effect.attack-count", "you", until=False,
        extra=lambda _f, s: {"max": int(s.get("amount", 1))},
    ),
    "bar_unchosen_attacks": Restriction(
        "This turn a player's (``who``: the opponent unless given) SIGNI that do not have to attack (no "
        "``must_attack``) cannot attack: \"they must attack with the chosen SIGNI and cannot with the "
        "others\".",
        "UnchosenAttacksBarred", None, "opponent",
    ),
    "compel_attacks": Restriction(
        "This turn every SIGNI of a player (``who``: the opponent unless given) must attack if able.",
        "AttacksCompelled", None, "opponent",
    ),
    "ease_next_spell": Restriction(
        "This turn, the next spell its player uses: they may pay one ener item of its use cost as colorless.",
        "SpellCostEased", "spell.use", None, until=False,
    ),
    "lock_ener_costs": Restriction(
        "This turn a player (``who``: the opponent unless given) cannot pay ener costs of one or more: not "
        "for using, growing, an ability's cost, a cost inside an effect, nor Guard's extra cost.",
        "EnerCostsLocked", None, "opponent",
    ),
    "cap_signi": Restriction(
        "This turn a player (``who``: the opponent unless given) may have at most ``amount`` SIGNI on the "
        "field: no more can be put there, and rule processing puts any beyond that into the trash.",
        "SigniCountCapped", None, "opponent", extra=lambda _f, s: {"max": int(s["amount"])},
    ),
    "bar_other_signi": Restriction(
        "This turn a player (``who``: you unless given) cannot put SIGNI other than this card onto the "
        "field: neither played from the hand nor put there by an effect.",
        "SigniEntryBarred", "effect.signi-entry", "you", extra=lambda f, _s: {"except": f.card},
    ),
    "bar_attacks_by_power": Restriction(
        "This turn a player's SIGNI (``who``: the opponent unless given) with power ``amount`` or less (as "
        "it is when they would attack) cannot attack.",
        "SigniAttackBarred", None, "opponent", extra=lambda _f, s: {"power_max": int(s["amount"])},
    ),
}  # fmt: skip


def _restriction(r: Restriction) -> Op:
    """The runner of a restriction: it emits its event for the player it names."""

    def run(rec: Recorder, frame: Frame, at: Pending, _t: list[str]) -> bool:
        step = at.step
        p = frame.player if r.who is None else who(frame, {"who": step.get("who", r.who)})
        data = {"player": p, **r.extra(frame, step)}
        data.update({"until": "end_of_turn"} if r.until else {})
        rec.emit(r.event, "rules", r.rule or frame.rule, {**data, "by_effect": frame.card})
        return True

    run.__doc__ = r.doc
    return run


for _name, _r in RESTRICTIONS.items():
    op(_name)(_restriction(_r))


@op("forbid_attack_zone")
def _forbid_attack_zone(rec: Recorder, frame: Frame, at: Pending, _t: list[str]) -> bool:
    """You choose one of the opponent's SIGNI zones: this turn, SIGNI in it cannot attack."""
    p = frame.player
    if at.progress.answer is None:
        return ask_zone(
            rec,
            frame,
            at,
            p,
            list(SIGNI_ZONES),
            "choose one of the opponent's SIGNI zones: SIGNI in it cannot attack this turn",
        )
    zone = take(at)["zone"]
    rec.emit(
        "AttackForbidden",
        "rules",
        frame.rule,
        {"player": opponent(p), "zone": zone, "until": "end_of_turn", "by_effect": frame.card},
    )
    return True


@op("damage")
def _damage(rec: Recorder, frame: Frame, at: Pending, _t: list[str]) -> bool:
    """This card deals damage to a player: a Life Cloth is crushed, or with none left that player loses."""
    step = at.step
    from domain.combat import crush, prevented  # combat starts effects: imported when it runs

    p = who(frame, {"who": step.get("who", "opponent")})

    if prevented(rec, p, frame.card, attack=False):
        return True
    n = rec.emit(
        "EffectDamageDealt",
        "rules",
        "effect.damage",
        {"player": p, "source": frame.card, "by_effect": frame.card},
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


@op("crush")
def _crush(rec: Recorder, frame: Frame, at: Pending, _t: list[str]) -> bool:
    """Crush the top N Life Cloth of a player (the opponent by default): not damage; with none left, nothing
    happens."""
    step = at.step
    from domain.combat import crush

    p = who(frame, {"who": step.get("who", "opponent")})
    cancel = None
    if step.get("burst_cancel"):  # you may pay this to keep the crushed card's Life Burst from activating
        cancel = {"by": frame.player, "cost": step["burst_cancel"], "by_effect": frame.card}
    crush(rec, p, int(step.get("n", 1)), "effect", frame.rule, caused_by=None, cancel=cancel)
    return True


@op("negate_attack")
def _negate_attack(rec: Recorder, frame: Frame, at: Pending, _t: list[str]) -> bool:
    """The attack under way ends at once: no battle, no damage (its own on-attack abilities have resolved
    or still resolve; only the attack is stopped)."""
    a = rec.state.attack
    if a is not None and immune(rec.state, a["card"], "negate_attack", frame.player, effect_of=frame.card):
        return True  # a constant keeps the attack from being negated by this effect
    if a is not None and not a.get("resolved"):
        rec.emit(
            "AttackEnded",
            "rules",
            "effect.negate-attack",
            {"result": "negated", "zone": a["zone"], "card": a["card"], "by_effect": frame.card},
        )
    return True


@op("counter")
def _counter(rec: Recorder, frame: Frame, at: Pending, chosen: list[str]) -> bool:
    """Counter the effect of the targets, spells or PIECEs waiting in the check zone: their effect will not
    happen; each goes where it goes after use, without it (``use.after_cut_in``)."""
    for iid in live_targets(rec, frame, at.step, chosen):
        owner = rec.state.owners[iid]
        rec.emit(
            "EffectCountered",
            "rules",
            "effect.counter",
            {"player": owner, "card": iid, "by_effect": frame.card},
        )
    return True


@op("negate_next_attack")
def _negate_next_attack(rec: Recorder, frame: Frame, at: Pending, _t: list[str]) -> bool:
    """This turn, the next time a SIGNI attacks, that attack is negated (kept with the preventions of this
    turn; ``combat.resolve`` spends it)."""
    data: dict[str, Any] = {"player": frame.player, "card": frame.card, "ability": frame.ability, "times": 1}
    data.update({"effect": [], "what": "attack", "by_effect": frame.card})
    rec.emit("PreventionSet", "rules", "effect.negate-attack", data)
    return True


@op("attack_limit")
def _attack_limit(rec: Recorder, frame: Frame, at: Pending, _t: list[str]) -> bool:
    """How many times this LRIG may attack this turn changes by ``amount`` (see the constant
    ``lrig_attacks``)."""
    step = at.step
    data = {"player": frame.player, "card": frame.card, "amount": int(step.get("amount", -1))}
    rec.emit("AttackLimitChanged", "rules", "effect.attack-count", {**data, "by_effect": frame.card})
    return True


@op("use_spell_now")
def _use_spell_now(rec: Recorder, frame: Frame, at: Pending, targets: list[str]) -> bool:
    """Its player may use the targeted spell now, paying its use cost (decision ``effect_spell``); used so,
    it is removed from the game this turn as it leaves the check zone. The last step of its effect."""
    for iid in targets[:1]:
        rec.ask(frame.player, "effect_spell", "spell.use", card=iid, by_effect=frame.card)
    return True


@op("prevent_damage")
def _prevent_damage(rec: Recorder, frame: Frame, at: Pending, _t: list[str]) -> bool:
    """This turn, the next ``times`` times you would take damage (``from``: only damage a SIGNI, or an LRIG,
    deals; ``filter``: only damage a card fitting it deals; ``whose: opponent``: only damage the opponent's
    cards deal; ``all``: every time this turn), you take none
    instead; each time, the steps
    in ``then`` happen too (they may only give this card an ability: nothing is asked in the middle of
    damage)."""
    step = at.step
    rec.emit(
        "PreventionSet",
        "rules",
        "effect.prevent-damage",
        {
            "player": frame.player,
            "card": frame.card,
            "ability": frame.ability,
            "times": int(step.get("times", 1)),
            "effect": fresh(step.get("then", [])),
            "by_effect": frame.card,
            **({"from": step["from"]} if step.get("from") else {}),
            **({"filter": step["filter"]} if step.get("filter") else {}),
            **({"all": True} if step.get("all") else {}),
            **({"whose": step["whose"]} if step.get("whose") else {}),
        },
    )
    return True


def _zone_side(frame: Frame, step: dict[str, Any]) -> str:
    """Whose SIGNI zones a zone step names: the opponent's unless it says ``side: you``."""
    return frame.player if step.get("side") == "you" else opponent(frame.player)


@op("place_marker")
def _place_marker(rec: Recorder, frame: Frame, at: Pending, _t: list[str]) -> bool:
    """Put a marker (a Virus) in SIGNI zones of a field: one in each of them (``zones: all``), or one in a
    zone this effect's player chooses (``zones: one``). A marker is not a card: it stays in its zone whatever
    SIGNI come and go (seed 001 'Virus')."""
    step = at.step
    side = _zone_side(frame, step)
    if step.get("zones", "all") == "all":
        zones = list(SIGNI_ZONES)
    else:
        answer = taken(at)
        if answer is None:
            return ask_zone(
                rec, frame, at, frame.player, list(SIGNI_ZONES), "choose the SIGNI zone to put it in"
            )
        zones = [answer["zone"]]
    data = {
        "player": side,
        "zones": zones,
        "marker": marker_of(str(step["marker"]), frame.player),
        "by": frame.player,
        "by_effect": frame.card,
    }
    rec.emit("MarkersPlaced", "rules", "effect.zone-marker", data)
    return True


def marked_zones(rec: Recorder, side: str, marker: str) -> list[str]:
    """The SIGNI zones of ``side``'s field with a marker of that kind in them, in zone order."""
    markers = rec.state.players[side].markers
    return [z for z in SIGNI_ZONES if any(marker_kind(m) == marker for m in markers.get(z, ()))]


@op("remove_marker")
def _remove_marker(rec: Recorder, frame: Frame, at: Pending, _t: list[str]) -> bool:
    """Remove a marker (a Virus) from a SIGNI zone of a field, one this effect's player chooses among those
    that have one (with one such zone, that one); with none there, nothing is removed. As a cost
    (``_cost``) it was checked beforehand."""
    step = at.step
    side = _zone_side(frame, step)
    marker = str(step["marker"])
    zones = marked_zones(rec, side, marker)
    if not zones:
        return True
    answer = taken(at)
    if answer is None and len(zones) > 1:
        return ask_zone(
            rec, frame, at, frame.player, zones, f"choose the SIGNI zone to remove a {marker} from"
        )
    zone = answer["zone"] if answer is not None else zones[0]
    kept = next(m for m in rec.state.players[side].markers[zone] if marker_kind(m) == marker)
    data: dict[str, Any] = {"player": side, "zones": [zone], "marker": kept, "by_effect": frame.card}
    if step.get("_cost"):
        data["as_cost"] = True
    rec.emit("MarkersRemoved", "rules", "effect.zone-marker", data)
    frame.notes["done"] = frame.notes.get("done", 0) + 1
    return True


@op("erase_zone")
def _erase_zone(rec: Recorder, frame: Frame, at: Pending, _t: list[str]) -> bool:
    """Erase one SIGNI zone of a field until end of turn, one this effect's player chooses: every card in it
    goes to its owner's trash (a SIGNI, and what is under it as rule processing follows), and no SIGNI can be
    put there until the turn ends (seed 001 'Erase')."""
    step = at.step
    side = _zone_side(frame, step)
    answer = taken(at)
    if answer is None:
        return ask_zone(rec, frame, at, frame.player, list(SIGNI_ZONES), "choose the SIGNI zone to erase")
    zone = answer["zone"]
    slot = rec.state.players[side].signi[zone]
    if slot is not None:
        move_cards(rec, frame, side, [slot.iid], "trash")
    face_down = [e["iid"] for e in rec.state.players[side].face_down.get(zone, [])]
    if face_down:  # a face-down card in it (rule face-down.signi) is a card in the zone too
        moved = {"player": side, "cards": face_down, "to": "trash", "from": "face_down"}
        rec.emit("CardsMoved", "rules", "zone.erased", {**moved, "by_effect": frame.card})
    data = {"player": side, "zone": zone, "until": "end_of_turn", "by_effect": frame.card}
    rec.emit("ZoneErased", "rules", "zone.erased", data)
    return True


def set_lasting(rec: Recorder, frame: Frame, player: str, what: str, data: dict[str, Any]) -> None:
    """An effect on ``player`` for the time the step's duration (``lasts``, ``domain.durations``) states,
    fixed now as a window of turns and phases (``this turn`` when it states none)."""
    lasts = data.pop("lasts", None)
    window = durations.window(rec.state, frame.player, lasts if isinstance(lasts, dict) else {"turn": "this"})
    body = {"player": player, "what": what, **data, "window": window, "by_effect": frame.card}
    rec.emit("LastingEffectSet", "rules", "effect.lasting", body)


@op("raise_limit")
def _raise_limit(rec: Recorder, frame: Frame, at: Pending, _t: list[str]) -> bool:
    """The limit of a player's (``who``: you unless given) center LRIG, whichever LRIG it is, changes by
    ``amount`` for the time ``lasts`` states (this turn unless given): seed 000 'Limit'; when the time ends,
    rule processing trashes the SIGNI beyond the limit left (rba.2)."""
    step = at.step
    p = who(frame, step)
    set_lasting(rec, frame, p, "limit", {"amount": int(step["amount"]), "lasts": step.get("lasts")})
    return True


@op("cap_draws")
def _cap_draws(rec: Recorder, frame: Frame, at: Pending, _t: list[str]) -> bool:
    """A player (``who``: the opponent unless given) may draw at most ``amount`` cards in all during the time
    ``lasts`` states ("only one card in total during the draw phase of that turn"): the draw phase's draw
    and effects' draws stop at the cap."""
    step = at.step
    p = who(frame, {"who": step.get("who", "opponent")})
    set_lasting(rec, frame, p, "draws", {"max": int(step["amount"]), "lasts": step.get("lasts")})
    return True


@op("grant_zone")
def _grant_zone(rec: Recorder, frame: Frame, at: Pending, _t: list[str]) -> bool:
    """This turn, the SIGNI in the named SIGNI zones of a side have the keywords: whichever SIGNI is there,
    one that comes later too ("this turn, SIGNI in your center SIGNI zone gain [Lancer]"); with ``lasts``,
    for the time it states instead ("during the opponent's next main and attack phases, your SIGNI gain
    [Shadow]"); ``signi_zones: chosen``: one zone its player chooses ("choose one of your opponent's SIGNI
    zones: during their next turn, SIGNI there cannot attack")."""
    step = at.step
    zones = list(step["signi_zones"]) if step["signi_zones"] != "chosen" else None
    if zones is None:  # "choose one SIGNI zone": its player names it as the step resolves (not a target)
        if at.progress.answer is None:
            return ask_zone(rec, frame, at, frame.player, list(SIGNI_ZONES), "choose one SIGNI zone")
        zones = [str(take(at)["zone"])]
    if "lasts" in step:
        lasting: dict[str, Any] = {"zones": zones, "keywords": list(step["keywords"])}
        lasting["lasts"] = step["lasts"]
        set_lasting(rec, frame, _zone_side(frame, step), "zone_keywords", lasting)
        return True
    data = {
        "player": _zone_side(frame, step),
        "zones": zones,
        "keywords": list(step["keywords"]),
        "until": "end_of_turn",
        "by_effect": frame.card,
    }
    rec.emit("ZoneKeywordsGranted", "rules", frame.rule, data)
    return True
