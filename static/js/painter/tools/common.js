// @ts-check
// What the tools share: collecting the hexes a drag passes over, and drawing a tool's preview.

// A drag's hexes: every hex within `radius` of each hex the pointer passes over, in order, once each.
export class HexStroke {
  constructor(grid, radius = 0) { this.grid = grid; this.radius = radius; this.keys = new Set(); this.hexes = []; }
  add(col, row) {
    for (const [c, r] of this.grid.within(col, row, this.radius)) {
      const k = c + "," + r;
      if (!this.keys.has(k)) { this.keys.add(k); this.hexes.push([c, r]); }
    }
  }
  labels() { return this.hexes.map(([c, r]) => this.grid.label(c, r)); }
}

// The pointer half of a tool that paints along a drag: down starts a HexStroke, move extends it; the tool's
// own up() turns `this.stroke` into operations.
export const dragStroke = {
  /** @type {HexStroke | null} */
  stroke: null,
  /** @param {import("../../canvas/tools.js").ToolContext} at */
  down({ editor: p, hex }) { this.stroke = new HexStroke(p.grid, p.options.radius); this.stroke.add(...hex); },
  /** @param {import("../../canvas/tools.js").ToolContext} at */
  move({ editor: p, hex }) { if (this.stroke) { this.stroke.add(...hex); p.view.request(); } },
  cancel() { this.stroke = null; },
};

// Group hexes by the value a function gives each: one operation per distinct value.
export function groupBy(hexes, valueOf) {
  const groups = new Map();
  for (const h of hexes) {
    const v = valueOf(h), k = JSON.stringify(v);
    if (!groups.has(k)) groups.set(k, { value: v, hexes: [] });
    groups.get(k).hexes.push(h);
  }
  return [...groups.values()];
}

export function outlineHexes(ctx, view, hexes, colour = "#0b63c5", fill = "rgba(11,99,197,.18)") {
  ctx.beginPath();
  for (const [c, r] of hexes) view.hexPath(ctx, c, r, -0.04);
  ctx.fillStyle = fill; ctx.fill();
  ctx.lineWidth = 2 / view.scale; ctx.strokeStyle = colour; ctx.stroke();
}
