"""``python -m domain.abilities --words``: the step vocabulary, each word with how many cards use it."""

from __future__ import annotations

import argparse
import sys

from domain.abilities.catalogue import _data, use_encodings
from domain.abilities.vocabulary import table


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m domain.abilities", description=__doc__)
    parser.add_argument("--words", action="store_true", help="print the vocabulary with card counts")
    parser.add_argument("--encodings", nargs="*", default=[], help="extra encoding files or directories")
    args = parser.parse_args(argv)
    use_encodings(*args.encodings)
    if not args.words:
        parser.print_help()
        return 2
    print("\n".join(table(_data())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
