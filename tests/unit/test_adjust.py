"""A judge's adjustment: primitive steps that resolve what the service does not enforce, checked first."""

from __future__ import annotations

import pytest

from domain.engine import decide
from domain.errors import IllegalAction
from domain.evolve import fold
from domain.setup import create_position
from projections.audit import replay


def position() -> tuple[list, object]:
    events = create_position({
        "turn": 4, "turn_player": "p1", "phase": "main",
        "players": {"p1": {"lrig": {"center": "WXDi-D01-004"}, "signi": {"left": "WXDi-D01-013"},
                           "hand": ["WXDi-D01-012"], "deck": ["WXDi-D01-017", "WXDi-D01-015", "WXDi-D01-016"],
                           "trash": ["WXDi-D01-014"]},
                    "p2": {"lrig": {"center": "WXDi-D03-004"}, "signi": {"center": "WXDi-D03-013"},
                           "life_cloth": ["WXDi-D03-012"]}}}, seed=3)  # fmt: skip
    return events, fold(events)


def iid(state, player: str, zone: str, card: str) -> str:
    ps = state.players[player]
    if zone == "signi":
        return next(s.iid for s in ps.signi.values() if s and state.cards[s.iid] == card)
    return next(i for i in ps.zones[zone] if state.cards[i] == card)


def test_a_judge_resolves_an_unenforced_ability_as_checked_steps() -> None:
    # judge procedure: an ability the service does not enforce is resolved as recorded primitive steps
    events, s = position()
    signi = iid(s, "p2", "signi", "WXDi-D03-013")
    from_trash = iid(s, "p1", "trash", "WXDi-D01-014")
    batch = decide(
        s,
        {
            "type": "adjust",
            "reason": "WXDi-D01-006 vanishes a SIGNI; draw one, discard one",
            "steps": [
                {"op": "move", "card": signi, "from": "signi", "to": "ener"},
                {"op": "draw", "player": "p1", "n": 1},
                {"op": "move", "card": from_trash, "from": "trash", "to": "hand"},
                {"op": "power", "card": iid(s, "p1", "signi", "WXDi-D01-013"), "amount": 3000},
                {"op": "shuffle", "player": "p1"},
            ],
        },
        by="judge",
    )
    assert batch[0].type == "Adjusted" and batch[0].actor == "judge" and batch[0].rule == "judge.adjust"
    after = fold(batch, s)
    assert after.players["p2"].signi["center"] is None and signi in after.players["p2"].zones["ener"]
    assert len(after.players["p1"].zones["hand"]) == 3
    assert after.players["p1"].signi["left"].power_mod == 3000
    assert after.pending == s.pending  # the main phase decision still stands
    assert replay(stored(events, batch)) == []  # the audit replays it


def test_adjustments_are_checked_for_zone_and_card_consistency() -> None:
    _, s = position()
    signi = iid(s, "p2", "signi", "WXDi-D03-013")
    hand_card = iid(s, "p1", "hand", "WXDi-D01-012")
    bad = [
        [{"op": "move", "card": signi, "from": "hand", "to": "ener"}],  # not where it says
        [{"op": "move", "card": hand_card, "from": "hand", "to": "signi", "zone": "left"}],  # zone taken
        [{"op": "power", "card": hand_card, "amount": 1000}],  # not on the field
        [{"op": "teleport", "card": signi}],
        [{"op": "move", "card": "WXDi-D03-013", "from": "signi", "to": "trash"}],  # not an instance id
    ]
    for steps in bad:
        with pytest.raises(IllegalAction) as exc:
            decide(s, {"type": "adjust", "reason": "test", "steps": steps}, by="judge")
        assert exc.value.rule_refs == ("judge.adjust",)


def test_only_a_judge_adjusts_and_with_a_reason() -> None:
    _, s = position()
    step = [{"op": "draw", "player": "p1", "n": 1}]
    with pytest.raises(IllegalAction):
        decide(s, {"type": "adjust", "player": "p1", "reason": "mine", "steps": step})
    with pytest.raises(IllegalAction):
        decide(s, {"type": "adjust", "reason": " ", "steps": step}, by="judge")


def test_an_adjustment_that_breaks_a_rule_is_followed_by_rule_processing() -> None:
    # 004: rule processing is checked after every action
    _, s = position()
    hand_card = iid(s, "p1", "hand", "WXDi-D01-012")
    batch = decide(
        s,
        {
            "type": "adjust",
            "reason": "an effect put a SIGNI onto the field",
            "steps": [
                {"op": "move", "card": hand_card, "from": "hand", "to": "signi", "zone": "center"},
                {"op": "power", "card": hand_card, "amount": -5000},
            ],
        },
        by="judge",
    )
    assert [e.rule for e in batch][:2] == ["judge.adjust", "rba.1"]


def stored(*batches: list) -> list:
    from domain.match import Match

    m = Match.start(batches[0])
    for b in batches[1:]:
        m.record(b)
    return list(m.collect_events())
