// @ts-check
// Counts over the map (exposure: how many observers see each hex; an observer's lowest level), drawn as a heat map
// with the count written in each hex when the hexes are large enough to read it, and the legend beside the map:
// a colour bar with its lowest, middle and highest values and what they count.
import { heat } from "./results.js";

/** Fill each hex by its value (a Map of label -> number, null for none) and write the number when readable.
 * @param {CanvasRenderingContext2D} ctx @param {any} view @param {any} grid @param {Map<string, number|null>} values
 * @param {{min: number, max: number, alpha?: number, none?: string}} scale */
export function drawHeat(ctx, view, grid, values, { min, max, alpha = 0.6, none = "" }) {
  const span = Math.max(1, max - min), numbers = view.scale >= 18;
  ctx.save();
  for (const [label, value] of values) {
    const [col, row] = grid.parseLabel(label);
    ctx.beginPath(); view.hexPath(ctx, col, row);
    ctx.globalAlpha = value === null ? alpha / 2 : alpha;
    ctx.fillStyle = value === null ? "#777" : heat((value - min) / span); ctx.fill();
  }
  ctx.globalAlpha = 1;
  if (numbers) {
    ctx.font = "0.42px system-ui, sans-serif"; ctx.textAlign = "center"; ctx.textBaseline = "middle";
    ctx.lineWidth = 0.08; ctx.strokeStyle = "#fff"; ctx.fillStyle = "#000"; ctx.lineJoin = "round";
    for (const [label, value] of values) {
      const text = value === null ? none : String(value);
      if (!text) continue;
      const [x, y] = grid.centre(...grid.parseLabel(label));
      ctx.strokeText(text, x, y + 0.22); ctx.fillText(text, x, y + 0.22);
    }
  }
  ctx.restore();
}

/** A route drawn hex to hex with each hex's exposure written beside it. @param {CanvasRenderingContext2D} ctx
 * @param {any} view @param {any} grid @param {{hex: string, seen: number}[]} hexes */
export function drawRoute(ctx, view, grid, hexes) {
  ctx.save();
  ctx.beginPath();
  hexes.forEach((h, i) => { const [x, y] = grid.centre(...grid.parseLabel(h.hex)); if (i) ctx.lineTo(x, y); else ctx.moveTo(x, y); });
  ctx.lineWidth = 7 / view.scale; ctx.strokeStyle = "#fff"; ctx.stroke();
  ctx.lineWidth = 4 / view.scale; ctx.strokeStyle = "#CC79A7"; ctx.stroke();
  ctx.font = "0.5px system-ui, sans-serif"; ctx.textAlign = "center"; ctx.textBaseline = "middle";
  for (const h of hexes) {
    const [x, y] = grid.centre(...grid.parseLabel(h.hex));
    ctx.beginPath(); ctx.arc(x, y, 0.3, 0, 7); ctx.fillStyle = h.seen ? "#D55E00" : "#fff"; ctx.fill();
    ctx.lineWidth = 2 / view.scale; ctx.strokeStyle = "#000"; ctx.stroke();
    ctx.fillStyle = h.seen ? "#fff" : "#000"; ctx.fillText(String(h.seen), x, y + 0.02);
  }
  ctx.restore();
}

/** The legend: a figure holding a canvas bar and a caption of spans (data-legend="min|mid|max|what").
 * @param {HTMLElement} figure @param {number} min @param {number} max @param {string} what */
export function showLegend(figure, min, max, what) {
  const bar = /** @type {HTMLCanvasElement} */ (figure.querySelector("canvas")), g = bar.getContext("2d");
  for (let x = 0; x < bar.width; x++) { g.fillStyle = heat(x / (bar.width - 1)); g.fillRect(x, 0, 1, bar.height); }
  const set = (key, text) => { figure.querySelector(`[data-legend="${key}"]`).textContent = text; };
  set("min", String(min)); set("mid", String(Math.round((min + max) / 2))); set("max", String(max)); set("what", what);
  figure.hidden = false;
  figure.scrollIntoView({ block: "nearest" });   // beside the map while the heat map is shown
}
