"""Face-down SIGNI (rule face-down.signi): a SIGNI turned face down stays in its SIGNI zone as a card that is
not a SIGNI (no name, level, power, colour or abilities; a SIGNI may be put into that zone), and it is a new
card when it is turned face up again, in a zone with no SIGNI, upped and without its old states.

``turn_face_down`` turns the targets face down (a ``modify`` route, ``change: face_down``); its ``back``
says when they are turned face up again, as a part of the same effect that waits (``EffectDelayed``):

- ``at``: ``turn_end`` (as this turn's end phase begins), ``main_phase`` (at the start of a main phase of the
  effect's player: ``skip`` of them pass first, "the main phase after your next"), or ``attack_phases``
  (at the start of every attack phase, either player's, for as long as it stays face down) or
  ``attack_phase`` (at the start of the next attack phase only, either player's);
- ``taken``: what happens then to one whose zone holds a SIGNI: it stays face down (``stay``, the default) or
  goes to its owner's trash (``trash``);
- ``costs``: its owner may pay one of these to turn it face up (not paid: it stays face down);
- ``then``: what the effect's player does once it has been turned face up.

``turn_face_up`` is that waiting part: the cards it names (instances, written by ``turn_face_down``).
"""

from __future__ import annotations

from typing import Any

from domain import facts
from domain.abilities.effects.running import op
from domain.abilities.effects.targeting import live_targets
from domain.abilities.frames import Frame, Pending
from domain.recorder import Recorder
from domain.state import PLAYERS, GameState, fresh

RULE = "face-down.signi"
BACK_AT = ("turn_end", "main_phase", "attack_phases", "attack_phase")


def face_down_zone(s: GameState, iid: str) -> str | None:
    """The SIGNI zone a face-down card is in; None when it is not a face-down card."""
    owner = s.owners.get(iid)
    if owner is None:
        return None
    place = s.players[owner].find(iid) or ""
    return place.split(":", 1)[1] if place.startswith("face_down:") else None


def turn_down(rec: Recorder, iid: str, source: str) -> bool:
    """Turn a SIGNI on the field face down: a Soul attached to it goes to the LRIG trash first (it is no
    longer a SIGNI to be attached to); the cards under it stay under it. False: it is not a SIGNI there."""
    s = rec.state
    owner = s.owners[iid]
    zone = next((z for z, sl in s.players[owner].signi_slots() if sl.iid == iid), None)
    if zone is None:
        return False
    slot = s.players[owner].signi[zone]
    souls = [u for u in (slot.under if slot else []) if facts.card_of(s, u).is_lrig_deck_card]
    if souls:
        data = {"player": owner, "cards": souls, "from": "under", "to": "lrig_trash"}
        rec.emit("CardsTrashed", "rules", "kw.soul", data)
    # turned face down where it was: every player who saw its front may still see it (seed 000 "Public zone")
    data = {"player": owner, "card": iid, "zone": zone, "seen_by": list(PLAYERS), "by_effect": source}
    rec.emit("SigniTurnedFaceDown", "rules", RULE, data)
    return True


def _main_phase_turn(s: GameState, player: str, skip: int) -> int:
    """The turn of ``player``'s main phase that begins after ``skip`` others of theirs have begun: their
    next main phase is this turn's when it has not begun yet, else that of their next turn."""
    if s.turn_player == player and s.phase in ("setup", "up", "draw", "ener", "grow"):
        first = s.turn
    else:
        first = s.turn + (2 if s.turn_player == player else 1)
    return first + 2 * skip


@op("turn_face_down")
def _turn_face_down(rec: Recorder, frame: Frame, at: Pending, chosen: list[str]) -> bool:
    step = at.step
    turned = [iid for iid in live_targets(rec, frame, step, chosen) if turn_down(rec, iid, frame.card)]
    frame.notes["done"] = frame.notes.get("done", 0) + len(turned)
    back = step.get("back")
    if turned and back:
        wait_to_turn_up(rec, frame.player, frame.card, frame.ability, turned, back)
    return True


def wait_to_turn_up(
    rec: Recorder, player: str, card: str, ability: int | str, turned: list[str], back: dict[str, Any]
) -> None:
    """The part of an effect that turns the cards it turned face down face up again, waiting for the moment
    ``back`` names (see the module)."""
    s = rec.state
    up: dict[str, Any] = {"op": "turn_face_up", "cards": list(turned)}
    for key in ("taken", "costs", "then"):
        if key in back:
            up[key] = fresh(back[key])
    data: dict[str, Any] = {"player": player, "card": card, "ability": ability}
    when = back.get("at", "turn_end")
    if when == "turn_end":
        data.update({"until": "turn_end", "turn": s.turn})
    elif when == "main_phase":
        data.update({"until": "main_phase", "turn": _main_phase_turn(s, player, int(back.get("skip", 0)))})
    else:  # every attack phase while one of them stays face down (``triggers._watched_attack_phases``)
        watch: dict[str, Any] = {"face_down": list(turned)}
        if when == "attack_phase":  # only the next attack phase: those still face down then stay so
            watch["once"] = True
        data.update({"until": "attack_phases", "turn": s.turn, "watch": watch})
    rec.emit("EffectDelayed", "rules", "effect.delayed", {**data, "effect": [up]})


@op("turn_face_up")
def _turn_face_up(rec: Recorder, frame: Frame, at: Pending, _t: list[str]) -> bool:
    """The named face-down cards are turned face up, each only when no SIGNI is in its zone (one whose zone
    holds a SIGNI stays face down, or with ``taken: trash`` goes to the trash); with ``costs``, each only if
    its owner pays one of them; after that, ``then``."""
    step = at.step
    s = rec.state
    later: list[dict[str, Any]] = []
    for iid in step.get("cards", []):
        zone = face_down_zone(s, iid)
        if zone is None:
            continue  # turned face up already, or gone
        owner = s.owners[iid]
        if s.players[owner].signi[zone] is not None:
            if step.get("taken") == "trash":
                data = {
                    "player": owner,
                    "cards": [iid],
                    "to": "trash",
                    "from": "face_down",
                    "by_effect": frame.card,
                }
                rec.emit("CardsMoved", "rules", RULE, data)
            continue
        up = [{"op": "turn_face_up", "cards": [iid], **({"then": step["then"]} if "then" in step else {})}]
        if step.get("costs"):  # its owner may pay to turn it face up
            who = "you" if owner == frame.player else "opponent"
            later.append({"op": "unless", "costs": fresh(step["costs"]), "who": who, "then": [], "paid": up})
            continue
        rec.emit(
            "CardTurnedFaceUp",
            "rules",
            RULE,
            {"player": owner, "card": iid, "zone": zone, "by_effect": frame.card},
        )
        later.extend(fresh(step.get("then", [])))
    frame.insert(later)
    return True


__all__ = ["BACK_AT", "face_down_zone", "turn_down", "wait_to_turn_up"]
