"""Colours effects add to cards (rule effect.colors-added): every reader of a card's colours sees them."""

from __future__ import annotations

from domain import facts
from domain.evolve import fold
from domain.setup import create_position
from domain.state import GameState
from tests.unit.scenario_runner import build


def _state(p1: dict[str, object]) -> GameState:
    position = {"turn": 4, "turn_player": "p1", "phase": "main", "players": {"p1": p1}}
    return fold(create_position(build(position)))


def _iid(s: GameState, player: str, where: str) -> str:
    ps = s.players[player]
    if where.startswith("signi:"):
        slot = ps.signi[where.split(":")[1]]
        assert slot is not None
        return slot.iid
    return ps.zones[where][0]


def test_a_constant_makes_your_signi_on_the_field_and_in_the_ener_zone_black() -> None:
    s = _state(
        {
            "signi": {"center": "WXDi-P06-040", "left": "WXDi-D03-018"},
            "ener": ["WXDi-D03-015"],
            "trash": ["WXDi-D03-012"],
            "hand": ["WXDi-D03-021"],
        }
    )
    assert facts.card_of(s, _iid(s, "p1", "signi:left")).colors == ("red", "blue", "black")
    assert facts.card_of(s, _iid(s, "p1", "ener")).colors == ("red", "black")
    assert facts.card_of(s, _iid(s, "p1", "trash")).colors == ("red",)  # not in the zones it names
    assert facts.card_of(s, _iid(s, "p1", "hand")).colors == ("red",)
    front = s.players["p2"].zones["deck"][0]
    assert facts.card_of(s, front).colors == ("red",)  # the opponent's cards are not yours


def test_a_colour_gained_until_end_of_turn_is_read_from_the_card_on_the_field() -> None:
    s = _state({"signi": {"center": "WXDi-P03-074"}})
    iid = _iid(s, "p1", "signi:center")
    assert facts.card_of(s, iid).colors == ("green",)
    slot = s.players["p1"].signi["center"]
    assert slot is not None
    slot.keywords.append("color:black")
    assert facts.card_of(s, iid).colors == ("green", "black")
    slot.keywords.clear()
    assert facts.card_of(s, iid).colors == ("green",)


def test_the_public_zones_count_face_up_cards_only() -> None:
    from domain.abilities import measures as ms

    s = _state({"signi": {"center": "WXDi-P07-049"}, "hand": ["WXDi-D03-012"], "ener": ["WXDi-D03-020"]})
    colours = ["white", "red", "blue", "green", "black"]
    coloured = {"type": "signi", "colors_any": colours, "not_class": "Angel"}
    count = {"count": {"zone": "public", "filter": coloured}}
    source = _iid(s, "p1", "signi:center")
    # an Angel on the field, a colourless SIGNI in the ener zone; the hand is hidden
    assert ms.value(ms.Ctx(s, "p1", source, {}), count) == 0
    red = _iid(s, "p1", "hand")
    s.players["p1"].zones["hand"].remove(red)
    s.players["p1"].face_down = {"left": [{"iid": red, "under": [], "seen_by": ["p1"]}]}
    assert ms.value(ms.Ctx(s, "p1", source, {}), count) == 0  # face down in a SIGNI zone: not counted
    s.players["p1"].face_down = {}
    s.players["p1"].zones["trash"].append(red)
    assert ms.value(ms.Ctx(s, "p1", source, {}), count) == 1


def test_the_state_view_shows_added_colours_only_where_an_effect_adds_them() -> None:
    from projections.views import state_view

    for viewer in ("judge", "p1", "p2", "spectator"):
        with_tama = state_view(_state({"signi": {"center": "WXDi-P06-040", "left": "WXDi-D03-019"}}), viewer)
        left = with_tama["players"]["p1"]["signi"]["left"]
        assert (left["colors"], left["printed_colors"]) == (["red", "blue", "black"], ["red", "blue"])
        assert "colors" not in with_tama["players"]["p1"]["signi"]["center"]  # black printed: nothing added
        alone = state_view(_state({"signi": {"left": "WXDi-D03-019"}}), viewer)
        assert "colors" not in alone["players"]["p1"]["signi"]["left"]
