// The API client: the token lives in this tab's session storage; every request carries it.

const TOKEN = "wixoss-judge-token";
const MATCH_TOKENS = "wixoss-judge-match-tokens";

export const session = {
  get token() {
    return sessionStorage.getItem(TOKEN) || "";
  },
  set token(value) {
    if (value) sessionStorage.setItem(TOKEN, value);
    else sessionStorage.removeItem(TOKEN);
  },
  get signedIn() {
    return sessionStorage.getItem(TOKEN) !== null;
  },
  lookAsSpectator() {
    sessionStorage.setItem(TOKEN, "");
  },
  signOut() {
    sessionStorage.removeItem(TOKEN);
  },
  get who() {
    return roleOf(this.token);
  },
  rememberTokens(matchId, tokens) {
    const all = JSON.parse(sessionStorage.getItem(MATCH_TOKENS) || "{}");
    all[matchId] = tokens;
    sessionStorage.setItem(MATCH_TOKENS, JSON.stringify(all));
  },
  tokensOf(matchId) {
    return JSON.parse(sessionStorage.getItem(MATCH_TOKENS) || "{}")[matchId] || null;
  },
};

// A player token reads "<match id>.<player>.<mac>"; any other token is the judge's (the API says if not).
export function roleOf(token) {
  if (!token) return {role: "spectator"};
  const m = /^([0-9a-f-]{36})\.(p1|p2)\.[0-9a-f]+$/i.exec(token);
  if (m) return {role: "player", match: m[1].toLowerCase(), player: m[2]};
  return {role: "judge"};
}

export async function api(path, {method = "GET", body, signal, token} = {}) {
  const headers = {Accept: "application/json"};
  const bearer = token === undefined ? session.token : token;
  if (bearer) headers.Authorization = `Bearer ${bearer}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const response = await fetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    signal,
    cache: "no-store",
  });
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  return {status: response.status, ok: response.ok, data};
}

export function problemText(result) {
  const d = result.data || {};
  const refs = d.rule_refs && d.rule_refs.length ? ` (${d.rule_refs.join(", ")})` : "";
  return `${result.status} ${d.title || ""}: ${d.detail || "no detail"}${refs}`;
}
