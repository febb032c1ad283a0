// The position editor (judge): cards picked by name from the catalogue into each zone of each player, the
// phase, step and turn, downed and frozen SIGNI and power changes; problems are shown before posting, and
// posting opens the new match.
import {api, problemText, session} from "./api.js";
import {lang} from "./cards.js";
import {clear, debounce, h} from "./dom.js";

const SLOTS = ["left", "center", "right"];
const PILES = ["hand", "deck", "life_cloth", "ener", "trash", "lrig_deck", "lrig_trash"];
const PHASES = ["up", "draw", "ener", "grow", "main", "attack", "end"];
// the attack steps of each format (GET /rules: attack.phase, orig.attack.phase)
const STEPS = {
  diva: ["pre_attack", "defense", "signi_attack", "lrig_attack", "guard"],
  original: ["arts_use", "signi_attack", "lrig_attack", "guard"],
};
const label = (z) => z.replace(/_/g, " ").replace("lrig", "LRIG");
const typeName = (t) => ({lrig: "an LRIG", assist_lrig: "an assist LRIG (not for the center)", arts: "an ARTS", piece: "a PIECE"})[t] || `a ${label(t)}`;

export async function positionPage(root) {
  const pos = {format: "diva", turn: 3, turn_player: "p1", phase: "main", step: "", seed: ""};
  const players = {};
  for (const p of ["p1", "p2"]) {
    players[p] = {name: p === "p1" ? "Ann" : "Bo", lrig: {}, signi: {}, refreshes_this_turn: 0};
    for (const z of PILES) players[p][z] = [];
  }
  const names = new Map(); // card id -> facts from the search
  const targets = [];
  for (const p of ["p1", "p2"]) {
    for (const z of SLOTS) targets.push([`${p} lrig ${z}`, `${p}: ${z === "center" ? "center LRIG" : `${z} assist LRIG`}`]);
    for (const z of SLOTS) targets.push([`${p} signi ${z}`, `${p}: ${z} SIGNI`]);
    for (const z of PILES) targets.push([`${p} pile ${z}`, `${p}: ${label(z)}`]);
  }
  const target = h("select", {id: "target", "aria-label": "Put the card into"}, targets.map(([v, t]) => h("option", {value: v}, t)));
  const query = h("input", {type: "search", id: "card-search", placeholder: "card name or id", "aria-label": "Search the catalogue"});
  const type = h("select", {"aria-label": "Card type"}, ["", "lrig", "assist_lrig", "signi", "spell", "arts", "piece"].map((t) => h("option", {value: t}, t || "any type")));
  const results = h("ul", {class: "results", "aria-label": "Cards found", "aria-live": "polite"});
  const problems = h("ul", {class: "problems", "aria-live": "polite"});
  const board = h("div", {class: "editor-board"});
  const out = h("p", {class: "error", role: "alert"});
  const nameOfId = (id) => {
    const f = names.get(id);
    return f ? (lang() === "ja" && f.name_ja ? f.name_ja : f.name) : id;
  };

  const search = debounce(async () => {
    const q = new URLSearchParams({all: "true"}); // every known card, boosters and the original sets too
    if (query.value.trim()) q.set("q", query.value.trim());
    if (type.value) q.set("type", type.value);
    if (!q.has("q") && !q.has("type")) {
      clear(results);
      return;
    }
    const r = await api(`/cards?${q}`);
    if (!r.ok) {
      clear(results, h("li", {class: "error"}, problemText(r)));
      return;
    }
    results.dataset.query = q.get("q") || "";
    const cards = r.data.cards.slice(0, 40);
    for (const c of cards) names.set(c.id, c);
    clear(
      results,
      cards.length ? null : h("li", {class: "muted"}, "No card by that name."),
      cards.map((c) =>
        h(
          "li",
          {},
          h("button", {type: "button", class: "pick", dataset: {card: c.id}, onclick: () => put(c.id)}, `${lang() === "ja" && c.name_ja ? c.name_ja : c.name}`, h("span", {class: "muted"}, ` ${c.id} · ${c.type}${c.level !== null && c.level !== undefined ? ` · Lv${c.level}` : ""}`)),
        ),
      ),
    );
  }, 200);
  query.addEventListener("input", search);
  type.addEventListener("change", search);

  function put(id) {
    const [p, kind, zone] = target.value.split(" ");
    if (kind === "lrig") players[p].lrig[zone] = id;
    else if (kind === "signi") players[p].signi[zone] = {card: id, downed: false, frozen: false, power_mod: 0};
    else players[p][zone].push(id);
    render();
  }

  function check() {
    const found = [];
    if (!(pos.turn >= 1)) found.push("The turn is a number from 1.");
    if (pos.phase === "attack" && !pos.step) found.push("In the attack phase, choose a step.");
    if (pos.phase !== "attack" && pos.step) found.push("A step is only for the attack phase.");
    if (pos.step && !STEPS[pos.format].includes(pos.step)) found.push(`The ${label(pos.step)} step is not a step of this format.`);
    for (const p of ["p1", "p2"]) {
      const pl = players[p];
      if (!pl.lrig.center) found.push(`${p} needs a center LRIG.`);
      if (pos.format === "original" && (pl.lrig.left || pl.lrig.right)) found.push(`${p} has an assist LRIG: the original format plays one LRIG (orig.setup.face-down).`);
      for (const z of SLOTS) {
        const l = pl.lrig[z] && names.get(pl.lrig[z]);
        const lrigTypes = z === "center" ? ["lrig"] : ["lrig", "assist_lrig"];
        if (l && !lrigTypes.includes(l.type)) found.push(`${p}'s ${z === "center" ? "center" : `${z} assist`} LRIG zone holds ${l.name}, ${typeName(l.type)}.`);
        const s = pl.signi[z] && names.get(pl.signi[z].card);
        if (s && s.type !== "signi") found.push(`${p}'s ${z} SIGNI zone holds ${s.name}, ${typeName(s.type)}, not a SIGNI.`);
      }
      const center = pl.lrig.center && names.get(pl.lrig.center);
      for (const z of SLOTS) {
        const s = pl.signi[z] && names.get(pl.signi[z].card);
        if (center && s && s.level > center.level) found.push(`${p}'s ${s.name} (level ${s.level}) is above the center LRIG's level ${center.level}: rule processing will trash it (rba.2).`);
      }
      if (center && center.limit !== null && center.limit !== undefined) {
        const sum = SLOTS.reduce((n, z) => n + ((pl.signi[z] && (names.get(pl.signi[z].card) || {}).level) || 0), 0);
        if (sum > center.limit) found.push(`${p}'s SIGNI levels add up to ${sum}, over the limit ${center.limit}: rule processing will trash one (rba.2).`);
      }
      if (!pl.deck.length) found.push(`${p}'s deck is empty: the next draw refreshes (rba.5).`);
    }
    return found;
  }

  function render() {
    clear(
      board,
      ["p1", "p2"].map((p) =>
        h(
          "fieldset",
          {class: "editor-player"},
          h("legend", {}, p, " ", h("input", {type: "text", value: players[p].name, "aria-label": `${p} name`, maxlength: 60, oninput: (e) => (players[p].name = e.target.value)})),
          h(
            "div",
            {class: "slots"},
            SLOTS.map((z) => slotBox(p, "lrig", z)),
            SLOTS.map((z) => slotBox(p, "signi", z)),
          ),
          PILES.map((z) =>
            h(
              "div",
              {class: "pile"},
              h("b", {}, `${label(z)} (${players[p][z].length})`, z === "deck" || z === "life_cloth" ? h("span", {class: "muted"}, " first = top") : null, " "),
              players[p][z].map((id, i) => h("span", {class: "chip"}, nameOfId(id), h("button", {type: "button", "aria-label": `Take ${nameOfId(id)} out of ${p}'s ${label(z)}`, onclick: () => (players[p][z].splice(i, 1), render())}, "×"))),
            ),
          ),
        ),
      ),
    );
    const found = check();
    clear(problems, found.length ? found.map((t) => h("li", {}, t)) : h("li", {class: "ok"}, "No problem seen; the service checks again when posting."));
  }

  function slotBox(p, kind, z) {
    const value = kind === "lrig" ? players[p].lrig[z] : players[p].signi[z];
    const id = typeof value === "string" ? value : value && value.card;
    const remove = () => {
      if (kind === "lrig") delete players[p].lrig[z];
      else delete players[p].signi[z];
      render();
    };
    return h(
      "div",
      {class: `slot ${kind}`},
      h("span", {class: "zone-name"}, kind === "lrig" ? (z === "center" ? "center LRIG" : `${z} assist`) : `${z} SIGNI`),
      id ? [h("span", {class: "chip"}, nameOfId(id), h("button", {type: "button", "aria-label": `Empty ${p}'s ${z} ${kind} zone`, onclick: remove}, "×"))] : h("span", {class: "empty"}, "empty"),
      kind === "signi" && value
        ? h(
            "div",
            {class: "flags"},
            h("label", {}, h("input", {type: "checkbox", checked: value.downed, onchange: (e) => (value.downed = e.target.checked)}), " downed"),
            h("label", {}, h("input", {type: "checkbox", checked: value.frozen, onchange: (e) => (value.frozen = e.target.checked)}), " frozen"),
            h("label", {}, "power ", h("input", {type: "number", step: 1000, value: value.power_mod, "aria-label": "power change until end of turn", oninput: (e) => (value.power_mod = Number(e.target.value) || 0)})),
          )
        : null,
    );
  }

  function body() {
    const out = {format: pos.format, turn: Number(pos.turn), turn_player: pos.turn_player, phase: pos.phase, step: pos.step || null, players: {}};
    if (pos.seed !== "") out.seed = Number(pos.seed);
    for (const p of ["p1", "p2"]) {
      const pl = players[p];
      const signi = {};
      for (const z of SLOTS) {
        const s = pl.signi[z];
        if (!s) signi[z] = null;
        else {
          const spec = {card: s.card, downed: s.downed, frozen: s.frozen};
          if (s.power_mod) spec.power_mod = s.power_mod;
          signi[z] = spec;
        }
      }
      const lrig = {};
      for (const z of SLOTS) if (pl.lrig[z]) lrig[z] = pl.lrig[z];
      out.players[p] = {name: pl.name, lrig, signi, refreshes_this_turn: 0};
      for (const z of PILES) out.players[p][z] = [...pl[z]];
    }
    return out;
  }

  const field = (text, input) => h("label", {}, `${text} `, input);
  const turn = h("input", {type: "number", min: 1, value: pos.turn, id: "turn", oninput: (e) => ((pos.turn = Number(e.target.value)), render())});
  const turnPlayer = h("select", {id: "turn-player", onchange: (e) => (pos.turn_player = e.target.value)}, ["p1", "p2"].map((p) => h("option", {value: p}, p)));
  const phase = h("select", {id: "phase", onchange: (e) => ((pos.phase = e.target.value), render())}, PHASES.map((p) => h("option", {value: p, selected: p === pos.phase}, p)));
  const stepSel = h("select", {id: "step", onchange: (e) => ((pos.step = e.target.value), render())});
  const stepOptions = () => {
    clear(stepSel, ["", ...STEPS[pos.format]].map((s) => h("option", {value: s, selected: s === pos.step}, s ? label(s) : "no step")));
    if (!STEPS[pos.format].includes(pos.step)) pos.step = "";
  };
  stepOptions();
  const formatSel = h("select", {id: "position-format", "aria-label": "Format", onchange: (e) => ((pos.format = e.target.value), stepOptions(), render())}, [["diva", "Diva Selection"], ["original", "Original (one LRIG)"]].map(([v, t]) => h("option", {value: v}, t)));
  const seed = h("input", {type: "number", min: 0, placeholder: "random", id: "position-seed", oninput: (e) => (pos.seed = e.target.value)});
  const post = h("button", {type: "button", class: "primary", id: "post-position"}, "Create the match from this position");
  post.addEventListener("click", async () => {
    const r = await api("/positions", {method: "POST", body: body()});
    if (r.status !== 201) {
      out.textContent = problemText(r);
      return;
    }
    session.rememberTokens(r.data.id, r.data.tokens);
    location.assign(`/console/matches/${r.data.id}`);
  });
  clear(
    root,
    h("h1", {}, "Position editor"),
    h("div", {class: "editor"}, h("div", {class: "editor-form"}, h("div", {class: "grid2"}, field("Format", formatSel), field("Turn", turn), field("Turn player", turnPlayer), field("Phase", phase), field("Step", stepSel), field("Seed", seed)), h("section", {class: "search", "aria-label": "Cards"}, h("h2", {}, "Add cards"), h("div", {class: "row"}, query, type), field("into", target), results), h("section", {"aria-label": "Problems"}, h("h2", {}, "Problems"), problems), post, out), board),
  );
  render();
}
