// @ts-check
// The sight lines (a background job): per side, a sentence of what its setup zone sees; the chosen side's dead
// ground and the enemy setup hexes it sees drawn on the map.
import { urls } from "../../lib/api.js";
import { $, el } from "../../lib/dom.js";
import { runJob } from "../../lib/jobs.js";
import { showLegend } from "../../canvas/heatmap.js";

export async function runSight(ed) {
  const box = $("#sight");
  $("#sight-panel").open = true;
  box.textContent = "Working out the sight lines…";
  try {
    const job = await runJob(urls.scenarioJob("sight-lines", ed.id), undefined, (j) => ed.progress.show(j));
    ed.sight = job.result;
    ed.sightSide = ed.sightSide && ed.sight.sides[ed.sightSide] ? ed.sightSide : Object.keys(ed.sight.sides)[0];
    box.replaceChildren(...Object.entries(ed.sight.sides).map(([id, s]) => el("div", { class: "sentence" },
      el("label", {}, el("input", { type: "radio", name: "sight-side", value: id, checked: id === ed.sightSide,
                                    onchange: () => { ed.sightSide = id; ed.view.request(); } }), ` ${s.sentence}`))),
      el("p", {}, `${ed.sight.dead_ground_to_all.length} hexes of the play area are seen from no side's setup zone.`),
      el("p", { class: "muted" }, "Dark: dead ground to the chosen side's setup zone. Rings: objectives seen (green) or not (red); dashed orange: enemy setup hexes it sees."),
      ...questions(ed),
      el("button", { type: "button", onclick: () => { ed.sight = null; ed.sightHeat = null; $("#sight-legend").hidden = true; box.replaceChildren(); ed.view.request(); } }, "Hide"));
    document.body.dataset.sight = "1";
  } catch (err) {
    box.textContent = `The sight lines could not be worked out: ${err.message}`;
  }
  ed.view.request();
}

// The objective and zone questions (engine/scenarios/questions.py): who sees each objective, which pairs of two
// setup zones see each other and what blocks the others, and a heat map of each side's exposure.
function questions(ed) {
  const q = ed.sight.questions;
  if (!q) return [];
  const names = Object.fromEntries(ed.doc.sides.map((s) => [s.id, s.name]));
  const choices = [el("option", { value: "" }, "off")];
  for (const id of Object.keys(q.exposure)) {
    choices.push(el("option", { value: `${id}:setup_zone` }, `seen from ${names[id]}'s setup zone`));
    if (q.exposure[id].units.observers) choices.push(el("option", { value: `${id}:units` }, `seen from ${names[id]}'s units`));
  }
  const select = el("select", { id: "sight-heat", onchange: (e) => showHeat(ed, e.target.value) }, ...choices);
  const objectives = [];
  for (const [id, rows] of Object.entries(q.objectives)) {
    for (const [k, row] of rows.setup_zone.entries()) {
      const units = rows.units[k];
      objectives.push(el("li", {}, `${row.name} (${row.hex}): seen from ${row.count} ${names[id]} setup hex${row.count === 1 ? "" : "es"}`
        + `${row.count ? ` (${row.hexes.slice(0, 12).join(", ")}${row.count > 12 ? ", …" : ""})` : ""}`
        + `${units && units.count ? `; by ${units.count} of its placed units' hexes` : ""}.`));
    }
  }
  const zones = q.zones.map((z) => el("li", {}, `${names[z.sides[0]]} and ${names[z.sides[1]]}: ${z.intervisible} of ${z.pairs} pairs `
    + `of setup hexes see each other${z.blockers.length ? `; blocking most of the others: ${z.blockers.slice(0, 5).map((b) => `${b.where} (${b.pairs})`).join(", ")}`
      + (z.blocked_read < z.blocked ? ` (from ${z.blocked_read} of ${z.blocked} blocked pairs)` : "") : ""}.`));
  return [el("p", {}, el("label", {}, "Heat map ", select)), el("h4", {}, "Objectives"), el("ul", { class: "compact", id: "sight-objectives" }, ...objectives),
          el("h4", {}, "Between the setup zones"), el("ul", { class: "compact", id: "sight-zones" }, ...zones)];
}

function showHeat(ed, value) {
  if (!value) { ed.sightHeat = null; $("#sight-legend").hidden = true; ed.view.request(); return; }
  const [id, which] = value.split(":"), data = ed.sight.questions.exposure[id][which];
  const values = new Map();
  for (const [label, count] of Object.entries(data.hexes)) values.set(label, count);
  ed.sightHeat = { values, max: Math.max(1, data.highest) };
  showLegend($("#sight-legend"), 0, ed.sightHeat.max, `${which === "units" ? "unit hexes" : "setup hexes"} of ${ed.doc.sides.find((s) => s.id === id).name} that see the hex`);
  document.body.dataset.sightHeat = String(values.size);
  ed.view.request();
}
