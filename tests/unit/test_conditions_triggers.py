"""Conditions, triggers and constant words as registries (issue 13): the general ``compare``, the one trigger
form, the "for each X, +N" bonus, and the older names as aliases that mean exactly the same.

A new card written with the general forms is a data-only change: it is encoded in a temporary file, checked as
it loads, described, and played (rule 000's "[Auto]" abilities: it triggers when the event happens and
resolves; "[Constant]": it applies while the card is on the field).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from domain import facts
from domain.abilities import conditions, constant_words, trigger_words
from domain.abilities.__main__ import main
from domain.abilities.catalogue import EncodingError, _data, abilities_of, describe, use_encodings
from domain.abilities.vocabulary import ALIASES, WORDS
from domain.engine import decide
from domain.errors import IllegalAction
from domain.evolve import fold
from domain.legal import legal_actions
from domain.setup import create_position
from domain.state import GameState
from tests.unit.scenario_runner import build
from tests.unit.spare_card import spare_signi

NEW_CARD = spare_signi()  # a real level 1 SIGNI whose abilities are not encoded yet
TRASHED = "WXDi-D03-012"
# "[Auto]: When a SIGNI enters your field (this one too), if there are two or more cards in your trash, draw a
# card." and "[Constant]: this SIGNI gets +1000 power for each card in your trash": a card of our own making,
# written only with the general forms.
NEW_ENCODING = {
    NEW_CARD: [
        {
            "kind": "auto",
            "trigger": {"on": "enters", "whose": "you"},
            "condition": {"compare": {"count": {"side": "you", "zone": "trash"}, "op": ">=", "value": 2}},
            "effect": [{"op": "move", "from": "deck", "to": "hand", "n": 1}],
        },
        {
            "kind": "constant",
            "effect": [
                {"op": "power", "target": {"self": True}, "amount": 1000, "per": {"count": {"zone": "trash"}}}
            ],
        },
    ]
}


@pytest.fixture
def extra(tmp_path: Path) -> Iterator[Path]:
    yield tmp_path
    use_encodings()


def _play_new_card(trash: int) -> tuple[GameState, int]:
    position = {
        "turn": 3,
        "turn_player": "p1",
        "phase": "main",
        "players": {"p1": {"hand": [NEW_CARD], "trash": [TRASHED] * trash}},
    }
    s = fold(create_position(build(position), seed=3))
    card = next(i for i, c in s.cards.items() if c == NEW_CARD)
    hand = len(s.players["p1"].zones["hand"])
    s = fold(decide(s, {"type": "play_signi", "player": "p1", "card": card, "zone": "center"}), s)
    for _ in range(6):  # answer what the rules ask on the way
        if s.pending is None or s.pending.get("kind") == "main":
            break
        s = fold(decide(s, next(iter(legal_actions(s)))), s)
    return s, hand


def test_a_new_card_with_compare_and_the_general_trigger_form_loads_and_plays(extra: Path) -> None:
    (extra / "new.json").write_text(json.dumps(NEW_ENCODING))
    use_encodings(extra)
    assert abilities_of(NEW_CARD) == NEW_ENCODING[NEW_CARD]
    assert describe(NEW_CARD) == [
        "When a SIGNI enters your field if the number of cards in your trash is at least 2: you draw 1.",
        "Always: this SIGNI gets +1000 power for each of the cards in your trash.",
    ]
    printed = facts.catalogue().get(NEW_CARD).power or 0

    s, hand = _play_new_card(trash=3)
    center = s.players["p1"].signi["center"]
    assert center is not None and s.cards[center.iid] == NEW_CARD
    assert len(s.players["p1"].zones["hand"]) == hand, "it left the hand and its ability drew a card"
    assert facts.power(s, center) == printed + 3000, "+1000 for each of the three cards in the trash"

    s, hand = _play_new_card(trash=1)
    center = s.players["p1"].signi["center"]
    assert center is not None
    assert len(s.players["p1"].zones["hand"]) == hand - 1, "one card in the trash: the condition fails"
    assert facts.power(s, center) == printed + 1000


def test_a_general_form_outside_the_vocabulary_is_refused_as_it_loads(extra: Path) -> None:
    bad = json.loads(json.dumps(NEW_ENCODING))
    bad[NEW_CARD][0]["condition"]["compare"]["op"] = "about"
    bad[NEW_CARD][0]["trigger"] = {"on": "attacks", "whose": "you"}  # only a SIGNI's attack is watched for
    (extra / "bad.json").write_text(json.dumps(bad))
    use_encodings(extra)
    with pytest.raises(EncodingError) as err:
        abilities_of(NEW_CARD)
    assert f"{NEW_CARD} ability 1: the judge watches attacks only as" in str(err.value)
    assert "compare: op must be one of" in str(err.value)


def test_every_older_condition_name_is_a_compare_with_the_same_verdicts(extra: Path) -> None:
    assert conditions.ALIASES["lrig_level"].expand(3) == [{"level": {"whose": "you"}, "op": ">=", "value": 3}]
    assert conditions.condition_problems({"compare": {"power": {}, "op": ">", "value": 12000}}) == []
    assert conditions.condition_problems({"compare": {"weight": {}, "op": ">", "value": 1}})
    assert conditions.condition_problems({"hand_lead": "four"})
    used = conditions.count_uses(_data())
    for name in conditions.ALIASES:
        assert conditions.WORDS[conditions.ALIASES[name].of].name == "compare"
    assert {"count", "team_lrigs", "extra_paid"} <= set(used)
    # the measures behind the old names, on a board: two cards in the trash
    (extra / "new.json").write_text(json.dumps(NEW_ENCODING))
    use_encodings(extra)
    s, _hand = _play_new_card(trash=2)
    source = next(i for i, c in s.cards.items() if c == NEW_CARD)
    for old, general in (
        ({"count": {"zone": "trash", "at_least": 2}}, {"count": {"zone": "trash"}, "op": ">=", "value": 2}),
        ({"count": {"zone": "trash", "at_least": 3}}, {"count": {"zone": "trash"}, "op": "==", "value": 3}),
        ({"count": {"zone": "trash", "at_most": 1}}, {"count": {"zone": "trash"}, "op": "<", "value": 2}),
        ({"signi": {"at_least": 1}}, {"count": {"zone": "signi"}, "op": ">", "value": 0}),
        ({"lrig_level": 0}, {"level": {}, "op": ">=", "value": 0}),
    ):
        verdict = conditions.holds(s, "p1", source, old)
        assert verdict == conditions.holds(s, "p1", source, {"compare": general}), old


def test_every_older_trigger_name_is_the_general_form_it_stands_for() -> None:
    for name, fixed in trigger_words.ALIASES.items():
        assert trigger_words.key({"on": name}) == trigger_words.key(fixed), name
        assert trigger_words.trigger_problems(fixed) == [], name
        assert trigger_words.trigger_text({"on": name}) == trigger_words.trigger_text(fixed), name
    assert trigger_words.trigger_text({"on": "turn_end"}) == "At the end of your turn"
    assert trigger_words.trigger_problems({"on": "turn_end", "whose": "opponent"})
    assert trigger_words.trigger_problems({"on": "attack", "by": "any"}), "an attack has no cause to name"


def test_constant_words_are_checked_and_the_front_alias_reads_as_its_word() -> None:
    assert constant_words.constant_problems({"op": "front_vanished_to_trash"}) == []
    assert constant_words.constant_text({"op": "front_vanished_to_trash"}) == constant_words.constant_text(
        {"op": "vanished_to_trash", "which": "front"}
    )
    assert constant_words.constant_problems({"op": "power", "target": {"self": True}, "amount": "lots"})
    assert constant_words.constant_problems(
        {"op": "power", "target": {"self": True}, "amount": 1000, "per": "moons"}
    )


def test_the_vocabulary_lists_every_kind_of_word_and_the_core_total(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["--words"]) == 0
    out = capsys.readouterr().out
    assert "conditions: " in out and "  alias lrig_level" in out and "= compare" in out
    assert "triggers: " in out and "  alias turn_end" in out and "= phase_starts" in out
    assert "constant words: " in out and "  alias front_vanished_to_trash" in out
    last = out.rstrip().splitlines()[-1]
    core = len(WORDS) + len(conditions.WORDS) + len(trigger_words.WORDS) + len(constant_words.CONSTANT_WORDS)
    aliases = (
        len(ALIASES)
        + len(conditions.ALIASES)
        + len(trigger_words.EVENTS)  # each event kind: ``when`` with ``on`` fixed
        + len(trigger_words.ALIASES)
        + len(constant_words.CONSTANT_ALIASES)
    )
    assert last.startswith(
        f"{core} core words in all ({len(WORDS)} steps, {len(conditions.WORDS)} conditions"
    )
    assert last.endswith(f"), {aliases} aliases")


def test_a_moves_trigger_with_not_from_fits_every_zone_but_those_named() -> None:
    """WXDi-P07-044's second [Auto]: a SIGNI of yours entering the field from any zone but the hand (the LRIG
    deck and the LRIG trash too), not one played from the hand."""
    from domain.abilities.triggers import _entry_fits

    s = fold(create_position(build({"turn": 3, "turn_player": "p1", "phase": "main"}), seed=3))
    trigger = abilities_of("WXDi-P07-044")[1]["trigger"]
    assert trigger.get("not_from") == "hand" and "from" not in trigger
    for zone in ("deck", "ener", "trash", "life_cloth", "check", "under_signi", "excluded", "lrig_deck"):
        assert _entry_fits(s, {"what": "entered", "from": zone, "cause": "effect"}, "p1")(trigger), zone
    assert _entry_fits(s, {"what": "entered", "from": "lrig_trash", "cause": "effect"}, "p1")(trigger)
    assert not _entry_fits(s, {"what": "entered", "from": "hand", "cause": "rule"}, "p1")(trigger)
    assert trigger_words.trigger_problems({"on": "moves", "from": "deck", "not_from": "hand"})
    assert "from any zone but the hand" in trigger_words.trigger_text(trigger)


def test_a_condition_alias_refuses_keys_it_would_drop() -> None:
    """The aliases that pick their value apart (count, signi, all_signi, team_lrigs) read only their own keys:
    "another SIGNI" written as ``{"count": {..., "other": true}}`` would count this card too, so such a key is
    a problem (the compare form of the count measure takes ``other``)."""
    condition_problems = conditions.condition_problems
    virtual = {"count": {"zone": "signi", "filter": {"class": "Virtual"}, "at_least": 1}}
    assert condition_problems(virtual) == []
    for cond in (
        {"count": {"zone": "signi", "other": True}},
        {"signi": {"filter": {}, "other": True}},
        {"all_signi": {"side": "you", "filter": {}, "at_least": 1}},
        {"team_lrigs": {"team": "Ange", "level": 3}},
    ):
        (problem,) = condition_problems(cond)
        assert "it reads only" in problem, (cond, problem)
    compare = {"compare": {"count": {"side": "you", "zone": "signi", "other": True}, "op": ">=", "value": 1}}
    assert condition_problems(compare) == []


def test_an_action_twice_per_turn_is_refused_the_third_time_and_allowed_again_next_turn(extra: Path) -> None:
    """000 '[Action]': an ability limited to twice a turn may be used twice, not a third time (rule
    ability.once); the count starts again next turn. Our own card: [Action] 2/Turn: draw a card."""
    action = {"kind": "action", "once": "twice", "timing": ["main"], "effect": [{"op": "draw", "n": 1}]}
    (extra / "twice.json").write_text(json.dumps({NEW_CARD: [action]}))
    use_encodings(extra)
    position = {
        "turn": 3,
        "turn_player": "p1",
        "phase": "main",
        "players": {"p1": {"signi": {"center": NEW_CARD}}},
    }
    s = fold(create_position(build(position), seed=3))
    card = next(i for i, c in s.cards.items() if c == NEW_CARD)
    use = next(a for a in legal_actions(s) if a["type"] == "use_ability" and a["card"] == card)
    for _ in range(2):
        assert use in list(legal_actions(s))
        s = fold(decide(s, use), s)
    assert use not in list(legal_actions(s))
    with pytest.raises(IllegalAction) as refused:
        decide(s, use)
    assert "ability.once" in refused.value.rule_refs
    s.turn += 2  # the same player's next turn: the count starts again
    assert decide(s, use)
