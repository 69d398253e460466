// @ts-check
// What the scenario editor draws over the map: the play area, TOCS perimeters, setup zones, sight lines, entry
// hexes, markers, objectives, counters (stacks fan out) and the checks' findings, all from the local document.
import { toolContext } from "../canvas/tools.js";
import { abbreviation } from "./forms.js";
import { outsideZones } from "./zones.js";
import { drawHeat } from "../canvas/heatmap.js";

export function drawScenario(ctx, ed) {
  const view = ed.view, g = ed.grid, res = view.scale;
  const outline = (hexes, colour, width, dash) => {
    ctx.beginPath();
    for (const [c, r] of hexes) view.hexPath(ctx, c, r, -0.06);
    ctx.setLineDash(dash || []); ctx.lineWidth = width / res; ctx.strokeStyle = colour; ctx.stroke(); ctx.setLineDash([]);
  };
  const hexes = (refs) => refs.map((r) => ed.hexOf(r)).filter(Boolean);
  // The play area: everything outside it greyed.
  if (ed.doc.play_area) {
    const [a, b] = ed.doc.play_area.corners.map((r) => ed.hexOf(r));
    if (a && b) {
      const outside = [];
      for (let c = 0; c < g.columns; c++) for (let r = 0; r < g.rows; r++) {
        if (c < Math.min(a[0], b[0]) || c > Math.max(a[0], b[0]) || r < Math.min(a[1], b[1]) || r > Math.max(a[1], b[1])) outside.push([c, r]);
      }
      ctx.globalAlpha = 0.45;
      view.fillHexes(ctx, outside, (c) => { c.fillStyle = "#f4f1ea"; c.fill(); });
      ctx.globalAlpha = 1;
    }
  }
  // TOCS perimeter: each side's hexes hatched lightly in its colour.
  if (ed.doc.perimeter) {
    for (const side of ed.doc.sides) {
      ctx.globalAlpha = 0.1;
      view.fillHexes(ctx, hexes(ed.doc.perimeter[side.id] || []), (c) => { c.fillStyle = side.colour; c.fill(); });
      ctx.globalAlpha = 1;
    }
  }
  // Setup zones, in each side's colour.
  ed.doc.sides.forEach((side, i) => {
    ctx.globalAlpha = i === ed.sideIndex ? 0.33 : 0.18;
    view.fillHexes(ctx, hexes(side.setup_zone), (c) => { c.fillStyle = side.colour; c.fill(); });
    ctx.globalAlpha = 1;
    if (i === ed.sideIndex) outline(hexes(side.setup_zone), side.colour, 2);
  });
  if (ed.tool && ed.tool.preview) ed.tool.preview(ctx, toolContext(ed, ed.view));
  // Exposure: how many of a side's setup hexes (or units) see each hex, with its legend beside the map.
  if (ed.sight && ed.sightHeat) drawHeat(ctx, view, g, ed.sightHeat.values, { min: 0, max: ed.sightHeat.max });
  // Sight lines of the chosen side: dead ground shaded, what it sees ringed.
  if (ed.sight && ed.sightSide && ed.sight.sides[ed.sightSide] && !ed.sightHeat) {
    const s = ed.sight.sides[ed.sightSide];
    ctx.globalAlpha = 0.35;
    view.fillHexes(ctx, hexes(s.dead_ground), (c) => { c.fillStyle = "#1d1d1d"; c.fill(); });
    ctx.globalAlpha = 1;
    outline(hexes(s.enemy_setup.seen), "#e69f00", 2.5, [4 / res, 3 / res]);
  }
  // Entry hexes of every reinforcement, as arrows into the map.
  ed.doc.sides.forEach((side) => {
    for (const r of side.reinforcements) {
      for (const [c, rr] of hexes(r.hexes)) {
        const [x, y] = g.centre(c, rr);
        ctx.beginPath(); ctx.moveTo(x - 0.45, y - 0.3); ctx.lineTo(x + 0.1, y); ctx.lineTo(x - 0.45, y + 0.3);
        ctx.lineWidth = 3 / res; ctx.strokeStyle = side.colour; ctx.stroke();
      }
    }
  });
  // Markers: a small diamond with the kind's first letters.
  ctx.textAlign = "center"; ctx.textBaseline = "middle";
  const atHex = new Map();
  for (const m of ed.doc.markers) {
    const h = ed.hexOf(m.hex); if (!h) continue;
    const k = h.join(","), n = atHex.get(k) || 0; atHex.set(k, n + 1);
    const [x, y] = g.centre(...h), mx = x + 0.45 - n * 0.3, my = y + 0.5;
    ctx.beginPath(); ctx.moveTo(mx, my - 0.2); ctx.lineTo(mx + 0.2, my); ctx.lineTo(mx, my + 0.2); ctx.lineTo(mx - 0.2, my);
    ctx.closePath(); ctx.fillStyle = "#fff7d6"; ctx.fill(); ctx.lineWidth = 1.5 / res; ctx.strokeStyle = "#4a3b1a"; ctx.stroke();
    ctx.font = `bold ${Math.max(7, 0.16 * res) / res}px system-ui`; ctx.fillStyle = "#4a3b1a";
    ctx.fillText(m.kind.slice(0, 2).toUpperCase(), mx, my);
  }
  // Objectives: a ring in the first owner's colour with a star.
  for (const o of ed.doc.objectives) {
    const h = ed.hexOf(o.hex); if (!h) continue;
    const [x, y] = g.centre(...h), owner = ed.doc.sides.find((s) => s.id === o.owner);
    ctx.beginPath(); ctx.arc(x, y, 0.62, 0, 2 * Math.PI);
    ctx.fillStyle = "rgba(255, 214, 64, 0.35)"; ctx.fill();
    ctx.lineWidth = 6 / res; ctx.strokeStyle = "#d4a017"; ctx.stroke();
    ctx.lineWidth = 2.5 / res; ctx.strokeStyle = owner ? owner.colour : "#777777"; ctx.stroke();
    if (ed.sight && ed.sightSide) {
      const row = (ed.sight.sides[ed.sightSide].objectives || []).find((r) => r.id === o.id);
      if (row) { ctx.beginPath(); ctx.arc(x, y, 0.75, 0, 2 * Math.PI); ctx.lineWidth = 3 / res;
                 ctx.strokeStyle = row.seen ? "#009e73" : "#d55e00"; ctx.stroke(); }
    }
    ctx.font = `bold ${Math.max(9, 0.36 * res) / res}px system-ui`; ctx.fillStyle = "#8a6a00";
    ctx.fillText("★", x, y - 0.4);
  }
  // Counters: one per placement; a stack fans out up and to the right.
  const stacks = new Map();
  ed.doc.sides.forEach((side) => {
    const units = new Map(side.oob.map((u) => [u.id, u]));
    for (const p of side.placements) {
      const h = !p.off_map && ed.hexOf(p.hex); if (!h) continue;  // an off-map unit is not on the map (004 L506)
      const k = h.join(",");
      if (!stacks.has(k)) stacks.set(k, []);
      stacks.get(k).push({ side, unit: units.get(p.unit) || { unit: p.unit }, facing: p.facing });
    }
  });
  const size = 0.62;
  for (const [k, stack] of stacks) {
    const [c, r] = k.split(",").map(Number), [x, y] = g.centre(c, r);
    stack.forEach((item, n) => {
      const cx = x - size / 2 - 0.12 + n * 0.16, cy = y - size / 2 + 0.08 - n * 0.16;
      ctx.fillStyle = item.side.colour; ctx.fillRect(cx, cy, size, size);
      ctx.lineWidth = 1.2 / res; ctx.strokeStyle = "#111"; ctx.strokeRect(cx, cy, size, size);
      ctx.fillStyle = "#fff"; ctx.font = `bold ${Math.max(7, 0.2 * res) / res}px system-ui`;
      ctx.fillText(abbreviation(item.unit), cx + size / 2, cy + size / 2);
      if (item.unit.leader) { ctx.fillText("★", cx + size / 2, cy + 0.12); }
      if (item.facing != null) {
        const angle = facingAngle(g, item.facing), mx = cx + size / 2, my = cy + size / 2;
        const tip = [mx + Math.cos(angle) * size * 0.62, my + Math.sin(angle) * size * 0.62];
        const side = (a) => [mx + Math.cos(a) * size * 0.36, my + Math.sin(a) * size * 0.36];
        ctx.beginPath(); ctx.moveTo(...tip); ctx.lineTo(...side(angle + 0.5)); ctx.lineTo(...side(angle - 0.5)); ctx.closePath();
        ctx.fillStyle = "#ffd84d"; ctx.fill(); ctx.lineWidth = 1 / res; ctx.strokeStyle = "#111"; ctx.stroke();
      }
    });
  }
  // Counters outside their side's setup zone: a dashed red ring and a "!" at once, before any check is run.
  const astray = ed.astray || outsideZones(ed.doc);
  for (const a of astray) {
    const h = ed.hexOf(a.hex); if (!h) continue;
    outline([h], "#d00000", 3.5, [5 / res, 3 / res]);
    const [x, y] = g.centre(...h);
    ctx.beginPath(); ctx.arc(x + 0.5, y - 0.45, 0.2, 0, 2 * Math.PI); ctx.fillStyle = "#d00000"; ctx.fill();
    ctx.fillStyle = "#fff"; ctx.font = `bold ${Math.max(8, 0.3 * res) / res}px system-ui`;
    ctx.fillText("!", x + 0.5, y - 0.44);
  }
  // Findings: every hex named by a finding outlined in red; the chosen one thicker.
  const found = ed.findings.filter((f) => f.hex).map((f) => ed.hexOf(f.hex)).filter(Boolean);
  outline(found, "#d00000", 3);
  if (ed.activeFinding && ed.activeFinding.hex) {
    const h = ed.hexOf(ed.activeFinding.hex);
    if (h) outline([h], "#d00000", 7);
  }
}

// The direction (radians, y downward) of a facing: a hexside's middle, or an Assault vertex (a corner).
export function facingAngle(grid, facing) {
  const flat = grid.flat;
  if (typeof facing === "number") return ((flat ? 240 : 270) + 60 * facing) * Math.PI / 180;   // corner i
  const i = grid.sides.indexOf(facing);
  return ((flat ? 270 : 300) + 60 * i) * Math.PI / 180;   // between corners i and i + 1
}
