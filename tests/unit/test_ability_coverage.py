"""Which cards of the ten Diva starter decks the service enforces, and the quality of their encodings.

Issue: every card of the ten decks does what its text says. Until all are encoded, ``PENDING`` lists those
whose abilities a judge still resolves; this test fails when a card is neither encoded nor listed, and when
a listed card has been encoded (so the list only shrinks).
"""

from __future__ import annotations

from domain.abilities.catalogue import abilities_of, describe, encoded_cards, is_enforced, problems
from domain.coverage import distinct_cards
from domain.decks import presets
from domain.facts import catalogue
from tests.unit.scenario_runner import load_all

PENDING_FILE = __file__.replace("test_ability_coverage.py", "abilities_pending.txt")


def deck_cards() -> set[str]:
    return {c for deck in presets().values() for c in (*deck.lrig_deck, *deck.main_deck)}


def pending() -> set[str]:
    with open(PENDING_FILE, encoding="utf-8") as f:
        return {line.split("#")[0].strip() for line in f if line.split("#")[0].strip()}


def test_every_card_with_abilities_is_encoded_or_listed_as_pending() -> None:
    with_abilities = {c for c in deck_cards() if catalogue().get(c).has_abilities}
    missing = with_abilities - encoded_cards()
    assert missing - pending() == set(), "cards neither encoded nor listed as pending"
    assert pending() - missing == set(), "encoded cards still listed as pending: remove them from the list"
    assert len(deck_cards()) == 232


def test_enforcement_is_reported_per_card() -> None:
    for c in deck_cards():
        assert is_enforced(c) == (c in encoded_cards() or not catalogue().get(c).has_abilities)


def test_every_encoding_is_in_the_vocabulary_and_can_be_described() -> None:
    for card_id in encoded_cards():
        assert card_id in catalogue(), card_id
        assert problems(card_id, abilities_of(card_id)) == [], card_id
        texts = describe(card_id)
        assert len(texts) == len(abilities_of(card_id))
        assert all(t and t.endswith(".") for t in texts), (card_id, texts)


def test_every_encoded_card_has_a_scenario() -> None:
    names = " ".join(sc["name"] for sc in load_all())
    untested = sorted(c for c in encoded_cards() if c not in names)
    assert untested == [], f"encoded cards without a scenario naming them: {untested}"


def test_every_card_of_the_ten_decks_has_a_scenario() -> None:
    """Every one of the 232 cards is used by a scenario from a position: the cards with abilities in the card
    files (once encoded), the others (LRIGs and SIGNI without abilities) in ``cards_printed.json``, which
    checks their printed facts: grow cost, LRIG type, level, limit and power."""
    names = " ".join(sc["name"] for sc in load_all())
    missing = sorted(c for c in deck_cards() - pending() if c not in names)
    assert missing == [], f"cards of the ten decks without a scenario naming them: {missing}"
    printed = {sc["name"].split(":")[0] for sc in load_all() if sc["file"] == "cards_printed.json"}
    assert printed == {c for c in deck_cards() if not catalogue().get(c).has_abilities}


def test_every_card_the_coverage_counts_enforced_has_a_scenario() -> None:
    """The coverage report (``wixoss-judge coverage``) asks ``is_enforced``, as this file does: a card it
    counts enforced for its encoded abilities is named by a scenario under one of its numbers."""
    names = " ".join(sc["name"] for sc in load_all())
    untested = sorted(
        c.id
        for c in distinct_cards()
        if c.has_abilities and is_enforced(c.id) and not any(n in names for n in c.print_ids)
    )
    assert untested == [], f"cards counted enforced without a scenario naming them: {untested}"
