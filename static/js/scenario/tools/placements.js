// @ts-check
// Counters: place the picked OOB unit in a hex (also by dragging its row onto the map), take the side's last
// counter off a hex, turn the side's top counter there to the next facing.

export function placeUnit(ed, unitId, hex) {
  const label = ed.label(...hex), value = { unit: unitId, hex: label };
  if (ed.facing != null) value.facing = ed.facing;
  const unit = ed.side.oob.find((u) => u.id === unitId);   // named as the OOB names it, not by its id ("sq")
  const name = unit ? (unit.name ? `${unit.unit} (${unit.name})` : unit.unit) : "a unit";
  ed.send([{ op: "insert", path: `sides[${ed.sideIndex}].placements`, value }], `place ${name} in ${label}`);
}

// The side's counters in a hex, with their indexes in its placements.
const countersIn = (ed, label) => ed.side.placements.map((p, i) => [p, i]).filter(([p]) => p.hex === label);

function needSide(ed) {
  if (!ed.side) ed.banner("Add a side first (+ Side).");
  return !!ed.side;
}

export const place = {
  id: "place", name: "Place unit", edit: true, note: "Pick a unit in the OOB (or drag its row onto the map), then click a hex.",
  click({ editor: ed, hex }) {
    if (!needSide(ed)) return;
    if (!ed.selectedUnit) { ed.banner("Pick a unit in the side's OOB first (click its row)."); return; }
    placeUnit(ed, ed.selectedUnit, hex);
  },
};

export const remove = {
  id: "remove", name: "Remove unit", edit: true, note: "Click a hex to take the side's last counter off it.",
  click({ editor: ed, hex }) {
    if (!needSide(ed)) return;
    const label = ed.label(...hex), at = countersIn(ed, label);
    if (at.length) ed.send([{ op: "remove", path: `sides[${ed.sideIndex}].placements[${at.at(-1)[1]}]` }], `remove a counter from ${label}`);
  },
};

export const turn = {
  id: "turn", name: "Turn unit", edit: true, note: "Click a hex to turn the side's top counter there to the next facing.",
  click({ editor: ed, hex }) {
    if (!needSide(ed)) return;
    const label = ed.label(...hex), at = countersIn(ed, label);
    if (!at.length) return;
    const [p, i] = at.at(-1), all = ed.facings(), k = all.indexOf(p.facing);
    ed.set(`sides[${ed.sideIndex}].placements[${i}].facing`, all[(k + 1) % all.length], `turn ${p.unit} in ${label}`);
  },
};
