// @ts-check
// Terrain brush: paint the chosen terrain on every hex within the radius (0-3) of the pointer's path; replace
// the hex's terrain list, or add the terrain to it.
import { dragStroke, groupBy, outlineHexes } from "./common.js";

export const brush = {
  id: "brush", name: "Terrain brush", key: "b", edit: true,
  title: "Paint terrain (B). Radius 0–3 and replace/add in the tool options.",
  ...dragStroke,
  up({ editor: p }) {
    const stroke = this.stroke; this.stroke = null;
    if (!stroke) return;
    p.commit(terrainOps(p, stroke.hexes, p.options.terrain, p.options.mode), `paint ${terrainName(p, p.options.terrain)}`);
  },
  preview(ctx, { view }) { if (this.stroke) outlineHexes(ctx, view, this.stroke.hexes); },
};

// A terrain as the Undo button names it: its catalogue name ("Brush"), not its id ("Undo brush brush").
export function terrainName(p, id, layer = "hex") {
  return (p.styles.legend(layer).find((t) => t.id === id) || {}).name || id;
}

// set_terrain operations for hexes: replace the list, or add one terrain to each hex's own list.
export function terrainOps(p, hexes, terrain, mode = "replace") {
  const g = p.grid, on = hexes.filter(([c, r]) => g.contains(c, r));
  if (!on.length) return [];
  if (mode !== "add") return [{ op: "set_terrain", hexes: on.map(([c, r]) => g.label(c, r)), terrain: [terrain] }];
  return groupBy(on, ([c, r]) => {
    const list = p.model.cell(c, r).terrain;
    return list.includes(terrain) ? list : [...list, terrain];
  }).map(({ value, hexes: hs }) => ({ op: "set_terrain", hexes: hs.map(([c, r]) => g.label(c, r)), terrain: value }));
}
