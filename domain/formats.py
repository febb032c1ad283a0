"""The formats a match is played in, and what each decides: the engine asks the match's format.

Two formats: ``DIVA`` (Diva Selection: seeds 000, 001 and 004; three LRIGs) and ``ORIGINAL`` (the earlier
single-LRIG game of seed 002). A format is data: its LRIG positions, its attack steps, its draws and hand
limit, its grow rule, its preset decks and the rules it cites. Where both formats play alike but the original
format has its own text (seed 002), the original format cites its own rule instead of the Diva rule:
``Format.cite`` maps one rule id to the other, for events and refusals alike.

What truly differs in behaviour (the attack phase's steps, the deck construction, the LRIGs a player starts
with) is a hook: the module that plays it registers it onto its format when imported (``domain.procedure``,
``domain.decks`` and ``domain.setup`` for Diva; ``domain.original`` for the original format, which
``domain.engine`` and ``domain.setup`` import). This module imports nothing of the engine: every engine module
may import it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, TypeVar

from domain.errors import IllegalAction

if TYPE_CHECKING:
    from domain.cards import Card, Catalogue
    from domain.decks import Deck, Problem
    from domain.recorder import Recorder
    from domain.state import GameState

__all__ = [
    "DIVA",
    "FORMATS",
    "FORMAT_NAMES",
    "HOOKS",
    "ORIGINAL",
    "Format",
    "FormatOption",
    "MissingFormatHook",
    "format_named",
    "format_of",
]

# the behaviour a format's module registers (``Format.registers``), with what each is called with
HOOKS: Mapping[str, str] = MappingProxyType(
    {
        "attack_step": "(rec: Recorder, tp: str) -> None: the next piece of the attack phase",
        "validate_deck": "(deck: Deck, catalogue: Catalogue, options: dict[str, Any]) -> list[Problem]: its "
        "construction problems under the format's options (every option given, defaults filled in)",
        "default_lrigs": "(deck: Deck) -> dict[str, str]: the LRIGs a player starts with, by position",
    }
)

F = TypeVar("F", bound=Callable[..., Any])


@dataclass(frozen=True)
class FormatOption:
    """A point of a format that no rules text at hand settles, which a match (a position, a deck check)
    may set.

    Its ``default`` is what the service does when the option is not given (and what a log written before the
    option existed is read with). ``values``: the words it takes; none: an integer from ``minimum`` to
    ``maximum``. ``rule``: the rule id it changes; ``applies``: ``deck`` (the deck check) or ``play``."""

    name: str
    default: str | int
    rule: str
    applies: str
    meaning: str  # what each value does, in words (docs/FORMATS.md, GET /rules)
    values: tuple[str, ...] = ()
    minimum: int = 0
    maximum: int = 0

    def refusal(self, value: Any) -> str | None:
        """Why ``value`` is not a value of this option (a sentence), or None."""
        if self.values:
            if isinstance(value, str) and value in self.values:
                return None
            return f"must be one of: {', '.join(self.values)}"
        if isinstance(value, int) and not isinstance(value, bool) and self.minimum <= value <= self.maximum:
            return None
        return f"must be an integer from {self.minimum} to {self.maximum}"


class MissingFormatHook(RuntimeError):
    """A format was asked for behaviour its module never registered (the module was not imported)."""


@dataclass(frozen=True, eq=False)
class Format:
    """A format's rules as data, and the hooks its modules register for what differs in behaviour."""

    name: str
    title: str
    lrig_positions: tuple[str, ...]
    attack_steps: tuple[str, ...]
    preset_ids: tuple[str, ...]
    preset_file: str  # in domain/data
    hook_module: str  # the module that registers this format's hooks (named in a missing hook's error)
    first_turn_draw: int = 1  # 001 "Draw Phase": the first player's first turn
    phase_draw: int = 2
    hand_limit: int = 6  # 001 "End Phase"
    # the grow's level rule: at most ``grow_up`` levels up; exactly that many unless an equal or lower level
    # is allowed (001 "Grow Phase": exactly one up; 002 "Grow Phase": at most one up, or equal, or lower)
    grow_up: int = 1
    grow_equal_or_lower: bool = False
    # the project's own sample decks (not boxed products' lists): presets a match or a simulation may use,
    # listed after the starter decks, in their own file in domain/data
    sample_ids: tuple[str, ...] = ()
    sample_file: str | None = None
    # the rule this format cites where the engine would cite a Diva rule: none for Diva itself
    citations: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    # the points no source settles, which a match may set (``FormatOption``; docs/FORMATS.md)
    options: tuple[FormatOption, ...] = ()
    _hooks: dict[str, Callable[..., Any]] = field(default_factory=dict, init=False, repr=False)

    # -- hooks ----------------------------------------------------------------------------------------

    def registers(self, hook: str) -> Callable[[F], F]:
        """Decorator: the decorated function is this format's ``hook`` (one of ``HOOKS``)."""
        if hook not in HOOKS:
            raise ValueError(f"{hook!r} is not a format hook; the hooks are: {', '.join(HOOKS)}")

        def register(fn: F) -> F:
            self._hooks[hook] = fn
            return fn

        return register

    def hook(self, hook: str) -> Callable[..., Any]:
        """The function registered as ``hook``; ``MissingFormatHook`` when its module was not imported."""
        found = self._hooks.get(hook)
        if found is None:
            raise MissingFormatHook(
                f"the {self.name} format has no {hook!r}: import {self.hook_module}, which registers it"
            )
        return found

    def attack_step(self, rec: Recorder, tp: str) -> None:
        """The next piece of the attack phase."""
        self.hook("attack_step")(rec, tp)

    def validate_deck(
        self, deck: Deck, catalogue: Catalogue, options: Mapping[str, Any] | None = None
    ) -> list[Problem]:
        """The deck's problems under this format's deck construction, with ``options`` (checked values; the
        defaults where absent)."""
        problems: list[Problem] = self.hook("validate_deck")(deck, catalogue, self.settings(options))
        return problems

    def default_lrigs(self, deck: Deck) -> dict[str, str]:
        lrigs: dict[str, str] = self.hook("default_lrigs")(deck)
        return lrigs

    # -- options --------------------------------------------------------------------------------------

    def option_problems(self, given: Any) -> dict[str, str]:
        """What is wrong with ``given`` as this format's options, by option name (empty: nothing)."""
        if not isinstance(given, Mapping):
            return {"options": "must be an object of option names and values"}
        known = {o.name: o for o in self.options}
        out: dict[str, str] = {}
        for name, value in given.items():
            option = known.get(name)
            if option is None:
                names = ", ".join(known) or "none"
                out[str(name)] = f"is not an option of the {self.name} format (its options: {names})"
            elif (why := option.refusal(value)) is not None:
                out[name] = why
        return out

    def resolve_options(self, given: Any) -> dict[str, Any]:
        """Every option of this format with its value: ``given``'s, else the default. ``IllegalAction``
        (``format.options``) names an unknown option or a bad value."""
        problems = self.option_problems({} if given is None else given)
        if problems:
            text = "; ".join(f"{name} {why}" for name, why in problems.items())
            raise IllegalAction("format.options", f"the {self.name} format's options: {text}")
        return self.settings(given)

    def settings(self, given: Mapping[str, Any] | None) -> dict[str, Any]:
        """Every option with its value in ``given`` (values already checked), the default where absent."""
        given = given or {}
        return {o.name: given.get(o.name, o.default) for o in self.options}

    def setting(self, given: Mapping[str, Any] | None, name: str) -> Any:
        """One option's value in ``given`` (the default where absent); None for an option the format lacks."""
        option = next((o for o in self.options if o.name == name), None)
        if option is None:
            return None
        return (given or {}).get(name, option.default)

    # -- data -----------------------------------------------------------------------------------------

    def cite(self, rule: str) -> str:
        """The rule id this format cites for what the engine calls ``rule``."""
        return self.citations.get(rule, rule)

    def cite_all(self, error: IllegalAction) -> IllegalAction:
        """The same refusal, citing this format's rules (itself when nothing changes)."""
        refs = tuple(self.cite(r) for r in error.rule_refs)
        if refs == error.rule_refs:
            return error
        return type(error)(refs, error.message)

    def grow_level_refusal(self, old: Card, new: Card) -> str | None:
        """Why ``new`` cannot be grown onto ``old`` by level (a sentence), or None."""
        up = (new.level or 0) - (old.level or 0)
        if self.grow_equal_or_lower:
            if up > self.grow_up:
                return (
                    f"{new.name} is level {new.level}: {old.name} (level {old.level}) grows at most "
                    f"{_levels(self.grow_up)} up (an equal or lower level is allowed)"
                )
        elif up != self.grow_up:
            return (
                f"{new.name} is level {new.level}: {old.name} (level {old.level}) grows exactly "
                f"{_levels(self.grow_up)} up"
            )
        return None


def _levels(n: int) -> str:
    return "one level" if n == 1 else f"{n} levels"


DIVA = Format(
    name="diva",
    title="Diva Selection",
    lrig_positions=("center", "left", "right"),
    attack_steps=("pre_attack", "defense", "signi_attack", "lrig_attack", "guard"),
    preset_ids=(
        "WXDi-D01",
        "WXDi-D02",
        "WXDi-D03",
        "WXDi-D04",
        "WXDi-D05",
        "WXDi-D06",
        "WXDi-D07",
        "WXDi-D08",
        "WXDi-D09-H",
        "WXDi-D09-P",
    ),
    preset_file="decks.json",
    hook_module="domain.procedure, domain.decks and domain.setup",
    sample_ids=(
        "SAMPLE-WHITE",
        "SAMPLE-RED",
        "SAMPLE-BLUE",
        "SAMPLE-GREEN",
        "SAMPLE-BLACK",
        "SAMPLE-TRICOLOR",
    ),
    sample_file="decks_sample.json",
)
# The earlier single-LRIG game (seed 002): one LRIG at set-up and no assists, a grow to an equal or lower
# level as well, an attack phase of four steps opening with the ARTS use step, and the deck construction of
# its era (``domain.original``); its demo decks are the project's own, built from the WD01 ... WD05 cards.
ORIGINAL = Format(
    name="original",
    title="the original single-LRIG format",
    lrig_positions=("center",),
    attack_steps=("arts_use", "signi_attack", "lrig_attack", "guard"),
    preset_ids=("DEMO-WD01", "DEMO-WD02", "DEMO-WD03", "DEMO-WD04", "DEMO-WD05"),
    preset_file="decks_original.json",
    hook_module="domain.original",
    grow_equal_or_lower=True,
    citations=MappingProxyType(
        {
            "setup.lrigs": "orig.setup.face-down",
            "setup.mulligan": "orig.setup.mulligan",
            "setup.reveal": "orig.setup.reveal",
            "draw.first-turn": "orig.draw.first-turn",
            "grow.level": "orig.grow.level",
            "grow.phase": "orig.grow.phase",
            "main.remove": "orig.main.remove",
            "remove.once": "orig.main.remove",
            "remove.resona": "orig.main.remove-resona",
            "attack.first-turn": "orig.attack.first-turn",
            "attack.phase": "orig.attack.phase",
            "attack.signi": "orig.attack.signi",
            "attack.lrig": "orig.attack.lrig",
            "guard.step": "orig.attack.guard",
            "end.hand-size": "orig.end.hand-size",
        }
    ),
    options=(
        FormatOption(
            "card_pool",
            "era",
            "orig.deck.era",
            "deck",
            "era: only cards printed in the era's sets; any: every card of the catalogue (card types still "
            "as the format allows)",
            values=("era", "any"),
        ),
        FormatOption(
            "life_bursts",
            "exactly_20",
            "orig.deck.life-burst",
            "deck",
            "exactly_20: the main deck holds exactly 20 Life Burst cards; at_most_20: 20 or fewer",
            values=("exactly_20", "at_most_20"),
        ),
        FormatOption(
            "lrig_deck_size",
            10,
            "orig.deck.lrig-size",
            "deck",
            "the most cards the LRIG deck may hold",
            minimum=1,
            maximum=100,
        ),
        FormatOption(
            "level0_lrigs",
            "one_or_more",
            "orig.deck.lrig-level0",
            "deck",
            "one_or_more: at least one level 0 LRIG (the player names the one to start with); exactly_one: "
            "one and no more",
            values=("one_or_more", "exactly_one"),
        ),
        FormatOption(
            "lancer",
            "triggered",
            "kw.lancer",
            "play",
            "triggered: Lancer crushes as a triggered ability, after the battle's other triggered abilities "
            "(the current rule); battle: the crush is part of the battle, at once after the vanish (the rule "
            "before 2018-02-22)",
            values=("triggered", "battle"),
        ),
    ),
)
FORMATS: Mapping[str, Format] = MappingProxyType({f.name: f for f in (DIVA, ORIGINAL)})
FORMAT_NAMES: tuple[str, ...] = tuple(FORMATS)


def format_named(name: str) -> Format:
    """The format called ``name``; ``IllegalAction`` (``format.unsupported``) for any other name."""
    found = FORMATS.get(name) if isinstance(name, str) else None
    if found is None:
        raise IllegalAction(
            "format.unsupported", f"format {name!r} is not supported; supported: {', '.join(FORMAT_NAMES)}"
        )
    return found


def format_of(state: GameState) -> Format:
    """The format of the match ``state`` belongs to (Diva for a state that names none it knows)."""
    return FORMATS.get(state.format, DIVA)
