"""``legal_actions(state)``: every answer to the pending decision, each a complete action.

Like python-chess's ``board.legal_moves``, the result is light: iterate it, count it, test it for truth,
or ask ``action in legal`` (which asks the rules themselves, so an equivalent form of an answer, such as
another valid payment, is in it too). A choice of cards lists each card as its own answer; where answers
are combinations (which ener cards pay a cost), one canonical answer stands for the rest.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from itertools import combinations, permutations
from typing import Any

from domain import answers, combat, facts
from domain.abilities.catalogue import FROM_ZONES, abilities_of
from domain.abilities.triggers import abilities_gained
from domain.actions import Action
from domain.answers import option_counts
from domain.cards import CardType
from domain.engine import decide
from domain.errors import IllegalAction, JudgeError
from domain.kinds import DecisionKind
from domain.recorder import Accepted, Recorder
from domain.state import SIGNI_ZONES, GameState

MAX_COMBINATIONS = 256


class LegalActions:
    def __init__(self, state: GameState, player: str | None = None) -> None:
        self.state = state
        self.player = player
        self._list: list[dict[str, Any]] | None = None

    def _actions(self) -> list[dict[str, Any]]:
        if self._list is None:
            self._list = list(_generate(self.state, self.player))
        return self._list

    def __iter__(self) -> Iterator[dict[str, Any]]:
        return iter(self._actions())

    def __len__(self) -> int:
        return len(self._actions())

    def count(self) -> int:
        return len(self)

    def __bool__(self) -> bool:
        return bool(self._actions())

    def __getitem__(self, i: int) -> dict[str, Any]:
        return self._actions()[i]

    def __contains__(self, action: object) -> bool:
        if not isinstance(action, dict) or action.get("type") == "concede":
            return False
        if self.player is not None and action.get("player") != self.player:
            return False
        try:
            decide(self.state, action)
        except JudgeError:
            return False
        return True

    def __repr__(self) -> str:
        return f"<LegalActions {len(self)} for {self.state.pending}>"


def legal_actions(state: GameState, player: str | None = None) -> LegalActions:
    """The answers to the pending decision (of ``player``, when given: none if it is not theirs)."""
    return LegalActions(state, player)


Answers = Iterator[dict[str, Any]]


def _generate(s: GameState, only: str | None) -> Answers:
    pending = s.pending
    if s.status == "finished" or pending is None or s.takebacks.get("open"):
        return  # over, or waiting for a takeback's answer (``takeback.open``)
    p = pending["player"]
    if only is not None and only != p:
        return
    answers_to = _BY_KIND.get(pending["kind"])
    if answers_to is not None:
        yield from answers_to(s, p, pending)


def _mulligan(s: GameState, p: str, pending: dict[str, Any]) -> Answers:
    hand = s.players[p].zones["hand"]
    for k in range(len(hand) + 1):
        for combo in combinations(hand, k):
            yield {"player": p, "type": "mulligan", "cards": list(combo)}


def _ener(s: GameState, p: str, pending: dict[str, Any]) -> Answers:
    ps = s.players[p]
    for iid in ps.zones["hand"]:
        yield {"player": p, "type": "ener_charge", "card": iid, "from": "hand"}
    for _zone, slot in ps.signi_slots():
        yield {"player": p, "type": "ener_charge", "card": slot.iid, "from": "field"}
    yield {"player": p, "type": "pass"}


def _grow(s: GameState, p: str, pending: dict[str, Any]) -> Answers:
    yield from _grows(s, p, "center")
    yield {"player": p, "type": "pass"}


def _signi_plays(s: GameState, p: str) -> Answers:
    playable: dict[tuple[str, str], bool] = {}  # copies of one card in hand: checked once per zone
    for iid in s.players[p].zones["hand"]:
        if facts.card_of(s, iid).type != CardType.SIGNI:
            continue
        for zone in SIGNI_ZONES:
            key = (s.cards[iid], zone)
            if key not in playable:
                try:
                    answers.check_play(s, p, iid, zone)
                    playable[key] = True
                except IllegalAction:
                    playable[key] = False
            if not playable[key]:
                continue
            from_trash = answers.rise_cards(s, p, iid)  # Rise from the trash: the first cards that fit
            if from_trash is not None:
                fits, n = from_trash
                yield {"player": p, "type": "play_signi", "card": iid, "zone": zone, "under": fits[:n]}
            else:
                yield {"player": p, "type": "play_signi", "card": iid, "zone": zone}


def _main(s: GameState, p: str, pending: dict[str, Any]) -> Answers:
    yield from _signi_plays(s, p)
    if not s.flags.get("remove"):
        occupied = [z for z, _ in s.players[p].signi_slots()]
        for k in range(1, len(occupied) + 1):
            for combo in combinations(occupied, k):
                yield {"player": p, "type": "remove_signi", "zones": list(combo)}
    yield from _grows(s, p, "left", "main")
    yield from _grows(s, p, "right", "main")
    yield from _uses(s, p, pending["kind"])
    yield {"player": p, "type": "pass"}


def _attack_timing(s: GameState, p: str, pending: dict[str, Any]) -> Answers:
    """The pre-attack and defense steps: assist grows, uses, or pass."""
    yield from _grows(s, p, "left", "attack")
    yield from _grows(s, p, "right", "attack")
    yield from _uses(s, p, pending["kind"])
    yield {"player": p, "type": "pass"}


def _pass_only(s: GameState, p: str, pending: dict[str, Any]) -> Answers:
    yield {"player": p, "type": "pass"}


def _cut_in(s: GameState, p: str, pending: dict[str, Any]) -> Answers:
    """Answering the opponent's spell: a card with Spell Cut-In timing, or pass."""
    yield from _uses(s, p, pending["kind"])
    yield {"player": p, "type": "pass"}


def _effect_spell(s: GameState, p: str, pending: dict[str, Any]) -> Answers:
    """Using the spell an effect lets the player use now (paying its cost), or not."""
    action = Action("use_spell", p, {"card": pending["card"]})
    run = answers.handler(pending["kind"], "use_spell")
    try:
        if run is not None:
            run(Recorder(s, action, probe=True), action)
    except Accepted:
        yield {"player": p, "type": "use_spell", "card": pending["card"]}
    except JudgeError:
        pass
    yield {"player": p, "type": "pass"}


def _trigger_order(s: GameState, p: str, pending: dict[str, Any]) -> Answers:
    for key in pending["choices"]:
        yield {"player": p, "type": "choose", "order": [key]}


def _signi_attack(s: GameState, p: str, pending: dict[str, Any]) -> Answers:
    must = facts.must_attack(s, p)
    if must:  # a SIGNI that must attack if able attacks first: nothing else may be done
        for zone in must:
            yield {"player": p, "type": "attack", "zone": zone}  # a SIGNI with an attack cost is never forced
        return
    for zone, slot in s.players[p].signi_slots():
        if not slot.downed and not facts.signi_cannot_attack(s, slot):
            yield from _attack_turning_down(s, p, zone, slot)
    yield from _lrig_attack(s, p, pending)


def _attack_turning_down(s: GameState, p: str, zone: str, slot: Any) -> Answers:
    """A SIGNI's attacks (``_attack_with_cost``), and, when a constant lets it turn other SIGNI of its player
    face down as it attacks (``attack_face_down``, rule face-down.signi), each of those attacks with each
    choice of up to that many other SIGNI named in ``face_down``."""
    from domain.abilities.constants import attack_face_down

    given = attack_face_down(s, slot)
    others = [sl.iid for _z, sl in s.players[p].signi_slots() if sl.iid != slot.iid] if given else []
    most = min(int(given[1].get("up_to", 2)), len(others)) if given else 0
    for act in _attack_with_cost(s, p, zone, slot):
        yield act
        for k in range(1, most + 1):
            for combo in combinations(others, k):
                yield {**act, "face_down": list(combo)}


def _attack_with_cost(s: GameState, p: str, zone: str, slot: Any) -> Answers:
    """A SIGNI's attack, with what its player must pay for it (``attack_cost``): a canonical ener payment,
    and each choice of the cards to discard; none when it cannot be paid."""
    from domain.abilities.constants import attack_cost
    from domain.abilities.effects import ener_payment

    due = attack_cost(s, slot)
    act: dict[str, Any] = {"player": p, "type": "attack", "zone": zone}
    if not due:
        yield act
        return
    if due.get("ener"):
        pay = ener_payment(s, p, due)
        if pay is None:
            return
        act["pay"] = pay
    n = int(due.get("discard", 0))
    if not n:
        yield act
        return
    for i, combo in enumerate(combinations(s.players[p].zones["hand"], n)):
        if i >= MAX_COMBINATIONS:
            break
        yield {**act, "discard": list(combo)}


def _lrig_attack(s: GameState, p: str, pending: dict[str, Any]) -> Answers:
    center = s.players[p].lrig["center"]
    if combat.lrig_can_attack(s, p) and center is not None:
        yield from _attack_with_cost(s, p, "lrig", center)
    yield {"player": p, "type": "pass"}


def _guard(s: GameState, p: str, pending: dict[str, Any]) -> Answers:
    attacker = s.players["p2" if p == "p1" else "p1"].lrig["center"]
    if attacker is None or "unguardable" not in facts.keywords(s, attacker):
        hand = s.players[p].zones["hand"]
        for iid in hand:
            if facts.card_of(s, iid).guard:
                yield from _guard_payments(s, p, {"player": p, "type": "guard", "card": iid}, False)
        yield from _guard_payments(s, p, {"player": p, "type": "guard"}, True)
    yield {"player": p, "type": "pass"}


def _guard_payments(s: GameState, p: str, act: dict[str, Any], instead: bool) -> Answers:
    """A Guard with each total its costs may come to (``constants.guard_dues``): a canonical ener payment, and
    each choice of the cards to discard (never the card with Guard itself)."""
    from domain.abilities.constants import guard_dues
    from domain.abilities.effects import ener_payment

    hand = [c for c in s.players[p].zones["hand"] if c != act.get("card")]
    dues = guard_dues(s, p, instead=instead)
    for due in dues:
        out = dict(act)
        if due.get("ener"):
            pay = ener_payment(s, p, due)
            if pay is None:
                continue
            if len(dues) > 1:  # which of the costs: the one these pay (a single one: paid canonically)
                out["pay"] = pay
        n = int(due.get("discard", 0))
        if not n:
            yield out
            continue
        for i, combo in enumerate(combinations(hand, n)):
            if i >= MAX_COMBINATIONS:
                break
            yield {**out, "discard": list(combo)}


def _life_burst(s: GameState, p: str, pending: dict[str, Any]) -> Answers:
    for card in pending.get("cards") or [pending["card"]]:  # several: whichever comes first
        yield {"player": p, "type": "life_burst", "card": card, "use": True}
        yield {"player": p, "type": "life_burst", "card": card, "use": False}


def _discard(s: GameState, p: str, pending: dict[str, Any]) -> Answers:
    n = int(pending["count"])
    for i, combo in enumerate(combinations(s.players[p].zones["hand"], n)):
        if i >= MAX_COMBINATIONS:
            break
        yield {"player": p, "type": "discard", "cards": list(combo)}


def _choose(s: GameState, p: str, pending: dict[str, Any]) -> Answers:
    """A choice in the middle of an effect or of rule processing: zones, options, an order, or cards."""
    base = {"player": p, "type": "choose"}
    if pending.get("zones"):
        for zone in pending["zones"]:
            yield {**base, "zones": [zone]}
    elif pending.get("options") and pending.get("purpose") != "rba.order":
        lo, hi = option_counts(pending)
        for k in range(hi, lo - 1, -1):  # the most first ("choose up to two": two, then one)
            for combo in combinations(pending["options"], k):
                yield {**base, "option": ",".join(combo)}
    elif pending.get("order"):  # every card, in an order: each order is an answer
        for i, perm in enumerate(permutations(pending.get("choices", []))):
            if i >= MAX_COMBINATIONS:
                break
            yield {**base, "order": list(perm)}
    elif pending.get("purpose") == "rba.order":
        for option in pending["options"]:
            yield {**base, "option": option}
    else:
        yield from _choose_cards(p, pending)


def _choose_cards(p: str, pending: dict[str, Any]) -> Answers:
    lo, hi = int(pending.get("min", 1)), int(pending.get("max", 1))
    must = set(pending.get("must_include", []))  # targets a constant says must be chosen if possible
    emitted = 0
    for k in range(lo, hi + 1):
        for combo in combinations(pending.get("choices", []), k):
            if not must <= set(combo):
                continue
            if emitted >= MAX_COMBINATIONS:
                return
            emitted += 1
            yield {"player": p, "type": "choose", "cards": list(combo)}


# The answers to each kind of decision, in the order they are offered.
_BY_KIND: dict[str, Callable[[GameState, str, dict[str, Any]], Answers]] = {
    DecisionKind.MULLIGAN: _mulligan,
    DecisionKind.ENER: _ener,
    DecisionKind.GROW: _grow,
    DecisionKind.MAIN: _main,
    DecisionKind.PRE_ATTACK: _attack_timing,
    DecisionKind.ARTS_USE: _attack_timing,  # the original format (domain.original)
    DecisionKind.DEFENSE: _attack_timing,
    DecisionKind.SPELL_CUT_IN: _cut_in,
    DecisionKind.EFFECT_SPELL: _effect_spell,
    DecisionKind.TRIGGER_ORDER: _trigger_order,
    DecisionKind.SIGNI_ATTACK: _signi_attack,
    DecisionKind.LRIG_ATTACK: _lrig_attack,
    DecisionKind.GUARD: _guard,
    DecisionKind.LIFE_BURST: _life_burst,
    DecisionKind.DISCARD: _discard,
    DecisionKind.CHOOSE: _choose,
}


def _uses(s: GameState, p: str, kind: str) -> Iterator[dict[str, Any]]:
    """Spells, PIECEs and [Action] abilities the player can use now: each is tried on a probing recorder,
    which stops it once every check has passed (at its first event)."""
    ps = s.players[p]
    tries: list[dict[str, Any]] = []
    if kind == "main":
        tries += [
            {"type": "use_spell", "card": i}
            for i in ps.zones["hand"]
            if any(a["kind"] == "spell" for a in abilities_of(s.cards[i]))
        ]
    tries += [  # ARTS: their effect is encoded as a spell ability (domain.abilities.use.use_arts)
        {"type": "use_arts", "card": i}
        for i in ps.zones["lrig_deck"]
        if any(a["kind"] == "spell" for a in abilities_of(s.cards[i]))
    ]
    tries += [
        {"type": "use_piece", "card": i}
        for i in ps.zones["lrig_deck"]
        if any(a["kind"] == "piece" for a in abilities_of(s.cards[i]))
    ]
    for slot in [*ps.signi.values(), *ps.lrig.values()]:
        if slot is None:
            continue
        for n, ab in enumerate(abilities_of(s.cards[slot.iid])):
            if ab["kind"] == "action":
                tries.append({"type": "use_ability", "card": slot.iid, "ability": str(n + 1)})
        for ref, ab in abilities_gained(s, slot.iid):  # an [Action] gained until end of turn
            if ab["kind"] == "action":
                tries.append({"type": "use_ability", "card": slot.iid, "ability": str(ref)})
    for iid in ps.zones["hand"]:  # [Action] abilities used from the hand, paid by discarding the card
        for n, ab in enumerate(abilities_of(s.cards[iid])):
            if ab["kind"] == "action" and ab.get("cost", {}).get("self_to") == "discard":
                tries.append({"type": "use_ability", "card": iid, "ability": str(n + 1)})
    for zone in FROM_ZONES:  # [Action] abilities used from the trash or the ener zone
        for iid in ps.zones[zone]:
            for n, ab in enumerate(abilities_of(s.cards[iid])):
                if ab["kind"] == "action" and ab.get("from") == zone:
                    tries.append({"type": "use_ability", "card": iid, "ability": str(n + 1)})
    for t in list(tries):  # also with the extra cost paid (a Bet, an optional Exceed)
        if t["type"] in ("use_spell", "use_piece") and any(
            a.get("extra_cost") for a in abilities_of(s.cards[t["card"]])
        ):
            tries.append({**t, "extra": True})
    for t in tries:
        action = Action(t["type"], p, {k: v for k, v in t.items() if k != "type"})
        run = answers.handler(kind, t["type"])
        if run is None:
            continue
        try:
            run(Recorder(s, action, probe=True), action)  # no copy: nothing changes before an event
        except Accepted:
            pass
        except JudgeError:
            continue
        yield {"player": p, **t}


def _grows(s: GameState, p: str, position: str, timing: str | None = None) -> Iterator[dict[str, Any]]:
    ps = s.players[p]
    if ps.lrig[position] is None:
        return
    for iid in ps.zones["lrig_deck"]:
        card = facts.card_of(s, iid)
        wanted = CardType.LRIG if position == "center" else CardType.ASSIST_LRIG
        if card.type != wanted or (timing is not None and timing not in card.timings):
            continue
        try:
            _new, pay = answers.check_grow(s, p, iid, position)
        except IllegalAction:
            continue
        if pay is None:
            continue
        if position == "center":
            yield {"player": p, "type": "grow", "card": iid, "pay": pay}
        else:
            yield {"player": p, "type": "grow_assist", "card": iid, "position": position, "pay": pay}
