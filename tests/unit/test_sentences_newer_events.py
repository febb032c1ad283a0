"""The log in sentences: what a cut-in answered, a spell or a PIECE (rule piece.cut-in), where a revealed card
came from, an infinite power as printed, a negated ability, and an effect lasting a stated time."""

from projections.sentences import sentence


def test_a_cut_in_to_a_piece_names_the_piece_and_its_removal() -> None:
    declared = sentence("CutInDeclared", {"player": "p1", "card": "WXDi-P05-006", "piece": "WXDi-P00-001"})
    assert declared == "Player 1 cuts in to Super Helesta Saber with Eternal♡Immortal Kyurukyurun☆."
    countered = {"player": "p1", "piece": "WXDi-P00-001", "countered": True, "put": "excluded"}
    assert "Super Helesta Saber, countered, is removed from the game" in sentence("CutInResolved", countered)
    spell = {"player": "p1", "spell": "WXDi-P00-080", "countered": True, "put": "trash"}
    assert "Darkness Eater, countered, goes to the trash" in sentence("CutInResolved", spell)


def test_a_card_revealed_from_the_life_cloth_says_so() -> None:
    data = {"player": "p2", "card": "WXDi-P00-080", "card_id": "WXDi-P00-080"}
    assert sentence("CardRevealed", data).endswith("from the top of the deck.")
    life = {**data, "zone": "life_cloth"}
    assert sentence("CardRevealed", life).endswith("from the top of the Life Cloth.")


def test_an_infinite_power_reads_as_printed() -> None:
    data = {"attacker": "WXDi-P07-050", "defender": "WXDi-P00-080", "result": "vanished"}
    text = sentence("Battled", {**data, "attacker_power": 1_000_000_000, "defender_power": 52000})
    assert "(∞ power) battles" in text and "(52000 power)" in text


def test_a_negated_ability_and_a_lasting_effect_read_as_sentences() -> None:
    negated = {"player": "p2", "card": "WXDi-P00-080", "ability": 0, "by_effect": "WXDi-P08-044"}
    assert "is negated as it activates: it does nothing" in sentence("AbilityNegated", negated)
    limit = {"player": "p1", "what": "limit", "amount": 2, "window": {"turns": [4, 6], "ends_after": "ener"}}
    assert sentence("LastingEffectSet", limit).startswith(
        "Player 1's limit is +2 from now to the end of the ener phase of turn 6"
    )
    window = {"turns": [5, 5], "phases": ["main", "attack"]}
    shadow = {"player": "p1", "what": "zone_keywords", "zones": ["center"], "keywords": ["shadow:lrig"]}
    assert "have Shadow (lrig) during the main and attack phases of turn 5" in sentence(
        "LastingEffectSet", {**shadow, "window": window}
    )
