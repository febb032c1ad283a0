// Card names and facts: the names the state shows, the catalogue's facts (and Japanese names) fetched once per
// card, and the language toggle.
import {api} from "./api.js";
import {h} from "./dom.js";

// A printed infinite power (the catalogue stores it as 1,000,000,000) is shown as the card prints it.
export const powerText = (p) => (p >= 1000000000 ? "∞" : String(p));

const LANG = "wixoss-judge-lang";
const facts = new Map(); // card id -> facts (resolved)
const pending = new Map(); // card id -> promise
const instances = new Map(); // instance id -> {card, name}: every card a view has shown this page

export function lang() {
  return localStorage.getItem(LANG) === "ja" ? "ja" : "en";
}
export function setLang(value) {
  localStorage.setItem(LANG, value === "ja" ? "ja" : "en");
}

export function cardFacts(id) {
  if (!id) return Promise.resolve(null);
  if (facts.has(id)) return Promise.resolve(facts.get(id));
  if (!pending.has(id)) {
    pending.set(
      id,
      api(`/cards/${encodeURIComponent(id)}`).then((r) => {
        const value = r.ok ? r.data : null;
        facts.set(id, value);
        return value;
      }),
    );
  }
  return pending.get(id);
}
export const knownFacts = (id) => facts.get(id) || null;

export async function loadFacts(ids) {
  await Promise.all([...new Set(ids)].filter((id) => id && !facts.has(id)).map(cardFacts));
}

// The name of a catalogue card in the chosen language (the English name until the catalogue answered).
export function nameOf(cardId, fallback) {
  const f = facts.get(cardId);
  if (lang() === "ja" && f && f.name_ja) return f.name_ja;
  return (f && f.name) || fallback || cardId;
}

export function learnInstances(state) {
  const visit = (value) => {
    if (Array.isArray(value)) value.forEach(visit);
    else if (value && typeof value === "object") {
      if (typeof value.iid === "string" && typeof value.card === "string") {
        instances.set(value.iid, {card: value.card, name: value.name});
      }
      Object.values(value).forEach(visit);
    }
  };
  visit(state);
}

export function learnCatalogueIds(map) {
  // a judge's MatchCreated names every instance's catalogue id
  for (const [iid, card] of Object.entries(map || {})) if (!instances.has(iid)) instances.set(iid, {card, name: null});
}

// What to call an instance id (or a catalogue id) in a sentence or on a button.
export function instanceName(ref) {
  if (!ref) return "a card";
  const known = instances.get(ref);
  if (known) return nameOf(known.card, known.name);
  if (/^WX|^SP|^PR/.test(ref)) return nameOf(ref, ref);
  return "a card";
}
export const instanceCard = (ref) => (instances.get(ref) || {}).card || null;

// The card's facts as a small block: for the popover on hover or tap.
export function factsBlock(f, shown) {
  if (!f) return h("p", {}, "No facts for this card.");
  const rows = [
    ["Type", f.type],
    ["Level", f.level],
    ["Power", shown && shown.power !== undefined && shown.power !== f.power ? `${powerText(shown.power)} (printed ${powerText(f.power)})` : f.power === undefined || f.power === null ? f.power : powerText(f.power)],
    ["Colours", (f.colors || []).join(", ")],
    ["Classes", (f.classes || []).join(", ")],
    ["LRIG type", (f.lrig_types || []).join(", ")],
    ["Limit", f.limit],
    ["Grow cost", costText(f.grow_cost)],
    ["Cost", costText(f.cost)],
    ["Keywords", [...(f.keywords || []), ...((shown && shown.keywords) || [])].join(", ")],
    ["Life Burst", f.life_burst ? "yes" : ""],
    ["Guard", f.guard ? "yes" : ""],
    ["Rules", f.enforced ? "enforced by the service" : "resolved by a judge"],
  ].filter(([, v]) => v !== undefined && v !== null && v !== "");
  const abilities = Array.isArray(f.abilities) ? f.abilities : null;
  return h(
    "div",
    {class: "facts"},
    h("h3", {}, f.name, f.name_ja ? h("span", {class: "ja", lang: "ja"}, ` ${f.name_ja}`) : null),
    h("p", {class: "muted"}, f.id),
    h("dl", {}, rows.map(([k, v]) => [h("dt", {}, k), h("dd", {}, String(v))])),
    abilities
      ? h(
          "div",
          {class: "abilities"},
          h("h4", {}, abilities.length ? "Abilities" : "No abilities"),
          h("ul", {}, abilities.map((a) => h("li", {}, h("b", {}, `${a.kind}: `), a.text))),
        )
      : f.has_abilities
        ? h("p", {class: "muted"}, "This card has abilities; their text is not shown by this version of the service.")
        : null,
  );
}

function costText(cost) {
  if (!Array.isArray(cost) || !cost.length) return "";
  return cost.map((c) => (typeof c === "object" ? `${c.count ?? c.amount ?? 1} ${c.color ?? ""}`.trim() : String(c))).join(", ");
}
