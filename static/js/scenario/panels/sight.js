// @ts-check
// The sight lines (a background job): per side, a sentence of what its setup zone sees; the chosen side's dead
// ground and the enemy setup hexes it sees drawn on the map.
import { urls } from "../../lib/api.js";
import { $, el } from "../../lib/dom.js";
import { runJob } from "../../lib/jobs.js";

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
      el("button", { type: "button", onclick: () => { ed.sight = null; box.replaceChildren(); ed.view.request(); } }, "Hide"));
    document.body.dataset.sight = "1";
  } catch (err) {
    box.textContent = `The sight lines could not be worked out: ${err.message}`;
  }
  ed.view.request();
}
