"""Match records (docs/RECORDS.md): export, import with every hash equal, a refusal at the exact line that
was edited, and a paper game without a seed (tests/records/paper-game.jsonl)."""

from __future__ import annotations

import json
import random
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from domain.decks import PRESET_IDS, preset
from domain.engine import decide
from domain.legal import legal_actions
from domain.match import Match
from domain.setup import PlayerSetup, create_match
from projections.records import Divergence, export_record, record_schema, replay_record

PAPER = Path(__file__).parent.parent / "records" / "paper-game.jsonl"


def _played(seed: int, turns: int = 40) -> tuple[Match, list[Any]]:
    chooser = random.Random(f"records:{seed}")
    decks = (PRESET_IDS[seed % 10], PRESET_IDS[(seed * 7 + 3) % 10])
    m = Match.start(
        create_match(
            "diva", seed, {"p1": PlayerSetup("A", preset(decks[0])), "p2": PlayerSetup("B", preset(decks[1]))}
        )
    )
    while m.state.status != "finished" and m.state.turn < turns:
        m.record(decide(m.state, chooser.choice(list(legal_actions(m.state)))))
    return m, m.collect_events()


def _validate(text: str) -> None:
    validator = _validator()
    for line in text.splitlines():
        validator.validate(json.loads(line))


@cache
def _validator() -> jsonschema.protocols.Validator:
    """The record schema's validator, made once (``jsonschema.validate`` checks the schema itself on every
    call, which costs far more than validating a line)."""
    schema = record_schema()
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema)


@pytest.mark.slow  # about 30 s on an idle machine: 100 matches played, exported and replayed
def test_export_then_import_of_100_simulated_matches_reproduces_every_hash() -> None:
    for seed in range(100):
        m, events = _played(seed, turns=12)
        text = export_record(events, m.id)
        _validate(text)
        replay = replay_record(text)
        assert [e.hash for e in replay.match.collect_events()] == [e.hash for e in events], seed
        assert replay.hashes_checked == len(text.splitlines())


def _edited(lines: list[str], index: int, change: Any) -> str:
    out = list(lines)
    out[index] = json.dumps(change(json.loads(out[index])))
    return "\n".join(out) + "\n"


def _refused(text: str) -> Divergence:
    with pytest.raises(Divergence) as caught:
        replay_record(text)
    return caught.value


def test_a_hash_changed_in_one_line_is_refused_at_that_line() -> None:
    m, events = _played(3)
    lines = export_record(events, m.id).splitlines()
    k = len(lines) // 2
    err = _refused(_edited(lines, k, lambda d: {**d, "hash": "0" * 64}))
    assert (err.line, err.reason, err.rule_refs) == (k + 1, "hash-differs", ["record.hash"])


def test_an_action_removed_is_refused_at_the_line_that_follows() -> None:
    m, events = _played(4)
    lines = export_record(events, m.id).splitlines()
    k = len(lines) // 2
    err = _refused("\n".join(lines[:k] + lines[k + 1 :]) + "\n")
    assert err.line == k + 1  # the line now at k + 1 was the next one: its action or its hash parts ways
    assert err.reason in ("illegal-action", "events-differ", "hash-differs")


def test_a_card_swapped_in_an_action_is_refused_at_that_line_with_the_rule() -> None:
    """A card played from the hand that is not in the hand: the rules refuse it (main.play-signi)."""
    m, events = _played(5)
    lines = export_record(events, m.id).splitlines()
    k = next(i for i, raw in enumerate(lines) if '"play_signi"' in raw)

    def swap(d: dict[str, Any]) -> dict[str, Any]:
        d["action"]["card"] = "c0000000000"
        return d

    err = _refused(_edited(lines, k, swap))
    assert err.line == k + 1 and err.reason == "illegal-action" and err.rule_refs
    assert err.state is not None


def test_a_paper_game_without_a_seed_imports_and_says_what_it_could_not_check() -> None:
    text = PAPER.read_text(encoding="utf-8")
    assert len(text.splitlines()) >= 31 and json.loads(text.splitlines()[0])["seed"] is None
    _validate(text)
    report = replay_record(text).report()
    assert report["ok"] and not report["seeded"]
    assert any("drawn" in c for c in report["checked"]) and any("crushed" in c for c in report["checked"])
    assert any(u.startswith("no seed") for u in report["unchecked"])
    assert any("does not name" in u for u in report["unchecked"])


def test_a_paper_game_naming_a_card_that_is_not_in_the_deck_is_refused_at_that_line() -> None:
    lines = PAPER.read_text(encoding="utf-8").splitlines()
    k = next(i for i, raw in enumerate(lines) if i > 0 and '"drawn"' in raw)

    def wrong(d: dict[str, Any]) -> dict[str, Any]:
        p = next(iter(d["facts"]))
        d["facts"][p]["drawn"][0] = "WXDi-D09-H-001" if p == "p1" else "WXDi-D01-001"
        return d

    err = _refused(_edited(lines, k, wrong))
    assert err.line == k + 1 and err.reason == "card-not-there" and err.rule_refs == ["record.fact"]


def test_an_exported_imported_paper_game_replays_exactly() -> None:
    first = replay_record(PAPER.read_text(encoding="utf-8"))
    events = first.match.collect_events()
    text = export_record(events, first.match.id)
    _validate(text)
    again = replay_record(text)
    assert [e.hash for e in again.match.collect_events()] == [e.hash for e in events]


@pytest.mark.parametrize(
    ("change", "where"),
    [
        (lambda h: h["players"]["p1"].update(name="x" * 101), "players/p1/name"),
        (lambda h: h["players"]["p2"].update(name=""), "players/p2/name"),
        (lambda h: h.update(seed=2**63), "seed"),
        (lambda h: h.update(seed=-(2**63) - 1), "seed"),
        (lambda h: h["players"]["p1"].update(main_deck=["WXDi-D01-010"] * 201), "players/p1/main_deck"),
        (lambda h: h["players"]["p1"]["main_deck"].__setitem__(0, "W" * 101), "players/p1/main_deck/0"),
    ],
)
def test_a_header_beyond_the_limits_of_match_creation_is_refused_at_line_1(change: Any, where: str) -> None:
    """A record's header takes what ``POST /matches`` takes (names of 1 to 100 characters, a 64-bit seed,
    decks of at most 100 and 200 cards, card ids of at most 100 characters), not more."""
    lines = PAPER.read_text(encoding="utf-8").splitlines()

    def edit(h: dict[str, Any]) -> dict[str, Any]:
        change(h)
        return h

    err = _refused(_edited(lines, 0, edit))
    assert err.line == 1 and err.reason == "malformed" and err.rule_refs == ["record.format"]
    assert f"at {where}:" in str(err)


def test_a_number_too_long_to_read_is_a_malformed_line_not_a_crash() -> None:
    lines = PAPER.read_text(encoding="utf-8").splitlines()
    lines[1] = '{"n": ' + "9" * 5000 + "}"
    err = _refused("\n".join(lines) + "\n")
    assert err.line == 2 and err.reason == "malformed"
