// The map painter page: wires the view, the tools, the panels and the keyboard (templates/maps/editor.html).
import { ApiError, get, post, urls } from "./api.js";
import { Editor } from "./edits.js";
import { runJob } from "./jobs.js";
import { MapView, Styles } from "./mapview.js";
import { PALETTE, heat, resultFill } from "./results.js";
import { analysis } from "./tools/analysis.js";
import { art } from "./tools/art.js";
import { brush } from "./tools/brush.js";
import { eraser } from "./tools/eraser.js";
import { fill } from "./tools/fill.js";
import { hexside } from "./tools/hexside.js";
import { level } from "./tools/level.js";
import { drawLine, lineStyle, los } from "./tools/los.js";
import { overlay } from "./tools/overlay.js";
import { pan } from "./tools/pan.js";
import { picker } from "./tools/picker.js";
import { rectangle } from "./tools/rectangle.js";
import { viewshed } from "./tools/viewshed.js";

const EDIT_TOOLS = [brush, fill, rectangle, level, hexside, art, overlay, eraser];
const LOOK_TOOLS = [picker, los, viewshed, analysis, pan];
const POLL_MS = 2000;
const $ = (sel, root = document) => root.querySelector(sel);
const el = (tag, attrs = {}, ...children) => {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (v !== false && v != null) node.setAttribute(k, v === true ? "" : v);
  }
  node.append(...children.filter((c) => c != null));
  return node;
};

class Painter {
  constructor(config) {
    this.config = config;
    this.mapId = config.map;
    this.canEdit = config.canEdit;
    this.options = { terrain: null, mode: "replace", radius: 0, levelMode: "set", level: 1, storeys: 2, hexside: null,
                     overlayMode: "stamp", rotation: 0, template: "", markerKind: "smoke", markerMode: false };
    this.templates = [];
    this.sight = { from: null, to: null, answer: null, markers: [], fromLevel: "", toLevel: "" };
    this.results = { viewshed: null, analysis: null };
    this.findings = [];
    this.highlight = null;
  }

  async start() {
    const [data, ruleset] = await Promise.all([get(urls.map(this.mapId)), get(urls.ruleset(this.config.ruleset))]);
    this.ruleset = ruleset.ruleset;
    this.styles = new Styles(this.ruleset);
    this.editor = new Editor(this.mapId, data.document, data.revision);
    this.model = this.editor.local;
    this.model.levelStep = this.ruleset.level_step || 1;
    const hexTerrains = this.styles.legend("hex"), sideTerrains = this.styles.legend("hexside");
    this.options.terrain = (hexTerrains.find((t) => t.id === "woods") || hexTerrains[0] || {}).id;
    this.options.hexside = (sideTerrains.find((t) => t.id === "hedge") || sideTerrains[0] || {}).id;
    this.options.level = Math.min(this.ruleset.level_max ?? 1, (this.ruleset.level_step || 1));
    this.view = new MapView($("#map-canvas"), this.model, this.styles);
    this.view.addLayer({ draw: (ctx, view) => this.drawResults(ctx, view) });
    this.tools = this.canEdit ? [...EDIT_TOOLS, ...LOOK_TOOLS] : LOOK_TOOLS;
    this.buildToolbar();
    this.buildOptions(hexTerrains, sideTerrains);
    this.buildLegend(hexTerrains, sideTerrains);
    this.bindCanvas();
    this.bindKeys();
    this.bindEditor();
    this.bindScan();
    this.useTool(this.canEdit ? brush : los);
    this.loadBackground();
    this.refreshHistory();
    this.loadFindings();
    setInterval(() => this.editor.poll().catch(() => {}), POLL_MS);
    this.state();
    document.body.dataset.ready = "1";
    window.painter = this;   // for the tests, the benchmark and the console
  }

  // -- what the tools are given ----------------------------------------------------------------------------
  get grid() { return this.model.grid; }
  mapPoint(e) { return this.view.toMap(...this.view.eventPoint(e)); }
  hexAt(e) { return this.grid.hexAt(...this.mapPoint(e)); }
  commit(ops, label) {
    if (!this.canEdit || !ops.length) return;
    this.editor.commit(ops, label);
    this.markStale();
  }
  say(text) { $("#status-note").textContent = text; }
  setOptions(values) {
    Object.assign(this.options, values);
    for (const [k, v] of Object.entries(values)) {
      const input = document.querySelector(`[data-option="${k}"]`);
      if (input) input.value = v;
    }
  }
  template() { return this.templates.find((t) => t.key === this.options.template) || null; }
  addTemplate(t) {
    const key = `selection-${this.templates.length + 1}`;
    this.templates.push({ key, base: "sel", name: `Selection ${this.templates.length + 1} (${t.hexes.length} hexes)`, ...t });
    this.options.template = key;
    this.refreshTemplates();
    this.setOptions({ overlayMode: "stamp" });
    this.say(`made an overlay template of ${t.hexes.length} hexes; click to stamp it`);
  }

  // -- toolbar and options ---------------------------------------------------------------------------------
  buildToolbar() {
    const bar = $("#tools");
    for (const tool of this.tools) {
      const b = el("button", { type: "button", class: "tool", "data-tool": tool.id, title: tool.title,
                               "aria-pressed": "false", "aria-keyshortcuts": tool.key.toUpperCase(),
                               onclick: () => this.useTool(tool) },
                   el("span", { class: "tool-name" }, tool.name), el("kbd", {}, tool.key.toUpperCase()));
      bar.append(b);
    }
    $("#undo").addEventListener("click", () => this.editor.undo());
    $("#redo").addEventListener("click", () => this.editor.redo());
    $("#fit").addEventListener("click", () => this.view.fit());
    $("#help-button").addEventListener("click", () => this.toggleHelp());
    $("#show-labels").addEventListener("change", (e) => { this.view.showLabels = e.target.checked; this.view.invalidate(); });
    $("#show-grid").addEventListener("change", (e) => { this.view.showGrid = e.target.checked; this.view.invalidate(); });
    for (const b of ["#undo", "#redo"]) $(b).hidden = !this.canEdit;
  }

  useTool(tool) {
    if (this.tool && this.tool.cancel) this.tool.cancel();
    this.tool = tool;
    for (const b of document.querySelectorAll("#tools .tool")) {
      b.setAttribute("aria-pressed", String(b.dataset.tool === tool.id));
    }
    for (const group of document.querySelectorAll("[data-for]")) {
      group.hidden = !group.dataset.for.split(" ").includes(tool.id);
    }
    $("#map-canvas").dataset.tool = tool.id;
    this.say(tool.title);
    this.view.request();
  }

  buildOptions(hexTerrains, sideTerrains) {
    const fillSelect = (sel, items) => {
      for (const t of items) sel.append(el("option", { value: t.id }, t.name || t.id));
    };
    fillSelect($("#opt-terrain"), hexTerrains);
    fillSelect($("#opt-hexside"), sideTerrains);
    const r = this.ruleset;
    for (const id of ["#opt-level", "#los-from-level", "#los-to-level"]) {
      const input = $(id);
      if (r.level_min != null) input.min = r.level_min;
      if (r.level_max != null) input.max = r.level_max;
      input.step = r.level_step || 1;
    }
    for (const input of document.querySelectorAll("[data-option]")) {
      const key = input.dataset.option;
      if (input.type === "checkbox") input.checked = !!this.options[key];
      else input.value = this.options[key];
      input.addEventListener("change", () => {
        const v = input.type === "checkbox" ? input.checked : input.value;
        this.options[key] = ["radius", "rotation", "level", "storeys"].includes(key) ? Number(v) : v;
        if (key === "overlayMode" || key === "template") this.view.request();
      });
    }
    $("#rotate").addEventListener("click", () => this.rotateTemplate());
    const markers = this.ruleset.terrain.filter((t) => t.layer === "marker");
    const kinds = ["smoke", "smoke2", "wreck", "vehicle", "rubble", "dust", "flame"];
    for (const k of kinds) {
      const entry = markers.find((t) => t.id === k);
      $("#opt-marker").append(el("option", { value: k }, entry ? entry.name || k : k));
    }
    $("#los-from-level").addEventListener("change", (e) => { this.sight.fromLevel = e.target.value; this.rerunLos(); });
    $("#los-to-level").addEventListener("change", (e) => { this.sight.toLevel = e.target.value; this.rerunLos(); });
    $("#clear-markers").addEventListener("click", () => { this.sight.markers = []; this.renderMarkers(); this.rerunLos(); });
    $("#run-analysis").addEventListener("click", () => this.runAnalysis());
    $("#analysis-show").addEventListener("change", () => this.view.request());
    this.refreshTemplates();
  }

  rotateTemplate() {
    this.options.rotation = (this.options.rotation + 1) % 6;
    $("#opt-rotation").value = this.options.rotation;
    this.view.request();
  }

  refreshTemplates() {
    const sel = $("#opt-template");
    sel.replaceChildren(el("option", { value: "" }, "— choose —"));
    const fromMap = this.model.overlays.map((o) => ({ key: `map-${o.id}`, base: o.id.replace(/-\d+$/, ""),
                                                      name: `${o.id} (on the map)`, hexes: o.hexes, hexsides: o.hexsides }));
    this.templates = [...this.templates.filter((t) => !t.key.startsWith("map-")), ...fromMap];
    for (const t of this.templates) sel.append(el("option", { value: t.key }, t.name));
    sel.value = this.options.template;
  }

  buildLegend(hexTerrains, sideTerrains) {
    const list = $("#legend-list");
    const swatch = (t) => {
      const c = el("canvas", { width: 28, height: 20, "aria-hidden": "true" }), g = c.getContext("2d");
      const st = this.styles.style(t.id);
      if (t.layer === "hexside") {
        g.strokeStyle = st.stroke; g.lineWidth = Math.max(2, (st.stroke_width || 0.1) * 40); g.beginPath();
        g.moveTo(2, 10); g.lineTo(26, 10); g.stroke();
      } else {
        g.fillStyle = st.fill; g.fillRect(0, 0, 28, 20);
        const pat = this.styles.pattern(g, st, 8);
        if (pat) { g.fillStyle = pat; g.fillRect(0, 0, 28, 20); }
      }
      return c;
    };
    for (const t of [...hexTerrains, ...sideTerrains]) {
      list.append(el("li", { title: `${t.name || t.id}: LOS ${t.los}${t.rule ? ", " + t.rule : ""}` }, swatch(t),
                     el("span", {}, t.name || t.id)));
    }
    const results = $("#results-legend");
    for (const [k, p] of Object.entries(PALETTE)) {
      const c = el("canvas", { width: 28, height: 20, "aria-hidden": "true" }), g = c.getContext("2d");
      g.beginPath(); g.rect(0, 0, 28, 20);
      resultFill(g, { scale: 1, dpr: 1 }, k, 0.6);
      results.append(el("li", {}, c, el("span", {}, p.label)));
    }
  }

  // -- the canvas ------------------------------------------------------------------------------------------
  bindCanvas() {
    const canvas = $("#map-canvas");
    let panning = null;
    canvas.addEventListener("contextmenu", (e) => e.preventDefault());
    canvas.addEventListener("wheel", (e) => {
      e.preventDefault();
      this.view.zoomAt(...this.view.eventPoint(e), Math.exp(-e.deltaY * 0.0015));
    }, { passive: false });
    canvas.addEventListener("pointerdown", (e) => {
      canvas.focus();
      canvas.setPointerCapture(e.pointerId);
      if (e.button === 1 || e.button === 2 || this.spaceHeld || this.tool === pan || this.scanDrag(e)) {
        panning = this.aligning && this.aligning.dragging ? null : [e.clientX, e.clientY];
        return;
      }
      if (e.button === 0 && this.tool.down) this.tool.down(this, e);
      this.view.request();
    });
    canvas.addEventListener("pointermove", (e) => {
      this.hover(e);
      if (this.aligning && this.aligning.dragging) {
        this.aligning.dragging.at = this.mapPoint(e);
        this.view.request();
        return;
      }
      if (panning) {
        this.view.panBy(e.clientX - panning[0], e.clientY - panning[1]);
        panning = [e.clientX, e.clientY];
        return;
      }
      if (this.tool.move) this.tool.move(this, e);
    });
    const end = (e) => {
      if (this.aligning && this.aligning.dragging) { this.aligning.dragging = null; this.view.request(); return; }
      if (panning) { panning = null; return; }
      if (this.tool.up) this.tool.up(this, e);
      this.view.request();
    };
    canvas.addEventListener("pointerup", end);
    canvas.addEventListener("pointercancel", end);
    canvas.addEventListener("pointerleave", () => { this.lastPointer = null; $("#status-hex").textContent = "—"; });
  }

  hover(e) {
    this.lastPointer = e;
    const [col, row] = this.hexAt(e), g = this.grid;
    if (!g.contains(col, row)) { $("#status-hex").textContent = "—"; return; }
    const cell = this.model.resolvedCell(col, row), sides = [], all = this.model.resolvedHexsides();
    for (let i = 0; i < 6; i++) {
      const t = all.get(g.hexside(col, row, i).join(","));
      if (t) sides.push(`${g.sides[i]} ${this.styles.name(t)}`);
    }
    $("#status-hex").textContent = `${g.label(col, row)} · ${cell.terrain.map((t) => this.styles.name(t)).join(" + ")}`
      + ` · level ${cell.level}${cell.storeys > 1 ? ` · ${cell.storeys} storeys` : ""}`
      + `${cell.overlay ? ` · overlay ${cell.overlay}` : ""}${sides.length ? " · hexsides: " + sides.join(", ") : ""}`;
  }

  // -- keyboard --------------------------------------------------------------------------------------------
  bindKeys() {
    document.addEventListener("keydown", (e) => {
      const typing = /^(INPUT|SELECT|TEXTAREA)$/.test(e.target.tagName);
      if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === "z" && !typing) {
        e.preventDefault();
        if (e.shiftKey) this.editor.redo(); else this.editor.undo();
        return;
      }
      if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === "y" && !typing) { e.preventDefault(); this.editor.redo(); return; }
      if (typing || e.ctrlKey || e.metaKey || e.altKey) return;
      if (this.tool && this.tool.onKey && this.tool.onKey(this, e)) { e.preventDefault(); return; }
      if (e.key === "?") { this.toggleHelp(); return; }
      if (e.key === "Escape") { this.toggleHelp(false); if (this.tool.cancel) this.tool.cancel(); this.view.request(); return; }
      if (e.key === " ") { this.spaceHeld = true; if (e.target === document.body || e.target.id === "map-canvas") e.preventDefault(); return; }
      if (e.key === "0") { this.view.fit(); return; }
      if (e.key === "+" || e.key === "=") { this.view.zoomAt(this.view.width / 2, this.view.height / 2, 1.25); return; }
      if (e.key === "-") { this.view.zoomAt(this.view.width / 2, this.view.height / 2, 0.8); return; }
      if (e.key === "[" || e.key === "]") {
        this.setOptions({ radius: Math.max(0, Math.min(3, this.options.radius + (e.key === "]" ? 1 : -1))) });
        return;
      }
      if (e.key.toLowerCase() === "q" && this.tool === overlay) { this.rotateTemplate(); return; }
      if (e.key.toLowerCase() === "g") { $("#show-labels").click(); return; }
      const tool = this.tools.find((t) => t.key === e.key.toLowerCase());
      if (tool) this.useTool(tool);
    });
    document.addEventListener("keyup", (e) => { if (e.key === " ") this.spaceHeld = false; });
  }

  toggleHelp(show) {
    const help = $("#help");
    help.hidden = show === undefined ? !help.hidden : !show;
    if (!help.hidden) $("#help-close").focus();
  }

  // -- saving ----------------------------------------------------------------------------------------------
  bindEditor() {
    const ed = this.editor;
    ed.addEventListener("state", () => { this.state(); if (this.lastPointer) this.hover(this.lastPointer); });
    ed.addEventListener("saved", (e) => { this.lastSaveMs = e.detail.ms; this.refreshHistory(); });
    ed.addEventListener("remote", () => { this.refreshTemplates(); this.refreshHistory(); this.loadBackground(); this.markStale(); });
    ed.addEventListener("refused", (e) => {
      const errors = e.detail.errors.map((x) => `${x.path}${x.hex ? " (" + x.hex + ")" : ""}: ${x.message}`);
      this.banner("error", `The server refused “${e.detail.stroke.label}”; it was taken back.`, errors);
    });
    ed.addEventListener("offline", (e) => this.banner("warn", `Not saved yet: ${e.detail.error.message}. Trying again…`));
    ed.addEventListener("conflict", (e) => this.showConflict(e.detail));
    this.model.onChange((what) => { if (what.overlays || what.all) this.refreshTemplates(); if (what.background || what.all) this.loadBackground(); });
    window.addEventListener("beforeunload", (e) => { if (ed.busy) { e.preventDefault(); e.returnValue = ""; } });
  }

  state() {
    const ed = this.editor, s = $("#save-state");
    s.textContent = ed.conflict ? "conflict: choose a version" : ed.pending.length ? `saving (${ed.pending.length})…`
      : `saved · revision ${ed.revision}`;
    s.dataset.state = ed.conflict ? "conflict" : ed.pending.length ? "pending" : "saved";
    document.body.dataset.revision = ed.revision;
    $("#undo").disabled = !ed.undoStack.length;
    $("#redo").disabled = !ed.redoStack.length;
    $("#undo").title = ed.undoStack.length ? `Undo ${ed.undoStack.at(-1).label} (Ctrl+Z)` : "Nothing to undo (Ctrl+Z)";
    $("#redo").title = ed.redoStack.length ? `Redo ${ed.redoStack.at(-1).label} (Ctrl+Shift+Z)` : "Nothing to redo (Ctrl+Shift+Z)";
  }

  banner(kind, text, items = [], actions = []) {
    const b = $("#banner");
    b.hidden = false;
    b.dataset.kind = kind;
    b.replaceChildren(el("p", {}, text));
    if (items.length) b.append(el("ul", {}, ...items.map((i) => el("li", {}, i))));
    const row = el("p", { class: "actions" }, ...actions.map(([label, fn]) => el("button", { type: "button", onclick: fn }, label)));
    if (!actions.length) row.append(el("button", { type: "button", onclick: () => { b.hidden = true; } }, "Dismiss"));
    b.append(row);
  }

  showConflict({ stroke, items }) {
    this.highlight = { hexes: items.filter((i) => i.hex).map((i) => i.hex), hexsides: [] };
    this.banner("conflict", `Someone else changed what “${stroke.label}” changes. Which version do you keep?`,
      items.map((i) => `${i.where}: theirs ${i.theirs}; yours ${i.mine}`),
      [["Keep mine", () => { $("#banner").hidden = true; this.highlight = null; this.editor.resolve(true); }],
       ["Keep theirs", () => { $("#banner").hidden = true; this.highlight = null; this.editor.resolve(false); }]]);
    this.view.request();
  }

  async refreshHistory() {
    let data;
    try { data = await get(urls.revisions(this.mapId)); } catch { return; }
    const list = $("#history-list"), rows = Array.isArray(data) ? data : data.results || [];
    list.replaceChildren(...rows.slice(0, 50).map((r) => el("li", {},
      el("span", { class: "rev" }, `r${r.number}`), " ", el("span", { class: "summary" }, r.summary || ""),
      " ", el("span", { class: "muted" }, r.author || ""),
      this.canEdit && r.number !== this.editor.revision
        ? el("button", { type: "button", class: "small", title: `Bring revision ${r.number} back as a new revision`,
                         onclick: () => this.restore(r.number) }, "Restore") : null)));
  }

  async restore(number) {
    try { await this.editor.restore(number); this.say(`restored revision ${number}`); } catch (err) {
      this.banner("error", `Could not restore revision ${number}: ${err.message}`);
    }
  }

  // -- LOS, viewshed, analysis -----------------------------------------------------------------------------
  sightChanged() {
    const s = this.sight, g = this.grid;
    $("#los-from").textContent = s.from ? g.label(...s.from) : "—";
    $("#los-to").textContent = s.to ? g.label(...s.to) : "—";
    if (!s.to) { $("#los-answer").textContent = "Click the target."; $("#los-reasons").replaceChildren(); }
    this.view.request();
  }

  toggleMarker(h) {
    const label = this.grid.label(...h), at = this.sight.markers.findIndex((m) => m.hex === label);
    if (at >= 0) this.sight.markers.splice(at, 1);
    else this.sight.markers.push({ hex: label, kind: this.options.markerKind });
    this.renderMarkers();
    this.rerunLos();
  }

  renderMarkers() {
    $("#marker-list").replaceChildren(...this.sight.markers.map((m) => el("li", {}, `${m.kind} in ${m.hex}`)));
    this.view.request();
  }

  rerunLos() { if (this.sight.from && this.sight.to) this.runLos(); }

  async runLos() {
    const s = this.sight, g = this.grid, params = { from: g.label(...s.from), to: g.label(...s.to) };
    if (s.fromLevel !== "") params.from_level = Number(s.fromLevel);
    if (s.toLevel !== "") params.to_level = Number(s.toLevel);
    if (s.markers.length) params.markers = s.markers;
    s.answer = null; s.pendingRevision = this.editor.revision;
    this.highlight = null;
    $("#los-answer").textContent = "Asking the rules…";
    $("#los-reasons").replaceChildren();
    this.openPanel("los-panel");
    const token = (this.losToken = {});
    try {
      const job = await runJob(urls.job("los", this.mapId), params, (j) => this.progress(j));
      if (token !== this.losToken) return;
      s.answer = job.result; s.revision = s.pendingRevision; s.stale = false;
      this.showAnswer(job.result);
    } catch (err) {
      if (token === this.losToken) $("#los-answer").textContent = `No answer: ${err.message}`;
    } finally { this.progress(null); }
  }

  showAnswer(a) {
    const p = PALETTE[a.result];
    $("#los-answer").replaceChildren(
      el("strong", { class: `answer answer-${a.result}`, style: `border-color:${p.colour}` }, a.result.toUpperCase()),
      ` ${a.from} (level ${a.from_level}) → ${a.to} (level ${a.to_level})${a.term ? ` · ${a.term}` : ""}`
      + `${a.hindrances ? ` · ${a.hindrances} hindrance${a.hindrances > 1 ? "s" : ""}` : ""}${a.blind ? " · blind hex" : ""}`);
    $("#los-answer").dataset.result = a.result;
    const list = $("#los-reasons");
    list.replaceChildren(...a.reasons.map((r, i) => el("li", {},
      el("button", { type: "button", class: "reason", "data-index": i, "data-hex": r.hex || "", "data-hexside": r.hexside || "",
                     onclick: (e) => this.highlightReason(r, e.currentTarget), onfocus: (e) => this.highlightReason(r, e.currentTarget) },
         `${r.hexside || r.hex}: ${this.styles.name(r.terrain)} ${r.effect}`, el("span", { class: "rule" }, ` (${r.rule})`)))));
    if (!a.reasons.length) list.append(el("li", { class: "muted" }, "Nothing along the line changed the answer."));
    for (const text of a.assumptions || []) list.append(el("li", { class: "muted" }, `Assumed: ${text}`));
    this.view.request();
  }

  highlightReason(r, button) {
    for (const b of document.querySelectorAll("#los-reasons .reason")) b.classList.toggle("active", b === button);
    const g = this.grid, hl = { hexes: [], hexsides: [] };
    try {
      if (r.hex) hl.hexes.push(g.parseLabel(r.hex));
      if (r.hexside) {
        const [label, side] = r.hexside.split("/");
        hl.hexsides.push([...g.parseLabel(label), g.sideIndex(side)]);
      }
    } catch { /* a hexside named from a hex off the map: nothing to draw */ }
    this.highlight = hl;
    this.view.request();
  }

  async runViewshed(h) {
    const g = this.grid, params = { from: g.label(...h) };
    if (this.sight.markers.length) params.markers = this.sight.markers;
    $("#viewshed-state").textContent = `Viewshed from ${g.label(...h)}…`;
    this.openPanel("los-panel");
    const revision = this.editor.revision;
    try {
      const job = await runJob(urls.job("viewshed", this.mapId), params, (j) => this.progress(j));
      const hexes = new Map();
      for (const [label, ans] of Object.entries(job.result.hexes)) hexes.set(label, ans);
      this.results.viewshed = { from: h, hexes, revision, stale: false };
      $("#analysis-show").value = "off";   // one shading at a time
      const count = (k) => [...hexes.values()].filter((a) => a.result === k).length;
      $("#viewshed-state").textContent = `Viewshed from ${g.label(...h)}: ${count("clear")} clear, ${count("hindered")} `
        + `hindered, ${count("blocked")} blocked (revision ${revision}).`;
      document.body.dataset.viewshed = String(hexes.size);
    } catch (err) {
      $("#viewshed-state").textContent = `No viewshed: ${err.message}`;
    } finally { this.progress(null); this.view.request(); }
  }

  async runAnalysis() {
    $("#analysis-state").textContent = "Analysing the whole map…";
    this.openPanel("los-panel");
    const revision = this.editor.revision;
    try {
      const job = await runJob(urls.job("analysis", this.mapId), {}, (j) => this.progress(j));
      this.results.analysis = { hexes: job.result.hexes, revision, stale: false };
      this.results.viewshed = null;   // one shading at a time
      $("#analysis-show").value = "sees";
      const seen = Object.values(job.result.hexes).map((v) => v.clear + v.hindered);
      $("#analysis-state").textContent = `Analysis of ${seen.length} hexes (revision ${revision}): each hex sees from `
        + `${Math.min(...seen)} (dark purple) to ${Math.max(...seen)} (yellow) hexes.`;
    } catch (err) {
      $("#analysis-state").textContent = `No analysis: ${err.message}`;
    } finally { this.progress(null); this.view.request(); }
  }

  progress(job) {
    const bar = $("#job-progress");
    if (!job) { bar.hidden = true; return; }
    bar.hidden = false;
    bar.value = job.progress || 0;
    bar.title = `${job.kind || "job"}: ${job.status}${job.message ? ", " + job.message : ""}`;
    $("#job-message").textContent = bar.title;
  }

  markStale() {
    const rev = this.editor.revision, pending = this.editor.pending.length;
    const stale = (r) => r && (r.revision !== rev || pending > 0);
    const s = this.sight;
    s.stale = !!(s.answer && stale(s));
    if (this.results.viewshed) this.results.viewshed.stale = stale(this.results.viewshed);
    if (this.results.analysis) this.results.analysis.stale = stale(this.results.analysis);
    $("#results-stale").hidden = !(s.stale || (this.results.viewshed || {}).stale || (this.results.analysis || {}).stale);
    this.view.request();
  }

  openPanel(id) { const d = document.getElementById(id); if (d) d.open = true; }

  drawResults(ctx, view) {
    const g = this.grid;
    const vs = this.results.viewshed, an = this.results.analysis;
    if (an && $("#analysis-show").value !== "off") {
      const key = $("#analysis-show").value, values = Object.values(an.hexes);
      const of = (v) => v.clear + v.hindered;   // LOS is reciprocal: what a hex sees is what sees it
      const max = Math.max(1, ...values.map(of));
      ctx.globalAlpha = an.stale ? 0.3 : 0.6;
      for (const [label, v] of Object.entries(an.hexes)) {
        const h = g.parseLabel(label);
        ctx.beginPath(); view.hexPath(ctx, ...h); ctx.fillStyle = heat(of(v) / max); ctx.fill();
      }
      ctx.globalAlpha = 1;
    }
    if (vs) {
      for (const [label, a] of vs.hexes) {
        const h = g.parseLabel(label);
        ctx.beginPath(); view.hexPath(ctx, ...h);
        resultFill(ctx, view, a.blind ? "blind" : a.result, vs.stale ? 0.2 : 0.45);
      }
      ctx.beginPath(); view.hexPath(ctx, ...vs.from); ctx.lineWidth = 4 / view.scale; ctx.strokeStyle = "#000"; ctx.stroke();
    }
    for (const m of this.sight.markers) view.drawMarker(ctx, ...g.parseLabel(m.hex), m.kind);
    const s = this.sight;
    if (s.from) {
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
    for (const f of this.findings) {
      if (!f.at) continue;
      ctx.beginPath(); view.hexPath(ctx, ...f.at, -0.1);
      ctx.setLineDash([0.15, 0.1]); ctx.lineWidth = 3 / view.scale;
      ctx.strokeStyle = f.severity === "error" ? "#D55E00" : "#E69F00"; ctx.stroke(); ctx.setLineDash([]);
    }
    if (this.highlight) {
      ctx.lineWidth = 5 / view.scale; ctx.strokeStyle = "#CC79A7";
      for (const h of this.highlight.hexes) { ctx.beginPath(); view.hexPath(ctx, ...h, -0.05); ctx.stroke(); }
      for (const side of this.highlight.hexsides) {
        const [a, b] = g.sideEndpoints(...side);
        ctx.beginPath(); ctx.moveTo(...a); ctx.lineTo(...b); ctx.lineWidth = 8 / view.scale; ctx.stroke();
      }
    }
    this.drawAlignHandles(ctx, view);
    if (this.tool && this.tool.preview) this.tool.preview(ctx, view, this);
  }

  // -- findings (GET /api/maps/<id>/findings/, when the server has it) -------------------------------------
  async loadFindings() {
    const state = $("#findings-state"), list = $("#findings-list");
    if (!this.config.findings) { state.textContent = "Map checks are not available on this server yet."; return; }
    try {
      const data = await get(urls.findings(this.mapId));
      this.findings = (data.findings || []).map((f) => {
        let at = null;
        try { if (f.hex) at = this.grid.parseLabel(f.hex); } catch { at = null; }
        return { ...f, at };
      });
      state.textContent = this.findings.length ? `${this.findings.length} finding(s)` : "No findings.";
      list.replaceChildren(...this.findings.map((f) => el("li", { class: `finding ${f.severity}` },
        el("button", { type: "button", class: "reason", onclick: () => { this.highlight = { hexes: f.at ? [f.at] : [], hexsides: [] }; this.view.request(); } },
           `${f.severity}: ${f.hex ? f.hex + " · " : ""}${f.message}`))));
      this.view.request();
    } catch (err) {
      state.textContent = err instanceof ApiError && err.status === 404 ? "Map checks are not available on this server yet."
        : `Could not load findings: ${err.message}`;
    }
  }

  // -- the board scan --------------------------------------------------------------------------------------
  loadBackground() {
    const entry = this.model.background, view = this.view;
    $("#scan-fields").hidden = !entry;
    if (!entry) { view.background = null; view.request(); return; }
    const src = `${urls.background(this.mapId)}?image=${encodeURIComponent(entry.image)}`;
    if (!view.background || view.background.src !== src) {
      const image = new Image();
      image.addEventListener("load", () => view.request());
      image.src = src;
      view.background = { image, src, entry, visible: !$("#scan-hide").checked };
    }
    view.background.entry = entry;
    for (const key of ["hex_px", "rotation", "opacity"]) $(`#scan-${key}`).value = entry[key];
    $("#scan-origin-x").value = entry.origin[0]; $("#scan-origin-y").value = entry.origin[1];
    view.request();
  }

  bindScan() {
    $("#scan-form").addEventListener("submit", (e) => { e.preventDefault(); this.uploadScan(); });
    $("#scan-hide").addEventListener("change", (e) => {
      if (this.view.background) { this.view.background.visible = !e.target.checked; this.view.request(); }
    });
    $("#scan-opacity").addEventListener("input", (e) => {
      if (this.view.background) { this.view.background.entry = { ...this.view.background.entry, opacity: Number(e.target.value) }; this.view.request(); }
    });
    $("#scan-opacity").addEventListener("change", () => this.saveAlignment());
    $("#scan-apply").addEventListener("click", () => this.saveAlignment());
    $("#scan-align").addEventListener("click", () => this.startAlign());
    $("#scan-align-done").addEventListener("click", () => this.finishAlign());
    $("#scan-remove").addEventListener("click", () => this.commit([{ op: "set_background", background: null }], "remove scan"));
  }

  async uploadScan() {
    const input = $("#scan-file"), message = $("#scan-message");
    if (!input.files.length) { message.textContent = "Choose a PNG or JPEG scan first."; return; }
    const form = new FormData();
    form.append("image", input.files[0]);
    await this.editor.waitIdle();
    form.append("revision", this.editor.revision);
    message.textContent = "Uploading…";
    delete message.dataset.error;
    try {
      const answer = await post(urls.background(this.mapId), form);
      message.textContent = `Scan uploaded (${answer.size[0]} × ${answer.size[1]} px). Align it: drag the two handles onto the hexes' centres.`;
      await this.editor.poll();
      input.value = "";
    } catch (err) {
      message.textContent = `Not uploaded: ${err.message}`;
      message.dataset.error = "1";
    }
  }

  alignmentFromFields() {
    const v = (id) => Number($(id).value);
    return { image: this.model.background.image, origin: [v("#scan-origin-x"), v("#scan-origin-y")],
             hex_px: v("#scan-hex_px"), rotation: v("#scan-rotation"), opacity: v("#scan-opacity") };
  }

  saveAlignment(entry = null) {
    if (!this.model.background) return;
    this.commit([{ op: "set_background", background: entry || this.alignmentFromFields() }], "align scan");
  }

  // Two handles, each on a known hex's centre: drag each onto where that hex's centre is on the scan.
  startAlign() {
    const g = this.grid, parse = (id, fallback) => { try { return g.parseLabel($(id).value); } catch { return fallback; } };
    const a = parse("#align-a", [0, 0]), b = parse("#align-b", [g.columns - 1, g.rows - 1]);
    this.aligning = { handles: [{ hex: a, at: g.centre(...a) }, { hex: b, at: g.centre(...b) }], dragging: null };
    $("#scan-align-done").hidden = false;
    this.say("Drag each handle onto its hex's centre on the scan, then press Done");
    this.view.request();
  }

  scanDrag(e) {
    if (!this.aligning) return false;
    const [x, y] = this.mapPoint(e), near = 14 / this.view.scale;
    const h = this.aligning.handles.find((k) => Math.hypot(k.at[0] - x, k.at[1] - y) < near);
    if (!h) return false;
    this.aligning.dragging = h;
    return true;
  }

  drawAlignHandles(ctx, view) {
    if (!this.aligning) return;
    for (const [i, h] of this.aligning.handles.entries()) {
      const [x, y] = h.at, r = 10 / view.scale;
      ctx.beginPath(); ctx.arc(x, y, r, 0, 7); ctx.fillStyle = "rgba(255,255,255,.7)"; ctx.fill();
      ctx.lineWidth = 3 / view.scale; ctx.strokeStyle = i ? "#CC79A7" : "#009E73"; ctx.stroke();
      ctx.beginPath(); ctx.moveTo(x - r, y); ctx.lineTo(x + r, y); ctx.moveTo(x, y - r); ctx.lineTo(x, y + r); ctx.stroke();
      ctx.font = `bold ${12 / view.scale}px system-ui`; ctx.fillStyle = "#000"; ctx.fillText(this.grid.label(...h.hex), x + r, y - r);
    }
  }

  // The scan pixel under a map point, by the current alignment.
  imagePixel(entry, [x, y]) {
    const [c0x, c0y] = this.grid.centre(0, 0), t = ((entry.rotation || 0) * Math.PI) / 180;
    const dx = x - c0x, dy = y - c0y;
    return [entry.origin[0] + entry.hex_px * (Math.cos(t) * dx - Math.sin(t) * dy),
            entry.origin[1] + entry.hex_px * (Math.sin(t) * dx + Math.cos(t) * dy)];
  }

  finishAlign() {
    const entry = this.model.background, al = this.aligning;
    this.aligning = null;
    $("#scan-align-done").hidden = true;
    this.say("scan aligned");
    if (!entry || !al) return;
    const [A, B] = al.handles, g = this.grid;
    const Ia = this.imagePixel(entry, A.at), Ib = this.imagePixel(entry, B.at);
    const Pa = g.centre(...A.hex), Pb = g.centre(...B.hex), [c0x, c0y] = g.centre(0, 0);
    const dP = [Pb[0] - Pa[0], Pb[1] - Pa[1]], dI = [Ib[0] - Ia[0], Ib[1] - Ia[1]];
    const hexPx = Math.hypot(...dI) / Math.hypot(...dP);
    if (!isFinite(hexPx) || hexPx <= 0) { this.say("the two hexes must differ"); return; }
    const t = Math.atan2(dI[1], dI[0]) - Math.atan2(dP[1], dP[0]);
    const ax = Pa[0] - c0x, ay = Pa[1] - c0y;
    const origin = [Ia[0] - hexPx * (Math.cos(t) * ax - Math.sin(t) * ay), Ia[1] - hexPx * (Math.sin(t) * ax + Math.cos(t) * ay)];
    let deg = (t * 180) / Math.PI;
    if (deg > 180) deg -= 360;
    if (deg < -180) deg += 360;
    const r3 = (v) => Math.round(v * 1000) / 1000;
    this.saveAlignment({ image: entry.image, origin: origin.map(r3), hex_px: r3(hexPx), rotation: r3(deg),
                         opacity: entry.opacity ?? 0.5 });
  }
}

const config = JSON.parse(document.getElementById("painter-config").textContent);
const painter = new Painter(config);
painter.start().catch((err) => {
  const b = document.getElementById("banner");
  b.hidden = false;
  b.textContent = `The painter could not start: ${err.message}`;
});
export default painter;
