"""The game state: what the fold of a match's events produces.

The state is plain data. ``copy()`` is cheap (it copies lists, not cards), so that ``decide`` can work on a
scratch copy and ``evolve`` can stay pure. ``to_dict()`` is the full, unredacted, canonical form, and
``digest()`` is its SHA-256: two states are the same position exactly when their digests are equal.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from dataclasses import dataclass, field
from typing import Any

from domain.kinds import FieldZone, Phase, Step, Zone
from domain.per_match import PerMatch

PLAYERS = ("p1", "p2")
SIGNI_ZONES = tuple(z.value for z in FieldZone)  # left, center, right
LRIG_POSITIONS = ("center", "left", "right")
# Zones that hold an ordered list of cards (index 0 of deck and life_cloth is the top).
PILE_ZONES = tuple(z.value for z in Zone)
# Zones whose cards nobody may look at (the owner sees the hand; the LRIG deck is the owner's to look at).
HIDDEN_FROM_OWNER = ("deck", "life_cloth")
HIDDEN_FROM_OPPONENT = ("hand", "deck", "life_cloth", "lrig_deck")
COIN_LIMIT = 5  # the most coins a player can hold
ZONE_MARKERS = ("virus", "hastalyk")  # what can be put in a SIGNI zone as a marker (not a card)
# a marker that has abilities of its own: the catalogue card that holds them (a token, never in a deck);
# such a marker is kept as "<kind>:<player>", the player who put it, whose abilities they are
MARKER_CARDS = {"hastalyk": "WXDi-P05-TK01A"}


def marker_kind(marker: str) -> str:
    """What a marker in a SIGNI zone is (``virus``, ``hastalyk``), without the player who put it."""
    return marker.split(":", 1)[0]


def marker_of(kind: str, player: str) -> str:
    """How a marker is kept once ``player`` puts it: one with abilities remembers whose they are."""
    return f"{kind}:{player}" if kind in MARKER_CARDS else kind


PHASES = tuple(p.value for p in Phase)
ATTACK_STEPS = tuple(s.value for s in Step)


def opponent(player: str) -> str:
    return "p2" if player == "p1" else "p1"


def facing(zone: str) -> str:
    """The opponent's SIGNI zone in front of one of ``zone``: players face each other."""
    return {"left": "right", "center": "center", "right": "left"}[zone]


@dataclass(slots=True)
class Slot:
    """A card on the field: an LRIG (with the LRIGs it grew from under it) or a SIGNI."""

    iid: str
    downed: bool = False
    frozen: bool = False
    under: list[str] = field(default_factory=list)
    power_mod: int = 0  # until end of turn
    keywords: list[str] = field(default_factory=list)  # granted until end of turn
    awakened: bool = False  # a SIGNI stays awakened while it is on the field

    def copy(self) -> Slot:
        return Slot(
            self.iid,
            self.downed,
            self.frozen,
            list(self.under),
            self.power_mod,
            list(self.keywords),
            self.awakened,
        )

    def to_dict(self) -> dict[str, Any]:
        # left out when not awakened: older states keep their digest
        extra = {"awakened": True} if self.awakened else {}
        return {
            "iid": self.iid,
            "downed": self.downed,
            "frozen": self.frozen,
            "under": list(self.under),
            "power_mod": self.power_mod,
            "keywords": list(self.keywords),
            **extra,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Slot:
        return cls(
            d["iid"],
            bool(d.get("downed", False)),
            bool(d.get("frozen", False)),
            list(d.get("under", ())),
            int(d.get("power_mod", 0)),
            list(d.get("keywords", ())),
            bool(d.get("awakened", False)),
        )


@dataclass(slots=True)
class PlayerState:
    name: str = ""
    lrig: dict[str, Slot | None] = field(default_factory=lambda: dict.fromkeys(LRIG_POSITIONS))
    signi: dict[str, Slot | None] = field(default_factory=lambda: dict.fromkeys(SIGNI_ZONES))
    zones: dict[str, list[str]] = field(default_factory=lambda: {z: [] for z in PILE_ZONES})
    refreshes_this_turn: int = 0
    mulligan: list[str] | None = None  # declared but not yet redrawn
    lrigs_face_up: bool = False
    coins: int = 0  # at most COIN_LIMIT
    # zone markers on this player's SIGNI zones (Virus ...): zone -> the markers there, in the order put
    markers: dict[str, list[str]] = field(default_factory=dict)
    # abilities held for the rest of the game (``AbilityHeld``): {"card": the card whose effect gave it,
    # "ability": its reference, "holder": "you" (the player) | "center_lrig" (whichever LRIG is the center)}
    held: list[dict[str, str]] = field(default_factory=list)
    # face-down cards in this player's SIGNI zones (rule face-down.signi): zone -> the cards there, in the
    # order turned, each {"iid", "under": the cards left under it, "seen_by": the players who may see its
    # front}. Such a card is not a SIGNI: a SIGNI may be put into its zone, and it is kept apart from it.
    face_down: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    # every coin gained this game, however many were paid since (rule effect.coins): what the events say, kept
    # for reading; the digest leaves it out, as it leaves out the turn's tally
    coins_gained: int = 0
    # effects on this player lasting for a stated time (``LastingEffectSet``, ``domain.durations``): each
    # {"what", its numbers, "window", "by_effect"}; an entry is replaced, never changed in place
    lasting: list[dict[str, Any]] = field(default_factory=list)

    def copy(self) -> PlayerState:
        return PlayerState(
            self.name,
            {k: (v.copy() if v else None) for k, v in self.lrig.items()},
            {k: (v.copy() if v else None) for k, v in self.signi.items()},
            {k: list(v) for k, v in self.zones.items()},
            self.refreshes_this_turn,
            None if self.mulligan is None else list(self.mulligan),
            self.lrigs_face_up,
            self.coins,
            {z: list(m) for z, m in self.markers.items()} if self.markers else {},
            list(self.held),  # its entries are never changed, only added
            {z: [fresh(e) for e in es] for z, es in self.face_down.items()} if self.face_down else {},
            self.coins_gained,
            list(self.lasting),  # likewise: an entry changed is a new one
        )

    def to_dict(self) -> dict[str, Any]:
        extra: dict[str, Any] = {"coins": self.coins} if self.coins else {}  # left out at 0: older states
        if self.markers:  # keep their digest; so are markers while there are none
            extra["markers"] = {z: list(m) for z, m in self.markers.items()}
        if self.held:  # and abilities held for the game, while there are none
            extra["held"] = [dict(h) for h in self.held]
        if self.face_down:  # and face-down cards, while there are none
            extra["face_down"] = {z: [fresh(e) for e in es] for z, es in self.face_down.items()}
        if self.coins_gained:  # and the coins gained this game, while none were
            extra["coins_gained"] = self.coins_gained
        if self.lasting:  # and effects lasting a stated time, while there are none
            extra["lasting"] = _deep(self.lasting)
        return {
            **extra,
            "name": self.name,
            "lrig": {k: (v.to_dict() if v else None) for k, v in self.lrig.items()},
            "signi": {k: (v.to_dict() if v else None) for k, v in self.signi.items()},
            "zones": {k: list(v) for k, v in self.zones.items()},
            "refreshes_this_turn": self.refreshes_this_turn,
            "mulligan": None if self.mulligan is None else list(self.mulligan),
            "lrigs_face_up": self.lrigs_face_up,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> PlayerState:
        zones = {z: list(d.get("zones", {}).get(z, ())) for z in PILE_ZONES}
        return cls(
            d.get("name", ""),
            {k: (Slot.from_dict(v) if v else None) for k, v in d["lrig"].items()},
            {k: (Slot.from_dict(v) if v else None) for k, v in d["signi"].items()},
            zones,
            int(d.get("refreshes_this_turn", 0)),
            None if d.get("mulligan") is None else list(d["mulligan"]),
            bool(d.get("lrigs_face_up", False)),
            int(d.get("coins", 0)),
            {z: list(m) for z, m in (d.get("markers") or {}).items()},
            [dict(h) for h in d.get("held", ())],
            {z: [fresh(e) for e in es] for z, es in (d.get("face_down") or {}).items()},
            int(d.get("coins_gained", 0)),
            _deep(list(d.get("lasting", ()))),
        )

    def signi_slots(self) -> list[tuple[str, Slot]]:
        return [(z, s) for z, s in self.signi.items() if s is not None]

    def find(self, iid: str) -> str | None:
        """Where this player's card is: a pile zone name, ``signi:<zone>``, ``lrig:<pos>`` or
        ``under:<signi|lrig>:<zone>``; None if not among this player's places."""
        for z, cards in self.zones.items():
            if iid in cards:
                return z
        for pos, s in self.lrig.items():
            if s is not None:
                if s.iid == iid:
                    return f"lrig:{pos}"
                if iid in s.under:
                    return f"under:lrig:{pos}"
        for zone, s in self.signi.items():
            if s is not None:
                if s.iid == iid:
                    return f"signi:{zone}"
                if iid in s.under:
                    return f"under:signi:{zone}"
        for zone, entries in self.face_down.items():
            for e in entries:
                if e["iid"] == iid:
                    return f"face_down:{zone}"
                if iid in e["under"]:
                    return f"under:face_down:{zone}"
        return None

    def face_down_cards(self) -> list[tuple[str, dict[str, Any]]]:
        """The face-down cards in this player's SIGNI zones: (zone, entry), in zone order."""
        return [(z, e) for z in SIGNI_ZONES for e in self.face_down.get(z, ())]


@dataclass(slots=True)
class GameState:
    version: int = 0
    format: str = "diva"
    seed: int = 0
    status: str = "setup"  # setup, active, finished
    turn: int = 0
    turn_player: str | None = None
    first_player: str | None = None
    phase: str = "setup"
    step: str | None = None
    stage: str = "begin"  # where the current phase or step stands: begin, done
    pending: dict[str, Any] | None = None
    players: dict[str, PlayerState] = field(default_factory=lambda: {p: PlayerState() for p in PLAYERS})
    cards: dict[str, str] = field(default_factory=dict)  # iid -> catalogue id
    owners: dict[str, str] = field(default_factory=dict)  # iid -> p1 / p2
    flags: dict[str, Any] = field(default_factory=dict)  # once-a-turn facts: ener, grow, remove, ...
    attack: dict[str, Any] | None = None  # the attack being resolved
    crushed: dict[str, str] = field(
        default_factory=dict
    )  # check-zone iid -> life burst: ask, used, declined, none
    limbo: list[str] = field(default_factory=list)  # cards left behind by a SIGNI that left the field (rba.3)
    winner: str | None = None
    result: dict[str, Any] | None = None
    waiting: list[dict[str, Any]] = field(default_factory=list)  # triggered abilities waiting to resolve
    used: dict[str, int] = field(default_factory=dict)  # "iid/ability" -> turn last used (1/Turn, 1/Game)
    # the match's takebacks (``domain.takebacks``): policy, takebacks used, the open request, the RNG's shift.
    # Not part of the position: a rewind keeps it, and the digest leaves it out.
    takebacks: dict[str, Any] = field(default_factory=dict)
    # the match's format options (``domain.formats.FormatOption``) as its first event recorded them; empty:
    # the format's defaults (every match before options existed, and every Diva Selection match)
    options: dict[str, Any] = field(default_factory=dict)

    def copy(self) -> GameState:
        return GameState(
            self.version,
            self.format,
            self.seed,
            self.status,
            self.turn,
            self.turn_player,
            self.first_player,
            self.phase,
            self.step,
            self.stage,
            None if self.pending is None else _deep(self.pending),
            {p: ps.copy() for p, ps in self.players.items()},
            self.cards,  # never mutated after creation: shared
            self.owners,
            dict(self.flags),
            None if self.attack is None else dict(self.attack),
            dict(self.crushed),
            list(self.limbo),
            self.winner,
            None if self.result is None else dict(self.result),
            [dict(w) for w in self.waiting],
            dict(self.used),
            _deep(self.takebacks) if self.takebacks else {},
            self.options,  # never mutated after creation: shared
        )

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "version": self.version,
            "format": self.format,
            "seed": self.seed,
            "status": self.status,
            "turn": self.turn,
            "turn_player": self.turn_player,
            "first_player": self.first_player,
            "phase": self.phase,
            "step": self.step,
            "stage": self.stage,
            "pending": None if self.pending is None else _deep(self.pending),
            "players": {p: ps.to_dict() for p, ps in self.players.items()},
            "cards": dict(self.cards),
            "owners": dict(self.owners),
            "flags": dict(self.flags),
            "attack": None if self.attack is None else dict(self.attack),
            "crushed": dict(self.crushed),
            "limbo": list(self.limbo),
            "winner": self.winner,
            "result": None if self.result is None else dict(self.result),
            "waiting": [dict(w) for w in self.waiting],
            "used": dict(self.used),
        }
        if self.takebacks:  # left out when empty: older states keep their form
            out["takebacks"] = _deep(self.takebacks)
        if self.options:  # likewise (and part of the position: the digest covers it)
            out["options"] = dict(self.options)
        return out

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> GameState:
        return cls(
            int(d["version"]),
            d.get("format", "diva"),
            int(d.get("seed", 0)),
            d["status"],
            int(d["turn"]),
            d.get("turn_player"),
            d.get("first_player"),
            d["phase"],
            d.get("step"),
            d.get("stage", "begin"),
            None if d.get("pending") is None else _deep(d["pending"]),
            {p: PlayerState.from_dict(ps) for p, ps in d["players"].items()},
            dict(d["cards"]),
            dict(d["owners"]),
            dict(d.get("flags", {})),
            None if d.get("attack") is None else dict(d["attack"]),
            dict(d.get("crushed", {})),
            list(d.get("limbo", ())),
            d.get("winner"),
            None if d.get("result") is None else dict(d["result"]),
            [dict(w) for w in d.get("waiting", ())],
            dict(d.get("used", {})),
            _deep(d.get("takebacks") or {}),
            dict(d.get("options") or {}),
        )

    def digest(self, *, include_version: bool = False) -> str:
        """SHA-256 of the canonical state. The version is left out by default, so that the state after a
        rewind to N has the digest of the state at N."""
        d = self.to_dict()
        if not include_version:
            d.pop("version")
        d.pop("takebacks", None)  # the match's takebacks are not the position
        for ps in d["players"].values():  # nor the coins gained this game: the events fix them too
            ps.pop("coins_gained", None)
        if "tally" in d["flags"]:  # this turn's events, kept for counting (``domain.tally``): events fix it
            d["flags"] = {k: v for k, v in d["flags"].items() if k != "tally"}
        # The card and owner maps (half the text) never change in a match: their canonical JSON is made once
        # per match and put in place of a marker no state can hold. The text is the same as canonical_json(d).
        d["cards"], d["owners"] = _CARDS_MARK, _OWNERS_MARK
        text = canonical_json(d)
        text = text.replace(f'"{_CARDS_MARK}"', _fixed_json(self.cards), 1)
        text = text.replace(f'"{_OWNERS_MARK}"', _fixed_json(self.owners), 1)
        return hashlib.sha256(text.encode()).hexdigest()

    # -- small queries used everywhere -------------------------------------------------------------

    def where(self, iid: str) -> tuple[str, str] | None:
        """(owner, place) of a card, place as in ``PlayerState.find``; limbo is ``limbo``."""
        owner = self.owners.get(iid)
        if owner is None:
            return None
        if iid in self.limbo:
            return owner, "limbo"
        place = self.players[owner].find(iid)
        return None if place is None else (owner, place)


def _deep(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _deep(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_deep(v) for v in value]
    return value


_CARDS_MARK = f"cards-{secrets.token_hex(16)}"  # markers made anew in every process: no state holds them
_OWNERS_MARK = f"owners-{secrets.token_hex(16)}"
_FIXED: PerMatch[str] = PerMatch()


def _fixed_json(mapping: dict[str, str]) -> str:
    """The canonical JSON of a match's card or owner map, made once per map (``domain.per_match``)."""
    return _FIXED.get(mapping, lambda: canonical_json(mapping))


def fresh(value: Any) -> Any:
    """A copy of plain data (dicts, lists and tuples of scalars) that shares nothing mutable with it: what
    ``copy.deepcopy`` gives for such data, several times faster."""
    t = type(value)
    if t is dict:
        return {k: fresh(v) for k, v in value.items()}
    if t is list:
        return [fresh(v) for v in value]
    if t is tuple:
        return tuple(fresh(v) for v in value)
    return value


def canonical_json(value: Any) -> str:
    """The one canonical JSON form: sorted keys, no spaces, UTF-8 characters kept."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
