"""The card model and the catalogue (domain/cards.py, domain/data/cards*.json)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain.cards import (
    COLORS,
    KEYWORDS,
    TIMINGS,
    Card,
    CardType,
    Catalogue,
    CostItem,
    UnknownCard,
    load_catalogue,
)
from domain.decks import presets

SHARED_CARDS = Path(__file__).resolve().parents[2] / ".." / "shared" / "cards"
FORMAT_KEYS = {
    "id", "name", "name_ja", "type", "colors", "level", "limit", "power", "grow_cost", "cost", "lrig_types",
    "limiting", "classes", "team", "guard", "life_burst", "multi_ener", "timings", "keywords",
    "has_abilities", "aliases", "reprints", "dissona", "coin",
}  # fmt: skip
TYPE_NAMES = {
    "LRIG": "lrig",
    "Assist LRIG": "assist_lrig",
    "SIGNI": "signi",
    "Spell": "spell",
    "ARTS": "arts",
    "PIECE": "piece",
    "Resona": "resona",
    "Key": "key",
}


@pytest.fixture(scope="module")
def catalogue() -> Catalogue:
    return load_catalogue()


@pytest.fixture(scope="module")
def extended() -> Catalogue:
    return load_catalogue(extended=True)


def starter_records() -> list[dict[str, Any]]:
    path = SHARED_CARDS / "starter_cards.json"
    if not path.is_file():
        pytest.skip("../shared/cards not present: reference data is not part of a user's clone")
    with path.open(encoding="utf-8") as f:
        return json.load(f)


# ------------------------------------------------------------------------------------------- catalogue


def test_catalogue_holds_the_232_starter_cards(catalogue: Catalogue) -> None:
    assert len(catalogue) == 232
    assert len(list(catalogue)) == 232


def test_catalogue_contains_every_card_of_every_preset(catalogue: Catalogue) -> None:
    for deck_id, deck in presets().items():
        missing = [i for i in (*deck.lrig_deck, *deck.main_deck) if i not in catalogue]
        assert missing == [], deck_id


def test_every_starter_card_is_used_by_a_preset(catalogue: Catalogue) -> None:
    used = {i for deck in presets().values() for i in (*deck.lrig_deck, *deck.main_deck)}
    assert {c.id for c in catalogue} == used


def test_catalogue_iterates_sorted_by_id(catalogue: Catalogue, extended: Catalogue) -> None:
    for cat in (catalogue, extended):
        ids = [c.id for c in cat]
        assert ids == sorted(ids)
        assert len(set(ids)) == len(ids)


def test_get_and_unknown_card(catalogue: Catalogue) -> None:
    card = catalogue.get("WXDi-D01-012")
    assert card.id == "WXDi-D01-012"
    assert "WXDi-D01-012" in catalogue
    assert "NOPE-000" not in catalogue
    with pytest.raises(UnknownCard) as err:
        catalogue.get("NOPE-000")
    assert err.value.card_id == "NOPE-000"
    assert str(err.value) == "unknown card id 'NOPE-000': not in the catalogue"
    assert isinstance(err.value, LookupError)


def test_extended_catalogue_adds_cards_and_the_starter_file_wins(
    catalogue: Catalogue, extended: Catalogue
) -> None:
    assert len(extended) > 7000
    for card in catalogue:
        assert extended.get(card.id) == card
    assert "WX01-001" in extended and "WX01-001" not in catalogue


def test_load_catalogue_is_cached() -> None:
    assert load_catalogue() is load_catalogue()
    assert load_catalogue(extended=True) is load_catalogue(extended=True)


def test_a_later_card_of_one_id_replaces_an_earlier_one(catalogue: Catalogue) -> None:
    card = catalogue.get("WXDi-D01-012")
    renamed = Card.from_dict({**card.to_dict(), "name": "Renamed"})
    assert Catalogue([card, renamed]).get(card.id).name == "Renamed"
    assert len(Catalogue([card, renamed])) == 1


# --------------------------------------------------------------------------------------------- search


def test_search_without_filters_lists_everything(catalogue: Catalogue) -> None:
    assert catalogue.search() == list(catalogue)


def test_search_q_matches_id_name_and_japanese_name_case_insensitively(catalogue: Catalogue) -> None:
    by_id = catalogue.search(q="wxdi-d01-01")
    assert [c.id for c in by_id] == [f"WXDi-D01-01{n}" for n in range(10)]
    servants = catalogue.search(q="SERVANT")
    assert servants and all("servant" in c.name.lower() for c in servants)
    assert {c.id for c in catalogue.search(q="サーバント")} == {c.id for c in servants}
    assert catalogue.search(q="no card is called this") == []


def test_search_by_type(catalogue: Catalogue) -> None:
    pieces = catalogue.search(type="piece")
    assert pieces and all(c.type is CardType.PIECE for c in pieces)
    assert catalogue.search(type="Assist LRIG") == catalogue.search(type="assist_lrig")
    assert len(catalogue.search(type="signi")) + len(catalogue.search(type="spell")) + len(
        catalogue.search(type="lrig")
    ) + len(catalogue.search(type="assist_lrig")) + len(pieces) == len(catalogue)
    assert catalogue.search(type="no such type") == []


def test_search_by_colour(catalogue: Catalogue) -> None:
    green = catalogue.search(color="green")
    assert green and all("green" in c.colors for c in green)
    colorless = catalogue.search(color="colorless")
    assert colorless and all(c.is_colorless for c in colorless)
    assert catalogue.search(color="purple") == []


def test_search_combines_filters(catalogue: Catalogue) -> None:
    found = catalogue.search(q="servant", type="signi", color="colorless")
    assert [c.id for c in found] == [c.id for c in catalogue.search(q="servant")]
    assert catalogue.search(q="servant", color="red") == []


# ----------------------------------------------------------------------------------------- card model


def test_card_round_trips_to_dict_and_from_dict(extended: Catalogue) -> None:
    for card in extended:
        d = card.to_dict()
        assert set(d) == FORMAT_KEYS
        assert Card.from_dict(d) == card
        assert json.loads(json.dumps(d)) == d


def test_example_card_in_the_project_format(catalogue: Catalogue) -> None:
    d = catalogue.get("WXDi-D01-012").to_dict()
    assert d["name"] == "Camelopar, Natural Planet"
    assert d["type"] == "signi"
    assert d["colors"] == ["green"]
    assert (d["level"], d["limit"], d["power"]) == (1, None, 3000)
    assert d["classes"] == ["Performer", "Space"]
    assert d["grow_cost"] == [] and d["keywords"] == []


@given(
    st.builds(
        Card,
        id=st.text(min_size=1, max_size=12),
        name=st.text(max_size=20),
        name_ja=st.text(max_size=20),
        type=st.sampled_from(list(CardType)),
        colors=st.lists(st.sampled_from((*COLORS, "colorless")), unique=True).map(tuple),
        level=st.none() | st.integers(0, 5),
        limit=st.none() | st.integers(0, 12),
        power=st.none() | st.integers(0, 30000),
        grow_cost=st.lists(
            st.builds(CostItem, st.sampled_from(("red", "red/green", "coin")), st.integers(1, 3))
        ).map(tuple),
        cost=st.lists(st.builds(CostItem, st.sampled_from(COLORS), st.integers(1, 3))).map(tuple),
        lrig_types=st.lists(st.sampled_from(("TAMA", "AT", "ピルルク"))).map(tuple),
        limiting=st.lists(st.sampled_from(("TAMA", "HANAYO"))).map(tuple),
        classes=st.lists(st.text(max_size=8), max_size=3).map(tuple),
        team=st.none() | st.text(max_size=10),
        guard=st.booleans(),
        life_burst=st.booleans(),
        multi_ener=st.booleans(),
        timings=st.lists(st.sampled_from(TIMINGS), unique=True).map(tuple),
        keywords=st.lists(st.sampled_from(KEYWORDS), unique=True).map(tuple),
    )
)
def test_any_card_round_trips(card: Card) -> None:
    assert Card.from_dict(json.loads(json.dumps(card.to_dict()))) == card


def test_card_kind_properties(catalogue: Catalogue) -> None:
    lrig = catalogue.get("WXDi-D01-001")
    assist = catalogue.get("WXDi-D01-006")
    signi = catalogue.get("WXDi-D01-012")
    servant = catalogue.get("WXDi-D01-020")
    piece = catalogue.get("WXDi-D01-011")
    spell = catalogue.search(type="spell")[0]
    assert lrig.is_lrig and assist.is_lrig and not signi.is_lrig and not piece.is_lrig
    assert signi.is_signi and servant.is_signi and not spell.is_signi and not lrig.is_signi
    assert signi.is_main_deck_card and spell.is_main_deck_card
    assert not lrig.is_main_deck_card and not piece.is_main_deck_card
    assert lrig.is_lrig_deck_card and assist.is_lrig_deck_card and piece.is_lrig_deck_card
    assert not signi.is_lrig_deck_card and not spell.is_lrig_deck_card
    assert piece.is_piece and not lrig.is_piece
    assert servant.is_colorless and servant.colors == ("colorless",) and servant.real_colors == ()
    assert not signi.is_colorless and signi.real_colors == ("green",)


def test_crafts_belong_to_neither_deck(extended: Catalogue) -> None:
    crafts = [c for c in extended if c.type.value.endswith("_craft")]
    assert crafts
    assert not any(c.is_main_deck_card or c.is_lrig_deck_card for c in crafts)


def test_reprints_share_a_name_key(catalogue: Catalogue) -> None:
    # two sources spell the Servant's name with a half-width and a full-width sharp sign
    a, b = catalogue.get("WXDi-D01-020"), catalogue.get("WXDi-D03-020")
    assert a.name_ja != b.name_ja
    assert a.name_key == b.name_key


# ------------------------------------------------------------------------------------ data invariants


def test_starter_facts_use_the_project_vocabulary(catalogue: Catalogue) -> None:
    lrig_types = {t for c in catalogue for t in c.lrig_types}
    for card in catalogue:
        assert set(card.colors) <= {*COLORS, "colorless"}, card.id
        assert set(card.timings) <= set(TIMINGS), card.id
        assert set(card.keywords) <= set(KEYWORDS), card.id
        assert all(t.isascii() and t == t.upper() for t in card.lrig_types), card.id
        # limiting conditions and LRIG types are one vocabulary: every limiting names a starter LRIG type
        assert set(card.limiting) <= lrig_types, card.id
        assert all(c.isascii() for c in card.classes), card.id
        for item in (*card.cost, *card.grow_cost):
            assert item.n > 0
        if card.is_lrig:
            assert card.lrig_types and card.level is not None and card.limit is not None, card.id
        if card.type is CardType.SIGNI:
            assert card.level is not None and card.power is not None and card.classes, card.id


def test_extended_vocabulary_is_shared_by_lrig_types_and_limiting(extended: Catalogue) -> None:
    lrig_types = {t for c in extended for t in c.lrig_types}
    limiting = {t for c in extended for t in c.limiting}
    assert limiting <= lrig_types
    assert {"TAMA", "PIRULUK", "MADOKA", "HANAYO", "MIDORIKO", "DONA", "AT", "TAWIL"} <= lrig_types


def test_guard_only_on_servants_in_the_starters(catalogue: Catalogue) -> None:
    # 000 glossary "Guard": discard a card with the Guard ability to stop an LRIG attack
    guards = {c.id for c in catalogue if c.guard}
    assert guards == {c.id for c in catalogue if c.name_key.startswith("サーバント")}
    assert len(guards) == 10


# ------------------------------------------------------------------------- facts against the reference


def _raw_costs(items: list[dict[str, Any]] | None) -> dict[str, int]:
    out: dict[str, int] = {}
    for item in items or ():
        if item.get("n"):
            out[item["color"]] = out.get(item["color"], 0) + item["n"]
    return out


def _card_costs(items: tuple[CostItem, ...]) -> dict[str, int]:
    out: dict[str, int] = {}
    for item in items:
        out[item.color] = out.get(item.color, 0) + item.n
    return out


def _starter_pairs(catalogue: Catalogue) -> Iterator[tuple[dict[str, Any], Card]]:
    records = starter_records()
    assert len(records) == 232
    for rec in records:
        yield rec, catalogue.get(rec["id"])


TEAM_MARKED = {"WXDi-D07-017": "Deus Ex Machina"}  # no team in the record; its Japanese text marks one


def test_every_preset_card_matches_the_reference_facts(catalogue: Catalogue) -> None:
    for rec, card in _starter_pairs(catalogue):
        assert card.name_ja == rec["name_ja"], rec["id"]
        assert card.name == (rec["name_en"] or rec["name_ja"]), rec["id"]
        assert card.type.value == TYPE_NAMES[rec["type"]], rec["id"]
        assert set(card.colors) == set(rec["colors"]), rec["id"]
        assert (card.level, card.limit, card.power) == (rec["level"], rec["limit"], rec["power"]), rec["id"]
        assert _card_costs(card.cost) == _raw_costs(rec["cost"]), rec["id"]
        assert _card_costs(card.grow_cost) == _raw_costs(rec["grow_cost"]), rec["id"]
        # a SIGNI whose record has no team takes the one its text marks (tools/import_cards.team_of)
        assert card.team == (rec["team"] or rec["team_ja"] or TEAM_MARKED.get(rec["id"])), rec["id"]
        assert card.life_burst == rec["life_burst"], rec["id"]
        assert card.multi_ener == rec["multi_ener"], rec["id"]
        # the starter flags agree with the printed text; the importer checks them against it
        assert card.guard == rec["guard"], rec["id"]
        assert set(card.timings) == set(rec["timings"]), rec["id"]
        if rec.get("lrig_type_en_openbatoru") and card.is_lrig:
            assert list(card.lrig_types) == rec["lrig_type_en_openbatoru"], rec["id"]
        if rec.get("classes_en_openbatoru"):
            expected = [w.replace("_", " ").title() for w in rec["classes_en_openbatoru"]]
            assert list(card.classes) == expected, rec["id"]


def test_no_card_text_in_the_starter_catalogue(catalogue: Catalogue) -> None:
    records = starter_records()
    blob = json.dumps([c.to_dict() for c in catalogue], ensure_ascii=False)
    for rec in records:
        for key in ("text_ja", "text_en", "burst_text_ja"):
            text = rec.get(key)
            if text and len(text) >= 20:
                assert text not in blob and text[:20] not in blob, (rec["id"], key)


def test_english_print_numbers_are_aliases(catalogue: Catalogue) -> None:
    # cards/README: the English prints renumbered WXDi-D02; the API's examples use those numbers.
    card = catalogue.get("WXDi-D02-001")
    assert card.id == "WXDi-D02-01LAT"
    assert "WXDi-D02-001" in catalogue
    assert catalogue.canonical("WXDi-D02-001") == "WXDi-D02-01LAT"


def test_cards_without_abilities_are_few_and_plain(catalogue: Catalogue) -> None:
    plain = [c for c in catalogue if not c.has_abilities]
    assert plain, "some starter cards (level 0 LRIGs at least) have no ability"
    assert all(not c.life_burst for c in plain)


def test_a_reprint_number_answers_with_its_first_printing(catalogue: Catalogue) -> None:
    base = catalogue.get("WXDi-D01-012").to_dict()
    group = ["TEST-001", "TEST-P01-009", "TEST-P02-003"]
    first = Card.from_dict({**base, "id": "TEST-001", "reprints": group})
    kept = Card.from_dict({**base, "id": "TEST-P02-003", "reprints": group})  # a reprint with its own entry
    both = Catalogue([first, kept])
    assert both.get("TEST-P01-009") is first and both.canonical("TEST-P01-009") == "TEST-001"
    assert both.get("TEST-P02-003") is kept and "TEST-P01-009" in both
    assert sorted(both.ids()) == sorted(group)
    assert [c.id for c in both.search(q="p01-009")] == ["TEST-001", "TEST-P02-003"]
    # without the first printing loaded, the group's numbers answer with its first loaded entry
    alone = Catalogue([kept])
    assert alone.get("TEST-001") is kept and alone.get("TEST-P01-009") is kept
    assert first.print_ids == tuple(group) and catalogue.get("WXDi-D01-013").print_ids == ("WXDi-D01-013",)


def test_a_signi_whose_record_lacks_its_team_takes_the_team_its_text_marks(extended: Catalogue) -> None:
    """WXDi-P01-037, -038 and -044 carry team abilities but no team in the reference record; the import
    reads the team their Japanese text marks and names it in English as the other records do."""
    assert [extended.get(i).team for i in ("WXDi-P01-037", "WXDi-P01-038", "WXDi-P01-044")] == [
        "No Limit",
        "Universe Beginning",
        "DIAGRAM",
    ]
