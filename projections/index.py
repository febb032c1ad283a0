"""The list of matches: a small read model built from the store's notification log.

Each process catches up from the last notification it has read, so several workers behind one address all
see every match. Per match it keeps the players' names, the head version, the status and winner, and the
rewinds (for marking rewound events).

When the store's notification log is shorter than what was read (the store was restored from an older copy,
or dropped and made again), the index is built again from the start.

Matches are listed in the order they were created: each has the number of the store notification that created
it (``seq``), a number no later match can take, so a page that starts after a given ``seq`` is the same page
however many matches are created meanwhile (new ones come after every earlier one).
"""

from __future__ import annotations

import bisect
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any
from uuid import UUID

TOPICS = (
    "wixoss:MatchCreated",
    "wixoss:PositionSet",
    "wixoss:GameEnded",
    "wixoss:Rewound",
    "wixoss:Branched",
)


@dataclass(frozen=True, slots=True)
class Page:
    entries: list[dict[str, Any]]
    next_after: int | None  # the ``seq`` to continue after, or None when nothing more matches


class MatchIndex:
    def __init__(self, app: Any, page: int = 500) -> None:
        self.app = app
        self.page = page
        self.last = 0
        self._last_key: tuple[str, int] = ("", 0)  # (match, event number) of the last notification read
        self.matches: dict[UUID, dict[str, Any]] = {}
        self.rewinds: dict[UUID, list[tuple[int, int]]] = {}
        self.seqs: list[int] = []  # the creating notifications' numbers, ascending
        self.order: list[UUID] = []  # the matches, in that order
        self._lock = threading.Lock()

    def reset(self) -> None:
        """Forget everything read: the next look reads the log again from its start."""
        with self._lock:
            self._reset()

    def _reset(self) -> None:
        self.last = 0
        self._last_key = ("", 0)
        self.matches = {}
        self.rewinds = {}
        self.seqs = []
        self.order = []

    def catch_up(self) -> None:
        with self._lock:
            while True:
                # from the last notification read, which the store must still have: one read tells both
                # what is new and whether the log went back
                start = self.last or 1
                notes = self.app.recorder.select_notifications(start=start, limit=self.page + 1)
                if self.last:
                    if not notes or notes[0].id != self.last or _key(notes[0]) != self._last_key:
                        self._reset()  # the log went back or is another one: read it again from its start
                        continue
                    notes = notes[1:]
                if not notes:
                    return
                for note in notes:
                    if note.id > self.last:
                        self.last, self._last_key = note.id, _key(note)
                    self._see(note)

    def _see(self, note: Any) -> None:
        mid = note.originator_id if isinstance(note.originator_id, UUID) else UUID(str(note.originator_id))
        entry = self.matches.get(mid)
        if note.topic in TOPICS:
            event = self.app.mapper.to_domain_event(note)
            if note.topic == "wixoss:MatchCreated":
                names = {p: info["name"] for p, info in event.data["players"].items()}
                entry = self.matches[mid] = {
                    "id": str(mid),
                    "players": names,
                    "status": "setup",
                    "winner": None,
                    "version": 0,
                    "parent": None,
                }
                self._created(mid, note.id)
            elif note.topic == "wixoss:PositionSet":
                names = {p: ps.get("name", p) for p, ps in event.data["state"]["players"].items()}
                entry = self.matches[mid] = {
                    "id": str(mid),
                    "players": names,
                    "status": "active",
                    "winner": None,
                    "version": 0,
                    "parent": None,
                }
                self._created(mid, note.id)
            elif entry is not None and note.topic == "wixoss:GameEnded":
                entry["status"], entry["winner"] = "finished", event.data["winner"]
            elif entry is not None and note.topic == "wixoss:Rewound":
                self.rewinds.setdefault(mid, []).append((note.originator_version, int(event.data["to"])))
                status = event.data["state"]["status"]
                entry["status"], entry["winner"] = status, event.data["state"].get("winner")
            elif entry is not None and note.topic == "wixoss:Branched":
                entry["parent"] = event.data["parent"]
                entry["branched_at"] = event.data["at"]
        if entry is not None:
            entry["version"] = max(entry["version"], note.originator_version)
            if entry["status"] == "setup" and note.topic == "wixoss:LrigsRevealed":
                entry["status"] = "active"

    def _created(self, mid: UUID, seq: int) -> None:
        self.matches[mid]["seq"] = seq
        self.seqs.append(seq)
        self.order.append(mid)

    def all(self) -> list[dict[str, Any]]:
        self.catch_up()
        return [dict(v) for v in self.matches.values()]

    def entry(self, match_id: UUID) -> dict[str, Any] | None:
        """One match's entry (a copy), or None."""
        self.catch_up()
        found = self.matches.get(match_id)
        return None if found is None else dict(found)

    def listing(
        self, after: int = 0, limit: int = 50, status: str | None = None, player: str | None = None
    ) -> Page:
        """At most ``limit`` matches created after ``seq`` ``after``, oldest first, with the given ``status``
        and a player whose name holds ``player`` (case-insensitive); and where the next page starts."""
        self.catch_up()
        needle = player.casefold() if player else None
        out: list[dict[str, Any]] = []
        with self._lock:
            for entry in self._from(after):
                if status is not None and entry["status"] != status:
                    continue
                if needle is not None and not any(needle in n.casefold() for n in entry["players"].values()):
                    continue
                if len(out) == limit:
                    return Page(out, out[-1]["seq"])
                out.append(dict(entry))
        return Page(out, None)

    def _from(self, after: int) -> Iterator[dict[str, Any]]:
        for i in range(bisect.bisect_right(self.seqs, after), len(self.order)):
            yield self.matches[self.order[i]]

    def rewound_marks(self, match_id: UUID) -> dict[int, int]:
        self.catch_up()
        marks: dict[int, int] = {}
        for n, to in self.rewinds.get(match_id, []):
            for k in range(to + 1, n):
                marks.setdefault(k, n)
        return marks


def _key(note: Any) -> tuple[str, int]:
    return str(note.originator_id), int(note.originator_version)
