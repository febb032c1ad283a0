# ruff: noqa: RUF001, RUF002, RUF003  (the Japanese card vocabulary uses full-width brackets and colons)
"""Import card facts from the shared reference data into the project's own catalogue format.

Run from the repository root::

    python -m tools.import_cards          # (re)write the files of domain/data (cards, extended, decks)
    python -m tools.import_cards --check  # exit 1 when the committed files differ from a fresh import

It reads ``../shared/cards/*.json`` (reference data that is *not* part of the project) and writes only facts:
ids, names, types, colours, numbers, costs, LRIG types, limiting conditions, classes, team, flags, timings
and a few keywords. It never writes card text (Japanese or English), image addresses or source lists: the
text is read only to check flags against it and to derive keywords, as described below.

Decisions, in the order a record is converted:

* Types: the record's type in lower snake case (``Assist LRIG`` -> ``assist_lrig``, ``SIGNI Craft`` ->
  ``signi_craft``). ``Token`` records are ``token``: known to the catalogue (their numbers answer), in
  neither deck. The one record typed ``-`` is numbered as a token (``-TK``) and is one too; a ``-`` record
  with another number is an error.
* Reprints: a record with ``reprint_of`` is the same card as its first printing. Each card printed more
  than once gets ``reprints``: every number of it, the first printing first, then the reprints by id.
  A few records the reference file does not link are linked by hand (``HAND_REPRINTS``): the Servants
  and the spell every early starter deck reprinted from WD01, whose later records carry neither text nor
  Life Burst (the same name, level and power: the same card).
  The extended file holds the first printings only; the catalogue answers a reprint's number with its
  first printing (``domain.cards.Catalogue``). The starter file keeps the reprints its decks list.
* Names: ``name`` is the English name where the record has one, else the Japanese name; ``name_ja`` is
  always kept. Reprints share ``name_ja``, so deck rules count copies by it (``Card.name_key``).
* Numbers: level, limit and power are ints or null. Two records print an infinite limit or power: an
  infinite power becomes ``domain.cards.INFINITE_POWER`` (a SIGNI's ∞, which the rules of power read); an
  infinite limit becomes null (listed in the import report).
* Costs: ``[{color, n}]`` with lower-case colours (hybrids such as ``red/green``, and ``coin``, kept as
  they are). Items of zero (``《緑×0》``) are dropped: paying nothing of a colour is no cost. Items
  that are not a colour and a count (one alternative grow cost "or a Key") are dropped and reported.
* Timings: ``main``, ``attack``, ``spell_cut_in`` in that order; the other spellings in the data
  (``mainPhase``, ``メインフェイズ`` ...) are normalised, anything else is dropped and reported.
* LRIG types and limiting conditions share ONE vocabulary: upper-case English (``TAMA``, ``AT``).
  The Japanese -> English table is learned from the records that carry both the Japanese type and the
  OpenBatoru English one (for LRIGs their LRIG type, for other cards their limiting condition), by
  majority, plus a small hand table (``HAND_LRIG_TYPES``) for types no such record names. Japanese
  strings are NFKC-normalised first (``ＬｏＶ`` -> ``LoV``) and split at ``/``: ``花代/ユヅキ``
  (either type) and ``タマ／イオナ`` (two types). Anything still unmapped keeps its Japanese string.
  LRIG types come only from the Japanese field (OpenBatoru's holds the limiting condition on non-LRIG
  cards); limiting conditions only from the Japanese ``limiting`` field.
* Classes: the OpenBatoru English classes in title case (``ELECTRIC_MACHINE`` -> ``Electric Machine``)
  where the record has them. Otherwise a table learned from the records with both: whole Japanese class
  strings, and the part after the colon (``精械：電機`` -> Electric Machine; a ``奏`` big class adds
  Performer), applied to each class string or its ``/``-separated parts. When any part is unknown the
  record keeps its Japanese class strings, so one card never mixes the two vocabularies.
* Team: the English team name, else the Japanese one; where the record has neither, the team its Japanese
  text marks with ``【チーム】`` (a few SIGNI), in English as the records with both name it; else null.
* Flags: where a flag and the card's text disagree, the text wins. With Japanese text: ``guard`` is true
  exactly when a Guard ability is printed (``【ガード】`` standing alone, not "cannot 【ガード】");
  ``multi_ener`` exactly when ``【常】：【マルチエナ】`` is printed (cards that grant or mention Multi
  Ener do not have it). With English text only, a printed ``[Guard]`` or ``[Constant]: [Multi Ener]``
  line can set a flag but not clear it (old cards printed Guard as an icon outside the text).
  ``life_burst`` is the flag, or true when the record has Life Burst text. Text inside quotes
  (abilities granted to other cards) never counts.
* Keywords: printed, unconditional keyword abilities of the card itself, from ``lancer``,
  ``double_crush``, ``assassin``, ``shadow``. A keyword counts only when a plain Constant ability
  consists of nothing but keywords, ``【常】：【ランサー】`` or ``【常】：【アサシン】【ダブルクラッシュ】``
  (each optionally followed by its reminder text), ending at the next ability or the end of the text
  (English-only records: a line ``[Constant]: [Lancer]``). Not counted: keywords granted by an effect
  or to other cards, inside quotes, under a condition ("as long as", "during your opponent's turn",
  team or icon-qualified Constants), gained until end of turn, and qualified Shadow
  (``【シャドウ（スペル）】``: Shadow against only some cards is not plain Shadow). Only cards that
  can stand on the field as SIGNI or LRIG get keywords.
"""

from __future__ import annotations

import argparse
import gzip
import io
import json
import re
import sys
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from domain.cards import INFINITE_POWER

REPO_ROOT = Path(__file__).resolve().parents[1]
SHARED_CARDS = REPO_ROOT / ".." / "shared" / "cards"
DATA_DIR = REPO_ROOT / "domain" / "data"

CARDS_FILE = "cards.json"
EXTENDED_FILE = "cards_extended.json.gz"
DECKS_FILE = "decks.json"

TYPE_MAP: dict[str, str] = {
    "LRIG": "lrig",
    "Assist LRIG": "assist_lrig",
    "SIGNI": "signi",
    "Spell": "spell",
    "ARTS": "arts",
    "PIECE": "piece",
    "Resona": "resona",
    "Key": "key",
    "SIGNI Craft": "signi_craft",
    "Spell Craft": "spell_craft",
    "ARTS Craft": "arts_craft",
    "Resona Craft": "resona_craft",
    "PIECE Craft": "piece_craft",
    "PIECE Relay": "piece_relay",
    "Token": "token",
}
UNTYPED = "-"  # a record without a type: a token when its number says so (``-TK``)

COLOR_ORDER = ("white", "red", "blue", "green", "black", "colorless")
TIMING_ORDER = ("main", "attack", "spell_cut_in")
_TIMING_WORDS = {
    "main": "main",
    "mainphase": "main",
    "メインフェイズ": "main",
    "attack": "attack",
    "attackphase": "attack",
    "アタックフェイズ": "attack",
    "spell_cut_in": "spell_cut_in",
    "spellcutin": "spell_cut_in",
    "スペルカットイン": "spell_cut_in",
}

# LRIG types no record names in English (NFKC-normalised Japanese -> the project's upper-case vocabulary).
HAND_LRIG_TYPES: dict[str, str] = {
    "LoV": "LOV",
    "にじさんじ": "NIJISANJI",
}

# Reprints the reference file does not link (reprint -> first printing): the WD02 and WD03 starter decks
# reprint WD01's Servant D, Servant O and Jetting Knowledge under their own numbers; their records there hold
# no text and no Life Burst, so unlinked they would play as cards without abilities.
HAND_REPRINTS: dict[str, str] = {
    "WD02-016": "WD01-016",
    "WD02-017": "WD01-017",
    "WD02-018": "WD01-018",
    "WD03-016": "WD01-016",
    "WD03-017": "WD01-017",
    "WD03-018": "WD01-018",
}

# Types whose cards stand on the field as a SIGNI or an LRIG: only they get keywords.
KEYWORD_TYPES = frozenset({"signi", "resona", "signi_craft", "resona_craft", "lrig", "assist_lrig"})
_KW_JA = {
    "ランサー": "lancer",
    "ダブルクラッシュ": "double_crush",
    "アサシン": "assassin",
    "シャドウ": "shadow",
}
_KW_EN = {"lancer": "lancer", "double crush": "double_crush", "assassin": "assassin", "shadow": "shadow"}
KEYWORD_ORDER = ("lancer", "double_crush", "assassin", "shadow")
PERFORMER = "Performer"  # the English class of the 奏 (Diva) big classes

_KW_TOKEN_JA = "【(?:ランサー|ダブルクラッシュ|アサシン|シャドウ)】"
_REMINDER_JA = r"（[^（）]*(?:（[^（）]*）[^（）]*)*）"
_CONSTANT_KEYWORDS_JA = re.compile(
    rf"【常】：[ \u3000]*((?:{_KW_TOKEN_JA}[ \u3000]*(?:{_REMINDER_JA})?[ \u3000]*)+)(?=【|\n|$)"
)
_CONSTANT_KEYWORDS_EN = re.compile(
    r"^[ \t]*\[Constant\]:[ \t]*((?:\[(?:Lancer|Double Crush|Assassin|Shadow)\][ \t,]*)+)[ \t]*(?:\([^)]*\))?"
    r"[ \t.]*$",
    re.MULTILINE | re.IGNORECASE,
)
_GUARD_JA = re.compile(r"(?:^|[\n】）。])【ガード】(?=[（【\n]|$)")
_GUARD_EN = re.compile(r"^[ \t]*\[Guard\][ \t]*$", re.MULTILINE)
_MULTI_ENER_JA = re.compile(r"【常】：[ \u3000]*【マルチエナ】")
_MULTI_ENER_EN = re.compile(r"^[ \t]*\[Constant\]:[ \t]*\[Multi Ener\]", re.MULTILINE | re.IGNORECASE)

CARD_KEYS = (
    "id", "name", "name_ja", "type", "colors", "level", "limit", "power", "grow_cost", "cost", "lrig_types",
    "limiting", "classes", "team", "guard", "life_burst", "multi_ener", "timings", "keywords",
    "has_abilities", "aliases", "reprints", "dissona", "coin",
)  # fmt: skip


# --------------------------------------------------------------------------------------------- vocabulary


@dataclass(frozen=True)
class Vocabulary:
    """What the importer learned from the whole reference file: Japanese LRIG types and classes in English.

    ``classes`` maps whole Japanese class strings (``奏羅：宇宙``) to English classes (``Performer``,
    ``Space``); ``small_classes`` maps the part after the colon (``宇宙``) to its one English class.
    """

    lrig_types: Mapping[str, str]
    classes: Mapping[str, tuple[str, ...]]
    small_classes: Mapping[str, str] = field(default_factory=dict)
    teams: Mapping[str, str] = field(default_factory=dict)  # Japanese team name (NFKC) -> English


def _nfkc(s: str) -> str:
    return unicodedata.normalize("NFKC", s).strip()


def _split_types(values: Iterable[Any]) -> list[str]:
    out: list[str] = []
    for v in values or ():
        if not isinstance(v, str):
            continue
        for part in _nfkc(v).split("/"):
            part = part.strip()
            if part and part not in out:
                out.append(part)
    return out


def _title(word: str) -> str:
    return " ".join(w.capitalize() for w in word.replace("_", " ").split())


def _majority(votes: Mapping[Any, Counter[Any]]) -> dict[Any, Any]:
    # most votes, ties broken by the smaller value, so that the result never depends on record order
    return {k: min(c.items(), key=lambda kv: (-kv[1], kv[0]))[0] for k, c in votes.items()}


def build_vocabulary(records: Iterable[Mapping[str, Any]]) -> Vocabulary:
    """Learn the Japanese -> English LRIG types and classes from records that carry both."""
    type_votes: dict[str, Counter[str]] = defaultdict(Counter)
    class_votes: dict[str, Counter[tuple[str, ...]]] = defaultdict(Counter)
    small_votes: dict[str, Counter[str]] = defaultdict(Counter)
    team_votes: dict[str, Counter[str]] = defaultdict(Counter)
    for rec in records:
        team_en, team_ja = rec.get("team"), rec.get("team_ja")
        if isinstance(team_en, str) and team_en.strip() and isinstance(team_ja, str) and team_ja.strip():
            team_votes[_nfkc(team_ja)][team_en.strip()] += 1
        en_types = rec.get("lrig_type_en_openbatoru")
        if isinstance(en_types, list) and en_types:
            if rec.get("type") in ("LRIG", "Assist LRIG"):
                ja = _split_types(rec.get("lrig_type") or ())
            else:  # on other cards OpenBatoru's "LRIG type" is the limiting condition
                ja = _split_types(rec.get("limiting") or ())
            if len(ja) == len(en_types) and all(isinstance(e, str) and e for e in en_types):
                for j, e in zip(ja, en_types, strict=True):
                    type_votes[j][e.strip().upper()] += 1
        en_classes = rec.get("classes_en_openbatoru")
        ja_classes = [c for c in rec.get("classes") or () if isinstance(c, str) and c.strip()]
        if (
            isinstance(en_classes, list)
            and en_classes
            and len(ja_classes) == 1
            and all(isinstance(e, str) and e for e in en_classes)
        ):
            ja_class = _nfkc(ja_classes[0])
            en = tuple(_title(e) for e in en_classes)
            class_votes[ja_class][en] += 1
            big, sep, small = ja_class.partition(":")  # NFKC made the full-width colon ":"
            performer = big.startswith("奏")
            if sep and "/" not in ja_class and en == ((PERFORMER,) if performer else ()) + en[-1:]:
                small_votes[small][en[-1]] += 1
    return Vocabulary(
        lrig_types=_majority(type_votes),
        classes=_majority(class_votes),
        small_classes=_majority(small_votes),
        teams=_majority(team_votes),
    )


TEAM_MARK = re.compile(r"【チーム】\s*[<＜]([^>＞]+)[>＞]")


def team_of(rec: Mapping[str, Any], vocab: Vocabulary) -> str | None:
    """The record's team; where it has none, the team its Japanese text marks (``【チーム】＜…＞``, as on
    SIGNI whose team abilities name it), in English where the vocabulary knows it."""
    team = rec.get("team") or rec.get("team_ja") or None
    if isinstance(team, str) and team.strip():
        return team.strip()
    mark = TEAM_MARK.search(_nfkc(rec.get("text_ja") or ""))
    if mark is None:
        return None
    ja = _nfkc(mark.group(1))
    return vocab.teams.get(ja) or ja


def map_lrig_types(values: Iterable[Any], vocab: Vocabulary) -> list[str]:
    """Japanese LRIG types (or limiting conditions) in the project's upper-case English vocabulary."""
    out: list[str] = []
    for part in _split_types(values):
        mapped = vocab.lrig_types.get(part) or HAND_LRIG_TYPES.get(part) or part
        if mapped not in out:
            out.append(mapped)
    return out


def _map_one_class(s: str, vocab: Vocabulary) -> tuple[str, ...] | None:
    """``奏像：悪魔`` -> (Performer, Devil); ``精像：悪魔`` and ``悪魔`` -> (Devil,); None when unknown."""
    if s in vocab.classes:
        return tuple(vocab.classes[s])
    big, sep, small = s.partition(":")
    if not sep:
        big, small = "", s
    if small not in vocab.small_classes or (big and big[0] not in "精奏"):
        return None
    return ((PERFORMER,) if big.startswith("奏") else ()) + (vocab.small_classes[small],)


def _map_class_string(s: str, vocab: Vocabulary) -> list[str] | None:
    s = _nfkc(s).replace("獸", "獣")  # the full-width colon becomes ":"; one record spells 獣 the old way
    whole = _map_one_class(s, vocab)
    if whole is not None:
        return list(whole)
    parts = [p.strip() for p in s.split("/") if p.strip()]
    if len(parts) < 2:
        return None
    out: list[str] = []
    prefix = ""
    for p in parts:
        if ":" in p:
            prefix = p.partition(":")[0]
            candidates = [p]
        else:  # "精械：紅蓮/古代兵器": the second part shares the first one's big class
            candidates = [f"{prefix}:{p}", p] if prefix else [p]
        found = next((m for c in candidates if (m := _map_one_class(c, vocab)) is not None), None)
        if found is None:
            return None
        out.extend(x for x in found if x not in out)
    return out


def map_classes(rec: Mapping[str, Any], vocab: Vocabulary) -> list[str]:
    en = rec.get("classes_en_openbatoru")
    if isinstance(en, list) and en and all(isinstance(e, str) and e for e in en):
        out: list[str] = []
        for e in en:
            t = _title(e)
            if t not in out:
                out.append(t)
        return out
    ja = [c.strip() for c in rec.get("classes") or () if isinstance(c, str) and c.strip()]
    mapped: list[str] = []
    for c in ja:
        if len(ja) > 1 and len(c) == 2 and c[0] in "精奏":  # ["精像", "悪魔"]: the big class given apart
            m: list[str] | None = [PERFORMER] if c[0] == "奏" else []
        else:
            m = _map_class_string(c, vocab)
        if m is None:
            return ja  # keep the Japanese strings rather than mix vocabularies
        mapped.extend(x for x in m if x not in mapped)
    return mapped


# ------------------------------------------------------------------------------------------ text checks


def strip_quoted(text: str) -> str:
    """Text with quoted passages (「...」 and 『...』, abilities granted to other cards) removed."""
    out: list[str] = []
    depth = 0
    for ch in text:
        if ch in "「『":
            depth += 1
        elif ch in "」』" and depth:
            depth -= 1
        elif not depth:
            out.append(ch)
    return "".join(out)


def _strip_quoted_en(text: str) -> str:
    return re.sub(r'"[^"]*"', "", text)


def keywords_from_text(text_ja: str | None, text_en: str | None) -> list[str]:
    """Printed, unconditional keyword abilities (see the module docstring for the rule)."""
    found: set[str] = set()
    if text_ja:
        for m in _CONSTANT_KEYWORDS_JA.finditer(strip_quoted(text_ja)):
            body = re.sub(_REMINDER_JA, "", m.group(1))
            found.update(_KW_JA[k] for k in re.findall("【([^】]+)】", body) if k in _KW_JA)
    elif text_en:
        for m in _CONSTANT_KEYWORDS_EN.finditer(_strip_quoted_en(text_en)):
            found.update(_KW_EN[k.lower()] for k in re.findall(r"\[([^\]]+)\]", m.group(1)))
    return [k for k in KEYWORD_ORDER if k in found]


def guard_from_text(flag: bool, text_ja: str | None, text_en: str | None) -> bool:
    if text_ja:
        return bool(_GUARD_JA.search(strip_quoted(text_ja)))
    if text_en and _GUARD_EN.search(_strip_quoted_en(text_en)):
        return True
    return flag


def multi_ener_from_text(flag: bool, text_ja: str | None, text_en: str | None) -> bool:
    if text_ja:
        return bool(_MULTI_ENER_JA.search(strip_quoted(text_ja)))
    if text_en and _MULTI_ENER_EN.search(_strip_quoted_en(text_en)):
        return True
    return flag


# ------------------------------------------------------------------------------------------- conversion


@dataclass
class ImportReport:
    """What the importer changed or dropped, for the person running it."""

    corrected: list[str] = field(default_factory=list)
    dropped: list[str] = field(default_factory=list)
    unmapped_lrig_types: Counter[str] = field(default_factory=Counter)
    japanese_classes: int = 0

    def note_corrected(self, msg: str) -> None:
        self.corrected.append(msg)

    def note_dropped(self, msg: str) -> None:
        self.dropped.append(msg)


def _int_or_none(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        return int(value.strip())
    return None


def _costs(card_id: str, field_name: str, raw: Any, report: ImportReport | None) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for item in raw or ():
        color = item.get("color") if isinstance(item, dict) else None
        n = item.get("n") if isinstance(item, dict) else None
        if not isinstance(color, str) or isinstance(n, bool) or not isinstance(n, int):
            if report is not None:
                report.note_dropped(f"{card_id}: {field_name} item {item!r} is not a colour and a count")
            continue
        if n > 0:
            out.append({"color": color.strip().lower(), "n": n})
    return out


def _timings(card_id: str, raw: Any, report: ImportReport | None) -> list[str]:
    if isinstance(raw, str):
        words = re.split(r"[\s【】,、/]+", raw)
    else:
        words = [w for w in raw or () if isinstance(w, str)]
    found: set[str] = set()
    for w in words:
        key = w.strip().lower() if w.isascii() else w.strip()
        if not key:
            continue
        if key in _TIMING_WORDS:
            found.add(_TIMING_WORDS[key])
        elif report is not None:
            report.note_dropped(f"{card_id}: timing {w!r} is not a use timing")
    return [t for t in TIMING_ORDER if t in found]


REMINDER = re.compile(r"[（(][^（()）]*[)）]")


def has_abilities(text_ja: str | None, text_en: str | None, burst_ja: Any) -> bool:
    """Whether a card has any ability: text left once reminder text in brackets is taken out (a dual-colour
    card's only text is a reminder of how it pays ener), or a Life Burst."""
    if burst_ja:
        return True
    return any(bool(text and REMINDER.sub("", text).strip()) for text in (text_ja, text_en))


def card_type(card_id: str, raw_type: Any) -> str:
    """The project's card type of a record (see the module docstring)."""
    if raw_type == UNTYPED and "-TK" in card_id:
        return TYPE_MAP["Token"]
    if raw_type not in TYPE_MAP:
        raise ValueError(f"{card_id}: unknown card type {raw_type!r}")
    return TYPE_MAP[raw_type]


def convert_record(
    rec: Mapping[str, Any],
    vocab: Vocabulary,
    report: ImportReport | None = None,
    reprints: Mapping[str, Sequence[str]] | None = None,
) -> dict[str, Any]:
    """One reference record in the project's card format; ``reprints``: the reprint groups by number
    (``reprint_groups``)."""
    card_id = str(rec["id"]).strip()
    ctype = card_type(card_id, rec.get("type"))
    name_ja = str(rec.get("name_ja") or "").strip()
    name_en = rec.get("name_en")
    name = name_en.strip() if isinstance(name_en, str) and name_en.strip() else name_ja

    colors = {c.strip().lower() for c in rec.get("colors") or () if isinstance(c, str)}
    unknown_colors = colors - set(COLOR_ORDER)
    if unknown_colors:
        raise ValueError(f"{card_id}: unknown colours {sorted(unknown_colors)}")

    numbers: dict[str, int | None] = {}
    for key in ("level", "limit", "power"):
        raw = rec.get(key)
        numbers[key] = INFINITE_POWER if key == "power" and raw == "infinite" else _int_or_none(raw)
        if raw is not None and numbers[key] is None and report is not None:
            report.note_dropped(f"{card_id}: {key} {raw!r} is not a number (null)")

    text_ja = rec.get("text_ja") if isinstance(rec.get("text_ja"), str) else None
    text_en = rec.get("text_en") if isinstance(rec.get("text_en"), str) else None
    guard_flag = bool(rec.get("guard"))
    guard = guard_from_text(guard_flag, text_ja, text_en)
    me_flag = bool(rec.get("multi_ener"))
    multi_ener = multi_ener_from_text(me_flag, text_ja, text_en)
    lb_flag = bool(rec.get("life_burst"))
    life_burst = lb_flag or bool(rec.get("burst_text_ja"))
    if report is not None:
        for label, before, after in (
            ("guard", guard_flag, guard),
            ("multi_ener", me_flag, multi_ener),
            ("life_burst", lb_flag, life_burst),
        ):
            if before != after:
                report.note_corrected(f"{card_id}: {label} {before} -> {after} (the card's text)")

    is_lrig = ctype in ("lrig", "assist_lrig")
    lrig_types = map_lrig_types(rec.get("lrig_type") or (), vocab) if is_lrig else []
    limiting = map_lrig_types(rec.get("limiting") or (), vocab)
    classes = map_classes(rec, vocab)
    if report is not None:
        for t in lrig_types + limiting:
            if not t.isascii():
                report.unmapped_lrig_types[t] += 1
        if any(not c.isascii() for c in classes):
            report.japanese_classes += 1

    team = team_of(rec, vocab)
    card = {
        "id": card_id,
        "name": name,
        "name_ja": name_ja,
        "type": ctype,
        "colors": [c for c in COLOR_ORDER if c in colors],
        "level": numbers["level"],
        "limit": numbers["limit"],
        "power": numbers["power"],
        "grow_cost": _costs(card_id, "grow_cost", rec.get("grow_cost"), report),
        "cost": _costs(card_id, "cost", rec.get("cost"), report),
        "lrig_types": lrig_types,
        "limiting": limiting,
        "classes": classes,
        "team": team,
        "guard": guard,
        "life_burst": life_burst,
        "multi_ener": multi_ener,
        "timings": _timings(card_id, rec.get("timings"), report),
        "keywords": keywords_from_text(text_ja, text_en) if ctype in KEYWORD_TYPES else [],
        # whether the card has any ability at all (printed text or a Life Burst): a fact, not the text
        "has_abilities": has_abilities(text_ja, text_en, rec.get("burst_text_ja")),
        "aliases": [],
        "reprints": list((reprints or {}).get(card_id, ())),
        "dissona": bool(rec.get("dissona")),  # printed with the Dissona icon
        "coin": int(rec.get("coin") or 0) if is_lrig else 0,  # the coin value printed on an LRIG
    }
    return card


def convert_cards(
    records: Iterable[Mapping[str, Any]],
    vocab: Vocabulary,
    report: ImportReport | None = None,
    reprints: Mapping[str, Sequence[str]] | None = None,
) -> list[dict[str, Any]]:
    """Convert records, sorted by id; an id seen twice is an error."""
    by_id: dict[str, dict[str, Any]] = {}
    for rec in records:
        card = convert_record(rec, vocab, report, reprints)
        if card["id"] in by_id:
            raise ValueError(f"card id {card['id']!r} appears twice")
        by_id[card["id"]] = card
    return [by_id[k] for k in sorted(by_id)]


def add_print_aliases(
    starter: Sequence[dict[str, Any]], raw_decks: Mapping[str, Any], taken: set[str]
) -> None:
    """The English prints renumbered some cards (all of WXDi-D02): their English print number becomes an
    alias of the card, unless it is itself the id of another card."""
    by_id = {c["id"]: c for c in starter}
    for deck in raw_decks.values():
        for entry in deck.get("cards", ()):
            alias = entry.get("id_en_print")
            card = by_id.get(entry.get("id"))
            if card is None or not alias or alias == card["id"] or alias in taken or alias in by_id:
                continue
            if alias not in card["aliases"]:
                card["aliases"].append(alias)
                card["aliases"].sort()


def link_hand_reprints(all_records: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The records, with ``reprint_of`` set where ``HAND_REPRINTS`` links a record the file leaves unlinked
    (a record the file already links keeps its link)."""
    out = []
    for rec in all_records:
        first = HAND_REPRINTS.get(str(rec["id"]).strip())
        out.append({**rec, "reprint_of": first} if first and not rec.get("reprint_of") else dict(rec))
    return out


def extended_records(all_records: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """The distinct cards of the full reference file: reprints left out."""
    return [r for r in all_records if not r.get("reprint_of")]


def reprint_groups(all_records: Sequence[Mapping[str, Any]]) -> dict[str, list[str]]:
    """Every number of a card printed more than once -> all its numbers (first printing first, then the
    reprints by id). A reprint of a reprint, or of a number not in the file, is an error."""
    by_id = {str(r["id"]).strip(): r for r in all_records}
    groups: dict[str, list[str]] = defaultdict(list)
    for card_id, rec in by_id.items():
        first = rec.get("reprint_of")
        if not first:
            continue
        if first not in by_id or by_id[first].get("reprint_of"):
            raise ValueError(f"{card_id}: reprint of {first!r}, which is not a first printing in the file")
        groups[first].append(card_id)
    out: dict[str, list[str]] = {}
    for first, others in groups.items():
        group = [first, *sorted(others)]
        for card_id in group:
            out[card_id] = group
    return out


# ---------------------------------------------------------------------------------------------- decks

MAIN_DECK_SIZE = 40
LRIG_DECK_SIZES = (11, 12)


def deck_id_of(key: str) -> str:
    """``"WXDi-D09-H (DOUBLE HEROINES, Hirana side)"`` -> ``"WXDi-D09-H"``."""
    return key.split(" ", 1)[0].strip()


def _deck_name(key: str, lrig_deck: Sequence[str], cards: Mapping[str, Mapping[str, Any]]) -> str:
    m = re.search(r"\((.+)\)", key)
    if m:  # "DOUBLE HEROINES, Hirana side" -> "DOUBLE HEROINES (Hirana side)"
        head, _, side = m.group(1).partition(",")
        return f"{head.strip()} ({side.strip()})" if side else head.strip()
    level0 = [cards[i] for i in lrig_deck if cards[i]["type"] == "lrig" and cards[i]["level"] == 0]
    teams = {c["team"] for c in level0}
    if len(teams) == 1 and None not in teams:
        return str(teams.pop())
    return " / ".join(_title(t) for c in level0 for t in c["lrig_types"][:1])


def convert_decks(
    raw_decks: Mapping[str, Mapping[str, Any]], cards: Mapping[str, Mapping[str, Any]]
) -> dict[str, dict[str, Any]]:
    """The preset decks as ``{deck_id: {name, lrig_deck, main_deck}}``; checks every zone's size."""
    out: dict[str, dict[str, Any]] = {}
    for key in sorted(raw_decks):
        deck = raw_decks[key]
        zones: dict[str, list[str]] = {"lrig_deck": [], "main_deck": []}
        for entry in deck["cards"]:
            zone = entry["zone"]
            if zone not in zones:
                raise ValueError(f"{key}: unknown zone {zone!r}")
            if entry["id"] not in cards:
                raise ValueError(f"{key}: card {entry['id']!r} is not among the imported cards")
            zones[zone].extend([entry["id"]] * int(entry["count"]))
        totals = deck.get("totals") or {}
        for zone, ids in zones.items():
            if zone in totals and totals[zone] != len(ids):
                raise ValueError(f"{key}: {zone} has {len(ids)} cards, the list says {totals[zone]}")
        if len(zones["main_deck"]) != MAIN_DECK_SIZE:
            raise ValueError(f"{key}: main deck has {len(zones['main_deck'])} cards, not {MAIN_DECK_SIZE}")
        if len(zones["lrig_deck"]) not in LRIG_DECK_SIZES:
            raise ValueError(f"{key}: LRIG deck has {len(zones['lrig_deck'])} cards, not 11 or 12")
        deck_id = deck_id_of(key)
        out[deck_id] = {
            "name": _deck_name(key, sorted(zones["lrig_deck"]), cards),
            "lrig_deck": sorted(zones["lrig_deck"]),
            "main_deck": sorted(zones["main_deck"]),
        }
    return out


# -------------------------------------------------------------------------------------------- rendering


def render_cards(cards: Sequence[Mapping[str, Any]]) -> str:
    """A JSON list, one card per line, keys sorted, UTF-8 text, trailing newline."""
    lines = [json.dumps(dict(c), ensure_ascii=False, sort_keys=True) for c in cards]
    return "[\n" + ",\n".join(lines) + "\n]\n"


def gzip_bytes(data: bytes) -> bytes:
    """Deterministic gzip: no file name, no timestamp."""
    buf = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=buf, compresslevel=9, mtime=0) as gz:
        gz.write(data)
    return buf.getvalue()


def render_decks(decks: Mapping[str, Any]) -> str:
    return json.dumps(decks, ensure_ascii=False, indent=1, sort_keys=True) + "\n"


def read_shared(shared_cards: Path = SHARED_CARDS) -> tuple[list[dict], list[dict], dict[str, dict]]:
    """(all records, starter records, starter decks) from the shared reference folder."""

    def load(name: str) -> Any:
        with (shared_cards / name).open(encoding="utf-8") as f:
            return json.load(f)

    return load("cards.json"), load("starter_cards.json"), load("starter_decks_diva.json")


def build_outputs(shared_cards: Path = SHARED_CARDS, report: ImportReport | None = None) -> dict[str, bytes]:
    """Every data file the importer writes, by file name, as bytes."""
    all_records, starter_records, raw_decks = read_shared(shared_cards)
    all_records = link_hand_reprints(all_records)
    vocab = build_vocabulary(all_records)
    groups = reprint_groups(all_records)
    starter = convert_cards(starter_records, vocab, report, groups)
    extended = convert_cards(extended_records(all_records), vocab, report, groups)
    by_id = {c["id"]: c for c in starter}
    add_print_aliases(starter, raw_decks, {str(r["id"]).strip() for r in all_records})
    decks = convert_decks(raw_decks, by_id)
    return {
        CARDS_FILE: render_cards(starter).encode("utf-8"),
        EXTENDED_FILE: gzip_bytes(render_cards(extended).encode("utf-8")),
        DECKS_FILE: render_decks(decks).encode("utf-8"),
    }


def same_content(name: str, a: bytes, b: bytes) -> bool:
    """Whether two versions of a data file hold the same content (gzip files compared uncompressed)."""
    if name.endswith(".gz"):
        return gzip.decompress(a) == gzip.decompress(b)
    return a == b


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shared", type=Path, default=SHARED_CARDS, help="folder of the reference cards")
    parser.add_argument("--out", type=Path, default=DATA_DIR, help="folder to write the data files to")
    parser.add_argument("--check", action="store_true", help="only compare; exit 1 when a file would change")
    args = parser.parse_args(argv)
    if not (args.shared / "cards.json").is_file():
        print(f"reference data not found in {args.shared}", file=sys.stderr)
        return 2
    report = ImportReport()
    outputs = build_outputs(args.shared, report)
    stale = []
    for name, data in outputs.items():
        path = args.out / name
        current = path.read_bytes() if path.is_file() else None
        if current is not None and same_content(name, current, data):
            continue
        stale.append(name)
        if not args.check:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
    for line in dict.fromkeys(report.corrected):
        print(f"corrected {line}")
    for line in dict.fromkeys(report.dropped):
        print(f"dropped {line}")
    if report.japanese_classes:
        print(f"cards keeping Japanese classes (no English known): {report.japanese_classes}")
    if report.unmapped_lrig_types:
        print(f"LRIG types kept in Japanese: {dict(sorted(report.unmapped_lrig_types.items()))}")
    if args.check:
        print("stale: " + ", ".join(stale) if stale else "up to date")
        return 1 if stale else 0
    print(f"wrote {', '.join(stale) or 'nothing (up to date)'} in {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
