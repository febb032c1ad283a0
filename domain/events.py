"""The events of a match, named in the past tense in the game's own words.

``decide`` produces ``Event`` values; the ``Match`` aggregate stores each as a typed ``eventsourcing`` event
with an explicit topic (see ``domain.match``); ``evolve`` folds either kind, since both carry the same
attributes: ``type``, ``actor``, ``rule``, ``caused_by``, ``by`` and ``data``.

``EVENT_TYPES`` documents every type: who may see what of it is decided in ``projections.views``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

EVENT_TYPES: dict[str, str] = {
    # set-up
    "MatchCreated": "a match was created from two decks; holds the card instances and the seed",
    "PositionSet": "a judge set up a position; the match starts there",
    "LrigsPlaced": "a player put three level 0 LRIGs face down: center and two assists",
    "DeckShuffled": "a player's deck was shuffled; holds the new order (hidden)",
    "FirstPlayerChosen": "who goes first was decided, as given or by a coin",
    "CardsDrawn": "a player drew cards",
    "MulliganDeclared": "a player declared which cards to return (possibly none)",
    "CardsReturned": "a player returned cards from hand to the deck",
    "LifeClothPlaced": "a player put the top cards of the deck into the Life Cloth",
    "LrigsRevealed": "both players turned their LRIGs face up",
    # the turn
    "TurnBegan": "a turn began",
    "PhaseBegan": "a phase began",
    "StepBegan": "a step of the attack phase began",
    "CardsUpped": "the turn player's downed cards were upped and frozen ones thawed",
    "EnerCharged": "a card was put from hand or field into the ener zone",
    "LrigGrew": "an LRIG grew: a new LRIG card was put on top of it and its cost paid",
    "SigniPlayed": "a SIGNI was put from hand onto the field",
    "SigniRemoved": "SIGNI were removed from the field into the trash",
    "Passed": "a player passed: ended a phase or step, or declined an optional decision",
    "Asked": "the game asks a player for a decision",
    # attacks
    "AttackDeclared": "a SIGNI or the center LRIG attacked (and was downed)",
    "Battled": "two SIGNI battled",
    "SigniVanished": "a SIGNI was vanished into its owner's ener zone",
    "DamageDealt": "a player took damage",
    "Guarded": "a player discarded a card with Guard to stop an LRIG attack's damage",
    "GuardedInstead": "a player guarded an LRIG attack without a card with Guard, having paid what their own "
    "ability lets them pay instead (the cards discarded for it: the CardsDiscarded just before; version 1)",
    "LifeClothCrushed": "Life Cloth was crushed into the check zone",
    "LifeBurstChosen": "a player chose whether to activate a crushed card's Life Burst",
    "AttackEnded": "the attack was resolved",
    # rule-based actions and the end of the turn
    "CardEnered": "a crushed card went from the check zone to the ener zone",
    "Refreshed": "a player's trash was shuffled into a new deck (hidden order) and a Life Cloth trashed",
    "SigniTrashed": "a SIGNI was put into the trash by rule processing",
    "CardsTrashed": "cards were put into the trash by rule processing",
    "LrigTrashed": "an LRIG was put into the LRIG trash by rule processing",
    "CardReturned": "a card was returned to the LRIG deck by rule processing",
    "CardsDiscarded": "a player discarded cards",
    "EffectsExpired": "effects lasting until end of turn ended",
    "CheckZoneCleared": "cards left in the check zone went to the trash",
    "TurnEnded": "a turn ended",
    "GameEnded": "the game ended with a winner",
    "Conceded": "a player conceded",
    # abilities
    "AbilityTriggered": "an ability triggered and waits to resolve",
    "TriggersOrdered": "a player chose the order of their waiting triggered abilities",
    "AbilityActivated": "a triggered ability began to resolve",
    "AbilityUsed": "a player used an [Action] ability and paid its cost",
    "SpellUsed": "a player used a spell and paid its cost; it waits in the check zone",
    "PieceUsed": "a player used a PIECE and paid its cost",
    "ArtsUsed": "a player used an ARTS from the LRIG deck and paid its cost; it waits in the check zone",
    "AbilityResolved": "an ability or a used card finished resolving",
    "Answered": "a player answered a choice asked in the middle of an effect",
    "CostPaid": "a player paid an optional cost",
    "CardsMilled": "cards were put from the top of a deck into the trash",
    "CardsSet": "cards were downed, upped or frozen by an effect",
    "CardsMoved": "cards were moved by an effect (to a hand, to the trash)",
    "SigniPutOntoField": "a SIGNI was put onto the field by an effect",
    "PowerChanged": "a card's power changed until end of turn",
    "KeywordsGranted": "a card gained keyword abilities until end of turn",
    "EnerZoneGranted": "every card in a player's ener zone, those put there later included, has a keyword "
    "(Multi Ener) until end of turn",
    "CardRevealed": "the top card of a deck (or, with zone, of the Life Cloth) was revealed to both players",
    "CardsToDeckBottom": "cards were put on the bottom of a deck",
    "NumberDeclared": "a player declared a number for an effect",
    "ColorDeclared": "a player declared a colour for an effect (version 1)",
    "AbilityNegated": "an ability of a SIGNI was negated as it activated, paid for by a constant of the "
    "opponent's: the rest of its effect does not happen (version 1)",
    "HandRevealed": "a player's hand was shown to a player (``to``: one player; ``all``: both)",
    "SigniAwakened": "a SIGNI awakened: it stays awakened while it is on the field",
    "SpellsBanned": "a player cannot use spells for the rest of the turn",
    "MinusDoubled": "for the rest of the turn, the minus power a player's SIGNI give by effects is doubled",
    "VanishRedirected": "for the rest of the turn, a player's vanished SIGNI go to the trash, not the ener",
    "CoinsGained": "a player gained coins (never more than five held)",
    "CoinsPaid": "a player paid coins",
    "SigniTargeted": "SIGNI on a player's field became the targets of the other player's ability or effect",
    "AttackForbidden": "SIGNI in one of a player's SIGNI zones cannot attack this turn",
    "ZoneKeywordsGranted": "this turn, the SIGNI in some of a player's SIGNI zones have keywords",
    "DeckTopArranged": "a player put the looked-at top cards of their deck back on top and at the bottom",
    "EffectDelayed": "part of an effect waits for a later moment (the end of an attack, the next turn)",
    "EffectEnded": "a waiting effect ended early (its card came back new, or its turn ended)",
    "AbilityGranted": "a card gained an ability until end of turn",
    "AbilityHeld": "a player, or their center LRIG (whichever LRIG it is, grown or not), gained an ability "
    "for the rest of the game",
    "LastingEffectSet": "an effect on a player began that applies for a stated time (phases of a turn to "
    "come, or until the end of a phase): a limit raised, a cap on the cards drawn, keywords for their SIGNI",
    "AbilitiesLost": "cards lost their abilities until end of turn",
    "SigniBecame": "a SIGNI on the field became another card until end of turn (its name, facts and "
    "abilities are that card's; it is its printed card again as the turn's effects end or as it leaves the "
    "field; version 1)",
    "SigniMoved": "a SIGNI moved to another SIGNI zone of its player's field (or two changed places), "
    "keeping their state",
    "LifeBurstCancelled": "a Life Burst its player chose to use did not activate: an effect's cost was paid",
    "BaseChanged": "a SIGNI's base level and base power became other numbers until end of turn",
    "LrigReturned": "an LRIG returned to its LRIG deck by an effect; the cards under it stayed on the field",
    "AbilityCounted": "a 1/Turn or 1/Game triggered ability was counted as used",
    "LifeClothAdded": "cards from the top of a deck were added to the top of the Life Cloth (a count)",
    "LifeClothToDeck": "cards from the top of the Life Cloth were put on top of the deck (a count)",
    "CardsPutUnder": "cards were put under an LRIG by an effect",
    "AttackLimitChanged": "how many times an LRIG may attack this turn changed",
    "SigniAttacksLimited": "a player's SIGNI may attack at most so many times in all this turn",
    "UnchosenAttacksBarred": "this turn only a player's SIGNI that must attack may attack",
    "AttacksCompelled": "this turn a player's SIGNI must attack if able",
    "SpellCostEased": "this turn, the next spell a player uses may have one ener item of its cost paid as "
    "colorless (version 1)",
    "EnerCostsLocked": "this turn a player cannot pay ener costs of one or more",
    "SigniCountCapped": "this turn a player may have at most so many SIGNI on the field",
    "SigniEntryBarred": "this turn a player cannot put SIGNI other than one card onto the field",
    "SigniAttackBarred": "this turn a player's SIGNI with power up to a number cannot attack",
    "PreventionSet": "this turn, the next time(s) a player would take damage, they take none instead",
    "DamagePrevented": "damage a player would have taken was prevented by an effect",
    "DamageReplaced": "damage a player would have taken by an attack was replaced: a card's effect happened "
    "instead",
    "ReplacementDeclined": "a player chose not to use a replacement effect that says they may",
    "LeavingReplaced": "a SIGNI that would have left the field stayed: what its replacement names happened "
    "instead",
    "ReplacementChosen": "a player answered whether to use their SIGNI's replacement of its leaving the "
    "field",
    "EffectDamageDealt": "an effect dealt damage to a player (a crush, or the loss of the game, follows)",
    "MarkersPlaced": "a zone marker (a Virus ...) was put in SIGNI zones of a player's field; it stays there "
    "whatever SIGNI come and go",
    "MarkersRemoved": "a zone marker was removed from SIGNI zones of a player's field (by an effect, or as a "
    "cost)",
    "CutInDeclared": "a player used a card cutting in to the opponent's spell or PIECE, which waits in the "
    "check zone until the card has resolved",
    "EffectCountered": "an effect countered a spell or PIECE waiting in the check zone: its effect will not "
    "happen",
    "CutInResolved": "the card that cut in has resolved: the spell or PIECE it answered resolves now, or, "
    "countered, goes to the trash (a PIECE is removed from the game) without its effect",
    "ZoneErased": "one of a player's SIGNI zones was erased until end of turn: its cards went to the trash "
    "and no SIGNI can be put there",
    "SigniTurnedFaceDown": "a SIGNI was turned face down in its SIGNI zone: it is no longer a SIGNI, and a "
    "SIGNI may be put into that zone",
    "CardTurnedFaceUp": "a face-down card in a SIGNI zone with no SIGNI was turned face up: a SIGNI again, "
    "new and upped",
    # judge
    "Rewound": "the match was rewound (by a judge, or by an accepted takeback); the state is again as it "
    "was at an earlier event",
    "Branched": "this match was branched from another at an event",
    "Adjusted": "a judge resolved an ability the service does not enforce, as primitive steps",
    "CardsArranged": "a record without a seed named cards nobody had seen: the replay set which card each "
    "unseen instance is (and, for a shuffle nobody recorded, the match's randomness) to match it",
    # takebacks
    "TakebackPolicySet": "the match's takeback policy was set (when it was created, or by a judge)",
    "TakebackRequested": "a player asked to take back their play to an earlier decision point; the match "
    "waits for the answer",
    "TakebackAccepted": "a takeback was accepted (by the opponent or a judge); a rewind follows",
    "TakebackDeclined": "a takeback was declined (by the opponent or a judge); nothing is undone",
}

ACTORS = ("p1", "p2", "judge", "rules")


@dataclass(frozen=True, slots=True)
class Event:
    """One event as ``decide`` produces it, before it is stored."""

    type: str
    actor: str
    rule: str
    data: dict[str, Any] = field(default_factory=dict)
    caused_by: int | None = None
    by: str | None = None  # "judge" when a judge answered a player's decision
    action: dict[str, Any] | None = None  # on the first event of a batch: the action that produced it

    def __post_init__(self) -> None:
        if self.type not in EVENT_TYPES:
            raise ValueError(f"unknown event type {self.type!r}")
        if self.actor not in ACTORS:
            raise ValueError(f"unknown actor {self.actor!r}")

    def to_dict(self) -> dict[str, Any]:
        return {
            "type": self.type,
            "actor": self.actor,
            "rule": self.rule,
            "caused_by": self.caused_by,
            "by": self.by,
            "data": self.data,
            "action": self.action,
        }


def same_event(a: Any, b: Any) -> bool:
    """Whether two events (domain or stored) say the same thing, timestamps and hashes aside."""
    return (
        a.type == b.type
        and a.actor == b.actor
        and a.rule == b.rule
        and a.caused_by == b.caused_by
        and (a.by or None) == (b.by or None)
        and _plain(a.data) == _plain(b.data)
        and _plain(a.action) == _plain(b.action)
    )


def _plain(value: Any) -> Any:
    """Tuples and lists compare alike (the store hands lists back for tuples)."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value
