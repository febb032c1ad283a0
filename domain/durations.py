"""How long an effect lasts when that is not "until end of turn": a duration (``lasts``) names phases of a
turn, or the end of a phase to come, and is fixed as the effect happens into a window of turns and phases
that the state reads (seed 000 'Effect': an effect applies for the time it states).

A duration, as an encoding writes it:

- ``{"turn": "this" | "opponent_next" | "your_next", "phases": [...]}``: during those phases (all of them
  when left out) of that turn: "during the main phase and attack phase of your opponent's next turn",
  "during the draw phase of that turn";
- ``{"until_end_of": phase, "whose": "you" | "opponent"}``: from now until the end of that player's next such
  phase (this turn's, when it is that player's turn and the phase is still to come): "until the end of your
  next ener phase".

The window the effect keeps: ``{"turns": [first, last], "phases": [...], "ends_after": phase}``; the turns
alternate between the players, so a player's next turn is counted from the turn now.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.state import PHASES, GameState, opponent

TURNS = ("this", "opponent_next", "your_next")
TURN_PHASES = tuple(p for p in PHASES if p != "setup")


def _next_turn_of(s: GameState, player: str) -> int:
    """The number of the player's next turn: the turns alternate."""
    return s.turn + 2 if s.turn_player == player else s.turn + 1


def window(s: GameState, player: str, lasts: Mapping[str, Any]) -> dict[str, Any]:
    """The window a duration stands for, as an effect of ``player``'s happens now."""
    if "until_end_of" in lasts:
        phase = str(lasts["until_end_of"])
        whose = player if lasts.get("whose", "you") == "you" else opponent(player)
        to_come = s.turn_player == whose and PHASES.index(s.phase) < PHASES.index(phase)
        last = s.turn if to_come else _next_turn_of(s, whose)
        return {"turns": [s.turn, last], "ends_after": phase}
    turn = str(lasts.get("turn", "this"))
    if turn == "this":
        at = s.turn
    else:
        at = _next_turn_of(s, opponent(player) if turn == "opponent_next" else player)
    out: dict[str, Any] = {"turns": [at, at]}
    if lasts.get("phases"):
        out["phases"] = list(lasts["phases"])
    return out


def within(s: GameState, w: Mapping[str, Any]) -> bool:
    """Whether the game is now inside the window."""
    first, last = int(w["turns"][0]), int(w["turns"][1])
    if not first <= s.turn <= last:
        return False
    if "phases" in w and s.phase not in w["phases"]:
        return False
    ends = w.get("ends_after")
    return not (ends and s.turn == last and PHASES.index(s.phase) > PHASES.index(str(ends)))


def over(s: GameState, w: Mapping[str, Any]) -> bool:
    """Whether the window can no longer come (its last turn has passed)."""
    return s.turn > int(w["turns"][1])


def duration_problems(lasts: Any) -> list[str]:
    """What is wrong with a duration as an encoding writes it."""
    if not isinstance(lasts, Mapping):
        return ["lasts is a duration: {turn, phases} or {until_end_of, whose}"]
    if "until_end_of" in lasts:
        out = [] if set(lasts) <= {"until_end_of", "whose"} else ["lasts: until_end_of takes only whose"]
        if lasts["until_end_of"] not in TURN_PHASES:
            out.append(f"lasts: until_end_of names a phase ({', '.join(TURN_PHASES)})")
        if lasts.get("whose", "you") not in ("you", "opponent"):
            out.append("lasts: whose is you or opponent")
        return out
    out = [] if set(lasts) <= {"turn", "phases"} else ["lasts: a turn's phases take only turn and phases"]
    if lasts.get("turn", "this") not in TURNS:
        out.append(f"lasts: turn is one of {', '.join(TURNS)}")
    phases = lasts.get("phases", [])
    if not isinstance(phases, list) or any(p not in TURN_PHASES for p in phases):
        out.append(f"lasts: phases are among {', '.join(TURN_PHASES)}")
    return out


def duration_text(lasts: Mapping[str, Any]) -> str:
    """How a duration reads: "during the main and attack phases of the opponent's next turn"."""
    if "until_end_of" in lasts:
        whose = "your" if lasts.get("whose", "you") == "you" else "the opponent's"
        return f"until the end of {whose} next {lasts['until_end_of']} phase"
    turn = {
        "this": "this turn",
        "opponent_next": "the opponent's next turn",
        "your_next": "your next turn",
    }[str(lasts.get("turn", "this"))]
    phases = list(lasts.get("phases", []))
    if not phases:
        return f"during {turn}"
    named = " and ".join(phases)
    return f"during the {named} phase{'s' if len(phases) > 1 else ''} of {turn}"
