"""Takebacks over HTTP (issue 17, part 1): a player asks, the opponent or a judge answers, and an accepted
takeback is a rewind appended to the log (``domain.takebacks``; rule ids ``takeback.*`` in GET /rules).

The matches here are seed 1, p1 first: after set-up p1 is asked to mulligan (event 9, or 10 after the policy
event of a match created with one), then p2 (event 11, or 12); p2's answer resolves both mulligans (p1's
returned cards go back, the deck is shuffled, p1 draws again), the Life Cloth is placed and the turn runs on
to p1's ener phase.
"""

from __future__ import annotations

from typing import Any

from tests.conftest import Judge, MatchRef

OFF = {"policy": "with-consent", "refuse_after_reveal": False}


def post(judge: Judge, m: MatchRef, path: str, body: Any = None, who: str | None = "judge") -> Any:
    token = "judge" if who == "judge" else (m.tokens[who] if who else None)
    kwargs = {} if body is None else {"json": body}
    return judge.client.post(f"{m.path}{path}", headers=judge.headers(token), **kwargs)


def position(judge: Judge, m: MatchRef, at: int | None = None) -> dict[str, Any]:
    """The judge's view of the state at ``at`` (default: the latest), without its version."""
    params = {} if at is None else {"at": at}
    return {k: v for k, v in judge.state(m, **params).items() if k != "version"}


def mulligans(judge: Judge, m: MatchRef) -> dict[str, Any]:
    """p1 returns two cards, p2 keeps: the set-up's shuffle and draws follow p2's answer."""
    hand = judge.state(m)["players"]["p1"]["hand"]["cards"]
    p1 = {"player": "p1", "type": "mulligan", "cards": [hand[0]["iid"], hand[1]["iid"]]}
    assert judge.act(m, p1, token=m.tokens["p1"]).status_code == 201
    p2 = {"player": "p2", "type": "mulligan", "cards": []}
    assert judge.act(m, p2, token=m.tokens["p2"]).status_code == 201
    return p2


def audit_ok(judge: Judge, m: MatchRef) -> None:
    report = judge.get(f"{m.path}/audit")
    assert report["ok"], report["problems"]


def test_accepted_takeback_puts_the_match_back_at_the_decision_point_and_keeps_the_log(judge: Judge) -> None:
    """takeback.request (default: the requester's last answered decision), takeback.accept and
    takeback.rewind."""
    m = judge.create_match(seed=1)  # the default policy: with consent, refused after a reveal
    mulligans(judge, m)
    state = judge.state(m)
    assert (state["pending"]["player"], state["pending"]["kind"]) == ("p1", "ener")
    point = state["version"]
    card = state["players"]["p1"]["hand"]["cards"][0]["iid"]
    charge = {"player": "p1", "type": "ener_charge", "card": card, "from": "hand"}
    assert judge.act(m, charge, token=m.tokens["p1"]).status_code == 201
    before = judge.events(m)

    r = post(judge, m, "/takebacks", {"reason": "meant the other card"}, "p1")
    assert r.status_code == 201, r.get_json()
    asked = r.get_json()
    tid = asked["takeback"]
    assert asked["events"][0]["type"] == "TakebackRequested"
    assert asked["events"][0]["data"]["to"] == point and asked["events"][0]["data"]["revealed"] == []

    r = post(judge, m, f"/takebacks/{tid}/accept", {}, "p2")
    assert r.status_code == 201, r.get_json()
    assert [e["type"] for e in r.get_json()["events"]] == ["TakebackAccepted", "Rewound"]

    assert position(judge, m) == position(judge, m, at=point)
    after = judge.events(m)
    assert len(after) == len(before) + 3
    for old, new in zip(before, after, strict=False):  # nothing deleted or changed, the undone marked
        assert {k: v for k, v in new.items() if k != "rewound_by"} == old
    rewind = after[-1]["n"]
    assert all(e.get("rewound_by") == rewind for e in after[point : len(before)])
    audit_ok(judge, m)
    listed = judge.get(f"{m.path}/takebacks", m.tokens["p2"])
    assert listed["open"] is None and listed["used"] == {"p1": 1}
    assert [t["status"] for t in listed["takebacks"]] == ["accepted"]
    # the match goes on from there
    assert judge.act(m, charge, token=m.tokens["p1"]).status_code == 201
    audit_ok(judge, m)


def test_declined_takeback_changes_nothing_but_its_two_events(judge: Judge) -> None:
    """takeback.decline; while a request waits, the match waits (takeback.open)."""
    m = judge.create_match(seed=1)
    mulligans(judge, m)
    card = judge.state(m)["players"]["p1"]["hand"]["cards"][0]["iid"]
    charge = {"player": "p1", "type": "ener_charge", "card": card, "from": "hand"}
    assert judge.act(m, charge, token=m.tokens["p1"]).status_code == 201
    before, head = position(judge, m), judge.state(m)["version"]
    tid = post(judge, m, "/takebacks", {"reason": "hm"}, "p1").get_json()["takeback"]

    waiting = judge.act(m, {"player": "p1", "type": "pass"}, token=m.tokens["p1"])
    assert waiting.status_code == 409 and waiting.get_json()["rule_refs"] == ["takeback.open"]
    assert judge.legal(m) == []  # no answer to the game's decision while the takeback waits
    again = post(judge, m, "/takebacks", {"reason": "again"}, "p1")
    assert again.status_code == 409 and again.get_json()["rule_refs"] == ["takeback.open"]

    r = post(judge, m, f"/takebacks/{tid}/decline", None, "p2")  # no body at all is fine
    assert r.status_code == 201, r.get_json()
    assert position(judge, m) == before
    assert [e["type"] for e in judge.events(m, after=head)] == ["TakebackRequested", "TakebackDeclined"]
    again = post(judge, m, f"/takebacks/{tid}/accept", {}, "p2")
    assert again.status_code == 409 and again.get_json()["rule_refs"] == ["takeback.not-open"]
    audit_ok(judge, m)


def test_policy_never_refuses_every_request_with_409(judge: Judge) -> None:
    """takeback.policy: the string form of the policy, given when the match is created."""
    m = judge.create_match(seed=1, takebacks="never")
    mulligans(judge, m)
    head = judge.state(m)["version"]
    r = post(judge, m, "/takebacks", {"reason": "please"}, "p2")
    assert r.status_code == 409 and r.get_json()["rule_refs"] == ["takeback.policy"]
    r = post(judge, m, "/takebacks", {"player": "p2", "reason": "for p2"})  # the judge filing it alike
    assert r.status_code == 409
    assert judge.state(m)["version"] == head
    # the judge changes the policy: from then on it is allowed (p2's mulligan span revealed nothing to p2
    # but p1's LRIGs and p2's own Life Cloth count, so the reveal check is turned off too)
    r = post(
        judge,
        m,
        "/takebacks/policy",
        {"policy": "with-consent", "refuse_after_reveal": False, "reason": "ok"},
    )
    assert r.status_code == 201 and r.get_json()["events"][0]["type"] == "TakebackPolicySet"
    assert post(judge, m, "/takebacks", {"reason": "please"}, "p2").status_code == 201
    audit_ok(judge, m)


def test_a_takeback_across_a_draw_is_refused_and_otherwise_warns_the_opponent_only(judge: Judge) -> None:
    """takeback.reveal: p1 names p2's mulligan decision; the span holds p1's new cards."""
    refused = judge.create_match(seed=1)
    mulligans(judge, refused)
    r = post(judge, refused, "/takebacks", {"to": 11, "reason": "undo the mulligan"}, "p1")
    assert r.status_code == 409 and r.get_json()["rule_refs"] == ["takeback.reveal"], r.get_json()

    m = judge.create_match(seed=1, takebacks=OFF)
    mulligans(judge, m)
    r = post(judge, m, "/takebacks", {"to": 12, "reason": "undo the mulligan"}, "p1")
    assert r.status_code == 201, r.get_json()
    tid = r.get_json()["takeback"]
    drawn = {
        iid
        for e in judge.events(m, after=12)
        if e["type"] == "CardsDrawn" and e["data"]["player"] == "p1" and e["n"] < tid
        for iid in e["data"]["cards"]
    }
    assert drawn

    def warning(who: str | None) -> list[dict[str, Any]]:
        token = "judge" if who == "judge" else (m.tokens[who] if who else None)
        [request] = [e for e in judge.events(m, token, after=tid - 1) if e["type"] == "TakebackRequested"]
        return request["data"]["revealed"]

    for who in ("p2", "judge"):
        named = {c["iid"] for entry in warning(who) if entry["event"] == "CardsDrawn" for c in entry["cards"]}
        assert named == drawn, who
        assert all(c["card"].startswith("WXDi-") for entry in warning(who) for c in entry["cards"])
    for who in ("p1", None):  # the requester and a spectator: which events and how many, no card named
        entries = warning(who)
        assert entries and all("cards" not in entry for entry in entries), who
        assert sum(e["count"] for e in entries if e["event"] == "CardsDrawn") == len(drawn)
    listed = judge.get(f"{m.path}/takebacks", m.tokens["p1"])["takebacks"][0]["request"]["data"]
    assert all("cards" not in entry for entry in listed["revealed"])


def test_a_takeback_across_a_shuffle_does_not_shuffle_again(judge: Judge) -> None:
    """takeback.rewind: p2 takes back their mulligan, whose answer shuffled p1's deck; the same answer again
    shuffles and draws exactly as before. A judge's rewind does not keep the RNG: the same answer after it
    shuffles otherwise, so the comparison can tell."""
    m = judge.create_match(seed=1, takebacks=OFF)
    keep = mulligans(judge, m)
    first = [e for e in judge.events(m, after=12) if e["type"] in ("DeckShuffled", "CardsDrawn")]
    assert first and first[0]["type"] == "DeckShuffled"
    tid = post(judge, m, "/takebacks", {"reason": "wrong hand kept"}, "p2").get_json()["takeback"]
    assert post(judge, m, f"/takebacks/{tid}/accept", {}, "p1").status_code == 201
    head = judge.state(m)["version"]
    assert judge.act(m, keep, token=m.tokens["p2"]).status_code == 201
    again = [e for e in judge.events(m, after=head) if e["type"] in ("DeckShuffled", "CardsDrawn")]
    assert [e["data"] for e in again] == [e["data"] for e in first]
    audit_ok(judge, m)

    r = post(judge, m, "/rewind", {"to": 12, "reason": "a judge's rewind draws anew"})
    assert r.status_code == 201, r.get_json()
    head = judge.state(m)["version"]
    assert judge.act(m, keep, token=m.tokens["p2"]).status_code == 201
    judged = [e for e in judge.events(m, after=head) if e["type"] == "DeckShuffled"]
    assert judged[0]["data"]["order"] != first[0]["data"]["order"]


def test_judge_only_lets_players_ask_and_only_the_judge_rule(judge: Judge) -> None:
    """takeback.judge-only."""
    m = judge.create_match(seed=1, takebacks={"policy": "judge-only", "refuse_after_reveal": False})
    mulligans(judge, m)
    tid = post(judge, m, "/takebacks", {"reason": "misclick"}, "p2").get_json()["takeback"]
    for who in ("p1", "p2"):
        r = post(judge, m, f"/takebacks/{tid}/accept", {}, who)
        assert r.status_code == 403, r.get_json()
    assert post(judge, m, f"/takebacks/{tid}/accept", {}, "p1").get_json()["rule_refs"] == [
        "takeback.judge-only"
    ]
    r = post(judge, m, f"/takebacks/{tid}/accept", {"reason": "ruled"})
    assert r.status_code == 201 and r.get_json()["events"][0]["actor"] == "judge"
    assert position(judge, m) == position(judge, m, at=12)
    audit_ok(judge, m)


def test_who_may_answer(judge: Judge) -> None:
    """takeback.not-opponent: the requester cannot accept their own request; a spectator is 401."""
    m = judge.create_match(seed=1, takebacks=OFF)
    mulligans(judge, m)
    tid = post(judge, m, "/takebacks", {"reason": "misclick"}, "p2").get_json()["takeback"]
    r = post(judge, m, f"/takebacks/{tid}/accept", {}, "p2")
    assert r.status_code == 403 and r.get_json()["rule_refs"] == ["takeback.not-opponent"]
    assert post(judge, m, f"/takebacks/{tid}/accept", {}, None).status_code == 401
    assert post(judge, m, "/takebacks", {"reason": "x"}, None).status_code == 401
    r = post(judge, m, "/takebacks", {"player": "p1", "reason": "as p1"}, "p2")
    assert r.status_code == 403
    assert (
        judge.client.post(f"{m.path}/takebacks/nope/accept", json={}, headers=judge.headers()).status_code
        == 404
    )


def test_limits_and_targets(judge: Judge) -> None:
    """takeback.limit (per player, decisions undone), judge.decision-point, takeback.nothing."""
    m = judge.create_match(seed=1, takebacks={**OFF, "per_player": 1, "max_back_decisions": 1})
    mulligans(judge, m)
    r = post(judge, m, "/takebacks", {"to": 10, "reason": "two decisions back"}, "p1")
    assert r.status_code == 409 and r.get_json()["rule_refs"] == ["takeback.limit"]
    r = post(judge, m, "/takebacks", {"to": 13, "reason": "inside the game running on"}, "p1")
    assert r.status_code == 422 and "judge.decision-point" in r.get_json()["rule_refs"]
    assert isinstance(r.get_json().get("earlier"), int)
    head = judge.state(m)["version"]
    r = post(judge, m, "/takebacks", {"to": head, "reason": "nothing after it"}, "p1")
    assert r.status_code == 409 and r.get_json()["rule_refs"] == ["takeback.nothing"]
    tid = post(judge, m, "/takebacks", {"reason": "mine"}, "p2").get_json()["takeback"]
    assert post(judge, m, f"/takebacks/{tid}/accept", {}, "p1").status_code == 201
    keep = {"player": "p2", "type": "mulligan", "cards": []}
    assert judge.act(m, keep, token=m.tokens["p2"]).status_code == 201
    r = post(judge, m, "/takebacks", {"reason": "mine again"}, "p2")
    assert r.status_code == 409 and r.get_json()["rule_refs"] == ["takeback.limit"]
    audit_ok(judge, m)


def test_a_policy_that_is_no_policy_is_422(judge: Judge) -> None:
    body = {
        "format": "diva",
        "players": {"p1": {"name": "Ann", "deck": "WXDi-D01"}, "p2": {"name": "Bo", "deck": "WXDi-D02"}},
    }
    for bad in ("sometimes", {"policy": "never", "per_player": -1}, {"refuse_after_reveal": True}, 3):
        r = judge.client.post("/matches", json={**body, "takebacks": bad}, headers=judge.headers())
        assert r.status_code == 422 and r.content_type == "application/problem+json", (bad, r.get_json())
    m = judge.create_match(seed=1)
    r = post(
        judge, m, "/takebacks/policy", {"policy": "judge-only", "max_back_decisions": 1.5, "reason": "x"}
    )
    assert r.status_code == 422


def test_a_match_with_takebacks_and_a_rewind_travels_as_a_record_with_every_hash_equal(judge: Judge) -> None:
    """docs/RECORDS.md: a record holds every action, takebacks (request, answer) and rewinds included, and the
    match's policy in its header; posted back, it replays to the same events and hashes."""
    m = judge.create_match(seed=1, takebacks=OFF)
    keep = mulligans(judge, m)
    tid = post(judge, m, "/takebacks", {"reason": "wrong hand kept"}, "p2").get_json()["takeback"]
    assert post(judge, m, f"/takebacks/{tid}/accept", {}, "p1").status_code == 201
    assert judge.act(m, keep, token=m.tokens["p2"]).status_code == 201
    tid = post(judge, m, "/takebacks", {"reason": "again"}, "p2").get_json()["takeback"]
    assert post(judge, m, f"/takebacks/{tid}/decline", {}, "p1").status_code == 201
    assert post(judge, m, "/rewind", {"to": 12, "reason": "a judge's rewind"}).status_code == 201
    record = judge.client.get(f"{m.path}/record", headers=judge.headers()).get_data(as_text=True)
    assert '"takeback_request"' in record and '"takebacks"' in record.splitlines()[0]
    r = judge.client.post("/records", json={"record": record}, headers=judge.headers())
    assert r.status_code == 201, r.get_json()
    copy = MatchRef(r.get_json()["id"], r.get_json()["tokens"])
    assert [e["hash"] for e in judge.events(copy)] == [e["hash"] for e in judge.events(m)]
    audit_ok(judge, copy)


def test_a_warning_names_to_the_opponent_only_the_requester_s_own_cards() -> None:
    """A takeback's warning shows the opponent which of the requester's cards the undone play showed them; a
    card of the opponent's own that the requester saw (the top of the opponent's deck, which the opponent
    may not know either) is counted, not named. A warning written before cards carried their owner names
    none of its cards to anybody but the judge."""
    from projections.views import redact_data

    data = {
        "player": "p1",
        "to": 12,
        "revealed": [
            {
                "n": 20,
                "event": "CardRevealed",
                "what": "deck top",
                "cards": [
                    {"iid": "c1", "card": "WXDi-D01-012", "owner": "p1"},
                    {"iid": "c2", "card": "WXDi-D02-012", "owner": "p2"},
                ],
            },
            {
                "n": 21,
                "event": "CardsDrawn",
                "what": "draw",
                "cards": [{"iid": "c3", "card": "WXDi-D01-013"}],  # written before cards carried an owner
            },
        ],
    }
    assert redact_data("TakebackRequested", data, "judge") == data
    to_p2 = redact_data("TakebackRequested", data, "p2")["revealed"]
    assert [e["count"] for e in to_p2] == [2, 1]
    assert [[c["iid"] for c in e["cards"]] for e in to_p2] == [["c1"], []]
    for viewer in ("p1", "spectator"):
        shown = redact_data("TakebackRequested", data, viewer)["revealed"]
        assert [e["count"] for e in shown] == [2, 1] and all("cards" not in e for e in shown), viewer
