"""Card coverage (``domain.coverage``, ``wixoss-judge coverage``, ``docs/COVERAGE.md``): distinct cards per
set (a reprint group once, in the set of its first printing), how many are enforced, and why the others are
not."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.cli import generated_coverage, main
from domain.abilities import abilities_of, encoded_cards, is_enforced
from domain.cards import CardType
from domain.coverage import (
    ABILITIES_NOT_ENCODED,
    TOKEN,
    blocked,
    coverage,
    distinct_cards,
    reason,
    set_of,
)
from domain.facts import catalogue
from domain.state import MARKER_CARDS
from tests.shared_cards import reference_records

COVERAGE_MD = Path(__file__).resolve().parents[2] / "docs" / "COVERAGE.md"


@pytest.mark.parametrize(
    ("number", "code"),
    [
        ("WXDi-P01-001", "WXDi-P01"),
        ("WXDi-CP02-104", "WXDi-CP02"),
        ("WXDi-D09-H01", "WXDi-D09"),
        ("WXDi-P07-TK01-A", "WXDi-P07"),
        ("WX24-D1-TK1", "WX24-D1"),
        ("WX20-034-CB", "WX20"),
        ("WX06-CB01", "WX06"),
        ("WD22-001-U", "WD22"),
        ("WDK-F01-05", "WDK-F01"),
        ("WXK01-TK-01A", "WXK01"),
        ("SPDi01-29", "SPDi01"),
        ("PR-121", "PR"),
        ("PR-Di024", "PR-Di"),
        ("PR-K001", "PR-K"),
    ],
)
def test_the_set_of_a_number(number: str, code: str) -> None:
    assert set_of(number) == code


def test_the_set_of_every_number_agrees_with_the_reference_file() -> None:
    for rec in reference_records():
        code = set_of(rec["id"])
        assert rec["set"].startswith(code) or (code in ("PR-Di", "PR-K") and rec["set"] == "PR"), rec["id"]


def test_every_distinct_card_counts_once_in_the_set_of_its_first_printing() -> None:
    rows = coverage()
    # 7314: the WD02 and WD03 reprints of WD01's Servants and Jetting Knowledge count once, in WD01
    assert sum(r.cards for r in rows) == len(distinct_cards()) == 7314
    # the count: 1,771 distinct cards in the WXDi sets
    assert sum(r.cards for r in rows if r.set.startswith("WXDi-")) == 1771
    by_set = {r.set: r for r in rows}
    assert all(r.enforced == r.cards - len(r.pending) for r in rows)
    # WXDi-P00-001 was reprinted as WXDi-CP01-052 (a starter deck's PIECE, encoded): one card, of WXDi-P00,
    # enforced by its group's encoding
    first = catalogue().get("WXDi-P00-001")
    assert first.reprints == ("WXDi-P00-001", "WXDi-CP01-052") and "WXDi-CP01-052" in encoded_cards()
    assert abilities_of("WXDi-P00-001") == abilities_of("WXDi-CP01-052") != []
    assert is_enforced("WXDi-P00-001") and reason(first) is None
    assert "WXDi-CP01-052" not in {c.id for c in distinct_cards()}
    assert "WXDi-P00-001" not in {p.card for p in by_set["WXDi-P00"].pending}


def test_the_distinct_cards_are_the_first_printings_of_the_reference_file() -> None:
    firsts = {r["id"] for r in reference_records() if not r["reprint_of"]}
    assert {c.id for c in distinct_cards()} == firsts


def test_each_card_not_enforced_has_its_reason() -> None:
    cat = catalogue()
    tokens = [c for c in distinct_cards() if c.is_token]
    markers = [c for c in tokens if c.id in MARKER_CARDS.values()]  # a zone marker's card (a Hastalyk)
    others = [c for c in tokens if c not in markers]
    assert len(tokens) == 5 and all(reason(c) == TOKEN and not is_enforced(c.id) for c in others)
    assert markers and all(reason(c) is None and is_enforced(c.id) for c in markers)
    # the Dissona icon is a printed fact filters name: a Dissona card not encoded waits for its encoding
    dissona = next(c for c in distinct_cards() if c.dissona and c.type == CardType.SIGNI and reason(c))
    assert reason(dissona) in (ABILITIES_NOT_ENCODED, blocked().get(dissona.id))
    key = next(c for c in distinct_cards() if c.type == CardType.KEY and reason(c))
    assert "Key" in str(reason(key))
    # a card with abilities nobody encoded, and a card without abilities (enforced: nothing to enforce)
    plain = next(
        c
        for c in distinct_cards()
        if c.type == CardType.SIGNI and c.has_abilities and not c.dissona and not is_enforced(c.id)
    )
    assert reason(plain) == ABILITIES_NOT_ENCODED
    assert reason(cat.get("WXDi-D01-013")) is None  # a starter card: every ability encoded
    vanilla = next(c for c in distinct_cards() if not c.has_abilities and not c.is_token)
    assert reason(vanilla) is None
    pending = {p.card: p.reason for r in coverage() for p in r.pending}
    assert all(pending[c.id] == reason(c) for c in distinct_cards() if c.id in pending)


def test_the_command_prints_each_set_and_lists_one_set(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["coverage"]) == 0
    out = capsys.readouterr().out
    p01 = next(r for r in coverage() if r.set == "WXDi-P01")
    assert f"WXDi-P01 {p01.enforced:>8} / {p01.cards:<4}" in out
    for group in ("Diva Selection", "Key Selection", "WX24 and later", "Earlier sets"):
        assert f"\n{group}: " in "\n" + out
    some = next(r for r in coverage() if r.set.startswith("WXDi-P") and r.pending)  # a set with a card left
    listed = some.pending[0]
    assert f"{listed.card} " not in out  # the lists only with --set or --list

    assert main(["coverage", "--set", some.set]) == 0
    out = capsys.readouterr().out
    other = "WXDi-P02" if some.set != "WXDi-P02" else "WXDi-P03"
    assert other not in out
    assert f"{some.set}: not enforced yet ({len(some.pending)})" in out
    assert f"  {listed.card:<16} {listed.name}  [{listed.reason}]" in out

    assert main(["coverage", "--set", "WXDi-P99"]) == 2
    assert "unknown set WXDi-P99" in capsys.readouterr().err


def test_docs_coverage_is_what_the_command_writes(tmp_path: Path) -> None:
    assert main(["coverage", "--markdown", str(tmp_path / "c.md")]) == 0
    written = (tmp_path / "c.md").read_text(encoding="utf-8")
    assert written == generated_coverage()
    assert COVERAGE_MD.read_text(encoding="utf-8") == written, (
        "docs/COVERAGE.md is stale: run wixoss-judge coverage --markdown docs/COVERAGE.md"
    )


def test_a_card_blocked_by_a_missing_rule_says_which_and_leaves_the_list_once_encoded() -> None:
    """``data/abilities_blocked.json``: the cards whose encoding waits for a rule or a word, with what they
    need; an entry whose card became enforced (or is no card) is stale and fails here."""
    cat = catalogue()
    listed = blocked()  # empty once every booster card is enforced
    for card_id, need in listed.items():
        card = cat.get(card_id)
        assert not is_enforced(card_id), f"{card_id} is enforced now: remove it from abilities_blocked.json"
        assert need.startswith(("needs rule: ", "needs word: ")), (card_id, need)
        assert reason(card) == need


BOOSTERS_DONE = [f"WXDi-P0{n}" for n in range(9)]


def test_every_distinct_card_of_the_boosters_p00_to_p08_is_enforced() -> None:
    """Issue 15's nine booster sets: every distinct card (a reprint counted in the set of its first printing)
    is enforced, none is listed as blocked, and the nine sets hold about 750 cards (so the test cannot pass
    on an empty catalogue)."""
    rows = coverage(sets=BOOSTERS_DONE)
    assert [r.set for r in rows] == BOOSTERS_DONE
    assert sum(r.cards for r in rows) >= 700
    assert {r.set: [p.card for p in r.pending] for r in rows if r.pending} == {}
    assert not [c for c in blocked() if set_of(c) in BOOSTERS_DONE]
