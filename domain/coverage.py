"""Which cards the service enforces, set by set (``wixoss-judge coverage``, ``docs/COVERAGE.md``).

Definitions:

- A *card* is a distinct card: a reprint group (``Card.reprints``) counts once, in the set of its first
  printing. The catalogue entries that are reprints (the starter decks' reprints) are not counted again.
  Tokens are counted: they are cards of their set, and none is enforced but a zone marker's (a Hastalyk,
  whose abilities run from the SIGNI zone it is in).
- A card's *set* is the set code its first printing's number starts with (``set_of``): ``WXDi-P01-001`` is
  of ``WXDi-P01``, ``WX24-D1-TK1`` of ``WX24-D1``, ``PR-Di005`` of ``PR-Di`` (the Diva promotional cards;
  the reference file files them under ``PR`` with the others).
- A card is *enforced* when ``domain.abilities.is_enforced`` says so: it has no abilities, or all of them
  are encoded (under its number or another of its group's). This is the one source of truth: the match
  views' ``enforced`` flags, ``GET /cards`` and this report all ask it.
- A card that is not enforced has one *reason*, the first that applies: a token (no zone holds tokens), a
  card type the engine cannot bring into play (Resona, Key, Crafts), what its encoding still lacks where that
  is known (``data/abilities_blocked.json``: the rule or the word the engine needs first, in the project's
  words), else its abilities are not encoded. The Dissona icon is no reason of its own: it is a printed fact
  that filters name (rule card.dissona-icon).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources

from domain.abilities import is_enforced
from domain.cards import Card, CardType, Catalogue
from domain.facts import catalogue

# the promotional cards of the Diva and Key eras (PR-Di..., PR-K...) are sets of their own
_SET = re.compile(
    r"^(?:(PR-Di|PR-K)(?=\d)|(PR|WXDi-[A-Z]+\d+|WX2[4-9]-[A-Z]+\d+|WD[AK]-F\d+|[A-Za-z]+\d+)(?=-|$))"
)
_CHUNK = re.compile(r"(\d+)")

# the groups of sets, in the order they are shown: a name, and the set prefixes in the order of their sets
GROUPS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("Diva Selection", ("WXDi-P", "WXDi-CP", "WXDi-D", "SPDi", "PR-Di")),
    ("Key Selection", ("WXK", "WDK-F", "WDK", "SPK", "PR-K")),
    ("WX24 and later", ("WX24-", "WX25-", "WX26-")),
    ("Earlier sets", ("WXEX", "WX", "WDA-F", "WD", "SP", "PR")),
)
OTHER_GROUP = "Other sets"

ABILITIES_NOT_ENCODED = "abilities not encoded"
TOKEN = "needs rule: tokens (no zone holds tokens)"
_TYPE_REASONS = {
    CardType.RESONA: "needs rule: Resona (put onto the field by its conditions)",
    CardType.RESONA_CRAFT: "needs rule: Resona and Craft cards",
    CardType.KEY: "needs rule: Key cards (the Key zone)",
    CardType.SIGNI_CRAFT: "needs rule: Craft cards (made during the game)",
    CardType.SPELL_CRAFT: "needs rule: Craft cards (made during the game)",
    CardType.ARTS_CRAFT: "needs rule: Craft cards (made during the game)",
    CardType.PIECE_CRAFT: "needs rule: Craft cards (made during the game)",
}


def set_of(card_id: str) -> str:
    """The set code a card number starts with (the number itself when it has no known shape)."""
    m = _SET.match(card_id)
    return (m.group(1) or m.group(2)) if m else card_id


def group_of(set_code: str) -> tuple[int, int, str]:
    """(the group's place in ``GROUPS``, the prefix's place in it, the group's name)."""
    for gi, (name, prefixes) in enumerate(GROUPS):
        for pi, prefix in enumerate(prefixes):
            rest = set_code[len(prefix) :]
            if set_code.startswith(prefix) and (rest[:1].isdigit() or prefix.endswith("-") or not rest):
                return gi, pi, name
    return len(GROUPS), 0, OTHER_GROUP


def _set_order(set_code: str) -> tuple[int, int, tuple[object, ...]]:
    gi, pi, _ = group_of(set_code)
    natural = tuple(int(c) if c.isdigit() else c for c in _CHUNK.split(set_code))
    return gi, pi, natural


@cache
def blocked() -> dict[str, str]:
    """Cards whose encoding waits for a rule or a word the engine lacks: card number -> what it needs."""
    raw = resources.files("domain").joinpath("data", "abilities_blocked.json").read_text(encoding="utf-8")
    out: dict[str, str] = json.loads(raw)
    return out


def reason(card: Card) -> str | None:
    """Why the service does not enforce a card yet; None when it does."""
    if is_enforced(card.id):
        return None
    if card.is_token:
        return TOKEN
    if card.type in _TYPE_REASONS:
        return _TYPE_REASONS[card.type]
    return blocked().get(card.id, ABILITIES_NOT_ENCODED)


@dataclass(frozen=True, slots=True)
class Pending:
    """A card not enforced yet, and why."""

    card: str
    name: str
    reason: str


@dataclass(frozen=True, slots=True)
class SetCoverage:
    set: str
    group: str
    cards: int
    enforced: int
    pending: tuple[Pending, ...]  # by number

    @property
    def share(self) -> float:
        return self.enforced / self.cards if self.cards else 1.0


def distinct_cards(cat: Catalogue | None = None) -> list[Card]:
    """The distinct cards: each entry that is not a reprint of another entry (by number)."""
    cat = cat if cat is not None else catalogue()
    return [c for c in cat if not c.reprints or c.reprints[0] == c.id or c.reprints[0] not in cat]


def coverage(cat: Catalogue | None = None, sets: Iterable[str] | None = None) -> list[SetCoverage]:
    """Coverage of every set (or of ``sets``), in the order of ``GROUPS`` then by set number."""
    wanted = set(sets) if sets is not None else None
    by_set: dict[str, list[Card]] = {}
    for card in distinct_cards(cat):
        code = set_of(card.id)
        if wanted is None or code in wanted:
            by_set.setdefault(code, []).append(card)
    out = []
    for code in sorted(by_set, key=_set_order):
        cards = by_set[code]
        pending = tuple(
            Pending(c.id, c.name, why) for c in sorted(cards, key=lambda c: c.id) if (why := reason(c))
        )
        out.append(SetCoverage(code, group_of(code)[2], len(cards), len(cards) - len(pending), pending))
    return out


def known_sets(cat: Catalogue | None = None) -> list[str]:
    return [s.set for s in coverage(cat)]


# -- rendering ----------------------------------------------------------------------------------------


def _pct(s: SetCoverage) -> str:
    return f"{100 * s.share:.0f}%"


def _groups(rows: Sequence[SetCoverage]) -> list[tuple[str, list[SetCoverage]]]:
    out: list[tuple[str, list[SetCoverage]]] = []
    for row in rows:
        if not out or out[-1][0] != row.group:
            out.append((row.group, []))
        out[-1][1].append(row)
    return out


def render_text(rows: Sequence[SetCoverage], list_pending: bool = False) -> str:
    """The table (cards enforced / cards in the set, per set, grouped, with totals); with
    ``list_pending``, each set's cards not enforced yet, one a line with its reason."""
    lines: list[str] = []
    for group, sets in _groups(rows):
        enforced, cards = sum(s.enforced for s in sets), sum(s.cards for s in sets)
        lines.append(f"{group}: {enforced} / {cards} enforced")
        for s in sets:
            lines.append(f"  {s.set:<12} {s.enforced:>4} / {s.cards:<4} {_pct(s):>4}")
    total_e, total_c = sum(s.enforced for s in rows), sum(s.cards for s in rows)
    lines.append(f"All sets: {total_e} / {total_c} enforced")
    if list_pending:
        for s in rows:
            if s.pending:
                lines.append("")
                lines.append(f"{s.set}: not enforced yet ({len(s.pending)})")
                lines.extend(f"  {p.card:<16} {p.name}  [{p.reason}]" for p in s.pending)
    return "\n".join(lines) + "\n"


def render_markdown(rows: Sequence[SetCoverage], list_groups: Sequence[str] = ("Diva Selection",)) -> str:
    """``docs/COVERAGE.md``: the definitions, the table of every set, and for the sets of ``list_groups``
    the cards not enforced yet, by reason (card numbers only)."""
    out = [
        "# Card coverage",
        "",
        "Generated by `wixoss-judge coverage --markdown docs/COVERAGE.md`; a test fails when it is stale.",
        "",
        "A card is a distinct card: a card printed under several numbers (reprints) counts once, in the set",
        "of its first printing. A card is enforced when it has no abilities or all of them are encoded (the",
        "`enforced` flag of `GET /cards/{card_id}` and of match views). Tokens count as cards of their set",
        "and are not enforced (no zone holds tokens), but a zone marker's (a Hastalyk, run from its zone).",
        "",
    ]
    for group, sets in _groups(rows):
        enforced, cards = sum(s.enforced for s in sets), sum(s.cards for s in sets)
        out += [f"## {group}: {enforced} / {cards} enforced", "", "| set | enforced | cards | share |"]
        out.append("|---|---:|---:|---:|")
        out += [f"| {s.set} | {s.enforced} | {s.cards} | {_pct(s)} |" for s in sets]
        out.append("")
    total_e, total_c = sum(s.enforced for s in rows), sum(s.cards for s in rows)
    out += [f"All sets: {total_e} / {total_c} enforced.", ""]
    listed = [s for s in rows if s.group in list_groups and s.pending]
    if listed:
        out += [f"## Not enforced yet ({', '.join(list_groups)})", ""]
        for s in listed:
            out += [f"### {s.set}", ""]
            by_reason: dict[str, list[str]] = {}
            for p in s.pending:
                by_reason.setdefault(p.reason, []).append(p.card)
            for why in sorted(by_reason):
                out.append(f"- {why} ({len(by_reason[why])}): {', '.join(by_reason[why])}")
            out.append("")
    return "\n".join(out)
