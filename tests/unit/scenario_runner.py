"""Ruling scenarios kept as data (``tests/scenarios/*.json``): a position, actions, and what must follow.

A scenario file is a list of scenarios. Each has a ``name``, ``follows`` (the rules text it follows), a
``position`` (the API's position format; players get a plain default board for whatever is left out),
``steps`` and an optional final ``state``. A position names its ``format`` (``diva`` when it names none); a
player left without LRIG, deck or Life Cloth gets that format's default board (``DEFAULT_PLAYERS``: Diva
starter cards, or for ``original`` WD01 cards without abilities). A step is ``{"do": action}`` (or ``{"pick":
k}``, the k-th legal action) with either ``expect`` (events that must appear, in order, each given as type,
rule and a subset of its data, card instances written as catalogue ids), ``absent`` (event types that must not
appear) or ``refused`` (the rule ids an illegal action cites). ``state`` maps dotted paths of the judge's view
of the final state to values. ``after_position`` lists events expected right after the position, and
``absent_after_position`` event types that must not be among them.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from domain.engine import decide
from domain.errors import IllegalAction
from domain.evolve import fold
from domain.setup import create_position
from domain.state import GameState
from projections.views import state_view

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"

DEFAULT_PLAYER: dict[str, Any] = {
    "lrig": {"center": "WXDi-D03-004"},
    "deck": ["WXDi-D03-012"] * 10,
    "life_cloth": ["WXDi-D03-013"] * 5,
}
# the original format (seed 002): one level 2 LRIG (limit 5), a deck and Life Cloth of SIGNI without
# abilities, all of the WD01 starter set, so that a default board holds only cards of the format's era
ORIGINAL_PLAYER: dict[str, Any] = {
    "lrig": {"center": "WD01-003"},
    "deck": ["WD01-013"] * 10,
    "life_cloth": ["WD01-012"] * 5,
}
DEFAULT_PLAYERS: dict[str, dict[str, Any]] = {"diva": DEFAULT_PLAYER, "original": ORIGINAL_PLAYER}


def load_all() -> list[dict[str, Any]]:
    out = []
    for path in sorted(SCENARIOS.glob("*.json")):
        for sc in json.loads(path.read_text()):
            sc["file"] = path.name
            out.append(sc)
    return out


def build(position: dict[str, Any]) -> dict[str, Any]:
    pos = copy.deepcopy(position)
    fmt = pos.setdefault("format", "diva")
    players = pos.setdefault("players", {})
    for p in ("p1", "p2"):
        merged = copy.deepcopy(DEFAULT_PLAYERS.get(fmt, DEFAULT_PLAYER))
        merged.update(players.get(p, {}))
        players[p] = merged
    return pos


def _ids(value: Any, cards: dict[str, str]) -> Any:
    """Event data with card instances written as their catalogue ids."""
    if isinstance(value, str):
        return cards.get(value, value)
    if isinstance(value, list):
        return [_ids(v, cards) for v in value]
    if isinstance(value, dict):
        return {k: _ids(v, cards) for k, v in value.items()}
    return value


def _subset(want: Any, got: Any) -> bool:
    if isinstance(want, dict):
        return isinstance(got, dict) and all(k in got and _subset(v, got[k]) for k, v in want.items())
    return bool(want == got)


def _matches(want: dict[str, Any], event: Any, cards: dict[str, str]) -> bool:
    if want["type"] != event.type:
        return False
    if "rule" in want and want["rule"] != event.rule:
        return False
    if "actor" in want and want["actor"] != event.actor:
        return False
    return _subset(want.get("data", {}), _ids(event.data, cards))


def lookup(view: Any, path: str) -> Any:
    for part in path.split("."):
        if isinstance(view, list):
            view = view[int(part)]
        elif view is None:
            raise KeyError(f"{path}: reached null before {part}")
        else:
            view = view[part]
    return view


def _printed(state: GameState) -> dict[str, str]:
    """Which card each instance is as printed: a SIGNI that became another card until end of turn is named
    in the expected events by its printed card."""
    became = state.flags.get("became")
    return {**state.cards, **became} if became else state.cards


def run(sc: dict[str, Any], sink: list[Any] | None = None) -> GameState:
    """Plays one scenario and checks it; ``sink``, when given, receives every event the scenario made."""
    events = create_position(build(sc["position"]), seed=int(sc.get("seed", 7)))
    state = fold(events)
    if sink is not None:
        sink.extend(events)
    first = {"expect": sc["after_position"]} if "after_position" in sc else None
    if first:
        _check_events(sc, "the position", first["expect"], events, state.cards)
    for absent in sc.get("absent_after_position", []):
        assert all(e.type != absent for e in events), (
            f"the position: an event {absent} happened: {_types(events)}"
        )
    for i, step in enumerate(sc.get("steps", [])):
        where = f"{sc['name']} step {i + 1}"
        if "pick" in step:  # the k-th legal action, for answers whose ids are not known in advance
            from domain.legal import legal_actions

            action = list(legal_actions(state))[step["pick"]]
        else:
            action = step["do"]
        if "refused" in step:
            try:
                decide(state, action)
            except IllegalAction as exc:
                assert set(step["refused"]) <= set(exc.rule_refs), (
                    f"{where}: refused with {exc.rule_refs}: {exc}"
                )
                continue
            raise AssertionError(
                f"{where}: {action} was accepted, but should be refused with {step['refused']}"
            )
        batch = decide(state, action)
        for e in batch:
            state = fold([e], state)
        if sink is not None:
            sink.extend(batch)
        _check_events(sc, where, step.get("expect", []), batch, _printed(state))
        for absent in step.get("absent", []):
            assert all(e.type != absent for e in batch), (
                f"{where}: an event {absent} happened: {_types(batch)}"
            )
    view = state_view(state, "judge", options=False)
    for path, value in sc.get("state", {}).items():
        got = lookup(view, path)
        assert got == value, f"{sc['name']}: state {path} is {got!r}, expected {value!r}"
    return state


def _types(batch: list[Any]) -> list[str]:
    return [f"{e.type}({e.rule})" for e in batch]


def _check_events(
    sc: dict[str, Any], where: str, wanted: list[dict[str, Any]], batch: list[Any], cards: dict[str, str]
) -> None:
    k = 0
    for want in wanted:
        while k < len(batch) and not _matches(want, batch[k], cards):
            k += 1
        if k == len(batch):
            raise AssertionError(f"{where}: expected {want} in order; got {_types(batch)}")
        k += 1
