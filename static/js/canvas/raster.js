// @ts-check
// The terrain layer drawn pixel by pixel: each pixel finds its hex with the grid's own arithmetic (hexAt, inlined)
// and takes that hex's colour, pattern and level shade; grid lines come from the pixel's distance to the hex's
// edge. A whole 100 x 100 map costs what its pixels cost, not what 10,000 vector paths cost.
import { SQRT3 } from "../hexgrid.js";

const parseColour = (text) => {
  if (text && text[0] === "#" && text.length === 7) {
    const n = parseInt(text.slice(1), 16);
    return [n >> 16, (n >> 8) & 255, n & 255];
  }
  const m = /rgba?\((\d+),\s*(\d+),\s*(\d+)/.exec(text || "");
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : [238, 238, 238];
};
/** @param {number[]} rgb */
const pack = ([r, g, b]) => (255 << 24) | (b << 16) | (g << 8) | r;   // little-endian RGBA as one Uint32
const mix = (a, b, t) => a.map((v, i) => Math.round(v * (1 - t) + b[i] * t));

// WCAG 2's relative luminance of an sRGB colour, and the ink a hex's label is written in on a fill: black or
// white, whichever contrasts more (at least 4.5:1 on any fill; engine/render/styles.py label_ink, the same rule).
/** @param {number[]} rgb */
export function luminance(rgb) {
  const [r, g, b] = rgb.map((v) => { const c = v / 255; return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}
/** @param {number[]} fill @returns {[string, string]} the label's ink and its halo */
export function labelInk(fill) {
  const l = luminance(fill);
  return (l + 0.05) / 0.05 >= 1.05 / (l + 0.05) ? ["#000000", "rgba(255,255,255,.6)"] : ["#ffffff", "rgba(0,0,0,.5)"];
}

// What each hex shows, as numbers: its fill, its pattern's colour and tile, both with the level shade blended in.
export class HexPaint {
  constructor(grid) {
    this.grid = grid;
    const n = grid.columns * grid.rows;
    this.fill = new Uint32Array(n);
    /** @type {number[][]} each hex's fill as [r, g, b] (its label's ink is chosen from it) */
    this.rgb = new Array(n);
    this.ink = new Uint32Array(n);
    this.tile = new Uint8Array(n);   // 0: no pattern; else 1 + index into tiles
    this.tiles = [];
    this.tileIndex = new Map();
    /** the pattern tiles' size in pixels (layers.js sets it for the view's scale) */
    this.tileSize = 0;
  }

  tileOf(kind, size, patternTile) {
    const key = `${kind}|${size}`;
    if (!this.tileIndex.has(key)) {
      const canvas = patternTile(kind, "#000000", size), data = canvas.getContext("2d").getImageData(0, 0, size, size).data;
      const mask = new Uint8Array(size * size);
      for (let i = 0; i < mask.length; i++) mask[i] = data[i * 4 + 3];
      this.tiles.push({ size, mask });
      this.tileIndex.set(key, this.tiles.length);
    }
    return this.tileIndex.get(key);
  }

  // Work out one hex's numbers from the model and the styles.
  set(col, row, cell, styles, base, levelStep, tileSize, patternTile) {
    const i = col * this.grid.rows + row;
    let fill = parseColour(styles.style(cell.terrain[0]).fill), ink = null, tile = 0;
    for (let k = cell.terrain.length - 1; k >= 0 && !tile; k--) {
      const st = styles.style(cell.terrain[k]);
      if (st.pattern) {
        tile = this.tileOf(st.pattern, tileSize, patternTile);
        ink = st.pattern_colour ? parseColour(st.pattern_colour) : mix(parseColour(st.fill), [0, 0, 0], 0.35);
      } else if (k > 0) {   // a further terrain without a pattern shows as stripes of its colour
        tile = this.tileOf("stripes", tileSize, patternTile);
        ink = parseColour(st.fill);
      }
    }
    const d = cell.level - base;
    if (d) {
      const step = Math.max(1, Math.abs(levelStep || 1));
      const t = d > 0 ? Math.min(0.45, 0.12 * (d / step)) : Math.min(0.4, 0.12 * (-d / step));
      const tint = d > 0 ? [90, 50, 10] : [20, 60, 140];
      fill = mix(fill, tint, t);
      if (ink) ink = mix(ink, tint, t);
    }
    this.fill[i] = pack(fill);
    this.rgb[i] = fill;
    this.ink[i] = ink ? pack(ink) : 0;
    this.tile[i] = tile;
  }
}

// Paint the pixels of rect [px0, py0, px1, py1) of a layer whose pixel (0, 0) is map point (x0, y0) at `res`
// pixels a map unit. Grid lines of `line` pixels in `lineColour` when `grid` is set.
export function rasterise(ctx, paint, grid, { x0, y0, res }, rect, { showGrid = true, line = 1, lineRGB = [60, 50, 40],
                                                                    lineAlpha = 0.45 } = {}) {
  const [px0, py0, px1, py1] = rect, w = px1 - px0, h = py1 - py0;
  if (w <= 0 || h <= 0) return;
  const image = ctx.createImageData(w, h), out = new Uint32Array(image.data.buffer);
  const flat = grid.flat, cols = grid.columns, rows = grid.rows, odd = grid.stagger === "odd";
  const k = flat ? grid.centre(...grid.fromAxial(0, 0))[1] : grid.centre(...grid.fromAxial(0, 0))[0];
  const inv = 1 / res, apothem = SQRT3 / 2, half = (line / 2) * inv, feather = inv;
  const { fill, ink, tile, tiles } = paint;
  const offX = Math.round(x0 * res), offY = Math.round(y0 * res);
  for (let py = py0; py < py1; py++) {
    const y = y0 + (py + 0.5) * inv;
    let o = (py - py0) * w;
    for (let px = px0; px < px1; px++, o++) {
      const x = x0 + (px + 0.5) * inv;
      let qf, rf;
      if (flat) { qf = x / 1.5; rf = (y - k) / SQRT3 - qf / 2; } else { rf = y / 1.5; qf = (x - k) / SQRT3 - rf / 2; }
      const sf = -qf - rf;
      let q = Math.round(qf), r = Math.round(rf);
      const s = Math.round(sf), dq = Math.abs(q - qf), dr = Math.abs(r - rf), ds = Math.abs(s - sf);
      if (dq > dr && dq > ds) q = -r - s; else if (dr > ds) r = -q - s;
      let col, row;
      if (flat) { col = q; row = r + Math.floor((q + (odd ? -(q & 1) : (q & 1))) / 2); } else {
        row = r; col = q + Math.floor((r + (odd ? -(r & 1) : (r & 1))) / 2);
      }
      if (col < 0 || row < 0 || col >= cols || row >= rows) continue;
      const i = col * rows + row;
      let colour = fill[i];
      const t = tile[i];
      if (t) {
        const tl = tiles[t - 1], size = tl.size;
        const tx = (((px + offX) % size) + size) % size, ty = (((py + offY) % size) + size) % size;
        const a = tl.mask[ty * size + tx];
        if (a > 127) colour = ink[i];
      }
      if (showGrid) {
        let dx, dy, d;
        if (flat) {
          dx = x - 1.5 * q; dy = y - (SQRT3 * (r + q / 2) + k);
          d = Math.max(Math.abs(dy), Math.abs(apothem * dx + 0.5 * dy), Math.abs(apothem * dx - 0.5 * dy));
        } else {
          dx = x - (SQRT3 * (q + r / 2) + k); dy = y - 1.5 * r;
          d = Math.max(Math.abs(dx), Math.abs(0.5 * dx + apothem * dy), Math.abs(0.5 * dx - apothem * dy));
        }
        const edge = apothem - d;
        if (edge < half + feather) {
          const cover = lineAlpha * Math.min(1, Math.max(0, (half + feather - edge) / feather));
          const rr = colour & 255, gg = (colour >> 8) & 255, bb = (colour >> 16) & 255;
          colour = (255 << 24) | (Math.round(bb + (lineRGB[2] - bb) * cover) << 16)
            | (Math.round(gg + (lineRGB[1] - gg) * cover) << 8) | Math.round(rr + (lineRGB[0] - rr) * cover);
        }
      }
      out[o] = colour;
    }
  }
  ctx.putImageData(image, px0, py0);
}
