// @ts-check
// Rectangle: drag from one hex to another; every hex whose column and row lie between gets the terrain.
import { terrainName, terrainOps } from "./brush.js";
import { outlineHexes } from "./common.js";

export function hexRectangle(grid, a, b) {
  const out = [];
  for (let c = Math.max(0, Math.min(a[0], b[0])); c <= Math.min(grid.columns - 1, Math.max(a[0], b[0])); c++) {
    for (let r = Math.max(0, Math.min(a[1], b[1])); r <= Math.min(grid.rows - 1, Math.max(a[1], b[1])); r++) out.push([c, r]);
  }
  return out;
}

export const rectangle = {
  id: "rectangle", name: "Rectangle", key: "r", edit: true, title: "Drag a rectangle of terrain (R)",
  /** @type {import("../../canvas/tools.js").Hex | null} */
  from: null,
  /** @type {import("../../canvas/tools.js").Hex | null} */
  to: null,
  down({ hex }) { this.from = hex; this.to = hex; },
  move({ editor: p, hex }) { if (this.from) { this.to = hex; p.view.request(); } },
  up({ editor: p }) {
    if (!this.from) return;
    const hexes = hexRectangle(p.grid, this.from, this.to);
    this.from = null;
    p.commit(terrainOps(p, hexes, p.options.terrain, p.options.mode), `rectangle of ${terrainName(p, p.options.terrain)}`);
  },
  preview(ctx, { view }) { if (this.from) outlineHexes(ctx, view, hexRectangle(view.grid, this.from, this.to)); },
};
