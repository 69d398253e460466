// @ts-check
// Hexsides: click near an edge to set the chosen feature (click it again to clear it); drag along edges to
// draw a line of it (a hedge, a wall).
import { terrainName } from "./brush.js";

// The hexside under a point when the point is near enough to the edge's middle (in map units).
export function edgeNear(grid, x, y, reach = 0.6) {
  const [col, row, side] = grid.sideAt(x, y), [a, b] = grid.sideEndpoints(col, row, side);
  const d = Math.hypot((a[0] + b[0]) / 2 - x, (a[1] + b[1]) / 2 - y);
  return d <= reach ? { col, row, side, key: grid.hexside(col, row, side).join(",") } : null;
}

export const hexside = {
  id: "hexside", name: "Hexside", key: "h", edit: true,
  title: "Set a hexside feature (H): click near an edge, drag along edges for a line, click again to clear",
  /** @type {Map<string, {col: number, row: number, side: number, key: string}> | null} */
  edges: null,
  moved: false,
  down(at) { this.edges = new Map(); this.moved = false; this.add(at); },
  /** @param {import("../../canvas/tools.js").ToolContext} at */
  add({ editor: p, point }) {
    const edge = edgeNear(p.grid, ...point);
    if (edge && !this.edges.has(edge.key)) { this.edges.set(edge.key, edge); p.view.request(); }
  },
  move(at) { if (this.edges) { this.moved = this.moved || this.edges.size > 1; this.add(at); } },
  up({ editor: p }) {
    const edges = [...(this.edges || new Map()).values()];
    this.edges = null;
    if (!edges.length) return;
    const g = p.grid, terrain = p.options.hexside, label = (ed) => g.label(ed.col, ed.row);
    const onMap = edges.filter((ed) => g.contains(ed.col, ed.row));
    if (onMap.length === 1 && p.model.hexsides.get(onMap[0].key) === terrain) {
      const ed = onMap[0];
      p.commit([{ op: "clear_hexside", hex: label(ed), side: g.sides[ed.side] }], `clear ${terrainName(p, terrain, "hexside")}`);
      return;
    }
    p.commit(onMap.map((ed) => ({ op: "set_hexside", hex: label(ed), side: g.sides[ed.side], terrain })),
             `${terrainName(p, terrain, "hexside")} on a hexside`);
  },
  preview(ctx, { view }) {
    if (!this.edges) return;
    ctx.lineWidth = 6 / view.scale; ctx.strokeStyle = "rgba(11,99,197,.7)"; ctx.lineCap = "round";
    for (const ed of this.edges.values()) {
      const [a, b] = view.grid.sideEndpoints(ed.col, ed.row, ed.side);
      ctx.beginPath(); ctx.moveTo(...a); ctx.lineTo(...b); ctx.stroke();
    }
  },
};
