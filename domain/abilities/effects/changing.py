"""Steps that change cards on the field: down, up, freeze, power, base level and power, keywords and
abilities gained or lost, awakening; a change that lasts through the opponent's next turn is applied again
then.
"""

from __future__ import annotations

from typing import Any

from domain import facts
from domain.abilities import targets as tg
from domain.abilities.catalogue import granted_ref
from domain.abilities.constants import COLOR_KEYWORD, immune, minus_to_plus
from domain.abilities.effects.running import OPS, Op, ask_in_step, op, take
from domain.abilities.effects.targeting import live_targets
from domain.abilities.frames import (
    Frame,
    Pending,
)
from domain.abilities.measures import Ctx, bonus
from domain.cards import COLORS
from domain.recorder import Recorder
from domain.state import GameState


def _set_flag(name: str, value: bool) -> Op:
    def run_flag(rec: Recorder, frame: Frame, at: Pending, chosen: list[str]) -> bool:
        step = at.step
        cards = live_targets(rec, frame, step, chosen)
        if name == "downed" and value:  # a constant may keep a card from being downed by these effects
            cards = [i for i in cards if not immune(rec.state, i, "down", frame.player, effect_of=frame.card)]
        if cards:
            rec.emit("CardsSet", "rules", frame.rule, {"cards": cards, name: value, "by_effect": frame.card})
        return True

    return run_flag


OPS["down"] = _set_flag("downed", True)


OPS["up"] = _set_flag("downed", False)


OPS["freeze"] = _set_flag("frozen", True)


PER = ("your_signi_colors",)  # what a power change may be multiplied by


def _per(s: GameState, player: str, per: Any, source: str = "", notes: dict[str, Any] | None = None) -> int:
    """The multiplier of a power change: 1, or ``your_signi_colors``: the different colours (colourless is
    none) among the SIGNI on the player's field, or what a measure counts now ("for each ...")."""
    if per is None:
        return 1
    if isinstance(per, str):
        colors = {c for _z, sl in s.players[player].signi_slots() for c in facts.card_of(s, sl.iid).colors}
        return len(colors - {"colorless"})
    return bonus(Ctx(s, player, source, dict(notes or {})), 1, per)


def _doubled(s: GameState, frame: Frame, iid: str) -> bool:
    """Whether minus power given by this effect is doubled this turn: the effect of a SIGNI of a player an
    effect said so of, on a SIGNI of the opponent's."""
    p = frame.player
    return (
        p in s.flags.get("minus_doubled", ())
        and s.owners.get(iid) != p
        and frame.card in s.cards
        and facts.card_of(s, frame.card).is_signi
    )


@op("power")
def _power(rec: Recorder, frame: Frame, at: Pending, chosen: list[str]) -> bool:
    step = at.step
    s = rec.state
    lasting = step.get("until") == "opponent_next_turn" and s.turn_player == frame.player
    amount = int(step["amount"]) * _per(s, frame.player, step.get("per"), frame.card, frame.notes)
    for iid in live_targets(rec, frame, step, chosen):
        if amount < 0 and immune(s, iid, "power_minus", frame.player, effect_of=frame.card):
            continue  # a constant keeps its power from being lowered by this player's effects
        turned = amount < 0 and minus_to_plus(s, iid, frame.player)  # "gets + that amount instead"
        doubled = amount < 0 and _doubled(s, frame, iid)
        data = {
            "card": iid,
            "amount": (-amount if turned else amount) * (2 if doubled else 1),
            "until": "end_of_turn",
            "by_effect": frame.card,
        }
        if lasting:
            data["lasts"] = "opponent_next_turn"
        rec.emit("PowerChanged", "rules", frame.rule, data)
        if lasting:  # the opponent's turn gets the same change, for as long as the card stays on the field
            again_next_turn(
                rec, frame, {"op": "power", "amount": int(step["amount"]), "target": {"cards": [iid]}}
            )
    return True


def again_next_turn(rec: Recorder, frame: Frame, step: dict[str, Any]) -> None:
    """Apply ``step`` once more at the start of the next turn (the opponent's): an effect that lasts "until
    the end of the opponent's next turn"."""
    rec.emit(
        "EffectDelayed",
        "rules",
        "effect.delayed",
        {
            "player": frame.player,
            "card": frame.card,
            "ability": frame.ability,
            "until": "turn",
            "turn": rec.state.turn + 1,
            "effect": [step],
        },
    )


@op("grant")
def _grant(rec: Recorder, frame: Frame, at: Pending, chosen: list[str]) -> bool:
    """The targets gain keywords until end of turn (``until: opponent_next_turn``: and again through the
    opponent's next turn, while they stay on the field; with ``next_turn_only``, given in your turn, only
    through the opponent's next turn: "until the end of your opponent's next turn, it gains '[Constant]:
    during your opponent's turn, ...'"; ``gained``: the keyword another SIGNI gained, whose gaining triggered
    this ability)."""
    step = at.step
    if step.get("ener_zone"):  # "cards in your ener zone gain Multi Ener this turn": those put there later
        data = {"player": frame.player, "keywords": list(step["keywords"]), "until": "end_of_turn"}
        rec.emit("EnerZoneGranted", "rules", frame.rule, {**data, "by_effect": frame.card})
        return True
    lasting = step.get("until") == "opponent_next_turn" and rec.state.turn_player == frame.player
    losing = all(str(k).startswith("lose:") for k in step["keywords"])  # losing keywords gains nothing
    later = lasting and bool(step.get("next_turn_only"))  # only through the opponent's next turn
    keywords = [frame.notes.get("keyword") if k == "gained" else k for k in step["keywords"]]
    keywords = [k for k in keywords if k]  # "gained": the keyword a SIGNI gained, that triggered this
    if not keywords:
        return True
    for iid in live_targets(rec, frame, step, chosen):
        if not losing and immune(rec.state, iid, "gain_abilities", frame.player, effect_of=frame.card):
            continue  # a constant keeps it from gaining new abilities by this player's effects
        if later:
            again_next_turn(rec, frame, {"op": "grant", "keywords": keywords, "target": {"cards": [iid]}})
            continue
        rec.emit(
            "KeywordsGranted",
            "rules",
            frame.rule,
            {
                "card": iid,
                "keywords": keywords,
                "until": "end_of_turn",
                "by_effect": frame.card,
                # Multi Ener of an ener card, the Guard icon of a card in the hand: see evolve
                **(
                    {"zone": step["target"]["zone"]} if step["target"].get("zone") in ("ener", "hand") else {}
                ),
            },
        )
        if lasting:
            again_next_turn(rec, frame, {"op": "grant", "keywords": keywords, "target": {"cards": [iid]}})
    return True


@op("gain_color")
def _gain_color(rec: Recorder, frame: Frame, at: Pending, chosen: list[str]) -> bool:
    """The targets gain the colours named until end of turn; or (``gainer: self``) this card gains one colour
    of the target's (its player chooses when there are several; a colourless target gives none) (000 'Color',
    effect.colors-added). A colour gained is kept among the card's keywords (``color:<colour>``), which end
    with the turn or as it leaves the field."""
    step = at.step
    s = rec.state
    targets = live_targets(rec, frame, step, chosen)
    if "colors" in step:
        gainers, colours = targets, [str(c) for c in step["colors"]]
    else:
        gainers = [frame.card] if tg.on_field(s, frame.card) else []
        options = [c for c in COLORS if any(c in facts.card_of(s, t).colors for t in targets)]
        if not gainers or not options:
            return True
        if len(options) > 1:
            if at.progress.answer is None:
                return ask_in_step(
                    rec, frame, at, frame.player, min=0, max=0, choices=[], options=options,
                    prompt="choose the colour it gains",
                )  # fmt: skip
            colours = [str(take(at)["option"])]
        else:
            colours = options
    for iid in gainers:
        rec.emit(
            "KeywordsGranted",
            "rules",
            frame.rule,
            {
                "card": iid,
                "keywords": [f"{COLOR_KEYWORD}{c}" for c in colours],
                "until": "end_of_turn",
                "by_effect": frame.card,
            },
        )
    return True


@op("grant_ability")
def _grant_ability(rec: Recorder, frame: Frame, at: Pending, chosen: list[str]) -> bool:
    """The targets gain the ability written in the step, until end of turn (``until: opponent_next_turn``,
    given in your turn: gained again as the opponent's next turn begins, for as long as it stays on the
    field, like a lasting power change)."""
    step = at.step
    lasting = step.get("until") == "opponent_next_turn" and rec.state.turn_player == frame.player
    ref = granted_ref(rec.state.cards[frame.card], int(frame.ability), step["ability"])
    for iid in live_targets(rec, frame, step, chosen):
        if immune(rec.state, iid, "gain_abilities", frame.player, effect_of=frame.card):
            continue  # a constant keeps it from gaining new abilities by this player's effects
        rec.emit(
            "AbilityGranted",
            "rules",
            "ability.granted",
            {"card": iid, "ability": ref, "until": "end_of_turn", "by_effect": frame.card},
        )
        if lasting:
            again_next_turn(
                rec, frame, {"op": "grant_ability", "ability": step["ability"], "target": {"cards": [iid]}}
            )
    return True


@op("hold_ability")
def _hold_ability(rec: Recorder, frame: Frame, at: Pending, chosen: list[str]) -> bool:
    """The player (``holder: you``) or their center LRIG (``center_lrig``: whichever LRIG is the center, the
    one it grows into too) gains the ability written in the step for the rest of the game."""
    step = at.step
    ref = granted_ref(rec.state.cards[frame.card], int(frame.ability), step["ability"])
    data = {"player": frame.player, "card": frame.card, "ability": ref, "holder": step["holder"]}
    rec.emit("AbilityHeld", "rules", "ability.held", data)
    return True


@op("lose_abilities")
def _lose_abilities(rec: Recorder, frame: Frame, at: Pending, chosen: list[str]) -> bool:
    """The targets lose their abilities until end of turn, those they gained before included; what they gain
    afterwards they keep (``until: opponent_next_turn``, in your turn: lost again as the opponent's next turn
    begins, for as long as they stay on the field, before the later parts of the same effect are applied
    again: the order of the effect's parts is kept, ``triggers.next_waiting``)."""
    step = at.step
    cards = live_targets(rec, frame, step, chosen)
    if cards:
        rec.emit(
            "AbilitiesLost",
            "rules",
            "effect.lose-abilities",
            {"cards": cards, "until": "end_of_turn", "by_effect": frame.card},
        )
        if step.get("until") == "opponent_next_turn" and rec.state.turn_player == frame.player:
            again_next_turn(rec, frame, {"op": "lose_abilities", "target": {"cards": list(cards)}})
    return True


@op("awaken")
def _awaken(rec: Recorder, frame: Frame, at: Pending, chosen: list[str]) -> bool:
    """The targets (this SIGNI) awaken: they stay awakened while they are on the field."""
    step = at.step
    for iid in live_targets(rec, frame, step, chosen):
        slot = tg._slot(rec.state, iid)
        if slot is not None and not slot.awakened:
            rec.emit(
                "SigniAwakened",
                "rules",
                frame.rule,
                {"player": rec.state.owners[iid], "card": iid, "by_effect": frame.card},
            )
    return True


@op("set_base")
def _set_base(rec: Recorder, frame: Frame, at: Pending, chosen: list[str]) -> bool:
    """The targets' base level and base power (or base power alone: no ``level``) become the given numbers
    until end of turn (``until: opponent_next_turn``: in your turn, and again through the opponent's next
    turn while it stays); ``power_of: target``: the target is only read, and this card's base power becomes
    the power the target has as the effect resolves (neither on the field then: nothing changes). Seed 000
    "Power": an effect that sets the power itself applies before the effects that modify it."""
    step = at.step
    s = rec.state
    lasting = step.get("until") == "opponent_next_turn" and s.turn_player == frame.player
    level = int(step["level"]) if "level" in step else None
    targets = live_targets(rec, frame, step, chosen)
    if step.get("power_of") == "target":  # the target is only read: this card's base power becomes its power
        read = tg._slot(s, targets[0]) if targets else None
        if read is None or tg._slot(s, frame.card) is None:
            return True
        targets, power = [frame.card], facts.power(s, read)
    elif "declare" in step:  # "target ...; declare a number; its base power becomes that number x times"
        if not targets:
            return True
        d = step["declare"]
        lo, hi = int(d.get("min", 0)), int(d.get("max", 5))
        if at.progress.answer is None:
            return ask_in_step(
                rec,
                frame,
                at,
                frame.player,
                min=1,
                max=1,
                choices=[],
                options=[str(i) for i in range(lo, max(lo, hi) + 1)],
                prompt=f"declare a number from {lo} to {max(lo, hi)}",
            )
        number = int(take(at)["option"])
        rec.emit(
            "NumberDeclared",
            "rules",
            frame.rule,
            {"player": frame.player, "number": number, "by_effect": frame.card},
        )
        power = number * int(d.get("times", 1))
    else:
        power = int(step["power"])
    for iid in targets:
        data: dict[str, Any] = {"card": iid, "power": power, "by_effect": frame.card}
        if level is not None:
            data["level"] = level
        rec.emit("BaseChanged", "rules", frame.rule, data)
        if lasting:
            again = {"op": "set_base", "power": power, "target": {"cards": [iid]}}
            if level is not None:
                again["level"] = level
            again_next_turn(rec, frame, again)
    return True


@op("become")
def _become(rec: Recorder, frame: Frame, at: Pending, chosen: list[str]) -> bool:
    """A SIGNI becomes another card until end of turn (its name, level, power, colours, classes and
    abilities are that card's; seed 000 'Effect'): each target becomes the catalogue card ``card`` (a SIGNI
    token such as Servant ZERO); or (``same_as: target``) this SIGNI becomes the same card as the target is
    now, after (``shed``) the cards under it and attached to it go to the trash (a Soul to the LRIG trash),
    which happens even if the target is gone. It is its printed card again as the turn's effects end, or as
    it leaves the field (``evolve``: ``SigniBecame``)."""
    step = at.step
    s = rec.state
    targets = live_targets(rec, frame, step, chosen)
    if step.get("same_as") == "target":
        slot = tg._slot(s, frame.card)
        if slot is None:
            return True  # this SIGNI left the field: nothing becomes anything
        as_id = s.cards[targets[0]] if targets else None
        if step.get("shed") and slot.under:
            _shed_under(rec, frame, list(slot.under))
        pairs = [] if as_id is None else [(frame.card, as_id)]
    else:
        pairs = [(iid, str(step["card"])) for iid in targets]
    for iid, as_id in pairs:
        data = {"player": s.owners[iid], "card": iid, "as": as_id, "until": "end_of_turn"}
        rec.emit("SigniBecame", "rules", "effect.become", {**data, "by_effect": frame.card, "version": 1})
    return True


def _shed_under(rec: Recorder, frame: Frame, under: list[str]) -> None:
    """The cards under this SIGNI go to their owner's trash; a Soul (an LRIG deck card) to the LRIG trash."""
    s = rec.state
    owner = s.owners[frame.card]
    souls = [i for i in under if facts.card_of(s, i).is_lrig_deck_card]
    rest = [i for i in under if i not in souls]
    for cards, to in ((rest, "trash"), (souls, "lrig_trash")):
        if cards:
            data = {"player": owner, "cards": cards, "from": "under", "to": to, "by_effect": frame.card}
            rec.emit("CardsTrashed", "rules", "effect.become", data)
