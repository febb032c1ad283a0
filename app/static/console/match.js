// A match: the board at N as the viewer sees it, the timeline scrubber, the log in sentences, legal actions
// (taken at the head, asked as rulings before it), rewind and branch, the audit badge, plots and live updates.
// The address is the page's state: /console/matches/{id}?at=N&viewer=V.
import {actionLabel} from "./actions.js";
import {api, problemText, session} from "./api.js";
import {boardView, cardIds} from "./board.js";
import {instanceName, learnCatalogueIds, learnInstances, loadFacts} from "./cards.js";
import {$, $$, clear, debounce, h, showPopover} from "./dom.js";
import {countsOf, plots} from "./plot.js";
import {playerName, sentence, setPlayerNames} from "./sentences.js";

const VIEWERS = ["judge", "p1", "p2", "spectator"];
const rules = new Map();

async function ruleText(id) {
  if (!rules.has(id)) rules.set(id, api(`/rules/${encodeURIComponent(id)}`).then((r) => (r.ok ? r.data : null)));
  return rules.get(id);
}

export function ruleButton(id) {
  const b = h("button", {type: "button", class: "rule", title: "The rule's text"}, id);
  b.addEventListener("click", async (e) => {
    e.stopPropagation();
    const r = await ruleText(id);
    showPopover(b, r ? [h("h3", {}, r.title, " ", h("code", {}, r.id)), h("p", {}, r.summary), r.source ? h("p", {class: "muted"}, `Source: ${sourceText(r.source)}`) : null] : h("p", {}, `No rule ${id} in the catalogue.`));
  });
  return b;
}
const sourceText = (s) => (typeof s === "object" ? Object.entries(s).map(([k, v]) => `${k} ${Array.isArray(v) ? v.join(", ") : v}`).join("; ") : String(s));

export async function matchPage(root, id) {
  const who = session.who;
  const params = new URLSearchParams(location.search);
  const m = {
    id,
    who,
    path: `/matches/${id}`,
    viewer: who.role === "judge" ? (VIEWERS.includes(params.get("viewer")) ? params.get("viewer") : "judge") : who.role === "player" ? who.player : "spectator",
    at: Number(params.get("at")) || null,
    head: 0,
    events: [],
    byN: new Map(),
    points: [],
    states: new Map(),
    counts: new Map(),
    selected: new Set(),
    askOnly: false,
    seq: 0,
    busy: Promise.resolve(),
    source: null,
    sseFailed: false,
  };
  clear(root, h("p", {class: "muted"}, "Loading the match…"));
  const summary = await api(m.path);
  if (!summary.ok) {
    clear(root, h("h1", {}, "This match cannot be shown"), h("p", {class: "error", role: "alert"}, problemText(summary)), h("p", {}, h("a", {href: "/console/"}, "Back to the matches")));
    return;
  }
  m.summary = summary.data;
  setPlayerNames({p1: m.summary.players.p1.name, p2: m.summary.players.p2.name});

  // ---------------------------------------------------------------- the page's parts
  const el = {
    title: h("h1", {}, `${playerName("p1")} vs ${playerName("p2")}`),
    status: h("span", {class: "status"}),
    audit: h("span", {class: "audit", "aria-live": "polite"}),
    viewer: null,
    board: h("div", {class: "board-wrap", "aria-live": "off"}),
    range: h("input", {type: "range", id: "scrubber", min: 1, max: 1, value: 1, step: 1, "aria-label": "Event number (arrow keys: one event; Page Up and Page Down: one decision point)"}),
    marks: h("div", {class: "marks", "aria-hidden": "true"}),
    nLabel: h("output", {class: "n-label", for: "scrubber"}),
    travel: h("div", {class: "travel"}),
    actions: h("section", {class: "actions", "aria-label": "Legal actions"}),
    message: h("p", {class: "message", role: "status", "aria-live": "polite"}),
    ruling: h("section", {class: "ruling", "aria-label": "Ruling", hidden: true}),
    log: h("ol", {class: "log", "aria-label": "The log"}),
    plots: h("section", {class: "plots-wrap", "aria-label": "Counts by event"}),
  };
  if (who.role === "judge") {
    el.viewer = h(
      "fieldset",
      {class: "viewer"},
      h("legend", {}, "See as (what they knew at N)"),
      VIEWERS.map((v) => h("label", {}, h("input", {type: "radio", name: "viewer", value: v, checked: v === m.viewer, onchange: () => setViewer(v)}), v)),
    );
  }
  const tokens = who.role === "judge" ? session.tokensOf(id) : null;
  const step = (delta) => goTo(m.at + delta);
  clear(
    root,
    h(
      "div",
      {class: "match-head"},
      el.title,
      el.status,
      el.audit,
      el.viewer,
      tokens
        ? h("details", {class: "tokens"}, h("summary", {}, "Player tokens"), ["p1", "p2"].map((p) => h("label", {}, `${p} `, h("input", {readonly: true, value: tokens[p], "aria-label": `${p}'s token`, size: 12}))))
        : null,
    ),
    h(
      "div",
      {class: "match"},
      h(
        "div",
        {class: "main-col"},
        el.board,
        h(
          "section",
          {class: "scrub", "aria-label": "Timeline"},
          h("div", {class: "range-wrap"}, el.range, el.marks),
          h(
            "div",
            {class: "scrub-buttons"},
            h("button", {type: "button", onclick: () => goTo(prevPoint()), title: "Page Up"}, "« Decision"),
            h("button", {type: "button", onclick: () => step(-1), title: "Left arrow"}, "◀ Event"),
            el.nLabel,
            h("button", {type: "button", onclick: () => step(1), title: "Right arrow"}, "Event ▶"),
            h("button", {type: "button", onclick: () => goTo(nextPoint()), title: "Page Down"}, "Decision »"),
            h("button", {type: "button", onclick: () => goTo(m.head), title: "End"}, "Head"),
          ),
          el.travel,
        ),
        el.message,
        el.actions,
        el.plots,
      ),
      h("div", {class: "side-col"}, el.ruling, h("section", {class: "log-wrap", "aria-label": "Log"}, h("h2", {}, "Log"), el.log)),
    ),
  );

  el.range.addEventListener("input", () => goTo(Number(el.range.value)));
  el.range.addEventListener("keydown", (e) => {
    if (e.key === "PageUp" || e.key === "PageDown") {
      e.preventDefault();
      goTo(e.key === "PageUp" ? prevPoint() : nextPoint());
    }
  });
  document.addEventListener("keydown", (e) => {
    const t = e.target;
    if (t instanceof HTMLInputElement || t instanceof HTMLTextAreaElement || t instanceof HTMLSelectElement) return;
    if (e.key === "ArrowLeft" || e.key === "ArrowRight") {
      e.preventDefault();
      step(e.key === "ArrowLeft" ? -1 : 1);
    } else if (e.key === "PageUp" || e.key === "PageDown") {
      e.preventDefault();
      goTo(e.key === "PageUp" ? prevPoint() : nextPoint());
    }
  });
  document.addEventListener("console:lang", () => {
    renderLogTexts();
    show(m.at, {quiet: true});
  });

  // ---------------------------------------------------------------- loading
  const viewerQuery = () => (who.role === "judge" && m.viewer !== "judge" ? m.viewer : undefined);

  async function loadEvents(all) {
    const after = all ? 0 : m.events.length ? m.events[m.events.length - 1].n : 0;
    const q = new URLSearchParams({after: String(after), limit: "1000"});
    let got = [];
    let cursor = after;
    for (;;) {
      q.set("after", String(cursor));
      if (viewerQuery()) q.set("viewer", viewerQuery());
      const r = await api(`${m.path}/events?${q}`);
      if (!r.ok) {
        el.message.textContent = problemText(r);
        break;
      }
      got = got.concat(r.data.events);
      m.head = Math.max(m.head, r.data.head);
      if (r.data.events.length < 1000) break;
      cursor = r.data.events[r.data.events.length - 1].n;
    }
    if (all) {
      m.events = [];
      m.byN.clear();
      clear(el.log);
    }
    for (const e of got) {
      if (e.type === "MatchCreated" && e.data && e.data.cards) learnCatalogueIds(e.data.cards);
      m.events.push(e);
      m.byN.set(e.n, e);
      el.log.append(logLine(e));
    }
    return got;
  }

  async function loadTimeline() {
    const after = m.points.length ? m.points[m.points.length - 1].n : 0;
    const r = await readAllFrom(`${m.path}/timeline`, "points", after);
    m.points = m.points.concat(r);
    drawMarks();
  }
  async function readAllFrom(path, key, after) {
    const out = [];
    for (;;) {
      const r = await api(`${path}?after=${after}&limit=1000`);
      if (!r.ok) return out;
      out.push(...r.data[key]);
      if (r.data[key].length < 1000) return out;
      after = r.data[key][r.data[key].length - 1].n;
    }
  }

  async function stateAt(n) {
    const key = `${m.viewer}:${n}`;
    if (!m.states.has(key)) {
      const q = new URLSearchParams({at: String(n)});
      if (viewerQuery()) q.set("viewer", viewerQuery());
      m.states.set(
        key,
        api(`${m.path}/state?${q}`).then((r) => {
          if (!r.ok) {
            m.states.delete(key);
            throw new Error(problemText(r));
          }
          learnInstances(r.data);
          m.counts.set(n, countsOf(r.data));
          return r.data;
        }),
      );
    }
    return m.states.get(key);
  }

  // ---------------------------------------------------------------- the timeline
  const decisionPoints = () => m.points.filter((p) => p.decision_point).map((p) => p.n);
  function prevPoint() {
    const dp = decisionPoints().filter((n) => n < m.at);
    return dp.length ? dp[dp.length - 1] : 1;
  }
  function nextPoint() {
    const dp = decisionPoints().find((n) => n > m.at);
    return dp || m.head;
  }
  function drawMarks() {
    el.range.max = String(Math.max(1, m.head));
    const marks = [];
    let turn = null;
    let phase = null;
    const pos = (n) => `${m.head > 1 ? ((n - 1) / (m.head - 1)) * 100 : 0}%`;
    for (const p of m.points) {
      if (p.turn !== turn && p.turn) marks.push(h("span", {class: "mark turn", style: `left:${pos(p.n)}`, title: `turn ${p.turn} begins at event ${p.n}`}, `T${p.turn}`));
      else if (p.phase !== phase) marks.push(h("span", {class: "mark phase", style: `left:${pos(p.n)}`, title: `${p.phase} at event ${p.n}`}));
      turn = p.turn;
      phase = p.phase;
    }
    clear(el.marks, marks);
  }

  // ---------------------------------------------------------------- going to N
  async function goTo(n) {
    if (!Number.isFinite(n)) return;
    n = Math.max(1, Math.min(m.head, Math.round(n)));
    await show(n);
  }

  async function show(n, {quiet = false} = {}) {
    const seq = ++m.seq;
    root.dataset.ready = "no";
    m.at = n;
    el.range.value = String(n);
    const url = new URL(location.href);
    url.searchParams.set("at", String(n));
    if (who.role === "judge") url.searchParams.set("viewer", m.viewer);
    history.replaceState(null, "", url);
    el.nLabel.textContent = `event ${n} of ${m.head}${n === m.head ? " (head)" : ""}`;
    markLog();
    let state;
    try {
      state = await stateAt(n);
    } catch (err) {
      if (seq === m.seq) el.message.textContent = String(err.message || err);
      return;
    }
    await loadFacts(cardIds(state));
    if (seq !== m.seq) return;
    m.state = state;
    if (!quiet) el.message.textContent = "";
    el.status.textContent = `${m.summary.status === "finished" || state.status === "finished" ? "finished" : state.status} · version ${m.head}`;
    const bottom = m.viewer === "p2" ? "p2" : "p1";
    clear(el.board, boardView(state, bottom));
    renderTravel();
    live();
    await renderActions(state, seq);
    if (seq !== m.seq) return;
    root.dataset.at = String(n);
    root.dataset.status = state.status;
    root.dataset.head = String(m.head);
    root.dataset.ready = "yes";
    schedulePlots();
  }

  // ---------------------------------------------------------------- the log
  function logLine(e) {
    const why = h("div", {class: "why", hidden: true});
    const text = h("button", {type: "button", class: "text", "aria-expanded": "false", title: "Why did this happen?"}, sentence(e));
    text.addEventListener("click", () => {
      const open = why.hidden;
      why.hidden = !open;
      text.setAttribute("aria-expanded", String(open));
      if (open) clear(why, whyChain(e));
    });
    return h(
      "li",
      {id: `e-${e.n}`, dataset: {n: e.n, type: e.type}, class: e.rewound_by ? "rewound" : ""},
      h("button", {type: "button", class: "n", title: "Show the board after this event", onclick: () => goTo(e.n)}, String(e.n)),
      text,
      e.rule ? ruleButton(e.rule) : null,
      e.rewound_by ? h("span", {class: "rewound-by"}, `rewound by ${e.rewound_by}`) : null,
      why,
    );
  }
  function whyChain(e) {
    const chain = [];
    let cur = e;
    const seen = new Set();
    while (cur && !seen.has(cur.n)) {
      seen.add(cur.n);
      chain.push(cur);
      cur = cur.caused_by ? m.byN.get(cur.caused_by) : null;
    }
    return h(
      "ol",
      {class: "chain"},
      chain.map((c, i) =>
        h(
          "li",
          {},
          i === 0 ? "This: " : "caused by ",
          h("a", {href: `?at=${c.n}${who.role === "judge" ? `&viewer=${m.viewer}` : ""}`, onclick: (ev) => (ev.preventDefault(), goTo(c.n))}, `#${c.n}`),
          ` ${sentence(c)} `,
          c.rule ? ruleButton(c.rule) : null,
          c.action ? h("span", {class: "muted"}, ` (the answer of ${playerName(c.actor)}${c.by === "judge" ? ", given by the judge" : ""}: ${actionLabel(c.action, null)})`) : null,
        ),
      ),
      !chain[chain.length - 1].action && chain[chain.length - 1].actor === "rules" ? h("li", {class: "muted"}, "The rules ran on by themselves from there.") : null,
    );
  }
  function renderLogTexts() {
    for (const li of $$("li[data-n]", el.log)) {
      const e = m.byN.get(Number(li.dataset.n));
      if (e) $(".text", li).textContent = sentence(e);
    }
  }
  function markLog() {
    let current = null;
    for (const li of el.log.children) {
      const n = Number(li.dataset.n);
      li.classList.toggle("future", n > m.at);
      li.classList.toggle("current", n === m.at);
      if (n === m.at) current = li;
    }
    if (current) {
      const box = el.log.getBoundingClientRect();
      const line = current.getBoundingClientRect();
      if (line.top < box.top || line.bottom > box.bottom) el.log.scrollTop += line.top - box.top - box.height / 2;
    }
  }

  // ---------------------------------------------------------------- actions and rulings
  async function renderActions(state, seq) {
    const actor = state.pending ? state.pending.player : null;
    if (state.status === "finished" || !actor) {
      clear(el.actions, h("h2", {}, "Actions"), h("p", {class: "muted"}, state.status === "finished" ? "The match is over." : "Nobody is asked to decide here."));
      return;
    }
    if (who.role === "spectator" || (who.role === "player" && who.player !== actor)) {
      clear(el.actions, h("h2", {}, "Actions"), h("p", {class: "muted"}, `${playerName(actor)} is deciding.`));
      return;
    }
    const r = await api(`${m.path}/legal-actions?at=${m.at}&player=${actor}`);
    if (seq !== m.seq) return;
    if (!r.ok) {
      clear(el.actions, h("h2", {}, "Actions"), h("p", {class: "error"}, problemText(r)));
      return;
    }
    const atHead = m.at === m.head;
    const acting = atHead && !m.askOnly;
    const note = acting ? `${playerName(actor)} to decide: a button takes the action.` : atHead ? "A button asks a ruling (nothing is recorded)." : `Event ${m.at} is before the head: a button asks a ruling (nothing is recorded).`;
    const list = r.data.actions;
    let body;
    if (state.pending.kind === "mulligan" && list.every((a) => a.type === "mulligan")) body = mulliganPicker(state, actor, acting);
    else {
      const main = list.filter((a) => a.type !== "concede");
      body = h(
        "div",
        {class: "buttons"},
        main.map((a) => h("button", {type: "button", class: `action ${a.type}`, dataset: {type: a.type, action: JSON.stringify(a)}, onclick: () => take(a)}, actionLabel(a, state))),
      );
    }
    clear(
      el.actions,
      h("h2", {}, "Actions ", h("span", {class: "muted"}, `(${list.length})`)),
      h("p", {class: "note"}, note),
      body,
      atHead ? h("label", {class: "ask"}, h("input", {type: "checkbox", checked: m.askOnly, onchange: (e) => ((m.askOnly = e.target.checked), show(m.at, {quiet: true}))}), " Ask a ruling instead of acting") : null,
    );
  }

  function mulliganPicker(state, actor, acting) {
    const hand = state.players[actor].hand.cards || [];
    m.selected = new Set([...m.selected].filter((iid) => hand.some((c) => c.iid === iid)));
    const go = h("button", {type: "button", class: "action mulligan primary", dataset: {type: "mulligan"}});
    const label = () => {
      go.textContent = m.selected.size ? `Return ${m.selected.size} card${m.selected.size > 1 ? "s" : ""} and redraw` : "Keep the hand";
    };
    label();
    go.addEventListener("click", () => take({type: "mulligan", player: actor, cards: hand.filter((c) => m.selected.has(c.iid)).map((c) => c.iid)}));
    return h(
      "div",
      {class: "mulligan"},
      h("p", {}, acting ? "Pick the cards to return, then confirm:" : "Pick cards to ask about:"),
      h(
        "div",
        {class: "toggles"},
        hand.map((c) =>
          h(
            "label",
            {class: "toggle"},
            h("input", {type: "checkbox", checked: m.selected.has(c.iid), onchange: (e) => (e.target.checked ? m.selected.add(c.iid) : m.selected.delete(c.iid), label())}),
            ` ${instanceName(c.iid)}`,
          ),
        ),
      ),
      go,
    );
  }

  async function take(action) {
    if (m.at === m.head && !m.askOnly) return act(action);
    return ask(action);
  }

  async function act(action) {
    root.dataset.ready = "no";
    const r = await api(`${m.path}/actions`, {method: "POST", body: {action, expected_version: m.head}});
    if (r.status === 201) {
      m.selected.clear();
      await refresh(true);
      return;
    }
    el.message.textContent = problemText(r);
    if (r.status === 409) await refresh(true);
    else root.dataset.ready = "yes";
  }

  async function ask(action) {
    const r = await api(`${m.path}/rulings`, {method: "POST", body: {at: m.at, action}});
    el.ruling.hidden = false;
    if (!r.ok) {
      clear(el.ruling, h("h2", {}, "Ruling"), h("p", {class: "error"}, problemText(r)));
      return;
    }
    const d = r.data;
    clear(
      el.ruling,
      h("h2", {}, "Ruling at event ", String(m.at)),
      h("p", {class: `verdict ${d.legal ? "legal" : "illegal"}`}, d.legal ? "Legal" : "Not legal", ": ", actionLabel(action, m.state)),
      d.rule_refs.length ? h("p", {class: "refs"}, "Rules: ", d.rule_refs.map((id) => [ruleButton(id), " "])) : null,
      h("p", {class: "explanation"}, d.explanation),
      d.events.length
        ? [h("h3", {}, d.complete === false ? "What would happen (until a card not yet known would be shown)" : "What would happen"), h("ol", {class: "log predicted"}, d.events.map((e) => h("li", {}, h("span", {class: "n"}, String(e.n)), " ", h("span", {class: "text"}, sentence(e)), " ", e.rule ? ruleButton(e.rule) : null)))]
        : null,
      h("button", {type: "button", onclick: () => (el.ruling.hidden = true)}, "Close the ruling"),
    );
    el.ruling.scrollIntoView({block: "nearest"});
  }

  // ---------------------------------------------------------------- rewind and branch
  function renderTravel() {
    if (who.role !== "judge") {
      clear(el.travel);
      return;
    }
    const point = m.points.find((p) => p.n === m.at);
    const isPoint = point ? point.decision_point : false;
    const reason = h("input", {type: "text", id: "reason", placeholder: "the reason (required)", "aria-label": "Reason for the rewind or branch", maxlength: 500});
    const out = h("p", {class: "travel-out", role: "status"});
    const send = async (kind) => {
      if (!reason.value.trim()) {
        out.textContent = "Give a reason first.";
        reason.focus();
        return;
      }
      const body = kind === "rewind" ? {to: m.at, reason: reason.value.trim()} : {at: m.at, reason: reason.value.trim()};
      const r = await api(`${m.path}/${kind === "rewind" ? "rewind" : "branches"}`, {method: "POST", body});
      if (r.ok) {
        if (kind === "branch") {
          session.rememberTokens(r.data.id, r.data.tokens);
          location.assign(`/console/matches/${r.data.id}?at=${r.data.version || ""}`.replace(/\?at=$/, ""));
          return;
        }
        await refresh(true, true);
        return;
      }
      const d = r.data || {};
      clear(
        out,
        problemText(r),
        d.earlier || d.later ? " Nearest decision points: " : null,
        d.earlier ? h("button", {type: "button", onclick: () => goTo(d.earlier)}, `go to ${d.earlier}`) : null,
        d.later ? h("button", {type: "button", onclick: () => goTo(d.later)}, `go to ${d.later}`) : null,
      );
    };
    clear(
      el.travel,
      h("p", {class: "muted"}, isPoint ? `Event ${m.at} is a decision point: the match may be rewound or branched here.` : `Event ${m.at} is not a decision point (Page Up / Page Down go to one).`),
      h("div", {class: "travel-row"}, reason, h("button", {type: "button", class: "rewind", onclick: () => send("rewind")}, `Rewind to ${m.at}`), h("button", {type: "button", class: "branch", onclick: () => send("branch")}, `Branch at ${m.at}`)),
      out,
    );
  }

  // ---------------------------------------------------------------- after something changed
  function refresh(follow, all = false) {
    m.busy = m.busy.then(async () => {
      const wasHead = m.at === m.head;
      const got = await loadEvents(all);
      if (all || got.some((e) => e.type === "Rewound")) {
        if (!all) await loadEvents(true);
        m.points = [];
      }
      await loadTimeline();
      if (follow || wasHead) await show(m.head);
      else await show(m.at, {quiet: true});
      scheduleAudit();
    });
    return m.busy;
  }

  function live() {
    const atHead = m.at === m.head;
    if (atHead && !m.source && !m.sseFailed && typeof EventSource === "function") {
      const source = new EventSource(`${m.path}/events/stream`);
      m.source = source;
      source.onmessage = () => refresh(false);
      source.onerror = () => {
        source.close();
        m.source = null;
        m.sseFailed = true; // no stream here (404), or it broke: the page still works without it
      };
    } else if (!atHead && m.source) {
      m.source.close();
      m.source = null;
    }
  }

  // ---------------------------------------------------------------- the audit badge and plots
  async function audit() {
    if (who.role !== "judge") return;
    const r = await api(`${m.path}/audit`);
    if (!r.ok) {
      clear(el.audit, h("span", {class: "badge bad"}, "audit unavailable"));
      return;
    }
    const d = r.data;
    const first = d.problems && d.problems[0];
    clear(
      el.audit,
      h("span", {class: `badge ${d.ok ? "ok" : "bad"}`, id: "audit-badge", title: `head hash ${d.head_hash}`}, d.ok ? "audit ok" : `audit: ${d.problems.length} problem${d.problems.length === 1 ? "" : "s"}`),
      h("code", {class: "hash", title: d.head_hash}, ` ${String(d.head_hash).slice(0, 12)}…`),
      first ? h("a", {href: `?at=${first.at}&viewer=${m.viewer}`, onclick: (e) => (e.preventDefault(), goTo(first.at))}, ` first at ${first.at}: ${first.message} (${first.rule})`) : null,
    );
  }
  const scheduleAudit = debounce(audit, 300);

  const schedulePlots = debounce(async () => {
    const want = new Set([m.at, m.head]);
    const sampleCount = Math.min(m.head, 48);
    for (let i = 0; i < sampleCount; i++) want.add(Math.max(1, Math.round(1 + (i * (m.head - 1)) / Math.max(1, sampleCount - 1))));
    const missing = [...want].filter((n) => !m.counts.has(n));
    for (let i = 0; i < missing.length; i += 6) {
      await Promise.all(missing.slice(i, i + 6).map((n) => stateAt(n).catch(() => null)));
    }
    const samples = [...m.counts.entries()].filter(([n]) => n <= m.head).sort((a, b) => a[0] - b[0]);
    clear(el.plots, h("h2", {}, "Counts by event"), plots(samples, m.head, m.at, goTo));
  }, 400);

  function setViewer(v) {
    m.viewer = v;
    root.dataset.ready = "no";
    m.busy = m.busy.then(async () => {
      await loadEvents(true);
      await show(m.at);
    });
  }

  // ---------------------------------------------------------------- start
  await loadEvents(true);
  await loadTimeline();
  drawMarks();
  await show(m.at ? Math.min(m.at, m.head) : m.head);
  renderLogTexts();
  audit();
}
