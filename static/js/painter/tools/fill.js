// @ts-check
// Flood fill: the chosen terrain over every hex joined to the clicked one through hexes of the same terrain.
import { terrainName, terrainOps } from "./brush.js";

export const fill = {
  id: "fill", name: "Flood fill", key: "f", edit: true, title: "Flood fill contiguous hexes of the same terrain (F)",
  down({ editor: p, hex: start }) {
    const g = p.grid;
    if (!g.contains(...start)) return;
    const same = JSON.stringify(p.model.cell(...start).terrain), seen = new Set([g.key(...start)]), out = [start];
    for (let i = 0; i < out.length; i++) {
      for (const n of g.neighbours(...out[i])) {
        const k = g.key(...n);
        if (!seen.has(k) && JSON.stringify(p.model.cell(...n).terrain) === same) { seen.add(k); out.push(n); }
      }
    }
    p.commit(terrainOps(p, out, p.options.terrain, p.options.mode), `fill with ${terrainName(p, p.options.terrain)}`);
  },
};
