"""Every word of the step vocabulary, one registry entry each (see ``vocabulary``).

General words: ``move`` (every zone change), ``modify`` (what a card is or has until a time: power, keywords,
abilities, base level and power, awakened, downed, frozen), ``coins`` and ``restrict`` (what a player may no
longer do this turn). Their older names (``bounce``, ``draw``, ``power``, ``down`` ...) are aliases.

To add a word: write its runner (``effects``), and one entry here: its parameters and their types, its text,
whether it targets, and what else must hold of it. To add a way an existing general word goes: one ``Route``.
"""

from __future__ import annotations

from typing import Any, Literal

from domain import durations
from domain.abilities import effects as fx
from domain.abilities import targets as tg
from domain.abilities.effects.running import DECLARED_COLOR
from domain.abilities.effects.targeting import first_targeted
from domain.abilities.measures import per_problems, per_text, problems
from domain.abilities.vocabulary import (
    MODES,
    STEPS,
    TARGET,
    Check,
    Route,
    Step,
    Text,
    alias,
    check_targets_with,
    expand,
    general_word,
    steps_text,
    word,
)
from domain.cards import COLORS

Who = Literal["you", "opponent"]
Until = Literal["end_of_turn", "opponent_next_turn"]
N = int
Cost = dict[str, Any]


def _t(step: Step) -> str:
    return tg.target_text(step["target"]) if "target" in step else ""


def _who(step: Step) -> str:
    return "the opponent" if step.get("who") == "opponent" else "you"


def _n(step: Step) -> Any:
    n = step.get("n", 1)
    counts = {
        "discarded": "as many as were discarded",
        "added": "as many as were added that way",
        "declared": "as many as declared",
    }
    return counts.get(str(n), n)


def _your(step: Step) -> str:
    return "your" if _who(step) == "you" else "their"


def _whose(step: Step) -> str:
    return "your" if _who(step) == "you" else "the opponent's"


def _target_problems(name: str, spec: dict[str, Any]) -> list[str]:
    out = []
    if spec.get("zone", "signi") not in tg.ZONES:
        out.append(f"step {name}: unknown zone {spec.get('zone')!r}")
    bad = (set(spec.get("filter", {})) | set(spec.get("above", {}))) - set(tg.FILTER_KEYS)
    if bad:
        out.append(f"step {name}: unknown filter key(s) {sorted(bad)}")
    if ("above" in spec or "of" in spec) and spec.get("zone") != "under":
        out.append(f"step {name}: only a target under a SIGNI (zone under) names the SIGNI above it (or of)")
    if spec.get("of", "self") not in tg.UNDER_OF:
        out.append(f"step {name}: of names this card (self) or the face-down cards (face_down)")
    if spec.get("zone") == "face_down" and (not spec.get("all") or spec.get("filter")):
        out.append(f"step {name}: the face-down cards (zone face_down) are named all, with no filter")
    for key in ("level_of", "name_of"):
        if key in spec.get("filter", {}) and spec["filter"][key] not in tg.NOTED_CARDS:
            out.append(f"step {name}: filter {key} names one of {list(tg.NOTED_CARDS)}")
    if spec.get("filter", {}).get("shares_lrig_color", "any") not in tg.LRIG_COLOR_WHICH:
        out.append(f"step {name}: filter shares_lrig_color is one of {list(tg.LRIG_COLOR_WHICH)}")
    total = spec.get("total_level")
    if total is not None and not isinstance(total, int) and total not in tg.NOTED_CARDS:
        out.append(f"step {name}: total_level is a number or one of {list(tg.NOTED_CARDS)}")
    if spec.get("distinct", "class") not in ("class", "level", "color"):
        out.append(f"step {name}: distinct is class, level or color")
    if spec.get("shared", "color") not in ("color", "class"):
        out.append(f"step {name}: shared is color or class")
    if "cards" in spec:
        out.append(f"step {name}: a target names no card instances")
    if spec.get("chooser", "opponent") != "opponent":
        out.append(f"step {name}: a target's chooser is the opponent or left out")
    if "level_max_measure" in spec.get("filter", {}):
        wrong = problems(spec["filter"]["level_max_measure"])
        out.extend(f"step {name}: level_max_measure: {p}" for p in wrong)
    return out


check_targets_with(_target_problems)


# -- move: every zone change ----------------------------------------------------------------------

Zone = Literal[
    "field", "deck", "hand", "trash", "ener", "life_cloth", "excluded", "lrig_deck", "lrig_trash", "under",
    "under_lrigs", "under_other_lrigs", "soul", "hand_or_field", "check",
]  # fmt: skip


def _move_route(step: Step) -> tuple[str, ...]:
    """(from, to, how): a targeted move goes from where its target is, into its ``owner``'s zone or
    ``you``rs; a move of cards not targeted takes the ``top`` of a zone, ``search``es it, or lets its
    player ``choose`` among it, or takes ``all``."""
    if "target" in step:
        return ("target", step.get("to", ""), step.get("into", "owner"))
    return (step.get("from", "deck"), step.get("to", ""), step.get("pick", "top"))


def _to_deck_text(step: Step) -> str:
    g = expand(step)
    if g.get("position") == "bottom":
        return f"put {_t(step)} on the bottom of its owner's deck"
    if g.get("position") == "top":
        return f"put {_t(step)} on top of its owner's deck"
    return f"shuffle {_t(step)} into its owner's deck"


def _search_text(step: Step) -> str:
    f = tg.filter_text(step.get("filter", {}))
    n = int(step.get("n", 1))
    if n > 1:
        what = f"search your deck for up to {n} cards {f}".rstrip()
        return what + ", reveal them, add them to your hand, shuffle the deck"
    return f"search your deck for a card {f}".rstrip() + ", reveal it, add it to your hand, shuffle the deck"


def _draw_text(s: Step) -> str:
    plus = int(s.get("plus", 0))
    return f"{_who(s)} draw {_n(s)}" + (f" {'+' if plus > 0 else '-'} {abs(plus)}" if plus else "")


def _charge_text(s: Step) -> str:
    return f"{'' if _who(s) == 'you' else 'the opponent '}ener charge {_n(s)}{per_text(s.get('per'))}".strip()


def _ener_trash_text(s: Step) -> str:
    return f"{_who(s)} choose {_n(s)} card(s) of {_your(s)} ener zone and put them into the trash"


def _soul_source(s: Step) -> str:
    return "an LRIG from your LRIG trash" if s.get("from") == "lrig_trash" else "a card from under this LRIG"


def _exclude_text(s: Step) -> str:
    what = f"{'up to ' if s.get('up_to') else ''}{_n(s)} card(s) {tg.filter_text(s.get('filter', {}))}"
    return f"remove {what} of your trash from the game (chosen, not targeted)".replace("  ", " ")


MOVE_ROUTES = {
    # name: (route key, runner, text, fixed parameters of the alias)
    "bounce": (("target", "hand", "owner"), "bounce", lambda s: f"return {_t(s)} to its owner's hand"),
    "to_hand": (("target", "hand", "you"), "to_hand", lambda s: f"add {_t(s)} to your hand"),
    "trash": (("target", "trash", "owner"), "trash", lambda s: f"put {_t(s)} into the trash"),
    "exclude": (("target", "excluded", "owner"), "exclude", lambda s: f"remove {_t(s)} from the game"),
    "use_spell_now": (
        ("target", "check", "owner"),
        "use_spell_now",
        lambda s: (
            f"you may use {_t(s)} now, paying its use cost; this turn, as it leaves the check zone it "
            "is removed from the game instead"
        ),
    ),
    "to_ener": (("target", "ener", "you"), "to_ener", lambda s: f"put {_t(s)} into your ener zone"),
    "to_owner_ener": (
        ("target", "ener", "owner"),
        "to_ener",
        lambda s: f"put {_t(s)} into its owner's ener zone",
    ),
    "to_life_cloth": (
        ("target", "life_cloth", "you"),
        "to_life_cloth",
        lambda s: f"add {_t(s)} to the top of your Life Cloth",
    ),
    "to_deck": (("target", "deck", "owner"), "to_deck", _to_deck_text),
    "to_field": (
        ("target", "field", "you"),
        "to_field",
        lambda s: (
            f"put {_t(s)} onto your field"
            + (f" in the {s['signi_zone']} SIGNI zone" if s.get("signi_zone") else "")
            + (" downed" if s.get("downed") else "")
            + (" (its [Enter] abilities do not activate)" if s.get("no_enter") else "")
            + (" as a SIGNI with no abilities" if s.get("no_abilities") else "")
        ),
    ),
    "to_hand_or_field": (
        ("target", "hand_or_field", "you"),
        "to_hand_or_field",
        lambda s: f"add {_t(s)} to your hand or put it onto your field",
    ),
    "return_lrig": (
        ("target", "lrig_deck", "owner"),
        "return_lrig",
        lambda s: f"return {_t(s)} to its owner's LRIG deck, the cards under it staying on the field",
    ),
    "attach_soul": (
        ("target", "soul", "you"),
        "attach_soul",
        lambda s: f"attach {_soul_source(s)} to {_t(s)} as its Soul",
    ),
    "draw": (("deck", "hand", "top"), "draw", _draw_text),
    "search": (("deck", "hand", "search"), "search", _search_text),
    "ener_charge": (("deck", "ener", "top"), "ener_charge", _charge_text),
    "top_to_bottom": (
        ("deck", "deck", "top"),
        "top_to_bottom",
        lambda s: (
            f"put the top {_n(s)} of {_your(s)} deck on the bottom of that deck"
            + (" in a random order" if s.get("position") == "shuffled" else "")
        ),
    ),
    "mill": (
        ("deck", "trash", "top"),
        "mill",
        lambda s: (
            f"put the {'bottom' if s.get('position') == 'bottom' else 'top'} {_n(s)} of {_your(s)} deck "
            f"into the trash{per_text(s.get('per'))}"
        ),
    ),
    "life_add": (
        ("deck", "life_cloth", "top"),
        "life_add",
        lambda s: f"add the top {_n(s)} of your deck to your Life Cloth",
    ),
    "life_to_hand": (
        ("life_cloth", "hand", "top"),
        "life_to_hand",
        lambda s: f"{_who(s)} add the top {_n(s)} of {_your(s)} Life Cloth to {_your(s)} hand",
    ),
    "life_to_deck": (
        ("life_cloth", "deck", "top"),
        "life_to_deck",
        lambda s: f"put the top {_n(s)} of your Life Cloth into your deck",
    ),
    "swap_life_top": (
        ("life_cloth", "deck", "swap"),
        "swap_life_top",
        lambda s: f"swap the top card of {_whose(s)} Life Cloth with the top card of that player's deck",
    ),
    "life_to_trash": (
        ("life_cloth", "trash", "top"),
        "life_to_trash",
        lambda s: f"put the top {_n(s)} of {_whose(s)} Life Cloth into its owner's trash",
    ),
    "ener_to_trash": (("ener", "trash", "choose"), "ener_to_trash", _ener_trash_text),
    "exceed": (("under_lrigs", "lrig_trash", "choose"), "exceed", lambda s: f"{_who(s)} exceed {_n(s)}"),
    "shed_under": (
        ("under", "lrig_trash", "choose"),
        "shed_under",
        lambda s: f"put {_n(s)} card(s) from under this LRIG into the LRIG trash",
    ),
    "put_under": (
        ("target", "under", "you"),
        "put_under",
        lambda s: f"put {_t(s)} under this card",
    ),
    "put_self_under": (
        ("target", "under", "target"),
        "put_self_under",
        lambda s: f"put this card under {_t(s)}",
    ),
    "deck_to_under": (
        ("deck", "under", "top"),
        "deck_to_under",
        lambda s: f"put the top {_n(s)} of your deck under this card",
    ),
    "gather_under": (
        ("under_other_lrigs", "under", "all"),
        "gather_under",
        lambda _s: "put every card under your other LRIGs under this LRIG",
    ),
    "exclude_from_trash": (("trash", "excluded", "choose"), "exclude_from_trash", _exclude_text),
}


def _move_check(step: Step) -> list[str]:
    if step.get("no_abilities") and step.get("to") != "field":
        return ["step move: no_abilities is only for SIGNI put onto the field"]
    if "per" in step:  # "ener charge 1 for each ...": a measure
        return [f"step move: per: {p}" for p in per_problems(step["per"])]
    noted: dict[tuple[str, ...], str] = {
        ("deck", "hand", "top"): "discarded",
        ("deck", "trash", "top"): "declared",
    }
    if "n" in step and not isinstance(step["n"], int) and step["n"] != noted.get(_move_route(step)):
        return ["step move: n must be a number (or 'discarded' for a draw, 'declared' for a mill)"]
    return []


general_word(
    "move",
    {
        "target": TARGET,
        "from": Zone,
        "to": Zone,
        "into": Literal["owner", "you", "target"],
        "pick": Literal["top", "search", "choose", "all", "swap"],
        "position": Literal["bottom", "shuffled", "top"],
        "n": int | Literal["discarded", "declared"],
        "plus": int,
        "per": dict[str, Any],
        "who": Who,
        "filter": dict[str, Any],
        "downed": bool,
        "no_enter": bool,
        "no_abilities": bool,
        "signi_zone": Literal["left", "center", "right"],
        "up_to": bool,
    },
    "Move cards from one zone to another: a target (to its owner's zone, or with into: you, yours; to: under "
    "with into: you, under this card; with into: target, this card goes under the target), or the "
    "top n of a zone, a card searched for, or n cards its player chooses; or (pick: swap) the top card of a "
    "player's Life Cloth and the top card of their deck change places.",
    _move_route,
    [Route(key, fx.OPS[run], text) for key, run, text in MOVE_ROUTES.values()],
    check=_move_check,
    required=("to",),
)


def _move_alias(name: str, params: dict[str, Any], *, targets: bool = False, **renamed: str) -> None:
    key = MOVE_ROUTES[name][0]
    fixed: dict[str, Any] = {"to": key[1]}
    if key[0] == "target":
        fixed["into"] = key[2]
    else:
        fixed.update({"from": key[0], "pick": key[2]})
    alias(name, "move", params, fixed, targets=targets, renamed=renamed)


_TOP = {"n": int, "who": Who}
for _name in (
    "bounce",
    "trash",
    "exclude",
    "to_hand",
    "to_ener",
    "to_owner_ener",
    "to_life_cloth",
    "to_hand_or_field",
    "return_lrig",
):
    _move_alias(_name, {"target": TARGET}, targets=True)
_move_alias("use_spell_now", {"target": TARGET}, targets=True)  # the spell goes to the check zone, used
_move_alias("put_under", {"target": TARGET}, targets=True)
_move_alias("put_self_under", {"target": TARGET}, targets=True)
_move_alias("attach_soul", {"target": TARGET, "from": Literal["under", "lrig_trash"]}, targets=True)
_move_alias(
    "to_field",
    {
        "target": TARGET,
        "no_enter": bool,
        "downed": bool,
        "no_abilities": bool,
        "signi_zone": Literal["left", "center", "right"],
    },
    targets=True,
)
alias(
    "to_deck",
    "move",
    {"target": TARGET, "bottom": bool, "top": bool},
    lambda s: {
        "to": "deck",
        "into": "owner",
        "position": "bottom" if s.get("bottom") else "top" if s.get("top") else "shuffled",
    },
    targets=True,
    renamed={"bottom": "", "top": ""},
)
_move_alias("draw", {"n": int | Literal["discarded"], "plus": int, "who": Who})
_move_alias(
    "mill", {"n": int | Literal["declared"], "who": Who, "position": Literal["bottom"], "per": dict[str, Any]}
)
for _name in (
    "life_add",
    "life_to_hand",
    "life_to_deck",
    "life_to_trash",
    "swap_life_top",
    "exceed",
    "shed_under",
    "deck_to_under",
):
    _move_alias(_name, _TOP)
_move_alias("ener_charge", {"n": int, "who": Who, "per": dict[str, Any]})
_move_alias("ener_to_trash", {**_TOP, "per": dict[str, Any]})  # "one card for each card trashed this way"
_move_alias("top_to_bottom", {**_TOP, "position": Literal["shuffled"]})
_move_alias("search", {"filter": dict[str, Any], "n": int})
_move_alias("gather_under", {})
_move_alias("exclude_from_trash", {"n": int, "up_to": bool, "filter": dict[str, Any]})


# -- modify: what a card is or has, until a time --------------------------------------------------


def _power_text(s: Step) -> str:
    return (
        f"{_t(s)} gets {s.get('amount', 0):+d} power"
        + (
            " for each colour among your SIGNI"
            if s.get("per") == "your_signi_colors"
            else per_text(s.get("per"))
        )
        + " until end of "
        + ("the opponent's next turn" if s.get("until") == "opponent_next_turn" else "turn")
    )


def _grant_ability_text(s: Step) -> str:
    from domain.abilities.catalogue import describe_ability

    until = "the end of the opponent's next turn" if s.get("until") == "opponent_next_turn" else "end of turn"
    return f'{_t(s)} gains "{describe_ability(s["ability"]).rstrip(".")}" until {until}'


def _hold_ability_text(s: Step) -> str:
    from domain.abilities.catalogue import describe_ability

    center = s.get("holder") == "center_lrig"
    who = "your center LRIG (whichever LRIG it is, also after it grows)" if center else "you"
    return f'for the rest of the game, {who} gain(s) "{describe_ability(s["ability"]).rstrip(".")}"'


def _base_text(s: Step) -> str:
    until = "until the opponent's next turn ends" if s.get("until") == "opponent_next_turn" else "this turn"
    if s.get("power_of") == "target":  # the target is only read
        return f"the base power of this card becomes the power of {_t(s)} {until}"
    if "declare" in s:  # the target first, then the number declared
        d = s["declare"]
        how = f"declare a number from {d.get('min', 0)} to {d.get('max', 5)}"
        return f"{how}; the base power of {_t(s)} becomes that number times {d.get('times', 1)} {until}"
    if "level" not in s:
        return f"the base power of {_t(s)} becomes {s.get('power')} {until}"
    return f"the base level of {_t(s)} becomes {s.get('level')}, its base power {s.get('power')}, {until}"


def _keywords_text(s: Step) -> str:
    kws = list(s.get("keywords", []))
    lost = [k.split(":", 1)[1].replace("_", " ") for k in kws if k.startswith("lose:")]
    gained = [
        "the keyword that SIGNI gained" if k == "gained" else tg.shadow_text(k)
        for k in kws
        if not k.startswith("lose:")
    ]
    parts = [f"gains {', '.join(gained)}"] if gained else []
    if lost:  # "lose:X": it loses X and cannot gain it
        parts.append(f"loses {', '.join(lost)} (and cannot gain them)")
    until = "the opponent's next turn" if s.get("until") == "opponent_next_turn" else "turn"
    if s.get("next_turn_only"):  # "during your opponent's turn" given until the end of their next turn
        return f"during the opponent's next turn, {_t(s)} {' and '.join(parts)}"
    if s.get("ener_zone"):  # the zone's cards, those put there later this turn too
        return f"the cards in your ener zone (those put there later too) {' and '.join(parts)} this turn"
    return f"{_t(s)} {' and '.join(parts)} until end of {until}"


def _become_text(s: Step) -> str:
    if s.get("same_as") == "target":
        shed = "put all cards under and attached to this SIGNI into the trash; " if s.get("shed") else ""
        return f"{shed}this SIGNI becomes the same card as {_t(s)} until end of turn"
    from domain.facts import catalogue

    card = catalogue().get(str(s.get("card")))
    about = f"level {card.level} {'/'.join(card.classes)}, power {card.power}, {'/'.join(card.colors)}"
    return f"{_t(s)} becomes {card.name} ({about}, no abilities) until end of turn"


def _become_problems(step: Step) -> list[str]:
    """Either a catalogue card to become (a SIGNI with no abilities: a token such as Servant ZERO), or the
    same card as the target (this SIGNI becomes it; shed: the cards under it go first)."""
    from domain.cards import UnknownCard
    from domain.facts import catalogue

    if ("card" in step) == (step.get("same_as") == "target"):
        return ["step become: either card (the targets become it) or same_as target (this SIGNI becomes it)"]
    if step.get("shed") and "card" in step:
        return ["step become: shed belongs to same_as target"]
    if "card" in step:
        try:
            card = catalogue().get(str(step["card"]))
        except (UnknownCard, KeyError):
            return [f"step become: {step['card']!r} is no catalogue card"]
        if not card.is_signi or card.has_abilities:
            return ["step become: the card is a SIGNI with no abilities"]
    return []


def _gain_color_text(s: Step) -> str:
    if s.get("gainer") == "self":
        return f"this card gains one colour of {_t(s)} (its player's choice among them) until end of turn"
    return f"{_t(s)} gains {' and '.join(str(c) for c in s.get('colors', []))} until end of turn"


def _gain_color_problems(step: Step) -> list[str]:
    """A colour gained is named (``colors``, colorless is none) or is one of the target's (``gainer: self``:
    this card gains it), not both."""
    if ("colors" in step) == ("gainer" in step):
        return ["step gain_color: either colors (the targets gain them) or gainer self (one of the target's)"]
    return [f"step gain_color: {c!r} is not a colour" for c in step.get("colors", []) if c not in COLORS]


def keyword_problems(keywords: Any) -> list[str]:
    """A keyword that starts like a qualified Shadow and does not read as one (``declared_color``: the colour
    a ``declare`` step before declared, read as a colour)."""
    return [
        f"keyword {k!r} is not a Shadow qualifier (shadow:signi,level_min=3, shadow:red ...)"
        for k in keywords or []
        if isinstance(k, str)
        and k.startswith("shadow:")
        and tg.shadow_qualifier(k.replace(DECLARED_COLOR, "red")) is None
    ]


MODIFY_ROUTES: dict[str, tuple[tuple[str, ...], Text, dict[str, Any]]] = {
    "power": (("power",), _power_text, {"amount": int, "per": str | dict[str, Any], "until": Until}),
    "grant": (
        ("keywords",),
        _keywords_text,
        {"keywords": list[str], "until": Until, "ener_zone": bool, "next_turn_only": bool},
    ),
    "grant_ability": (("ability",), _grant_ability_text, {"ability": dict[str, Any], "until": Until}),
    "hold_ability": (
        ("held",),
        _hold_ability_text,
        {"ability": dict[str, Any], "holder": Literal["you", "center_lrig"]},
    ),
    "gain_color": (("color",), _gain_color_text, {"colors": list[str], "gainer": Literal["self"]}),
    "lose_abilities": (
        ("lose_abilities",),
        lambda s: (
            f"{_t(s)} loses its abilities until end of "
            + ("the opponent's next turn" if s.get("until") == "opponent_next_turn" else "turn")
        ),
        {"until": Until},
    ),
    "set_base": (
        ("base",),
        _base_text,
        {
            "level": int,
            "power": int,
            "until": Until,
            "declare": dict[str, Any],
            "power_of": Literal["target"],
        },
    ),
    "become": (("became",), _become_text, {"card": str, "same_as": Literal["target"], "shed": bool}),
    "awaken": (("awaken",), lambda s: f"{_t(s)} awakens", {}),
    "down": (("downed", "true"), lambda s: f"down {_t(s)}", {}),
    "up": (("downed", "false"), lambda s: f"up {_t(s)}", {}),
    "freeze": (("frozen", "true"), lambda s: f"freeze {_t(s)}", {}),
    "turn_face_down": (("face_down",), lambda s: _face_down_text(s), {"back": dict[str, Any]}),
    # the waiting part of turn_face_down, which writes it (the cards named are instances): never encoded
    "turn_face_up": (
        ("face_up",),
        lambda s: (
            "turn the card(s) turned face down that way face up, if no SIGNI is in its zone"
            + ("; if one is, put it into the trash" if s.get("taken") == "trash" else "")
            + (f"; then {steps_text(s['then'])}" if s.get("then") else "")
        ),
        {"cards": list[str], "taken": Literal["stay", "trash"], "costs": list[Cost], "then": STEPS},
    ),
}


def _face_down_text(s: Step) -> str:
    """Turn the targets face down, and (``back``) when they are turned face up again."""
    out = f"turn {_t(s)} face down"
    back = face_down_back_text(s.get("back") or {})
    return f"{out}; {back}" if back else out


def face_down_back_text(back: dict[str, Any]) -> str:
    """When cards turned face down are turned face up again (``back`` of ``turn_face_down``)."""
    if not back:
        return ""
    when = {
        "turn_end": "at the end of this turn",
        "main_phase": "at the start of your main phase"
        + (" after the next one" * min(1, int(back.get("skip", 0)))),
        "attack_phases": "at the start of each attack phase while it stays face down",
        "attack_phase": "at the start of the next attack phase",
    }.get(str(back.get("at", "turn_end")), "later")
    up = "turn it face up if no SIGNI is in its zone"
    if back.get("costs"):
        up = "its owner may pay " + " or ".join(fx.describe_cost(c) for c in back["costs"]) + " to " + up
    if back.get("taken") == "trash":
        up += "; if a SIGNI is in its zone, put it into the trash"
    if back.get("then"):
        up += f"; once it is turned face up, {steps_text(back['then'])}"
    return f"{when}, {up}"


def back_problems(back: Any) -> list[str]:
    return _back_problems(back)


def _back_problems(back: Any) -> list[str]:
    from domain.abilities.effects.facedown import BACK_AT

    if not isinstance(back, dict):
        return ["step turn_face_down: back is a mapping"]
    out = []
    unknown = sorted(set(back) - {"at", "skip", "taken", "costs", "then"})
    if unknown:
        out.append(f"step turn_face_down: back takes at, skip, taken, costs, then; not {unknown}")
    if back.get("at", "turn_end") not in BACK_AT:
        out.append(f"step turn_face_down: back at is one of {list(BACK_AT)}")
    if "skip" in back and (back.get("at") != "main_phase" or not isinstance(back["skip"], int)):
        out.append("step turn_face_down: skip is a number, of main phases (at: main_phase)")
    if back.get("taken", "stay") not in ("stay", "trash"):
        out.append("step turn_face_down: taken is stay or trash")
    check = _cost_check("turn_face_down")
    out += [p for c in back.get("costs", []) for p in check({"cost": c})]
    out += [p for x in back.get("then", []) for p in fx.step_problems(x)]
    return out


def _modify_route(step: Step) -> tuple[str, ...]:
    change = str(step.get("change", ""))
    if change in ("downed", "frozen"):
        return (change, "true" if step.get("value", True) else "false")
    if change == "marker":
        return (change, "remove" if step.get("remove") else "place")
    return (change,)


def _zone_owner(s: Step) -> str:
    return "your" if s.get("side") == "you" else "the opponent's"


def _marker_text(s: Step) -> str:
    marker = str(s.get("marker", "marker")).capitalize()
    if s.get("zones", "all") == "all":
        return f"put a {marker} in each of {_zone_owner(s)} SIGNI zones"
    return f"put a {marker} in one of {_zone_owner(s)} SIGNI zones"


# What a zone of the field gets, rather than a card: a marker put in or removed (a Virus), or the zone erased
# until end of turn. These changes name no target: the step's own ``side`` names whose zones.
ZONE_ROUTES: dict[str, tuple[tuple[str, ...], Text, dict[str, Any]]] = {
    "place_marker": (
        ("marker", "place"),
        _marker_text,
        {
            "marker": Literal["virus", "hastalyk"],
            "side": Literal["you", "opponent"],
            "zones": Literal["all", "one"],
        },
    ),
    "remove_marker": (
        ("marker", "remove"),
        lambda s: f"remove a {str(s.get('marker', 'marker')).capitalize()} from {_zone_owner(s)} field",
        {"marker": Literal["virus", "hastalyk"], "side": Literal["you", "opponent"]},
    ),
    "erase_zone": (
        ("erased",),
        lambda s: (
            f"erase one of {_zone_owner(s)} SIGNI zones until end of turn (its cards go to the trash, "
            "and no SIGNI can be put there)"
        ),
        {"side": Literal["you", "opponent"]},
    ),
    "grant_zone": (
        ("zone_keywords",),
        lambda s: (
            f"{_lasts_text(s)}, the SIGNI in {_zone_owner(s)} "
            f"{_zones_named(s)} SIGNI zone gain "
            + ", ".join(str(k).replace("_", " ") for k in s.get("keywords", []))
        ),
        {
            "side": Literal["you", "opponent"],
            "signi_zones": list[str] | Literal["chosen"],
            "keywords": list[str],
            "lasts": dict[str, Any],
        },
    ),
}


def _zones_named(s: Step) -> str:
    """The SIGNI zones a zone step names: those listed, or one its player chooses."""
    zones = s.get("signi_zones", [])
    return "one chosen" if zones == "chosen" else "/".join(zones)


def _lasts_problems(step: Step) -> list[str]:
    """A duration (lasts) of a modify step: only zone keywords take one, and it must read as one."""
    if "lasts" not in step:
        return []
    out = [f"step grant_zone: {p}" for p in durations.duration_problems(step["lasts"])]
    if step.get("change") != "zone_keywords":
        out.append("step modify: of the changes, only zone keywords take a duration (lasts)")
    return out


def _modify_check(step: Step) -> list[str]:
    from domain.abilities.catalogue import ability_problems

    out: list[str] = []
    zone_change = step.get("change") in ("marker", "erased", "zone_keywords")
    named = step.get("signi_zones", [])
    bad_zones = set() if named == "chosen" else set(named) - {"left", "center", "right"}
    if step.get("change") == "zone_keywords" and (bad_zones or not named):
        out_zones = ["step grant_zone: signi_zones is a list of SIGNI zones (left, center, right), or chosen"]
    else:
        out_zones = []
    out.extend(_lasts_problems(step))
    if zone_change and "target" in step:
        out.append(f"step {step.get('change')}: a change of a zone names no target, only a side")
    if step.get("change") == "face_up":  # written by turn_face_down, naming the cards it turned
        return _back_problems({k: v for k, v in step.items() if k in ("taken", "costs", "then")})
    if not zone_change and step.get("change") != "held" and "target" not in step:
        out.append("step modify: target is required")
    if step.get("change") == "marker" and "marker" not in step:
        out.append("step marker: which marker is required")
    out.extend(out_zones)
    if step.get("change") == "power" and "amount" not in step:
        out.append("step power: amount is required")
    if step.get("change") == "power" and "per" in step:
        out.extend(f"step power: {p}" for p in per_problems(step["per"]))
    if step.get("change") == "base" and not {"power", "declare", "power_of"} & set(step):
        out.append(
            "step set_base: power must be a number (level too, when it changes), declared, or of the target"
        )
    if step.get("change") == "base" and "power_of" in step and {"power", "level", "declare"} & set(step):
        out.append("step set_base: a power of the target names no power, level or declaration of its own")
    if step.get("change") == "base" and "declare" in step:
        d = step["declare"]
        if set(d) - {"min", "max", "times"} or not all(isinstance(v, int) for v in d.values()):
            out.append("step set_base: declare takes the numbers min, max and times")
        if "power" in step or "level" in step:
            out.append("step set_base: a declared power names no power or level of its own")
    if step.get("change") in ("ability", "held"):
        out.extend(ability_problems("granted ability", step.get("ability", {})))
    if step.get("change") == "held" and ("target" in step or "holder" not in step):
        out.append("step hold_ability: a holder (you, center_lrig) and no target: the player holds it")
    if step.get("change") == "keywords":
        out.extend(keyword_problems(step.get("keywords")))
    if step.get("next_turn_only") and step.get("until") != "opponent_next_turn":
        out.append("step grant: next_turn_only names the opponent's next turn (until opponent_next_turn)")
    if step.get("change") == "color":
        out.extend(_gain_color_problems(step))
    if step.get("change") == "became":
        out.extend(_become_problems(step))
    if "back" in step and step.get("change") != "face_down":
        out.append("step modify: back belongs to turn_face_down")
    elif "back" in step:
        out.extend(_back_problems(step["back"]))
    on_ener = step.get("target", {}).get("zone") == "ener"
    if step.get("change") == "keywords" and on_ener != (step.get("keywords") == ["multi_ener"]):
        out.append("step grant: an ener card gains only multi_ener, and only an ener card gains it")
    in_hand = step.get("target", {}).get("zone") == "hand"
    if step.get("change") == "keywords" and in_hand != (step.get("keywords") == ["guard"]):
        out.append("step grant: a card in the hand gains only guard (the Guard icon), and only there")
    if step.get("ener_zone") and not (on_ener and step.get("target", {}).get("all")):
        out.append("step grant: ener_zone names every card of your ener zone (target zone ener, all)")
    return out


_MODIFY_PARAMS: dict[str, Any] = {"target": TARGET}
for _key, _text, _params in [*MODIFY_ROUTES.values(), *ZONE_ROUTES.values()]:
    _MODIFY_PARAMS.update(_params)
general_word(
    "modify",
    {
        **_MODIFY_PARAMS,
        "change": Literal[
            "power",
            "keywords",
            "ability",
            "lose_abilities",
            "base",
            "awaken",
            "downed",
            "frozen",
            "marker",
            "erased",
            "held",
            "zone_keywords",
            "color",
            "face_down",
            "face_up",
            "became",
        ],
        "value": bool,
        "remove": bool,
    },
    "The targets change until a time: power (amount, per, until), keywords, an ability gained, abilities "
    "lost, base level and power, awakened, downed or upped, frozen, another card (became); or SIGNI zones "
    "of a side change: a marker (a Virus) put in them or removed (remove), or one erased until end of "
    "turn, or the SIGNI in them (whichever SIGNI is there) have keywords this turn (zone_keywords); or "
    "(held, no target) a player or their center LRIG gains an ability for the rest of the game.",
    _modify_route,
    [
        Route(key, fx.OPS[name], text)
        for name, (key, text, _p) in [*MODIFY_ROUTES.items(), *ZONE_ROUTES.items()]
    ],
    check=_modify_check,
    required=("change",),
)
for _name, (_key, _text, _params) in MODIFY_ROUTES.items():
    _fixed: dict[str, Any] = {"change": _key[0]}
    if len(_key) > 1:
        _fixed["value"] = _key[1] == "true"
    if _key in (("held",), ("face_up",)):  # held by a player (or their center LRIG); named cards: no target
        alias(_name, "modify", _params, _fixed)
        continue
    alias(_name, "modify", {"target": TARGET, **_params}, _fixed, targets=True)
alias("place_marker", "modify", ZONE_ROUTES["place_marker"][2], {"change": "marker"})
alias("remove_marker", "modify", ZONE_ROUTES["remove_marker"][2], {"change": "marker", "remove": True})
alias("erase_zone", "modify", ZONE_ROUTES["erase_zone"][2], {"change": "erased"})
alias("grant_zone", "modify", ZONE_ROUTES["grant_zone"][2], {"change": "zone_keywords"})


# -- coins and restrictions -----------------------------------------------------------------------

general_word(
    "coins",
    {"n": int, "who": Who, "pay": bool},
    "A player gains coins (at most five held), or pays them (with pay).",
    lambda s: ("pay" if s.get("pay") else "gain",),
    [
        Route(("gain",), fx.OPS["gain_coins"], lambda s: f"{_who(s)} gain {_n(s)} coin(s)"),
        Route(("pay",), fx.OPS["pay_coins"], lambda s: f"{_who(s)} pay {_n(s)} coin(s)"),
    ],
)
alias("gain_coins", "coins", {"n": int, "who": Who}, {"pay": False})
alias("pay_coins", "coins", {"n": int, "who": Who}, {"pay": True})


def _ban_text(s: Step) -> str:
    return f"{_who(s)} cannot use spells this turn".replace("you cannot", "you can no longer")


def _attacks_text(s: Step) -> str:
    amount = int(s.get("amount", -1))
    return f"this LRIG may attack {abs(amount)} time(s) {'more' if amount > 0 else 'fewer'} this turn"


def _lasts_text(s: Step) -> str:
    return durations.duration_text(s["lasts"]) if "lasts" in s else "this turn"


def _limit_text(s: Step) -> str:
    whose = "your" if s.get("who", "you") == "you" else "the opponent's"
    return f"{_lasts_text(s)}, {whose} center LRIG's limit gets {int(s.get('amount', 0)):+d}"


def _draws_text(s: Step) -> str:
    who = "you" if s.get("who", "opponent") == "you" else "the opponent"
    return f"{_lasts_text(s)}, {who} may draw at most {s.get('amount')} card(s) in all"


def _restrict_check(step: Step) -> list[str]:
    lasts = step.get("lasts")
    out = [f"step restrict: {p}" for p in durations.duration_problems(lasts)] if lasts is not None else []
    if "lasts" in step and step.get("what") not in ("limit", "draws"):
        out.append("step restrict: only a limit or a cap on draws takes a duration (lasts)")
    if step.get("what") in ("limit", "draws") and not isinstance(step.get("amount"), int):
        out.append("step restrict: a limit change or a cap on draws names its amount")
    return out


general_word(
    "restrict",
    {
        "what": Literal[
            "spells",
            "attack_zone",
            "attacks",
            "signi_attacks",
            "vanish_to_ener",
            "single_minus",
            "attack_power",
            "signi_count",
            "other_signi",
            "ener_costs",
            "spell_cost",
            "no_attack_skipped",
            "unchosen_attacks",
            "limit",
            "draws",
        ],
        "who": Who,
        "amount": int,
        "lasts": dict[str, Any],
    },
    "For the rest of this turn a player may do less: use no spells (who), attack from none of the SIGNI zone "
    "its player chooses, or attack this LRIG amount times more or fewer, or attack with SIGNI amount times "
    "in all (who); or their SIGNI vanished go to the "
    "trash instead of the ener zone (vanish_to_ener); or the minus power your SIGNI's effects give the "
    "opponent's SIGNI counts twice (single_minus: it no longer counts once); or they put no SIGNI other than "
    "this card onto the field (other_signi); or, the other way, the next spell you use may have one ener "
    "item of its use cost paid as colorless (spell_cost). For the time a duration states "
    "(lasts: phases of a turn, or until the end of a phase to come; this turn unless given): a player's "
    "center LRIG's limit changes by amount (limit), or they may draw at most amount cards in all (draws).",
    lambda s: (str(s.get("what", "")),),
    [
        Route(("limit",), fx.OPS["raise_limit"], _limit_text),
        Route(("draws",), fx.OPS["cap_draws"], _draws_text),
        Route(("spells",), fx.OPS["ban_spells"], _ban_text),
        Route(
            ("spell_cost",),
            fx.OPS["ease_next_spell"],
            lambda _s: (
                "this turn, the next spell you use, you may pay one ener item of its use cost as colorless"
            ),
        ),
        Route(
            ("attack_zone",),
            fx.OPS["forbid_attack_zone"],
            lambda _s: "choose one of the opponent's SIGNI zones: SIGNI in it cannot attack this turn",
        ),
        Route(("attacks",), fx.OPS["attack_limit"], _attacks_text),
        Route(
            ("vanish_to_ener",),
            fx.OPS["vanished_to_trash_this_turn"],
            lambda s: (
                f"this turn, {'your' if s.get('who') == 'you' else 'the opponent' + chr(39) + 's'} SIGNI "
                "vanished go to the trash instead of the ener zone"
            ),
        ),
        Route(
            ("single_minus",),
            fx.OPS["double_minus_this_turn"],
            lambda _s: "this turn, the minus power your SIGNI's effects give the opponent's SIGNI is doubled",
        ),
        Route(
            ("unchosen_attacks",),
            fx.OPS["bar_unchosen_attacks"],
            lambda s: (
                f"this turn {'your' if s.get('who') == 'you' else 'the opponent' + chr(39) + 's'} SIGNI that "
                "do not have to attack cannot attack"
            ),
        ),
        Route(
            ("no_attack_skipped",),
            fx.OPS["compel_attacks"],
            lambda s: (
                f"this turn {'your' if s.get('who') == 'you' else 'the opponent' + chr(39) + 's'} SIGNI "
                "must attack if able"
            ),
        ),
        Route(
            ("ener_costs",),
            fx.OPS["lock_ener_costs"],
            lambda s: (
                f"this turn {'you' if s.get('who') == 'you' else 'the opponent'} cannot pay ener costs "
                "of one or more"
            ),
        ),
        Route(
            ("signi_count",),
            fx.OPS["cap_signi"],
            lambda s: (
                f"this turn {'you' if s.get('who') == 'you' else 'the opponent'} may have at most "
                f"{s.get('amount')} SIGNI on the field"
            ),
        ),
        Route(
            ("other_signi",),
            fx.OPS["bar_other_signi"],
            lambda s: (
                f"this turn {'the opponent' if s.get('who') == 'opponent' else 'you'} cannot put SIGNI other "
                "than this one onto the field"
            ),
        ),
        Route(
            ("attack_power",),
            fx.OPS["bar_attacks_by_power"],
            lambda s: (
                f"this turn {'your' if s.get('who') == 'you' else 'the opponent' + chr(39) + 's'} SIGNI with "
                f"{s.get('amount')} power or less cannot attack"
            ),
        ),
        Route(
            ("signi_attacks",),
            fx.OPS["signi_attack_limit"],
            lambda s: (
                f"this turn {'your' if s.get('who') == 'you' else 'the opponent' + chr(39) + 's'} SIGNI "
                f"may attack only {s.get('amount', 1)} time(s) in all"
            ),
        ),
    ],
    check=_restrict_check,
    required=("what",),
)
alias("raise_limit", "restrict", {"amount": int, "who": Who, "lasts": dict[str, Any]}, {"what": "limit"})
alias("cap_draws", "restrict", {"amount": int, "who": Who, "lasts": dict[str, Any]}, {"what": "draws"})
alias("ban_spells", "restrict", {"who": Who}, {"what": "spells"})
alias("forbid_attack_zone", "restrict", {}, {"what": "attack_zone"})
alias("attack_limit", "restrict", {"amount": int}, {"what": "attacks"})
alias("vanished_to_trash_this_turn", "restrict", {"who": Who}, {"what": "vanish_to_ener"})
alias("double_minus_this_turn", "restrict", {}, {"what": "single_minus"})
alias("ease_next_spell", "restrict", {}, {"what": "spell_cost"})
alias("signi_attack_limit", "restrict", {"amount": int, "who": Who}, {"what": "signi_attacks"})
alias("bar_attacks_by_power", "restrict", {"amount": int, "who": Who}, {"what": "attack_power"})
alias("cap_signi", "restrict", {"amount": int, "who": Who}, {"what": "signi_count"})
alias("bar_other_signi", "restrict", {"who": Who}, {"what": "other_signi"})
alias("lock_ener_costs", "restrict", {"who": Who}, {"what": "ener_costs"})
alias("compel_attacks", "restrict", {"who": Who}, {"what": "no_attack_skipped"})
alias("bar_unchosen_attacks", "restrict", {"who": Who}, {"what": "unchosen_attacks"})


# -- the other words ------------------------------------------------------------------------------


OR_ENER_TEXT = ", each or an ener card into the trash instead (with fewer, all there are: not done)"


def _discard_text(s: Step) -> str:
    f = tg.filter_text(s.get("filter", {}))
    if s.get("all"):
        return f"{_who(s)} discard every card {f}" if f else f"{_who(s)} discard the whole hand"
    up_to = "up to " if s.get("up_to") else ""
    return (
        f"{_who(s)} discard {up_to}{_n(s)}{' ' + f if f else ''}{per_text(s.get('per'))}"
        + (" at random" if s.get("random") else "")
        + (", chosen by you" if s.get("chooser") == "you" and s.get("who") == "opponent" else "")
        + (OR_ENER_TEXT if s.get("or_ener") else "")
    )


word(
    "discard",
    {
        "n": int | Literal["added"],
        "who": Who,
        "random": bool,
        "filter": dict[str, Any],
        "up_to": bool,
        "all": bool,
        "chooser": Literal["you"],
        "per": dict[str, Any],
        "or_ener": bool,
    },
    _discard_text,
    check=lambda s: [f"step discard: per: {p}" for p in per_problems(s["per"])] if "per" in s else [],
)(fx.OPS["discard"])


def _vanish_text(s: Step) -> str:
    instead = s.get("trash_if")
    if instead is None:
        return f"vanish {_t(s)}"
    return f"vanish {_t(s)}; if it is {tg.filter_text(instead).strip('()')}, put it into the trash instead"


word(
    "vanish",
    {"target": TARGET, "trash_if": dict[str, Any]},
    _vanish_text,
    targets=True,
    check=lambda s: [
        f"step vanish: unknown filter key(s) {sorted(bad)} in trash_if"
        for bad in [set(s.get("trash_if", {})) - set(tg.FILTER_KEYS)]
        if bad
    ],
)(fx.OPS["vanish"])
word("shuffle", {"who": Who}, lambda _s: "shuffle the deck")(fx.OPS["shuffle"])


_LOOK_WHERE = {
    "field": "onto your field",
    "hand_or_field": "to your hand or onto your field",
    "ener": "into your ener zone",
    "hand": "to your hand",
    "under": "under this card",
    "trash": "into your trash",
}


def _look_pick_problems(s: Step) -> list[str]:
    """A group of picks may name its own destination (``to``)."""
    groups = s["picks"] if "picks" in s else [s.get("pick", {})]
    return [
        f"step look: a pick's to is one of {sorted(_LOOK_WHERE)}"
        for g in groups
        if isinstance(g, dict) and "to" in g and g["to"] not in _LOOK_WHERE
    ]


def _look_top_text(step: Step) -> str:
    groups = step["picks"] if "picks" in step else [step.get("pick", {})]
    picks = " and ".join(
        ("up to " if g.get("up_to", True) else "")
        + f"{g.get('count', 1)} {tg.filter_text(g.get('filter', {}))}".rstrip()
        + (" sharing no colour with the card(s) taken before" if g.get("unlike_taken") else "")
        + (f" ({_LOOK_WHERE.get(g['to'], 'to your hand')})" if "to" in g else "")
        for g in groups
    )
    where = {
        "field": "onto your field",
        "hand_or_field": "to your hand or onto your field",
        "ener": "into your ener zone",
    }.get(step.get("to", "hand"), "to your hand")
    if step.get("downed") and step.get("to") in ("field", "hand_or_field"):
        where += " downed"
    if step.get("rest") == "top":
        return f"look at the top {step['n']}, take {picks} {where}, the rest staying on top"
    rest = "trash" if step.get("rest") == "trash" else "bottom of the deck"
    if step.get("rest") == "top_one":
        rest = "top of the deck, one of them, and the others to the bottom of the deck"
    if rest != "trash" and step.get("order") == "chosen":
        rest += " in the order you choose"
    if step.get("rest") == "hand":
        rest = "hand"
    looked = f"the top {step['n']}" + (" and the bottom card" if step.get("and_bottom") else "")
    if step.get("from_bottom"):
        looked = f"the bottom {step['n']} card(s) of your deck"
    how = "reveal" if step.get("from_bottom") and step.get("reveal") else "look at"
    each = "each player, the turn player first, does this with their own deck: " if step.get("each") else ""
    return f"{each}{how} {looked}, take {picks} {where}, the rest to the {rest}"


def _look_text(s: Step) -> str:
    verb = "reveal" if s.get("reveal") else "look at"
    whose = _whose(s) if s.get("zone", "life_cloth") == "life_cloth" else "your"
    return f"{verb} the top {_n(s)} of {whose} {s.get('zone', 'life_cloth').replace('_', ' ')}"


def _arrange_text(s: Step) -> str:
    if s.get("bottom") is False:
        return f"look at the top {_n(s)} of your deck and put them back on top in the order you choose"
    keep = f" (at most {s['keep_max']} back on top)" if "keep_max" in s else ""
    keep = f" (exactly {s['keep']} back on top)" if "keep" in s else keep
    return (
        f"look at the top {_n(s)} of your deck, put any of them on the bottom and the rest back on "
        f"top{keep}, each in the order you choose"
    )


def _piles_text(s: Step) -> str:
    return (
        f"look at the top {_n(s)} of your deck and split them into a face-up pile of {s.get('pile', 1)} and "
        "a face-down pile of the rest; the opponent puts one pile into your trash, and you add the other to "
        "your hand"
    )


def _look_hand_text(s: Step) -> str:
    if "take" in s:
        whose = "your" if s.get("who") == "you" else "the opponent's"
        which = (
            f"{s['random']} cards chosen at random from {whose} hand" if "random" in s else f"{whose} hand"
        )
        what = tg.filter_text(s["take"].get("filter", {}))
        may = "you may put up to one" if s["take"].get("up_to") else "put one"
        return f"look at {which} and {may} of them {what} on the bottom of its deck".replace("  ", " ")
    if "pick" in s:
        what = tg.filter_text(s["pick"].get("filter", {}))
        most = f"up to {s['pick']['count']}" if "count" in s["pick"] else "any number of"
        return f"reveal {most} cards {what} of your hand".replace("  ", " ")
    return (
        ("reveal " if s.get("reveal") else "look at ")
        + f"{'your' if s.get('who') == 'you' else 'the opponent' + chr(39) + 's'} hand"
        + (" and the top card of that deck" if s.get("deck_top") else "")
    )


_LOOK_TOP = {
    "n": int,
    "pick": dict[str, Any],
    "picks": list[dict[str, Any]],
    "to": Literal["hand", "field", "hand_or_field", "ener", "under", "trash"],
    "rest": Literal["bottom", "trash", "top", "top_one", "hand"],
    "and_bottom": bool,
    "from_bottom": bool,
    "no_enter": bool,
    "downed": bool,
    "reveal": bool,
    "order": Literal["chosen"],
    "each": bool,
}
_LOOK_HAND = {
    "who": Who,
    "reveal": bool,
    "deck_top": bool,
    "pick": dict[str, Any],
    "random": int,
    "take": dict[str, Any],
}


def _rest_top_many(s: Step) -> bool:
    """A look that leaves more than one card on top needs their order: refused (rest "top": n 1) unless its
    player chooses it (``order: chosen``: "put the rest back on top in any order")."""
    return s.get("rest") == "top" and s.get("n") != 1 and s.get("order") != "chosen"


general_word(
    "look",
    {
        "zone": Literal["life_cloth", "deck", "hand"],
        "do": Literal["take", "arrange", "piles"],
        "pile": int,
        "bottom": bool,
        "keep_max": int,
        "keep": int,
        **_LOOK_TOP,
        **_LOOK_HAND,
    },
    "Look at cards of a hidden zone: the top n of your Life Cloth or deck; of the deck, take some of them "
    "(do: take) or arrange them (do: arrange; bottom: false, only their order on top) or split them into a "
    "face-up pile of some and a face-down pile of the rest, one for the trash as the opponent chooses, the "
    "other for the hand (do: piles, pile); a player's hand (who, reveal, deck_top).",
    lambda s: (str(s.get("zone", "life_cloth")), str(s.get("do", ""))),
    [
        Route(("life_cloth", ""), fx.OPS["look"], _look_text),
        Route(("deck", ""), fx.OPS["look"], _look_text),
        Route(("deck", "take"), fx.OPS["look_top"], _look_top_text),
        Route(("deck", "arrange"), fx.OPS["arrange_top"], _arrange_text),
        Route(("deck", "piles"), fx.OPS["split_piles"], _piles_text),
        Route(("hand", ""), fx.OPS["look_hand"], _look_hand_text),
    ],
    check=lambda s: (
        _look_pick_problems(s)
        + (["step look: n is required"] if s.get("do") == "take" and "n" not in s else [])
        + (
            ["step look: the rest stays on top only when one card is looked at, or in an order chosen"]
            if _rest_top_many(s)
            else []
        )
        + (
            ["step look: each (each player with their own deck) is only for looking at the deck's top"]
            if s.get("each") and s.get("do") != "take"
            else []
        )
        + (
            ["step look: downed is only for cards put onto the field"]
            if s.get("downed") and s.get("to") not in ("field", "hand_or_field")
            else []
        )
    ),
)
alias("look_top", "look", _LOOK_TOP, {"zone": "deck", "do": "take"})
_ARRANGE = {"n": int, "bottom": bool, "keep_max": int, "keep": int}
alias("arrange_top", "look", _ARRANGE, {"zone": "deck", "do": "arrange"})
alias("split_piles", "look", {"n": int, "pile": int}, {"zone": "deck", "do": "piles"})
alias("look_hand", "look", _LOOK_HAND, {"zone": "hand"})
word(
    "damage",
    {"who": Who},
    lambda s: f"this card deals damage to {'you' if s.get('who') == 'you' else 'the opponent'}",
)(fx.OPS["damage"])


def _crush_text(s: Step) -> str:
    cancel = ""
    if s.get("burst_cancel"):
        cancel = (
            "; if its player chooses to use its Life Burst, you may pay "
            f"{fx.describe_cost(s['burst_cancel'])} so that it does not activate"
        )
    whose = "your" if s.get("who") == "you" else "the opponent's"
    return f"crush {_n(s)} of {whose} Life Cloth{cancel}"


word(
    "crush",
    {"n": int, "who": Who, "burst_cancel": dict[str, Any]},
    _crush_text,
    check=lambda s: (
        ["step crush: burst_cancel is an ener cost"] if set(s.get("burst_cancel") or {}) - {"ener"} else []
    ),
)(fx.OPS["crush"])
general_word(
    "reposition",
    {"to": Literal["attacker_front", "zone", "swap", "rearrange"], "target": TARGET},
    "A SIGNI moves on its field: this one to the zone in front of the attacking SIGNI (to: attacker_front), "
    "the target to another, empty, SIGNI zone (to: zone), or two SIGNI change places (to: swap: the two "
    "targets, or the target and this one), or the targets are put back in the zones as you choose (to: "
    "rearrange).",
    lambda s: (str(s.get("to", "")),),
    [
        Route(
            ("attacker_front",),
            fx.OPS["move_to_attacker_front"],
            lambda _s: "move this SIGNI to the zone in front of the attacking SIGNI",
        ),
        Route(("zone",), fx.OPS["relocate"], lambda s: f"move {_t(s)} to another, empty, SIGNI zone"),
        Route(
            ("swap",),
            fx.OPS["swap_places"],
            lambda s: (
                f"swap the places of {_t(s)}"
                + ("" if int(s.get("target", {}).get("count", 1)) > 1 else " and this SIGNI")
            ),
        ),
        Route(
            ("rearrange",),
            fx.OPS["rearrange"],
            lambda s: f"put {_t(s)} back in the SIGNI zones as you choose",
        ),
    ],
    required=("to",),
    check=lambda s: [] if s.get("to") == "attacker_front" or "target" in s else ["step reposition: a target"],
)
alias("move_to_attacker_front", "reposition", {}, {"to": "attacker_front"})
alias("relocate", "reposition", {"target": TARGET}, {"to": "zone"}, targets=True)
alias("swap_places", "reposition", {"target": TARGET}, {"to": "swap"}, targets=True)
alias("rearrange", "reposition", {"target": TARGET}, {"to": "rearrange"}, targets=True)


def _swap_text(s: Step) -> str:
    if s.get("with") == "revealed":
        enter = " (its [Enter] abilities do not activate)" if s.get("no_enter") else ""
        return f"swap {_t(s)} with the card just revealed on top of your deck{enter}"
    if s.get("with") == "deck_top":
        return f"swap {_t(s)} with the top card of your deck (it goes on top, that card into the ener zone)"
    if s.get("with") == "attacker":
        enter = " (its [Enter] abilities do not activate)" if s.get("no_enter") else ""
        return f"swap your attacking SIGNI with {_t(s)}{enter}"
    return f"swap this SIGNI with {_t(s)}"


word(
    "swap_with_ener",
    {"target": TARGET, "with": Literal["revealed", "deck_top", "attacker"], "no_enter": bool},
    _swap_text,
    targets=True,
)(fx.OPS["swap_with_ener"])


def _prevent_text(s: Step) -> str:
    times = {1: "the next time", 2: "the next two times"}.get(
        s.get("times", 1), f"the next {s.get('times')} times"
    )
    if s.get("all"):
        times = "each time"
    then = steps_text(s.get("then", []))
    source = {"signi": " from a SIGNI", "lrig": " from an LRIG"}.get(str(s.get("from")), "")
    if s.get("filter"):
        source = f"{source or ' from a card'} {tg.filter_text(s['filter'])}"
    if s.get("whose") == "opponent":
        source = f"{source or ' from a card'} of the opponent's"
    return f"this turn, {times} you would take damage{source}, you take none instead" + (
        f" and {then}" if then else ""
    )


def _prevent_check(s: Step) -> list[str]:
    if ("target" in s) != (expand(s).get("what") == "effect"):
        return ["step prevent: a target is what a counter (what: effect) takes, and only it"]
    if "target" in s and s["target"].get("zone") != "check":
        return ["step counter: its target waits in the check zone (zone: check)"]
    if (s.get("all") or s.get("filter") or s.get("whose")) and expand(s).get("what") != "damage":
        return ["step prevent: all, filter and whose are only for damage"]
    if s.get("all") and "times" in s:
        return ["step prevent_damage: all (each time this turn) takes no times"]
    bad = set(s.get("filter", {})) - set(tg.FILTER_KEYS)
    if bad:
        return [f"step prevent_damage: unknown filter key(s) {sorted(bad)}"]
    if any(x.get("op") != "grant_ability" or not x.get("target", {}).get("self") for x in s.get("then", [])):
        return ["step prevent_damage: what happens with it may only give this card an ability"]
    return []


general_word(
    "prevent",
    {
        "what": Literal["attack", "damage", "next_attack", "effect"],
        "target": TARGET,
        "times": int,
        "then": STEPS,
        "from": Literal["signi", "lrig"],
        "all": bool,
        "filter": dict[str, Any],
        "whose": Literal["opponent"],
    },
    "Something does not happen: the attack in progress is negated, or the next times you would take damage "
    "this turn (from: only damage a SIGNI or an LRIG deals; filter: only damage a card fitting it deals; "
    "all: each time this turn, not only the next; whose: only damage the opponent's cards deal) you take "
    "none (then: what the card gains with it), or the effect of a target spell or PIECE waiting in the check "
    "zone is countered (what: effect).",
    lambda s: (str(s.get("what", "")),),
    [
        Route(("attack",), fx.OPS["negate_attack"], lambda _s: "negate that attack"),
        Route(("damage",), fx.OPS["prevent_damage"], _prevent_text),
        Route(
            ("next_attack",),
            fx.OPS["negate_next_attack"],
            lambda _s: "this turn, the next time a SIGNI attacks, negate that attack",
        ),
        Route(("effect",), fx.OPS["counter"], lambda s: f"counter the effect of {_t(s)}"),
    ],
    check=_prevent_check,
    required=("what",),
)
alias("negate_attack", "prevent", {}, {"what": "attack"})
alias("counter", "prevent", {"target": TARGET}, {"what": "effect"}, targets=True)
alias("negate_next_attack", "prevent", {}, {"what": "next_attack"})
alias(
    "prevent_damage",
    "prevent",
    {
        "times": int,
        "then": STEPS,
        "from": Literal["signi", "lrig"],
        "all": bool,
        "filter": dict[str, Any],
        "whose": Literal["opponent"],
    },
    {"what": "damage"},
)


# -- control words: they steer the effect ---------------------------------------------------------


def _modes_text(s: Step) -> str:
    modes = " / ".join(steps_text(m) for m in s["modes"])
    k = s.get("choose", 1)
    count: Any = {
        "opponent_center_level": "as many as the opponent's center LRIG's level",
        "center_level": "one for each level of your center LRIG",
    }.get(str(k), k)
    if isinstance(k, dict):
        from domain.abilities.measures import text as measure_text

        count = f"one for every {k.get('every', 1)} of {measure_text(k.get('measure', {}))}"
    again = ", repeats allowed" if s.get("repeat") else ""
    up_to = "up to " if s.get("up_to") else ""
    who = "the opponent chooses" if s.get("chooser") == "opponent" else "choose"
    return f"{who} {up_to}{count}{again}: {modes}"


word(
    "modes",
    {
        "choose": int | Literal["opponent_center_level", "center_level"] | dict[str, Any],
        "modes": MODES,
        "repeat": bool,
        "up_to": bool,
        "chooser": Literal["opponent"],
    },
    _modes_text,
    control=True,
    check=lambda s: (
        [f"step modes: {p}" for p in problems(s["choose"].get("measure"))]
        if isinstance(s.get("choose"), dict)
        else []
    ),
    required=("modes",),
)(fx.OPS["modes"])


def _if_text(s: Step) -> str:
    other = steps_text(s.get("else", []))
    return f"{_first(s)}if {tg.condition_text(s['condition'])}: {steps_text(s.get('then', []))}" + (
        f", otherwise {other}" if other else ""
    )


word(
    "if",
    {"condition": dict[str, Any], "then": STEPS, "else": STEPS, "target_first": bool},
    _if_text,
    control=True,
    check=lambda s: tg.condition_problems(s.get("condition", {})) + _target_first_check("if")(s),
)(fx.OPS["if"])


def _first(s: Step) -> str:
    """``target_first``: the text of a control step says that its target is chosen before its question."""
    return "choose the target first; then " if s.get("target_first") else ""


def _target_first_check(name: str) -> Check:
    """``target_first`` needs a step of ``then`` (at its own level) that takes targets, chosen first."""

    def check(s: Step) -> list[str]:
        if s.get("target_first") and first_targeted(s.get("then", [])) is None:
            return [f"step {name}: target_first, but no step of then takes targets"]
        return []

    return check


def _may_pay_text(s: Step) -> str:
    then, other = steps_text(s.get("then", [])), steps_text(s.get("else", []))
    if "costs" in s:  # "you may pay X or Y"
        what = " or ".join(fx.describe_cost(c) for c in s["costs"])
        return f"{_first(s)}you may pay {what}" + (f"; if you do: {then}" if then else "")
    if not s["cost"]:
        return f"{_first(s)}you may: {then}"
    may = "pay, if you can," if s.get("must") else "you may pay"
    per = " for each level of the target" if s.get("per") == "target_level" else ""
    if "less" in s:
        from domain.abilities.measures import text as measure_text

        per += f", one colorless less for each of {measure_text(s['less'])}"
    text = f"{_first(s)}{may} {fx.describe_cost(s['cost'])}{per}"
    text += f"; if you do: {then}" if then else ""
    return text + (f"; if you do not: {other}" if other else "")


def _cost_check(name: str) -> Any:
    def check(s: Step) -> list[str]:
        from domain.abilities.catalogue import COST_KEYS, DOWN_COST_PROBLEM

        costs = [s.get("cost", {}), *s.get("costs", [])]
        out = [f"step {name}: unknown cost {k!r}" for c in costs for k in c if k not in COST_KEYS]
        if name == "may_pay" and ("cost" in s) == ("costs" in s):
            out.append("step may_pay: one cost, or a list of costs to choose from (costs)")
        out += _target_first_check(name)(s)
        if s.get("per") and not s.get("target_first"):
            out.append(f"step {name}: per target_level needs target_first")
        out += [f"step {name}: less: {p}" for p in problems(s["less"])] if "less" in s else []
        return out + ([f"step {name}: {DOWN_COST_PROBLEM}"] if "down" in s.get("cost", {}) else [])

    return check


word(
    "may_pay",
    {
        "cost": Cost,
        "costs": list[Cost],
        "then": STEPS,
        "else": STEPS,
        "choose_payment": bool,
        "target_first": bool,
        "must": bool,
        "per": Literal["target_level"],
        "less": dict[str, Any],
    },
    _may_pay_text,
    control=True,
    check=_cost_check("may_pay"),
)(fx.OPS["may_pay"])
word(
    "may",
    {"who": Who, "then": STEPS, "target_first": bool},
    lambda s: f"{_first(s)}{_who(s)} may: {steps_text(s.get('then', []))}",
    control=True,
    check=_target_first_check("may"),
)(fx.OPS["may"])


def _unless_text(s: Step) -> str:
    costs = s["costs"] if "costs" in s else [s.get("cost", {})]
    what = " or ".join(fx.describe_cost(c) for c in costs)
    payer = "you pay" if s.get("who") == "you" else "the opponent pays"
    paid = ""
    if s.get("paid"):  # "the opponent may pay ...; if they do, ..."
        paid = f"; if {'you do' if s.get('who') == 'you' else 'they do'}, {steps_text(s['paid'])}"
        if not s.get("then"):
            return f"{_first(s)}{'you' if s.get('who') == 'you' else 'the opponent'} may pay {what}{paid}"
    return f"{_first(s)}{steps_text(s.get('then', []))}, unless {payer} {what}{paid}"


def _unless_check(s: Step) -> list[str]:
    if ("cost" in s) == ("costs" in s):
        return ["step unless: one cost, or a list of costs to choose from (costs)"]
    check = _cost_check("unless")
    out = [p for c in (s["costs"] if "costs" in s else [s["cost"]]) for p in check({"cost": c})]
    return out + _target_first_check("unless")(s)


word(
    "unless",
    {"cost": Cost, "costs": list[Cost], "then": STEPS, "who": Who, "target_first": bool, "paid": STEPS},
    _unless_text,
    control=True,
    check=_unless_check,
)(fx.OPS["unless"])


def _delay_text(s: Step) -> str:
    if s.get("until") == "enters":  # each time this turn
        whose = "yours" if s.get("whose", "you") == "you" else "the opponent's"
        how = " by an effect" if s.get("by") == "effect" else ""
        then = steps_text(s.get("then", []))
        return f"this turn, each time a SIGNI of {whose} enters the field{how}: {then}"
    if s.get("until") == "attacks":
        what = (
            tg.target_text(s["target"])
            if "target" in s
            else f"a SIGNI of {'yours' if s.get('whose', 'you') == 'you' else 'the opponent'}"
        )
        when = "each time" if s.get("each") else "the next time"
        return f"this turn, {when} {what} attacks: {steps_text(s.get('then', []))}"
    return {
        "end_phase": "at the start of your next end phase",
        "opponent_next_turn": "during the opponent's next turn",
        "turn_end": "at the end of this turn",
    }.get(str(s.get("until")), "at the end of this attack") + f": {steps_text(s.get('then', []))}"


def _delay_check(s: Step) -> list[str]:
    """``target``, ``whose`` and ``each`` belong to ``until: attacks`` (one of target and whose); ``whose``
    and ``by`` to ``until: enters``."""
    if s.get("until") == "enters":
        wrong = [k for k in ("target", "each") if k in s]
        return [f"step delay: {', '.join(wrong)} not with until: enters"] if wrong else []
    if "by" in s:
        return ["step delay: by only with until: enters"]
    if s.get("until") != "attacks":
        extra = [k for k in ("target", "whose", "each") if k in s]
        return [f"step delay: {', '.join(extra)} only with until: attacks"] if extra else []
    if ("target" in s) == ("whose" in s):
        return ["step delay: until attacks watches a target or any SIGNI of a player (whose), one of them"]
    return []


word(
    "delay",
    {
        "until": Literal["attack_end", "end_phase", "opponent_next_turn", "turn_end", "attacks", "enters"],
        "by": Literal["effect"],
        "then": STEPS,
        "target": TARGET,
        "whose": Who,
        "each": bool,
    },
    _delay_text,
    control=True,
    check=_delay_check,
)(fx.OPS["delay"])
word("then", {}, lambda _s: "then", control=True)(fx.OPS["then"])


def _reveal_text(s: Step) -> str:
    inner = steps_text(s.get("then", []))
    whose = "the opponent's deck" if s.get("who") == "opponent" else "your deck"
    n = int(s.get("n", 1))
    if n > 1:
        top = f"reveal the top {n} cards of {whose}"
        return top if not inner else f"{top}; if one is {tg.filter_text(s.get('filter', {}))}: {inner}"
    if not inner:
        return f"reveal the top card of {whose}"
    return f"reveal the top card of {whose}; if it is {tg.filter_text(s.get('filter', {}))}: {inner}"


word(
    "reveal_top", {"filter": dict[str, Any], "then": STEPS, "who": Who, "n": int}, _reveal_text, control=True
)(fx.OPS["reveal_top"])


def _declare_text(s: Step) -> str:
    if s.get("what") == "color":
        return "declare a colour (later steps name it as declared_color)"
    hi = s.get("max", 5)
    top = "the level of the opponent's center LRIG" if hi == "opponent_center_level" else str(hi)
    return f"declare a number from {s.get('min', 0)} to {top}"


word(
    "declare",
    {"min": int, "max": int | Literal["opponent_center_level"], "what": Literal["number", "color"]},
    _declare_text,
    control=True,
)(fx.OPS["declare"])
