// @ts-check
// Placements outside their side's setup zone, found on the local document at every change (the scenario
// checks' "setup-outside-zone", engine/scenarios/checks/common.py, said at once rather than at "Run checks"):
// drawn on the map (layer.js) and listed above the tabs, each naming the unit, the hex and the side.

// [{side, sideIndex, index, hex, message}] for every placement on the map outside a non-empty setup zone.
export function outsideZones(doc) {
  const out = [];
  doc.sides.forEach((side, sideIndex) => {
    const zone = new Set(side.setup_zone || []);
    if (!zone.size) return;   // no zone: the unit may set up anywhere the play area allows
    const units = new Map(side.oob.map((u) => [u.id, u]));
    side.placements.forEach((p, index) => {
      if (p.off_map || zone.has(p.hex)) return;   // off the map is reckoned from its hex (004 L506)
      const u = units.get(p.unit), who = u ? (u.name ? `${u.unit} (${u.name})` : u.unit) : p.unit;
      out.push({ side, sideIndex, index, hex: p.hex,
                 message: `${side.name}: ${who} sets up in ${hexName(doc, p.hex)}, outside ${side.name}'s setup zone` });
    });
  });
  return out;
}

// "C4", or "D3 on East board" for a hex of another map than the main one ("east:D3").
export function hexName(doc, ref) {
  const at = ref.indexOf(":");
  if (at < 0) return ref;
  const key = ref.slice(0, at), entry = doc.maps.find((m) => m.key === key);
  const name = entry ? entry.name || (entry.document && entry.document.name) || key : key;
  return `${ref.slice(at + 1)} on ${name}`;
}
