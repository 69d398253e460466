// @ts-check
// The DOM helpers every page uses: one $ and one el, so a page's markup code reads the same everywhere.

export const $ = (sel, root = document) => root.querySelector(sel);
export const $$ = (sel, root = document) => [...root.querySelectorAll(sel)];

// el("button", {type: "button", onclick: fn}, "text", child): attributes, listeners (on...), children.
// `value` and `checked` set the property (what a form control shows), not the attribute.
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (k === "value") node.value = v ?? "";
    else if (k === "checked") node.checked = !!v;
    else if (v !== false && v != null) node.setAttribute(k, v === true ? "" : v);
  }
  node.append(...children.filter((c) => c != null && c !== false));
  return node;
}

// A message in a page's #banner: text, a list of details, and buttons ([label, fn]); Dismiss when none given.
// The banner overlays the page (hexside.css), so showing it moves nothing. A detail is a string or a problem
// {text, path} (api.js problems()): its JSON path is kept for tools as the item's data-path, never shown (not
// even as a tooltip: a designer reads the text).
export function banner(kind, text, items = [], actions = []) {
  const b = $("#banner");
  if (!text) { b.hidden = true; b.replaceChildren(); return; }
  b.hidden = false;
  b.dataset.kind = kind;
  b.replaceChildren(el("p", {}, text));
  if (items.length) b.append(el("ul", {}, ...items.map((i) => (typeof i === "object" && i && "text" in i
    ? el("li", { "data-path": i.path || null }, i.text) : el("li", {}, i)))));
  const row = el("p", { class: "actions" }, ...actions.map(([label, fn]) => el("button", { type: "button", onclick: fn }, label)));
  if (!actions.length) row.append(el("button", { type: "button", onclick: () => { b.hidden = true; } }, "Dismiss"));
  b.append(row);
}
