"""A rewind or a branch may not land inside the set-up of a match created from decks.

The events that create a match from two decks (created, LRIGs placed, decks shuffled, first player, first
hands, up to the first mulligan question) are one indivisible step: the game cannot run on from the middle of
it (``domain.procedure`` has no set-up step for that), so the domain fails there. Until it can, the API
refuses such a point with 422 and names the first one it accepts. Matches created from a position have no
such step.
"""

from __future__ import annotations

from uuid import UUID

from app.application import JudgeApplication
from app.problems import ApiProblem

SETUP_WINDOW = 64  # far more than the events of a match's creation


def first_resumable_event(app: JudgeApplication, match_id: UUID) -> int:
    """The first event a rewind or a branch may go back to."""
    events = app.stored_events(match_id, 0, SETUP_WINDOW)
    if not events or events[0].type != "MatchCreated":
        return 1
    for e in events[1:]:
        if e.action is not None:  # the first event of the next step: the creation ended just before it
            return e.originator_version - 1
    return events[-1].originator_version if len(events) < SETUP_WINDOW else 1


def check_resumable(app: JudgeApplication, match_id: UUID, n: int, what: str, rule: str) -> None:
    app.check_at(match_id, n)  # out of range first: 404
    first = first_resumable_event(app, match_id)
    if n < first:
        raise ApiProblem(
            422,
            "rule-violation",
            f"event {n} is inside the match's set-up (events 1 to {first} are one step, and the game "
            f"cannot run on from the middle of it): {what} to event {first} or later.",
            rule_refs=[rule],
        )
