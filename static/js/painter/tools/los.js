// @ts-check
// LOS: click the observer, then the target. The line is drawn at once; the background job's answer colours it
// and its reasons are listed beside the map. With "markers" on, clicks drop smoke or wrecks for the check.
import { PALETTE } from "../../canvas/results.js";

export const los = {
  id: "los", name: "LOS check", key: "s",
  title: "Line of sight (S): click the observer, then the target; Shift-click drops a marker for the check",
  /** @type {import("../../canvas/tools.js").Hex | null} */
  cursor: null,
  down({ editor: p, hex: h, event: e }) {
    if (!p.grid.contains(...h)) return;
    if (e.shiftKey || p.options.markerMode) { p.toggleMarker(h); return; }
    const s = p.sight;
    if (!s.from || s.to) { s.from = h; s.to = null; s.answer = null; p.sightChanged(); return; }
    s.to = h;
    p.sightChanged();
    p.runLos();
  },
  move({ editor: p, hex }) { this.cursor = hex; if (p.sight.from && !p.sight.to) p.view.request(); },
  preview(ctx, { view, editor: p }) {
    const s = p.sight;
    if (s.from && !s.to && this.cursor) drawLine(ctx, view, s.from, this.cursor, "#555", []);
  },
};

export function drawLine(ctx, view, a, b, colour, dash, width = 4) {
  const [x0, y0] = view.grid.centre(...a), [x1, y1] = view.grid.centre(...b);
  ctx.beginPath(); ctx.moveTo(x0, y0); ctx.lineTo(x1, y1);
  ctx.lineCap = "round"; ctx.strokeStyle = "#ffffff"; ctx.lineWidth = (width + 3) / view.scale; ctx.stroke();
  ctx.setLineDash(dash.map((d) => d)); ctx.strokeStyle = colour; ctx.lineWidth = width / view.scale; ctx.stroke();
  ctx.setLineDash([]);
}

export function lineStyle(answer) {
  if (!answer) return { colour: "#555555", dash: [0.2, 0.2] };
  const p = PALETTE[answer.result] || PALETTE.clear;
  return { colour: p.colour, dash: p.dash };
}
