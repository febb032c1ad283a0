"""The list of matches: a small read model built from the store's notification log.

Each process catches up from the last notification it has read, so several workers behind one address all
see every match. Per match it keeps the players' names, the head version, the status and winner, and the
rewinds (for marking rewound events).

When the store's notification log is shorter than what was read (the store was restored from an older copy,
or dropped and made again), the index is built again from the start.
"""

from __future__ import annotations

import threading
from typing import Any
from uuid import UUID

TOPICS = (
    "wixoss:MatchCreated",
    "wixoss:PositionSet",
    "wixoss:GameEnded",
    "wixoss:Rewound",
    "wixoss:Branched",
)


class MatchIndex:
    def __init__(self, app: Any, page: int = 500) -> None:
        self.app = app
        self.page = page
        self.last = 0
        self._last_key: tuple[str, int] = ("", 0)  # (match, event number) of the last notification read
        self.matches: dict[UUID, dict[str, Any]] = {}
        self.rewinds: dict[UUID, list[tuple[int, int]]] = {}
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

    def all(self) -> list[dict[str, Any]]:
        self.catch_up()
        return [dict(v) for v in self.matches.values()]

    def rewound_marks(self, match_id: UUID) -> dict[int, int]:
        self.catch_up()
        marks: dict[int, int] = {}
        for n, to in self.rewinds.get(match_id, []):
            for k in range(to + 1, n):
                marks.setdefault(k, n)
        return marks


def _key(note: Any) -> tuple[str, int]:
    return str(note.originator_id), int(note.originator_version)
