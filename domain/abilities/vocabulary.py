"""The vocabulary of effect steps: one registry entry per word.

A *word* (``Word``) is everything the service knows about one kind of step, in one place: its name, its typed
parameters (checked when the encodings load), how it runs, how it reads in English (for explanations, prompts
and the card text the console shows), what else is checked of it, and whether it targets. A general word may
take several *routes*: ``move`` is one word for every zone change, and each way it can go (from the field to
the owner's hand, from the top of the deck to the ener zone ...) is a ``Route`` with its own runner and text.

An *alias* (``Alias``) is an older, narrower name that stands for a general word with some parameters fixed:
``bounce`` is ``move`` to the owner's hand, ``down`` is ``modify`` with ``change: downed``. An encoding may
write either; ``expand`` gives the general form of a step written with an alias, and an aliased step reads and
runs exactly like its general form. The encoding files keep their aliases, so that the effects stored inside
``Asked`` events of matches in progress keep their shape.

Nothing here knows a particular word: ``domain.abilities.words`` fills the registry.
"""

from __future__ import annotations

import types
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, Union, get_args, get_origin

from domain.abilities.frames import Frame, Pending
from domain.abilities.frames import Step as Step  # a step as encoded: its word and parameters

if TYPE_CHECKING:
    from domain.recorder import Recorder

Op = Callable[["Recorder", Frame, Pending, list[str]], bool]  # False: it asked, the frame waits
Text = Callable[[Step], str]
Check = Callable[[Step], list[str]]

# Parameter types: Python types, ``Literal[...]`` and unions of them. ``STEPS`` marks a list of nested steps
# (checked as steps), ``MODES`` a list of such lists, ``TARGET`` a target spec (checked by the target rules).


class _Nested:
    """A parameter that holds steps: a list of steps, or a list of lists of them (modes)."""

    def __init__(self, depth: int) -> None:
        self.depth = depth

    def __repr__(self) -> str:
        return "a list of steps" if self.depth == 1 else "a list of lists of steps"


STEPS = _Nested(1)
MODES = _Nested(2)
TARGET = dict[str, Any]


@dataclass(frozen=True)
class Route:
    """One way a general word can go: its runner and its text."""

    key: tuple[str, ...]
    run: Op
    text: Text


@dataclass(frozen=True)
class Word:
    name: str
    params: Mapping[str, Any]  # parameter name -> type; ``op`` is implied
    run: Op
    text: Text
    doc: str
    targets: bool = False  # the step needs a ``target``
    control: bool = False  # the step steers the effect (branches, asks, inserts steps): it runs on its own
    check: Check | None = None  # what else is checked of a step, besides its parameters' types
    required: tuple[str, ...] = ()
    routes: Mapping[tuple[str, ...], Route] = field(default_factory=dict)
    route_of: Callable[[Step], tuple[str, ...]] | None = None


@dataclass(frozen=True)
class Alias:
    name: str
    of: str  # the general word
    params: Mapping[str, Any]  # the alias's own parameters (as the encodings write them)
    fixed: Callable[[Step], Step]  # the general word's parameters the alias stands for, given the step
    renamed: Mapping[str, str] = field(default_factory=dict)  # alias parameter -> general one ("": none)
    doc: str = ""
    targets: bool = False
    check: Check | None = None


WORDS: dict[str, Word] = {}
ALIASES: dict[str, Alias] = {}


def word(
    name: str,
    params: Mapping[str, Any],
    text: Text,
    *,
    targets: bool = False,
    control: bool = False,
    check: Check | None = None,
    required: tuple[str, ...] = (),
) -> Callable[[Op], Op]:
    """Register the decorated runner as the word ``name`` (its docstring is the word's description)."""

    def register(fn: Op) -> Op:
        _add(
            Word(name, dict(params), fn, text, (fn.__doc__ or "").strip(), targets, control, check, required)
        )
        return fn

    return register


def general_word(
    name: str,
    params: Mapping[str, Any],
    doc: str,
    route_of: Callable[[Step], tuple[str, ...]],
    routes: Iterable[Route],
    *,
    check: Check | None = None,
    required: tuple[str, ...] = (),
) -> Word:
    """Register a word that takes one of several routes, chosen from its parameters by ``route_of``."""
    table = {r.key: r for r in routes}

    def run(rec: Recorder, frame: Frame, at: Pending, chosen: list[str]) -> bool:
        return table[route_of(expand(at.step))].run(rec, frame, at, chosen)

    def text(step: Step) -> str:
        return table[route_of(expand(step))].text(step)

    w = Word(name, dict(params), run, text, doc, False, False, check, required, table, route_of)
    _add(w)
    return w


def _add(w: Word) -> None:
    if w.name in WORDS or w.name in ALIASES:
        raise ValueError(f"the word {w.name!r} is registered twice")
    WORDS[w.name] = w


def alias(
    name: str,
    of: str,
    params: Mapping[str, Any],
    fixed: Step | Callable[[Step], Step],
    *,
    renamed: Mapping[str, str] | None = None,
    doc: str = "",
    targets: bool = False,
    check: Check | None = None,
) -> Alias:
    if name in WORDS or name in ALIASES:
        raise ValueError(f"the word {name!r} is registered twice")
    fix = fixed if callable(fixed) else (lambda _s, f=dict(fixed): dict(f))
    a = Alias(name, of, dict(params), fix, dict(renamed or {}), doc, targets, check)
    ALIASES[name] = a
    return a


# -- reading steps --------------------------------------------------------------------------------


def expand(step: Step) -> Step:
    """The general form of a step: an aliased step with its general word's fixed parameters; a step of a
    general word as it is."""
    a = ALIASES.get(step.get("op", ""))
    if a is None:
        return step
    out = {a.renamed.get(k, k): v for k, v in step.items() if k != "op" and not k.startswith("_")}
    out.pop("", None)  # a parameter renamed to nothing: the fixed parameters say it
    return {"op": a.of, **out, **a.fixed(step)}


def core_name(name: str) -> str:
    a = ALIASES.get(name)
    return a.of if a is not None else name


def runner(name: str) -> Op:
    """How a step named ``name`` runs: an alias runs its general word's route, on the step as written (its
    progress is noted on that step)."""
    return WORDS[core_name(name)].run


def is_control(name: str) -> bool:
    w = WORDS.get(core_name(name))
    return w is not None and w.control


def targets(name: str) -> bool:
    a = ALIASES.get(name)
    if a is not None:
        return a.targets
    return name in WORDS and WORDS[name].targets


def step_text(step: Step) -> str:
    """A step in the project's words."""
    name = step["op"]
    w = WORDS.get(core_name(name))
    return w.text(step) if w is not None else str(name)


def steps_text(steps: Iterable[Step], sep: str = "; ") -> str:
    return sep.join(step_text(x) for x in steps)


# -- checking steps -------------------------------------------------------------------------------

TargetCheck = Callable[[str, dict[str, Any]], list[str]]
_target_check: list[TargetCheck] = []


def check_targets_with(fn: TargetCheck) -> None:
    """Set how a step's ``target`` spec is checked (the target rules live with the targets)."""
    _target_check[:] = [fn]


def step_problems(step: Step) -> list[str]:
    """Everything in a step that is outside the vocabulary: an unknown word or parameter, a value of the
    wrong type, a missing target, a route the general word does not take, and what the word checks itself."""
    name = step.get("op")
    if not isinstance(name, str) or core_name(name) not in WORDS:
        return [f"unknown step {name!r}"]
    a = ALIASES.get(name)
    params = a.params if a is not None else WORDS[name].params
    needs_target = a.targets if a is not None else WORDS[name].targets
    out = _param_problems(name, step, params)
    if needs_target and "target" not in step:
        out.append(f"step {name} needs a target")
    if "target" in step and _target_check and isinstance(step["target"], dict):
        out.extend(_target_check[0](name, step["target"]))
    if a is not None and a.check is not None:
        out.extend(a.check(step))
    if out:
        return out
    general = expand(step)
    w = WORDS[general["op"]]
    for p in w.required:
        if p not in general:
            out.append(f"step {name}: {p} is required")
    if w.route_of is not None and not out and w.route_of(general) not in w.routes:
        out.append(f"step {name}: {w.name} takes no route {'/'.join(w.route_of(general))}")
    if w.check is not None:
        out.extend(w.check(general))
    return out


def _param_problems(name: str, step: Step, params: Mapping[str, Any]) -> list[str]:
    out: list[str] = []
    extra = sorted(k for k in step if k != "op" and k not in params and not k.startswith("_"))
    if extra:
        out.append(f"step {name}: unknown field(s) {extra}")
    for key, kind in params.items():
        if key not in step:
            continue
        value = step[key]
        if kind is STEPS:
            out.extend(p for sub in _list(value) for p in step_problems(sub))
        elif kind is MODES:
            out.extend(p for mode in _list(value) for sub in _list(mode) for p in step_problems(sub))
        elif not fits(value, kind):
            out.append(f"step {name}: {key} must be {type_text(kind)}, not {value!r}")
    return out


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def fits(value: Any, kind: Any) -> bool:
    """Whether a JSON value has the type ``kind``."""
    origin = get_origin(kind)
    if origin is Literal:
        return value in get_args(kind)
    if origin in (Union, types.UnionType):
        return any(fits(value, k) for k in get_args(kind))
    if kind is Any:
        return True
    if kind is int:
        return isinstance(value, int) and not isinstance(value, bool)
    base = origin or kind
    return isinstance(value, base)


def type_text(kind: Any) -> str:
    origin = get_origin(kind)
    if origin is Literal:
        return "one of " + ", ".join(repr(a) for a in get_args(kind))
    if origin in (Union, types.UnionType):
        return " or ".join(type_text(k) for k in get_args(kind))
    base = origin or kind
    return {int: "a number", str: "a text", bool: "true or false", list: "a list", dict: "an object"}.get(
        base, str(kind)
    )


# -- the vocabulary as a table --------------------------------------------------------------------


def count_uses(encodings: Mapping[str, list[dict[str, Any]]]) -> dict[str, set[str]]:
    """Which cards use each step name (core words and aliases), nested steps and granted abilities
    included."""
    uses: dict[str, set[str]] = {}

    def walk(card: str, value: Any) -> None:
        if isinstance(value, dict):
            if isinstance(value.get("op"), str):
                uses.setdefault(value["op"], set()).add(card)
            for v in value.values():
                walk(card, v)
        elif isinstance(value, list):
            for v in value:
                walk(card, v)

    for card, abilities in encodings.items():
        for ab in abilities:
            if ab.get("kind") != "constant":
                walk(card, ab.get("effect", []))
    return uses


def table(encodings: Mapping[str, list[dict[str, Any]]]) -> list[str]:
    """The vocabulary, one line per word: its card count, its parameters, and its aliases under it."""
    uses = count_uses(encodings)
    lines = [f"{len(WORDS)} core words, {len(ALIASES)} aliases ({len(encodings)} encoded cards)"]
    for name in sorted(WORDS):
        w = WORDS[name]
        names = [name, *sorted(a for a, x in ALIASES.items() if x.of == name)]
        cards = set().union(*(uses.get(n, set()) for n in names))
        params = ", ".join(w.params) or "-"
        tag = " (targets)" if w.targets else " (control)" if w.control else ""
        lines.append(f"{name:<24} {len(cards):>4} cards  {{{params}}}{tag}")
        for a in names[1:]:
            fixed = ", ".join(f"{k}: {v}" for k, v in ALIASES[a].fixed({}).items())
            lines.append(f"  alias {a:<20} {len(uses.get(a, set())):>2} cards  = {name} {{{fixed}}}")
    return lines
