"""Time travel goes only to decision points (rule ``judge.decision-point``; API.md, Additions: "Time travel
(rewind, branches, takebacks) goes only to decision points: an N after which the next event begins a player's
answer. Any other N: 422 naming the nearest earlier and later decision points").

Every N of a played match is tried, as a rewind and as a branch: a decision point succeeds, the state after it
equals the state at N and the audit holds; any other N is refused with the nearest decision points on each
side, and appends nothing. Which N are decision points is worked out here from the log and the states
themselves (the state names a pending decision, the game is not over, and the next event, if any, carries
the action that began a batch), independently of the timeline that the service shows.
"""

from __future__ import annotations

import random
import time
from typing import Any

import pytest

from tests.conftest import Judge, MatchRef

FILLER = ["WXDi-D03-012"] * 8 + ["WXDi-D03-018"] * 8


def crush_position() -> dict[str, Any]:
    """p1 attacks in the SIGNI attack step with three SIGNI: an unopposed one crushes a Life Cloth card with
    a Life Burst (000 'Crush', 'Life Burst'), one battles and vanishes p2's SIGNI (000 'Battle')."""
    lrigs = {"left": "WXDi-D03-006", "right": "WXDi-D03-009"}
    return {
        "format": "diva",
        "turn": 4,
        "turn_player": "p1",
        "phase": "attack",
        "step": "signi_attack",
        "seed": 5,
        "players": {
            "p1": {
                "lrig": {"center": "WXDi-D03-004", **lrigs},
                "signi": {"left": "WXDi-D03-015", "center": "WXDi-D03-012", "right": "WXDi-D03-013"},
                "hand": ["WXDi-D03-018", "WXDi-D03-013"],
                "deck": FILLER,
                "life_cloth": ["WXDi-D03-014", "WXDi-D03-017"],
                "ener": ["WXDi-D03-012"] * 4,
            },
            "p2": {
                "lrig": {"center": "WXDi-D03-003", **lrigs},
                "signi": {"right": "WXDi-D03-012"},
                "hand": ["WXDi-D03-018"],
                "deck": FILLER,
                "life_cloth": ["WXDi-D03-014", "WXDi-D03-014", "WXDi-D03-017", "WXDi-D03-013"],
                "ener": ["WXDi-D03-012"] * 3,
            },
        },
    }


def timeline(
    judge: Judge, m: MatchRef, token: str | None = "judge", limit: int = 1000
) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    after = 0
    while True:
        page = judge.get(f"{m.path}/timeline", token, after=after, limit=limit)
        out.extend(page["points"])
        if not page["points"] or out[-1]["n"] == page["head"]:
            return out
        after = out[-1]["n"]


def decision_points(
    judge: Judge, m: MatchRef
) -> tuple[list[dict[str, Any]], dict[int, dict[str, Any]], set[int]]:
    """The log, the judge's state after every N, and the N that are decision points, from those alone."""
    events = judge.events(m)
    head = len(events)
    states = {n: judge.state(m, at=n) for n in range(1, head + 1)}
    points = {
        n
        for n, s in states.items()
        if s["status"] != "finished"
        and s["pending"] is not None
        and (n == head or "action" in events[n])  # events[n] is event n + 1
    }
    return events, states, points


def nearest(points: set[int], n: int) -> tuple[int | None, int | None]:
    return max((k for k in points if k < n), default=None), min((k for k in points if k > n), default=None)


def check_timeline(
    judge: Judge, m: MatchRef, events: list[dict[str, Any]], states: dict[int, Any], points: set[int]
) -> None:
    tl = timeline(judge, m, limit=37)  # pages that cut batches in two
    assert [p["n"] for p in tl] == list(range(1, len(events) + 1))
    for p in tl:
        s = states[p["n"]]
        assert p["decision_point"] is (p["n"] in points), p
        assert p["type"] == events[p["n"] - 1]["type"]
        assert (p["status"], p["turn"], p["turn_player"], p["phase"], p["step"]) == (
            s["status"],
            s["turn"],
            s["turn_player"],
            s["phase"],
            s["step"],
        )
        pending = s["pending"] and {"player": s["pending"]["player"], "kind": s["pending"]["kind"]}
        assert p["pending"] == pending
    # the log marks the same points, for every viewer; a spectator and a player see the same timeline
    for token in ("judge", None, m.tokens["p1"]):
        assert [e["decision_point"] for e in judge.events(m, token)] == [p["decision_point"] for p in tl]
    assert timeline(judge, m, token=None) == tl == timeline(judge, m, token=m.tokens["p2"])


def check_refused(judge: Judge, r: Any, n: int, points: set[int], what: str) -> None:
    assert r.status_code == 422, (n, r.get_json())
    assert r.content_type == "application/problem+json"
    body = r.get_json()
    earlier, later = nearest(points, n)
    assert (body["earlier"], body["later"], body["at"]) == (earlier, later, n), (n, body)
    assert body["rule_refs"] == ["judge.decision-point", f"judge.{what}"]
    assert f"event {n}" in body["detail"] and "decision point" in body["detail"]
    for side in (earlier, later):
        assert side is None or str(side) in body["detail"]


def check_every_n(judge: Judge, m: MatchRef) -> dict[str, int]:
    """Rewind and branch ``m`` to every N; returns counts, for the caller's own checks."""
    events, states, points = decision_points(judge, m)
    head = len(events)
    assert points and len(points) < head, "a played match has decision points and events between them"
    check_timeline(judge, m, events, states, points)

    # every other N first: refusals append nothing, so the nearest decision points are those of this log
    inside = 0
    for n in range(1, head + 1):
        if n in points:
            continue
        r = judge.client.post(f"{m.path}/rewind", json={"to": n, "reason": "x"}, headers=judge.headers())
        check_refused(judge, r, n, points, "rewind")
        if states[n]["pending"] is not None and states[n]["status"] != "finished":
            # the state still names the decision being answered, but its answer is under way
            assert "inside the resolution of an answer" in r.get_json()["detail"]
            inside += 1
        r = judge.client.post(f"{m.path}/branches", json={"at": n, "reason": "x"}, headers=judge.headers())
        check_refused(judge, r, n, points, "branch")
    assert judge.get(m.path)["version"] == head
    listed = all_matches(judge)

    # every decision point: a branch, then a rewind of the match itself
    for n in sorted(points):
        r = judge.client.post(
            f"{m.path}/branches", json={"at": n, "reason": "what if"}, headers=judge.headers()
        )
        assert r.status_code == 201, (n, r.get_json())
        branch = MatchRef(r.get_json()["id"], r.get_json()["tokens"])
        assert r.get_json()["version"] == n + 1, "nothing runs on from a decision point"
        assert judge.state(branch)["digest"] == states[n]["digest"]
        if n % 5 == 0 or n == max(points):  # the branch's log is the parent's prefix: a sample is enough
            assert judge.get(f"{branch.path}/audit")["ok"] is True
    assert len(all_matches(judge)) == len(listed) + len(points)

    for n in sorted(points, reverse=True):
        r = judge.client.post(f"{m.path}/rewind", json={"to": n, "reason": "back"}, headers=judge.headers())
        assert r.status_code == 201, (n, r.get_json())
        body = r.get_json()
        assert [e["type"] for e in body["events"]] == ["Rewound"], "nothing runs on from a decision point"
        rewound = judge.state(m, at=body["version"])
        assert rewound["digest"] == states[n]["digest"] and rewound["pending"] == states[n]["pending"]
    assert judge.get(f"{m.path}/audit")["ok"] is True

    # the rewinds left the first `head` points as they were (so each rewind above saw the same log), and
    # every state a rewind landed on is a decision point too
    after = timeline(judge, m)
    assert [p["decision_point"] for p in after[:head]] == [n in points for n in range(1, head + 1)]
    assert all(p["decision_point"] for p in after[head:])
    return {"events": head, "points": len(points), "inside": inside}


def test_rewind_and_branch_to_every_n_of_a_random_match(judge: Judge) -> None:
    start = time.monotonic()
    m = judge.create_match("WXDi-D04", "WXDi-D06", seed=4)  # one of the shorter random matches
    judge.play(m, random.Random(4))
    assert judge.state(m)["status"] == "finished", "a whole match, to its end"
    counts = check_every_n(judge, m)
    assert 150 <= counts["events"] <= 400, counts
    # an LRIG attack declared from the SIGNI attack step: the state still names that step's decision
    assert counts["inside"] > 0, counts
    assert time.monotonic() - start < 60


def test_rewind_and_branch_to_every_n_of_a_position_with_a_crush(judge: Judge) -> None:
    """The issue's case: an N right after damage, before the crush it causes (000 'Crush'), or after a crush,
    before its owner is asked about the Life Burst, is refused; the crush and the Life Burst stay."""
    m = judge.create_position(crush_position())
    judge.play(m, random.Random(1), stop_at=120)
    events = judge.events(m)
    types = [e["type"] for e in events]
    damage = types.index("DamageDealt") + 1
    assert types[damage] == "LifeClothCrushed" and "LifeBurstChosen" in types and "SigniVanished" in types
    check_every_n(judge, m)

    r = judge.client.post(f"{m.path}/rewind", json={"to": damage, "reason": "x"}, headers=judge.headers())
    assert r.status_code == 422 and r.get_json()["later"] > damage + 1, "the crush lies between"
    assert "runs on by itself" in r.get_json()["detail"]


def test_the_timeline_is_bounded_and_read_as_the_log_is(judge: Judge) -> None:
    m = judge.create_match()
    head = judge.get(m.path)["version"]
    page = judge.get(f"{m.path}/timeline", after=2, limit=3)
    assert [p["n"] for p in page["points"]] == [3, 4, 5] and page["head"] == head
    assert judge.get(f"{m.path}/timeline", after=head + 10)["points"] == []
    assert judge.get(f"{m.path}/timeline", limit=-5)["points"] == []
    assert len(judge.get(f"{m.path}/timeline", limit=10**9)["points"]) == head
    # the set-up is dealt in one step: only the first mulligan question is a decision point in it
    assert [p["n"] for p in page["points"] if p["decision_point"]] == []
    assert [p["n"] for p in timeline(judge, m) if p["decision_point"]] == [head]
    for query, status in (({"after": -1}, 422), ({"after": "x"}, 422), ({"limit": "many"}, 422)):
        r = judge.client.get(f"{m.path}/timeline", query_string=query, headers=judge.headers())
        assert r.status_code == status and r.content_type == "application/problem+json", query
    r = judge.client.get("/matches/not-a-uuid/timeline")
    assert r.status_code == 404 and r.content_type == "application/problem+json"
    r = judge.client.get("/matches/00000000-0000-0000-0000-000000000000/timeline")
    assert r.status_code == 404 and r.content_type == "application/problem+json"


@pytest.mark.parametrize("what", ["rewind", "branch"])
def test_the_set_up_is_not_a_place_to_go_back_to(judge: Judge, what: str) -> None:
    """The match's creation from decks is one indivisible step: its events before the first mulligan question
    are refused, and the refusal points at that question (rule judge.decision-point)."""
    m = judge.create_match()
    head = judge.get(m.path)["version"]
    path, key = ("rewind", "to") if what == "rewind" else ("branches", "at")
    r = judge.client.post(f"{m.path}/{path}", json={key: 2, "reason": "x"}, headers=judge.headers())
    body = r.get_json()
    assert r.status_code == 422 and (body["earlier"], body["later"]) == (None, head), body
    assert "set-up" in body["detail"]
    r = judge.client.post(f"{m.path}/{path}", json={key: head, "reason": "x"}, headers=judge.headers())
    assert r.status_code == 201, r.get_json()


def test_the_rule_is_in_the_catalogue(judge: Judge) -> None:
    listed = {r["id"]: r for r in judge.get("/rules")["rules"]}
    assert "decision" in listed["judge.decision-point"]["summary"]
    assert judge.get("/rules/judge.decision-point")["id"] == "judge.decision-point"


def all_matches(judge: Judge) -> list[dict[str, Any]]:
    """Every match of the list, page by page."""
    out: list[dict[str, Any]] = []
    cursor = None
    while True:
        page = judge.get("/matches", limit=200, **({"cursor": cursor} if cursor else {}))
        out.extend(page["matches"])
        cursor = page["cursor"]
        if cursor is None:
            return out
