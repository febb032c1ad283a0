"""The event recorder: a scratch state and the events an action produces on it, applied as they are made.

Every part of the rules that emits events (the procedure, rule processing, combat, answers, abilities) writes
through a ``Recorder``. After each event it gives the abilities that event triggers their chance to wait
(``domain.abilities.triggers``).

Randomness comes only from ``Recorder.random``, seeded by the match's seed and the event number, and its
outcome is written into the event (the new deck order): replaying a log never draws a number.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from domain.actions import Action
from domain.events import Event
from domain.evolve import apply
from domain.formats import format_of
from domain.state import GameState

LookBack = Callable[[GameState, str, dict[str, Any]], dict[str, Any]]
AfterEmit = Callable[["Recorder", Event, dict[str, Any]], None]
_TRIGGERS: tuple[frozenset[str], AfterEmit, LookBack] | None = None


def _triggers() -> tuple[frozenset[str], AfterEmit, LookBack]:
    """The event types that can trigger abilities, the hook that collects what they trigger, and the one
    that looks, before such an event applies, at what the SIGNI it takes off the field had from constants.

    Loaded on first use, once: ``domain.abilities`` imports the recorder at module level (through
    ``domain.engine`` today), so the recorder cannot import ``domain.abilities.triggers`` at module level
    until the abilities import it for type annotations only."""
    global _TRIGGERS
    if _TRIGGERS is None:
        from domain.abilities.triggers import TRIGGERING, after_emit, look_back

        _TRIGGERS = (frozenset(TRIGGERING), after_emit, look_back)
    return _TRIGGERS


_WATCH: tuple[Callable[[GameState], Any], Callable[[Recorder, Any], None]] | None = None


def _watch() -> tuple[Callable[[GameState], Any], Callable[[Recorder, Any], None]]:
    """What is watched before an event and checked after it: the keywords of SIGNI, for abilities that
    trigger on a SIGNI gaining one (loaded on first use, as the triggers are)."""
    global _WATCH
    if _WATCH is None:
        from domain.abilities.triggers import keywords_gained, keywords_watched

        _WATCH = (keywords_watched, keywords_gained)
    return _WATCH


# events that change no card's keywords: nothing is watched across them
_UNWATCHED = frozenset({"AbilityTriggered", "Asked", "Answered"})


class Accepted(Exception):
    """Raised by a probing ``Recorder`` at the first event: the action passed every check before it."""


class Recorder:
    """A scratch state and the events produced on it so far.

    A probing recorder (``probe=True``) only asks whether an action would be accepted: an answer checks
    everything before it emits its first event, so the recorder stops it there with ``Accepted``, before
    anything resolves. ``legal_actions`` probes the spells and abilities it offers this way."""

    def __init__(
        self, state: GameState, action: Action | None = None, by: str | None = None, probe: bool = False
    ) -> None:
        self.state = state
        self.events: list[Event] = []
        self.base = state.version
        self.action = action
        self.by = by
        self.probe = probe

    @property
    def cause(self) -> int:
        """The event number of this batch's first event: what the rest of the batch follows from."""
        return self.base + 1

    def next_n(self) -> int:
        return self.base + len(self.events) + 1

    def emit(
        self,
        type: str,
        actor: str,
        rule: str,
        data: dict[str, Any] | None = None,
        caused_by: int | None = None,
    ) -> int:
        if self.probe:
            raise Accepted(type)
        rule = format_of(self.state).cite(rule)  # the format's own rule where it has one (domain.formats)
        first = not self.events
        if caused_by is None and not first:
            caused_by = self.cause
        by = self.by if (first and self.action is not None and actor in ("p1", "p2")) else None
        event = Event(type, actor, rule, data or {}, caused_by, by)
        triggering, after_emit, look_back = _TRIGGERS or _triggers()
        had = look_back(self.state, type, event.data) if type in triggering else {}
        watched, gained = _WATCH or _watch()
        before = watched(self.state) if type not in _UNWATCHED else None
        apply(self.state, event)
        self.events.append(event)
        n = self.state.version
        if type in triggering:
            after_emit(self, event, had)
        if before is not None:  # a keyword a SIGNI came to have with this event
            gained(self, before)
        return n

    def ask(self, player: str, kind: str, rule: str, **extra: Any) -> None:
        self.emit("Asked", "rules", rule, {"player": player, "kind": kind, **extra})

    def random(self, label: str) -> random.Random:
        """The match's RNG for the event about to be produced."""
        # After a takeback the events are numbered on from the log's head, but the RNG goes on as it did
        # from the point taken back to (``rng_shift``): the same actions again get the same shuffles.
        n = self.next_n() - int(self.state.takebacks.get("rng_shift", 0))
        return random.Random(f"{self.state.seed}:{n}:{label}")


def finish(rec: Recorder, action: Action) -> list[Event]:
    """Mark the batch's first event with the action that produced it, so that an audit can replay it."""
    if rec.events:
        first = rec.events[0]
        rec.events[0] = Event(
            first.type, first.actor, first.rule, first.data, first.caused_by, first.by, action.to_dict()
        )
    return rec.events


__all__ = ["Accepted", "Recorder", "finish"]
