"""The ability vocabulary added for the WXDi-D01, D02, D04 and D05 decks, where a scenario cannot say it
all: classes, LRIG colours, 1/Turn triggered abilities, effects that wait, abilities gained and lost,
descriptions and validation."""

from __future__ import annotations

from typing import Any

from domain import facts
from domain.abilities import targets as tg
from domain.abilities.catalogue import ability_at, ability_problems, describe_ability, granted_ref, problems
from domain.abilities.effects import OPS, TARGETED, step_problems, step_text
from domain.abilities.triggers import collect
from domain.engine import decide
from domain.events import Event
from domain.evolve import fold
from domain.setup import create_position
from domain.state import GameState
from tests.unit.scenario_runner import build


def start(position: dict[str, Any]) -> GameState:
    return fold(create_position(build(position), seed=7))


def play(state: GameState, *actions: dict[str, Any]) -> tuple[GameState, list[Any]]:
    events: list[Any] = []
    for action in actions:
        batch = decide(state, action)
        state = fold(batch, state)
        events.extend(batch)
    return state, events


def iid(state: GameState, card_id: str, player: str = "p1") -> str:
    return next(i for i, c in state.cards.items() if c == card_id and state.owners[i] == player)


def test_classes_are_told_apart_by_their_sub_class() -> None:
    cat = facts.catalogue()
    space, valor, space2 = cat.get("WXDi-D01-012"), cat.get("WXDi-D01-013"), cat.get("WXDi-D05-017")
    assert tg.class_kinds(space) == {"Space"}
    assert tg.distinct_classes([space, valor])
    assert not tg.distinct_classes([space, valor, space2])
    assert tg.distinct_classes([space, cat.get("WXDi-D01-021")])  # a spell has no class to share


def test_each_colour_needs_an_lrig_of_its_own() -> None:
    s = start(
        {
            "turn": 4,
            "turn_player": "p1",
            "phase": "main",
            "players": {"p1": {"lrig": {"center": "WXDi-D01-004", "left": "WXDi-D01-006"}}},
        }
    )
    assert tg.holds(s, "p1", "x", {"lrig_colors": ["green", "red"]})
    assert not tg.holds(s, "p1", "x", {"lrig_colors": ["green", "red", "blue"]})
    assert not tg.holds(s, "p1", "x", {"lrig_colors": ["red", "red"]})


def test_a_once_per_turn_triggered_ability_triggers_once_a_turn() -> None:
    s = start(
        {
            "turn": 4,
            "turn_player": "p1",
            "phase": "main",
            "players": {
                "p1": {"signi": {"left": "WXDi-D02-25", "center": "WXDi-D02-20", "right": "WXDi-D02-21"}}
            },
        }
    )
    s, events = play(s, {"type": "remove_signi", "player": "p1", "zones": ["center"]})
    assert [e.type for e in events].count("AbilityCounted") == 1
    other = iid(s, "WXDi-D02-21")
    again = Event("SigniRemoved", "p1", "main.remove", {"player": "p1", "cards": [other], "zones": ["right"]})
    assert collect(s, again) == []
    s.turn += 1  # another turn: it may trigger again
    assert [w["card"] for w in collect(s, again)] == [iid(s, "WXDi-D02-25")]


def test_a_lasting_power_change_does_not_follow_a_card_that_comes_back_to_the_field() -> None:
    s = start(
        {
            "turn": 4,
            "turn_player": "p1",
            "phase": "main",
            "players": {
                "p1": {
                    "lrig": {"center": "WXDi-D02-04L", "left": "WXDi-D02-07LT", "right": "WXDi-D02-10LA"},
                    "signi": {"left": "WXDi-D02-23"},
                    "hand": ["WXDi-D02-22"],
                    "ener": ["WXDi-D02-25", "WXDi-D02-20"],
                }
            },
        }
    )
    s, events = play(
        s,
        {"type": "use_ability", "player": "p1", "card": "WXDi-D02-04L"},
        {"type": "remove_signi", "player": "p1", "zones": ["left"]},
        {"type": "play_signi", "player": "p1", "card": "WXDi-D02-22", "zone": "center"},
        {"type": "choose", "player": "p1", "option": "pay"},
        {"type": "choose", "player": "p1", "zones": ["left"]},
    )
    assert [e.type for e in events].count("EffectDelayed") == 1
    ended = [e for e in events if e.type == "EffectEnded"]
    assert len(ended) == 1 and ended[0].data["reason"] == "new on the field"
    assert not [w for w in s.waiting if w.get("kind") == "delayed"]
    era = s.players["p1"].signi["left"]
    assert era is not None and facts.power(s, era) == 10000


def test_lost_abilities_are_remembered_after_the_card_leaves_the_field() -> None:
    s = start(
        {
            "turn": 4,
            "turn_player": "p1",
            "phase": "main",
            "players": {
                "p1": {"signi": {"left": "WXDi-D05-012", "center": "WXDi-D05-013"}},
                "p2": {"signi": {"left": "WXDi-D02-24"}},
            },
        }
    )
    s, _ = play(s, {"type": "use_ability", "player": "p1", "card": "WXDi-D05-012"})
    kaede = iid(s, "WXDi-D02-24", "p2")
    assert tg.lost(s, kaede)
    data = {"player": "p2", "card": kaede, "cause": "battle"}
    gone = Event("SigniVanished", "rules", "battle.compare", data)
    s.players["p2"].signi["left"] = None
    s.players["p2"].zones["ener"].append(kaede)
    assert collect(s, gone) == []


def test_gained_abilities_are_named_by_the_card_and_ability_that_give_them() -> None:
    ref = granted_ref("WXDi-D05-011", 0, ability_at("WXDi-D05-011", 0)["effect"][0]["ability"])
    assert ref == "WXDi-D05-011#0.0"
    lion = ability_at("WXDi-D04-004", "WXDi-D04-004#1.0")
    assert lion["trigger"] == {"on": "attack"} and lion["effect"][0]["op"] == "delay"


def test_every_step_can_be_described() -> None:
    samples: dict[str, dict[str, Any]] = {
        "look_top": {"n": 3, "picks": [{"count": 1, "filter": {"level": 1}}], "to": "field"},
        "reveal_top": {"filter": {"type": "signi"}, "then": [{"op": "draw"}]},
        "modes": {"choose": "opponent_center_level", "repeat": True, "modes": [[{"op": "draw"}]]},
        "if": {"condition": {"attack_damaged": False}, "then": [{"op": "draw"}]},
        "may_pay": {"cost": {"down_lrig": {"n": 1, "filter": {"level": 2}}}, "then": [{"op": "draw"}]},
        "unless": {"cost": {"discard": {"n": 1, "filter": {"guard": True}}}, "then": [{"op": "damage"}]},
        "delay": {"then": [{"op": "draw"}]},
        "grant_ability": {"target": {"self": True}, "ability": {"kind": "auto", "trigger": {"on": "attack"}}},
        "grant": {"target": {"self": True}, "keywords": ["lancer"]},
        "hold_ability": {"holder": "center_lrig", "ability": {"kind": "auto", "trigger": {"on": "attack"}}},
        "power": {"target": {"it": True}, "amount": 1000, "until": "opponent_next_turn"},
        "set_base": {"target": {"self": True}, "level": 3, "power": 12000, "until": "opponent_next_turn"},
        "place_marker": {"marker": "virus"},
        "remove_marker": {"marker": "virus", "side": "opponent"},
        "counter": {"target": {"side": "opponent", "zone": "check", "filter": {"cost_max": 3}}},
        "grant_zone": {"side": "you", "signi_zones": ["center"], "keywords": ["lancer"]},
        "gain_color": {"target": {"side": "you", "zone": "lrig"}, "gainer": "self"},
        "become": {"target": {"side": "opponent", "zone": "signi"}, "card": "WXDi-P07-TK01-A"},
        "raise_limit": {"amount": 2, "lasts": {"until_end_of": "ener"}},
        "cap_draws": {"amount": 1, "lasts": {"turn": "this", "phases": ["draw"]}},
    }
    for name in OPS:
        step = {"op": name, **samples.get(name, {})}
        if name not in samples and name in ("to_field", "to_deck", "lose_abilities"):
            step["target"] = {"side": "you", "zone": "trash", "count": 5, "distinct": "class"}
        elif name not in samples and name in (*TARGETED, "to_hand_or_field"):
            step["target"] = {"side": "opponent", "zone": "signi", "all": True}
        assert step_problems(step) == [], (name, step_problems(step))
        assert (step_text(step) and step_text(step) != name) or name == "then", name


def test_the_vocabulary_refuses_what_it_does_not_know() -> None:
    assert step_problems({"op": "modes", "choose": "twice", "modes": []})
    assert step_problems({"op": "delay", "until": "the end of time", "then": []})
    assert step_problems({"op": "power", "amount": 1, "until": "forever", "target": {"self": True}})
    assert step_problems({"op": "vanish", "target": {"cards": ["x"]}})
    assert step_problems({"op": "may_pay", "cost": {"bribe": 1}, "then": []})
    assert ability_problems("x", {"kind": "constant", "effect": [{"op": "draw"}]})
    assert ability_problems("x", {"kind": "auto", "trigger": {"on": "attack", "during": {"weather": "rain"}}})
    assert problems("x", [{"kind": "auto", "trigger": {"on": "teatime"}}])


def test_the_vocabulary_of_the_d06_and_d09_h_cards_is_checked_and_described() -> None:
    assert step_problems({"op": "power", "amount": -3000, "per": "moons", "target": {"self": True}})
    assert step_problems({"op": "set_base", "level": "three", "power": 12000, "target": {"self": True}})
    assert step_problems({"op": "set_base", "level": 3, "power": 1, "until": "later", "target": {"it": True}})
    assert step_problems({"op": "crush", "burst_cancel": {"discard": 1}})
    assert step_problems({"op": "return_lrig"}), "return_lrig needs a target"
    assert step_problems({"op": "vanish", "target": {"side": "opponent", "filter": {"colour": "red"}}})
    by_on_attack = {"kind": "auto", "trigger": {"on": "attack", "by": "any"}, "effect": []}
    assert ability_problems("x", by_on_attack)
    bad_by = {"kind": "auto", "trigger": {"on": "signi_targeted", "by": "anyone"}, "effect": []}
    assert ability_problems("x", bad_by)
    assert ability_problems("x", {"kind": "enter", "filter": {"color": "red"}, "effect": []})
    assert ability_problems("x", {"kind": "rise", "filter": {"colour": "red"}})
    assert ability_problems("x", {"kind": "rise", "filter": {"color": "red"}}) == []
    rise = describe_ability({"kind": "rise", "filter": {"color": "red"}})
    assert rise.startswith("Rise") and "red" in rise
    targeted = describe_ability(
        {
            "kind": "auto",
            "trigger": {"on": "signi_targeted", "filter": {"upped": True}, "by": "assist_or_life_burst"},
            "effect": [{"op": "crush", "n": 1, "burst_cancel": {"ener": [{"color": "colorless", "n": 2}]}}],
        }
    )
    assert "Assist LRIG or Life Burst" in targeted and "does not activate" in targeted
    per = step_text({"op": "power", "amount": -3000, "per": "your_signi_colors", "target": {"self": True}})
    assert "for each colour" in per


def test_the_vocabulary_of_the_d04_d07_and_d08_cards_is_checked_and_described() -> None:
    assert step_problems({"op": "look_top", "n": 3, "order": "shuffled"})
    assert step_problems({"op": "draw", "n": "discarded"}) == []
    assert step_problems({"op": "mill", "n": "discarded"}), "only a draw may count what was discarded"
    assert step_problems({"op": "prevent_damage", "then": [{"op": "draw"}]})
    assert step_problems({"op": "attach_soul"}), "attach_soul needs a target"
    keyword = {
        "kind": "constant",
        "condition": {"your_turn": False},
        "effect": [{"op": "keywords", "keywords": ["x"]}],
    }
    assert ability_problems("x", keyword) == []
    assert "while it is the opponent's turn: this card has x" in describe_ability(keyword)
    soul = {
        "op": "soul_grant",
        "ability": {"kind": "auto", "trigger": {"on": "attack"}, "effect": [{"op": "draw"}]},
    }
    assert "attached to as a Soul" in describe_ability({"kind": "constant", "effect": [soul]})
    attacks = {"kind": "constant", "effect": [{"op": "lrig_attacks", "max": 3, "downed": True}]}
    assert "even while downed, up to 3 times" in describe_ability(attacks)
    for on in ("soul_attached", "soul_attached_your_signi", "each_turn_end"):
        ab = {"kind": "auto", "trigger": {"on": on}, "effect": [{"op": "draw"}]}
        assert ability_problems("x", ab) == [] and not describe_ability(ab).startswith("When triggered")
    assert tg.condition_text({"did": True, "revealed": {"level": 1}, "discarded_this_turn": True})
    assert "less power" in tg.filter_text({"power_below": "moved"})
    assert "fewer" in step_text({"op": "attack_limit", "amount": -2})
    assert "two times" in step_text({"op": "prevent_damage", "times": 2})


def test_a_damage_prevention_that_adds_nothing_is_used_before_one_that_does() -> None:
    from domain.combat import prevented
    from domain.engine import Recorder

    s = start({"turn": 5, "turn_player": "p2", "phase": "main"})
    penalty = [{"op": "grant_ability", "target": {"self": True}, "ability": {"kind": "auto"}}]
    s.flags["preventions"] = [
        {"key": "s1", "player": "p1", "card": "a", "ability": 0, "times": 2, "effect": penalty},
        {"key": "s2", "player": "p1", "card": "b", "ability": 0, "times": 1, "effect": []},
    ]
    rec = Recorder(s)
    assert prevented(rec, "p1", "x", attack=False)
    assert [(e.type, e.data["key"]) for e in rec.events] == [("DamagePrevented", "s2")]
    assert not prevented(Recorder(s), "p2", "x", attack=False), "p2 set no prevention"
