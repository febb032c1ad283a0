# ruff: noqa: RUF001  (synthetic records use the full-width brackets of the Japanese card vocabulary)
"""The card importer (tools/import_cards.py): its rules on small synthetic records, and, when the shared
reference data is present, every real record, the committed data files and the absence of card text."""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from domain.cards import Card
from tests.shared_cards import ABSENT, SHARED_CARDS
from tools import import_cards as imp

DATA_DIR = Path(__file__).resolve().parents[2] / "domain" / "data"
TEXT_FIELDS = ("text_ja", "text_en", "text_en_raw", "burst_text_ja")
FORBIDDEN_KEYS = ("text_ja", "text_en", "text_en_raw", "burst_text_ja", "image_url", "sources")


@cache
def _shared() -> tuple[list[dict], list[dict], dict[str, dict]]:
    return imp.read_shared(SHARED_CARDS)


@pytest.fixture(scope="module")
def shared() -> tuple[list[dict], list[dict], dict[str, dict]]:
    if not (SHARED_CARDS / "cards.json").is_file():
        pytest.skip(ABSENT)
    return _shared()


def record(**over: Any) -> dict[str, Any]:
    """A synthetic reference record (facts invented for the test)."""
    base: dict[str, Any] = {
        "id": "TEST-001",
        "type": "SIGNI",
        "name_ja": "テスト",
        "name_en": "Test",
        "colors": ["red"],
        "level": 2,
        "limit": None,
        "power": 8000,
        "grow_cost": None,
        "cost": None,
        "lrig_type": [],
        "limiting": [],
        "classes": [],
        "team": None,
        "team_ja": None,
        "guard": False,
        "life_burst": False,
        "multi_ener": False,
        "timings": [],
        "text_ja": None,
        "burst_text_ja": None,
        "text_en": None,
        "reprint_of": None,
    }
    base.update(over)
    return base


VOCAB = imp.Vocabulary(
    lrig_types={"タマ": "TAMA", "イオナ": "IONA", "花代": "HANAYO", "ユヅキ": "YUZUKI"},
    classes={"奏羅:宇宙": ("Performer", "Space"), "精像:悪魔": ("Devil",)},
    small_classes={"宇宙": "Space", "悪魔": "Devil", "天使": "Angel"},
)


def convert(**over: Any) -> dict[str, Any]:
    card = imp.convert_record(record(**over), VOCAB)
    assert card is not None
    assert set(card) == set(imp.CARD_KEYS)
    return card


# ------------------------------------------------------------------------ the rules, on synthetic records


def test_tokens_are_cards_of_type_token() -> None:
    assert convert(type="Token", id="TEST-TK1")["type"] == "token"
    assert convert(type="-", id="TEST-TK01A")["type"] == "token"  # untyped, numbered as a token
    with pytest.raises(ValueError, match="unknown card type"):
        imp.convert_record(record(type="-"), VOCAB)
    with pytest.raises(ValueError, match="unknown card type"):
        imp.convert_record(record(type="Sticker"), VOCAB)


def test_reprint_groups_list_every_number_first_printing_first() -> None:
    records = [
        record(id="B-001"),
        record(id="A-009", reprint_of="B-001"),
        record(id="C-001", reprint_of="B-001"),
        record(id="D-001"),
    ]
    groups = imp.reprint_groups(records)
    assert groups == {n: ["B-001", "A-009", "C-001"] for n in ("B-001", "A-009", "C-001")}
    assert convert(id="A-009", reprint_of="B-001")["reprints"] == []  # without the groups
    card = imp.convert_record(record(id="A-009", reprint_of="B-001"), VOCAB, None, groups)
    assert card["reprints"] == ["B-001", "A-009", "C-001"]
    assert [r["id"] for r in imp.extended_records(records)] == ["B-001", "D-001"]
    with pytest.raises(ValueError, match="not a first printing"):
        imp.reprint_groups([*records, record(id="E-001", reprint_of="A-009")])
    with pytest.raises(ValueError, match="not a first printing"):
        imp.reprint_groups([record(id="E-001", reprint_of="NOPE")])


def test_hand_reprints_link_the_starter_reprints_the_file_leaves_unlinked() -> None:
    """WD02/WD03 reprint WD01's Servants and Jetting Knowledge; their records hold no text: linked by hand."""
    records = [record(id="WD01-016"), record(id="WD02-016"), record(id="X-001", reprint_of="Y-001")]
    linked = imp.link_hand_reprints(records)
    assert [r.get("reprint_of") for r in linked] == [None, "WD01-016", "Y-001"]
    assert records[1].get("reprint_of") is None  # the records given are not changed
    assert imp.reprint_groups(linked[:2])["WD02-016"] == ["WD01-016", "WD02-016"]


def test_types_names_and_numbers() -> None:
    card = convert(type="Assist LRIG", name_en=None, level="1", limit="infinite", power=None)
    assert card["type"] == "assist_lrig"
    assert (card["name"], card["name_ja"]) == ("テスト", "テスト")
    assert (card["level"], card["limit"], card["power"]) == (1, None, None)
    assert convert(type="SIGNI Craft")["type"] == "signi_craft"
    assert convert(type="PIECE Relay")["type"] == "piece_relay"


def test_costs_colours_and_timings() -> None:
    card = convert(
        colors=["green", "Red"],
        cost=[{"color": "Red/Green", "n": 1}, {"color": "colorless", "n": 0}, {"color": "coin", "n": 2}],
        grow_cost=[{"other": "or a Key"}, {"color": "green", "n": 0}],
        timings="メインフェイズ\nアタックフェイズ",
    )
    assert card["colors"] == ["red", "green"]
    assert card["cost"] == [{"color": "red/green", "n": 1}, {"color": "coin", "n": 2}]
    assert card["grow_cost"] == []
    assert card["timings"] == ["main", "attack"]
    assert convert(timings=["spellCutIn", "mainPhase", "1"])["timings"] == ["main", "spell_cut_in"]


def test_lrig_types_and_limiting_share_one_vocabulary() -> None:
    lrig = convert(type="LRIG", lrig_type=["タマ／イオナ"], level=0, limit=0)
    assert lrig["lrig_types"] == ["TAMA", "IONA"]
    signi = convert(limiting=["花代/ユヅキ"], lrig_type=["タマ"])
    assert signi["limiting"] == ["HANAYO", "YUZUKI"]
    assert signi["lrig_types"] == []  # only LRIGs have LRIG types
    assert convert(limiting=["ＬｏＶ"])["limiting"] == ["LOV"]  # the hand table, after NFKC
    assert convert(limiting=["だれか"])["limiting"] == ["だれか"]  # unmapped: kept


def test_vocabulary_is_learned_from_records_with_both() -> None:
    vocab = imp.build_vocabulary(
        [
            record(type="LRIG", lrig_type=["タマ"], lrig_type_en_openbatoru=["TAMA"]),
            record(type="LRIG", lrig_type=["タマ"], lrig_type_en_openbatoru=["TAMA"]),
            record(type="LRIG", lrig_type=["タマ"], lrig_type_en_openbatoru=["TAMAX"]),
            record(limiting=["ドーナ"], lrig_type_en_openbatoru=["DONA"]),  # a SIGNI: its limiting condition
            record(classes=["奏羅：宇宙"], classes_en_openbatoru=["PERFORMER", "SPACE"]),
            record(classes=["精像：悪魔"], classes_en_openbatoru=["DEVIL"]),
        ]
    )
    assert vocab.lrig_types == {"タマ": "TAMA", "ドーナ": "DONA"}
    assert vocab.small_classes == {"宇宙": "Space", "悪魔": "Devil"}
    assert imp.map_classes(record(classes=["精羅：宇宙"]), vocab) == ["Space"]
    assert imp.map_classes(record(classes=["奏像：悪魔"]), vocab) == ["Performer", "Devil"]


def test_classes() -> None:
    assert convert(classes_en_openbatoru=["PERFORMER", "ELECTRIC_MACHINE"])["classes"] == [
        "Performer",
        "Electric Machine",
    ]
    assert convert(classes=["奏羅：宇宙"])["classes"] == ["Performer", "Space"]
    assert convert(classes=["精像：天使/悪魔"])["classes"] == ["Angel", "Devil"]
    assert convert(classes=["精像", "悪魔"])["classes"] == ["Devil"]
    # one unknown part: the whole card keeps its Japanese classes
    assert convert(classes=["精像：悪魔/謎"])["classes"] == ["精像：悪魔/謎"]


def test_guard_and_multi_ener_follow_the_printed_text() -> None:
    # 000 glossary, "Guard": a card WITH the Guard ability; "cannot Guard" is not one
    assert convert(guard=False, text_ja="【ガード】（説明）【常】：【マルチエナ】（説明）")["guard"] is True
    assert convert(guard=True, text_ja="【常】：対戦相手は【ガード】ができない。")["guard"] is False
    assert convert(guard=True, text_ja="《ガードアイコン》を持つシグニ１枚を手札に加える。")["guard"] is False
    assert convert(guard=True, text_ja=None, text_en=None)["guard"] is True  # no text: the flag stands
    assert convert(guard=True, text_en="[Life Burst]: Draw a card.")["guard"] is True  # English: icon era
    assert convert(guard=False, text_en="[Guard]\n[Constant]: [Multi Ener]")["guard"] is True
    # 000 glossary, "Multi Ener": the card's own Constant ability; granting it to other cards is not one
    assert convert(multi_ener=False, text_ja="【常】：【マルチエナ】")["multi_ener"] is True
    granting = "【常】：あなたのエナゾーンにあるカードは【マルチエナ】を得る。"
    assert convert(multi_ener=True, text_ja=granting)["multi_ener"] is False
    assert convert(multi_ener=True, text_ja="「【常】：【マルチエナ】」を得る。")["multi_ener"] is False
    assert convert(life_burst=False, burst_text_ja="(placeholder)")["life_burst"] is True


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("【常】：【ランサー】", ["lancer"]),
        ("【常】：【ランサー】（説明【ランサー】）【自】：何か", ["lancer"]),
        ("【常】：【アサシン】【常】：【ダブルクラッシュ】", ["double_crush", "assassin"]),
        ("置く【常】：【アサシン】【ダブルクラッシュ】", ["double_crush", "assassin"]),
        ("【常】：【シャドウ】（説明）【常】：このシグニはアタックできない。", ["shadow"]),
        # not counted: qualified, conditional, granted, until end of turn, quoted
        ("【常】：【シャドウ（スペル）】", []),
        ("【常】：条件があるかぎり、このシグニは【ランサー】を得る。", []),
        ("【常】《相手ターン》：【シャドウ】", []),
        ("【チーム常】：【ランサー】", []),
        ("【起】《赤》：ターン終了時まで、このシグニは【ダブルクラッシュ】を得る。", []),
        ("【常】：【ランサー】を持つあなたのシグニは【Ｓランサー】を得る。", []),
        ("対象のルリグは『【常】：【ダブルクラッシュ】』を得る。", []),
    ],
)
def test_keywords_are_printed_unconditional_abilities(text: str, expected: list[str]) -> None:
    assert convert(text_ja=text)["keywords"] == expected


def test_keywords_from_english_only_text_and_only_for_field_cards() -> None:
    assert convert(text_en="[Constant]: [Lancer]\n[Auto]: Something.")["keywords"] == ["lancer"]
    assert convert(text_en='Target SIGNI gains "[Constant]: [Lancer]".')["keywords"] == []
    assert convert(type="PIECE", text_ja="【常】：【ランサー】")["keywords"] == []
    assert convert(type="LRIG", text_ja="【常】：【ダブルクラッシュ】")["keywords"] == ["double_crush"]


def test_converted_cards_load_into_the_card_model() -> None:
    card = convert(text_ja="【常】：【アサシン】", cost=[{"color": "red", "n": 2}])
    assert Card.from_dict(card).to_dict() == card


def test_decks_are_converted_and_checked() -> None:
    cards = {f"X-{n:03}": convert(id=f"X-{n:03}") for n in range(20)}
    cards["L-0"] = convert(id="L-0", type="LRIG", level=0, lrig_type=["タマ"], team="Team A")
    entry = {"zone": "main_deck", "count": 4}
    raw = {
        "T-01": {
            "totals": {"main_deck": 40, "lrig_deck": 11},
            "cards": [{**entry, "id": f"X-{n:03}"} for n in range(10)]
            + [{"zone": "lrig_deck", "count": 11, "id": "L-0"}],
        }
    }
    assert imp.convert_decks(raw, cards) == {
        "T-01": {
            "name": "Team A",
            "lrig_deck": ["L-0"] * 11,
            "main_deck": sorted(f"X-{n:03}" for n in range(10) for _ in range(4)),
        }
    }
    raw["T-01"]["cards"][0]["count"] = 3
    with pytest.raises(ValueError, match="main_deck has 39 cards"):
        imp.convert_decks(raw, cards)
    assert imp.deck_id_of("WXDi-D09-H (DOUBLE HEROINES, Hirana side)") == "WXDi-D09-H"


def test_gzip_output_is_deterministic() -> None:
    assert imp.gzip_bytes(b"abc") == imp.gzip_bytes(b"abc")
    assert gzip.decompress(imp.gzip_bytes(b"abc")) == b"abc"


# ---------------------------------------------------------------------- the real reference data (shared)


def test_the_importer_copes_with_every_record(shared: tuple[list[dict], list[dict], dict]) -> None:
    all_records, starter, _ = shared
    assert len(all_records) == 9288
    vocab = imp.build_vocabulary(all_records)
    groups = imp.reprint_groups(all_records)
    for rec in all_records:
        card = imp.convert_record(rec, vocab, None, groups)
        assert Card.from_dict(card).to_dict() == card, rec["id"]
        assert (card["type"] == "token") == (rec["type"] in ("Token", "-")), rec["id"]
    assert sum(len(g) - 1 for first, g in groups.items() if g[0] == first) == sum(
        bool(r["reprint_of"]) for r in all_records
    )
    assert len(imp.convert_cards(starter, vocab)) == 232


def test_committed_data_files_are_what_the_importer_writes(shared: tuple) -> None:
    outputs = imp.build_outputs(SHARED_CARDS)
    assert set(outputs) == {"cards.json", "cards_extended.json.gz", "decks.json"}
    for name, data in outputs.items():
        committed = (DATA_DIR / name).read_bytes()
        assert imp.same_content(name, committed, data), f"{name} is stale: run python -m tools.import_cards"


def test_check_mode_reports_up_to_date(shared: tuple, capsys: pytest.CaptureFixture[str]) -> None:
    assert imp.main(["--check", "--shared", str(SHARED_CARDS)]) == 0
    assert "up to date" in capsys.readouterr().out


def test_writing_to_another_folder(shared: tuple, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert imp.main(["--out", str(tmp_path), "--shared", str(SHARED_CARDS)]) == 0
    assert (tmp_path / "cards.json").read_bytes() == (DATA_DIR / "cards.json").read_bytes()
    assert imp.main(["--check", "--out", str(tmp_path), "--shared", str(SHARED_CARDS)]) == 0
    (tmp_path / "decks.json").write_text("{}\n", encoding="utf-8")
    assert imp.main(["--check", "--out", str(tmp_path), "--shared", str(SHARED_CARDS)]) == 1
    assert "stale: decks.json" in capsys.readouterr().out


def test_extended_file_holds_every_distinct_card(shared: tuple) -> None:
    all_records, _, _ = shared
    extended = json.loads(gzip.decompress((DATA_DIR / "cards_extended.json.gz").read_bytes()))
    expected = {r["id"] for r in imp.link_hand_reprints(all_records) if not r["reprint_of"]}
    assert {c["id"] for c in extended} == expected
    assert (DATA_DIR / "cards_extended.json.gz").stat().st_size < 1_500_000


def _data_files() -> Iterator[tuple[str, str]]:
    for name in ("cards.json", "decks.json"):
        yield name, (DATA_DIR / name).read_text(encoding="utf-8")
    yield (
        "cards_extended.json.gz",
        gzip.decompress((DATA_DIR / "cards_extended.json.gz").read_bytes()).decode(),
    )


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield k
            yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)


def test_no_card_text_in_the_data_files(shared: tuple) -> None:
    all_records, _, _ = shared
    strings: set[str] = set()
    for name, text in _data_files():
        data = json.loads(text)
        for key in FORBIDDEN_KEYS:
            assert f'"{key}"' not in text, (name, key)
        assert "http" not in text and "takaratomy" not in text, name
        strings.update(_strings(data))
    # names are the longest strings, and each is a name of the reference data
    names = {n.strip() for r in all_records for n in (r["name_ja"], r["name_en"]) if isinstance(n, str)}
    card_names = set()
    for name, text in _data_files():
        if name != "decks.json":
            card_names.update(s for c in json.loads(text) for s in (c["name"], c["name_ja"]))
    assert card_names <= names
    # every other string (an id, a class, a team, an LRIG type, a deck name) is a short fact ...
    others = strings - card_names
    assert max(len(s) for s in others) < 40
    # ... that shares no passage of WINDOW characters with any card's text. Class, team and type names do
    # appear inside texts, but are shorter than WINDOW. Every window of those strings is indexed, then the
    # windows of every text are looked up every STEP characters: any shared passage of WINDOW + STEP - 1
    # characters or more is found.
    window, step = 24, 4
    windows = {s[i : i + window] for s in others for i in range(len(s) - window + 1)}
    assert windows  # the deck names are long enough to be checked
    for rec in all_records:
        for field in TEXT_FIELDS:
            text = rec.get(field)
            if isinstance(text, str):
                for i in range(0, len(text) - window + 1, step):
                    assert text[i : i + window] not in windows, (rec["id"], field, text[i : i + window])
