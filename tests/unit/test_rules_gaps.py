"""Rules gaps of issue 12 that a scenario file cannot state: what the state view shows (a level an effect
changed, the public fields of a pending decision) and the words a judge reads."""

from __future__ import annotations

from typing import Any

from domain.engine import decide, describe_pending
from domain.evolve import fold
from domain.legal import legal_actions
from domain.setup import create_position
from domain.state import GameState
from projections.views import PENDING_FIELDS, state_view
from tests.unit.scenario_runner import build


def _play(position: dict[str, Any], *actions: dict[str, Any] | int) -> GameState:
    state = fold(create_position(build(position), seed=7))
    for act in actions:
        action = list(legal_actions(state))[act] if isinstance(act, int) else act
        state = fold(decide(state, action), state)
    return state


H15_BOARD = {
    "turn": 4,
    "turn_player": "p1",
    "phase": "main",
    "players": {
        "p1": {
            "lrig": {"center": "WXDi-D09-H04"},
            "signi": {"left": "WXDi-D03-019", "center": "WXDi-D09-H15"},
            "ener": [],
            "hand": [],
        }
    },
}


def test_the_state_shows_the_level_an_effect_set_and_keeps_the_printed_one() -> None:
    # 000 "Level" / "Power": an effect that sets a base level changes the card's level; the state shows the
    # level now (WXDi-D09-H15: base level 3 at the start of the attack phase with no ener)
    state = _play(H15_BOARD, {"type": "pass", "player": "p1"}, 0)
    for viewer in ("judge", "p1", "p2", "spectator"):
        signi = state_view(state, viewer, options=False)["players"]["p1"]["signi"]
        assert signi["center"]["level"] == 3 and signi["center"]["printed_level"] == 2
        # not for a SIGNI whose level no effect changed
        assert signi["left"]["level"] == 2 and "printed_level" not in signi["left"]


def test_no_printed_level_without_a_change() -> None:
    state = _play(H15_BOARD)
    center = state_view(state, "judge", options=False)["players"]["p1"]["signi"]["center"]
    assert center["level"] == 2 and "printed_level" not in center


def test_a_pending_choice_shows_only_its_public_fields_to_judge_and_decider() -> None:
    # API "Turn flow and decisions": {player, kind, ...} with prompt, min, max, options; the effect the
    # engine resumes after the answer is its own business
    position = {
        "turn": 4,
        "turn_player": "p1",
        "phase": "main",
        "players": {
            "p1": {
                "lrig": {"center": "WXDi-D05-004", "left": "WXDi-D05-006"},
                "lrig_deck": ["WXDi-D05-007"],
                "deck": ["WXDi-D05-021", "WXDi-D05-015", "WXDi-D05-014", "WXDi-D05-012", "WXDi-D05-020"],
            }
        },
    }
    state = _play(
        position, {"type": "grow_assist", "player": "p1", "card": "WXDi-D05-007", "position": "left"}
    )
    assert state.pending is not None and "resume" in state.pending  # the engine keeps it ...
    for viewer in ("judge", "p1"):
        pending = state_view(state, viewer)["pending"]
        assert "resume" not in pending and "purpose" not in pending and "private" not in pending
        assert set(pending) <= PENDING_FIELDS | {"description", "labels"}
        assert {"player", "kind", "prompt", "min", "max", "choices", "options"} <= set(pending)
    assert set(state_view(state, "p2")["pending"]) == {"player", "kind", "description"}


def test_a_spell_cut_in_is_described_in_words() -> None:
    text = describe_pending({"player": "p2", "kind": "spell_cut_in"})
    assert "spell_cut_in" not in text and "spell" in text
