// The console's entry point: the header (who is signed in, the language) and the page for the address.
import {session} from "./api.js";
import {lang, setLang} from "./cards.js";
import {clear, h} from "./dom.js";
import {matchPage} from "./match.js";
import {matchesPage, signInForm} from "./matches.js";
import {positionPage} from "./positions.js";

function header() {
  const who = session.who;
  const box = document.getElementById("who");
  const label = !session.signedIn ? "not signed in" : who.role === "judge" ? "judge" : who.role === "player" ? `player ${who.player}` : "spectator";
  clear(
    box,
    h("span", {class: `role ${who.role}`, id: "role"}, label),
    session.signedIn ? h("button", {type: "button", id: "signout", onclick: () => (session.signOut(), location.assign("/console/"))}, "Sign out") : null,
  );
  document.getElementById("nav-position").hidden = who.role !== "judge";
  const toggle = document.getElementById("lang");
  const paint = () => {
    toggle.textContent = lang() === "ja" ? "Names: JA" : "Names: EN";
    toggle.setAttribute("aria-pressed", String(lang() === "ja"));
    toggle.title = lang() === "ja" ? "Card names in English" : "Card names in Japanese";
  };
  paint();
  toggle.onclick = () => {
    setLang(lang() === "ja" ? "en" : "ja");
    paint();
    document.dispatchEvent(new CustomEvent("console:lang"));
  };
}

async function route() {
  header();
  const root = document.getElementById("main");
  const path = location.pathname.replace(/\/+$/, "/");
  const match = /^\/console\/matches\/([^/]+)\/?$/.exec(location.pathname);
  if (match) {
    if (!session.signedIn) session.lookAsSpectator();
    header();
    await matchPage(root, decodeURIComponent(match[1]));
  } else if (/^\/console\/positions\/new\/?$/.test(location.pathname)) {
    if (session.who.role !== "judge") {
      clear(root, h("h1", {}, "The position editor"), h("p", {}, "Setting up a position is the judge's: sign in with the judge's token."), signInForm(() => location.reload()));
      return;
    }
    await positionPage(root);
  } else if (path === "/console/") {
    await matchesPage(root);
    document.addEventListener("console:lang", () => matchesPage(root));
  } else {
    clear(root, h("h1", {}, "Nothing here"), h("p", {}, h("a", {href: "/console/"}, "Go to the matches")));
  }
}

route().catch((err) => {
  const root = document.getElementById("main");
  clear(root, h("h1", {}, "The console stopped"), h("p", {class: "error", role: "alert"}, String(err && err.stack ? err.message : err)));
  console.error(err);
});
