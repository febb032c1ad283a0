// The board as the viewer sees it: both players' LRIGs and SIGNI, the counts of every zone, hidden cards as
// backs, and the card's facts on hover or tap.
import {cardFacts, factsBlock, knownFacts, nameOf, powerText} from "./cards.js";
import {h, showPopover} from "./dom.js";
import {playerName} from "./sentences.js";

const ZONES = ["left", "center", "right"];
const COLOURS = ["white", "red", "blue", "green", "black", "colorless"];

export function cardButton(c, {field = false, small = false} = {}) {
  const name = nameOf(c.card, c.name);
  const marks = [];
  if (field && c.downed) marks.push("downed");
  if (field && c.frozen) marks.push("frozen");
  const button = h(
    "button",
    {
      type: "button",
      class: `card${small ? " small" : ""}${field && c.downed ? " downed" : ""}${field && c.frozen ? " frozen" : ""}`,
      dataset: {card: c.card, iid: c.iid},
      "aria-label": `${name}${c.level !== undefined ? `, level ${c.level}` : ""}${c.power !== undefined ? `, power ${powerText(c.power)}` : ""}${marks.length ? `, ${marks.join(", ")}` : ""}`,
    },
    h("span", {class: "name"}, name),
    small
      ? null
      : h(
          "span",
          {class: "stats"},
          c.level !== undefined ? h("span", {class: "level"}, `Lv${c.level}`) : null,
          c.power !== undefined ? h("span", {class: c.power_mod ? "power changed" : "power"}, powerText(c.power)) : null,
          marks.map((m) => h("span", {class: `mark ${m}`}, m)),
          c.under && c.under.length ? h("span", {class: "under"}, `${c.under.length} under`) : null,
          c.enforced === false ? h("span", {class: "mark judge", title: "a judge resolves this card's abilities"}, "judge") : null,
        ),
  );
  const open = async () => {
    const f = await cardFacts(c.card);
    showPopover(button, factsBlock(f, c), c.under && c.under.length ? h("p", {}, `Under it: ${c.under.map((u) => nameOf(u.card, u.name)).join(", ")}`) : null);
  };
  button.addEventListener("click", open);
  button.addEventListener("mouseenter", () => cardFacts(c.card));
  return button;
}

export const back = (label = "hidden card") => h("span", {class: "card back", role: "img", "aria-label": label}, "");

function zoneCards(zone, label, {showBacks = true, limit = 60} = {}) {
  if (!zone) return null;
  if (Array.isArray(zone.cards)) {
    return h("div", {class: "cards", "aria-label": label}, zone.cards.length ? zone.cards.map((c) => cardButton(c, {small: true})) : h("span", {class: "muted"}, "none"));
  }
  if (!showBacks) return null;
  const n = Math.min(zone.count, limit);
  return h("div", {class: "cards backs", "aria-label": `${label}: ${zone.count} hidden cards`}, Array.from({length: n}, () => back()));
}

function enerColours(zone) {
  if (!zone || !Array.isArray(zone.cards)) return null;
  const tally = {};
  for (const c of zone.cards) {
    const f = knownFacts(c.card);
    for (const colour of (f && f.colors) || ["unknown"]) tally[colour] = (tally[colour] || 0) + 1;
  }
  return h(
    "span",
    {class: "colours"},
    Object.entries(tally)
      .sort((a, b) => COLOURS.indexOf(a[0]) - COLOURS.indexOf(b[0]))
      .map(([colour, n]) => h("span", {class: `dot ${colour}`, title: `${n} ${colour}`}, `${n} ${colour}`)),
  );
}

function count(label, zone, extra) {
  return h("span", {class: "count"}, h("b", {}, label), ` ${zone ? zone.count : 0}`, extra || null);
}

export function playerArea(state, player, {top = false} = {}) {
  const p = state.players[player];
  const order = top ? [...ZONES].reverse() : ZONES;
  // the original format plays one LRIG: its assist zones do not exist (orig.setup.face-down)
  const oneLrig = state.format === "original";
  const lrigs = order.map((z) =>
    oneLrig && z !== "center"
      ? h("div", {class: `slot lrig ${z} unused`}, h("span", {class: "zone-name"}, `${z} assist`), h("span", {class: "empty"}, "none in this format"))
      : h("div", {class: `slot lrig ${z}`}, h("span", {class: "zone-name"}, z === "center" ? "center LRIG" : `${z} assist`), p.lrig && p.lrig[z] ? cardButton(p.lrig[z], {field: true}) : h("span", {class: "empty"}, "empty")),
  );
  const signi = order.map((z) => h("div", {class: `slot signi ${z}`}, h("span", {class: "zone-name"}, `${z} SIGNI`), p.signi && p.signi[z] ? cardButton(p.signi[z], {field: true}) : h("span", {class: "empty"}, "empty")));
  const turnPlayer = state.turn_player === player;
  return h(
    "section",
    {class: `player ${player}${top ? " top" : ""}`, "aria-label": `${playerName(player)} (${player})`},
    h(
      "header",
      {},
      h("h2", {}, `${playerName(player)} `, h("span", {class: "muted"}, player), turnPlayer ? h("span", {class: "badge"}, "turn") : null, state.pending && state.pending.player === player ? h("span", {class: "badge decide"}, "to decide") : null),
      h(
        "div",
        {class: "counts"},
        count("Hand", p.hand),
        count("Deck", p.deck),
        count("Life Cloth", p.life_cloth),
        count("Ener", p.ener, enerColours(p.ener)),
        count("Trash", p.trash),
        count("LRIG deck", p.lrig_deck),
        p.coins ? h("span", {class: "count"}, h("b", {}, "Coins"), ` ${p.coins}`) : null,
      ),
    ),
    h("div", {class: "rows"}, top ? [h("div", {class: "row signi"}, signi), h("div", {class: "row lrigs"}, lrigs)] : [h("div", {class: "row lrigs"}, lrigs), h("div", {class: "row signi"}, signi)]),
    h(
      "div",
      {class: "zones"},
      h("div", {class: "zone hand"}, h("h3", {}, `Hand (${p.hand.count})`), zoneCards(p.hand, `${playerName(player)}'s hand`)),
      h("div", {class: "zone life"}, h("h3", {}, `Life Cloth (${p.life_cloth.count})`), zoneCards(p.life_cloth, "Life Cloth", {limit: 10})),
      h("details", {class: "zone ener"}, h("summary", {}, `Ener (${p.ener.count})`), zoneCards(p.ener, "ener")),
      h("details", {class: "zone trash"}, h("summary", {}, `Trash (${p.trash.count})`), zoneCards(p.trash, "trash", {showBacks: false})),
      p.check && p.check.count ? h("div", {class: "zone check"}, h("h3", {}, `Check zone (${p.check.count})`), zoneCards(p.check, "check zone")) : null,
      p.lrig_trash && p.lrig_trash.count ? h("details", {class: "zone"}, h("summary", {}, `LRIG trash (${p.lrig_trash.count})`), zoneCards(p.lrig_trash, "LRIG trash", {showBacks: false})) : null,
    ),
  );
}

export function boardView(state, bottom) {
  const top = bottom === "p1" ? "p2" : "p1";
  const phase = state.phase + (state.step ? ` · ${state.step.replace(/_/g, " ")}` : "");
  return h(
    "div",
    {class: "board", dataset: {version: state.version}},
    h(
      "p",
      {class: "phase"},
      state.status === "finished"
        ? h("b", {}, `Finished: ${playerName(state.winner)} won${state.result ? ` (${state.result.reason}, ${state.result.rule})` : ""}`)
        : [`Turn ${state.turn || 0}`, state.turn_player ? ` (${playerName(state.turn_player)})` : "", ` · ${phase}`, state.format === "original" ? h("span", {class: "format"}, " · original format") : null],
      state.pending ? h("span", {class: "pending"}, ` · ${state.pending.description || `${playerName(state.pending.player)}: ${state.pending.kind}`}`) : null,
    ),
    playerArea(state, top, {top: true}),
    playerArea(state, bottom),
  );
}

// The catalogue ids a board shows (for the Japanese names and the ener colours).
export function cardIds(state) {
  const ids = new Set();
  const visit = (v) => {
    if (Array.isArray(v)) v.forEach(visit);
    else if (v && typeof v === "object") {
      if (typeof v.card === "string" && typeof v.iid === "string") ids.add(v.card);
      Object.values(v).forEach(visit);
    }
  };
  visit(state.players);
  return [...ids];
}
