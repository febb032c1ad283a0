"""The ruling sandbox: a judge's position, rule processing on it, a ruling, and the action itself."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient

from tests.conftest import JUDGE_TOKEN, Judge, bearer

FILLER = ["WXDi-D01-012"] * 10


def over_the_level() -> dict[str, Any]:
    """p1's center LRIG is level 1 and two of its SIGNI are level 2: rba.2 trashes them, p1 choosing the
    order."""
    return {
        "format": "diva",
        "turn": 3,
        "turn_player": "p1",
        "phase": "main",
        "step": None,
        "seed": 7,
        "players": {
            "p1": {
                "lrig": {"center": "WXDi-D01-002", "left": "WXDi-D01-006", "right": "WXDi-D01-009"},
                "signi": {
                    "left": "WXDi-D01-013",
                    "center": {"card": "WXDi-D01-014", "downed": True},
                    "right": "WXDi-D01-012",
                },
                "hand": ["WXDi-D01-012"],
                "deck": FILLER,
                "life_cloth": FILLER[:3],
            },
            "p2": {"lrig": {"center": "WXDi-D01-004"}, "deck": FILLER, "life_cloth": FILLER[:3]},
        },
    }


def _essence(e: dict[str, Any]) -> tuple[Any, ...]:
    return (e["n"], e["type"], e["actor"], e["rule"], e["caused_by"], e["data"])


def test_rule_processing_predicted_by_a_ruling_is_what_the_action_produces(judge: Judge) -> None:
    m = judge.create_position(over_the_level())
    events = judge.events(m)
    assert [e["type"] for e in events] == ["PositionSet", "Asked"]
    asked = events[-1]
    assert asked["rule"] == "rba.2" and asked["data"]["kind"] == "choose" and asked["data"]["player"] == "p1"

    state = judge.state(m)
    above = {state["players"]["p1"]["signi"][z]["iid"] for z in ("left", "center")}
    assert set(asked["data"]["choices"]) == above
    legal = judge.legal(m)
    assert {a["cards"][0] for a in legal} == above and all(a["type"] == "choose" for a in legal)

    action = next(a for a in legal if a["cards"] == [state["players"]["p1"]["signi"]["center"]["iid"]])
    ruling = judge.ruling(m, action, token=m.tokens["p1"])
    assert ruling.status_code == 200
    predicted = ruling.get_json()
    assert predicted["legal"] is True and predicted["at"] == 2
    assert "rba.2" in predicted["rule_refs"]
    assert [e["type"] for e in predicted["events"]] == ["SigniTrashed", "SigniTrashed", "Asked"]
    assert judge.get(m.path)["version"] == 2  # a ruling appends nothing

    r = judge.act(m, action, expected_version=2, token=m.tokens["p1"])
    assert r.status_code == 201
    taken = r.get_json()["events"]
    assert [_essence(e) for e in taken] == [_essence(e) for e in predicted["events"]]
    trashed = {e["data"]["card"] for e in taken if e["type"] == "SigniTrashed"}
    assert trashed == above
    after = judge.state(m)
    assert after["pending"]["kind"] == "main"
    assert {c["iid"] for c in after["players"]["p1"]["trash"]["cards"]} >= above
    assert (
        after["players"]["p1"]["signi"]["left"] is None and after["players"]["p1"]["signi"]["center"] is None
    )
    assert judge.get(f"{m.path}/audit")["ok"] is True


def test_a_position_over_the_limit_is_processed_at_once(judge: Judge) -> None:
    position = over_the_level()
    # level 1 center (limit 2) with two level 1 SIGNI and one more: 3 > 2, the limit is exceeded
    position["players"]["p1"]["signi"] = {
        "left": "WXDi-D01-012",
        "center": "WXDi-D01-018",
        "right": "WXDi-D01-020",
    }
    m = judge.create_position(position)
    events = judge.events(m)
    assert events[1]["type"] == "Asked" and events[1]["rule"] == "rba.2"
    assert len(events[1]["data"]["choices"]) == 3
    action = judge.legal(m)[0]
    ruling = judge.ruling(m, action).get_json()
    assert ruling["legal"] and [e["type"] for e in ruling["events"]] == ["SigniTrashed", "Asked"]
    r = judge.act(m, action)
    assert [_essence(e) for e in r.get_json()["events"]] == [_essence(e) for e in ruling["events"]]


def test_a_ruling_the_rules_refuse_is_200_with_legal_false(judge: Judge) -> None:
    m = judge.create_position(over_the_level())
    r = judge.ruling(m, {"player": "p1", "type": "pass"})
    assert r.status_code == 200
    body = r.get_json()
    assert body["legal"] is False and body["rule_refs"] and body["events"] == [] and body["explanation"]
    # a card that is not in the zone is a refusal too, not an error
    r = judge.ruling(m, {"player": "p1", "type": "choose", "cards": ["WXDi-D01-017"]})
    assert r.status_code == 200 and r.get_json()["legal"] is False


def test_a_position_that_cannot_exist_is_refused_with_the_reason(client: FlaskClient) -> None:
    def post(position: dict[str, Any]) -> Any:
        return client.post("/positions", json=position, headers=bearer(JUDGE_TOKEN))

    unknown = over_the_level()
    unknown["players"]["p1"]["hand"] = ["WXDi-NOPE-999"]
    r = post(unknown)
    assert r.status_code == 422
    body = r.get_json()
    assert r.content_type == "application/problem+json"
    assert "WXDi-NOPE-999" in body["detail"] and body["rule_refs"]

    signi_as_lrig = over_the_level()
    signi_as_lrig["players"]["p2"]["lrig"]["center"] = "WXDi-D01-013"
    r = post(signi_as_lrig)
    assert r.status_code == 422 and r.get_json()["rule_refs"] and "signi" in r.get_json()["detail"].lower()

    no_center = over_the_level()
    del no_center["players"]["p2"]["lrig"]["center"]
    r = post(no_center)
    assert r.status_code == 422 and "center" in r.get_json()["detail"]

    r = post({**over_the_level(), "bogus": 1})
    assert r.status_code == 422 and "bogus" in r.get_json()["detail"]
    assert client.get("/matches").get_json()["matches"] == []


def test_the_201_warns_what_rule_processing_changed_in_the_position(judge: Judge) -> None:
    # API "Positions": a position rule processing would change is accepted and processed at once; the
    # response says so. 004 rule processing 1 (power 0 or less) and 2 (above the LRIG's level)
    position = over_the_level()
    position["players"]["p2"]["signi"] = {"left": {"card": "WXDi-D01-012", "power_mod": -20000}}
    r = judge.client.post("/positions", json=position, headers=judge.headers())
    assert r.status_code == 201
    warnings = r.get_json()["warnings"]
    assert any("(rba.1)" in w and "p2's" in w and "vanished" in w for w in warnings), warnings
    assert any("(rba.2)" in w and "waits for p1 to choose" in w for w in warnings), warnings
    assert all("_" not in w.split("(")[0] for w in warnings)  # words, not field names


def test_a_position_that_stands_as_given_has_no_warnings(judge: Judge) -> None:
    position = over_the_level()
    position["players"]["p1"]["signi"] = {"left": "WXDi-D01-012"}
    r = judge.client.post("/positions", json=position, headers=judge.headers())
    assert r.status_code == 201 and r.get_json()["warnings"] == []
