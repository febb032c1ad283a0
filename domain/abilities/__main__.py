"""``python -m domain.abilities --words``: the vocabulary, each word with how many cards use it.

Four kinds of word: effect steps, conditions, triggers and constant words. Each section lists its core words
with their card counts and, under each, the aliases that stand for it; the last line sums the core words.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable, Mapping
from typing import Any

from domain.abilities import conditions, constant_words, trigger_words
from domain.abilities.catalogue import _data, use_encodings
from domain.abilities.vocabulary import ALIASES, WORDS, table

Encodings = Mapping[str, list[dict[str, Any]]]


def _section(
    title: str,
    core: Iterable[str],
    aliases: Mapping[str, str],
    uses: Mapping[str, set[str]],
    describe: Mapping[str, str],
) -> list[str]:
    """One kind of word: a head line, then each core word (its cards include its aliases') and its aliases,
    an alias of an alias indented under the one it stands for."""
    core = sorted(core)
    lines = [f"{title}: {len(core)} core words, {len(aliases)} aliases"]

    def under(name: str) -> list[str]:
        return sorted(a for a, of in aliases.items() if of == name)

    def cards(name: str) -> set[str]:
        return set(uses.get(name, set())).union(*(cards(a) for a in under(name)))

    def listed(name: str, depth: int) -> list[str]:
        out = []
        for a in under(name):
            pad, n = "  " * depth, len(cards(a))
            out.append(
                f"{pad}alias {a:<{22 - len(pad)}} {n:>2} cards  = {name} {describe.get(a, '')}".rstrip()
            )
            out.extend(listed(a, depth + 1))
        return out

    for name in core:
        lines.append(f"{name:<24} {len(cards(name)):>4} cards  {describe.get(name, '')}".rstrip())
        lines.extend(listed(name, 1))
    return lines


def _conditions(encodings: Encodings) -> list[str]:
    aliases = {a: x.of for a, x in conditions.ALIASES.items()}
    describe = {n: w.doc.splitlines()[0] if w.doc else "" for n, w in conditions.WORDS.items()}
    describe |= {a: x.doc for a, x in conditions.ALIASES.items()}
    return _section("conditions", conditions.WORDS, aliases, conditions.count_uses(encodings), describe)


def _triggers(encodings: Encodings) -> list[str]:
    """``when`` is the one core word; each event kind is ``when`` with ``on`` fixed, each older name an alias
    of its event kind."""
    tw = trigger_words
    aliases = {e: tw.WHEN for e in tw.EVENTS} | {a: fixed["on"] for a, fixed in tw.ALIASES.items()}
    describe = {tw.WHEN: "{" + ", ".join(tw.FIELDS) + "}; on: " + ", ".join(tw.EVENTS)}
    describe |= {n: f"{{on: {n}}} ({', '.join(_form(k) for k in e.forms)})" for n, e in tw.EVENTS.items()}
    describe |= {a: "{" + ", ".join(f"{k}: {v}" for k, v in f.items() if k != "on") + "}" for a, f in
                 tw.ALIASES.items()}  # fmt: skip
    return _section("triggers", tw.WORDS, aliases, tw.count_uses(encodings), describe)


def _form(key: tuple[str, ...]) -> str:
    return "/".join(x for x in key[1:] if x and x != "any") or "any"


def _constants(encodings: Encodings) -> list[str]:
    aliases = {a: x.of for a, x in constant_words.CONSTANT_ALIASES.items()}
    describe = {n: "{" + ", ".join(w.params) + "}" for n, w in constant_words.CONSTANT_WORDS.items()}
    describe |= {
        a: "{" + ", ".join(f"{k}: {v}" for k, v in x.fixed.items()) + "}"
        for a, x in constant_words.CONSTANT_ALIASES.items()
    }
    return _section(
        "constant words",
        constant_words.CONSTANT_WORDS,
        aliases,
        constant_words.count_uses(encodings),
        describe,
    )


def vocabulary_lines(encodings: Encodings) -> list[str]:
    """The whole vocabulary: steps, conditions, triggers, constant words, and the core words in all."""
    counts = {
        "steps": (len(WORDS), len(ALIASES)),
        "conditions": (len(conditions.WORDS), len(conditions.ALIASES)),
        "triggers": (len(trigger_words.WORDS), len(trigger_words.EVENTS) + len(trigger_words.ALIASES)),
        "constant words": (len(constant_words.CONSTANT_WORDS), len(constant_words.CONSTANT_ALIASES)),
    }
    core = sum(c for c, _a in counts.values())
    aliases = sum(a for _c, a in counts.values())
    parts = ", ".join(f"{c} {kind}" for kind, (c, _a) in counts.items())
    return [
        *table(encodings),
        "",
        *_conditions(encodings),
        "",
        *_triggers(encodings),
        "",
        *_constants(encodings),
        "",
        f"{core} core words in all ({parts}), {aliases} aliases",
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m domain.abilities", description=__doc__)
    parser.add_argument("--words", action="store_true", help="print the vocabulary with card counts")
    parser.add_argument("--encodings", nargs="*", default=[], help="extra encoding files or directories")
    args = parser.parse_args(argv)
    use_encodings(*args.encodings)
    if not args.words:
        parser.print_help()
        return 2
    print("\n".join(vocabulary_lines(_data())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
