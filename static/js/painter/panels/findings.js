// @ts-check
// The map's findings (GET /api/maps/<id>/findings/): listed, each hex outlined on the map, a click picks one out.
import { ApiError, get, urls } from "../../lib/api.js";
import { $, el } from "../../lib/dom.js";

export class Findings {
  constructor(p) { this.p = p; this.items = []; }

  async load() {
    const p = this.p, state = $("#findings-state"), list = $("#findings-list");
    if (!p.config.findings) { state.textContent = "Map checks are not available on this server yet."; return; }
    try {
      const data = await get(urls.findings(p.mapId));   // the first page (1000); a large map's count says the rest
      if (data.job) { state.textContent = "The map is being checked in the background; reload the page in a while."; return; }
      this.items = (data.findings || []).map((f) => {
        let at = null;
        try { if (f.hex) at = p.grid.parseLabel(f.hex); } catch { at = null; }
        return { ...f, at };
      });
      const count = data.count ?? this.items.length;
      state.textContent = !count ? "No findings."
        : count > this.items.length ? `${count} finding(s), the first ${this.items.length} listed` : `${count} finding(s)`;
      list.replaceChildren(...this.items.map((f) => el("li", { class: `finding ${f.severity}` },
        el("button", { type: "button", class: "reason", onclick: () => { p.highlight = { hexes: f.at ? [f.at] : [], hexsides: [] }; p.view.request(); } },
           `${f.severity}: ${f.hex ? f.hex + " · " : ""}${f.message}`))));
      p.view.request();
    } catch (err) {
      state.textContent = err instanceof ApiError && err.status === 404 ? "Map checks are not available on this server yet."
        : `Could not load findings: ${err.message}`;
    }
  }

  draw(ctx, view) {
    for (const f of this.items) {
      if (!f.at) continue;
      ctx.beginPath(); view.hexPath(ctx, ...f.at, -0.1);
      ctx.setLineDash([0.15, 0.1]); ctx.lineWidth = 3 / view.scale;
      ctx.strokeStyle = f.severity === "error" ? "#D55E00" : "#E69F00"; ctx.stroke(); ctx.setLineDash([]);
    }
  }
}
