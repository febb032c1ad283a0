"""A judge's rewind and branch, through the API: nothing is lost, and the audit holds on every match."""

from __future__ import annotations

import random
from typing import Any

from tests.conftest import Judge, MatchRef


def _essence(e: dict[str, Any]) -> tuple[Any, ...]:
    return (e["n"], e["type"], e["actor"], e["rule"], e["caused_by"], e["data"])


def decision_point_at_or_before(judge: Judge, m: MatchRef, n: int) -> int:
    """The latest decision point at or before event ``n``: time travel goes only there
    (judge.decision-point)."""
    points = judge.get(f"{m.path}/timeline", limit=n)["points"]
    return max(p["n"] for p in points if p["decision_point"])


def test_rewind_and_branch(judge: Judge) -> None:
    m = judge.create_match("WXDi-D04", "WXDi-D06", seed=99)
    judge.play(m, random.Random(3), stop_at=120)
    head = judge.get(m.path)["version"]
    to = decision_point_at_or_before(judge, m, 60)
    before = judge.events(m)
    state_at_to = judge.state(m, at=to)

    # rewind: a judge's action, appended; the state after it is the state at `to`
    r = judge.client.post(
        f"{m.path}/rewind", json={"to": to, "reason": "wrong card played"}, headers=judge.headers()
    )
    assert r.status_code == 201, r.get_json()
    body = r.get_json()
    assert body["events"][0]["type"] == "Rewound" and body["events"][0]["n"] == head + 1
    assert body["version"] == body["events"][-1]["n"]
    rewind_n = head + 1
    rewound_state = judge.state(m, at=rewind_n)
    assert rewound_state["digest"] == state_at_to["digest"]
    assert rewound_state["pending"] == state_at_to["pending"]

    # nothing is deleted; the undone events are marked
    after = judge.events(m)
    assert [_essence(e) for e in after[:head]] == [_essence(e) for e in before]
    for e in after:
        if to < e["n"] < rewind_n:
            assert e["rewound_by"] == rewind_n
        else:
            assert "rewound_by" not in e
    spectator_view = judge.events(m, token=None)
    assert all(e.get("rewound_by") == rewind_n for e in spectator_view if to < e["n"] < rewind_n)
    assert "state" not in spectator_view[rewind_n - 1]["data"]

    # play goes on from the rewound state
    judge.play(m, random.Random(4), stop_at=rewind_n + 30)

    # branch the (parent) match at (or just before) 40
    parent_before = judge.events(m)
    parent_head = judge.get(m.path)["version"]
    at = decision_point_at_or_before(judge, m, 40)
    r = judge.client.post(f"{m.path}/branches", json={"at": at, "reason": "what if"}, headers=judge.headers())
    assert r.status_code == 201, r.get_json()
    b = r.get_json()
    assert b["parent"] == m.id and b["branched_at"] == at and b["id"] != m.id
    assert set(b["tokens"]) == {"p1", "p2"} and b["tokens"] != m.tokens
    branch_path = f"/matches/{b['id']}"
    branch_events = judge.get(f"{branch_path}/events")["events"]
    assert [_essence(e) for e in branch_events[:at]] == [_essence(e) for e in parent_before[:at]]
    assert branch_events[at]["type"] == "Branched"
    assert judge.get(f"{branch_path}/state", at=at)["digest"] == judge.state(m, at=at)["digest"]
    # cut at a decision point: nothing runs on after the Branched event
    assert len(branch_events) == at + 1
    assert judge.get(f"{branch_path}/state")["digest"] == judge.state(m, at=at)["digest"]
    # the parent is unchanged
    assert judge.events(m) == parent_before and judge.get(m.path)["version"] == parent_head
    listed = {x["id"]: x for x in judge.get("/matches")["matches"]}
    assert listed[b["id"]]["parent"] == m.id

    # the branch's own tokens act on it, not on the parent
    branch = MatchRef(b["id"], b["tokens"])
    actions = judge.legal(branch)
    decider = actions[0]["player"]
    r = judge.act(branch, actions[0], token=b["tokens"][decider])
    assert r.status_code == 201
    assert judge.act(m, actions[0], token=b["tokens"][decider]).status_code == 403

    for path in (m.path, branch_path):
        audit = judge.get(f"{path}/audit")
        assert audit["ok"] is True and audit["problems"] == [], audit


def test_rewind_out_of_range_and_bad_bodies_append_nothing(judge: Judge) -> None:
    m = judge.create_match()
    head = judge.get(m.path)["version"]
    post = judge.client.post
    for body, status in (
        ({"to": head + 5, "reason": "x"}, 404),
        ({"to": 0, "reason": "x"}, 422),
        ({"to": 3}, 422),
        ({"to": "3", "reason": "x"}, 422),
        ({"to": 3, "reason": "x", "y": 1}, 422),
    ):
        r = post(f"{m.path}/rewind", json=body, headers=judge.headers())
        assert r.status_code == status, (body, r.get_json())
        assert r.content_type == "application/problem+json" and r.get_json()["detail"]
    r = post(f"{m.path}/branches", json={"at": head + 1, "reason": "x"}, headers=judge.headers())
    assert r.status_code == 404 and "out of range" in r.get_json()["detail"]
    for token in (None, m.tokens["p1"]):
        r = post(f"{m.path}/rewind", json={"to": 1, "reason": "x"}, headers=judge.headers(token))
        assert r.status_code == (401 if token is None else 403)
        r = post(f"{m.path}/branches", json={"at": 1, "reason": "x"}, headers=judge.headers(token))
        assert r.status_code == (401 if token is None else 403)
        assert judge.client.get(f"{m.path}/audit", headers=judge.headers(token)).status_code == (
            401 if token is None else 403
        )
    assert judge.get(m.path)["version"] == head
    assert len(judge.get("/matches")["matches"]) == 1
