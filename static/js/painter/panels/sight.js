// @ts-check
// LOS, viewshed and whole-map analysis: each a background job; the answer listed beside the map and drawn on
// it, kept for the revision it answers and marked stale once the map changes. Markers (smoke, wrecks) are for
// the checks only, never saved.
import { urls } from "../../lib/api.js";
import { $, el } from "../../lib/dom.js";
import { runJob } from "../../lib/jobs.js";
import { PALETTE, heat, resultFill, unpackViewshed } from "../../canvas/results.js";
import { drawLine, lineStyle } from "../tools/los.js";

export class Sight {
  constructor(p) {
    this.p = p;
    p.sight = { from: null, to: null, answer: null, markers: [], fromLevel: "", toLevel: "" };
    p.results = { viewshed: null, analysis: null };
    const s = p.sight;
    $("#los-from-level").addEventListener("change", (e) => { s.fromLevel = e.target.value; this.rerun(); });
    $("#los-to-level").addEventListener("change", (e) => { s.toLevel = e.target.value; this.rerun(); });
    $("#clear-markers").addEventListener("click", () => { s.markers = []; this.renderMarkers(); this.rerun(); });
    $("#run-analysis").addEventListener("click", () => this.runAnalysis());
    $("#analysis-show").addEventListener("change", () => { this.showHeatLegend(); p.view.request(); });
  }

  changed() {
    const s = this.p.sight, g = this.p.grid;
    $("#los-from").textContent = s.from ? g.label(...s.from) : "—";
    $("#los-to").textContent = s.to ? g.label(...s.to) : "—";
    if (!s.to) { $("#los-answer").textContent = "Click the target."; $("#los-reasons").replaceChildren(); }
    this.chip(s.from && !s.to ? `LOS from ${g.label(...s.from)}: now the target` : "");
    this.p.view.request();
  }

  // The answer on the map's corner too, where a phone's reader sees it without scrolling to the LOS panel.
  chip(text) {
    const chip = $("#los-chip");
    chip.textContent = text;
    chip.hidden = !text;
  }

  toggleMarker(h) {
    const s = this.p.sight, label = this.p.grid.label(...h), at = s.markers.findIndex((m) => m.hex === label);
    if (at >= 0) s.markers.splice(at, 1);
    else s.markers.push({ hex: label, kind: this.p.options.markerKind });
    this.renderMarkers();
    this.rerun();
  }

  renderMarkers() {
    $("#marker-list").replaceChildren(...this.p.sight.markers.map((m) => el("li", {}, `${m.kind} in ${m.hex}`)));
    this.p.view.request();
  }

  rerun() { if (this.p.sight.from && this.p.sight.to) this.runLos(); }

  async runLos() {
    const p = this.p, s = p.sight, g = p.grid, params = { from: g.label(...s.from), to: g.label(...s.to) };
    if (s.fromLevel !== "") params.from_level = Number(s.fromLevel);
    if (s.toLevel !== "") params.to_level = Number(s.toLevel);
    if (s.markers.length) params.markers = s.markers;
    s.answer = null; s.pendingRevision = p.editor.revision;
    p.highlight = null;
    $("#los-answer").textContent = "Asking the rules…";
    this.chip(`LOS ${params.from} → ${params.to}: asking the rules…`);
    $("#los-reasons").replaceChildren();
    $("#los-panel").open = true;
    const token = (this.token = {});
    try {
      const job = await runJob(urls.job("los", p.mapId), params, (j) => p.progress.show(j));
      if (token !== this.token) return;
      s.answer = job.result; s.revision = s.pendingRevision; s.stale = false;
      this.showAnswer(job.result);
    } catch (err) {
      if (token === this.token) { $("#los-answer").textContent = `No answer: ${err.message}`; this.chip(`No answer: ${err.message}`); }
    } finally { p.progress.hide(); }
  }

  showAnswer(a) {
    const p = this.p, colour = PALETTE[a.result].colour;
    const answer = el("strong", { class: `answer answer-${a.result}` }, a.result.toUpperCase());
    answer.style.borderColor = colour;  // a property, not a style attribute: the CSP refuses those
    $("#los-answer").replaceChildren(
      answer,
      ` ${a.from} (level ${a.from_level}) → ${a.to} (level ${a.to_level})${a.term ? ` · ${a.term}` : ""}`
      + `${a.hindrances ? ` · ${a.hindrances} hindrance${a.hindrances > 1 ? "s" : ""}` : ""}${a.blind ? " · blind hex" : ""}`);
    $("#los-answer").dataset.result = a.result;
    this.chip(`LOS ${a.from} → ${a.to}: ${a.result.toUpperCase()}${a.reasons.length ? " (the reasons are under LOS)" : ""}`);
    const list = $("#los-reasons");
    list.replaceChildren(...a.reasons.map((r, i) => el("li", {},
      el("button", { type: "button", class: "reason", "data-index": i, "data-hex": r.hex || "", "data-hexside": r.hexside || "",
                     onclick: (e) => this.highlightReason(r, e.currentTarget), onfocus: (e) => this.highlightReason(r, e.currentTarget) },
         `${r.hexside || r.hex}: ${p.styles.name(r.terrain)} ${r.effect}`, el("span", { class: "rule" }, ` (${r.rule})`)))));
    if (!a.reasons.length) list.append(el("li", { class: "muted" }, "Nothing along the line changed the answer."));
    for (const text of a.assumptions || []) list.append(el("li", { class: "muted" }, `Assumed: ${text}`));
    p.view.request();
  }

  highlightReason(r, button) {
    for (const b of document.querySelectorAll("#los-reasons .reason")) b.classList.toggle("active", b === button);
    const g = this.p.grid, hl = { hexes: [], hexsides: [] };
    try {
      if (r.hex) hl.hexes.push(g.parseLabel(r.hex));
      if (r.hexside) {
        const [label, side] = r.hexside.split("/");
        hl.hexsides.push([...g.parseLabel(label), g.sideIndex(side)]);
      }
    } catch { /* a hexside named from a hex off the map: nothing to draw */ }
    this.p.highlight = hl;
    this.p.view.request();
  }

  async runViewshed(h) {
    const p = this.p, g = p.grid, params = { from: g.label(...h) };
    if (p.sight.markers.length) params.markers = p.sight.markers;
    $("#viewshed-state").textContent = `Viewshed from ${g.label(...h)}…`;
    $("#los-panel").open = true;
    const revision = p.editor.revision;
    try {
      const job = await runJob(urls.job("viewshed", p.mapId), params, (j) => p.progress.show(j));
      const hexes = await unpackViewshed(job.result, (c, r) => g.label(c, r));
      p.results.viewshed = { from: h, hexes, revision, stale: false };
      $("#analysis-show").value = "off";   // one shading at a time
      this.showHeatLegend();
      const count = (k) => [...hexes.values()].filter((a) => a.result === k).length;
      $("#viewshed-state").textContent = `Viewshed from ${g.label(...h)}: ${count("clear")} clear, ${count("hindered")} `
        + `hindered, ${count("blocked")} blocked (revision ${revision}).`;
      document.body.dataset.viewshed = String(hexes.size);
    } catch (err) {
      $("#viewshed-state").textContent = `No viewshed: ${err.message}`;
    } finally { p.progress.hide(); p.view.request(); }
  }

  async runAnalysis() {
    const p = this.p;
    $("#analysis-state").textContent = "Analysing the whole map…";
    $("#los-panel").open = true;
    const revision = p.editor.revision;
    try {
      const job = await runJob(urls.job("analysis", p.mapId), {}, (j) => p.progress.show(j));
      p.results.analysis = { hexes: job.result.hexes, revision, stale: false };
      p.results.viewshed = null;   // one shading at a time
      $("#analysis-show").value = "sees";
      const seen = Object.values(job.result.hexes).map((v) => v.clear + v.hindered);
      $("#analysis-state").textContent = `Analysis of ${seen.length} hexes (revision ${revision}): each hex sees from `
        + `${Math.min(...seen)} (dark purple) to ${Math.max(...seen)} (yellow) hexes.`;
      this.heatLegend(0, Math.max(1, ...seen));
    } catch (err) {
      $("#analysis-state").textContent = `No analysis: ${err.message}`;
    } finally { p.progress.hide(); p.view.request(); }
  }

  // The heat map's colour legend: the scale from 0 to the most hexes any hex sees, shown while the heat map is.
  heatLegend(min, max) {
    const bar = $("#heat-legend-bar"), g = bar.getContext("2d");
    for (let x = 0; x < bar.width; x++) { g.fillStyle = heat(x / (bar.width - 1)); g.fillRect(x, 0, 1, bar.height); }
    $("#heat-legend-min").textContent = String(min);
    $("#heat-legend-max").textContent = String(max);
    this.showHeatLegend();
  }

  showHeatLegend() {
    $("#heat-legend").hidden = !(this.p.results.analysis && $("#analysis-show").value !== "off");
  }

  // Results answer one revision: once the map moves on (or a stroke is waiting), they are shown as stale.
  markStale() {
    const p = this.p, rev = p.editor.revision, pending = p.editor.pending.length;
    const stale = (r) => r && (r.revision !== rev || pending > 0);
    const s = p.sight, vs = p.results.viewshed, an = p.results.analysis;
    s.stale = !!(s.answer && stale(s));
    if (vs) vs.stale = stale(vs);
    if (an) an.stale = stale(an);
    $("#results-stale").hidden = !(s.stale || (vs || {}).stale || (an || {}).stale);
    p.view.request();
  }

  draw(ctx, view) {
    const p = this.p, g = p.grid, vs = p.results.viewshed, an = p.results.analysis, show = $("#analysis-show").value;
    if (an && show !== "off") {
      const of = (v) => v.clear + v.hindered;   // LOS is reciprocal: what a hex sees is what sees it
      const max = Math.max(1, ...Object.values(an.hexes).map(of));
      ctx.globalAlpha = an.stale ? 0.3 : 0.6;
      for (const [label, v] of Object.entries(an.hexes)) {
        ctx.beginPath(); view.hexPath(ctx, ...g.parseLabel(label)); ctx.fillStyle = heat(of(v) / max); ctx.fill();
      }
      ctx.globalAlpha = 1;
    }
    if (vs) {
      for (const [label, a] of vs.hexes) {
        ctx.beginPath(); view.hexPath(ctx, ...g.parseLabel(label));
        resultFill(ctx, view, a.blind ? "blind" : a.result, vs.stale ? 0.2 : 0.45);
      }
      ctx.beginPath(); view.hexPath(ctx, ...vs.from); ctx.lineWidth = 4 / view.scale; ctx.strokeStyle = "#000"; ctx.stroke();
    }
    const s = p.sight;
    for (const m of s.markers) view.drawMarker(ctx, ...g.parseLabel(m.hex), m.kind);
    if (!s.from) return;
    if (s.to) {
      const st = lineStyle(s.answer);
      drawLine(ctx, view, s.from, s.to, st.colour, s.stale ? [0.1, 0.3] : st.dash, 5);
      if (s.answer && s.answer.blind) {
        const [x, y] = g.centre(...s.to);
        ctx.beginPath(); ctx.arc(x, y, 0.5, 0, 7); ctx.lineWidth = 3 / view.scale; ctx.strokeStyle = "#000"; ctx.stroke();
      }
    }
    for (const [h, name] of [[s.from, "observer"], [s.to, "target"]]) {
      if (!h) continue;
      const [x, y] = g.centre(...h);
      ctx.beginPath(); ctx.arc(x, y, 0.28, 0, 7); ctx.fillStyle = name === "observer" ? "#000" : "#fff"; ctx.fill();
      ctx.lineWidth = 2 / view.scale; ctx.strokeStyle = "#000"; ctx.stroke();
    }
  }
}
