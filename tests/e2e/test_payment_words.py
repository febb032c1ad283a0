"""A grow or a use without `pay`: the service chooses the ener cards and says which (issue 12, point 8)."""

from __future__ import annotations

from typing import Any

from tests.conftest import Judge


def grow_phase(ener: list[str]) -> dict[str, Any]:
    # WXDi-D09-H02 (level 1) grows into WXDi-D09-H03 (level 2) for one red ener (000 "Grow"; 001 grow phase)
    return {
        "format": "diva",
        "turn": 3,
        "turn_player": "p1",
        "phase": "grow",
        "seed": 3,
        "players": {
            "p1": {
                "lrig": {"center": "WXDi-D09-H02"},
                "lrig_deck": ["WXDi-D09-H03"],
                "ener": ener,
                "deck": ["WXDi-D03-012"] * 6,
                "life_cloth": ["WXDi-D03-012"] * 3,
            },
            "p2": {"lrig": {"center": "WXDi-D03-004"}, "deck": ["WXDi-D03-012"] * 6},
        },
    }


GROW = {"player": "p1", "type": "grow", "card": "WXDi-D09-H03"}


def test_a_grow_without_pay_says_which_ener_paid(judge: Judge) -> None:
    m = judge.create_position(grow_phase(["WXDi-D09-H26"]))
    ruling = judge.ruling(m, GROW).get_json()
    assert (
        ruling["legal"] and "paid with" in ruling["explanation"] and "WXDi-D09-H26" in ruling["explanation"]
    )
    r = judge.act(m, GROW)
    assert r.status_code == 201, r.get_json()
    body = r.get_json()
    grew = next(e for e in body["events"] if e["type"] == "LrigGrew")
    assert "paid_by" not in grew["data"] and len(grew["data"]["paid"]) == 1  # the events keep their shape
    assert len(body["notes"]) == 1 and body["notes"][0].startswith("paid with ")
    assert "WXDi-D09-H26" in body["notes"][0] and "p1's ener zone" in body["notes"][0]


def test_a_grow_with_pay_given_has_no_note(judge: Judge) -> None:
    m = judge.create_position(grow_phase(["WXDi-D09-H26"]))
    state = judge.state(m)
    ener = [c["iid"] for c in state["players"]["p1"]["ener"]["cards"]]
    r = judge.act(m, {**GROW, "pay": ener})
    assert r.status_code == 201, r.get_json()
    body = r.get_json()
    assert any(e["type"] == "LrigGrew" for e in body["events"])
    assert "notes" not in body
    assert "paid with" not in judge.ruling(m, {"player": "p1", "type": "pass"}).get_json()["explanation"]
