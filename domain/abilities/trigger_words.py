"""The "when ..." of triggered abilities: one general form, and the older trigger names as aliases of it.

The one core word of triggers is ``when`` (``WORDS``): a trigger is ``{"on": event, "whose": ..., "zone":
..., "phase": ..., "by": ..., "filter": {...}, "during": condition}``:

- ``on``: what happens (``EVENTS``): ``attacks``, ``enters``, ``vanished``, ``vanishes`` (this SIGNI vanishes
  an opponent's SIGNI), ``power_zero``, ``leaves_field``, ``trashed`` (a SIGNI is put from the field into the
  trash), ``moved_zone``, ``phase_starts``, ``draws``, ``discards``, ``mills``, ``grows``, ``spell_used``,
  ``exceeded``, ``guards``, ``refreshes``, ``loses_life_cloth``, ``soul_attached``, ``becomes_target``,
  ``risen`` (a SIGNI with Rise is put on top of this one; ``filter``: the SIGNI put on top);
- ``whose``: whose card it happens to: ``this`` (this card), ``you`` (a card of yours: this one included when
  it still is where the event leaves it), ``other`` (another card of yours), ``opponent``, or ``any``
  (whoever's turn it is, for a phase);
- ``zone``: ``signi`` when only a SIGNI counts (``attacks``: a SIGNI attacks, not an LRIG), ``lrig`` when
  only an LRIG does;
- ``phase``: for ``phase_starts``: ``main`` (the start of the main phase), ``attack`` (the start of the attack
  phase, as its pre-attack step begins) or ``end``; ``turn``: the start of the turn itself, before its up
  phase; with ``whose`` ``you`` (your turn's), ``opponent`` (the
  opponent's turn's) or ``any`` (each turn's);
- ``by``: what caused it: ``battle`` (``vanished``, ``vanishes``: in battle), ``not_battle`` (``vanished``
  other than in battle), ``cost_or_effect`` (``trashed``: by a cost or an effect, not by rule processing),
  ``cost_or_your_effect`` (``trashed``: by a cost or an effect of your own card), ``your_effect``
  (``moved_zone``: by an effect of your own card), ``own_effect``
  (``discards``: by an effect of your own card, not as a cost), ``your_effect`` (``mills``; ``discards`` of
  the opponent: by an effect of your card, once for each card; ``mills`` ``any``: from your deck, by anyone's;
  ``own_deck_two_or_more``: two or more cards of your own deck at once, by anyone's cost or effect),
  ``assist_or_life_burst`` (``becomes_target``: an Assist LRIG's ability or a Life Burst; ``signi_enter``: the
  [Enter] ability of a SIGNI; ``signi``: an ability or effect of a SIGNI card; by default any ability or
  effect of the opponent's);
- ``filter``: the card the event is about must fit it (as it is on the field then; a SIGNI that left the field
  as it was as it left: upped or downed, frozen or not, ``tally.last_known``);
- ``subject``: for the forms that take a filter, ``this`` (the card the event is about is this card: "when
  this SIGNI becomes a target") or ``other`` (another card: "when another SIGNI enters your field");
- ``during``: a condition that must hold when the event happens.

Each event kind is an allowed value of ``on``, not a word of its own: ``{"on": "attacks"}`` is ``when`` with
``on`` fixed (the listing shows each kind as an alias of ``when``). Each event lists the forms the judge
watches for (``TriggerEvent.forms``): a trigger whose form is not among them is refused as the encodings load.
An older name (``attack``, ``turn_end``, ``signi_targeted`` ...) is an alias: it stands for the general form
with some fields fixed (``ALIASES``), and reads and triggers exactly as that form does.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from domain import tally
from domain.abilities.conditions import condition_problems, condition_text
from domain.abilities.filters import FILTER_KEYS, filter_text
from domain.cards import KEYWORDS

Trigger = Mapping[str, Any]
# (on, whose, zone, phase, by): what the judge watches for; ``by`` only where it tells events apart
Key = tuple[str, str, str, str, str]
FIELDS = (
    *("on", "whose", "zone", "phase", "by", "filter", "during", "subject", "what", "from", "to", "keywords"),
    "not_from",
)
# only for ``moves``: what the turn's tally tells (``domain.tally``); ``not_from``: any zone but those
MOVE_FIELDS = ("what", "from", "to", "not_from")


@dataclass(frozen=True)
class TriggerEvent:
    name: str
    doc: str
    forms: Mapping[Key, str]  # each form the judge watches for, and how it reads ("{f}": the filter)
    filtered: frozenset[Key] = frozenset()  # the forms that take a filter
    by: tuple[str, ...] = ()  # the causes a trigger may name (none: it takes no by)
    keyed_by: bool = False  # whether the cause tells forms apart (else it is checked as the event happens)
    default_whose: str = "this"


EVENTS: dict[str, TriggerEvent] = {}  # the values ``on`` may take
ALIASES: dict[str, dict[str, str]] = {}
WHEN = "when"
WORDS: dict[str, tuple[str, ...]] = {WHEN: FIELDS}  # the core word of triggers, and its fields


def event(
    name: str,
    doc: str,
    forms: Mapping[tuple[str, ...], str],
    *,
    filtered: tuple[tuple[str, ...], ...] = (),
    by: tuple[str, ...] = (),
    keyed_by: bool = False,
    default_whose: str = "this",
) -> None:
    """Register an event kind; each form is written ``(whose, zone, phase, by)`` with blanks left off."""

    def full(f: tuple[str, ...]) -> Key:
        whose, zone, phase, cause = (*f, "", "", "", "")[:4]
        return (name, whose, zone or "any", phase, (cause or "any") if keyed_by else "")

    if name in EVENTS or name in ALIASES:
        raise ValueError(f"the trigger {name!r} is registered twice")
    EVENTS[name] = TriggerEvent(
        name,
        doc,
        {full(f): text for f, text in forms.items()},
        frozenset(full(f) for f in filtered),
        by,
        keyed_by,
        default_whose,
    )


def alias(name: str, **fixed: str) -> None:
    if name in EVENTS or name in ALIASES:
        raise ValueError(f"the trigger {name!r} is registered twice")
    ALIASES[name] = dict(fixed)


event(
    "attacks",
    "a card attacks",
    {
        ("this",): "When it attacks",
        ("you", "signi"): "When a SIGNI{f} on your field attacks",
        ("you", "lrig"): "When an LRIG{f} on your field attacks",
        ("opponent",): "When a SIGNI or LRIG of the opponent attacks",
        ("opponent", "signi"): "When a SIGNI{f} of the opponent attacks",
    },
    filtered=(("you", "signi"), ("you", "lrig"), ("opponent", "signi")),
)
event(
    "enters",
    "a card enters the field, however it enters (not an [Enter] ability: Harmony ...)",
    {
        ("this",): "When it enters the field (even when [Enter] abilities do not activate)",
        ("you",): "When a SIGNI{f} enters your field",
        ("other",): "When another SIGNI{f} enters your field",
        ("opponent",): "When a SIGNI{f} enters your opponent's field",
    },
    filtered=(("you",), ("other",), ("opponent",)),
)
event(
    "vanished",
    "a SIGNI is vanished (in battle, by an effect, or by rule processing)",
    {
        ("this",): "When it is vanished{f}",
        ("this", "", "", "not_battle"): "When it is vanished other than in battle",
        ("this", "", "", "battle"): "When it is vanished in battle",
        ("you",): "When a SIGNI{f} on your field is vanished",
        ("opponent",): "When a SIGNI{f} on your opponent's field is vanished",
    },
    filtered=(("you",), ("this",), ("opponent",)),
    by=("any", "not_battle", "battle"),
    keyed_by=True,
)
event(
    "vanishes",
    "this SIGNI (``you``: a SIGNI of yours, which the filter reads) vanishes an opponent's SIGNI: in battle "
    "(as the attacker), or also by its own effect",
    {
        ("this", "", "", "battle"): "When it vanishes an opponent's SIGNI{f} in battle",
        ("this",): "When it vanishes an opponent's SIGNI (in battle, or by its own ability)",
        ("you",): "When a SIGNI of yours{f} vanishes an opponent's SIGNI (in battle, or by its own ability)",
        ("you", "", "", "battle"): "When a SIGNI of yours{f} vanishes an opponent's SIGNI in battle",
    },
    filtered=(("this", "", "", "battle"), ("you",), ("you", "", "", "battle")),
    by=("any", "battle"),
    keyed_by=True,
)
event(
    "power_zero",
    "a SIGNI's power becomes 0 or less (watched as rule processing vanishes it for that)",
    {("opponent",): "When the power of a SIGNI on the opponent's field becomes 0 or less"},
    default_whose="opponent",
)
event(
    "leaves_field",
    "a SIGNI leaves the field, however it goes (for another SIGNI: once, however many left)",
    {
        ("this",): "When it leaves the field",
        ("you",): "When another SIGNI on your field leaves the field",
    },
)
event(
    "trashed",
    "a SIGNI is put from the field into the trash (by a cost, an effect, or rule processing)",
    {
        (
            "this",
            "",
            "",
            "cost_or_effect",
        ): "When it is put from the field into the trash by a cost or an effect",
        ("you", "", "", "cost_or_effect"): "When a SIGNI on your field is put into the trash by a cost or an "
        "effect",
        (
            "you",
            "",
            "",
            "cost_or_your_effect",
        ): "When a SIGNI on your field is put into the trash by a cost or your effect",
        ("opponent",): "When a SIGNI on the opponent's field is put into the trash",
    },
    by=("any", "cost_or_effect", "cost_or_your_effect"),
    keyed_by=True,
)
event(
    "moved_zone",
    "a SIGNI moves to another SIGNI zone (two changing places both move; the opponent's: once, however many)",
    {
        ("this",): "When it moves to another SIGNI zone on the field",
        ("this", "", "", "your_effect"): "When it moves to another SIGNI zone on the field by your effect",
        ("opponent",): "When one or more SIGNI on the opponent's field move to another SIGNI zone",
    },
    by=("any", "your_effect"),
    keyed_by=True,
)
event(
    "phase_starts",
    "a phase of a turn begins (``phase``: main, attack or end), or the turn itself (``turn``: as it begins, "
    "before its up phase)",
    {
        ("you", "", "turn"): "At the start of your turn",
        ("opponent", "", "turn"): "At the start of your opponent's turn",
        ("you", "", "main"): "At the start of your main phase",
        ("you", "", "attack"): "At the start of your attack phase",
        ("any", "", "attack"): "At the start of each attack phase",
        ("opponent", "", "main"): "At the start of your opponent's main phase",
        ("opponent", "", "attack"): "At the start of the opponent's attack phase",
        ("you", "", "end"): "At the end of your turn",
        ("opponent", "", "end"): "At the end of your opponent's turn",
        ("any", "", "end"): "At the end of each turn",
    },
    default_whose="you",
)
event(
    "draws",
    "a player draws outside the draw phase (once for each card)",
    {
        ("you",): "When you draw a card outside your draw phase",
        ("opponent",): "When your opponent draws a card outside their draw phase",
    },
    default_whose="you",
)
event(
    "discards",
    "a player discards by an effect of their own card, or the opponent by yours (not as a cost); without "
    "``by``, a card is discarded in any way (by any effect, as a cost, to Guard, for the hand size); "
    "``cost_or_effect``: this card is discarded as a cost or by any effect (not to Guard, nor for the hand "
    "size)",
    {
        ("you", "", "", "own_effect"): "When your own effect makes you discard",
        ("opponent", "", "", "your_effect"): "Each time your effect makes the opponent discard a card",
        ("this", "", "", "own_effect"): "When this card is discarded by your own effect",
        ("you",): "Each time you discard a card{f} (in any way)",
        ("this",): "When this card is discarded (in any way)",
        ("this", "", "", "cost_or_effect"): "When this card is discarded as a cost or by an effect",
    },
    filtered=(("you",),),
    by=("any", "own_effect", "your_effect", "cost_or_effect"),
    keyed_by=True,
    default_whose="you",
)
event(
    "refreshes",
    "a player refreshes their deck (rule processing: the trash becomes the deck)",
    {
        ("any",): "When a player refreshes their deck",
        ("you",): "When you refresh your deck",
        ("opponent",): "When the opponent refreshes their deck",
    },
    default_whose="any",
)
event(
    "guards",
    "a player [Guard]s (discards a card with Guard to stop an LRIG attack's damage)",
    {("you",): "When you Guard"},
    default_whose="you",
)
event(
    "exceeded",
    "a card is put from under an LRIG into the LRIG trash as an Exceed cost",
    {("this",): "When it is put into the LRIG trash as an Exceed cost"},
)
event(
    "mills",
    "cards are put from a deck into the trash (by a player's effect, or this card, however; by: any: from "
    "your deck, by anyone's)",
    {
        ("you", "", "", "your_effect"): "When your effect puts cards from a deck into the trash",
        ("this",): "When this card is put from your deck into your trash",
        ("you", "", "", "any"): "When cards are put from your deck into your trash",
        ("you", "", "", "own_deck_two_or_more"): "When two or more cards at once are put from your deck into "
        "your trash by a cost or an effect",
    },
    by=("your_effect", "any", "own_deck_two_or_more"),
    keyed_by=True,
    default_whose="you",
)
event(
    "grows",
    "an LRIG grows (a card of the LRIG deck put on top of it)",
    {
        ("opponent",): "When an LRIG of the opponent's grows",
        ("other",): "When another LRIG on your field grows",
        ("you",): "When an LRIG on your field grows",
    },
    default_whose="opponent",
)
event(
    "spell_used",
    "a player uses a spell (as it is used, before it resolves)",
    {("any",): "When a player uses a spell", ("you",): "When you use a spell"},
    default_whose="any",
)
event(
    "crushes",
    "this card's attack crushes one of the opponent's Life Cloth (the damage it deals): once for each card "
    "crushed",
    {("this",): "When it crushes one of the opponent's Life Cloth"},
)
event(
    "pays_coins",
    "a player pays one or more coins (for a cost, a Bet ...): once for each payment",
    {("you",): "When you pay one or more coins"},
    default_whose="you",
)
event(
    "life_cloth_crushed",
    "a Life Cloth is crushed (by damage or by an effect), yours or the opponent's: once for each card "
    "crushed",
    {("any",): "When one of your or the opponent's Life Cloth is crushed"},
    default_whose="any",
)
event(
    "loses_life_cloth",
    "a player's Life Cloth is crushed or put into the trash (a refresh, an effect)",
    {("you",): "When one of your Life Cloth is crushed or put into the trash"},
    default_whose="you",
)
event(
    "risen",
    "a SIGNI with Rise is put onto the field on top of this SIGNI, which goes under it (``filter``: the "
    "SIGNI put on top of it must fit: risen by X)",
    {("this",): "When a SIGNI{f} rises on top of it"},
    filtered=(("this",),),
)
event(
    "soul_attached",
    "a [Soul] is attached to a SIGNI",
    {
        ("this",): "When a Soul is attached to it",
        ("you",): "When a Soul is attached to a SIGNI on your field",
    },
)
event(
    "becomes_target",
    "a SIGNI becomes a target of the opponent's ability or effect (once, however many became targets)",
    {("you",): "When a SIGNI{f} on your field becomes a target of the opponent's {by}"},
    filtered=(("you",),),
    by=("any", "assist_or_life_burst", "signi_enter", "signi"),
    default_whose="you",
)

event(
    "gains_keyword",
    "another SIGNI of yours on the field gains one of the ``keywords``: an effect gives it (even one it has "
    "already: each gain counts), or a constant ability starts to give it (watched before and after each "
    "event; once for each keyword gained)",
    {("other",): "When another SIGNI of yours gains {keywords}"},
    default_whose="other",
)

event(
    "moves",
    "a card moves from one zone to another, read from what the event did (``domain.tally``), once for "
    "each card: ``what`` (moved, discarded, entered ...), ``from`` and ``to`` (a zone, or a list of zones), "
    "``not_from`` (any zone but these), ``by`` (any, effect, your_effect, opponent_effect, cost, "
    "cost_or_effect)",
    {
        ("this",): "When this card {moves}",
        ("you",): "When a card{f} of yours {moves}",
        ("opponent",): "When a card{f} of the opponent's {moves}",
    },
    filtered=(("you",), ("opponent",)),
    by=tally.BY,
    default_whose="this",
)

alias("attack", on="attacks", whose="this")
alias("signi_attacks", on="attacks", whose="you", zone="signi")
alias("lrig_attacks", on="attacks", whose="you", zone="lrig")
alias("opponent_attacks", on="attacks", whose="opponent")
alias("opponent_signi_attacks", on="attacks", whose="opponent", zone="signi")
alias("signi_enters", on="enters", whose="you")
alias("vanished_outside_battle", on="vanished", whose="this", by="not_battle")
alias("vanished_in_battle", on="vanished", whose="this", by="battle")
alias("vanishes_in_battle", on="vanishes", whose="this", by="battle")
alias("other_leaves_field", on="leaves_field", whose="you")
alias("attack_phase_start", on="phase_starts", whose="you", phase="attack")
alias("main_phase_start", on="phase_starts", whose="you", phase="main")
alias("opponent_attack_phase_start", on="phase_starts", whose="opponent", phase="attack")
alias("turn_end", on="phase_starts", whose="you", phase="end")
alias("each_turn_end", on="phase_starts", whose="any", phase="end")
alias("opponent_turn_end", on="phase_starts", whose="opponent", phase="end")
alias("turn_start", on="phase_starts", whose="you", phase="turn")
alias("opponent_turn_start", on="phase_starts", whose="opponent", phase="turn")
alias("drew", on="draws", whose="you")
alias("discarded", on="discards", whose="you", by="own_effect")
alias("milled", on="mills", whose="you", by="your_effect")
alias("soul_attached_your_signi", on="soul_attached", whose="you")
alias("targeted", on="becomes_target", whose="you")
alias("signi_targeted", on="becomes_target", whose="you")

TRIGGERS = (*EVENTS, *ALIASES)


def general(trigger: Trigger) -> dict[str, Any]:
    """The trigger in its general form: an alias's fixed fields filled in, the defaults written out."""
    fixed = ALIASES.get(str(trigger.get("on")), {})
    out = {**trigger, **fixed}
    ev = EVENTS.get(str(out.get("on")))
    if ev is not None:
        out.setdefault("whose", ev.default_whose)
    return out


def key(trigger: Trigger) -> Key:
    """What the judge watches for, for this trigger (the same for an alias and its general form)."""
    g = general(trigger)
    ev = EVENTS.get(str(g.get("on")))
    by = str(g.get("by", "any")) if ev is not None and ev.keyed_by else ""
    return (str(g.get("on")), str(g.get("whose")), str(g.get("zone", "any")), str(g.get("phase", "")), by)


def form(on: str, whose: str, zone: str = "any", phase: str = "", by: str = "") -> Key:
    """A key the judge emits, checked against the registry as the module that uses it loads."""
    k: Key = (on, whose, zone, phase, by)
    if k not in EVENTS[on].forms:
        raise ValueError(f"no trigger form {k}")
    return k


def trigger_text(trigger: Trigger) -> str:
    g = general(trigger)
    ev = EVENTS.get(str(g.get("on")))
    head = ev.forms.get(key(trigger), "When triggered") if ev is not None else "When triggered"
    by_text = {
        "assist_or_life_burst": "Assist LRIG or Life Burst",
        "signi_enter": "SIGNI's [Enter] ability",
        "signi": "SIGNI's ability or effect",
    }
    head = head.replace("{by}", by_text.get(str(g.get("by")), "ability or effect"))
    head = head.replace("{moves}", moves_text(g))
    head = head.replace("{keywords}", " or ".join(str(k).replace("_", " ") for k in g.get("keywords", [])))
    if g.get("on") == "moves" and g.get("what") == "damaged":  # no card: the player takes damage
        head = "When you take damage" if g.get("whose") == "you" else "When the opponent takes damage"
    if "{f}" in head:
        f = filter_text(g.get("filter", {}))
        head = head.replace("{f}", f" {f}" if f else "")
    if g.get("subject") == "this":
        head = head.replace("When a SIGNI", "When this SIGNI").replace(" on your field", "")
    elif g.get("subject") == "other":
        head = head.replace("When a SIGNI", "When another SIGNI")
    if g.get("during"):
        head += f" while {condition_text(g['during'])}"
    return head


def _zones_text(v: Any) -> str:
    return " or ".join(f"the {str(z).replace('_', ' ')}" for z in (v if isinstance(v, list) else [v]))


def moves_text(g: Mapping[str, Any]) -> str:
    """How a ``moves`` trigger reads: "is discarded", "moves from the ener to another zone by an effect"."""
    what = str(g.get("what", "moved"))
    verbs = {
        "entered": "enters the field",
        "discarded": "is discarded",
        "drawn": "is drawn",
        "frozen": "becomes frozen",
    }
    verb = verbs.get(what, "moves")
    parts = [verb]
    if what in ("damaged", "frozen"):
        return verb
    if g.get("from"):
        parts.append(f"from {_zones_text(g['from'])}")
    if g.get("not_from"):
        parts.append(f"from any zone but {_zones_text(g['not_from'])}")
    if g.get("to"):
        parts.append(f"to {_zones_text(g['to'])}")
    elif what == "moved":
        parts.append("to another zone")
    by = str(g.get("by", "any"))
    if by != "any":
        by = by.replace("_or_", " or ").replace("_", " ").replace("opponent", "the opponent's")
        parts.append(f"by {by}")
    return " ".join(parts)


def _move_problems(g: Mapping[str, Any]) -> list[str]:
    """What is wrong with the ``what``/``from``/``to`` of a trigger (only ``moves`` takes them)."""
    given = [k for k in MOVE_FIELDS if k in g]
    if g.get("on") != "moves":
        return [f"only a moves trigger takes {given}"] if given else []
    out = []
    if g.get("what", "moved") not in tally.WHATS:
        out.append(f"a moves trigger's what is one of {tally.WHATS}, not {g.get('what')!r}")
    for k in ("from", "to", "not_from"):
        zones = g.get(k, [])
        if any(z not in tally.ZONES for z in (zones if isinstance(zones, list) else [zones])):
            out.append(f"a moves trigger's {k} is a zone (or a list) of {tally.ZONES}, not {zones!r}")
    if "from" in g and "not_from" in g:
        out.append("a moves trigger names the zones it comes from (from) or those it does not (not_from)")
    return out


def trigger_problems(trigger: Any) -> list[str]:
    """Everything in a trigger outside the vocabulary."""
    if not isinstance(trigger, Mapping) or (
        trigger.get("on") not in EVENTS and trigger.get("on") not in ALIASES
    ):
        on = trigger.get("on") if isinstance(trigger, Mapping) else None
        return [f"an auto ability needs a trigger from {TRIGGERS}, not {on!r}"]
    out: list[str] = []
    unknown = set(trigger) - set(FIELDS)
    if unknown:
        out.append(f"unknown trigger field(s) {sorted(unknown)}")
    if ("keywords" in trigger) != (trigger.get("on") == "gains_keyword"):
        out.append("a gains_keyword trigger (and only it) names the keywords it watches")
    elif "keywords" in trigger and (
        not isinstance(trigger["keywords"], list)
        or not trigger["keywords"]
        or any(k not in KEYWORDS for k in trigger["keywords"])
    ):
        out.append(f"a gains_keyword trigger's keywords are some of {KEYWORDS}")
    fixed = ALIASES.get(trigger["on"], {})
    clash = sorted(k for k in fixed if k != "on" and k in trigger and trigger[k] != fixed[k])
    if clash:
        out.append(f"the trigger {trigger['on']} fixes {clash}")
    g = general(trigger)
    ev = EVENTS[g["on"]]
    k = key(trigger)
    if k not in ev.forms:
        watched = ", ".join("/".join(x for x in f[1:] if x) for f in ev.forms)
        out.append(f"the judge watches {ev.name} only as {watched}, not {'/'.join(x for x in k[1:] if x)}")
    if "filter" in g and k not in ev.filtered:
        out.append(f"a {trigger['on']} trigger takes no filter")
    if "subject" in g and (k not in ev.filtered or g["subject"] not in ("this", "other")):
        out.append(f"a {trigger['on']} trigger's subject is this or other, and only where a filter is taken")
    if "by" in g and g["by"] not in ev.by:
        out.append(
            f"a {trigger['on']} trigger's by is one of {ev.by}, not {g['by']!r}"
            if ev.by
            else f"a {trigger['on']} trigger takes no by"
        )
    bad = set(g.get("filter", {})) - set(FILTER_KEYS)
    if bad:
        out.append(f"unknown filter key(s) {sorted(bad)}")
    if "during" in g:
        out.extend(condition_problems(g["during"]))
    return out + _move_problems(g)


def count_uses(encodings: Mapping[str, list[dict[str, Any]]]) -> dict[str, set[str]]:
    """Which cards use each trigger name (events and aliases), granted abilities included."""
    uses: dict[str, set[str]] = {}

    def walk(card: str, value: Any) -> None:
        if isinstance(value, dict):
            trig = value.get("trigger")
            if value.get("kind") == "auto" and isinstance(trig, dict):
                uses.setdefault(str(trig.get("on")), set()).add(card)
            for v in value.values():
                walk(card, v)
        elif isinstance(value, list):
            for v in value:
                walk(card, v)

    for card, abilities in encodings.items():
        walk(card, abilities)
    return uses
