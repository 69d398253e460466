// @ts-check
// The special rules: each its text, as the card prints it, and the terrain changes it may carry ("all orchards
// are woods"), which the server makes to the scenario's maps before LOS, the checks and the card read them
// (docs/scenario-format.md, "Special rules that change the terrain"). The map shown is the changed one.
import { el } from "../../lib/dom.js";

const ACTIONS = [["replace", "Replace"], ["remove", "Remove"], ["add", "Add"], ["level", "Set the level"]];
const WHERE = [["all", "everywhere"], ["hexes", "in these hexes"], ["region", "between two corners"],
  ["levels", "where the hex's level is"]];

/** The terrain changes the special rules make to map `key` (a change naming no map applies to every map). */
export function terrainChanges(doc, key) {
  return (doc.special_rules || []).flatMap((r) => (typeof r === "object" && r ? r.terrain || [] : []))
    .filter((c) => c.map == null || c.map === key);
}

export function rulesBlock(ed) {
  const d = ed.doc;
  const list = el("ol", { id: "special-rules" });
  d.special_rules.forEach((rule, i) => list.append(ruleItem(ed, rule, i)));
  return [el("h3", {}, "Special rules"), list,
    el("button", { type: "button", id: "add-rule", onclick: () => ed.send([{ op: "insert", path: "special_rules", value: "New special rule." }], "add a special rule") }, "+ Special rule")];
}

function ruleItem(ed, rule, i) {
  const text = typeof rule === "object" ? rule.text : rule;
  const changes = typeof rule === "object" ? rule.terrain : [];
  const where = typeof rule === "object" ? `special_rules[${i}].text` : `special_rules[${i}]`;
  const item = el("li", {},
    el("textarea", { rows: 2, "aria-label": `Special rule ${i + 1}`, onchange: (e) => ed.set(where, e.target.value, `special rule ${i + 1}`) }, text),
    el("button", { type: "button", class: "small", title: `Remove special rule ${i + 1}`, onclick: () => ed.send([{ op: "remove", path: `special_rules[${i}]` }], `remove special rule ${i + 1}`) }, "✕"));
  if (changes.length) {
    item.append(el("ul", { class: "terrain-changes" }, ...changes.map((c, n) => el("li", {}, describe(ed, c),
      el("button", { type: "button", class: "small", title: "Remove this terrain change", onclick: () => removeChange(ed, i, text, changes, n) }, "✕")))));
  }
  item.append(changeForm(ed, i, text, changes));
  return item;
}

/** A change in the designer's words: "Orchard becomes Woods, everywhere". */
export function describe(ed, c) {
  const name = (t) => ed.styles.name(t);
  const what = c.replace ? Object.entries(c.replace).map(([a, b]) => `${name(a)} becomes ${name(b)}`).join(", ")
    : c.remove ? `no ${c.remove.map(name).join(", ")}` : c.add ? `add ${c.add.map(name).join(", ")}` : `level ${c.level}`;
  const where = c.hexes ? `in ${c.hexes.join(", ")}` : c.region ? `from ${c.region[0]} to ${c.region[1]}`
    : "everywhere";
  const extra = [c.levels ? `where the level is ${c.levels[0]} to ${c.levels[1]}` : "",
    c.having ? `in hexes with ${c.having.map(name).join(", ")}` : "", c.los ? `in ${c.los} terrain` : "",
    c.map ? `on map ${c.map}` : ""].filter(Boolean);
  return `${what}, ${[where, ...extra].join(", ")}`;
}

function removeChange(ed, i, text, changes, n) {
  const left = changes.filter((_, k) => k !== n);
  ed.send([{ op: "set", path: `special_rules[${i}]`, value: left.length ? { text, terrain: left } : text }],
    `remove a terrain change of special rule ${i + 1}`);
}

function changeForm(ed, i, text, changes) {
  const terrain = (ed.ruleset.terrain || []).filter((t) => t.layer === "hex" || t.layer === "hexside");
  const options = (layer) => terrain.filter((t) => !layer || t.layer === layer)
    .map((t) => el("option", { value: t.id }, `${t.name}${t.layer === "hexside" ? " (hexside)" : ""}`));
  const action = el("select", { name: "change-action", "aria-label": "What the change does" },
    ...ACTIONS.map(([v, t]) => el("option", { value: v }, t)));
  const from = el("select", { name: "change-from", "aria-label": "Terrain" }, ...options(null));
  const to = el("select", { name: "change-to", "aria-label": "New terrain" }, ...options(null));
  const level = el("input", { type: "number", name: "change-level", "aria-label": "Level", value: "0", hidden: true });
  const where = el("select", { name: "change-where", "aria-label": "Where" }, ...WHERE.map(([v, t]) => el("option", { value: v }, t)));
  const hexes = el("input", { type: "text", name: "change-hexes", placeholder: "e.g. F4, F5 or A1, H8 or 1, 3", "aria-label": "Hexes, corners or levels", hidden: true });
  const sync = () => {
    const a = action.value;
    from.hidden = a === "level";
    to.hidden = a !== "replace";
    level.hidden = a !== "level";
    hexes.hidden = where.value === "all";
  };
  action.onchange = sync;
  where.onchange = sync;
  const add = () => {
    const change = /** @type {any} */ ({});
    const a = action.value;
    if (a === "replace") change.replace = { [from.value]: to.value };
    else if (a === "level") change.level = Number(level.value);
    else change[a] = [from.value];
    const parts = hexes.value.split(/[,\s–-]+/).map((s) => s.trim().toUpperCase()).filter(Boolean);
    if (where.value === "hexes") change.hexes = parts;
    if (where.value === "region") change.region = parts;
    if (where.value === "levels") change.levels = parts.map(Number);
    ed.send([{ op: "set", path: `special_rules[${i}]`, value: { text, terrain: [...changes, change] } }],
      `add a terrain change to special rule ${i + 1}`);
  };
  const form = el("details", { class: "terrain-change-form" }, el("summary", {}, "+ Terrain change"),
    el("div", { class: "fields" }, action, from, to, level, where, hexes,
      el("button", { type: "button", class: "small", name: "change-add", onclick: add }, "Add")));
  sync();
  return form;
}
