// One English sentence per event. The API's own `text` is used when it is there; otherwise the sentence is
// built here from the event's type and data (as the viewer received them: hidden cards are "a card").
import {instanceName, powerText} from "./cards.js";

let players = {p1: "p1", p2: "p2"};
export function setPlayerNames(names) {
  players = {p1: names.p1 || "p1", p2: names.p2 || "p2"};
}
export const playerName = (p) => (p === "judge" ? "The judge" : p === "rules" ? "The rules" : players[p] || p || "Someone");
const poss = (p) => `${playerName(p)}'s`;
const card = (ref) => instanceName(ref);
function cards(list, count) {
  if (Array.isArray(list) && list.length) {
    const names = list.map(card);
    return names.length === 1 ? names[0] : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
  }
  const n = Array.isArray(list) ? list.length : count;
  return n === 1 ? "a card" : `${n ?? "some"} cards`;
}
const count = (d, key) => (Array.isArray(d[key]) ? d[key].length : d[`${key}_count`] ?? d.count);
const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
const words = (type) => type.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
const phaseName = (p) => ({pre_attack: "pre-attack", signi_attack: "SIGNI attack", lrig_attack: "LRIG attack"})[p] || String(p || "").replace(/_/g, " ");

export const ASKED = {
  mulligan: "keep the hand or return cards",
  ener: "charge ener or pass",
  grow: "grow or pass",
  main: "act in the main phase",
  pre_attack: "act before attacks",
  defense: "act in the defence step",
  signi_attack: "attack with a SIGNI or pass",
  lrig_attack: "attack with the LRIG or pass",
  guard: "guard or not",
  life_burst: "use the Life Burst or not",
  discard: "discard down to the hand size",
  choose: "choose",
  trigger_order: "order the triggered abilities",
  spell_cut_in: "cut in on the spell or pass",
};

const T = {
  MatchCreated: (d) => `The match is created${d.format ? ` (${d.format})` : ""}.`,
  PositionSet: () => "The match starts from a position a judge set up.",
  LrigsPlaced: (d) => `${playerName(d.player)} puts three LRIGs face down.`,
  DeckShuffled: (d) => `${poss(d.player)} deck is shuffled.`,
  FirstPlayerChosen: (d) => `${playerName(d.player)} goes first${d.method === "coin" ? " (by the coin)" : ""}.`,
  CardsDrawn: (d) => `${playerName(d.player)} draws ${cards(d.cards, d.count)}.`,
  MulliganDeclared: (d) =>
    count(d, "cards") ? `${playerName(d.player)} returns ${cards(d.cards, d.count)} to redraw.` : `${playerName(d.player)} keeps the hand.`,
  CardsReturned: (d) => `${playerName(d.player)} returns ${cards(d.cards, d.count)} to the deck.`,
  LifeClothPlaced: (d) => `${playerName(d.player)} sets ${plural(count(d, "cards") ?? 7, "card")} as Life Cloth.`,
  LrigsRevealed: () => "Both players turn their LRIGs face up.",
  TurnBegan: (d) => `Turn ${d.turn}: ${poss(d.player)} turn begins.`,
  PhaseBegan: (d) => `The ${phaseName(d.phase)} phase begins.`,
  StepBegan: (d) => `The ${phaseName(d.step)} step begins.`,
  CardsUpped: (d) => `${poss(d.player)} cards are upped.`,
  EnerCharged: (d) => `${playerName(d.player)} charges ${card(d.card)} into ener${d.from === "field" ? " from the field" : ""}.`,
  LrigGrew: (d) =>
    `${playerName(d.player)} grows ${d.position && d.position !== "center" ? `the ${d.position} assist LRIG ` : ""}to ${card(d.card)}${
      Array.isArray(d.paid) && d.paid.length ? `, paying ${cards(d.paid)}` : ""
    }.`,
  SigniPlayed: (d) => `${playerName(d.player)} plays ${card(d.card)} to the ${d.zone} SIGNI zone.`,
  SigniRemoved: (d) => `${playerName(d.player)} removes ${cards(d.cards)} from the field.`,
  Passed: (d) => `${playerName(d.player)} passes${d.kind ? ` (${ASKED[d.kind] ? d.kind.replace(/_/g, " ") : d.kind})` : ""}.`,
  Asked: (d) => `${playerName(d.player)} is asked to ${ASKED[d.kind] || d.kind}.`,
  AttackDeclared: (d) =>
    d.zone === "lrig" ? `${poss(d.player)} center LRIG attacks.` : `${poss(d.player)} SIGNI ${card(d.card)} attacks from the ${d.zone} zone.`,
  Battled: (d) =>
    `${card(d.attacker)} (${powerText(d.attacker_power)}) battles ${card(d.defender)} (${powerText(d.defender_power)})${d.result && d.result !== "nothing" ? `: ${d.result}` : ""}.`,
  SigniVanished: (d) => `${poss(d.player)} ${card(d.card)} is vanished${d.cause ? ` by ${d.cause}` : ""}.`,
  DamageDealt: (d) => `${playerName(d.player)} takes damage${d.crushes > 1 ? ` (${d.crushes} crushes)` : ""}.`,
  Guarded: (d) => `${playerName(d.player)} guards with ${card(d.card)}.`,
  LifeClothCrushed: (d) => `${poss(d.player)} Life Cloth is crushed: ${cards(d.cards, d.count)}.`,
  LifeBurstChosen: (d) => (d.use ? `Life Burst: ${playerName(d.player)} uses ${card(d.card)}.` : `${playerName(d.player)} declines the Life Burst of ${card(d.card)}.`),
  AttackEnded: (d) => `The attack from the ${d.zone} zone ends.`,
  CardEnered: (d) => `${card(d.card)} goes to ${poss(d.player)} ener zone.`,
  Refreshed: (d) => `${playerName(d.player)} refreshes: the trash becomes the deck.`,
  SigniTrashed: (d) => `${card(d.card)} is put into the trash by rule processing.`,
  CardsTrashed: (d) => `${cards(d.cards, d.count)} go to the trash.`,
  LrigTrashed: (d) => `${card(d.card)} goes to the LRIG trash.`,
  CardReturned: (d) => `${card(d.card)} returns to the LRIG deck.`,
  CardsDiscarded: (d) => `${playerName(d.player)} discards ${cards(d.cards, d.count)}.`,
  EffectsExpired: () => "Effects until end of turn end.",
  CheckZoneCleared: () => "The check zone is cleared into the trash.",
  TurnEnded: (d) => `${poss(d.player)} turn ${d.turn ?? ""} ends.`.replace(" .", "."),
  GameEnded: (d) => `${playerName(d.winner)} wins: ${d.reason || d.rule}.`,
  Conceded: (d) => `${playerName(d.player)} concedes.`,
  AbilityTriggered: (d) => `An ability of ${card(d.card)} triggers${d.kind ? ` (${d.kind})` : ""}.`,
  TriggersOrdered: (d) => `${playerName(d.player)} orders the triggered abilities.`,
  AbilityActivated: (d) => `The ability of ${card(d.card)} resolves.`,
  AbilityUsed: (d) => `${playerName(d.player)} uses an ability of ${card(d.card)}.`,
  SpellUsed: (d) => `${playerName(d.player)} uses the spell ${card(d.card)}.`,
  PieceUsed: (d) => `${playerName(d.player)} uses the PIECE ${card(d.card)}.`,
  AbilityResolved: (d) => `${card(d.card)} finishes resolving.`,
  Answered: (d) => {
    const a = d.answer || {};
    return `${playerName(d.player)} answers${Array.isArray(a.cards) ? `: ${a.cards.length ? cards(a.cards) : "nothing"}` : ""}.`;
  },
  CostPaid: (d) => `${playerName(d.player)} pays a cost${Array.isArray(d.ener) ? ` with ${cards(d.ener)}` : ""}.`,
  CardsMilled: (d) => `${cards(d.cards, d.count)} go from ${poss(d.player)} deck to the trash.`,
  CardsSet: (d) => `${cards(d.cards)} ${d.downed === true ? "are downed" : d.downed === false ? "are upped" : d.frozen ? "are frozen" : "change"}.`,
  CardsMoved: (d) => `${cards(d.cards, d.count)} move${d.from ? ` from the ${d.from}` : ""}${d.to ? ` to the ${d.to}` : ""}.`,
  SigniPutOntoField: (d) => `${card(d.card)} is put onto the field${d.zone ? ` in the ${d.zone} zone` : ""}.`,
  PowerChanged: (d) => `${card(d.card)} gets ${d.amount > 0 ? "+" : ""}${d.amount} power${d.until === "end_of_turn" ? " until end of turn" : ""}.`,
  KeywordsGranted: (d) => `${card(d.card)} gains ${(d.keywords || []).join(", ") || "keywords"}.`,
  CardRevealed: (d) => `${card(d.card)} is revealed.`,
  CardsToDeckBottom: (d) => `${cards(d.cards, d.count)} go to the bottom of ${poss(d.player)} deck.`,
  Rewound: (d) => `The judge rewinds the match to event ${d.to}${d.reason ? `: ${d.reason}` : ""}.`,
  Branched: (d) => `This match branches from another at event ${d.at ?? d.branched_at ?? "?"}${d.reason ? `: ${d.reason}` : ""}.`,
  Adjusted: (d) => `The judge adjusts the match${d.reason ? `: ${d.reason}` : ""}.`,
};

export function sentence(event) {
  if (typeof event.text === "string" && event.text) return event.text;
  const d = event.data || {};
  const make = T[event.type];
  if (make) {
    try {
      return make(d);
    } catch {
      /* fall through to the generic sentence */
    }
  }
  const who = d.player || (event.actor !== "rules" ? event.actor : null);
  const subject = d.card ? ` (${card(d.card)})` : Array.isArray(d.cards) ? ` (${cards(d.cards)})` : "";
  return `${who ? `${playerName(who)}: ` : ""}${words(event.type)}${subject}.`;
}
