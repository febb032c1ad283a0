"""The encoded abilities of cards, their vocabulary, and their description in the project's own words.

A card's entry is a list of abilities. An ability is an object:

- ``kind``: ``enter`` | ``auto`` | ``constant`` | ``action`` | ``life_burst`` | ``spell`` | ``piece`` |
  ``rise`` (Rise: the SIGNI goes onto the field only on top of a SIGNI of yours that fits its ``filter``)
- ``team``: true for a Team ability (valid only while the player's three LRIGs are of the card's team)
- ``once``: ``turn`` | ``twice`` | ``game`` (1/Turn, 2/Turn, 1/Game)
- ``timing``: for ``action``, ``piece`` and ``spell``: the use timings (``main``, ``attack``)
- ``trigger``: for ``auto``: ``{"on": ..., "during": condition}`` (see ``TRIGGERS``); ``during`` is checked
  when the event happens: the ability triggers only if it holds then; some triggers take a ``filter`` (the
  SIGNI the event is about) and ``signi_targeted`` a ``by`` (whose ability or effect, see ``BY``)
- ``condition``: a condition (see ``targets.CONDITIONS``) the ability needs to be used, or, for a constant, to
  apply; ``use_condition`` for a PIECE
- ``cost``: ``{"ener": [{"color", "n"}], "down": true, "discard": n | {"n", "filter", "up_to"}, "down_lrig":
  {"n", "filter"}, "down_signi": {"n", "filter"}, "trash_ener": {"n", "filter", "distinct"}, "coins": n,
  "exceed": n}``; ``discard`` may also be a list of parts of different kinds; for an ``enter`` ability the
  cost is optional: the player may pay it or not
- ``extra_cost``: for a spell or a PIECE, ``{"coins": n}`` (Bet) or ``{"exceed": n}``: a cost its player may
  add as it is used (action field ``extra``); the effect's condition ``extra_paid`` tells whether they did
- ``effect``: a list of steps (see ``effects.OPS``); ``{"op": "then"}`` splits it where targets of what
  follows are chosen only when it is reached

An ability can give a card another ability until end of turn (``grant_ability``): the gained ability is
written inside that step, and named ``<card id>#<ability index>.<n>`` (the n-th such step of that ability).

Cards with abilities that are not encoded are still played with their printed facts; their abilities are
resolved by a judge, and every view says so (``enforced: false``).
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from domain.facts import catalogue

KINDS = ("enter", "auto", "constant", "action", "life_burst", "spell", "piece", "rise")
TRIGGERS = (
    "attack",  # this SIGNI or LRIG attacks
    "vanished",  # this SIGNI is vanished
    "vanished_outside_battle",  # this SIGNI is vanished other than in battle
    "opponent_attacks",  # a SIGNI or LRIG of the opponent attacks
    "opponent_signi_attacks",  # a SIGNI of the opponent attacks
    "moved_zone",  # this SIGNI on the field moves to another of its player's SIGNI zones
    "attack_phase_start",  # the start of your attack phase
    "leaves_field",  # this SIGNI leaves the field (however it goes)
    "other_leaves_field",  # another SIGNI on your field leaves the field
    "milled",  # one or more cards are put from a deck into the trash by your effect
    "signi_enters",  # a SIGNI (fitting the trigger's "filter") enters your field, this one included
    "signi_attacks",  # a SIGNI on your field (fitting the trigger's "filter") attacks, this one included
    "drew",  # you draw a card outside the draw phase (once for each card)
    "discarded",  # you discard one or more cards by an effect of your own card (not as a cost)
    "turn_end",  # the end phase of your turn begins
    "each_turn_end",  # the end phase of any turn begins (yours or the opponent's)
    "soul_attached",  # a [Soul] is attached to this SIGNI
    "soul_attached_your_signi",  # a [Soul] is attached to a SIGNI on your field
    "enters",  # this SIGNI enters the field, however it enters (Harmony: not an [Enter] ability)
    "targeted",  # a SIGNI on your field becomes a target of the opponent's ability or effect
    "signi_targeted",  # a SIGNI of yours fitting the "filter" becomes a target of the opponent's (see BY)
)
BY = ("any", "assist_or_life_burst")  # whose ability or effect a signi_targeted trigger answers
ONCE = ("turn", "twice", "game")
COST_KEYS = ("ener", "down", "discard", "down_lrig", "down_signi", "trash_ener", "coins", "exceed")
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
)


class EncodingError(ValueError):
    """An encoding file says something outside the vocabulary: the message names card, ability and field."""


_EXTRA: list[Path] = []  # encodings read after the packaged ones (a directory of JSON files, or one file)


def use_encodings(*paths: str | Path) -> None:
    """Read the encodings in these files or directories too (after the packaged ones), from the next look-up
    on; with no paths, only the packaged ones. A card encoded twice is refused."""
    _EXTRA[:] = [Path(p) for p in paths]
    _data.cache_clear()
    _by_card.cache_clear()
    is_enforced.cache_clear()


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
    """The abilities that ``grant_ability`` (and a Soul's ``soul_grant``) steps among ``steps`` give, in
    printed order."""
    out: list[dict[str, Any]] = []
    for st in steps:
        if st.get("op") in ("grant_ability", "soul_grant"):
            out.append(st["ability"])
        for key in ("then", "else"):
            if isinstance(st.get(key), list):
                out.extend(granted_in(st[key]))
        for mode in st.get("modes", []):
            out.extend(granted_in(mode))
    return out


def granted_ref(card_id: str, index: int, ability: dict[str, Any]) -> str:
    """The name of an ability that the ability ``index`` of ``card_id`` gives."""
    for n, ab in enumerate(granted_in(abilities_of(card_id)[index].get("effect", []))):
        if ab is ability or ab == ability:
            return f"{card_id}#{index}.{n}"
    raise ValueError(f"{card_id} ability {index} gives no such ability")


def ability_at(card_id: str, ref: int | str) -> dict[str, Any]:
    """A card's own ability (by index), or an ability some card gives (by ``granted_ref`` name)."""
    if isinstance(ref, int):
        return abilities_of(card_id)[ref]
    source, _, path = ref.partition("#")
    index, _, n = path.partition(".")
    return granted_in(abilities_of(source)[int(index)].get("effect", []))[int(n)]


def rise_filter(card_id: str) -> dict[str, Any] | None:
    """The filter of the SIGNI a card with Rise is put on top of; None when it has no Rise."""
    for ab in abilities_of(card_id):
        if ab["kind"] == "rise":
            return dict(ab.get("filter", {}))
    return None


def encoded_cards() -> frozenset[str]:
    """The cards encoded under their own id (each has a scenario naming it)."""
    return frozenset(_data())


@cache
def is_enforced(card_id: str) -> bool:
    """Whether the service enforces everything the card does: it has no abilities, or all are encoded (under
    its id or another number of its reprint group). A token never is: the engine has no zone for tokens."""
    card = catalogue().get(card_id)
    if card.is_token:
        return False
    return not card.has_abilities or card.id in _by_card()


# -- description ----------------------------------------------------------------------------------


def describe(card_id: str) -> list[str]:
    """Each encoded ability of a card, described in the project's own words."""
    return [describe_ability(a) for a in abilities_of(card_id)]


def describe_ability(ab: dict[str, Any]) -> str:
    if ab["kind"] == "rise":
        from domain.abilities.targets import filter_text

        what = f"SIGNI {filter_text(ab.get('filter', {}))}".rstrip()
        return f"Rise: it is put onto the field only on top of a {what} on your field."
    if ab["kind"] == "constant":
        cond = f" while {_condition_text(ab['condition'])}" if ab.get("condition") else ""
        team = " (team)" if ab.get("team") else ""
        return f"Always{team}{cond}: " + "; ".join(_constant_text(st) for st in ab.get("effect", [])) + "."
    head = {
        "enter": "When it enters the field",
        "auto": _trigger_text(ab.get("trigger", {})),
        "constant": "Always",
        "action": "Action",
        "life_burst": "Life Burst",
        "spell": "Spell",
        "piece": "PIECE",
    }[ab["kind"]]
    parts = [head]
    if ab.get("team"):
        parts.append("(team)")
    if ab.get("once"):
        parts.append("(twice per turn)" if ab["once"] == "twice" else f"(once per {ab['once']})")
    if ab.get("condition"):
        parts.append(f"if {_condition_text(ab['condition'])}")
    if ab.get("cost"):
        parts.append(f"paying {_cost_text(ab['cost'])}" + (" (optional)" if ab["kind"] == "enter" else ""))
    if ab.get("extra_cost"):
        parts.append(f"(as it is used, you may also pay {_cost_text(ab['extra_cost'])})")
    return " ".join(parts) + ": " + "; ".join(_step_text(s) for s in ab.get("effect", [])) + "."


def _constant_text(st: dict[str, Any]) -> str:
    from domain.abilities.targets import target_text

    op = st["op"]
    if op == "power":
        spec = st["target"]
        who = "this SIGNI" if spec.get("self") else target_text({**spec, "all": True})
        return f"{who} gets {int(st.get('amount', 0)):+d} power"
    if op == "immune":
        by = "the opponent's" if st.get("by", "opponent") == "opponent" else "any"
        return f"this SIGNI cannot be {st.get('from', 'vanish')}ed by {by} effects"
    if op == "spell_cost":
        whose = "the opponent's" if st.get("whose", "opponent") == "opponent" else "your"
        add = ", ".join(f"{c['n']} {c['color']}" for c in st.get("add", []))
        return f"{whose} spells cost {add} more"
    if op == "vanished_to_trash":
        return "a SIGNI this SIGNI vanishes in battle goes to the trash instead of the ener zone"
    if op == "front_vanished_to_trash":
        return (
            "during an attack phase, the SIGNI in front of it goes to the trash instead of the ener zone "
            "when vanished"
        )
    if op == "keywords":
        return f"this card has {', '.join(st.get('keywords', []))}"
    if op == "lrig_attacks":
        downed = " even while downed" if st.get("downed") else ""
        return f"this LRIG can attack{downed}, up to {st.get('max', 1)} times this turn"
    if op == "soul_grant":
        gained = describe_ability(st["ability"]).rstrip(".")
        return f'the SIGNI this card is attached to as a Soul has "{gained}"'

    return op


def _trigger_text(trigger: dict[str, Any]) -> str:
    head = {
        "attack": "When it attacks",
        "vanished": "When it is vanished",
        "vanished_outside_battle": "When it is vanished other than in battle",
        "opponent_attacks": "When a SIGNI or LRIG of the opponent attacks",
        "opponent_signi_attacks": "When a SIGNI of the opponent attacks",
        "moved_zone": "When it moves to another SIGNI zone on the field",
        "attack_phase_start": "At the start of your attack phase",
        "leaves_field": "When it leaves the field",
        "other_leaves_field": "When another SIGNI on your field leaves the field",
        "milled": "When your effect puts cards from a deck into the trash",
        "signi_enters": "When a SIGNI{f} enters your field",
        "signi_attacks": "When a SIGNI{f} on your field attacks",
        "drew": "When you draw a card outside your draw phase",
        "discarded": "When your own effect makes you discard",
        "turn_end": "At the end of your turn",
        "each_turn_end": "At the end of each turn",
        "soul_attached": "When a Soul is attached to it",
        "soul_attached_your_signi": "When a Soul is attached to a SIGNI on your field",
        "enters": "When it enters the field (even when [Enter] abilities do not activate)",
        "targeted": "When a SIGNI on your field becomes a target of the opponent's ability or effect",
        "signi_targeted": "When a SIGNI{f} on your field becomes a target of the opponent's {by}",
    }.get(trigger.get("on", ""), "When triggered")
    head = head.replace(
        "{by}",
        "Assist LRIG or Life Burst" if trigger.get("by") == "assist_or_life_burst" else "ability or effect",
    )
    if "{f}" in head:
        from domain.abilities.targets import filter_text

        f = filter_text(trigger.get("filter", {}))
        head = head.replace("{f}", f" {f}" if f else "")
    if trigger.get("during"):
        head += f" while {_condition_text(trigger['during'])}"
    return head


def _cost_text(cost: dict[str, Any]) -> str:
    from domain.abilities.targets import filter_text

    out = []
    for item in cost.get("ener", []):
        out.append(f"{item['n']} {item['color']} ener")
    if cost.get("down"):
        out.append("downing it")
    discard = cost.get("discard")
    if isinstance(discard, list):  # parts, each of its own kind: "two cards and a SIGNI with Guard"
        parts = [f"{p.get('n', 1)} {filter_text(p.get('filter', {}))}".rstrip() for p in discard]
        out.append("discarding " + " and ".join(parts))
    elif isinstance(discard, dict) and discard.get("all"):
        out.append("discarding your whole hand")
    elif isinstance(discard, dict):
        up_to = "up to " if discard.get("up_to") else ""
        what = filter_text(discard.get("filter", {}))
        out.append(f"discarding {up_to}{discard.get('n', 1)} {what}".rstrip())
    elif discard:
        out.append(f"discarding {discard}")
    if cost.get("down_lrig"):
        d = cost["down_lrig"]
        out.append(f"downing {d.get('n', 1)} upped LRIG {filter_text(d.get('filter', {}))}".rstrip())
    if cost.get("down_signi"):
        d = cost["down_signi"]
        out.append(f"downing {d.get('n', 1)} upped SIGNI {filter_text(d.get('filter', {}))}".rstrip())
    if cost.get("trash_ener"):
        t = cost["trash_ener"]
        distinct = " of different classes" if t.get("distinct") else ""
        out.append(
            f"putting {t.get('n', 1)} {filter_text(t.get('filter', {}))}{distinct} from ener into the trash"
        )
    if cost.get("coins"):
        out.append(f"{cost['coins']} coin(s)")
    if cost.get("exceed"):
        n = cost["exceed"]
        out.append(f"exceed {n} ({n} cards from under your LRIGs into the LRIG trash)")
    return ", ".join(out) or "nothing"


def _condition_text(c: dict[str, Any]) -> str:
    from domain.abilities.targets import condition_text

    return condition_text(c)


def _step_text(step: dict[str, Any]) -> str:
    from domain.abilities.vocabulary import step_text

    return step_text(step)


# -- validation -----------------------------------------------------------------------------------


def problems(card_id: str, abilities: list[dict[str, Any]]) -> list[str]:
    """Everything in an encoding that is outside the vocabulary."""

    out: list[str] = []
    for i, ab in enumerate(abilities):
        out.extend(ability_problems(f"{card_id} ability {i + 1}", ab))
    return out


def ability_problems(where: str, ab: dict[str, Any]) -> list[str]:
    from domain.abilities.constants import CONSTANT_OPS
    from domain.abilities.targets import condition_problems
    from domain.abilities.vocabulary import step_problems

    out: list[str] = []
    if ab.get("kind") not in KINDS:
        return [f"{where}: unknown kind {ab.get('kind')!r}"]
    unknown = set(ab) - set(ABILITY_KEYS)
    if unknown:
        out.append(f"{where}: unknown field(s) {sorted(unknown)}")
    if ab["kind"] == "auto" and ab.get("trigger", {}).get("on") not in TRIGGERS:
        out.append(f"{where}: an auto ability needs a trigger from {TRIGGERS}")
    if ab["kind"] == "auto" and "during" in ab.get("trigger", {}):
        out.extend(f"{where}: {p}" for p in condition_problems(ab["trigger"]["during"]))
    if ab["kind"] == "auto":
        from domain.abilities.targets import FILTER_KEYS

        trig = ab.get("trigger", {})
        unknown = set(trig) - {"on", "during", "filter", "by"}
        if unknown:
            out.append(f"{where}: unknown trigger field(s) {sorted(unknown)}")
        if "filter" in trig and trig.get("on") not in ("signi_enters", "signi_attacks", "signi_targeted"):
            out.append(f"{where}: only signi_enters, signi_attacks and signi_targeted triggers take a filter")
        if "by" in trig and (trig.get("on") != "signi_targeted" or trig["by"] not in BY):
            out.append(f"{where}: only a signi_targeted trigger takes a by, one of {BY}")
        bad = set(trig.get("filter", {})) - set(FILTER_KEYS)
        if bad:
            out.append(f"{where}: unknown filter key(s) {sorted(bad)}")
    for k in ab.get("extra_cost", {}):
        if k not in EXTRA_COST_KEYS:
            out.append(f"{where}: an extra cost is one of {EXTRA_COST_KEYS}, not {k!r}")
    if "extra_cost" in ab and ab["kind"] not in ("spell", "piece"):
        out.append(f"{where}: only a spell or a PIECE has an extra cost")
    if "once" in ab and ab["once"] not in ONCE:
        out.append(f"{where}: once must be one of {ONCE}")
    if ab["kind"] == "rise":
        from domain.abilities.targets import FILTER_KEYS

        bad = set(ab.get("filter", {})) - set(FILTER_KEYS)
        if bad:
            out.append(f"{where}: unknown filter key(s) {sorted(bad)}")
    elif "filter" in ab:
        out.append(f"{where}: only a rise ability takes a filter")
    for key in ("condition", "use_condition"):
        if key in ab:
            out.extend(f"{where}: {p}" for p in condition_problems(ab[key]))
    for k in ab.get("cost", {}):
        if k not in COST_KEYS:
            out.append(f"{where}: unknown cost {k!r}")
    for j, step in enumerate(ab.get("effect", [])):
        if ab["kind"] == "constant":
            if step.get("op") not in CONSTANT_OPS:
                out.append(f"{where}: a constant ability's step must be one of {CONSTANT_OPS}")
            continue
        out.extend(f"{where}, step {j + 1}: {p}" for p in step_problems(step))
    return out
