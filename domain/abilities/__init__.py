"""Card abilities, as data in the project's own vocabulary, and the engine that interprets them.

- ``catalogue``: the encoded abilities of each card (``domain/data/abilities/*.json``), their validation
  against the vocabulary, which cards are enforced, and a description of each ability in the project's words;
- ``targets``: which cards an ability may target, and the conditions it checks;
- ``effects``: the interpreter of effect steps, which asks for targets and choices as decisions;
- ``triggers``: which abilities an event triggers, and the order they resolve in;
- ``constants``: continuous effects (power) computed from the board;
- ``use``: using spells, PIECEs and [Action] abilities, and paying costs.
"""

from domain.abilities import words as words  # fills the step vocabulary's registry
from domain.abilities.catalogue import abilities_of, describe, encoded_cards, is_enforced

__all__ = ["abilities_of", "describe", "encoded_cards", "is_enforced"]
