"""Preset decks and Diva Selection deck validation (domain/decks.py).

Each crafted deck starts from a valid preset and breaks one rule, so that exactly that rule id is reported.
"""

from __future__ import annotations

from collections import Counter

import pytest

from domain.cards import Card, CardType, Catalogue, load_catalogue
from domain.decks import (
    PRESET_IDS,
    Deck,
    Problem,
    UnknownDeck,
    preset,
    presets,
    validate_deck,
)


@pytest.fixture(scope="module")
def catalogue() -> Catalogue:
    return load_catalogue()


def rules(deck: Deck, catalogue: Catalogue | None = None) -> set[str]:
    return {p.rule for p in validate_deck(deck, catalogue)}


def replace(ids: tuple[str, ...], old: str, new: str) -> tuple[str, ...]:
    """``ids`` with the first ``old`` replaced by ``new``."""
    i = ids.index(old)
    return (*ids[:i], new, *ids[i + 1 :])


def d01() -> Deck:
    # WXDi-D01: At (green), Tawil (red) and Umr (blue); 10 LRIG-deck cards and 2 PIECEs; 20 Life Bursts
    return preset("WXDi-D01")


def fitting_card(catalogue: Catalogue, deck: Deck, *, life_burst: bool) -> str:
    """A main-deck card of WXDi-D01's colours (green, red, blue) whose name the deck does not hold."""
    names = {catalogue.get(i).name_key for i in deck.main_deck}
    return next(
        c.id
        for c in catalogue
        if c.is_main_deck_card
        and c.life_burst is life_burst
        and set(c.real_colors) <= {"green", "red", "blue"}
        and c.name_key not in names
    )


def main_card(catalogue: Catalogue, deck: Deck, *, life_burst: bool) -> str:
    """A main-deck card of ``deck`` with or without Life Burst."""
    return next(i for i in deck.main_deck if catalogue.get(i).life_burst is life_burst)


# -------------------------------------------------------------------------------------------- presets


def test_preset_ids_are_the_ten_starter_decks_in_order() -> None:
    assert PRESET_IDS == (
        "WXDi-D01", "WXDi-D02", "WXDi-D03", "WXDi-D04", "WXDi-D05",
        "WXDi-D06", "WXDi-D07", "WXDi-D08", "WXDi-D09-H", "WXDi-D09-P",
    )  # fmt: skip
    assert tuple(presets()) == PRESET_IDS


def test_presets_have_40_main_and_11_or_12_lrig_deck_cards() -> None:
    for deck_id, deck in presets().items():
        assert len(deck.main_deck) == 40, deck_id
        assert len(deck.lrig_deck) in (11, 12), deck_id
        assert deck.name, deck_id
        assert isinstance(deck.main_deck, tuple) and isinstance(deck.lrig_deck, tuple)


@pytest.mark.parametrize("deck_id", PRESET_IDS)
def test_every_preset_is_a_valid_diva_deck(deck_id: str, catalogue: Catalogue) -> None:
    assert validate_deck(preset(deck_id)) == []
    assert validate_deck(preset(deck_id), catalogue) == []


def test_team_pieces_added_beyond_the_product_are_kept() -> None:
    # the deck lists add a team PIECE that is not numbered in the boxed product: a real card, kept
    assert "WXDi-P00-003" in preset("WXDi-D01").lrig_deck
    assert "WXDi-CP01-052" in preset("WXDi-D02").lrig_deck


def test_presets_returns_a_fresh_dict() -> None:
    presets().clear()
    assert len(presets()) == 10


def test_unknown_preset() -> None:
    with pytest.raises(UnknownDeck) as err:
        preset("WXDi-D99")
    assert isinstance(err.value, KeyError)
    assert err.value.deck_id == "WXDi-D99"
    assert str(err.value).startswith("unknown deck 'WXDi-D99': the preset decks are WXDi-D01, ")


def test_deck_and_problem_to_dict() -> None:
    deck = Deck.from_dict({"name": "x", "lrig_deck": ["A"], "main_deck": ["B", "B"]})
    assert deck == Deck(lrig_deck=("A",), main_deck=("B", "B"), name="x")
    assert deck.to_dict() == {"name": "x", "lrig_deck": ["A"], "main_deck": ["B", "B"]}
    assert Deck(["A"], ["B"]).lrig_deck == ("A",)  # type: ignore[arg-type]
    assert Problem("deck.copies", "m", ("A",)).to_dict() == {
        "rule": "deck.copies",
        "message": "m",
        "cards": ["A"],
    }


# ------------------------------------------------------------------------------------------ main deck


def test_main_deck_must_have_exactly_40_cards(catalogue: Catalogue) -> None:
    # 000 glossary, "Main deck": "made up of exactly 40 cards"
    deck = d01()
    short = Deck(deck.lrig_deck, deck.main_deck[:-1])
    assert rules(short) == {"deck.main-size"}
    (problem,) = validate_deck(short)
    assert problem.message == "The main deck has 39 cards; it must have exactly 40."
    assert problem.cards == ()
    long = Deck(deck.lrig_deck, (*deck.main_deck, fitting_card(catalogue, deck, life_burst=False)))
    assert rules(long) == {"deck.main-size"}


def test_at_most_four_cards_of_one_name(catalogue: Catalogue) -> None:
    # 000 glossary, "Deck": "The Main deck can contain up to four cards of the same name"
    deck = d01()
    four = Counter(deck.main_deck).most_common(1)[0][0]
    assert Counter(deck.main_deck)[four] == 4
    victim = next(
        i
        for i in deck.main_deck
        if i != four and catalogue.get(i).life_burst == catalogue.get(four).life_burst
    )
    five = Deck(deck.lrig_deck, replace(deck.main_deck, victim, four))
    problems = validate_deck(five)
    assert [p.rule for p in problems] == ["deck.copies"]
    assert problems[0].cards == (four,)
    assert "5 cards named" in problems[0].message


def test_copies_are_counted_by_name_not_by_id(catalogue: Catalogue) -> None:
    # 000 glossary, "Deck": four cards of the same NAME; a reprint under another id shares the name
    deck = d01()
    servant = "WXDi-D01-020"  # Servant #, four copies in WXDi-D01
    reprint = (
        "WXDi-D03-020"  # the same card from WXDi-D03, another id (its name spelt with a full-width sign)
    )
    assert Counter(deck.main_deck)[servant] == 4
    assert catalogue.get(servant).name_key == catalogue.get(reprint).name_key
    victim = main_card(catalogue, deck, life_burst=True)
    assert catalogue.get(victim).name_key != catalogue.get(servant).name_key
    five = Deck(deck.lrig_deck, replace(deck.main_deck, victim, reprint))
    problems = validate_deck(five)
    assert [p.rule for p in problems] == ["deck.copies"]
    assert problems[0].cards == (servant, reprint)


def test_at_most_20_life_bursts(catalogue: Catalogue) -> None:
    # 000 glossary, "Main deck": "can contain up to 20 cards with Life Burst" (WXR-051: 20 or fewer)
    deck = d01()
    assert sum(catalogue.get(i).life_burst for i in deck.main_deck) == 20
    no_burst = main_card(catalogue, deck, life_burst=False)
    burst = fitting_card(catalogue, deck, life_burst=True)
    problems = validate_deck(Deck(deck.lrig_deck, replace(deck.main_deck, no_burst, burst)))
    assert [p.rule for p in problems] == ["deck.life-burst"]
    assert "21 cards with a Life Burst" in problems[0].message
    assert len(problems[0].cards) == len({i for i in deck.main_deck if catalogue.get(i).life_burst}) + 1


# ------------------------------------------------------------------------------------------ LRIG deck


def test_at_most_ten_non_piece_cards_in_the_lrig_deck() -> None:
    # 000 glossary, "LRIG Deck": "up to 10 non-PIECE cards, and up to 2 PIECE cards"
    deck = d01()
    midoriko_assist = "WXDi-D08-009"  # green, level 1, a name WXDi-D01 does not have
    problems = validate_deck(Deck((*deck.lrig_deck, midoriko_assist), deck.main_deck))
    assert [p.rule for p in problems] == ["deck.lrig-size"]
    assert "11 cards that are not PIECEs" in problems[0].message


def test_at_most_two_pieces() -> None:
    # 000 glossary, "LRIG Deck" / "PIECE": "up to 2 additional PIECE cards"
    deck = d01()
    third_piece = "WXDi-D08-012"  # colorless
    problems = validate_deck(Deck((*deck.lrig_deck, third_piece), deck.main_deck))
    assert [p.rule for p in problems] == ["deck.piece"]
    assert "3 PIECEs" in problems[0].message
    assert problems[0].cards == ("WXDi-D01-011", third_piece, "WXDi-P00-003")


def test_pieces_are_allowed_with_three_level0_lrigs_and_refused_without() -> None:
    # 000 glossary, "PIECE": "If you have 3 or more level 0 LRIGs in your LRIG deck, you can add up to 2
    # additional PIECE cards"
    deck = preset("WXDi-D07")  # Ex (red), Deus and Machina (black)
    assert rules(deck) == set()
    # without Machina's line (level 0 and its assists, all black) two level 0 LRIGs are left
    machina = {"WXDi-D07-008", "WXDi-D07-009", "WXDi-D07-010"}
    two = Deck(tuple(i for i in deck.lrig_deck if i not in machina), deck.main_deck)
    problems = validate_deck(two)
    assert [p.rule for p in problems] == ["deck.lrig-level0", "deck.piece"]
    assert "PIECEs are allowed only with three level 0 LRIGs" in problems[1].message
    # the same deck without its PIECEs has only the level 0 problem
    no_pieces = Deck(
        tuple(i for i in two.lrig_deck if i not in ("WXDi-D07-011", "WXDi-D07-012")), deck.main_deck
    )
    assert rules(no_pieces) == {"deck.lrig-level0"}


def test_no_two_cards_of_one_name_in_the_lrig_deck() -> None:
    # 000 glossary, "LRIG Deck": "This deck cannot have multiple cards of the same name"
    deck = preset("WXDi-D03")
    # the level 1 Hirana of WXDi-D09-H is the same card as WXDi-D03-002, under another id
    twice = Deck(replace(deck.lrig_deck, "WXDi-D03-004", "WXDi-D09-H02"), deck.main_deck)
    problems = validate_deck(twice)
    assert [p.rule for p in problems] == ["deck.lrig-names"]
    assert problems[0].cards == ("WXDi-D03-002", "WXDi-D09-H02")


def test_exactly_three_level0_lrigs() -> None:
    # 000 glossary, "LRIG Zone": "Start the game with three level 0 LRIGs"; WXR-050: exactly three in Diva
    deck = d01()
    fourth = "WXDi-D08-008"  # Midoriko, level 0, green, in place of the level 3 At
    problems = validate_deck(Deck(replace(deck.lrig_deck, "WXDi-D01-004", fourth), deck.main_deck))
    assert [p.rule for p in problems] == ["deck.lrig-level0"]
    assert problems[0].message == "The LRIG deck has 4 level 0 LRIGs; Diva Selection needs exactly 3."


# -------------------------------------------------------------------------------------------- colours


def test_colours_must_be_among_the_level0_lrigs_colours(catalogue: Catalogue) -> None:
    # RULES-NOTES "Diva Selection deck building" and WXR-048: colours other than colorless must be among the
    # colours of the three level 0 LRIGs, in the main deck and in the LRIG deck
    deck = d01()  # green, red, blue
    victim = main_card(catalogue, deck, life_burst=False)
    white = next(
        c.id for c in catalogue if c.is_main_deck_card and c.real_colors == ("white",) and not c.life_burst
    )
    problems = validate_deck(Deck(deck.lrig_deck, replace(deck.main_deck, victim, white)))
    assert [p.rule for p in problems] == ["deck.colors"]
    assert problems[0].cards == (white,)
    assert "white" in problems[0].message and "(red, blue and green)" in problems[0].message
    # a white PIECE in the LRIG deck breaks the same rule
    white_piece = "WXDi-D08-011"  # white and red
    problems = validate_deck(Deck(replace(deck.lrig_deck, "WXDi-P00-003", white_piece), deck.main_deck))
    assert [p.rule for p in problems] == ["deck.colors"]
    assert problems[0].cards == (white_piece,)


def test_colorless_cards_fit_any_deck(catalogue: Catalogue) -> None:
    # 000 glossary, "Colorless": it does not belong to any colour
    deck = preset("WXDi-D02")  # white and black: its Servants are colorless
    servants = [i for i in deck.main_deck if catalogue.get(i).is_colorless]
    assert servants
    assert rules(deck) == set()


# ----------------------------------------------------------------------------------- kinds and errors


def test_cards_in_the_wrong_deck() -> None:
    # 000 glossary, "Main deck" (SIGNI and spells) and "LRIG Deck" (white-backed cards)
    deck = d01()
    signi, lrig3 = "WXDi-D01-012", "WXDi-D01-004"
    swapped = Deck(replace(deck.lrig_deck, lrig3, signi), replace(deck.main_deck, "WXDi-D01-013", lrig3))
    problems = validate_deck(swapped)
    assert [p.rule for p in problems] == ["deck.zone", "deck.zone"]
    assert problems[0].cards == (lrig3,) and "belongs in the LRIG deck" in problems[0].message
    assert problems[1].cards == (signi,) and "belongs in the main deck" in problems[1].message


def test_crafts_belong_in_neither_deck() -> None:
    extended = load_catalogue(extended=True)
    craft = next(c for c in extended if c.type is CardType.SIGNI_CRAFT and set(c.real_colors) <= {"green"})
    deck = d01()
    problems = validate_deck(Deck(deck.lrig_deck, replace(deck.main_deck, "WXDi-D01-012", craft.id)))
    assert [p.rule for p in problems] == ["deck.zone"]
    assert "belongs in neither deck" in problems[0].message


def test_an_unknown_card_is_reported_not_raised() -> None:
    deck = d01()
    problems = validate_deck(Deck(deck.lrig_deck, replace(deck.main_deck, "WXDi-D01-012", "NOPE-000")))
    assert [p.to_dict() for p in problems] == [
        {
            "rule": "deck.unknown-card",
            "message": "The card id 'NOPE-000' is not in the catalogue.",
            "cards": ["NOPE-000"],
        }
    ]


def test_cards_outside_the_starters_are_known_by_default(catalogue: Catalogue) -> None:
    # validation defaults to every known card: a real card outside the starter decks is a legal deck card
    deck = d01()
    extended = load_catalogue(extended=True)
    outside = next(
        c.id
        for c in extended
        if c.type is CardType.PIECE
        and c.id not in catalogue
        and set(c.real_colors) <= {"green", "red", "blue"}
    )
    with_piece = Deck(replace(deck.lrig_deck, "WXDi-P00-003", outside), deck.main_deck)
    assert validate_deck(with_piece) == []
    assert rules(with_piece, catalogue) == {"deck.unknown-card"}


def test_only_diva_selection_is_supported() -> None:
    problems = validate_deck(d01(), format="all-star")
    assert [p.rule for p in problems] == ["format.unsupported"]
    assert "'all-star'" in problems[0].message and "diva" in problems[0].message


def test_every_problem_is_reported_at_once() -> None:
    # the API contract: POST /decks/validate lists every problem at once, each with its rule id
    deck = d01()
    main = replace(deck.main_deck[:-1], "WXDi-D01-013", "NOPE-000")  # 39 cards, one unknown
    lrig = (
        *replace(deck.lrig_deck, "WXDi-D01-004", "WXDi-D01-012"),  # a SIGNI in the LRIG deck
        "WXDi-D08-012",  # a third PIECE (colorless)
        "WXDi-D08-011",  # a fourth PIECE, white and red: white is not a colour of this deck
    )
    problems = validate_deck(Deck(lrig, main))
    assert [p.rule for p in problems] == [
        "deck.unknown-card",
        "deck.zone",
        "deck.main-size",
        "deck.piece",
        "deck.colors",
    ]
    assert all(isinstance(p, Problem) and p.message.endswith(".") for p in problems)


def test_messages_name_the_cards(catalogue: Catalogue) -> None:
    deck = d01()
    lrig3: Card = catalogue.get("WXDi-D01-004")
    (problem,) = validate_deck(Deck(deck.lrig_deck, replace(deck.main_deck, "WXDi-D01-013", lrig3.id)))
    assert f"{lrig3.name} ({lrig3.id})" in problem.message
