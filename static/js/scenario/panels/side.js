// @ts-check
// A side's tab: its name, colour and game fields, the order of battle (edit, copy, reorder, remove, pick for
// the Place tool or drag onto the map), the reinforcement schedule, the victory conditions and the secret brief.
import { el } from "../../lib/dom.js";
import { clone } from "../../documents/scenario.js";
import { EDGES, field, freeField, freshId, numberOrNull, select, selectBare, unitCounts } from "../forms.js";
import { victoryBuilder } from "./victory.js";

export function sidePanel(ed, i) {
  const free = (k, v, fn) => freeField(k, v, fn, (m) => ed.banner(m), (ed.config.fieldSpecs?.side || {})[k]);
  const side = ed.doc.sides[i], path = `sides[${i}]`, box = el("div", { id: "side-panel" });
  const counts = unitCounts(side);
  // What the server left out of this side for this reader (engine/scenarios/visibility.py: extensions.withheld).
  const withheld = ((ed.doc.extensions || {}).withheld || {})[side.id];
  if (withheld) box.append(el("p", { class: "muted", id: "withheld" }, `Hidden from you: ${withheldWords(withheld)}.`));
  box.append(el("div", { class: "fields" },
    field("Name", side.name, (v) => ed.set(`${path}.name`, v)),
    field("Nationality", side.nationality, (v) => ed.set(`${path}.nationality`, v)),
    field("Colour", side.colour, (v) => ed.set(`${path}.colour`, v), { type: "color" }),
    ...(ed.config.sideFields || []).map((k) => free(k, side.fields[k], (v) => {
      const fields = { ...side.fields }; if (v === null) delete fields[k]; else fields[k] = v;
      ed.set(`${path}.fields`, fields, `${side.name} ${k}`);
    }))));
  // The order of battle.
  const total = side.oob.reduce((n, u) => n + u.count, 0);
  const placed = side.placements.length, arriving = side.reinforcements.reduce((n, r) => n + r.units.reduce((m, u) => m + u.count, 0), 0);
  box.append(el("h3", {}, "Order of battle ", el("span", { class: "counts", id: "oob-counts" },
    `${total} units: ${placed} placed, ${arriving} arriving, ${Math.max(0, total - placed - arriving)} free in the zone`)));
  const extra = ed.config.oobExtra || [];
  const types = [["", "— (not checked)"], ...(ed.config.unitTypes || []), ...(ed.doc.unit_types || []).map((t) => [t.id, `${t.name} (own)`])];
  // Each unit is two rows, so that the table fits the side panel without sideways scrolling (1366 px): what
  // names and counts it, then its class, type, quality, leader, formation, hidden and the game's own fields.
  const head = ["Unit", "Name", "Count", "Placed", ""];
  const table = el("table", { class: "oob", id: "oob" }, el("tr", {}, ...head.map((h) => el("th", {}, h))));
  const labelled = (text, input) => el("label", { class: "oob-field" }, text, " ", input);
  side.oob.forEach((u, j) => {
    const up = `${path}.oob[${j}]`;
    const setKey = (k, v) => ed.set(`${up}.${k}`, v);   // labelled in words (scenario/words.js)
    const row = el("tr", { draggable: ed.canEdit ? "true" : false, "data-unit": u.id, class: ed.selectedUnit === u.id ? "selected" : "",
                           ondragstart: (e) => e.dataTransfer.setData("text/plain", u.id),
                           onclick: (e) => { if (e.target.tagName === "TD" || e.target.tagName === "TR") { ed.selectedUnit = u.id; ed.useTool("place"); ed.render(); } } },
      el("td", {}, el("input", { type: "text", value: u.unit, "aria-label": "unit", onchange: (e) => setKey("unit", e.target.value) })),
      el("td", {}, el("input", { type: "text", value: u.name, "aria-label": "name", onchange: (e) => setKey("name", e.target.value) })),
      el("td", {}, el("input", { type: "number", min: 1, value: u.count, "aria-label": "count", onchange: (e) => setKey("count", numberOrNull(e.target.value)) })),
      el("td", { class: "counts" }, `${counts.placed[u.id] || 0}+${counts.arriving[u.id] || 0}/${u.count}`),
      el("td", {}, el("span", { class: "row" },
        el("button", { type: "button", class: "small", title: "Copy", onclick: () => copyUnit(ed, j) }, "⧉"),
        el("button", { type: "button", class: "small", title: "Up", disabled: j === 0, onclick: () => ed.send([{ op: "move", path: `${path}.oob`, from: j, to: j - 1 }], "reorder the OOB") }, "↑"),
        el("button", { type: "button", class: "small", title: "Down", disabled: j === side.oob.length - 1, onclick: () => ed.send([{ op: "move", path: `${path}.oob`, from: j, to: j + 1 }], "reorder the OOB") }, "↓"),
        el("button", { type: "button", class: "small", title: "Remove (and its counters)", onclick: () => removeUnit(ed, j) }, "✕"))));
    const more = el("tr", { class: "oob-more" + (ed.selectedUnit === u.id ? " selected" : ""), "data-unit-more": u.id },
      el("td", { colspan: head.length }, el("div", { class: "oob-fields" },
        labelled("Class", selectBare(u.class, (ed.config.unitClasses || []).map((c) => [c, c]), (v) => setKey("class", v))),
        labelled("Type", selectBare(u.type, types, (v) => setKey("type", v || null))),
        labelled("Quality", selectBare(u.quality, [["", "—"], ...(ed.config.qualities || []).map((q) => [q, q])], (v) => setKey("quality", v || null))),
        el("label", { class: "oob-field" }, el("input", { type: "checkbox", checked: u.leader, "aria-label": "leader", onchange: (e) => setKey("leader", e.target.checked) }), " Leader"),
        labelled("Formation", el("input", { type: "text", value: u.formation || "", "aria-label": "formation", onchange: (e) => setKey("formation", e.target.value || null) })),
        el("label", { class: "oob-field" }, el("input", { type: "checkbox", checked: u.hidden, "aria-label": "hidden", onchange: (e) => setKey("hidden", e.target.checked) }), " Hidden"),
        ...extra.map((k) => oobField(ed, k, u[k], (v) => setKey(k, v), side.oob.filter((o) => o.id !== u.id))))));
    table.append(row, more);
  });
  box.append(el("div", { class: "oob-wrap" }, table), el("button", { type: "button", id: "add-unit", onclick: () => addUnit(ed) }, "+ Unit"));
  box.append(el("p", { class: "muted" }, "Click a row (outside its fields) to pick it for the Place tool, or drag it onto the map."));
  // Reinforcements by turn.
  box.append(el("h3", {}, "Reinforcements"));
  const list = el("ol", { id: "reinforcements" });
  side.reinforcements.map((r, k) => [r, k]).sort((a, b) => a[0].turn - b[0].turn).forEach(([r, k]) => {
    const rp = `${path}.reinforcements[${k}]`;
    const units = el("span", { class: "row" });
    r.units.forEach((g, n) => units.append(
      selectBare(g.unit, side.oob.map((u) => [u.id, u.unit + (u.name ? ` (${u.name})` : "")]), (v) => ed.set(`${rp}.units[${n}].unit`, v)),
      el("input", { type: "number", min: 1, value: g.count, "aria-label": "count", onchange: (e) => ed.set(`${rp}.units[${n}].count`, numberOrNull(e.target.value)) })));
    list.append(el("li", { class: ed.selectedReinforcement === k ? "selected" : "" },
      el("span", { class: "row" },
        el("label", {}, el("input", { type: "radio", name: "reinforcement", checked: ed.selectedReinforcement === k, onchange: () => { ed.selectedReinforcement = k; ed.useTool("entry"); } }), " Turn"),
        el("input", { type: "number", min: 0, value: r.turn, "aria-label": "turn", onchange: (e) => ed.set(`${rp}.turn`, numberOrNull(e.target.value)) }),
        selectBare(r.edge, [["", "no edge"], ...EDGES], (v) => ed.set(`${rp}.edge`, v || null)),
        el("button", { type: "button", class: "small", onclick: () => ed.send([{ op: "remove", path: rp }], "remove a reinforcement") }, "✕")),
      units,
      el("button", { type: "button", class: "small", onclick: () => ed.send([{ op: "insert", path: `${rp}.units`, value: { unit: side.oob[0].id, count: 1 } }], "add units") }, "+ units"),
      el("div", { class: "muted" }, r.hexes?.length ? `entry hexes ${r.hexes.join(", ")}` : "no entry hexes (use the Entry tool)")));
  });
  box.append(list, el("button", { type: "button", id: "add-reinforcement", disabled: !side.oob.length, onclick: () => ed.send([{ op: "insert", path: `${path}.reinforcements`, value: { turn: 2, units: [{ unit: side.oob[0].id, count: 1 }], edge: "W", hexes: [] } }], "add a reinforcement") }, "+ Reinforcement"));
  box.append(victoryBuilder(ed, i));
  if (ed.capabilities.side_briefs) {
    box.append(el("h3", {}, "Secret brief"),
      field("Mission", side.brief.mission, (v) => ed.set(`${path}.brief`, { ...side.brief, mission: v }), { type: "textarea" }),
      field("Intelligence report", side.brief.intelligence, (v) => ed.set(`${path}.brief`, { ...side.brief, intelligence: v }), { type: "textarea" }));
  }
  if (ed.canEdit) box.append(el("p", {}, el("button", { type: "button", onclick: () => { if (confirm(`Remove ${side.name}?`)) removeSide(ed, i); } }, `Remove ${side.name}`)));
  return box;
}

// A game's own OOB field (ATS's dummy, its VP), drawn as the catalogue's spec says: a checkbox, a number...
function oobField(ed, key, value, onchange, others) {
  const spec = (ed.config.fieldSpecs?.oob || {})[key] || {};
  const label = spec.type === "unit"   // another unit of the side (TOCS's parent HQ), chosen, not its id typed
    ? select(key.replaceAll("_", " "), value, [["", "—"], ...others.map((o) => [o.id, o.name ? `${o.unit} (${o.name})` : o.unit])], onchange)
    : freeField(key, value, onchange, (m) => ed.banner(m), spec);
  label.classList.add("oob-field");
  if (spec.means) label.title = spec.means;
  label.querySelector("input, select")?.setAttribute("aria-label", key);
  return label;
}

function withheldWords(w) {
  const parts = [["brief", "its brief"], ["victory", "its victory conditions"], ["setup_zone", "its setup zone"],
                 ["fields", "its side values"]].filter(([k]) => w[k]).map(([, words]) => words);
  if (w.units) parts.push(`${w.units} hidden unit${w.units === 1 ? "" : "s"}`);
  if (w.markers) parts.push(`${w.markers} hidden marker${w.markers === 1 ? "" : "s"}`);
  return parts.join(", ");
}

// A unit as the scenario format writes it back (defaults filled in), so that it shows at once as it will be kept.
function newUnit(ed, id, unit) {
  return { id, unit, name: "", count: 1, class: (ed.config.unitClasses || [])[0] ?? null, quality: null, leader: false,
           weapons: [], formation: null, hidden: false, notes: "" };
}

export function addSide(ed) {
  const ids = ed.doc.sides.map((s) => s.id), n = ed.doc.sides.length + 1;
  const colours = ["#3b5b92", "#9b3b2f", "#4f7a3a", "#7a4f9a"];
  const side = { id: freshId("side", ids), name: `Side ${n}`, nationality: "", colour: colours[(n - 1) % colours.length],
                 fields: {}, oob: [newUnit(ed, "unit-1", "Infantry squad")], setup_zone: [], placements: [],
                 reinforcements: [], victory: null, brief: { mission: "", intelligence: "" } };
  ed.tab = ed.doc.sides.length;
  ed.send([{ op: "insert", path: "sides", value: side }], "add a side");
}

export function removeSide(ed, i) {
  const id = ed.doc.sides[i].id, ops = [];
  ed.doc.objectives.forEach((o, k) => { if (o.owner === id) ops.push({ op: "set", path: `objectives[${k}].owner`, value: null }); });
  ed.doc.markers.forEach((m, k) => { if (m.side === id) ops.push({ op: "set", path: `markers[${k}].side`, value: null }); });
  for (const key of ["sets_up_first", "moves_first"]) if (ed.doc[key] === id) ops.push({ op: "set", path: key, value: null });
  if (ed.doc.perimeter && ed.doc.perimeter[id]) { const p = { ...ed.doc.perimeter }; delete p[id]; ops.push({ op: "set", path: "perimeter", value: p }); }
  ops.push({ op: "remove", path: `sides[${i}]` });
  ed.tab = "scenario";
  ed.send(ops, `remove ${ed.doc.sides[i].name}`);
}

export function addUnit(ed) {
  const side = ed.side, id = freshId("unit", side.oob.map((u) => u.id));
  ed.selectedUnit = id;
  ed.send([{ op: "insert", path: `sides[${ed.sideIndex}].oob`, value: newUnit(ed, id, "New unit") }], "add a unit");
}

export function copyUnit(ed, j) {
  const side = ed.side, copy = clone(side.oob[j]);
  copy.id = freshId(copy.id.replace(/-\d+$/, ""), side.oob.map((u) => u.id));
  ed.send([{ op: "insert", path: `sides[${ed.sideIndex}].oob`, index: j + 1, value: copy }], `copy ${side.oob[j].id}`);
}

export function removeUnit(ed, j) {
  const side = clone(ed.side), id = side.oob[j].id;
  side.oob.splice(j, 1);
  side.placements = side.placements.filter((p) => p.unit !== id);
  side.reinforcements = side.reinforcements.map((r) => ({ ...r, units: r.units.filter((u) => u.unit !== id) }))
    .filter((r) => r.units.length);
  ed.send([{ op: "set", path: `sides[${ed.sideIndex}]`, value: side }], `remove ${id}`);
}
