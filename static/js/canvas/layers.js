// @ts-check
// The map on a canvas: a Viewport (view.js: zoom, pan, fit) with the map's layers drawn from the catalogue's
// styles, each cached off-screen and redrawn only when its data changes, and extra layers a page
// adds on top (results, highlights, zones, counters: anything with a draw(ctx, view) function).
import { SQRT3 } from "../hexgrid.js";
import { HexPaint, labelInk, rasterise } from "./raster.js";
import { Viewport } from "./view.js";

// -- styles -------------------------------------------------------------------------------------------------
// Used until every catalogue entry carries its own `style`: a colour by the terrain's LOS class, a few by id.
const FALLBACK_BY_ID = {
  woods: { fill: "#6f9a52", pattern: "trees" }, "light-forest": { fill: "#8fb56a", pattern: "trees" },
  "heavy-forest": { fill: "#557f3c", pattern: "trees" }, orchard: { fill: "#a5c47a", pattern: "dots" },
  brush: { fill: "#c2cf8a", pattern: "grass" }, scrub: { fill: "#c2cf8a", pattern: "grass" },
  marsh: { fill: "#b9d2c4", pattern: "marsh" }, swamp: { fill: "#b9d2c4", pattern: "marsh" },
  stream: { fill: "#a9cde8", pattern: "waves" }, river: { fill: "#86b8e0", pattern: "waves" },
  wheatfield: { fill: "#e9d98f", pattern: "hatch" }, crops: { fill: "#e9d98f", pattern: "hatch" },
  farm: { fill: "#e4dcae" }, farmland: { fill: "#e4dcae" }, road: { fill: "#d9c7a4" },
  rubble: { fill: "#bdb2a4", pattern: "rubble" }, debris: { fill: "#c8bfb2", pattern: "rubble" },
  beach: { fill: "#f0e2b6", pattern: "dots" }, cemetery: { fill: "#cfd8c0", pattern: "grass" },
  graveyard: { fill: "#cfd8c0", pattern: "grass" },
};
const FALLBACK_BY_CLASS = {
  clear: { fill: "#efeadb" }, hindering: { fill: "#c9d39a", pattern: "dots" },
  blocking: { fill: "#a88f74", pattern: "bricks" }, special: { fill: "#c7b9d6", pattern: "hatch" },
};
const HEXSIDE_FALLBACK = {
  blocking: { stroke: "#5a3e2b", stroke_width: 0.12 }, hindering: { stroke: "#3f7a3a", stroke_width: 0.1 },
  clear: { stroke: "#3b6fb6", stroke_width: 0.08 }, special: { stroke: "#7a4f9a", stroke_width: 0.1 },
};

export class Styles {
  constructor(ruleset) {
    this.byId = new Map();
    for (const t of (ruleset && ruleset.terrain) || []) this.byId.set(t.id, t);
    this.patterns = new Map();
  }

  entry(id) { return this.byId.get(id) || { id, name: id, los: "clear", layer: "hex" }; }
  name(id) { return this.entry(id).name || id; }

  style(id) {
    const e = this.entry(id);
    if (e.style && (e.style.fill || e.style.stroke)) return e.style;
    if (e.layer === "hexside") return HEXSIDE_FALLBACK[e.los] || HEXSIDE_FALLBACK.clear;
    return FALLBACK_BY_ID[id] || FALLBACK_BY_CLASS[e.los] || FALLBACK_BY_CLASS.clear;
  }

  // A CanvasPattern for a style's pattern (null: plain fill), cached per pattern, colours and size.
  pattern(ctx, style, px) {
    if (!style.pattern) return null;
    const size = Math.max(6, Math.round(px)), colour = style.pattern_colour || shade(style.fill || "#888888", -0.35);
    const key = `${style.pattern}|${colour}|${size}`;
    if (!this.patterns.has(key)) this.patterns.set(key, ctx.createPattern(patternTile(style.pattern, colour, size), "repeat"));
    return this.patterns.get(key);
  }

  legend(layer) { return [...this.byId.values()].filter((t) => (t.layer || "hex") === layer); }

  // What runs through a terrain ("road", "railroad": the catalogue's `linear`), or null.
  linear(id) { return this.entry(id).linear || null; }

  // The terrain a hex's fill and patterns come from: its roads and railroads are drawn as lines instead
  // (engine/render/roads.py), so a road hex shows its other terrain, or the map's ground.
  shown(terrain, ground) {
    if (!terrain.some((t) => this.linear(t))) return terrain;
    const rest = terrain.filter((t) => !this.linear(t));
    return rest.length ? rest : ground.filter((t) => !this.linear(t)).slice(0, 1);
  }
}

export function shade(hex, amount) {
  const n = parseInt(hex.slice(1), 16);
  const f = (v) => Math.max(0, Math.min(255, Math.round(amount < 0 ? v * (1 + amount) : v + (255 - v) * amount)));
  return `rgb(${f(n >> 16)},${f((n >> 8) & 255)},${f(n & 255)})`;
}

export function patternTile(kind, colour, s) {
  const c = document.createElement("canvas");
  c.width = c.height = s;
  const g = c.getContext("2d");
  g.strokeStyle = g.fillStyle = colour;
  g.lineWidth = Math.max(1, s / 10);
  const line = (x1, y1, x2, y2) => { g.beginPath(); g.moveTo(x1, y1); g.lineTo(x2, y2); g.stroke(); };
  switch (kind) {
    case "dots": g.beginPath(); g.arc(s / 2, s / 2, s / 8, 0, 7); g.fill(); break;
    case "hatch": line(0, s, s, 0); line(-s / 2, s / 2, s / 2, -s / 2); line(s / 2, s * 1.5, s * 1.5, s / 2); break;
    case "crosshatch": line(0, s, s, 0); line(0, 0, s, s); break;
    case "trees": g.beginPath(); g.arc(s / 2, s / 2, s / 4, 0, 7); g.stroke(); break;
    case "bricks": line(0, s / 2, s, s / 2); line(0, s - 0.5, s, s - 0.5); line(s / 4, 0, s / 4, s / 2);
      line((3 * s) / 4, s / 2, (3 * s) / 4, s); break;
    case "waves": g.beginPath(); g.moveTo(0, s / 2);
      g.quadraticCurveTo(s / 4, s / 4, s / 2, s / 2); g.quadraticCurveTo((3 * s) / 4, (3 * s) / 4, s, s / 2); g.stroke(); break;
    case "marsh": line(s / 4, s * 0.7, (3 * s) / 4, s * 0.7); line(s / 2, s * 0.7, s / 2, s * 0.35); break;
    case "rubble": g.fillRect(s * 0.2, s * 0.2, s / 6, s / 6); g.fillRect(s * 0.6, s * 0.55, s / 5, s / 7); break;
    case "grass": line(s * 0.3, s * 0.8, s * 0.2, s * 0.4); line(s * 0.3, s * 0.8, s * 0.4, s * 0.4); break;
    case "stripes": line(0, s / 2, s, s / 2); break;
    // the LOS results' own (results.js): no terrain is drawn with them, so a result never reads as a terrain
    case "zigzag": g.beginPath(); g.moveTo(0, s * 0.7); g.lineTo(s / 4, s * 0.3); g.lineTo(s / 2, s * 0.7);
      g.lineTo((3 * s) / 4, s * 0.3); g.lineTo(s, s * 0.7); g.stroke(); break;
    case "plus": line(s / 2, s * 0.25, s / 2, s * 0.75); line(s * 0.25, s / 2, s * 0.75, s / 2); break;
    default: break;
  }
  return c;
}

// -- the view -----------------------------------------------------------------------------------------------
const LAYERS = ["terrain", "art", "hexsides", "overlays", "grid"];

export class MapView extends Viewport {
  constructor(canvas, model, styles) {
    super(canvas);
    this.ctx = canvas.getContext("2d");
    this.model = model;
    this.styles = styles;
    this.showLabels = true;
    this.showGrid = true;
    this.showLevels = true;
    this.background = null;   // {image: HTMLImageElement, entry, visible}
    this.extra = [];          // page layers drawn on top, in order
    this.cache = null;        // {canvas per layer, window in map space, res}
    this.dirty = { all: true, hexes: new Set() };
    this.frames = 0;
    model.onChange((what) => this.invalidate(what));
    new ResizeObserver(() => this.resize()).observe(canvas);
    this.resize();
  }

  get grid() { return this.model.grid; }
  extent() { return this.grid.extent(); }

  hexAtEvent(e) { const [x, y] = this.toMap(...this.eventPoint(e)); return this.grid.hexAt(x, y); }
  // The screen point of a hex's centre, for tests and tools.
  screenOf(col, row) { return this.toScreen(...this.grid.centre(col, row)); }

  resize() {
    this.measure();
    this.cache = null;
    this.request();
  }

  invalidate(what = { all: true }) {
    if (what.all || what.overlays) this.dirty.all = true;
    if (what.hexes) for (const k of what.hexes) this.dirty.hexes.add(k);
    if (what.hexsides) this.dirty.hexsides = true;
    if (what.background) this.dirty.background = true;
    this.request();
  }

  request() {
    if (this.pending) return;
    this.pending = requestAnimationFrame(() => { this.pending = 0; this.draw(); });
  }

  // -- the off-screen cache --------------------------------------------------------------------------------
  // The layers are drawn for a window of map space around the viewport (the whole map when it fits in 4096 px)
  // at the current scale; panning inside that window is a copy, not a redraw.
  cacheValid() {
    const c = this.cache;
    if (!c || Math.abs(c.res - this.scale * this.dpr) > 1e-6) return false;
    const [vx0, vy0] = this.toMap(0, 0), [vx1, vy1] = this.toMap(this.width, this.height);
    const [mx0, my0, mx1, my1] = this.grid.extent();
    return c.x0 <= Math.max(vx0, mx0 - 1) && c.y0 <= Math.max(vy0, my0 - 1)
      && c.x1 >= Math.min(vx1, mx1 + 1) && c.y1 >= Math.min(vy1, my1 + 1);
  }

  buildCache() {
    const res = this.scale * this.dpr, [mx0, my0, mx1, my1] = this.grid.extent();
    const [vx0, vy0] = this.toMap(0, 0), [vx1, vy1] = this.toMap(this.width, this.height);
    const vw = vx1 - vx0, vh = vy1 - vy0, limit = 4096 / res;
    let x0 = mx0 - 1, y0 = my0 - 1, x1 = mx1 + 1, y1 = my1 + 1;
    if (x1 - x0 > limit) { x0 = Math.max(x0, vx0 - vw); x1 = Math.min(x1, vx1 + vw); }
    if (y1 - y0 > limit) { y0 = Math.max(y0, vy0 - vh); y1 = Math.min(y1, vy1 + vh); }
    const w = Math.ceil((x1 - x0) * res), h = Math.ceil((y1 - y0) * res), layers = {};
    for (const name of LAYERS) {
      const c = this.cache && this.cache.layers[name] && this.cache.w === w && this.cache.h === h
        ? this.cache.layers[name] : new OffscreenCanvas(w, h);
      layers[name] = c;
    }
    this.cache = { layers, x0, y0, x1, y1, res, w, h };
    this.dirty = { all: true, hexes: new Set() };
  }

  layerCtx(name) {
    const c = this.cache, ctx = c.layers[name].getContext("2d");
    ctx.setTransform(c.res, 0, 0, c.res, -c.x0 * c.res, -c.y0 * c.res);
    return ctx;
  }

  visibleHexes() {
    const c = this.cache, g = this.grid, out = [];
    const colRange = g.flat ? [Math.floor(c.x0 / 1.5) - 1, Math.ceil(c.x1 / 1.5) + 1]
      : [Math.floor(c.x0 / SQRT3) - 1, Math.ceil(c.x1 / SQRT3) + 1];
    const rowRange = g.flat ? [Math.floor(c.y0 / SQRT3) - 1, Math.ceil(c.y1 / SQRT3) + 1]
      : [Math.floor(c.y0 / 1.5) - 1, Math.ceil(c.y1 / 1.5) + 1];
    for (let col = Math.max(0, colRange[0]); col <= Math.min(g.columns - 1, colRange[1]); col++) {
      for (let row = Math.max(0, rowRange[0]); row <= Math.min(g.rows - 1, rowRange[1]); row++) out.push([col, row]);
    }
    return out;
  }

  hexPath(ctx, col, row, grow = 0) {
    const unit = this.unitCorners(), [cx, cy] = this.grid.centre(col, row), k = 1 + grow;
    ctx.moveTo(cx + unit[0][0] * k, cy + unit[0][1] * k);
    for (let i = 1; i < 6; i++) ctx.lineTo(cx + unit[i][0] * k, cy + unit[i][1] * k);
    ctx.closePath();
  }

  // -- drawing the layers ----------------------------------------------------------------------------------
  // The terrain layer: fills, patterns, level shading and grid lines pixel by pixel (raster.js), then the level
  // numbers and storeys as text. `hexes` null: the whole window; else only the pixels around those hexes.
  drawTerrain(hexes) {
    const c = this.cache, m = this.model, g = this.grid, ctx = c.layers.terrain.getContext("2d");
    const paint = this.paint && this.paint.grid === g ? this.paint : (this.paint = new HexPaint(g));
    const tileSize = Math.max(6, Math.round(Math.min(24, c.res / 3)));
    if (paint.tileSize !== tileSize) { paint.tileSize = tileSize; paint.tiles.length = 0; paint.tileIndex.clear(); hexes = null; }
    // A changed hex repaints its neighbours too: their roads' halves towards it may come or go.
    if (hexes) hexes = this.hexesAround(hexes);
    const list = hexes || this.visibleHexes(), base = m.defaults.level;
    const ground = m.defaults.terrain;
    for (const [col, row] of list) {
      const cell = m.resolvedCell(col, row), terrain = this.styles.shown(cell.terrain, ground);
      paint.set(col, row, terrain === cell.terrain ? cell : { ...cell, terrain: terrain.length ? terrain : cell.terrain },
                this.styles, base, m.levelStep, tileSize, patternTile);
    }
    let rect = [0, 0, c.w, c.h];
    if (hexes) {
      let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
      for (const [col, row] of hexes) {
        const [cx, cy] = g.centre(col, row);
        x0 = Math.min(x0, cx - 1); y0 = Math.min(y0, cy - 1); x1 = Math.max(x1, cx + 1); y1 = Math.max(y1, cy + 1);
      }
      rect = [Math.max(0, Math.floor((x0 - c.x0) * c.res) - 1), Math.max(0, Math.floor((y0 - c.y0) * c.res) - 1),
              Math.min(c.w, Math.ceil((x1 - c.x0) * c.res) + 1), Math.min(c.h, Math.ceil((y1 - c.y0) * c.res) + 1)];
    }
    rasterise(ctx, paint, g, c, rect, { showGrid: this.showGrid });
    // Roads, then level numbers and storeys, of every hex whose lines or text may reach into the repainted pixels.
    const tctx = this.layerCtx("terrain"), px = c.res;
    tctx.save();
    tctx.beginPath();
    tctx.rect(c.x0 + rect[0] / px, c.y0 + rect[1] / px, (rect[2] - rect[0]) / px, (rect[3] - rect[1]) / px);
    tctx.clip();
    const near = hexes ? this.hexesAround(hexes) : list;
    this.drawRoads(tctx, near);
    if (c.res < 12 || !this.showLevels) { tctx.restore(); return; }
    tctx.textAlign = "center"; tctx.textBaseline = "middle";
    tctx.font = `bold ${Math.max(9, px * 0.42) / px}px system-ui, sans-serif`;
    tctx.fillStyle = "#222"; tctx.strokeStyle = "rgba(255,255,255,.85)"; tctx.lineWidth = 3 / px;
    for (const [col, row] of near) {
      const cell = m.resolvedCell(col, row);
      if (cell.level === base && cell.storeys <= 1) continue;
      const [cx, cy] = g.centre(col, row);
      const text = ((cell.level !== base ? String(cell.level) : "") + (cell.storeys > 1 ? ` ▮${cell.storeys}` : "")).trim();
      tctx.strokeText(text, cx, cy + 0.05); tctx.fillText(text, cx, cy + 0.05);
    }
    tctx.restore();
  }

  // Roads and railroads as lines from each hex's centre to the edge it shares with the next hex of the same kind
  // (engine/render/roads.py draws the same on the PNG and the print): casings, then cores, then the rails.
  drawRoads(ctx, hexes) {
    const m = this.model, g = this.grid, st = this.styles, runs = [];
    const kinds = (col, row) => m.resolvedCell(col, row).terrain.map((t) => [st.linear(t), t]).filter(([k]) => k);
    for (const [col, row] of hexes) {
      const mine = kinds(col, row);
      if (!mine.length) continue;
      const [cx, cy] = g.centre(col, row), around = g.neighbours(col, row).filter((h) => g.contains(...h));
      for (const [kind, t] of mine) {
        const ends = [];
        for (const h of around) {
          if (!kinds(...h).some(([k]) => k === kind)) continue;
          const [nx, ny] = g.centre(...h);
          ends.push([(cx + nx) / 2, (cy + ny) / 2]);
        }
        runs.push({ kind, colour: st.style(t).fill || "#dcc9a0", centre: [cx, cy], ends });
      }
    }
    if (!runs.length) return;
    ctx.lineCap = "round";
    const stroke = (run, width, colour) => {
      ctx.beginPath();
      if (!run.ends.length) { ctx.arc(run.centre[0], run.centre[1], width / 2, 0, 7); ctx.fillStyle = colour; ctx.fill(); return; }
      for (const [x, y] of run.ends) { ctx.moveTo(...run.centre); ctx.lineTo(x, y); }
      ctx.lineWidth = width; ctx.strokeStyle = colour; ctx.stroke();
    };
    const roads = runs.filter((r) => r.kind !== "railroad"), rails = runs.filter((r) => r.kind === "railroad");
    for (const r of roads) stroke(r, 0.27, "#604226");
    for (const r of roads) stroke(r, 0.2, r.colour);
    for (const r of rails) {
      stroke(r, 0.07, "#303030");
      ctx.beginPath();
      for (const [x, y] of r.ends) {   // cross ties
        const dx = x - r.centre[0], dy = y - r.centre[1], n = Math.hypot(dx, dy) || 1, ox = (-dy / n) * 0.12, oy = (dx / n) * 0.12;
        for (const t of [0.35, 0.8]) {
          const px = r.centre[0] + dx * t, py = r.centre[1] + dy * t;
          ctx.moveTo(px - ox, py - oy); ctx.lineTo(px + ox, py + oy);
        }
      }
      ctx.lineWidth = 0.035; ctx.stroke();
    }
  }

  // Hexes and their neighbours, on the map, once each.
  hexesAround(hexes) {
    const g = this.grid, seen = new Set(), out = [];
    for (const [col, row] of hexes) {
      for (const h of [[col, row], ...g.neighbours(col, row)]) {
        const k = g.key(...h);
        if (!seen.has(k) && g.contains(...h)) { seen.add(k); out.push(h); }
      }
    }
    return out;
  }

  // The corners of a hex centred on (0, 0), once per grid.
  unitCorners() {
    if (!this._unit || this._unitGrid !== this.grid) {
      const [cx, cy] = this.grid.centre(0, 0);
      this._unit = this.grid.corners(0, 0).map(([x, y]) => [x - cx, y - cy]);
      this._unitGrid = this.grid;
    }
    return this._unit;
  }

  drawArt() {
    const ctx = this.layerCtx("art"), c = this.cache;
    ctx.save(); ctx.setTransform(1, 0, 0, 1, 0, 0); ctx.clearRect(0, 0, c.w, c.h); ctx.restore();
    for (const cell of this.model.cells.values()) {
      if (!cell.art) continue;
      const polys = Array.isArray(cell.art[0][0]) ? cell.art : [cell.art];
      const st = this.styles.style(cell.terrain[0]);
      for (const poly of polys) {
        ctx.beginPath(); poly.forEach(([x, y], i) => (i ? ctx.lineTo(x, y) : ctx.moveTo(x, y))); ctx.closePath();
        ctx.fillStyle = shade(st.fill && st.fill.startsWith("#") ? st.fill : "#a88f74", -0.3); ctx.fill();
        ctx.lineWidth = 1.5 / c.res; ctx.strokeStyle = "#2b1d12"; ctx.stroke();
      }
    }
  }

  drawHexsides() {
    const ctx = this.layerCtx("hexsides"), c = this.cache, g = this.grid;
    ctx.save(); ctx.setTransform(1, 0, 0, 1, 0, 0); ctx.clearRect(0, 0, c.w, c.h); ctx.restore();
    ctx.lineCap = "round";
    for (const [key, terrain] of this.model.resolvedHexsides()) {
      const [col, row, side] = key.split(",").map(Number);
      const [a, b] = g.sideEndpoints(col, row, side), st = this.styles.style(terrain);
      ctx.beginPath(); ctx.moveTo(...a); ctx.lineTo(...b);
      ctx.strokeStyle = st.stroke || "#5a3e2b";
      ctx.lineWidth = Math.max(2 / c.res, (st.stroke_width || 0.1) * SQRT3);
      ctx.stroke();
      if (st.pattern) {   // a second cue beside the colour: dashes in the pattern's colour
        ctx.setLineDash([0.08, 0.12]); ctx.strokeStyle = st.pattern_colour || "#ffffff"; ctx.lineWidth /= 2.5; ctx.stroke();
        ctx.setLineDash([]);
      }
    }
  }

  drawOverlays() {
    const ctx = this.layerCtx("overlays"), c = this.cache;
    ctx.save(); ctx.setTransform(1, 0, 0, 1, 0, 0); ctx.clearRect(0, 0, c.w, c.h); ctx.restore();
    for (const o of this.model.overlays) {
      ctx.beginPath();
      for (const [col, row] of this.model.overlayHexes(o)) this.hexPath(ctx, col, row, -0.08);
      ctx.setLineDash([0.25, 0.15]); ctx.lineWidth = 2.5 / c.res; ctx.strokeStyle = "#7a2e8c"; ctx.stroke();
      ctx.setLineDash([]);
      const [ax, ay] = this.grid.centre(...o.anchor);
      ctx.font = `bold ${12 / c.res}px system-ui`; ctx.fillStyle = "#7a2e8c"; ctx.textAlign = "center";
      // Its name (or printed ID), never the internal id: what the designer gave, as prints show it; in the
      // anchor's lower half with a white halo, clear of the hex's label.
      const title = this.model.overlayTitle ? this.model.overlayTitle(o) : "", text = `${title ? title + " " : ""}↻${o.rotation || 0}`;
      ctx.textBaseline = "middle"; ctx.lineWidth = 3 / c.res; ctx.strokeStyle = "rgba(255,255,255,.9)"; ctx.lineJoin = "round";
      ctx.strokeText(text, ax, ay + 0.5); ctx.fillText(text, ax, ay + 0.5);
    }
  }

  drawGrid() {
    const ctx = this.layerCtx("grid"), c = this.cache, g = this.grid;
    ctx.save(); ctx.setTransform(1, 0, 0, 1, 0, 0); ctx.clearRect(0, 0, c.w, c.h); ctx.restore();
    const hexes = this.visibleHexes();
    if (this.showLabels && c.res >= 16) {
      ctx.font = `${Math.min(11, c.res * 0.3) / c.res}px system-ui, sans-serif`;
      ctx.textAlign = "center"; ctx.textBaseline = "top"; ctx.lineWidth = 2.5 / c.res; ctx.lineJoin = "round";
      const fills = this.paint && this.paint.grid === g ? this.paint.rgb : [];
      for (const [col, row] of hexes) {
        const [x, y] = g.centre(col, row), text = g.label(col, row), top = y - (g.flat ? SQRT3 / 2 - 0.08 : 0.72);
        // black or white by the hex's fill, with a halo of the other: legible on woods as on open ground
        const [ink, halo] = labelInk(fills[col * g.rows + row] || [239, 234, 219]);
        ctx.strokeStyle = halo; ctx.strokeText(text, x, top);
        ctx.fillStyle = ink; ctx.fillText(text, x, top);
      }
    }
  }

  // Redraw what changed into the cache, then copy the cache to the screen with the page's layers on top.
  draw() {
    const t0 = performance.now();
    if (this.zooming && this.cache && !this.cacheValid()) { this.drawStretched(); return; }
    if (!this.cacheValid()) this.buildCache();
    const d = this.dirty;
    if (d.all) {
      this.drawTerrain(null);
      this.drawArt(); this.drawHexsides(); this.drawOverlays(); this.drawGrid();
    } else {
      if (d.hexes.size) {
        const g = this.grid, hexes = [...d.hexes].map((k) => k.split(",").map(Number)).filter(([c, r]) => g.contains(c, r));
        this.drawTerrain(hexes);
        this.drawArt();
      }
      if (d.hexsides) this.drawHexsides();
    }
    this.dirty = { all: false, hexes: new Set() };

    const ctx = this.ctx, c = this.cache;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.fillStyle = "#e9e5da"; ctx.fillRect(0, 0, this.canvas.width, this.canvas.height);
    const dx = (c.x0 * this.scale + this.ox) * this.dpr, dy = (c.y0 * this.scale + this.oy) * this.dpr;
    ctx.drawImage(c.layers.terrain, Math.round(dx), Math.round(dy));
    this.drawBackground(ctx);
    for (const name of ["art", "hexsides", "overlays", "grid"]) ctx.drawImage(c.layers[name], Math.round(dx), Math.round(dy));
    ctx.setTransform(this.dpr * this.scale, 0, 0, this.dpr * this.scale, this.ox * this.dpr, this.oy * this.dpr);
    for (const layer of this.extra) if (layer.visible !== false) { ctx.save(); layer.draw(ctx, this); ctx.restore(); }
    this.lastDrawMs = performance.now() - t0;
    this.frames++;
  }

  // The cached layers scaled to the current zoom: quick and a little blurred, while the wheel turns.
  drawStretched() {
    const ctx = this.ctx, c = this.cache, k = (this.scale * this.dpr) / c.res;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.fillStyle = "#e9e5da"; ctx.fillRect(0, 0, this.canvas.width, this.canvas.height);
    const dx = (c.x0 * this.scale + this.ox) * this.dpr, dy = (c.y0 * this.scale + this.oy) * this.dpr;
    for (const name of LAYERS) ctx.drawImage(c.layers[name], dx, dy, c.w * k, c.h * k);
    this.frames++;
  }

  // The board scan, under the painted map's lines but over its fills (faded), placed by its alignment.
  drawBackground(ctx) {
    const bg = this.background;
    // An image not loaded yet, or broken (not on the server: naturalWidth 0), is left out; the map draws on.
    if (!bg || !bg.visible || !bg.image || !bg.image.complete || !bg.image.naturalWidth || !bg.entry) return;
    const e = bg.entry, k = 1 / e.hex_px, g = this.grid, [c0x, c0y] = g.centre(0, 0);
    ctx.save();
    ctx.setTransform(this.dpr * this.scale, 0, 0, this.dpr * this.scale, this.ox * this.dpr, this.oy * this.dpr);
    ctx.translate(c0x, c0y);
    ctx.rotate((-(e.rotation || 0) * Math.PI) / 180);
    ctx.scale(k, k);
    ctx.translate(-e.origin[0], -e.origin[1]);
    ctx.globalAlpha = e.opacity ?? 1;
    ctx.drawImage(bg.image, 0, 0);
    ctx.restore();
  }

  // A counter-like marker (smoke, a wreck, a setup zone's flag) in a hex, in its catalogue style: a square of its
  // fill with its marker shape, and a short name.
  drawMarker(ctx, col, row, id, { size = 0.7, text = null } = {}) {
    const st = this.styles.style(id), [x, y] = this.grid.centre(col, row), h = size / 2;
    ctx.fillStyle = st.fill || "#888"; ctx.strokeStyle = st.stroke || "#333"; ctx.lineWidth = 1.5 / this.scale;
    ctx.fillRect(x - h, y - h, size, size); ctx.strokeRect(x - h, y - h, size, size);
    ctx.beginPath();
    const r = h * 0.45, cy = y - h * 0.25;
    switch (st.marker) {
      case "circle": ctx.arc(x, cy, r, 0, 7); break;
      case "square": ctx.rect(x - r, cy - r, 2 * r, 2 * r); break;
      case "triangle": ctx.moveTo(x, cy - r); ctx.lineTo(x + r, cy + r); ctx.lineTo(x - r, cy + r); ctx.closePath(); break;
      case "cross": ctx.moveTo(x - r, cy - r); ctx.lineTo(x + r, cy + r); ctx.moveTo(x + r, cy - r); ctx.lineTo(x - r, cy + r); break;
      case "star": for (let i = 0; i < 10; i++) {
        const a = -Math.PI / 2 + (i * Math.PI) / 5, rr = i % 2 ? r / 2.2 : r;
        ctx[i ? "lineTo" : "moveTo"](x + rr * Math.cos(a), cy + rr * Math.sin(a));
      } ctx.closePath(); break;
      default: break;
    }
    ctx.stroke();
    ctx.fillStyle = "#111"; ctx.font = `${size * 0.28}px system-ui, sans-serif`; ctx.textAlign = "center";
    ctx.textBaseline = "alphabetic";
    ctx.fillText(text ?? this.styles.name(id).slice(0, 8), x, y + h * 0.85);
  }

  addLayer(layer) { this.extra.push(layer); this.request(); return layer; }
  removeLayer(layer) { this.extra = this.extra.filter((l) => l !== layer); this.request(); }

  // Shade hexes on a page layer: fill(ctx, col, row) is given the hex's path, already begun.
  fillHexes(ctx, hexes, style) {
    for (const [col, row] of hexes) { ctx.beginPath(); this.hexPath(ctx, col, row); style(ctx, col, row); }
  }
}
