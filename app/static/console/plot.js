// Small SVG plots of Life Cloth, hand, ener and deck counts per player by event, with the current N marked.
import {h, svg} from "./dom.js";

export const SERIES = [
  ["life_cloth", "Life Cloth"],
  ["hand", "Hand"],
  ["ener", "Ener"],
  ["deck", "Deck"],
];

export function countsOf(state) {
  const out = {};
  for (const p of ["p1", "p2"]) {
    const player = state.players[p];
    out[p] = Object.fromEntries(SERIES.map(([zone]) => [zone, player[zone] ? player[zone].count : 0]));
  }
  return out;
}

// samples: sorted [[n, counts], ...]; head: the last event; at: the current N.
export function plots(samples, head, at, onPick) {
  const W = 160;
  const H = 56;
  const x = (n) => (head > 1 ? ((n - 1) / (head - 1)) * (W - 4) + 2 : 2);
  return h(
    "div",
    {class: "plots"},
    SERIES.map(([zone, label]) => {
      const max = Math.max(1, ...samples.flatMap(([, c]) => [c.p1[zone], c.p2[zone]]));
      const y = (v) => H - 4 - (v / max) * (H - 10);
      const line = (p) => samples.map(([n, c]) => `${x(n).toFixed(1)},${y(c[p][zone]).toFixed(1)}`).join(" ");
      const chart = svg(
        "svg",
        {viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": `${label} per player by event; the line marks event ${at}`, class: "plot"},
        svg("rect", {x: 0, y: 0, width: W, height: H, class: "frame"}),
        samples.length > 1 ? svg("polyline", {points: line("p1"), class: "p1"}) : null,
        samples.length > 1 ? svg("polyline", {points: line("p2"), class: "p2"}) : null,
        svg("line", {x1: x(at), x2: x(at), y1: 0, y2: H, class: "now"}),
        svg("text", {x: W - 3, y: 10, "text-anchor": "end", class: "max"}, String(max)),
      );
      chart.addEventListener("click", (e) => {
        const box = chart.getBoundingClientRect();
        const n = Math.round(((e.clientX - box.left) / box.width) * (head - 1) + 1);
        onPick(Math.max(1, Math.min(head, n)));
      });
      return h("figure", {}, chart, h("figcaption", {}, label, " ", h("span", {class: "key p1"}, "p1"), " ", h("span", {class: "key p2"}, "p2")));
    }),
  );
}
