// @ts-check
// The scenario tab: title and the other metadata, the play area, the game's rules, the objectives table and the
// special rules. Every field writes one `set` edit when it changes.
import { el } from "../../lib/dom.js";
import { field, freeField, numberOrNull, select, selectBare } from "../forms.js";
import { removeObjective } from "../tools/objectives.js";
import { rulesBlock } from "./rules.js";

export function scenarioPanel(ed) {
  const sidesOf = () => ed.doc.sides.map((s) => [s.id, s.name]);
  const free = (k, v, fn) => {
    const spec = (ed.config.fieldSpecs?.rules || {})[k] || {};
    return freeField(k, v, fn, (m) => ed.banner(m), spec.type === "side-ids" ? { ...spec, sides: sidesOf() } : spec);
  };
  const d = ed.doc, sides = [["", "a roll decides"], ...d.sides.map((s) => [s.id, s.name])];
  const box = el("div", { id: "scenario-panel" });
  box.append(el("h3", {}, "Scenario"),
    field("Title", d.title, (v) => ed.set("title", v), { name: "title" }),
    field("Subtitle", d.subtitle, (v) => ed.set("subtitle", v)),
    el("div", { class: "fields" }, field("Date", d.date, (v) => ed.set("date", v)),
       field("Place", d.place, (v) => ed.set("place", v)),
       field("Designer", d.designer, (v) => ed.set("designer", v)),
       field("Play area from", d.play_area ? d.play_area.corners[0] : "", (v) => setPlayArea(ed, 0, v), { name: "area-from", placeholder: "whole map" }),
       field("to", d.play_area ? d.play_area.corners[1] : "", (v) => setPlayArea(ed, 1, v), { name: "area-to", placeholder: "whole map" }),
       field("Turns", d.turns.count, (v) => ed.set("turns", { ...d.turns, count: v }), { type: "number", min: 1, name: "turns", placeholder: "not fixed" }),
       field("The game ends", d.turns.end || "", (v) => { const t = { ...d.turns, end: v }; if (!v) delete t.end; ed.set("turns", t); },
             { name: "turns-end", placeholder: "when … (where the turns are not fixed)" }),
       select("Track counts", d.turns.counts, [["up", "up"], ["down", "down (OST)"]], (v) => ed.set("turns", { ...d.turns, counts: v })),
       select("Sets up first", d.sets_up_first, sides, (v) => ed.set("sets_up_first", v)),
       select("Moves first", d.moves_first, sides, (v) => ed.set("moves_first", v)),
       field("Weather", d.environment.weather, (v) => ed.set("environment", { ...d.environment, weather: v })),
       field("Night", d.environment.night, (v) => ed.set("environment", { ...d.environment, night: v }), { type: "checkbox" }),
       field("Visibility (hexes)", d.environment.visibility, (v) => ed.set("environment", { ...d.environment, visibility: v }), { type: "number", min: 1 })),
    field("Historical introduction", d.introduction, (v) => ed.set("introduction", v), { type: "textarea", rows: 4 }));
  if (ed.inchesPerHex) {
    box.append(el("p", { class: "muted", id: "inches" }, `1 hex = ${ed.inchesPerHex}" on the table (1" = 25 yards); `
      + "the status line gives the distance in inches from the last hex clicked."));
  }
  if ((ed.config.rulesFields || []).length) {
    box.append(el("h3", {}, `${ed.ruleset.name} rules`),
               el("div", { class: "fields" }, ...ed.config.rulesFields.map((k) => free(k, d.rules[k], (v) => {
                 const rules = { ...d.rules }; if (v === null) delete rules[k]; else rules[k] = v; ed.set("rules", rules, `rules ${k}`);
               }))));
  }
  box.append(el("h3", {}, "Objectives and control hexes"));
  const table = el("table", { class: "oob" }, el("tr", {}, ...["Hex", "Name", "Kind", "First owner", "VP", ""].map((h) => el("th", {}, h))));
  d.objectives.forEach((o, i) => {
    const path = `objectives[${i}]`;
    table.append(el("tr", {},
      el("td", {}, o.hex),
      el("td", {}, el("input", { type: "text", value: o.name, onchange: (e) => ed.set(`${path}.name`, e.target.value) })),
      el("td", {}, selectBare(o.kind, [["objective", "objective"], ["control", "control"]], (v) => ed.set(`${path}.kind`, v))),
      el("td", {}, selectBare(o.owner, [["", "neutral"], ...d.sides.map((s) => [s.id, s.name])], (v) => ed.set(`${path}.owner`, v || null))),
      el("td", {}, el("input", { type: "number", value: o.vp, onchange: (e) => ed.set(`${path}.vp`, numberOrNull(e.target.value)) })),
      el("td", {}, el("button", { type: "button", class: "small", title: "Remove", onclick: () => removeObjective(ed, i) }, "✕"))));
  });
  box.append(d.objectives.length ? table : el("p", { class: "muted" }, "None yet: use the Objective tool on the map."));
  box.append(...rulesBlock(ed));
  return box;
}

// The play area is the rectangle between two corner hexes; both empty is the whole map.
function setPlayArea(ed, which, label) {
  const g = ed.mainGrid || ed.grid, corners = ed.doc.play_area ? [...ed.doc.play_area.corners]
    : [g.label(0, 0), g.label(g.columns - 1, g.rows - 1)];
  corners[which] = label.trim().toUpperCase();
  const whole = corners.every((c) => !c);
  return ed.set("play_area", whole ? null : { corners }, "play area");
}
