"""Card abilities, as data in the project's own vocabulary, and the engine that interprets them.

- ``catalogue``: the encoded abilities of each card (``domain/data/abilities/*.json``), their validation
  against the vocabulary, which cards are enforced, and a description of each ability in the project's words;
- ``filters``: which cards fit a filter; ``measures``: what an ability counts or measures;
- ``targets``: which cards an ability may target; ``conditions``: the conditions abilities check (``compare``
  and the other condition words); ``trigger_words``: the "when ..." of triggered abilities;
  ``constant_words``: the words of constant abilities;
- ``effects``: the interpreter of effect steps, which asks for targets and choices as decisions;
- ``triggers``: which abilities an event triggers, and the order they resolve in;
- ``constants``: continuous effects (power) computed from the board;
- ``use``: using spells, PIECEs and [Action] abilities, and paying costs.
"""

from domain.abilities import constants as constants  # registers what constants add to power and keywords
from domain.abilities import words as words  # fills the step vocabulary's registry
from domain.abilities.catalogue import abilities_of, describe, encoded_cards, is_enforced

__all__ = ["abilities_of", "describe", "encoded_cards", "is_enforced"]
