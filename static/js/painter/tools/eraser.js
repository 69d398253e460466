// @ts-check
// Eraser: hexes within the radius go back to the map's defaults (terrain, level, storeys, art).
import { dragStroke, outlineHexes } from "./common.js";

export const eraser = {
  id: "eraser", name: "Eraser", key: "e", edit: true, title: "Erase hexes back to the defaults (E)",
  ...dragStroke,
  up({ editor: p }) {
    const s = this.stroke; this.stroke = null;
    if (!s) return;
    const g = p.grid, listed = s.hexes.filter(([c, r]) => p.model.cells.has(g.key(c, r)));
    if (listed.length) p.commit([{ op: "clear_hexes", hexes: listed.map(([c, r]) => g.label(c, r)) }], "erase");
  },
  preview(ctx, { view }) { if (this.stroke) outlineHexes(ctx, view, this.stroke.hexes, "#b00020", "rgba(176,0,32,.15)"); },
};
