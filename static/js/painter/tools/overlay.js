// @ts-check
// Overlays: stamp a template (one of the map's overlays, or one made by dragging across hexes) at a hex,
// turned in 60° steps; move an overlay by dragging it; name, remove or rotate one on the map. Names are what
// the map and its prints show; ids ("sel-1") stay internal.
import { hexRectangle } from "./rectangle.js";
import { outlineHexes } from "./common.js";

// An overlay template from the painted hexes (and hexsides) of a selection, anchored at its first hex.
export function templateFrom(model, hexes) {
  const g = model.grid, [anchor] = hexes, [aq, ar] = g.toAxial(...anchor), keys = new Set(hexes.map((h) => g.key(...h)));
  const entries = hexes.map(([c, r]) => {
    const [q, rr] = g.toAxial(c, r), cell = model.cell(c, r);
    const e = { hex: [q - aq, rr - ar], terrain: cell.terrain, level: cell.level };
    if (cell.storeys > 1) e.storeys = cell.storeys;
    return e;
  });
  const sides = [];
  for (const [key, terrain] of model.hexsides) {
    const [c, r, i] = key.split(",").map(Number);
    if (!keys.has(g.key(c, r))) continue;
    const [q, rr] = g.toAxial(c, r);
    sides.push({ hex: [q - aq, rr - ar], side: g.sides[i], terrain });
  }
  return { hexes: entries, hexsides: sides };
}

function overlayAt(model, col, row) {
  for (let i = model.overlays.length - 1; i >= 0; i--) {
    if (model.overlayHexes(model.overlays[i]).some(([c, r]) => c === col && r === row)) return model.overlays[i];
  }
  return null;
}

export function freshId(model, base) {
  const ids = new Set(model.overlays.map((o) => o.id));
  for (let n = 1; ; n++) if (!ids.has(`${base}-${n}`)) return `${base}-${n}`;
}

// The name a new stamp takes: the Name box's, made unique on the map ("Farmhouse", "Farmhouse 2", ...).
export function freshName(model, name) {
  const clean = name.split(/\s+/).filter(Boolean).join(" ");
  if (!clean) return "";
  const used = new Set(Object.values(model.overlayNames));
  if (!used.has(clean)) return clean;
  for (let n = 2; ; n++) if (!used.has(`${clean} ${n}`)) return `${clean} ${n}`;
}

export const overlay = {
  id: "overlay", name: "Overlay", key: "o", edit: true,
  title: "Overlays (O): stamp the chosen template, make one by dragging across hexes, move, rotate (Q), name or remove",
  /** @type {{from: number[], to: number[]} | null} */
  select: null,
  /** @type {{overlay: any, from: number[], to: number[]} | null} */
  moving: null,
  /** @type {number[] | null} */
  cursor: null,
  down({ editor: p, hex: h }) {
    const o = p.options, m = p.model;
    if (o.overlayMode === "select") { this.select = { from: h, to: h }; return; }
    const hit = overlayAt(m, ...h);
    const title = hit && (m.overlayTitle(hit) || "the overlay");
    if (o.overlayMode === "remove") { if (hit) p.commit([{ op: "remove_overlay", id: hit.id }], `remove ${title}`); return; }
    if (o.overlayMode === "name") {
      if (!hit) { p.say("click an overlay to give it the name in the Name box"); return; }
      p.commit([{ op: "name_overlay", id: hit.id, name: o.overlayName }], `name ${title} "${o.overlayName.trim()}"`);
      return;
    }
    if (o.overlayMode === "rotate") {
      if (hit) p.commit([{ op: "move_overlay", id: hit.id, rotation: ((hit.rotation || 0) + 1) % 6 }], `rotate ${title}`);
      return;
    }
    if (o.overlayMode === "move") { if (hit) this.moving = { overlay: hit, from: h, to: h }; return; }
    const t = p.template();
    if (!t || !p.grid.contains(...h)) { p.say("choose an overlay template first (make one from a selection)"); return; }
    const id = freshId(m, t.base), name = freshName(m, o.overlayName || "");
    const op = { op: "place_overlay", overlay: { id, anchor: p.grid.label(...h), rotation: o.rotation, hexes: t.hexes,
                                                 hexsides: t.hexsides } };
    if (name) op.name = name;
    p.commit([op], `stamp ${name || "an overlay"}`);
  },
  move({ editor: p, hex }) {
    this.cursor = hex;
    if (this.select) this.select.to = this.cursor;
    if (this.moving) this.moving.to = this.cursor;
    p.view.request();
  },
  up({ editor: p }) {
    if (this.select) {
      const { from, to } = this.select;
      this.select = null;
      // A click is not a selection: a template needs a drag across at least two hexes.
      if (from[0] === to[0] && from[1] === to[1]) {
        p.say("drag across the hexes to make a template from them (a single click selects nothing)");
        p.view.request();
        return;
      }
      p.addTemplate(templateFrom(p.model, hexRectangle(p.grid, from, to)));
      return;
    }
    if (this.moving) {
      const { overlay: o, from, to } = this.moving; this.moving = null;
      if (from[0] === to[0] && from[1] === to[1]) return;
      const g = p.grid, [fq, fr] = g.toAxial(...from), [tq, tr] = g.toAxial(...to), [aq, ar] = g.toAxial(...o.anchor);
      const anchor = g.fromAxial(aq + tq - fq, ar + tr - fr);
      p.commit([{ op: "move_overlay", id: o.id, anchor: g.label(...anchor) }], `move ${p.model.overlayTitle(o) || "the overlay"}`);
    }
  },
  preview(ctx, { view, editor: p }) {
    if (this.select) outlineHexes(ctx, view, hexRectangle(view.grid, this.select.from, this.select.to), "#7a2e8c", "rgba(122,46,140,.15)");
    const t = p && p.template();
    if (p && p.options.overlayMode === "stamp" && t && this.cursor) {
      const ghost = { anchor: this.cursor, rotation: p.options.rotation, hexes: t.hexes };
      outlineHexes(ctx, view, p.model.overlayHexes(ghost), "#7a2e8c", "rgba(122,46,140,.2)");
    }
  },
};
