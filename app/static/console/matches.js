// Sign-in, the paged list of matches and creating a match from two preset decks.
import {api, problemText, session} from "./api.js";
import {clear, h} from "./dom.js";

export function signInForm(onDone) {
  const token = h("input", {type: "password", id: "token", autocomplete: "off", placeholder: "a judge or player token", "aria-label": "Token"});
  const out = h("p", {class: "error", role: "alert"});
  const form = h(
    "form",
    {class: "signin"},
    h("h2", {}, "Sign in"),
    h("p", {class: "muted"}, "Paste the judge's token or a player's token. It stays in this tab only."),
    h("div", {class: "row"}, token, h("button", {type: "submit", class: "primary"}, "Sign in"), h("button", {type: "button", id: "spectate", onclick: () => (session.lookAsSpectator(), onDone())}, "Look as a spectator")),
    out,
  );
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const value = token.value.trim();
    if (!value) {
      out.textContent = "Paste a token, or look as a spectator.";
      return;
    }
    const r = await api("/matches?limit=1", {token: value});
    if (r.status === 401) {
      out.textContent = "This token is not known to the service.";
      return;
    }
    session.token = value;
    const who = session.who;
    if (who.role === "player") location.assign(`/console/matches/${who.match}`);
    else onDone();
  });
  return form;
}

export async function matchesPage(root) {
  const who = session.who;
  if (!session.signedIn) {
    clear(root, h("h1", {}, "The judge console"), signInForm(() => location.assign("/console/")));
    return;
  }
  const list = h("div", {class: "list"});
  const filters = {status: "", player: ""};
  const cursors = [null];
  const status = h("select", {"aria-label": "Status"}, ["", "setup", "active", "finished"].map((s) => h("option", {value: s}, s || "any status")));
  const player = h("input", {type: "search", placeholder: "player name", "aria-label": "Player name"});
  const load = async (cursor) => {
    const q = new URLSearchParams({limit: "20"});
    if (cursor) q.set("cursor", cursor);
    if (filters.status) q.set("status", filters.status);
    if (filters.player) q.set("player", filters.player);
    const r = await api(`/matches?${q}`);
    if (!r.ok) {
      clear(list, h("p", {class: "error"}, problemText(r)));
      return;
    }
    const page = cursors.length;
    clear(
      list,
      r.data.matches.length
        ? h(
            "table",
            {class: "matches"},
            h("thead", {}, h("tr", {}, ["Match", "Players", "Status", "Version", "Winner"].map((t) => h("th", {scope: "col"}, t)))),
            h(
              "tbody",
              {},
              r.data.matches.map((mt) =>
                h(
                  "tr",
                  {},
                  h("td", {}, h("a", {href: `/console/matches/${mt.id}`, class: "match-link"}, mt.id.slice(0, 8)), mt.parent ? h("span", {class: "muted"}, ` branch of ${mt.parent.slice(0, 8)}`) : null),
                  h("td", {}, `${mt.players.p1} vs ${mt.players.p2}`),
                  h("td", {}, mt.status),
                  h("td", {}, String(mt.version)),
                  h("td", {}, mt.winner ? mt.players[mt.winner] || mt.winner : "—"),
                ),
              ),
            ),
          )
        : h("p", {class: "muted"}, "No matches yet."),
      h(
        "div",
        {class: "pager"},
        page > 1 ? h("button", {type: "button", onclick: () => (cursors.pop(), load(cursors[cursors.length - 1]))}, "◀ Previous page") : null,
        r.data.cursor ? h("button", {type: "button", onclick: () => (cursors.push(r.data.cursor), load(r.data.cursor))}, "Next page ▶") : null,
      ),
    );
  };
  const filter = h("form", {class: "filters row"}, status, player, h("button", {type: "submit"}, "Filter"));
  filter.addEventListener("submit", (e) => {
    e.preventDefault();
    filters.status = status.value;
    filters.player = player.value.trim();
    cursors.splice(1);
    load(null);
  });
  clear(
    root,
    h("h1", {}, "Matches"),
    who.role === "judge" ? await createForm() : null,
    h("section", {"aria-label": "Matches"}, filter, list),
  );
  await load(null);
}

async function createForm() {
  const FORMATS = [["diva", "Diva Selection"], ["original", "Original (one LRIG)"]];
  const format = h("select", {"aria-label": "Format", id: "format"}, FORMATS.map(([v, t]) => h("option", {value: v}, t)));
  const deckSelect = (label) => h("select", {"aria-label": label, name: label});
  const p1deck = deckSelect("p1 deck");
  const p2deck = deckSelect("p2 deck");
  // the preset decks of the chosen format (GET /decks?format=...): p1 takes the first, p2 the second
  const loadDecks = async () => {
    const decks = await api(`/decks?format=${encodeURIComponent(format.value)}`);
    const ids = decks.ok ? decks.data.decks.map((d) => d.id) : [];
    [p1deck, p2deck].forEach((select, i) => {
      clear(select, ...ids.map((id) => h("option", {value: id}, id)));
      select.value = ids[Math.min(i, ids.length - 1)] ?? "";
    });
  };
  format.addEventListener("change", loadDecks);
  await loadDecks();
  const p1name = h("input", {type: "text", value: "Ann", "aria-label": "p1 name", required: true, maxlength: 60});
  const p2name = h("input", {type: "text", value: "Bo", "aria-label": "p2 name", required: true, maxlength: 60});
  const seed = h("input", {type: "number", min: 0, step: 1, placeholder: "random", "aria-label": "Seed", id: "seed"});
  const first = h("select", {"aria-label": "First player", id: "first-player"}, h("option", {value: ""}, "by the coin"), h("option", {value: "p1"}, "p1"), h("option", {value: "p2"}, "p2"));
  const out = h("p", {class: "error", role: "alert"});
  const form = h(
    "form",
    {class: "create"},
    h("h2", {}, "New match"),
    h("div", {class: "grid2"}, h("label", {}, "Format ", format), h("span", {}), h("label", {}, "p1 ", p1name, p1deck), h("label", {}, "p2 ", p2name, p2deck), h("label", {}, "Seed ", seed), h("label", {}, "First player ", first)),
    h("div", {class: "row"}, h("button", {type: "submit", class: "primary", id: "create"}, "Create the match"), h("a", {href: "/console/positions/new"}, "or set up a position")),
    out,
  );
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const body = {format: format.value, players: {p1: {name: p1name.value.trim(), deck: p1deck.value}, p2: {name: p2name.value.trim(), deck: p2deck.value}}};
    if (seed.value !== "") body.seed = Number(seed.value);
    if (first.value) body.first_player = first.value;
    const r = await api("/matches", {method: "POST", body});
    if (r.status !== 201) {
      out.textContent = problemText(r);
      return;
    }
    session.rememberTokens(r.data.id, r.data.tokens);
    location.assign(`/console/matches/${r.data.id}`);
  });
  return form;
}
