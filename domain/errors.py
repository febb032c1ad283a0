"""The domain's errors: a short hierarchy under ``ValueError``.

``IllegalAction`` is what a judge most often sees: the action was well formed but the rules refuse it, and
``rule_refs`` names the rules that say so. ``InvalidAction`` is an action that is not well formed at all.
"""

from __future__ import annotations


class JudgeError(ValueError):
    """Base class of every error the domain raises on purpose."""


class InvalidAction(JudgeError):
    """The action is malformed: unknown type, missing or unknown fields, values of the wrong kind."""


class IllegalAction(JudgeError):
    """The rules refuse a well-formed action; ``rule_refs`` names the rules that say so."""

    def __init__(self, rule_refs: str | list[str] | tuple[str, ...], message: str) -> None:
        refs = (rule_refs,) if isinstance(rule_refs, str) else tuple(rule_refs)
        super().__init__(message)
        self.rule_refs: tuple[str, ...] = refs
        self.message = message

    def __reduce__(self) -> tuple[type, tuple[tuple[str, ...], str]]:
        return (type(self), (self.rule_refs, self.message))


class TakebackRefused(IllegalAction):
    """A takeback the match's policy or its moment refuses, or an action while a takeback waits for its
    answer: the match is not in a state that allows it (the HTTP answer is a conflict)."""


class NotYourTakeback(IllegalAction):
    """A takeback answered by someone it is not put to: the requester themselves, or a player where only a
    judge rules (the HTTP answer is forbidden)."""


class InvalidPosition(JudgeError):
    """A position that cannot exist (unknown card, a SIGNI in an LRIG zone, no center LRIG)."""

    def __init__(self, message: str, rule_refs: tuple[str, ...] = ("judge.position",)) -> None:
        super().__init__(message)
        self.message = message
        self.rule_refs = rule_refs
