// @ts-check
// The designer's sight instruments, each a background job (docs/los.md, "Exposure, routes and observer height"):
// how many observers see each hex (a heat map with its legend), the least-exposed route between two hexes or a
// drawn route's exposure (the route on the map with each hex's count), the lowest level an observer needs to see
// each hex, and what an edit changed between two revisions (in the history panel). Results answer one revision.
import { urls } from "../../lib/api.js";
import { $ } from "../../lib/dom.js";
import { runJob } from "../../lib/jobs.js";
import { drawHeat, drawRoute, showLegend } from "../../canvas/heatmap.js";

const hexList = (text) => text.split(/[\s,;]+/).map((h) => h.trim().toUpperCase()).filter(Boolean);

export class Exposure {
  constructor(p) {
    this.p = p;
    this.shown = null;   // {kind: "exposure"|"height", values: Map, min, max, revision}
    this.route = null;   // the route job's result
    $("#run-exposure").addEventListener("click", () => this.runExposure());
    $("#run-route").addEventListener("click", () => this.runRoute(false));
    $("#run-drawn-route").addEventListener("click", () => this.runRoute(true));
    $("#run-height").addEventListener("click", () => this.runHeight());
    $("#run-diff").addEventListener("click", () => this.runDiff());
    $("#exposure-level").addEventListener("change", () => this.showExposure());
    $("#exposure-hide").addEventListener("click", () => { this.shown = null; this.route = null; $("#exposure-legend").hidden = true; p.view.request(); });
  }

  async ask(kind, params, state, busy) {
    const p = this.p;
    $(state).textContent = busy;
    try {
      const job = await runJob(urls.job(kind, p.mapId), params, (j) => p.progress.show(j));
      return job.result;
    } catch (err) {
      $(state).textContent = `No answer: ${err.message}`;
      return null;
    } finally { p.progress.hide(); p.view.request(); }
  }

  observers() { return hexList($("#exposure-observers").value); }

  async runExposure() {
    const revision = this.p.editor.revision;
    const result = await this.ask("exposure", { observers: this.observers() }, "#exposure-state", "Counting the observers that see each hex…");
    if (!result) return;
    this.exposure = { result, revision };
    this.showExposure();
  }

  showExposure() {
    if (!this.exposure) return;
    const { result, revision } = this.exposure, highest = $("#exposure-level").value === "highest";
    const values = new Map(Object.entries(result.hexes).map(([label, h]) =>
      [label, highest ? Math.max(...h.levels.map((l) => l.seen)) : h.seen]));
    const counts = [...values.values()], max = Math.max(1, ...counts);
    this.shown = { kind: "exposure", values, min: 0, max, revision };
    showLegend($("#exposure-legend"), 0, max, `observers that see the hex (${highest ? "its highest level" : "where a unit stands"})`);
    const none = counts.filter((c) => c === 0).length;
    $("#exposure-state").textContent = `Exposure to ${result.observers.length} observers (revision ${revision}): the most-seen hex `
      + `is seen by ${Math.max(...counts)}; ${none} hexes are seen by none.`;
    document.body.dataset.exposure = String(values.size);
    this.p.view.request();
  }

  async runRoute(drawn) {
    const params = { observers: this.observers() };
    if (drawn) params.route = hexList($("#route-drawn").value);
    else { params.from = $("#route-from").value.trim().toUpperCase(); params.to = $("#route-to").value.trim().toUpperCase(); }
    const result = await this.ask("route", params, "#route-state", drawn ? "Measuring the route…" : "Finding the least-exposed route…");
    if (!result) return;
    this.route = result;
    const first = result.hexes[0].hex, last = result.hexes[result.hexes.length - 1].hex;
    $("#route-state").textContent = `${result.drawn ? "Drawn route" : "Least-exposed route"} ${first} → ${last}: `
      + `${result.length} hexes, exposure ${result.exposure}, ${result.seen_hexes} hexes seen `
      + `(${Math.round(100 * result.share_seen)}% of the route).`;
    document.body.dataset.route = String(result.length);
    this.p.view.request();
  }

  async runHeight() {
    const from = $("#height-from").value.trim().toUpperCase(), revision = this.p.editor.revision;
    this.route = null;   // one picture at a time: the heights alone
    const result = await this.ask("minimum-height", { from }, "#height-state", `Raising an observer in ${from}…`);
    if (!result) return;
    const values = new Map(Object.entries(result.hexes));
    const levels = result.levels, seen = [...values.values()].filter((v) => v !== null).length;
    this.shown = { kind: "height", values, min: levels[0], max: levels[levels.length - 1], revision };
    showLegend($("#exposure-legend"), levels[0], levels[levels.length - 1], `lowest observer level in ${result.from} that sees the hex (grey: none)`);
    $("#height-state").textContent = `From ${result.from}, raised from level ${levels[0]} to ${levels[levels.length - 1]}: `
      + `${seen} hexes seen at some level, ${values.size - seen} at none.`;
    document.body.dataset.height = String(values.size);
  }

  async runDiff() {
    const old = Number($("#diff-old").value), params = { old };
    const result = await this.ask("diff", params, "#diff-state", `Comparing revision ${old} with the working one…`);
    if (!result) return;
    $("#diff-state").textContent = `Revision ${result.old} → ${result.new}: ${result.sentence} `
      + `(${result.gained.count} pairs gained LOS, ${result.lost.count} lost it; ${result.traced_pairs} lines traced again.)`;
    this.p.highlight = { hexes: result.changed_hexes.map((h) => this.p.grid.parseLabel(h)), hexsides: [] };
    document.body.dataset.diff = String(result.lost.count + result.gained.count);
  }

  draw(ctx, view) {
    const g = this.p.grid;
    if (this.shown) {
      const stale = this.shown.revision !== this.p.editor.revision;
      drawHeat(ctx, view, g, this.shown.values, { min: this.shown.min, max: this.shown.max, alpha: stale ? 0.3 : 0.6, none: "–" });
    }
    if (this.route) drawRoute(ctx, view, g, this.route.hexes);
  }
}
