"""A whole match played through the API only, then history checked against the fold of the log."""

from __future__ import annotations

import random

from flask import Flask

from domain.legal import legal_actions
from domain.version import ENGINE
from projections.views import domain_event_view, state_view
from tests.conftest import Judge


def test_a_match_between_two_presets_is_played_to_the_end_through_the_api(app: Flask, judge: Judge) -> None:
    m = judge.create_match("WXDi-D03", "WXDi-D05", seed=20261122, first_player=None)
    actions = judge.play(m, random.Random(5))
    assert actions > 20

    summary = judge.get(m.path)
    assert summary["status"] == "finished"
    assert summary["winner"] in ("p1", "p2")
    assert summary["result"]["winner"] == summary["winner"] and summary["result"]["rule"]
    assert summary["pending"] is None
    listed = {x["id"]: x for x in judge.get("/matches")["matches"]}
    assert listed[m.id]["status"] == "finished" and listed[m.id]["winner"] == summary["winner"]

    events = judge.events(m)
    head = summary["version"]
    assert [e["n"] for e in events] == list(range(1, head + 1))
    assert [e["type"] for e in events].count("GameEnded") == 1

    # a finished match takes no more actions: 422 citing game.over, and nothing is appended
    r = judge.act(m, {"player": "p1", "type": "pass"})
    assert r.status_code == 422 and "game.over" in r.get_json()["rule_refs"]
    assert judge.get(m.path)["version"] == head

    application = app.extensions["judge"]
    from uuid import UUID

    mid = UUID(m.id)
    for n in sorted({1, 2, 9, 10, head // 4, head // 3, head // 2, (2 * head) // 3, head - 1, head}):
        if n < 1:
            continue
        folded = application.state_at(mid, n)
        expected = state_view(folded, "judge")
        got = judge.state(m, at=n)
        assert got == expected
        assert got["digest"] == folded.digest()
        assert got["version"] == n

        legal = judge.legal(m, at=n)
        assert legal == list(legal_actions(folded))
        if legal:
            action = legal[0]
            ruling = judge.ruling(m, action, at=n)
            assert ruling.status_code == 200
            body = ruling.get_json()
            assert body["legal"] is True and body["at"] == n
            predicted = application.ruling(mid, action, at=n, by="judge")
            assert body["events"] == [
                domain_event_view(n + i, e, "judge") for i, e in enumerate(predicted.events, 1)
            ]
            # the ruling appended nothing
            assert judge.get(m.path)["version"] == head

    audit = judge.get(f"{m.path}/audit")
    assert audit == {
        "ok": True,
        "events": head,
        "head_hash": events[-1]["hash"],
        "problems": [],
        "engine": ENGINE,
        "audited_by": ENGINE,
        "rule_changes": [],
    }
