"""The encoded abilities of cards, their vocabulary, and their description in the project's own words.

A card's entry is a list of abilities. An ability is an object:

- ``kind``: ``enter`` | ``auto`` | ``constant`` | ``action`` | ``life_burst`` | ``spell`` | ``piece`` |
  ``rise`` (Rise: the SIGNI goes onto the field only on top of a SIGNI of yours that fits its ``filter``;
  with ``under_from: trash`` and ``n``: only into an empty zone, with n cards of your trash that fit put
  under it, chosen as it is played: the play's ``under``; an effect does not put it onto the field) |
  ``harmony`` (Harmony: as the SIGNI enters the field, however it enters, its player downs the LRIGs its
  ``cost`` ``down_lrig`` names, or else the SIGNI is downed; run as ``harmony_as_auto`` says);
  an ARTS's effect is a ``spell`` ability (the card views call it ``arts``; ``use.use_arts`` uses it)
- ``team``: true for a Team ability (valid only while the player's three LRIGs are of the card's team), or the
  name of the team the card's text gives (for a card the catalogue gives no team)
- ``once``: ``turn`` | ``twice`` | ``game`` (1/Turn, 2/Turn, 1/Game)
- ``timing``: for ``action``, ``piece`` and ``spell``: the use timings (``main``, ``attack``)
- ``from``: for ``action``: ``trash`` | ``ener``: the ability is used while its card lies in that zone of its
  owner, not on the field ("this ability can only be used while this card is in your trash")
- ``trigger``: for ``auto``: ``{"on": event, "whose", "zone", "phase", "by", "filter", "during": condition}``
  (see ``trigger_words``: one general form; the older names such as ``attack`` or ``turn_end`` are aliases);
  ``during`` is checked when the event happens: the ability triggers only if it holds then
- ``condition``: a condition (see ``conditions``: ``compare`` and the other condition words) the ability needs
  to be used, or, for a constant, to apply; ``use_condition`` for a PIECE or a spell ("can only be used if");
  ``cost_less`` for a PIECE: ``{"color", "per", "while"}``, its use cost that colour less for each of what
  ``per`` counts while ``while`` holds
- ``cost``: ``{"ener": [{"color", "n"}], "down": true, "discard": n | {"n", "filter", "up_to"}, "down_lrig":
  {"n", "filter"}, "down_signi": {"n", "filter"}, "trash_ener": {"n" | "total_level", "filter", "distinct"},
  "coins": n, "exceed": n, "put_signi": {"self" | "n", "filter", "another", "all", "to": "trash" | "ener"},
  "self_to": "deck_bottom" | "discard" | "excluded" | "trash", "power_self": n, "mill": n}`` (``put_signi``:
  put this SIGNI, n SIGNI of yours, or all of them, into the trash or the ener zone; ``self_to``: this card
  goes onto its owner's deck bottom, is discarded from the hand, is removed from the game from the zone its
  ability is used from, or is put from the ener zone into the trash; ``total_level``: any number of cards
  whose levels
  total exactly that; ``power_self``: this SIGNI gets n power, a minus, until end of turn; ``mill``: put the
  top n cards of your deck into the trash; ``trash_ener`` ``all``: every card of the ener zone that fits;
  ``reveal``: ``{"n", "filter"}``: reveal that many cards of your hand that fit;
  ``remove_marker``: ``{"marker": "virus", "side": "opponent" | "you"}``: remove one such marker from a SIGNI
  zone of that field; ``trash_under``: ``{"n", "filter", "shared": "name"}``: put n cards (of one name)
  from under this card into the trash;
  ``trash_to_deck``: ``{"n", "filter", "shared": "color"}``: shuffle n cards of your trash (that share a
  colour) into your deck; ``exclude_piece``: n: remove n PIECEs in your LRIG deck from the game; ``crush``:
  n: crush the top n of your Life Cloth, whose Life Bursts activate);
  ``discard`` may also be a list of parts of different kinds; for an ``enter`` ability the cost is optional:
  the player may pay it or not
- ``extra_cost``: for a spell or a PIECE, ``{"coins": n}`` (Bet) or ``{"exceed": n}``: a cost its player may
  add as it is used (action field ``extra``); the effect's condition ``extra_paid`` tells whether they did
- ``cut_in_piece``: for a PIECE, a filter: besides its own timings, it may be used as a cut-in just after the
  opponent uses a PIECE that fits the filter (``{"team": true}``: a PIECE with a Team use condition), before
  that PIECE resolves (rule ``piece.cut-in``)
- ``effect``: a list of steps (see ``effects.OPS``); ``{"op": "then"}`` splits it where targets of what
  follows are chosen only when it is reached

An ability can give a card another ability until end of turn (``grant_ability``), or give a player or their
center LRIG one for the rest of the game (``hold_ability``): the gained ability is written inside that step,
and named ``<card id>#<ability index>.<n>`` (the n-th such step of that ability; the abilities that those
abilities give in their turn, a held constant's ``grant_ability``, are numbered after them).

Cards with abilities that are not encoded are still played with their printed facts; their abilities are
resolved by a judge, and every view says so (``enforced: false``).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from domain.abilities.conditions import condition_problems, condition_text
from domain.abilities.constant_words import constant_problems, constant_text, describe_abilities_with
from domain.abilities.filters import FILTER_KEYS, filter_text
from domain.abilities.measures import per_problems, per_text
from domain.abilities.trigger_words import TRIGGERS, trigger_problems, trigger_text
from domain.abilities.vocabulary import step_problems, step_text
from domain.facts import catalogue
from domain.state import MARKER_CARDS, ZONE_MARKERS

__all__ = ["TRIGGERS", "EncodingError", "abilities_of", "describe", "describe_ability", "problems"]

Ability = dict[str, Any]
KINDS = ("enter", "auto", "constant", "action", "life_burst", "spell", "piece", "rise", "harmony")
ONCE = ("turn", "twice", "game")
COST_KEYS = (
    "ener",
    "down",
    "discard",
    "down_lrig",
    "down_signi",
    "trash_ener",
    "coins",
    "exceed",
    "put_signi",
    "mill",
    "self_to",
    "power_self",
    "remove_marker",
    "trash_under",
    "trash_to_deck",
    "reveal",
    "exclude_piece",
    "crush",
)
SELF_TO = ("deck_bottom", "discard", "excluded", "trash")  # cost "self_to": this card goes there as the
# cost; "discard": it is discarded from the hand (an [Action] used from the hand); "excluded": it is removed
# from the game from the zone it is used from (an [Action] used from the trash or the ener zone); "trash":
# it is put from the ener zone into the trash (an [Action] used from the ener zone)
FROM_ZONES = ("trash", "ener")  # "from": the zone of its owner an [Action] ability is used from
EXTRA_COST_KEYS = ("coins", "exceed")  # what an "extra_cost" (Bet, an optional Exceed) may ask
ABILITY_KEYS = (
    "kind",
    "team",
    "once",
    "timing",
    "trigger",
    "condition",
    "use_condition",
    "cost",
    "effect",
    "note",
    "filter",
    "extra_cost",
    "from",
    "n",
    "under_from",
    "cut_in_piece",
    "cost_less",
)


class EncodingError(ValueError):
    """An encoding file says something outside the vocabulary: the message names card, ability and field."""


_EXTRA: list[Path] = []  # encodings read after the packaged ones (a directory of JSON files, or one file)
_FORGET: list[Callable[[], None]] = []  # what other modules remember of the encodings (their caches)


def forget_with_encodings(clear: Callable[[], None]) -> None:
    """Have ``clear`` called whenever the encodings read change (``use_encodings``)."""
    _FORGET.append(clear)


def use_encodings(*paths: str | Path) -> None:
    """Read the encodings in these files or directories too (after the packaged ones), from the next look-up
    on; with no paths, only the packaged ones. A card encoded twice is refused."""
    _EXTRA[:] = [Path(p) for p in paths]
    _data.cache_clear()
    _by_card.cache_clear()
    is_enforced.cache_clear()
    for clear in _FORGET:
        clear()


def _files() -> list[tuple[str, str]]:
    """(name, text) of every encoding file: the packaged ones by name, then the extra ones."""
    root = resources.files("domain") / "data" / "abilities"
    out = [(e.name, e.read_text(encoding="utf-8")) for e in sorted(root.iterdir(), key=lambda e: e.name)]
    for extra in _EXTRA:
        files = sorted(extra.glob("*.json")) if extra.is_dir() else [extra]
        out.extend((str(f), f.read_text(encoding="utf-8")) for f in files)
    return [(name, text) for name, text in out if name.endswith(".json")]


@cache
def _data() -> dict[str, list[dict[str, Any]]]:
    """Every card's encoded abilities, each checked against the vocabulary as it loads."""
    out: dict[str, list[dict[str, Any]]] = {}
    for name, text in _files():
        for card_id, abilities in json.loads(text).items():
            if card_id in out:
                raise EncodingError(f"abilities of {card_id} are encoded twice ({name})")
            found = problems(card_id, abilities)
            if found:
                raise EncodingError(f"{name}: " + "; ".join(found))
            out[card_id] = abilities
    return out


@cache
def _by_card() -> dict[str, list[dict[str, Any]]]:
    """The encodings by card id, reprints included: a number of a reprint group (``Card.reprints``) with no
    encoding of its own plays the encoding of the group's first encoded number (the first printing first).
    A reprint is the same card, so it does the same thing whichever number the judge typed."""
    data = _data()
    out = dict(data)
    cat = catalogue()
    for card_id in data:
        if card_id not in cat:
            continue
        group = cat.get(card_id).reprints
        source = next((g for g in group if g in data), card_id)
        for other in group:
            out.setdefault(other, data[source])
    return out


def abilities_of(card_id: str) -> list[dict[str, Any]]:
    """The encoded abilities of a card (an empty list when it has none, or none are encoded); a reprint
    without an encoding of its own has its group's (``_by_card``)."""
    return _by_card().get(card_id, [])


def granted_in(steps: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The abilities that ``grant_ability`` (and a Soul's ``soul_grant``, ``hold_ability``) steps among
    ``steps`` give, in printed order; after them, those that the given abilities give in their turn (a held
    constant that gives SIGNI an ability), so that the first ones keep their numbers."""
    out = _granted_here(steps)
    for ab in list(out):
        out.extend(granted_in(ab.get("effect", [])))
    return out


def _granted_here(steps: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for st in steps:
        if st.get("op") in ("grant_ability", "soul_grant", "hold_ability"):
            out.append(st["ability"])
        for key in ("then", "else"):
            if isinstance(st.get(key), list):
                out.extend(_granted_here(st[key]))
        for mode in st.get("modes", []):
            out.extend(_granted_here(mode))
    return out


def granted_ref(card_id: str, index: int, ability: dict[str, Any]) -> str:
    """The name of an ability that the ability ``index`` of ``card_id`` gives."""
    for n, ab in enumerate(granted_in(abilities_of(card_id)[index].get("effect", []))):
        if ab is ability or ab == ability:
            return f"{card_id}#{index}.{n}"
    raise ValueError(f"{card_id} ability {index} gives no such ability")


def harmony_as_auto(ab: dict[str, Any]) -> dict[str, Any]:
    """The ability as the judge runs it. Harmony (000 'Harmony') is not an [Enter] ability: it triggers when
    its SIGNI enters the field, however it enters (even when [Enter] abilities do not activate); its player
    may down LRIGs that meet its requirement, and if they do not (or cannot), the SIGNI itself is downed."""
    if ab["kind"] != "harmony":
        return ab
    return {
        "kind": "auto",
        "keyword": "harmony",
        "trigger": {"on": "enters"},
        "effect": [{"op": "may_pay", "cost": ab["cost"], "else": [{"op": "down", "target": {"self": True}}]}],
    }


def ability_at(card_id: str, ref: int | str) -> dict[str, Any]:
    """A card's own ability (by index), or an ability some card gives (by ``granted_ref`` name), as the judge
    runs it (``harmony_as_auto``)."""
    if isinstance(ref, int):
        return harmony_as_auto(abilities_of(card_id)[ref])
    if "@" in ref:  # an ability of a zone marker: "<its token card>@<index>" (``state.MARKER_CARDS``)
        token, _, at = ref.partition("@")
        return harmony_as_auto(abilities_of(token)[int(at)])
    source, _, path = ref.partition("#")
    index, _, n = path.partition(".")
    return granted_in(abilities_of(source)[int(index)].get("effect", []))[int(n)]


def rise_filter(card_id: str) -> dict[str, Any] | None:
    """The filter of the SIGNI a card with Rise is put on top of; None when it has no Rise."""
    for ab in abilities_of(card_id):
        if ab["kind"] == "rise":
            return dict(ab.get("filter", {}))
    return None


def rise_from(card_id: str) -> tuple[str, int, dict[str, Any]] | None:
    """A Rise that puts the SIGNI into an empty zone with cards of a zone of yours under it ("with two
    <Valor> SIGNI of your trash under it"): the zone, how many, and the filter they fit; None for a Rise on
    top of a SIGNI, or none."""
    for ab in abilities_of(card_id):
        if ab["kind"] == "rise" and "under_from" in ab:
            return str(ab["under_from"]), int(ab.get("n", 1)), dict(ab.get("filter", {}))
    return None


def encoded_cards() -> frozenset[str]:
    """The cards encoded under their own id (each has a scenario naming it)."""
    return frozenset(_data())


@cache
def is_enforced(card_id: str) -> bool:
    """Whether the service enforces everything the card does: it has no abilities, or all are encoded (under
    its id or another number of its reprint group). A token never is (the engine has no zone for tokens),
    but for the token that is a zone marker's card (``state.MARKER_CARDS``: a Hastalyk), whose abilities run
    from the SIGNI zone the marker is in."""
    card = catalogue().get(card_id)
    if card.is_token:
        return card.id in MARKER_CARDS.values() and card.id in _by_card()
    return not card.has_abilities or card.id in _by_card()


# -- description ----------------------------------------------------------------------------------


def describe(card_id: str) -> list[str]:
    """Each encoded ability of a card, described in the project's own words."""
    return [describe_ability(a) for a in abilities_of(card_id)]


_HEADS = {
    "enter": "When it enters the field",
    "constant": "Always",
    "action": "Action",
    "life_burst": "Life Burst",
    "spell": "Spell",
    "piece": "PIECE",
}


def _team_text(ab: Ability, lead: str) -> str:
    if not ab.get("team"):
        return ""
    return f"{lead}(team {ab['team']})" if isinstance(ab["team"], str) else f"{lead}(team)"


def describe_ability(ab: Ability) -> str:
    if ab["kind"] == "rise":
        what = f"SIGNI {filter_text(ab.get('filter', {}))}".rstrip()
        if "under_from" in ab:
            return (
                f"Rise: it is put onto the field only into an empty SIGNI zone, with {ab.get('n', 1)} {what} "
                f"of your {ab['under_from']} put under it."
            )
        return f"Rise: it is put onto the field only on top of a {what} on your field."
    if ab["kind"] == "harmony":
        return (
            f"Harmony: as it enters the field (however it enters), you may pay {_cost_text(ab['cost'])}; "
            "if you do not, it is downed."
        )
    if ab["kind"] == "constant":
        cond = f" while {condition_text(ab['condition'])}" if ab.get("condition") else ""
        team = _team_text(ab, " ")
        return f"Always{team}{cond}: " + "; ".join(constant_text(st) for st in ab.get("effect", [])) + "."
    head = trigger_text(ab.get("trigger", {})) if ab["kind"] == "auto" else _HEADS[ab["kind"]]
    parts = [head]
    if ab.get("team"):
        parts.append(_team_text(ab, ""))
    if ab.get("once"):
        parts.append("(twice per turn)" if ab["once"] == "twice" else f"(once per {ab['once']})")
    if ab.get("condition"):
        parts.append(f"if {condition_text(ab['condition'])}")
    if ab.get("cost"):
        parts.append(f"paying {_cost_text(ab['cost'])}" + (" (optional)" if ab["kind"] == "enter" else ""))
    if ab.get("extra_cost"):
        parts.append(f"(as it is used, you may also pay {_cost_text(ab['extra_cost'])})")
    if "cost_less" in ab:
        less = ab["cost_less"]
        parts.append(
            f"(while {condition_text(less['while'])}, its use cost is {less['color']} less"
            f"{per_text(less['per'])})"
        )
    if "cut_in_piece" in ab:
        what = f"a PIECE {filter_text(ab['cut_in_piece'])}".rstrip()
        parts.append(f"(it may also be used as a cut-in just after the opponent uses {what})")
    return " ".join(parts) + ": " + "; ".join(step_text(s) for s in ab.get("effect", [])) + "."


describe_abilities_with(describe_ability)


def _cost_less_problems(ab: Ability) -> list[str]:
    """``cost_less`` (a PIECE): ``{"color", "per": measure, "while": condition}``: while the condition holds,
    its use cost is that colour less once for each of what the measure counts (rule piece.cost-less)."""
    less = ab["cost_less"]
    if ab["kind"] != "piece" or not isinstance(less, dict) or set(less) != {"color", "per", "while"}:
        return ["only a PIECE takes cost_less: {color, per, while}"]
    return [*per_problems(less["per"]), *condition_problems(less["while"])]


def _discard_text(discard: Any) -> str | None:
    if isinstance(discard, list):  # parts, each of its own kind: "two cards and a SIGNI with Guard"
        parts = [f"{p.get('n', 1)} {filter_text(p.get('filter', {}))}".rstrip() for p in discard]
        return "discarding " + " and ".join(parts)
    if isinstance(discard, dict) and discard.get("all"):
        return "discarding your whole hand"
    if isinstance(discard, dict):
        up_to = "up to " if discard.get("up_to") else ""
        what = filter_text(discard.get("filter", {}))
        return f"discarding {up_to}{discard.get('n', 1)} {what}".rstrip()
    return f"discarding {discard}" if discard else None


def _cost_text(cost: dict[str, Any]) -> str:
    out = [f"{item['n']} {item['color']} ener" for item in cost.get("ener", [])]
    if cost.get("down"):
        out.append("downing it")
    discard = _discard_text(cost.get("discard"))
    if discard is not None:
        out.append(discard)
    for key, what in (("down_lrig", "LRIG"), ("down_signi", "SIGNI")):
        if cost.get(key):
            d = cost[key]
            out.append(f"downing {d.get('n', 1)} upped {what} {filter_text(d.get('filter', {}))}".rstrip())
    if cost.get("trash_ener"):
        t = cost["trash_ener"]
        distinct = {"level": " of different levels"}.get(str(t.get("distinct")), " of different classes")
        distinct = distinct if t.get("distinct") else ""
        n = (
            "all the cards"
            if t.get("all")
            else f"cards of total level {t['total_level']}"
            if "total_level" in t
            else t.get("n", 1)
        )
        what = f"{n} {filter_text(t.get('filter', {}))}{distinct}".replace("  ", " ").rstrip()
        out.append(f"putting {what} from ener into the trash")
    if cost.get("mill"):
        out.append(f"putting the top {cost['mill']} of your deck into the trash")
    if cost.get("exclude_piece"):
        out.append(f"removing {cost['exclude_piece']} PIECE(s) in your LRIG deck from the game")
    if cost.get("trash_to_deck"):
        t = cost["trash_to_deck"]
        shared = " that share a colour" if t.get("shared") == "color" else ""
        what = f"{t.get('n', 1)} cards {filter_text(t.get('filter', {}))}".replace("  ", " ").rstrip()
        out.append(f"shuffling {what}{shared} from your trash into your deck")
    if cost.get("reveal"):
        shown = cost["reveal"]
        what = f"{shown.get('n', 1)} card(s) {filter_text(shown.get('filter', {}))}".replace(
            "  ", " "
        ).rstrip()
        out.append(f"revealing {what} from your hand")
    if cost.get("trash_under"):
        t = cost["trash_under"]
        what = f"{t.get('n', 1)} {filter_text(t.get('filter', {}))}".rstrip()
        what += " of the same name" if t.get("shared") == "name" else ""
        out.append(f"putting {what} from under it into the trash")
    if cost.get("coins"):
        out.append(f"{cost['coins']} coin(s)")
    if cost.get("crush"):
        out.append(f"crushing {cost['crush']} of your Life Cloth")
    if cost.get("exceed"):
        n = cost["exceed"]
        out.append(f"exceed {n} ({n} cards from under your LRIGs into the LRIG trash)")
    if cost.get("power_self"):
        out.append(f"this SIGNI getting {int(cost['power_self']):+d} power until end of turn")
    if cost.get("remove_marker"):
        m = cost["remove_marker"]
        whose = "your" if m.get("side") == "you" else "the opponent's"
        out.append(f"removing a {str(m.get('marker', 'marker')).capitalize()} from {whose} field")
    if cost.get("self_to") == "discard":
        out.append("discarding this card from your hand")
    elif cost.get("self_to") == "excluded":
        out.append("removing this card from the game")
    elif cost.get("self_to") == "trash":
        out.append("putting this card from the ener zone into the trash")
    elif cost.get("self_to"):
        out.append("putting this card from the field onto the bottom of its owner's deck")
    if cost.get("put_signi"):
        c = cost["put_signi"]
        if c.get("self"):
            which = "this SIGNI"
        elif c.get("all"):
            which = "all your SIGNI"
        else:
            other = " other" if c.get("another") else ""
            what = filter_text(c.get("filter", {}))
            which = f"{c.get('n', 1)}{other} SIGNI {what} of yours".replace("  ", " ")
        out.append(f"putting {which} into the {c.get('to', 'trash')}".replace(" ener", " ener zone"))
    return ", ".join(out) or "nothing"


def _condition_text(c: dict[str, Any]) -> str:
    return condition_text(c)


def _step_text(step: dict[str, Any]) -> str:
    return step_text(step)


# -- validation -----------------------------------------------------------------------------------


def problems(card_id: str, abilities: list[Ability]) -> list[str]:
    """Everything in an encoding that is outside the vocabulary."""

    out: list[str] = []
    for i, ab in enumerate(abilities):
        out.extend(ability_problems(f"{card_id} ability {i + 1}", ab))
    return out


def _shape_problems(ab: Ability) -> list[str]:
    """The ability's own fields: known ones, and those only some kinds take."""
    out: list[str] = []
    unknown = set(ab) - set(ABILITY_KEYS)
    if unknown:
        out.append(f"unknown field(s) {sorted(unknown)}")
    for k in ab.get("extra_cost", {}):
        if k not in EXTRA_COST_KEYS:
            out.append(f"an extra cost is one of {EXTRA_COST_KEYS}, not {k!r}")
    if "extra_cost" in ab and ab["kind"] not in ("spell", "piece"):
        out.append("only a spell or a PIECE has an extra cost")
    if "cut_in_piece" in ab and (
        ab["kind"] != "piece"
        or not isinstance(ab["cut_in_piece"], dict)
        or set(ab["cut_in_piece"]) - set(FILTER_KEYS)
    ):
        out.append("only a PIECE takes cut_in_piece: a filter of the opponent's PIECE it may cut in to")
    if "cost_less" in ab:
        out.extend(_cost_less_problems(ab))
    if "team" in ab and not isinstance(ab["team"], (bool, str)):
        out.append("team is true or the name of a team")
    if "once" in ab and ab["once"] not in ONCE:
        out.append(f"once must be one of {ONCE}")
    if ab["kind"] == "rise":
        bad = set(ab.get("filter", {})) - set(FILTER_KEYS)
        if bad:
            out.append(f"unknown filter key(s) {sorted(bad)}")
        if ab.get("under_from", "trash") != "trash" or ("n" in ab) != ("under_from" in ab):
            out.append("a rise from a zone names it (under_from: trash) and how many cards (n)")
    elif "filter" in ab or "n" in ab or "under_from" in ab:
        out.append("only a rise ability takes a filter, n or under_from")
    if ab["kind"] == "harmony" and (set(ab.get("cost", {})) != {"down_lrig"} or "effect" in ab):
        out.append("a harmony ability has a cost of down_lrig only, and no effect")
    for key in ("condition", "use_condition"):
        if key in ab:
            out.extend(condition_problems(ab[key]))
    out.extend(f"unknown cost {k!r}" for k in ab.get("cost", {}) if k not in COST_KEYS)
    put = ab.get("cost", {}).get("put_signi", {})
    bad_put = set(put) - {"self", "n", "filter", "another", "all", "to"}
    bad_filter = set(put.get("filter", {})) - set(FILTER_KEYS)
    if bad_put or bad_filter or put.get("to", "trash") not in ("trash", "ener"):
        out.append(f"cost put_signi: unknown key(s) {sorted(bad_put)} or zone, or filter")
    if "self_to" in ab.get("cost", {}) and ab["cost"]["self_to"] not in SELF_TO:
        out.append(f"cost self_to must be one of {SELF_TO}")
    if ab.get("cost", {}).get("self_to") == "discard" and ab["kind"] != "action":
        out.append("only an action ability is used from the hand by discarding its card")
    if "from" in ab and (ab["kind"] != "action" or ab["from"] not in FROM_ZONES):
        out.append(f"only an action ability is used from a zone, one of {FROM_ZONES}")
    if ab.get("cost", {}).get("self_to") == "excluded" and "from" not in ab:
        out.append("only an action ability used from a zone removes its card from the game as its cost")
    if ab.get("cost", {}).get("self_to") == "trash" and ab.get("from") != "ener":
        out.append("only an action ability used from the ener zone puts its card into the trash as its cost")
    marker = ab.get("cost", {}).get("remove_marker")
    if marker is not None and (
        not isinstance(marker, dict)
        or set(marker) - {"marker", "side"}
        or marker.get("marker") not in ZONE_MARKERS
        or marker.get("side", "opponent") not in ("you", "opponent")
    ):
        out.append(f"cost remove_marker: a marker of {ZONE_MARKERS} and a side (you, opponent)")
    if "down" in ab.get("cost", {}) and ab.get("kind") not in ("action", "enter", "auto"):
        out.append(DOWN_COST_PROBLEM)
    return out


# An [Action] ability pays "down this card" as it is used (domain.abilities.use), an [Enter] or [Auto]
# ability as its optional cost is paid (effects.paying, ``may_pay``); anywhere else the cost would be shown
# and counted as paid while the card stays up, so such an encoding is refused until the engine pays it there.
DOWN_COST_PROBLEM = "cost 'down' (down this card) is paid only by an action, enter or auto ability"


def ability_problems(where: str, ab: Ability) -> list[str]:
    if ab.get("kind") not in KINDS:
        return [f"{where}: unknown kind {ab.get('kind')!r}"]
    out = [f"{where}: {p}" for p in _shape_problems(ab)]
    if ab["kind"] == "auto":
        out.extend(f"{where}: {p}" for p in trigger_problems(ab.get("trigger", {})))
    for j, step in enumerate(ab.get("effect", [])):
        if ab["kind"] == "constant":
            out.extend(f"{where}: {p}" for p in constant_problems(step))
            continue
        out.extend(f"{where}, step {j + 1}: {p}" for p in step_problems(step))
    return out
