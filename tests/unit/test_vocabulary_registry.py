"""The step vocabulary as one registry: every word in one entry, aliases that stand for general words,
encodings checked as they load, and a new card encoded as data only (issue 13)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from domain.abilities import describe, is_enforced
from domain.abilities.__main__ import main
from domain.abilities.catalogue import EncodingError, _data, abilities_of, use_encodings
from domain.abilities.vocabulary import ALIASES, WORDS, expand, step_problems, step_text
from domain.engine import decide
from domain.evolve import fold
from domain.legal import legal_actions
from domain.setup import create_position
from tests.unit.scenario_runner import build
from tests.unit.spare_card import spare_signi

# An [Enter] ability of our own making: pay one colorless ener to draw a card, written with the general word
# ``move``, given to a real card whose own abilities are not encoded yet
NEW_CARD = spare_signi()  # a real level 1 SIGNI whose abilities are not encoded yet
NEW_ENCODING = {
    NEW_CARD: [
        {
            "kind": "enter",
            "cost": {"ener": [{"color": "colorless", "n": 1}]},
            "effect": [{"op": "move", "from": "deck", "to": "hand", "n": 1}],
        }
    ]
}


@pytest.fixture
def extra(tmp_path: Path) -> Iterator[Path]:
    yield tmp_path
    use_encodings()  # back to the packaged encodings only


def _steps(value: Any) -> Iterator[dict[str, Any]]:
    if isinstance(value, dict):
        if value.get("kind") == "constant":
            return  # a constant ability's steps are the constants' own (domain.abilities.constants)
        if "op" in value:
            yield value
        for k, v in value.items():
            if k not in ("condition", "use_condition", "compare"):  # a comparison's ``op`` is no step
                yield from _steps(v)
    elif isinstance(value, list):
        for v in value:
            yield from _steps(v)


def test_fewer_than_thirty_core_words_serve_every_encoded_card() -> None:
    from domain.abilities import conditions, constant_words, trigger_words

    # every registry's core words: steps, conditions, triggers (``when``) and constant words
    core = len(WORDS) + len(conditions.WORDS) + len(trigger_words.WORDS) + len(constant_words.CONSTANT_WORDS)
    assert core < 30, core
    assert set(trigger_words.WORDS) == {"when"} and set(constant_words.CONSTANT_WORDS) == {"grant", "rule"}
    used = {st["op"] for st in _steps(list(_data().values()))}
    assert used - set(WORDS) - set(ALIASES) == set()
    for name in ("move", "modify", "coins", "restrict"):
        assert name in WORDS
    assert ALIASES["bounce"].of == "move" and ALIASES["down"].of == "modify"


def test_an_aliased_step_reads_and_checks_as_its_general_form() -> None:
    checked = 0
    for abilities in _data().values():
        for ab in abilities:
            for st in _steps(ab.get("effect", []) if ab["kind"] != "constant" else []):
                if st["op"] in ALIASES:
                    general = expand(st)
                    assert general["op"] == ALIASES[st["op"]].of
                    assert step_problems(general) == [], (st, general)
                    assert step_text(general) == step_text(st), st
                    checked += 1
    assert checked > 250


def test_parameters_are_typed_and_routes_checked() -> None:
    assert step_problems({"op": "move", "from": "deck", "to": "hand", "n": 2}) == []
    assert step_problems({"op": "move", "from": "deck", "to": "hand", "n": "two"})
    assert step_problems({"op": "move", "from": "deck", "to": "moon"}), "no such zone"
    assert step_problems({"op": "move", "from": "ener", "to": "life_cloth"}), "no such route"
    assert step_problems({"op": "move", "from": "deck"}) == ["step move: to is required"]
    assert step_problems({"op": "modify", "target": {"self": True}, "change": "power", "amount": 1000}) == []
    assert step_text({"op": "move", "target": {"self": True}, "to": "hand"}) == step_text(
        {"op": "bounce", "target": {"self": True}}
    )
    assert step_text(
        {"op": "move", "target": {"self": True}, "to": "deck", "position": "bottom"}
    ) == step_text({"op": "to_deck", "bottom": True, "target": {"self": True}})


def test_a_bad_encoding_is_refused_as_it_loads_naming_card_ability_and_field(extra: Path) -> None:
    bad = {NEW_CARD: [{"kind": "enter", "effect": [{"op": "draw"}, {"op": "mill", "n": "lots"}]}]}
    (extra / "bad.json").write_text(json.dumps(bad))
    use_encodings(extra)
    with pytest.raises(EncodingError) as err:
        abilities_of(NEW_CARD)
    assert f"{NEW_CARD} ability 1, step 2: step mill: n must be a number" in str(err.value)


def test_a_card_encoded_twice_is_refused(extra: Path) -> None:
    (extra / "again.json").write_text(json.dumps({"WXDi-D01-011": []}))
    use_encodings(extra)
    with pytest.raises(EncodingError, match="encoded twice"):
        abilities_of("WXDi-D01-011")


def test_a_new_card_with_an_existing_word_is_data_only(extra: Path) -> None:
    assert not is_enforced(NEW_CARD) and abilities_of(NEW_CARD) == []
    (extra / "new.json").write_text(json.dumps(NEW_ENCODING))
    use_encodings(extra)
    assert is_enforced(NEW_CARD)
    assert describe(NEW_CARD) == ["When it enters the field paying 1 colorless ener (optional): you draw 1."]
    # 000 "[Enter]": played from the hand, its ability triggers; its player may pay and draws a card
    position = {
        "turn": 3,
        "turn_player": "p1",
        "phase": "main",
        "players": {"p1": {"hand": [NEW_CARD], "ener": ["WXDi-D03-012"] * 2}},
    }
    s = fold(create_position(build(position), seed=3))
    card = next(i for i, c in s.cards.items() if c == NEW_CARD)
    hand = len(s.players["p1"].zones["hand"])
    s = fold(decide(s, {"type": "play_signi", "player": "p1", "card": card, "zone": "center"}), s)
    for _ in range(6):  # pay the optional cost, and answer what the rules ask on the way
        if s.pending is None or s.pending.get("kind") == "main":
            break
        acts = list(legal_actions(s))
        pay = [a for a in acts if a.get("option") in ("pay", "yes")]
        s = fold(decide(s, (pay or acts)[0]), s)
    assert len(s.players["p1"].zones["hand"]) == hand, "the card left the hand, one was drawn"
    center = s.players["p1"].signi["center"]
    assert center is not None and center.iid == card
    assert len(s.players["p1"].zones["ener"]) == 1, "the colorless ener was paid"


def test_the_vocabulary_prints_with_card_counts(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--words"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"{len(WORDS)} core words, {len(ALIASES)} aliases")
    assert "  alias bounce" in out and "= move {to: hand, into: owner}" in out


def test_a_cost_of_downing_the_card_is_refused_where_the_engine_would_not_pay_it(extra: Path) -> None:
    """An [Action] ability downs its own card as it is used (domain.abilities.use), an [Enter] or [Auto]
    ability as its optional cost is paid (``may_pay``); a Life Burst, or a "you may pay" step asking for it,
    would be counted as paid with the card left up, so it cannot load."""
    burst = {"kind": "life_burst", "cost": {"down": True}, "effect": [{"op": "draw", "n": 1}]}
    may_pay = {
        "kind": "enter",
        "effect": [{"op": "may_pay", "cost": {"down": True}, "then": [{"op": "draw"}]}],
    }
    for k, ability in enumerate((burst, may_pay)):
        path = extra / f"bad{k}.json"
        path.write_text(json.dumps({NEW_CARD: [ability]}), encoding="utf-8")
        use_encodings(path)  # read at the next look-up
        with pytest.raises(EncodingError, match="paid only by an action, enter or auto ability"):
            abilities_of(NEW_CARD)
    for kind in ("action", "enter"):
        ability = {"kind": kind, "cost": {"down": True}, "effect": [{"op": "draw", "n": 1}]}
        path = extra / f"good_{kind}.json"
        path.write_text(json.dumps({NEW_CARD: [ability]}), encoding="utf-8")
        use_encodings(path)
        assert abilities_of(NEW_CARD)[0]["kind"] == kind
