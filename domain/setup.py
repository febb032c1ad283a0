"""Starting a match: from two decks (the set-up of the rules) or from a position a judge describes.

``create_match`` and ``create_position`` return the first events of a match; like ``decide`` they run the
game on until the first decision. Card instances get random, opaque ids from the match's RNG, so that an id
says nothing about the card behind it.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import domain.original  # noqa: F401  (registers the original format's hooks: its deck rules, its one LRIG)
from domain import procedure
from domain.actions import Action
from domain.cards import Card, CardType, UnknownCard
from domain.decks import Deck, kind_words, validate_deck
from domain.errors import IllegalAction, InvalidPosition
from domain.events import Event
from domain.facts import catalogue
from domain.formats import DIVA, FORMAT_NAMES, format_named
from domain.kinds import Phase, Step, Zone
from domain.recorder import Recorder, finish
from domain.state import (
    COIN_LIMIT,
    LRIG_POSITIONS,
    MARKER_CARDS,
    PILE_ZONES,
    PLAYERS,
    SIGNI_ZONES,
    ZONE_MARKERS,
    GameState,
    Slot,
    marker_kind,
)

FORMATS = FORMAT_NAMES


@dataclass(frozen=True, slots=True)
class PlayerSetup:
    name: str
    deck: Deck
    lrigs: dict[str, str] | None = None  # center/left/right catalogue ids; default: chosen from the deck


def _check_format(fmt: str) -> None:
    format_named(fmt)


class _Ids:
    """Random opaque instance ids, unique in the match."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(f"{seed}:instance-ids")
        self.used: set[str] = set()

    def __call__(self) -> str:
        while True:
            iid = f"c{self.rng.getrandbits(40):010x}"
            if iid not in self.used:
                self.used.add(iid)
                return iid


@DIVA.registers("default_lrigs")
def default_lrigs(deck: Deck) -> dict[str, str]:
    """The center is the level 0 LRIG whose type the deck's other (non-assist) LRIGs share; the other two
    level 0 LRIGs are the assists, left then right, in deck order."""
    cat = catalogue()
    zeros = [cat.get(c) for c in deck.lrig_deck if cat.get(c).type == CardType.LRIG and cat.get(c).level == 0]
    growers = [
        cat.get(c) for c in deck.lrig_deck if cat.get(c).type == CardType.LRIG and (cat.get(c).level or 0) > 0
    ]
    grow_types = {t for g in growers for t in g.lrig_types}
    center = next((z for z in zeros if set(z.lrig_types) & grow_types), zeros[0] if zeros else None)
    if center is None or len(zeros) != 3:
        raise IllegalAction(
            "deck.lrig-level0", "a Diva Selection LRIG deck needs exactly three level 0 LRIGs"
        )
    assists = [z for z in zeros if z is not center]
    return {"center": center.id, "left": assists[0].id, "right": assists[1].id}


def create_match(
    fmt: str,
    seed: int,
    players: dict[str, PlayerSetup],
    first_player: str | None = None,
    options: Mapping[str, Any] | None = None,
) -> list[Event]:
    """The events of a new match: created, LRIGs face down, decks shuffled, first player, five cards each,
    then the first mulligan decision. ``options``: the format's options (``domain.formats.FormatOption``);
    given (even empty), every option of the format is recorded in ``MatchCreated`` with its value, the
    default where absent; None (a log written before options existed): nothing is recorded, and the match
    plays the defaults."""
    _check_format(fmt)
    settings = format_named(fmt).resolve_options(options) if options is not None else {}
    cat = catalogue()
    players = {
        p: PlayerSetup(
            ps.name,
            Deck(
                tuple(cat.canonical(c) if c in cat else c for c in ps.deck.lrig_deck),
                tuple(cat.canonical(c) if c in cat else c for c in ps.deck.main_deck),
                ps.deck.name,
            ),
            None
            if ps.lrigs is None
            else {k: (cat.canonical(v) if v in cat else v) for k, v in ps.lrigs.items()},
        )
        for p, ps in players.items()
    }
    problems = []
    for p in PLAYERS:
        for prob in validate_deck(players[p].deck, catalogue(), fmt, settings):
            problems.append((p, prob))
    if problems:
        refs = sorted({prob.rule for _, prob in problems})
        text = "; ".join(f"{p}: {prob.message}" for p, prob in problems)
        raise IllegalAction(refs, f"the decks are not legal: {text}")
    new_id = _Ids(seed)
    cards: dict[str, str] = {}
    owners: dict[str, str] = {}
    info: dict[str, Any] = {}
    placements: dict[str, dict[str, str]] = {}
    for p in PLAYERS:
        ps = players[p]
        lrig_ids, main_ids = [], []
        for cid in ps.deck.lrig_deck:
            iid = new_id()
            cards[iid], owners[iid] = cid, p
            lrig_ids.append(iid)
        for cid in ps.deck.main_deck:
            iid = new_id()
            cards[iid], owners[iid] = cid, p
            main_ids.append(iid)
        wanted = ps.lrigs or format_named(fmt).default_lrigs(ps.deck)
        if set(wanted) - set(format_named(fmt).lrig_positions):
            raise IllegalAction(
                format_named(fmt).cite("setup.lrigs"),
                f"{p}: {fmt} matches place only a center LRIG (no assists)",
            )
        placement: dict[str, str] = {}
        for pos in format_named(fmt).lrig_positions:
            wanted_id = wanted.get(pos)
            found = next((i for i in lrig_ids if cards[i] == wanted_id and i not in placement.values()), None)
            card = catalogue().get(wanted_id) if wanted_id is not None and wanted_id in catalogue() else None
            if found is None or card is None or card.type != CardType.LRIG or card.level != 0:
                raise IllegalAction(
                    "setup.lrigs", f"{p}: the {pos} LRIG must be a level 0 LRIG of the LRIG deck"
                )
            placement[pos] = found
        placements[p] = placement
        info[p] = {"name": ps.name, "lrig_deck": lrig_ids, "main_deck": main_ids}
    params = {
        "format": fmt,
        "seed": seed,
        "first_player": first_player,
        "players": {
            p: {
                "name": players[p].name,
                "lrig_deck": list(players[p].deck.lrig_deck),
                "main_deck": list(players[p].deck.main_deck),
                "lrigs": players[p].lrigs,
            }
            for p in PLAYERS
        },
    }
    created: dict[str, Any] = {"format": fmt, "seed": seed, "players": info, "cards": cards, "owners": owners}
    if settings:  # a format with options, given: recorded, so that replay and audit read them
        params["options"] = settings
        created["options"] = settings
    rec = Recorder(GameState())
    rec.emit("MatchCreated", "judge", "setup.create", created)
    for p in PLAYERS:
        rec.emit("LrigsPlaced", "rules", "setup.lrigs", {"player": p, **placements[p]})
    for p in PLAYERS:
        deck = list(rec.state.players[p].zones["deck"])
        rec.random(f"shuffle:{p}").shuffle(deck)
        rec.emit("DeckShuffled", "rules", "setup.shuffle", {"player": p, "order": deck})
    if first_player is None:
        chosen = rec.random("coin").choice(PLAYERS)
        rec.emit("FirstPlayerChosen", "rules", "setup.first-player", {"player": chosen, "method": "coin"})
    else:
        if first_player not in PLAYERS:
            raise IllegalAction("setup.first-player", "first_player must be p1 or p2")
        rec.emit(
            "FirstPlayerChosen", "judge", "setup.first-player", {"player": first_player, "method": "given"}
        )
    for p in PLAYERS:
        rec.emit(
            "CardsDrawn",
            "rules",
            "setup.draw",
            {"player": p, "cards": rec.state.players[p].zones["deck"][:5]},
        )
    procedure.advance(rec)
    return finish(rec, Action("create", None, params))


# -- positions ------------------------------------------------------------------------------------

MAIN_ZONE_TYPES = frozenset(
    {
        CardType.SIGNI,
        CardType.SPELL,
        CardType.RESONA,
        CardType.KEY,
        CardType.SIGNI_CRAFT,
        CardType.SPELL_CRAFT,
        CardType.RESONA_CRAFT,
    }
)
LRIG_ZONE_TYPES = frozenset(
    {
        CardType.LRIG,
        CardType.ASSIST_LRIG,
        CardType.ARTS,
        CardType.PIECE,
        CardType.RESONA,
        CardType.KEY,
        CardType.PIECE_RELAY,
        CardType.ARTS_CRAFT,
        CardType.PIECE_CRAFT,
        CardType.SPELL_CRAFT,
        CardType.SIGNI_CRAFT,
        CardType.RESONA_CRAFT,
    }
)
CARD_FIELDS = {"card", "downed", "frozen", "under", "power_mod", "keywords", "awakened"}
KEYWORD_VALUES = ("lancer", "double_crush", "assassin", "shadow", "cannot_attack", "unguardable")
PLAYER_FIELDS = {"name", "lrig", "signi", "face_down", "refreshes_this_turn", "coins", "markers", *PILE_ZONES}
POSITION_PHASES = tuple(p for p in Phase if p != Phase.SETUP)  # a position starts in a turn's phase
CENTER_LRIG_TYPES = frozenset({CardType.LRIG})
ASSIST_LRIG_TYPES = frozenset({CardType.LRIG, CardType.ASSIST_LRIG})
FIELD_SIGNI_TYPES = frozenset({CardType.SIGNI, CardType.RESONA, CardType.SIGNI_CRAFT, CardType.RESONA_CRAFT})


class _PositionBuilder:
    def __init__(self, seed: int) -> None:
        self.new_id = _Ids(seed)
        self.state = GameState(seed=seed, status="active")

    def card(self, owner: str, ref: Any, where: str) -> tuple[str, Card, dict[str, Any]]:
        if isinstance(ref, str):
            spec: dict[str, Any] = {"card": ref}
        elif isinstance(ref, dict):
            spec = ref
            unknown = sorted(set(spec) - CARD_FIELDS)
            if unknown:
                raise InvalidPosition(f"{owner} {where}: unknown card field(s) {', '.join(unknown)}")
            if not isinstance(spec.get("card"), str):
                raise InvalidPosition(f"{owner} {where}: a card object needs 'card', a catalogue id")
        else:
            raise InvalidPosition(f"{owner} {where}: a card is a catalogue id or an object with 'card'")
        try:
            card = catalogue().get(spec["card"])
        except UnknownCard:
            raise InvalidPosition(f"{owner} {where}: unknown card id {spec['card']!r}") from None
        if card.is_token:
            raise InvalidPosition(
                f"{owner} {where}: {card.id} ({card.name}) is a token: no zone holds tokens"
            )
        iid = self.new_id()
        self.state.cards[iid] = card.id
        self.state.owners[iid] = owner
        return iid, card, spec

    def slot(self, owner: str, ref: Any, where: str, kinds: frozenset[CardType], what: str) -> Slot:
        iid, card, spec = self.card(owner, ref, where)
        if card.type not in kinds:
            raise InvalidPosition(
                f"{owner} {where}: {card.id} ({card.name}) is {kind_words(card)}, not {what}"
            )
        for flag in ("downed", "frozen", "awakened"):
            if flag in spec and not isinstance(spec[flag], bool):
                raise InvalidPosition(f"{owner} {where}: '{flag}' must be true or false")
        power_mod = spec.get("power_mod", 0)
        if not isinstance(power_mod, int) or isinstance(power_mod, bool):
            raise InvalidPosition(f"{owner} {where}: 'power_mod' must be a whole number")
        kws = spec.get("keywords", [])
        if not isinstance(kws, list) or any(k not in KEYWORD_VALUES for k in kws):
            raise InvalidPosition(
                f"{owner} {where}: 'keywords' must be a list drawn from {', '.join(KEYWORD_VALUES)}"
            )
        under_refs = spec.get("under", [])
        if not isinstance(under_refs, list):
            raise InvalidPosition(f"{owner} {where}: 'under' must be a list of cards")
        under = []
        for i, u in enumerate(under_refs):
            uid, _ucard, uspec = self.card(owner, u, f"{where} under[{i}]")
            if set(uspec) - {"card"}:
                raise InvalidPosition(f"{owner} {where} under[{i}]: a card under another takes no state")
            under.append(uid)
        if spec.get("awakened") and card.type != CardType.SIGNI:
            raise InvalidPosition(f"{owner} {where}: only a SIGNI can be awakened")
        return Slot(
            iid,
            bool(spec.get("downed", False)),
            bool(spec.get("frozen", False)),
            under,
            power_mod,
            list(kws),
            bool(spec.get("awakened", False)),
        )


def _one_lrig(fmt: str) -> tuple[str, ...]:
    return ("orig.setup.face-down",) if fmt == "original" else ("judge.position",)


def _zone_list(owner: str, pdata: dict[str, Any], zone: str) -> list[Any]:
    value = pdata.get(zone, [])
    if not isinstance(value, list):
        raise InvalidPosition(f"{owner} {zone}: a zone is a list of cards")
    return value


def build_position(position: dict[str, Any], seed: int) -> GameState:
    """The state a position describes, before anything of its phase has happened; ``InvalidPosition`` for
    a position that cannot exist."""
    if not isinstance(position, dict):
        raise InvalidPosition("a position is a JSON object")
    fmt = position.get("format", "diva")
    if fmt not in FORMATS:
        raise InvalidPosition(
            f"format {fmt!r} is not supported; supported: {', '.join(FORMATS)}", ("format.unsupported",)
        )
    turn, tp, fp = _turn_of(position)
    phase, step = _phase_of(position, turn, format_named(fmt).attack_steps)
    players = position.get("players")
    if not isinstance(players, dict) or set(players) - set(PLAYERS):
        raise InvalidPosition("'players' must be an object with p1 and p2")
    b = _PositionBuilder(seed)
    s = b.state
    s.turn, s.turn_player, s.first_player, s.phase, s.step, s.stage = turn, tp, fp, phase, step, "begin"
    s.format = fmt
    if "options" in position:  # the format's options (domain.formats), every one with its value
        try:
            s.options = format_named(fmt).resolve_options(position["options"])
        except IllegalAction as exc:
            raise InvalidPosition(exc.message, exc.rule_refs) from None
    for p in PLAYERS:
        _place_player(b, p, players.get(p), fmt)
    for iid in list(s.crushed):
        s.crushed.pop(iid)
    for p in PLAYERS:
        for iid in s.players[p].zones["check"]:
            s.crushed[iid] = "declined"  # cards already checked wait for rule processing to go to ener
    return s


def _turn_of(position: dict[str, Any]) -> tuple[int, str, str]:
    """The turn number, the turn player and the first player, which must agree (the first player takes the
    odd turns)."""
    turn = position.get("turn", 1)
    if not isinstance(turn, int) or isinstance(turn, bool) or turn < 1:
        raise InvalidPosition("'turn' must be a whole number from 1")
    tp = position.get("turn_player", "p1")
    if tp not in PLAYERS:
        raise InvalidPosition("'turn_player' must be p1 or p2")
    other = "p2" if tp == "p1" else "p1"
    fp = position.get("first_player") or (tp if turn % 2 == 1 else other)
    if fp not in PLAYERS:
        raise InvalidPosition("'first_player' must be p1 or p2")
    if (turn % 2 == 1) != (fp == tp):
        raise InvalidPosition(
            "the first player takes the odd turns: turn, turn_player and first_player disagree"
        )
    return turn, tp, fp


def _phase_of(position: dict[str, Any], turn: int, steps: Sequence[str]) -> tuple[str, str | None]:
    """The phase and, in the attack phase, the step the position starts in."""
    phase = position.get("phase", Phase.MAIN)
    if phase not in POSITION_PHASES:
        raise InvalidPosition(f"'phase' must be one of {', '.join(POSITION_PHASES)}")
    step = position.get("step")
    if phase == Phase.ATTACK:
        if turn == 1:
            raise InvalidPosition("the first turn of the game has no attack phase", ("attack.first-turn",))
        if step is not None and step not in steps:
            raise InvalidPosition(f"'step' must be one of {', '.join(steps)}")
        if step == Step.GUARD:
            raise InvalidPosition(
                "a position cannot start in the guard step: it needs an LRIG attack under way"
            )
    elif step is not None:
        raise InvalidPosition("'step' is only for the attack phase")
    return phase, step


def _place_player(b: _PositionBuilder, p: str, pdata: Any, fmt: str) -> None:
    if not isinstance(pdata, dict):
        raise InvalidPosition(f"{p}: a player needs at least a center LRIG")
    unknown = sorted(set(pdata) - PLAYER_FIELDS)
    if unknown:
        raise InvalidPosition(f"{p}: unknown field(s) {', '.join(unknown)}")
    ps = b.state.players[p]
    ps.name = str(pdata.get("name", p))
    ps.lrigs_face_up = True
    _place_lrigs(b, p, pdata.get("lrig"), fmt)
    _place_signi(b, p, pdata.get("signi", {}) or {})
    _place_face_down(b, p, pdata.get("face_down", {}) or {})
    for zone in PILE_ZONES:
        _place_pile(b, p, zone, _zone_list(p, pdata, zone))
    r = pdata.get("refreshes_this_turn", 0)
    if not isinstance(r, int) or isinstance(r, bool) or not 0 <= r <= 1:
        raise InvalidPosition(f"{p}: 'refreshes_this_turn' must be 0 or 1 (a second refresh ends the turn)")
    ps.refreshes_this_turn = r
    coins = pdata.get("coins", 0)
    if not isinstance(coins, int) or isinstance(coins, bool) or not 0 <= coins <= COIN_LIMIT:
        raise InvalidPosition(f"{p}: 'coins' must be a whole number from 0 to {COIN_LIMIT}")
    ps.coins = coins
    ps.coins_gained = coins  # the coins held were gained this game (rule effect.coins)
    markers = pdata.get("markers") or {}
    if not isinstance(markers, dict) or set(markers) - set(SIGNI_ZONES):
        raise InvalidPosition(f"{p} markers: the SIGNI zones are left, center and right")
    for zone, names in markers.items():
        if not isinstance(names, list) or any(not _marker_ok(m) for m in names):
            raise InvalidPosition(
                f"{p} markers: a zone holds a list of {', '.join(ZONE_MARKERS)} (hastalyk:p1 names whose)"
            )
        if names:
            ps.markers[zone] = list(names)


def _marker_ok(m: Any) -> bool:
    if not isinstance(m, str) or marker_kind(m) not in ZONE_MARKERS:
        return False
    return m == marker_kind(m) if marker_kind(m) not in MARKER_CARDS else m.partition(":")[2] in PLAYERS


def _place_lrigs(b: _PositionBuilder, p: str, lrig: Any, fmt: str) -> None:
    positions = format_named(fmt).lrig_positions
    if not isinstance(lrig, dict) or lrig.get("center") is None:
        raise InvalidPosition(f"{p}: the center LRIG is required")
    if set(lrig) - set(positions):
        raise InvalidPosition(f"{p} lrig: the LRIG zones are {' and '.join(positions)}", _one_lrig(fmt))
    for pos in LRIG_POSITIONS:
        if lrig.get(pos) is not None:
            kinds = CENTER_LRIG_TYPES if pos == "center" else ASSIST_LRIG_TYPES
            b.state.players[p].lrig[pos] = b.slot(p, lrig[pos], f"lrig {pos}", kinds, "an LRIG for that zone")


def _place_signi(b: _PositionBuilder, p: str, signi: Any) -> None:
    if not isinstance(signi, dict) or set(signi) - set(SIGNI_ZONES):
        raise InvalidPosition(f"{p} signi: the SIGNI zones are left, center and right")
    for zone in SIGNI_ZONES:
        if signi.get(zone) is not None:
            b.state.players[p].signi[zone] = b.slot(
                p, signi[zone], f"signi {zone}", FIELD_SIGNI_TYPES, "a SIGNI"
            )


def _place_face_down(b: _PositionBuilder, p: str, face_down: Any) -> None:
    """Face-down cards in the SIGNI zones (rule face-down.signi): zone -> a list of SIGNI (a card, or
    ``{"card", "under"}``), each turned face down where it is, so both players may see its front."""
    if not isinstance(face_down, dict) or set(face_down) - set(SIGNI_ZONES):
        raise InvalidPosition(f"{p} face_down: the SIGNI zones are left, center and right")
    for zone in SIGNI_ZONES:
        refs = face_down.get(zone) or []
        if not isinstance(refs, list):
            raise InvalidPosition(f"{p} face_down {zone}: a list of SIGNI turned face down there")
        for i, ref in enumerate(refs):
            spec = ref if isinstance(ref, dict) else {"card": ref}
            if set(spec) - {"card", "under"}:
                raise InvalidPosition(f"{p} face_down {zone}[{i}]: a face-down card takes no state but under")
            slot = b.slot(p, spec, f"face_down {zone}[{i}]", FIELD_SIGNI_TYPES, "a SIGNI")
            entry = {"iid": slot.iid, "under": list(slot.under), "seen_by": list(PLAYERS)}
            b.state.players[p].face_down.setdefault(zone, []).append(entry)


def _place_pile(b: _PositionBuilder, p: str, zone: str, refs: list[Any]) -> None:
    allowed = LRIG_ZONE_TYPES if zone in (Zone.LRIG_DECK, Zone.LRIG_TRASH) else MAIN_ZONE_TYPES
    if zone in (Zone.TRASH, Zone.EXCLUDED, Zone.CHECK):
        allowed = MAIN_ZONE_TYPES | LRIG_ZONE_TYPES
    for i, ref in enumerate(refs):
        if isinstance(ref, dict) and set(ref) - {"card"}:
            raise InvalidPosition(f"{p} {zone}[{i}]: only cards on the field take a state")
        iid, card, _ = b.card(p, ref, f"{zone}[{i}]")
        if card.type not in allowed:
            raise InvalidPosition(
                f"{p} {zone}[{i}]: {card.id} ({card.name}) cannot be in the {zone.replace('_', ' ')}"
            )
        b.state.players[p].zones[zone].append(iid)


def _begin(rec: Recorder, state: GameState) -> None:
    """A position starts before anything of its phase has happened (API "Positions"): where the beginning
    of the phase or step is itself a moment that abilities trigger on ("at the end of the turn", "at the
    start of your attack phase"), that beginning happens as in play, so that those abilities trigger."""
    if state.phase == "end":
        rec.emit("PhaseBegan", "rules", "end.phase", {"phase": "end"})
    elif state.phase == "attack" and state.step == "pre_attack":
        rec.emit("StepBegan", "rules", "attack.pre-attack", {"step": "pre_attack"})
    elif state.phase == "attack" and state.step == "arts_use":
        rec.emit("StepBegan", "rules", "orig.attack.arts-step", {"step": "arts_use"})


def create_position(position: dict[str, Any], seed: int = 0) -> list[Event]:
    """The events of a match that starts at a position: the position itself, then rule processing and the
    game running on until the first decision."""
    state = build_position(position, seed)
    rec = Recorder(GameState())
    rec.emit("PositionSet", "judge", "judge.position", {"state": state.to_dict()})
    _begin(rec, state)
    procedure.advance(rec)
    return finish(rec, Action("position", None, {"position": position, "seed": seed}))


# -- what rule processing changed in a position ---------------------------------------------------------

_FIXED_BY = {  # what each rule process did, in words (004 numbers them; see GET /rules)
    "rba.1": "had power 0 or less and was vanished into the ener zone",
    "rba.2": "was put into the trash (above the center LRIG's level, or the levels over the limit)",
    "rba.3": "lay under a SIGNI no longer on the field and went to the trash",
    "rba.4": "was a crushed card waiting in the check zone and went to the ener zone",
    "rba.6": "is a Resona outside its zones and returned to the LRIG deck",
    "rba.7": "is a Key outside its zones and went to the LRIG trash",
    "rba.9": "does not meet its limiting condition with this center LRIG and was put into the trash",
    "kw.soul": "lay under a SIGNI no longer on the field and went to the LRIG trash",
}


def position_warnings(events: list[Event]) -> list[str]:
    """Sentences saying what rule processing changed in a position as it was set (API "Positions": a board
    that rule processing would change is accepted and fixed at once), and any choice it waits for."""
    if not events or events[0].type != "PositionSet":
        return []
    cards: dict[str, str] = events[0].data["state"].get("cards", {})

    def named(iid: str) -> str:
        cid = cards.get(iid, iid)
        return f"{catalogue().get(cid).name} ({cid})" if cid in catalogue() else str(iid)

    out: list[str] = []
    for e in events[1:]:
        rule, d = e.rule, e.data
        if e.type == "Asked":
            if rule.startswith("rba."):
                prompt = d.get("prompt", "")
                out.append(f"rule processing ({rule}) waits for {d['player']} to choose: {prompt}")
            break
        if not (rule.startswith("rba.") or rule == "kw.soul"):
            continue
        who = d.get("player", "")
        if rule == "rba.5":
            out.append(f"rule processing (rba.5): {who}'s deck was empty, so {who} refreshed")
        elif rule == "rba.lrig-type":
            out.append(
                f"rule processing (rba.lrig-type): {who}'s {d.get('position')} LRIG shares its LRIG types "
                "with another LRIG and went to the LRIG trash"
            )
        else:
            what = d.get("cards") or [d.get("card")]
            where = f" in the {d['zone']} zone" if d.get("zone") else ""
            out.append(
                f"rule processing ({rule}): {who}'s {', '.join(named(i) for i in what if i)}{where} "
                f"{_FIXED_BY.get(rule, 'was moved')}"
            )
    return out
