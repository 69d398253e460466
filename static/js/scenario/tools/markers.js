// @ts-check
// Markers (the kind chosen in the toolbar: click to place, click again to remove) and the entry hexes of the
// reinforcement picked in the side's schedule (click to add or remove).

export const marker = {
  id: "marker", name: "Marker", edit: true, note: "Click a hex to place the marker chosen below; click a marker to remove it.",
  click({ editor: ed, hex }) {
    const label = ed.label(...hex), kind = ed.markerKind, i = ed.doc.markers.findIndex((m) => m.hex === label && m.kind === kind);
    if (i >= 0) ed.send([{ op: "remove", path: `markers[${i}]` }], `remove ${kind} from ${label}`);
    else ed.send([{ op: "insert", path: "markers", value: { kind, hex: label, side: ed.side ? ed.side.id : null, facing: ed.facing ?? null } }],
                 `${kind} in ${label}`);
  },
};

export const entry = {
  id: "entry", name: "Entry hexes", edit: true, note: "Click hexes to add or remove entry hexes of the selected reinforcement.",
  click({ editor: ed, hex }) {
    if (!ed.side) { ed.banner("Add a side first (+ Side)."); return; }
    const label = ed.label(...hex), k = ed.selectedReinforcement, r = ed.side.reinforcements[k];
    if (!r) { ed.banner("Add a reinforcement to this side first, then pick it in the schedule."); return; }
    const hexes = r.hexes.includes(label) ? r.hexes.filter((h) => h !== label) : [...r.hexes, label];
    ed.set(`sides[${ed.sideIndex}].reinforcements[${k}].hexes`, hexes, `entry hex ${label}`);
  },
};
