"""The rules catalogue: cited ids exist, entries are well formed, sources are real, summaries are our own."""

from __future__ import annotations

import json
import os
import re
import unicodedata
from pathlib import Path

import pytest

from domain.rules import RULES, Rule, UnknownRule, all_rules, explain, rule

SHARED = Path(os.environ.get("WIXOSS_SHARED", "/work/shared"))
SEEDS_DIR = SHARED / "seeds"
RULINGS_FILE = SHARED / "rulings" / "rulings.json"

# Lower-case and dotted. The brief's pattern is ^[a-z0-9]+(\.[a-z0-9-]+)+$, but a required id (life-burst.use)
# has a hyphen in its first part, so the first part may hold hyphens too (never at its start).
ID_PATTERN = re.compile(r"^[a-z0-9][a-z0-9-]*(\.[a-z0-9-]+)+$")
SEEDS = {"000", "001", "002", "004"}
RUN = 8  # a summary may not share this many consecutive words with a source text

REQUIRED_IDS = """
rba.1 rba.2 rba.3 rba.4 rba.5 rba.6 rba.7 rba.8 rba.9 rba.lrig-type rba.order
deck.main-size deck.copies deck.life-burst deck.lrig-size deck.lrig-names deck.piece deck.lrig-level0
deck.colors deck.zone deck.unknown-card format.unsupported
setup.lrigs setup.shuffle setup.first-player setup.draw setup.mulligan setup.life-cloth setup.reveal
turn.begin turn.end up.phase draw.phase draw.first-turn ener.phase ener.charge ener.once
grow.phase grow.level grow.type grow.cost grow.once grow.center
main.phase main.play-signi play.level play.limit play.zone play.limiting main.remove remove.once remove.resona
end.phase end.hand-size end.expire end.check-zone refresh.second refresh.draw
attack.phase attack.first-turn attack.pre-attack attack.defense attack.signi attack.lrig attack.downed
attack.step attack.assist attack.triggers battle.compare damage.signi damage.crush damage.no-life
crush.check crush.effect guard.step guard.lrig-only life-burst.use
kw.assassin kw.double-crush kw.lancer kw.guard kw.multi-ener kw.shadow kw.freeze
cost.ener cost.own
decision.not-yours decision.not-pending decision.invalid game.over game.concede game.win
judge.position judge.rewind judge.branch judge.adjust judge.unenforced
""".split()  # noqa: SIM905 (a word list reads better here)


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", unicodedata.normalize("NFKC", text).lower())


def _runs(words: list[str], n: int = RUN) -> set[tuple[str, ...]]:
    return {tuple(words[i : i + n]) for i in range(len(words) - n + 1)}


def _shared_run(summary: str, source_runs: set[tuple[str, ...]]) -> str | None:
    for run in _runs(_words(summary)):
        if run in source_runs:
            return " ".join(run)
    return None


# ---- the catalogue itself ----


@pytest.mark.parametrize("rule_id", REQUIRED_IDS)
def test_every_required_id_exists(rule_id: str) -> None:
    assert rule_id in RULES
    assert rule(rule_id).id == rule_id


def test_required_ids_are_listed_once() -> None:
    assert len(REQUIRED_IDS) == len(set(REQUIRED_IDS))


def test_ids_are_lower_case_and_dotted() -> None:
    bad = [r.id for r in all_rules() if not ID_PATTERN.match(r.id)]
    assert bad == []


def test_rules_are_sorted_by_id_and_keyed_by_their_own_id() -> None:
    ids = [r.id for r in all_rules()]
    assert ids == sorted(ids)
    assert list(RULES) == ids
    assert all(RULES[key].id == key for key in RULES)


def test_catalogue_is_read_only() -> None:
    with pytest.raises(TypeError):
        RULES["made.up"] = RULES["rba.1"]  # type: ignore[index]


# The judge's own procedure, takebacks, match records and the audit of a log come from no rules text.
PROCEDURE_PREFIXES = ("judge.", "audit.", "takeback.", "record.")


# Game rules no seed text states: the seeds name coins, but none says how the coin value printed on an LRIG
# is gained (as the LRIGs are turned face up, and on growing into it); none names the Dissona icon, which
# changes no rule and is only named by cards.
UNSEEDED_GAME_RULES = {"coin.icon", "card.dissona-icon"}


def test_every_rule_has_text_and_a_source() -> None:
    for r in all_rules():
        assert r.title.strip(), r.id
        assert r.summary.strip(), r.id
        assert r.section.strip(), r.id
        if r.id.startswith(PROCEDURE_PREFIXES) or r.id in UNSEEDED_GAME_RULES:
            assert r.seed == "none", r.id
        else:
            assert r.seed in SEEDS, r.id


def test_only_judge_rules_have_no_seed() -> None:
    assert {r.id for r in all_rules() if r.seed == "none"} == {
        i for i in RULES if i.startswith(PROCEDURE_PREFIXES)
    } | UNSEEDED_GAME_RULES


def test_summaries_are_short_and_plain() -> None:
    for r in all_rules():
        sentences = [s for s in re.split(r"(?<=[.!?])\s+", r.summary.strip()) if s]
        assert 1 <= len(sentences) <= 3, (r.id, sentences)
        assert r.summary == r.summary.strip() and "\n" not in r.summary, r.id


def test_ruling_ids_look_like_ruling_ids() -> None:
    for r in all_rules():
        assert isinstance(r.rulings, tuple), r.id
        for ruling_id in r.rulings:
            assert re.fullmatch(r"WXR-\d{3}", ruling_id), (r.id, ruling_id)
        assert len(r.rulings) == len(set(r.rulings)), r.id


def test_rules_cited_inside_summaries_exist() -> None:
    for r in all_rules():
        for cited in re.findall(r"\(((?:rba|kw|judge)\.[a-z0-9-]+)\)", r.summary):
            assert cited in RULES, (r.id, cited)


def test_to_dict_shape() -> None:
    data = rule("rba.2").to_dict()
    assert set(data) == {"id", "title", "summary", "source"}
    assert data["id"] == "rba.2"
    assert data["source"]["seed"] == "004"
    assert set(data["source"]) == {"seed", "document", "section", "rulings"}
    assert data["source"]["document"].startswith("004_9d605cc408e12c37.txt")
    assert isinstance(data["source"]["rulings"], list)
    assert "WXR-032" in [r["id"] for r in data["source"]["rulings"]]
    json.dumps(data)  # plain JSON values only


def test_rule_is_frozen() -> None:
    with pytest.raises(AttributeError):
        rule("rba.1").title = "changed"  # type: ignore[misc]
    assert isinstance(rule("rba.1"), Rule)


def test_unknown_rule_raises_a_clear_lookup_error() -> None:
    with pytest.raises(UnknownRule, match=r"no\.such-rule"):
        rule("no.such-rule")
    with pytest.raises(LookupError):
        explain("no.such-rule")


def test_explain_is_title_then_summary() -> None:
    r = rule("battle.compare")
    assert explain("battle.compare") == f"{r.title}: {r.summary}"


def test_catalogue_data_ships_with_the_package() -> None:
    from importlib import resources

    assert resources.files("domain").joinpath("data/rules.json").is_file()


# ---- checks against the project's source documents (skipped without /work/shared) ----


def _need(path: Path) -> None:
    if not path.exists():
        pytest.skip(f"{path} is not available: the source documents are needed for this check")


def test_ruling_references_exist() -> None:
    _need(RULINGS_FILE)
    known = {entry["id"] for entry in json.loads(RULINGS_FILE.read_text(encoding="utf-8"))}
    missing = {(r.id, ruling_id) for r in all_rules() for ruling_id in r.rulings if ruling_id not in known}
    assert missing == set()


def test_no_summary_copies_a_seed() -> None:
    _need(SEEDS_DIR)
    seed_files = sorted(SEEDS_DIR.glob("0*.txt"))
    assert {p.name[:3] for p in seed_files} >= SEEDS
    source_runs: set[tuple[str, ...]] = set()
    for path in seed_files:
        source_runs |= _runs(_words(path.read_text(encoding="utf-8")))
    copied = {r.id: run for r in all_rules() if (run := _shared_run(r.summary, source_runs))}
    assert copied == {}


def test_no_summary_copies_a_ruling() -> None:
    _need(RULINGS_FILE)
    source_runs: set[tuple[str, ...]] = set()
    for entry in json.loads(RULINGS_FILE.read_text(encoding="utf-8")):
        source_runs |= _runs(_words(f"{entry['question']} {entry['answer']}"))
    copied = {r.id: run for r in all_rules() if (run := _shared_run(r.summary, source_runs))}
    assert copied == {}


def test_overlap_check_detects_a_copy() -> None:
    source = _runs(_words("If you take damage from your opponent without one of these, you lose the game."))
    assert _shared_run("Rule: if you take damage from your opponent without one of these.", source)
    assert _shared_run("A player with no Life Cloth who takes damage loses.", source) is None


def test_every_source_is_something_a_reader_can_look_up() -> None:
    # issue 12 point 8: a bare "WXR-022" cannot be looked up; every source names its rules text file (or
    # says it has none) and every ruling says what it is and where it is published
    from domain.rules import DOCUMENTS, RULINGS

    for r in all_rules():
        source = r.to_dict()["source"]
        assert source["document"] == DOCUMENTS[r.seed], r.id
        assert r.seed == "none" or ".txt" in source["document"], r.id
        for ruling in source["rulings"]:
            assert ruling["id"] in RULINGS, (r.id, ruling["id"])
            assert ruling["authority"] and ruling["where"] and ruling["topic"], (r.id, ruling)
