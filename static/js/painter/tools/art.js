// @ts-check
// Art: draw a polygon inside a hex (a building's footprint, a hill's edge) vertex by vertex: click to add a
// vertex, click the first vertex again (or press Enter) to close it. Drag a vertex of existing art to move it.
const round = (v) => Math.round(v * 1000) / 1000;

function polygonsOf(art) { return !art ? [] : Array.isArray(art[0][0]) ? art : [art]; }

export const art = {
  id: "art", name: "Art polygon", key: "a", edit: true,
  title: "Draw a polygon inside a hex (A): click vertices, click the first one or press Enter to close; drag a vertex to edit",
  /** @type {number[][] | null} */
  points: null,
  /** @type {number[] | null} */
  cursor: null,
  /** @type {{hex: number[], polys: number[][][], i: number, j: number} | null} */
  drag: null,
  down({ editor: p, point }) {
    const [x, y] = point, near = 8 / p.view.scale;
    if (!this.points) {
      // Editing: grab a vertex of existing art near the pointer.
      const [col, row] = p.grid.hexAt(x, y);
      for (const [dc, dr] of [[0, 0], ...p.grid.neighbours(col, row).map(([c, r]) => [c - col, r - row])]) {
        const cell = p.model.cells.get(p.grid.key(col + dc, row + dr));
        if (!cell || !cell.art) continue;
        const polys = polygonsOf(cell.art);
        for (let i = 0; i < polys.length; i++) {
          for (let j = 0; j < polys[i].length; j++) {
            if (Math.hypot(polys[i][j][0] - x, polys[i][j][1] - y) < near) {
              this.drag = { hex: [col + dc, row + dr], polys: JSON.parse(JSON.stringify(polys)), i, j };
              return;
            }
          }
        }
      }
      this.points = [[round(x), round(y)]];
      p.view.request();
      return;
    }
    const first = this.points[0];
    if (this.points.length >= 3 && Math.hypot(first[0] - x, first[1] - y) < near) this.close(p);
    else { this.points.push([round(x), round(y)]); p.view.request(); }
  },
  move({ editor: p, point }) {
    const [x, y] = point;
    this.cursor = [x, y];
    if (this.drag) this.drag.polys[this.drag.i][this.drag.j] = [round(x), round(y)];
    if (this.points || this.drag) p.view.request();
  },
  up({ editor: p }) {
    if (!this.drag) return;
    const { hex, polys } = this.drag; this.drag = null;
    p.commit([{ op: "set_art", hex: p.grid.label(...hex), art: polys.length === 1 ? polys[0] : polys }], "move art vertex");
  },
  onKey({ editor: p, event: e }) {
    if (e.key === "Enter" && this.points && this.points.length >= 3) { this.close(p); return true; }
    if (e.key === "Escape" && this.points) { this.points = null; p.view.request(); return true; }
    return false;
  },
  close(p) {
    const pts = this.points; this.points = null;
    const [col, row] = p.grid.hexAt(...pts[0]);
    if (!p.grid.contains(col, row)) return;
    const old = polygonsOf(p.model.cell(col, row).art), polys = [...old, pts];
    p.commit([{ op: "set_art", hex: p.grid.label(col, row), art: polys.length === 1 ? polys[0] : polys }], "art");
  },
  cancel() { this.points = null; this.drag = null; },
  preview(ctx, { view }) {
    const pts = this.points ? [...this.points, ...(this.cursor ? [this.cursor] : [])] : this.drag ? this.drag.polys[this.drag.i] : null;
    if (!pts) return;
    ctx.beginPath(); pts.forEach(([x, y], i) => (i ? ctx.lineTo(x, y) : ctx.moveTo(x, y)));
    if (this.drag) ctx.closePath();
    ctx.lineWidth = 2 / view.scale; ctx.strokeStyle = "#0b63c5"; ctx.stroke();
    for (const [x, y] of pts) { ctx.beginPath(); ctx.arc(x, y, 4 / view.scale, 0, 7); ctx.fillStyle = "#0b63c5"; ctx.fill(); }
  },
};
