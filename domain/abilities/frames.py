"""An effect in progress, typed: the *frame* that waits inside an ``Asked`` event for its answer.

A frame is the card and player an effect belongs to, the steps still to do (``queue``), the current segment
(the steps up to the next ``then``, whose targets are all chosen before any of them resolves) and the notes
the effect keeps (``notes``, see ``domain.abilities.effects``). Each step waits as a ``Pending``: the step as
encoded (``step``, a plain dict the vocabulary reads) and how far it got (``progress``: what it asked, the
targets chosen, the cards looked at ...).

The frame is stored, as plain data, in the ``Asked`` event that asks for the answer (``resume``). That plain
shape is versioned: ``dump`` writes version ``FRAME_VERSION`` (the ``"frame"`` key) and ``load`` reads every
version ever stored, upcasting an older shape first, so a match that was waiting inside an effect when the
shape changed still resumes. Nothing else converts a frame to or from plain data.

Version 1 (no ``"frame"`` key, engines up to 0.3.0) kept the progress inside each step, as keys starting with
an underscore (``_await``, ``_targets``, ``_top``, ``_stage`` ...), the segment's ``_told`` flag and the
notes as ``vars``. Version 2 keeps the step as encoded apart from a typed progress.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, TypedDict, cast

FRAME_VERSION = 2

Step = dict[str, Any]  # a step as encoded: its word (``op``) and parameters
Notes = dict[str, Any]  # what the effect noted for later steps (``moved``, ``looked``, ``paid`` ...)
Awaiting = Literal["targets", "one_target", "answer"]
AWAITING: tuple[Awaiting, ...] = ("targets", "one_target", "answer")
LookStage = Literal["pick", "dest", "zone", "order", "top"]
LOOK_STAGES: tuple[LookStage, ...] = ("pick", "dest", "zone", "order", "top")


class FrameError(ValueError):
    """Stored frame data that no version of the frame shape reads."""


class _AnswerRequired(TypedDict):
    cards: list[str]


class Answer(_AnswerRequired, total=False):
    """A player's answer to what a step asked: the cards chosen, and a zone or an option."""

    zone: str
    option: str


@dataclass
class LookTop:
    """``look_top``'s progress: the cards looked at, the group of picks reached, the picked cards still to
    put somewhere (``taking``), those going to the hand, whether the player chose the field for the next one,
    the order chosen for the rest, and what the last question asked (``stage``)."""

    top: list[str]
    group: int = 0
    taking: list[str] = field(default_factory=list)
    hand: list[str] = field(default_factory=list)
    to_field: bool = False
    rest: list[str] | None = None
    stage: LookStage | None = None
    on_top: str | None = None  # ``rest: top_one``: the card chosen to go back on top


@dataclass
class Arrange:
    """``arrange_top``'s progress: the cards looked at, those chosen for the bottom, the order of the rest."""

    top: list[str]
    bottom: list[str] | None = None
    order: list[str] | None = None


@dataclass
class BottomOrders:
    """Cards put on the bottom of decks together: the owner asked for an order, and the orders given."""

    asking: str | None = None
    orders: dict[str, list[str]] = field(default_factory=dict)


@dataclass
class Progress:
    """How far a step got: what it waits for, the answer (until the step reads it), its targets, the cards
    chosen one at a time so far (distinct targets, ener cards paying), the modes still to choose (a repeated
    modes step), and the progress of the steps that ask more than once."""

    awaiting: Awaiting | None = None
    answer: Answer | None = None
    targets: list[str] | None = None
    picked: list[str] | None = None
    left: int | None = None
    look: LookTop | None = None
    arrange: Arrange | None = None
    bottom: BottomOrders | None = None


@dataclass
class Pending:
    """A step waiting in a frame, and its progress."""

    step: Step
    progress: Progress = field(default_factory=Progress)


@dataclass
class Segment:
    """The steps up to the next ``then``; ``told``: the SIGNI they target have been told so."""

    steps: list[Pending]
    told: bool = False


@dataclass
class Frame:
    card: str
    player: str
    ability: int | str
    rule: str
    queue: list[Pending]
    segment: Segment | None = None
    notes: Notes = field(default_factory=dict)

    def insert(self, steps: list[Step]) -> None:
        """Put steps (as encoded: they are copied) at the front of the queue."""
        self.queue[0:0] = pending(steps)

    def waiting(self) -> Pending:
        """The step that asked: in the segment, or else in the queue."""
        places = [*(self.segment.steps if self.segment is not None else []), *self.queue]
        found = next((at for at in places if at.progress.awaiting is not None), None)
        if found is None:
            raise FrameError("a frame resumed without a question")
        return found


def pending(steps: list[Step]) -> list[Pending]:
    return [Pending(_fresh(s)) for s in steps]


def _fresh(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _fresh(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_fresh(v) for v in value]
    return value


# -- the one boundary: plain data in the event <-> a typed frame -----------------------------------


def dump(frame: Frame) -> dict[str, Any]:
    """The frame as the plain data stored in an ``Asked`` event (current version; copies, shares nothing)."""
    return {
        "frame": FRAME_VERSION,
        "card": frame.card,
        "player": frame.player,
        "ability": frame.ability,
        "rule": frame.rule,
        "queue": [_dump_pending(at) for at in frame.queue],
        "segment": None
        if frame.segment is None
        else {"steps": [_dump_pending(at) for at in frame.segment.steps], "told": frame.segment.told},
        "notes": _fresh(frame.notes),
    }


def _dump_pending(at: Pending) -> dict[str, Any]:
    out: dict[str, Any] = {"step": _fresh(at.step)}
    progress = _dump_progress(at.progress)
    if progress:
        out["progress"] = progress
    return out


def _dump_progress(p: Progress) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key in ("awaiting", "answer", "targets", "picked", "left"):
        value = getattr(p, key)
        if value is not None:
            out[key] = _fresh(value)
    if p.look is not None:
        out["look"] = {k: _fresh(v) for k, v in vars(p.look).items() if v is not None}
    if p.arrange is not None:
        out["arrange"] = {k: _fresh(v) for k, v in vars(p.arrange).items() if v is not None}
    if p.bottom is not None:
        out["bottom"] = {k: _fresh(v) for k, v in vars(p.bottom).items() if v is not None}
    return out


def load(data: dict[str, Any]) -> Frame:
    """A frame from the plain data stored in an ``Asked`` event, of any version (upcast first)."""
    version = data.get("frame", 1)
    if version == 1:
        data = upcast_v1(data)
    elif version != FRAME_VERSION:
        raise FrameError(f"frame version {version!r} is not one this engine reads (up to {FRAME_VERSION})")
    try:
        seg = data["segment"]
        return Frame(
            card=str(data["card"]),
            player=str(data["player"]),
            ability=data["ability"],
            rule=str(data["rule"]),
            queue=[_load_pending(x) for x in data["queue"]],
            segment=None
            if seg is None
            else Segment([_load_pending(x) for x in seg["steps"]], bool(seg.get("told", False))),
            notes=_fresh(dict(data.get("notes", {}))),
        )
    except (KeyError, TypeError) as e:
        raise FrameError(f"a stored frame of version {FRAME_VERSION} lacks or mistypes {e}") from e


def _load_pending(d: dict[str, Any]) -> Pending:
    p = d.get("progress", {})
    awaiting = p.get("awaiting")
    if awaiting is not None and awaiting not in AWAITING:
        raise FrameError(f"a step waits for {awaiting!r}, not one of {', '.join(AWAITING)}")
    look = p.get("look")
    if look is not None and look.get("stage") not in (None, *LOOK_STAGES):
        raise FrameError(f"look_top's stage {look.get('stage')!r} is not one of {', '.join(LOOK_STAGES)}")
    return Pending(
        _fresh(d["step"]),
        Progress(
            awaiting=awaiting,
            answer=cast(Answer, _fresh(p["answer"])) if "answer" in p else None,
            targets=_fresh(p.get("targets")),
            picked=_fresh(p.get("picked")),
            left=p.get("left"),
            look=None if look is None else LookTop(**_fresh(look)),
            arrange=None if p.get("arrange") is None else Arrange(**_fresh(p["arrange"])),
            bottom=None if p.get("bottom") is None else BottomOrders(**_fresh(p["bottom"])),
        ),
    )


# -- upcasters: an older stored shape to the next ----------------------------------------------------

# version 1's progress keys, by where they go in version 2
_V1_PROGRESS = {
    "_await": "awaiting",
    "_answer": "answer",
    "_targets": "targets",
    "_picked": "picked",
    "_left": "left",
}
_V1_LOOK = {
    "_top": "top",
    "_group": "group",
    "_queue": "taking",
    "_hand": "hand",
    "_field": "to_field",
    "_rest": "rest",
    "_stage": "stage",
}
_V1_ARRANGE = {"_top": "top", "_bottom": "bottom", "_order": "order"}
_V1_BOTTOM = {"_asking": "asking", "_orders": "orders"}
_V1_STEP_KEYS = ("_cost",)  # an underscore key that is a parameter the engine writes, not progress


def upcast_v1(data: dict[str, Any]) -> dict[str, Any]:
    """Version 1 (unversioned) to version 2: each step's underscore keys become its typed progress, the
    segment's ``_told`` its ``told``, ``vars`` the ``notes``."""
    seg = data.get("segment")
    return {
        "frame": 2,
        "card": data["card"],
        "player": data["player"],
        "ability": data["ability"],
        "rule": data["rule"],
        "queue": [_upcast_step_v1(s) for s in data.get("queue", [])],
        "segment": None
        if seg is None
        else {"steps": [_upcast_step_v1(s) for s in seg.get("steps", [])], "told": bool(seg.get("_told"))},
        "notes": dict(data.get("vars", {})),
    }


def _upcast_step_v1(step: dict[str, Any]) -> dict[str, Any]:
    spec = {k: v for k, v in step.items() if not k.startswith("_") or k in _V1_STEP_KEYS}
    old = {k: v for k, v in step.items() if k.startswith("_") and k not in _V1_STEP_KEYS}
    progress: dict[str, Any] = {new: old.pop(k) for k, new in _V1_PROGRESS.items() if k in old}
    if "_group" in old:  # look_top (it sets _top, _group, _queue and _hand together)
        progress["look"] = {new: old.pop(k) for k, new in _V1_LOOK.items() if k in old}
    elif "_top" in old:  # arrange_top
        progress["arrange"] = {new: old.pop(k) for k, new in _V1_ARRANGE.items() if k in old}
    if "_asking" in old or "_orders" in old:
        progress["bottom"] = {new: old.pop(k) for k, new in _V1_BOTTOM.items() if k in old}
    if old:
        raise FrameError(f"a version 1 frame's step {step.get('op')!r} holds unknown progress {sorted(old)}")
    out: dict[str, Any] = {"step": spec}
    if progress:
        out["progress"] = progress
    return out
