// Small helpers for building the page: h("div", {class: "x"}, child, ...) and friends.

export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") el.addEventListener(key.slice(2), value);
    else if (key === "class") el.className = value;
    else if (key === "dataset") Object.assign(el.dataset, value);
    else if (value === true) el.setAttribute(key, "");
    else el.setAttribute(key, String(value));
  }
  append(el, children);
  return el;
}

export function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

export function clear(el, ...children) {
  el.replaceChildren();
  return append(el, children);
}

const SVG = "http://www.w3.org/2000/svg";
export function svg(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) if (value !== undefined) el.setAttribute(key, String(value));
  for (const child of children.flat()) if (child) el.append(child instanceof Node ? child : document.createTextNode(child));
  return el;
}

export const $ = (sel, root = document) => root.querySelector(sel);
export const $$ = (sel, root = document) => [...root.querySelectorAll(sel)];

export function debounce(fn, ms) {
  let timer = null;
  return (...args) => {
    clearTimeout(timer);
    timer = setTimeout(() => fn(...args), ms);
  };
}

// The popover: one at a time, placed under the element that opened it, closed by Escape or a click away.
let popOwner = null;
export function showPopover(owner, ...content) {
  const pop = document.getElementById("popover");
  clear(pop, h("button", {type: "button", class: "close", "aria-label": "Close", onclick: hidePopover}, "×"), ...content);
  pop.hidden = false;
  popOwner = owner;
  const box = owner.getBoundingClientRect();
  const width = Math.min(360, window.innerWidth - 16);
  pop.style.width = `${width}px`;
  pop.style.left = `${Math.max(8, Math.min(box.left + window.scrollX, window.scrollX + window.innerWidth - width - 8))}px`;
  pop.style.top = `${box.bottom + window.scrollY + 4}px`;
}
export function hidePopover() {
  const pop = document.getElementById("popover");
  if (pop) pop.hidden = true;
  if (popOwner && document.contains(popOwner)) popOwner.focus({preventScroll: true});
  popOwner = null;
}
document.addEventListener("keydown", (e) => {
  if (e.key === "Escape") hidePopover();
});
document.addEventListener("click", (e) => {
  const pop = document.getElementById("popover");
  if (pop && !pop.hidden && !pop.contains(e.target) && !(popOwner && popOwner.contains(e.target))) hidePopover();
});
