// @ts-check
// Objectives: click a hex to add one there (its first owner: the side whose setup zone holds it), or to remove
// the one there (not while a victory condition names it).
import { freshId } from "../forms.js";

export function removeObjective(ed, i) {
  const id = ed.doc.objectives[i].id;
  const used = ed.doc.sides.some((s) => JSON.stringify(s.victory || {}).includes(`"${id}"`));
  if (used) { ed.banner(`Objective ${id} is named by a victory condition: remove the condition first.`); return; }
  ed.send([{ op: "remove", path: `objectives[${i}]` }], `remove objective ${id}`);
}

export const objective = {
  id: "objective", name: "Objective", edit: true, note: "Click a hex to add an objective there, or remove the one there.",
  click({ editor: ed, hex }) {
    const label = ed.label(...hex), d = ed.doc, i = d.objectives.findIndex((o) => o.hex === label);
    if (i >= 0) { removeObjective(ed, i); return; }
    const id = freshId("obj", d.objectives.map((o) => o.id));
    const owner = (d.sides.find((side) => side.setup_zone.includes(label)) || {}).id || null;
    ed.send([{ op: "insert", path: "objectives", value: { id, hex: label, name: `Objective ${d.objectives.length + 1}`, owner } }],
            `objective in ${label}`);
  },
};
