// @ts-check
// Small helpers of the scenario editor's panels: form fields that call back on change, ids, counts.
import { el } from "../lib/dom.js";

// A map edge as the scenario format writes it, and as the designer reads it.
export const EDGES = [["N", "north edge"], ["E", "east edge"], ["S", "south edge"], ["W", "west edge"]];

export function numberOrNull(text) {
  if (text === "" || text == null) return null;
  const n = Number(text);
  return Number.isFinite(n) ? n : text;
}

export function parseFacing(text) { return /^\d$/.test(text) ? Number(text) : text; }

export function freshId(base, taken) {
  for (let n = 1; ; n++) if (!taken.includes(`${base}-${n}`)) return `${base}-${n}`;
}

// A labelled input (text, number, checkbox, color) or textarea; onchange gets the value in its type.
export function field(label, value, onchange, attrs = {}) {
  const read = (e) => attrs.type === "number" ? numberOrNull(e.target.value)
    : attrs.type === "checkbox" ? e.target.checked : e.target.value;
  const input = attrs.type === "textarea"
    ? el("textarea", { rows: attrs.rows || 3, onchange: (e) => onchange(e.target.value) })
    : el("input", { type: attrs.type || "text", onchange: (e) => onchange(read(e)), ...attrs });
  if (attrs.type === "checkbox") input.checked = !!value; else input.value = value ?? "";
  if (attrs.name) input.name = attrs.name;
  return el("label", {}, label, " ", input);
}

// A select of [value, text] options; "" reads as null.
export function select(label, value, options, onchange, attrs = {}) {
  const s = selectBare(value, options, (v) => onchange(v === "" ? null : v));
  for (const [k, v] of Object.entries(attrs)) s.setAttribute(k, v);
  return el("label", {}, label, " ", s);
}

export function selectBare(value, options, onchange) {
  const s = el("select", { onchange: (e) => onchange(e.target.value) }, ...options.map(([v, t]) => el("option", { value: v ?? "" }, t)));
  s.value = value ?? "";
  return s;
}

// A game's own field (rules, side fields), drawn as its catalogue spec says (config.fieldSpecs): a checkbox, a
// number within its range, a choice of its values, JSON for objects, else text.
export function freeField(key, value, onchange, onError, spec = {}) {
  const label = key.replaceAll("_", " ");
  const type = spec.type || (typeof value === "number" ? "number" : typeof value === "boolean" ? "boolean" : "");
  if (type === "boolean") return field(label, value, onchange, { type: "checkbox" });
  if (type === "choice" && Array.isArray(spec.values)) {
    return select(label, value, [["", "—"], ...spec.values.map((v) => [v, String(v)])], onchange);
  }
  if (type === "edge") return select(label, value, [["", "—"], ...EDGES], onchange);
  if (type === "counts" && Array.isArray(spec.keys)) return countsField(label, value || {}, spec, onchange);
  if (type === "side-ids" && Array.isArray(spec.sides)) return sideOrder(label, value || [], spec.sides, onchange);
  if (type === "counts") return namedCounts(label, value || {}, spec, onchange);
  if (type === "overlays") return overlaysField(label, value || [], onchange);
  const numeric = type === "integer" || type === "number";
  if (value !== undefined && typeof value === "object" && value !== null) {
    return field(label + " (JSON)", value == null ? "" : JSON.stringify(value), (v) => {
      try { onchange(v.trim() ? JSON.parse(v) : null); } catch { onError(`${key}: not valid JSON`); }
    });
  }
  const limits = numeric ? { type: "number", step: type === "integer" ? "1" : "any" } : {};
  if (numeric && spec.min !== undefined) limits.min = spec.min;
  if (numeric && spec.max !== undefined) limits.max = spec.max;
  return field(label, value, (v) => onchange(v === "" ? null : v), limits);
}

// A count for each of the catalogue's keys (Assault's formations by deck): a number each, none typed as JSON.
function countsField(label, value, spec, onchange) {
  const box = el("fieldset", { class: "counts-field" }, el("legend", {}, label));
  for (const key of spec.keys) {
    box.append(field(key.replaceAll("_", " "), value[key] ?? "", (v) => {
      const out = { ...value }; if (v === null || v === "") delete out[key]; else out[key] = v;
      onchange(Object.keys(out).length ? out : null);
    }, { type: "number", step: "1", min: spec.min ?? 0, ...(spec.max !== undefined ? { max: spec.max } : {}) }));
  }
  return box;
}

// A count for each name the designer gives (ATS's VP by kind of unit eliminated: squad 2, AFV 6): a row each, a
// name and a number, a row added by "+", none typed as JSON.
function namedCounts(label, value, spec, onchange) {
  const box = el("fieldset", { class: "counts-field", "data-field": label }, el("legend", {}, label));
  const rows = Object.entries(value);
  const send = (list) => {
    const out = {};
    for (const [k, v] of list) if (k && v !== null && v !== "") out[k] = Number(v);
    onchange(Object.keys(out).length ? out : null);
  };
  rows.forEach(([key, count], n) => {
    const name = el("input", { type: "text", value: key, "aria-label": `${label}: name ${n + 1}`,
      onchange: (e) => send(rows.map(([k, v], i) => (i === n ? [e.target.value.trim(), v] : [k, v]))) });
    const number = el("input", { type: "number", step: "1", min: String(spec.min ?? 0), value: String(count),
      "aria-label": `${label}: ${key}`, ...(spec.max !== undefined ? { max: String(spec.max) } : {}),
      onchange: (e) => send(rows.map(([k, v], i) => (i === n ? [k, e.target.value] : [k, v]))) });
    box.append(el("div", { class: "count-row" }, name, number, el("button", { type: "button", class: "small",
      title: `Remove ${key}`, onclick: () => send(rows.filter((_, i) => i !== n)) }, "✕")));
  });
  const name = el("input", { type: "text", placeholder: "e.g. squad", "aria-label": `${label}: new name` });
  const number = el("input", { type: "number", step: "1", min: String(spec.min ?? 0), placeholder: "0",
    "aria-label": `${label}: new value` });
  box.append(el("div", { class: "count-row" }, name, number, el("button", { type: "button", class: "small",
    onclick: () => { if (name.value.trim()) send([...rows, [name.value.trim(), number.value || 0]]); } }, "+")));
  return box;
}

// The overlays a scenario lays (ATS 3.3.1): a row each, its id and the two hexes its X and Y marks cover.
function overlaysField(label, value, onchange) {
  const box = el("fieldset", { class: "counts-field", "data-field": label }, el("legend", {}, label));
  const send = (list) => onchange(list.length ? list : null);
  const row = (o, n) => {
    const input = (key, words) => el("input", { type: "text", value: o[key] || "", size: 5, "aria-label": `Overlay ${n + 1}: ${words}`,
      onchange: (e) => send(value.map((x, i) => (i === n ? { ...x, [key]: e.target.value.trim().toUpperCase() } : x))) });
    return el("div", { class: "count-row" }, input("id", "its id"), " X ", input("x", "X hex"), " Y ", input("y", "Y hex"),
      el("button", { type: "button", class: "small", title: `Remove overlay ${o.id || n + 1}`, onclick: () => send(value.filter((_, i) => i !== n)) }, "✕"));
  };
  value.forEach((o, n) => box.append(row(o, n)));
  const fresh = (words, v = "") => el("input", { type: "text", value: v, size: 5, "aria-label": `New overlay: ${words}` });
  const id = fresh("its id", `P${value.length + 1}`), x = fresh("X hex"), y = fresh("Y hex");
  const read = (i) => i.value.trim().toUpperCase();
  box.append(el("div", { class: "count-row" }, id, " X ", x, " Y ", y, el("button", { type: "button", class: "small",
    onclick: () => { if (read(id) && read(x) && read(y)) send([...value, { id: read(id), x: read(x), y: read(y) }]); } }, "+ Overlay")));
  return box;
}

// The sides in an order (ATS's setup order): one choice of side per place, drawn from the scenario's sides.
function sideOrder(label, value, sides, onchange) {
  const box = el("fieldset", { class: "counts-field" }, el("legend", {}, label));
  sides.forEach((_, n) => {
    box.append(select(`${n + 1}.`, value[n] ?? "", [["", "—"], ...sides], (v) => {
      const out = [...value]; out[n] = v; onchange(out.filter(Boolean).length ? out.filter(Boolean) : null);
    }));
  });
  return box;
}

export function unitCounts(side) {
  const placed = {}, arriving = {};
  for (const p of side.placements) placed[p.unit] = (placed[p.unit] || 0) + 1;
  for (const r of side.reinforcements) for (const u of r.units) arriving[u.unit] = (arriving[u.unit] || 0) + u.count;
  return { placed, arriving };
}

export function abbreviation(unit) {
  const words = String(unit.unit || "?").replace(/[()]/g, "").split(/[\s/-]+/).filter(Boolean);
  return words.length > 1 ? words.slice(0, 3).map((w) => w[0]).join("").toUpperCase() : words[0].slice(0, 3);
}
