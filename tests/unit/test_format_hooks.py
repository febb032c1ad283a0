"""The formats' hooks (``domain.formats``): a format is data, and the modules that play it register what it
does differently (the attack step, the deck construction, the LRIGs a player starts with) when imported."""

from __future__ import annotations

import pytest

import domain.setup  # noqa: F401  (set-up imports every module that registers a format's hooks)
from domain.formats import FORMATS, HOOKS, Format, MissingFormatHook
from domain.original import attack_step, default_lrig, validate_original_deck


def test_every_format_has_every_hook_once_matches_can_be_set_up() -> None:
    for fmt in FORMATS.values():
        for hook in HOOKS:
            assert callable(fmt.hook(hook)), (fmt.name, hook)
    original = FORMATS["original"]
    assert original.hook("attack_step") is attack_step  # 002 "Attack Phase": the ARTS use step first
    assert original.hook("validate_deck") is validate_original_deck
    assert original.hook("default_lrigs") is default_lrig  # 002 "To begin the game": one level 0 LRIG


def test_a_missing_hook_says_which_module_registers_it() -> None:
    bare = Format("bare", "a format nobody plays", ("center",), (), (), "decks.json", "domain.nowhere")
    with pytest.raises(
        MissingFormatHook, match=r"the bare format has no 'attack_step': import domain\.nowhere"
    ):
        bare.attack_step(None, "p1")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="not a format hook"):
        bare.registers("score")


def test_the_grow_rule_is_data() -> None:
    """001 "Grow Phase": exactly one level up; 002 "Grow Phase": at most one up, or equal, or lower."""

    class Lrig:
        def __init__(self, level: int) -> None:
            self.name, self.level = f"L{level}", level

    diva, original = FORMATS["diva"], FORMATS["original"]
    assert diva.grow_level_refusal(Lrig(1), Lrig(2)) is None  # type: ignore[arg-type]
    assert "grows exactly one level up" in (diva.grow_level_refusal(Lrig(2), Lrig(2)) or "")  # type: ignore[arg-type]
    assert original.grow_level_refusal(Lrig(2), Lrig(1)) is None  # type: ignore[arg-type]
    assert "at most one level up" in (original.grow_level_refusal(Lrig(1), Lrig(3)) or "")  # type: ignore[arg-type]
