"""What each viewer may see: the one place that redacts the state, the events, the legal actions and the
rulings per viewer.

Viewers: ``judge`` (everything), ``p1`` / ``p2`` (their own hand and LRIG deck, and the public zones) and
``spectator`` (public zones only). Nobody but the judge sees the order of a deck, which cards are in a Life
Cloth, or the match's seed. Cards a viewer may not see are given as counts: not even their instance ids,
which would let a viewer follow a card through a shuffle. Every event type is declared with what of it a
viewer may see (``EVENT_VISIBILITY``); one that is not shows its envelope only. A ruling's predicted events
show nothing the viewer does not know at the moment of asking (see ``predicted_events_view``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from domain import facts
from domain.abilities import is_enforced
from domain.abilities.constants import active
from domain.evolve import apply
from domain.formats import format_of
from domain.kinds import describe_pending
from domain.legal import legal_actions
from domain.state import LRIG_POSITIONS, PILE_ZONES, SIGNI_ZONES, GameState, Slot
from projections.sentences import NOBODY, Cast, sentence

VIEWERS = ("judge", "p1", "p2", "spectator")
PUBLIC_ZONES = ("ener", "trash", "lrig_trash", "check", "excluded")
OWNER_ZONES = ("hand", "lrig_deck", *PUBLIC_ZONES)


def zone_visible(viewer: str, owner: str, zone: str) -> bool:
    if viewer == "judge":
        return True
    if zone in PUBLIC_ZONES:
        return True
    return viewer == owner and zone in OWNER_ZONES


def enforced(card_id: str) -> bool:
    """Whether the service enforces everything the card does (cards with no abilities, for now)."""

    return is_enforced(card_id)


@cache
def _printed(card_id: str) -> dict[str, Any]:
    """A card's printed facts as a view shows them (the same for every instance, so made once per card;
    never handed out, only copied)."""
    card = facts.catalogue().get(card_id)
    out: dict[str, Any] = {"card": card.id, "name": card.name, "type": card.type.value}
    if card.level is not None:
        out["level"] = card.level
    if card.power is not None:
        out["power"] = card.power
    out["enforced"] = enforced(card.id)
    return out


def card_view(state: GameState, iid: str) -> dict[str, Any]:
    return {"iid": iid, **_printed(state.cards[iid])}


def slot_view(
    state: GameState,
    slot: Slot,
    applying: Sequence[Any] | None = None,
    granting: Sequence[Any] | None = None,
) -> dict[str, Any]:
    """A card on the field; ``applying`` and ``granting``: the constant power and keyword steps that apply
    now, when the caller has worked them out once for every slot of the state."""
    out = card_view(state, slot.iid)
    out["downed"] = slot.downed
    out["frozen"] = slot.frozen
    if out.get("power") is not None:
        out["power"] = facts.power(state, slot, applying)
    if out.get("level") is not None and state.flags.get("base_changed"):  # an effect set a level this turn
        level = facts.level(state, slot.iid)
        if level != out["level"]:
            out["printed_level"], out["level"] = out["level"], level
    if slot.power_mod:
        out["power_mod"] = slot.power_mod
    colors = facts.card_of(state, slot.iid).colors  # with colours effects add (000 'Color')
    printed = facts.printed(state, slot.iid).colors
    if colors != printed:
        out["colors"], out["printed_colors"] = list(colors), list(printed)
    kws = sorted(facts.keywords(state, slot, granting))
    if kws:
        out["keywords"] = kws
    out["under"] = [card_view(state, u) for u in slot.under]
    if slot.awakened:
        out["awakened"] = True
    return out


def sees_face_down(viewer: str, seen_by: Sequence[str]) -> bool:
    """Whether ``viewer`` may see the front of a face-down card in a SIGNI zone (rule face-down.signi): the
    judge, a player allowed to (``seen_by``: who saw it as it was turned face down, seed 000 "Public zone"),
    and a spectator when both players are."""
    if viewer == "judge" or viewer in seen_by:
        return True
    return viewer == "spectator" and all(p in seen_by for p in ("p1", "p2"))


def face_down_view(state: GameState, entry: dict[str, Any], viewer: str) -> dict[str, Any]:
    """A face-down card in a SIGNI zone: not a SIGNI (no level, power or abilities shown as its own); its
    front only to a viewer allowed to see it; the cards under it as they were."""
    out: dict[str, Any] = {"face_down": True}
    if sees_face_down(viewer, entry.get("seen_by", ())):
        out.update(card_view(state, entry["iid"]))
        out.pop("level", None)
        out.pop("power", None)
        out["face_down"] = True
    out["under"] = [card_view(state, u) for u in entry.get("under", ())]
    return out


def state_view(state: GameState, viewer: str, *, options: bool = True) -> dict[str, Any]:
    """The state as ``viewer`` may see it, in the contract's shape."""

    players: dict[str, Any] = {}
    applying = list(active(state, "power"))  # worked out once for every card shown on the field
    granting = list(active(state, "keywords"))
    for p, ps in state.players.items():
        face_up = ps.lrigs_face_up or viewer in ("judge", p)
        lrig: dict[str, Any] = {}
        for pos in LRIG_POSITIONS:
            slot = ps.lrig[pos]
            if slot is None:
                lrig[pos] = None
            elif face_up:
                lrig[pos] = slot_view(state, slot, applying, granting)
            else:
                lrig[pos] = {"face_down": True, "downed": slot.downed, "frozen": slot.frozen}
        view: dict[str, Any] = {
            "name": ps.name,
            "lrig": lrig,
            "signi": {
                z: (slot_view(state, sl, applying, granting) if sl else None) for z, sl in ps.signi.items()
            },
        }
        for zone in PILE_ZONES:
            cards = ps.zones[zone]
            z: dict[str, Any] = {"count": len(cards)}
            if zone_visible(viewer, p, zone):
                z["cards"] = [card_view(state, c) for c in cards]
            view[zone] = z
        view["refreshes_this_turn"] = ps.refreshes_this_turn
        view["coins"] = ps.coins
        if ps.markers:  # shown only while there are any: zone -> the markers there (Virus ...)
            view["markers"] = {z: list(m) for z, m in ps.markers.items()}
        erased = state.flags.get("erased", {}).get(p)
        if erased:  # the SIGNI zones erased until end of turn
            view["erased"] = list(erased)
        if ps.held:  # abilities the player or their center LRIG hold for the rest of the game
            view["held"] = [{**h, "card": card_view(state, h["card"])} for h in ps.held]
        if ps.face_down:  # face-down cards in the SIGNI zones (not SIGNI), shown only while there are any
            view["face_down"] = {
                z: [face_down_view(state, e, viewer) for e in ps.face_down[z]]
                for z in SIGNI_ZONES
                if ps.face_down.get(z)
            }
        if ps.lasting:  # effects on the player for a stated time; the limit as effects leave it now
            view["lasting"] = [{**e, "by_effect": card_view(state, e["by_effect"])} for e in ps.lasting]
            view["limit"] = facts.limit(state, p)
        players[p] = view
    out: dict[str, Any] = {
        "version": state.version,
        "status": state.status,
        "winner": state.winner,
        "result": state.result,
        "turn": state.turn,
        "turn_player": state.turn_player,
        "first_player": state.first_player,
        "phase": state.phase,
        "step": state.step,
        "pending": pending_view(state, viewer, options=options),
        "players": players,
        "format": state.format,
        # the format's options, every one with its value (the default where the match recorded none)
        "options": format_of(state).settings(state.options),
    }
    if state.attack is not None:
        out["attack"] = {k: v for k, v in state.attack.items()}
    if viewer == "judge":
        out["seed"] = state.seed
        out["digest"] = state.digest()
    return out


# what a pending decision shows its decider and the judge (API "Turn flow and decisions"); the rest of what
# the engine keeps with it (the effect to resume, what the answer is for) is for the engine only
PENDING_FIELDS = frozenset(
    {"player", "kind", "prompt", "min", "max", "count", "choices", "cards", "card", "card_id", "zones"}
    | {"looked", "order", "options", "attacker"}
)


def pending_view(state: GameState, viewer: str, *, options: bool = True) -> dict[str, Any] | None:
    pending = state.pending
    if pending is None:
        return None
    decider = pending["player"]
    if viewer in ("judge", decider):
        out = {k: v for k, v in pending.items() if k in PENDING_FIELDS}  # never the engine's own notes
        out["description"] = describe_pending(pending)
        if "options" in out:  # the labels of a choice between options (pay or decline, a mode, a rule)
            out["labels"] = out.pop("options")
        if options:
            out["options"] = list(legal_actions(state))
        return out
    return {"player": decider, "kind": pending["kind"], "description": describe_pending(pending)}


# -- events: who may see what of each event type (an allow-list) -----------------------------------
#
# Every event type is declared below with what a player or a spectator may see of its data. A type that is
# not declared shows its envelope only (``n``, ``type``, ``actor``, ``rule``, ``caused_by``, ``time``) to
# anybody but the judge: a new event type stays hidden until somebody decides what of it is public.

Redactor = Callable[[dict[str, Any], str], dict[str, Any]]


def _count(data: dict[str, Any], key: str) -> dict[str, Any]:
    out = {k: v for k, v in data.items() if k != key}
    out["count"] = len(data.get(key) or ())
    return out


def _public(data: dict[str, Any], viewer: str) -> dict[str, Any]:
    return data


def _counted(key: str) -> Redactor:
    """Everybody sees how many cards, nobody which (the order of a deck, the cards of a Life Cloth)."""
    return lambda data, viewer: _count(data, key)


def _owner_sees(key: str) -> Redactor:
    """The event's player sees which cards; everybody else how many."""
    return lambda data, viewer: data if viewer == data.get("player") else _count(data, key)


def _match_created(data: dict[str, Any], viewer: str) -> dict[str, Any]:
    players = {}
    for q, info in data["players"].items():
        entry: dict[str, Any] = {
            "name": info["name"],
            "main_deck": {"count": len(info["main_deck"])},
            "lrig_deck": {"count": len(info["lrig_deck"])},
        }
        if viewer == q:
            entry["lrig_deck"]["cards"] = [{"iid": i, "card": data["cards"][i]} for i in info["lrig_deck"]]
        players[q] = entry
    out: dict[str, Any] = {"format": data["format"], "players": players}
    if "options" in data:  # the format's options are public
        out["options"] = data["options"]
    return out


def _position_set(data: dict[str, Any], viewer: str) -> dict[str, Any]:
    return {"state": state_view(GameState.from_dict(data["state"]), viewer, options=False)}


def _rewound(data: dict[str, Any], viewer: str) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k != "state"}


def _hand_revealed(data: dict[str, Any], viewer: str) -> dict[str, Any]:
    if viewer in (data.get("player"), data.get("to")) or data.get("to") == "all":
        return data
    return _count(data, "cards")


def _deck_top_arranged(data: dict[str, Any], viewer: str) -> dict[str, Any]:
    if viewer == data.get("player"):  # only the player looked at them
        return data
    return {
        "player": data.get("player"),
        "top": {"count": len(data["top"])},
        "bottom": {"count": len(data["bottom"])},
    }


def _lrigs_placed(data: dict[str, Any], viewer: str) -> dict[str, Any]:
    if viewer == data.get("player"):
        return data
    one = {} if "left" in data else {"lrigs": 1}  # the original format (seed 002) places one LRIG
    return {"player": data.get("player"), "face_down": True, **one}


def _asked(data: dict[str, Any], viewer: str) -> dict[str, Any]:
    out = {k: v for k, v in data.items() if k != "resume"}
    if data.get("private") and viewer != data.get("player"):
        for key in ("choices", "looked"):
            if key in out:
                out[key] = {"count": len(out[key])}
    return out


def _answered(data: dict[str, Any], viewer: str) -> dict[str, Any]:
    if data.get("private") and viewer != data.get("player"):
        return {k: v for k, v in data.items() if k != "answer"}
    return data


def _cards_moved(data: dict[str, Any], viewer: str) -> dict[str, Any]:
    if data.get("to") == "hand" and not data.get("reveal") and viewer != data.get("player"):
        return _count(data, "cards") if data.get("from_hidden") else data
    return data


def _adjusted(data: dict[str, Any], viewer: str) -> dict[str, Any]:
    return {
        "reason": data.get("reason"),
        "steps": [_redact_step(s, viewer) for s in data.get("steps", [])],
    }


def _redact_step(step: dict[str, Any], viewer: str) -> dict[str, Any]:
    if step.get("public", True) or viewer == step.get("player"):
        return {k: v for k, v in step.items() if k != "public"}
    return {"op": step.get("op"), "player": step.get("player"), "hidden": True}


def _takeback_requested(data: dict[str, Any], viewer: str) -> dict[str, Any]:
    """The warning of a takeback request (what the undone play showed the requester) names the requester's
    own cards to the requester's opponent only, who must weigh it before answering; a card of the opponent's
    that the requester saw (the top of the opponent's deck, say) is counted, not named, since the opponent
    may not know it either (a warning written before cards carried their owner names none). The requester
    and spectators see which events showed something and how many cards, not which."""
    requester = data.get("player") or ""
    opponent = viewer == {"p1": "p2", "p2": "p1"}.get(requester)
    revealed = []
    for r in data.get("revealed") or ():
        cards = r.get("cards") or ()
        entry = {**{k: v for k, v in r.items() if k != "cards"}, "count": len(cards)}
        if opponent:
            entry["cards"] = [c for c in cards if c.get("owner") == requester]
        revealed.append(entry)
    return {**data, "revealed": revealed}


def _turned_face_down(data: dict[str, Any], viewer: str) -> dict[str, Any]:
    """A SIGNI turned face down: which card it was, only to a viewer who may see its front."""
    if sees_face_down(viewer, data.get("seen_by", ())):
        return data
    return {k: v for k, v in data.items() if k != "card"}


PUBLIC_EVENTS = (  # shown whole to everybody: what they name is on the field, in a public zone or revealed
    "FirstPlayerChosen",
    "LrigsRevealed",
    "TurnBegan",
    "PhaseBegan",
    "StepBegan",
    "CardsUpped",
    "EnerCharged",
    "LrigGrew",
    "SigniPlayed",
    "SigniRemoved",
    "Passed",
    "AttackDeclared",
    "Battled",
    "SigniVanished",
    "DamageDealt",
    "Guarded",
    "GuardedInstead",
    "LifeClothCrushed",
    "LifeBurstChosen",
    "AttackEnded",
    "CardEnered",
    "SigniTrashed",
    "CardsTrashed",
    "LrigTrashed",
    "CardReturned",
    "CardsDiscarded",
    "EffectsExpired",
    "CheckZoneCleared",
    "TurnEnded",
    "GameEnded",
    "Conceded",
    "AbilityTriggered",
    "TriggersOrdered",
    "AbilityActivated",
    "AbilityUsed",
    "SpellUsed",
    "PieceUsed",
    "ArtsUsed",
    "AbilityResolved",
    "CostPaid",
    "CardsMilled",
    "CardsSet",
    "SigniPutOntoField",
    "PowerChanged",
    "KeywordsGranted",
    "EnerZoneGranted",
    "CardRevealed",
    "NumberDeclared",
    "ColorDeclared",
    "AbilityNegated",
    "LastingEffectSet",
    "SigniAwakened",
    "SpellsBanned",
    "VanishRedirected",
    "MinusDoubled",
    "CoinsGained",
    "CoinsPaid",
    "SigniTargeted",
    "AttackForbidden",
    "ZoneKeywordsGranted",
    "EffectDelayed",
    "EffectEnded",
    "AbilityGranted",
    "AbilityHeld",
    "AbilitiesLost",
    "SigniBecame",
    "SigniMoved",
    "LifeBurstCancelled",
    "BaseChanged",
    "LrigReturned",
    "AbilityCounted",
    "LifeClothAdded",
    "LifeClothToDeck",
    "CardsPutUnder",
    "AttackLimitChanged",
    "SigniAttacksLimited",
    "SigniAttackBarred",
    "SigniCountCapped",
    "SigniEntryBarred",
    "EnerCostsLocked",
    "SpellCostEased",
    "AttacksCompelled",
    "UnchosenAttacksBarred",
    "PreventionSet",
    "DamagePrevented",
    "DamageReplaced",
    "ReplacementDeclined",
    "ReplacementChosen",
    "LeavingReplaced",
    "EffectDamageDealt",
    "MarkersPlaced",
    "MarkersRemoved",
    "ZoneErased",
    "CutInDeclared",
    "EffectCountered",
    "CutInResolved",
    "Branched",
    "TakebackPolicySet",
    "TakebackAccepted",
    "TakebackDeclined",
)

EVENT_VISIBILITY: dict[str, Redactor] = {
    **dict.fromkeys(PUBLIC_EVENTS, _public),
    "MatchCreated": _match_created,
    "PositionSet": _position_set,
    "Rewound": _rewound,
    "DeckShuffled": _counted("order"),
    "Refreshed": _counted("order"),
    "LifeClothPlaced": _counted("cards"),
    "CardsToDeckBottom": _counted("cards"),  # the order at the bottom of a deck is nobody's to know
    "CardsDrawn": _owner_sees("cards"),
    "MulliganDeclared": _owner_sees("cards"),
    "CardsReturned": _owner_sees("cards"),
    "HandRevealed": _hand_revealed,
    "DeckTopArranged": _deck_top_arranged,
    "LrigsPlaced": _lrigs_placed,
    "Asked": _asked,
    "Answered": _answered,
    "CardsMoved": _cards_moved,
    "Adjusted": _adjusted,
    # which unseen cards were set, and the randomness, are the judge's to know
    "CardsArranged": lambda data, viewer: {
        "count": len(data.get("swaps") or ()),
        "reason": data.get("reason"),
    },
    "TakebackRequested": _takeback_requested,
    "SigniTurnedFaceDown": _turned_face_down,
    "CardTurnedFaceUp": _public,  # face up, in a public zone: everybody sees it now
}


def redact_data(
    etype: str, data: dict[str, Any], viewer: str, state_before: GameState | None = None
) -> dict[str, Any]:
    """An event's data as ``viewer`` may see it: nothing of a type that is not declared."""
    if viewer == "judge":
        return data
    redactor = EVENT_VISIBILITY.get(etype)
    return {} if redactor is None else redactor(data, viewer)


def _envelope(body: dict[str, Any], etype: str, viewer: str) -> dict[str, Any]:
    """A non-judge's view of an event of an undeclared type: the envelope and no data."""
    if viewer == "judge" or etype in EVENT_VISIBILITY:
        return body
    kept = ("n", "type", "actor", "rule", "caused_by", "time", "data", "text")
    return {k: v for k, v in body.items() if k in kept}


def event_view(event: Any, viewer: str, rewound_by: int | None = None, cast: Cast = NOBODY) -> dict[str, Any]:
    """A stored event in the contract's shape, as ``viewer`` may see it, with its sentence (``text``) made
    from the redacted data only, naming players and cards from ``cast`` (``Cast.of`` the match's state)."""
    body = event.body()
    body["data"] = redact_data(event.type, event.data, viewer)
    body["text"] = _text(event.type, body, viewer, cast)
    if viewer == "judge":
        body["hash"] = event.hash
    else:
        body.pop("idempotency", None)  # a request's key and digest: the judge's, as the hash is
        if ("action" in body and viewer != body.get("actor")) or (
            "action" in body and body["action"].get("type") in ("create", "position")
        ):
            body.pop("action")
    body = _envelope(body, event.type, viewer)
    if rewound_by is not None:
        body["rewound_by"] = rewound_by
    return body


def domain_event_view(n: int, event: Any, viewer: str, cast: Cast = NOBODY) -> dict[str, Any]:
    """A predicted (not stored) event, as ``viewer`` would see it in the log: no time and no hash."""
    body: dict[str, Any] = {
        "n": n,
        "type": event.type,
        "actor": event.actor,
        "rule": event.rule,
        "caused_by": event.caused_by,
        "data": redact_data(event.type, event.data, viewer),
    }
    if event.by:
        body["by"] = event.by
    body["text"] = _text(event.type, body, viewer, cast)
    return _envelope(body, event.type, viewer)


def _text(etype: str, body: dict[str, Any], viewer: str, cast: Cast) -> str:
    """The event's sentence for ``viewer``: from the data it may see (none, for an undeclared type)."""
    if viewer != "judge" and etype not in EVENT_VISIBILITY:
        return "Something happened that is not shown to you."
    return sentence(etype, body["data"], body.get("actor", "rules"), cast)


# -- legal actions ----------------------------------------------------------------------------------


def legal_actions_view(state: GameState, viewer: str, player: str | None) -> list[dict[str, Any]]:
    """The answers to the pending decision ``viewer`` may see: the judge any player's (``player``, or
    every player's when None), a player only its own, a spectator none."""
    if viewer != "judge" and player != viewer:
        return []
    return list(legal_actions(state, player))


# -- rulings --------------------------------------------------------------------------------------
#
# A ruling predicts events that have not happened. The log shows each event to a viewer when it happens; a
# prediction shows it now, so it must not show what the viewer will learn only then: the card a draw would
# take, the Life Cloth a crush would reveal, what a shuffle would bring within reach. What the viewer knows
# now is what its own view of the state shows. The predicted events are shown through the log's redaction
# up to the first one that would name a card the viewer does not know now, or one that went through a
# place hidden from it (a deck, a Life Cloth, the other player's hand) during the prediction. That event is
# shown with every field naming a card left out (its ``cards`` as a ``count``), and the prediction stops
# there (``complete: false``): whatever follows may depend on the card.


def hidden_iids(state: GameState, viewer: str) -> frozenset[str]:
    """The instance ids ``viewer`` cannot see in ``state``: every card of the match that its own view of the
    state (the pending decision and its options included) does not show."""
    if viewer == "judge":
        return frozenset()
    shown: set[str] = set()
    _collect(state_view(state, viewer), set(state.cards), shown)
    return frozenset(set(state.cards) - shown)


def _collect(value: Any, names: set[str], out: set[str]) -> None:
    if isinstance(value, str):
        if value in names:
            out.add(value)
    elif isinstance(value, dict):
        for k, v in value.items():
            _collect(k, names, out)
            _collect(v, names, out)
    elif isinstance(value, list | tuple):
        for v in value:
            _collect(v, names, out)


def _names(value: Any, names: set[str] | frozenset[str]) -> set[str]:
    out: set[str] = set()
    _collect(value, set(names), out)
    return out


def _out_of_sight(state: GameState, viewer: str) -> set[str]:
    """The cards in places ``viewer`` cannot see: piles it may not look at, face-down LRIGs."""
    out: set[str] = set()
    for p, ps in state.players.items():
        for zone in PILE_ZONES:
            if not zone_visible(viewer, p, zone):
                out.update(ps.zones[zone])
        for _zone, entry in ps.face_down_cards():
            if not sees_face_down(viewer, entry.get("seen_by", ())):
                out.add(entry["iid"])
        if not ps.lrigs_face_up and viewer != p:
            for slot in ps.lrig.values():
                if slot is not None:
                    out.add(slot.iid)
                    out.update(slot.under)
    return out


@dataclass(frozen=True)
class Knowledge:
    """What ``viewer`` knows of the cards at one moment: the instance ids its view shows, and the catalogue
    ids of those cards. ``unknown`` is every other instance id and catalogue id of the match."""

    viewer: str
    known: frozenset[str]
    unknown: frozenset[str]

    @classmethod
    def of(cls, state: GameState, viewer: str) -> Knowledge:
        if viewer == "judge":
            return cls(viewer, frozenset(), frozenset())
        hidden = hidden_iids(state, viewer)
        seen = set(state.cards) - hidden
        known_ids = {state.cards[i] for i in seen}
        unknown_ids = set(state.cards.values()) - known_ids
        return cls(viewer, frozenset(seen | known_ids), frozenset(hidden | unknown_ids))

    def scrub_text(self, text: str) -> str:
        """``text`` with every unknown card id replaced (the longest first, so no id is left half named)."""
        for name in sorted((u for u in self.unknown if u in text), key=len, reverse=True):
            text = text.replace(name, "a card you cannot see")
        return text


def predicted_events_view(
    state: GameState, events: Sequence[Any], knowledge: Knowledge
) -> tuple[list[dict[str, Any]], bool]:
    """The events a ruling predicts after ``state``, as ``knowledge.viewer`` may see them now, and whether
    they are all shown (see above)."""
    viewer = knowledge.viewer
    at = state.version
    cast = Cast.of(state)
    if viewer == "judge":
        return [domain_event_view(at + i, e, viewer, cast) for i, e in enumerate(events, 1)], True
    unknown = set(knowledge.unknown)
    scratch: GameState | None = None
    unseen: set[str] = set()
    out: list[dict[str, Any]] = []
    for i, event in enumerate(events, 1):
        body = domain_event_view(at + i, event, viewer, cast)
        if _names(body["data"], unknown):
            body["data"] = _without_cards(body["data"], set(state.cards) | set(state.cards.values()))
            body["text"] = _text(event.type, body, viewer, cast)  # said again from what is left
            out.append(body)
            return out, False
        out.append(body)
        if i == len(events):
            break
        if scratch is None:
            scratch = state.copy()
            unseen = _out_of_sight(scratch, viewer)
        apply(scratch, event)
        # a card that goes where the viewer cannot see it, or is shuffled there, comes back unknown
        now_unseen = _out_of_sight(scratch, viewer)
        unknown |= now_unseen - unseen
        if event.type in SHUFFLES:
            unknown.update(scratch.players[event.data["player"]].zones["deck"])
        unseen = now_unseen
    return out, True


SHUFFLES = ("DeckShuffled", "Refreshed")


def _without_cards(data: dict[str, Any], cards: set[str]) -> dict[str, Any]:
    """``data`` with only its plain fields that name no card (a list ``cards`` leaves its ``count``): a list,
    even an empty one, could tell something of the card by its length."""
    out: dict[str, Any] = {}
    for key, value in data.items():
        if isinstance(value, list | tuple | dict):
            if key == "cards" and isinstance(value, list | tuple) and "count" not in data:
                out["count"] = len(value)
        elif not _names(value, cards):
            out[key] = value
    return out


def ruling_view(
    state: GameState, ruling: Any, viewer: str, action: dict[str, Any] | None = None
) -> dict[str, Any]:
    """A ruling (``legal``, ``at``, ``rule_refs``, ``explanation``, ``events``, as
    ``app.application.Ruling``) on ``action`` asked after ``state``, as ``viewer`` may see it now: its
    predicted events as above, and no rule id or explanation naming a card the viewer does not know (the
    cards the action itself names are the asker's own words, and may be said back)."""
    knowledge = Knowledge.of(state, viewer)
    events, complete = predicted_events_view(state, ruling.events, knowledge)
    refs, explanation = list(ruling.rule_refs), ruling.explanation
    if not complete:  # said again from the events shown: what follows is no one's to know yet
        refs = list(dict.fromkeys(e["rule"] for e in events if e["type"] != "Asked"))
        explanation = (
            f"legal, starting with {events[0]['type']}; what follows event {events[-1]['n']} depends on "
            "cards you cannot see yet, so the prediction stops there"
        )
    if viewer != "judge":
        unknown = knowledge.unknown - _names(action, knowledge.unknown)
        refs = [r for r in refs if not any(u in r for u in unknown)]
        explanation = Knowledge(viewer, knowledge.known, unknown).scrub_text(explanation)
    return {
        "legal": ruling.legal,
        "rule_refs": refs,
        "explanation": explanation,
        "events": events,
        "complete": complete,
        "at": ruling.at,
    }


__all__ = [
    "EVENT_VISIBILITY",
    "SIGNI_ZONES",
    "VIEWERS",
    "Knowledge",
    "card_view",
    "domain_event_view",
    "event_view",
    "hidden_iids",
    "legal_actions_view",
    "redact_data",
    "ruling_view",
    "state_view",
]
