"""The end of a turn, as the procedure runs it and as rule processing cuts it short (a second refresh)."""

from __future__ import annotations

from domain.recorder import Recorder
from domain.state import opponent


def clear_check_zone(rec: Recorder) -> None:
    for p, ps in rec.state.players.items():
        if ps.zones["check"]:
            rec.emit(
                "CheckZoneCleared", "rules", "end.check-zone", {"player": p, "cards": list(ps.zones["check"])}
            )


def end_turn(rec: Recorder, tp: str, rule: str) -> None:
    s = rec.state
    rec.emit("TurnEnded", "rules", rule, {"turn": s.turn, "player": tp})
    rec.emit("TurnBegan", "rules", "turn.begin", {"turn": s.turn + 1, "player": opponent(tp)})


def end_turn_now(rec: Recorder, tp: str, rule: str) -> None:
    """The turn ends at once (the turn player's second refresh): effects until end of turn end, cards left
    in the check zone go to the trash, and the other player's turn begins."""
    if rec.state.attack is not None:
        rec.emit("AttackEnded", "rules", rule, {"reason": "the turn ended"})
    rec.emit("EffectsExpired", "rules", "end.expire", {})
    clear_check_zone(rec)
    end_turn(rec, tp, rule)


__all__ = ["clear_check_zone", "end_turn", "end_turn_now"]
