// The local copy of a map and its edits: operations applied optimistically, their inverses kept for undo,
// each stroke sent as one edits request with the revision it was made on, rebased on 409 (docs/api.md lists
// the operations; maps/edits.py is the server's side, and this mirrors it).
import { ApiError, get, post, urls } from "./api.js";
import { Grid, rotateAxial } from "./hexgrid.js";

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
const clone = (v) => (v === undefined ? undefined : JSON.parse(JSON.stringify(v)));

// MapModel: a map document held as lookups the view and the tools can use (hexes by "col,row", hexsides by
// canonical "col,row,side"), changed only through apply(ops), which gives the inverse operations.
export class MapModel {
  constructor(document) {
    this.load(document);
  }

  load(document) {
    this.document = document;
    this.grid = new Grid(document.grid);
    const g = this.grid;
    this.defaults = { terrain: [...document.defaults.terrain], level: document.defaults.level };
    this.plain = null;
    this.cells = new Map();
    for (const e of document.hexes) {
      const [c, r] = g.parseHex(e.hex);
      this.cells.set(g.key(c, r), { terrain: [...e.terrain], level: e.level, storeys: e.storeys || 1,
                                     art: e.art || null, label_note: e.label_note ?? null });
    }
    this.hexsides = new Map();
    for (const e of document.hexsides) {
      const [c, r] = g.parseHex(e.hex);
      this.hexsides.set(g.hexside(c, r, e.side).join(","), e.terrain);
    }
    this.overlays = document.overlays.map((o) => ({ ...clone(o), anchor: g.parseHex(o.anchor) }));
    this.background = document.background ? clone(document.background) : null;
    this.name = document.name;
    this.changed({ all: true });
  }

  // Listeners hear which parts changed: {all} or {hexes: Set of keys, hexsides, overlays, background}.
  onChange(fn) { (this.listeners ||= []).push(fn); }
  changed(what) { for (const fn of this.listeners || []) fn(what); }

  defaultCell() { return { terrain: [...this.defaults.terrain], level: this.defaults.level, storeys: 1, art: null,
                           label_note: null }; }
  // The shared default is never changed in place: apply() copies a cell before changing it.
  cell(col, row) { return this.cells.get(col + "," + row) || this.plain || (this.plain = this.defaultCell()); }
  isDefault(cell) {
    return same(cell.terrain, this.defaults.terrain) && cell.level === this.defaults.level && cell.storeys === 1
      && !cell.art && cell.label_note == null;
  }
  put(key, cell) {
    if (this.isDefault(cell)) this.cells.delete(key);
    else this.cells.set(key, cell);
  }

  // Where an overlay's hexes and hexsides fall on the map.
  overlayPlace(o, offset) {
    const [dq, dr] = rotateAxial(offset[0], offset[1], o.rotation || 0);
    const [q, r] = this.grid.toAxial(o.anchor[0], o.anchor[1]);
    return this.grid.fromAxial(q + dq, r + dr);
  }

  overlayHexes(o) { return o.hexes.map((e) => this.overlayPlace(o, e.hex)); }

  // What a hex shows: the overlays laid over the painted map, later ones winning (MapDoc.resolved).
  resolvedCell(col, row) {
    if (!this.overlays.length) return this.cell(col, row);
    for (let i = this.overlays.length - 1; i >= 0; i--) {
      const o = this.overlays[i];
      for (const e of o.hexes) {
        const [c, r] = this.overlayPlace(o, e.hex);
        if (c === col && r === row) {
          const t = e.terrain ?? this.defaults.terrain;
          return { terrain: Array.isArray(t) ? t : [t], level: e.level ?? this.defaults.level, storeys: e.storeys || 1,
                   art: null, overlay: o.id };
        }
      }
    }
    return this.cell(col, row);
  }

  resolvedHexsides() {
    const out = new Map(this.hexsides);
    for (const o of this.overlays) {
      for (const e of o.hexsides) {
        const [c, r] = this.overlayPlace(o, e.hex);
        const side = (this.grid.sideIndex(e.side) + (o.rotation || 0)) % 6;
        out.set(this.grid.hexside(c, r, side).join(","), e.terrain);
      }
    }
    return out;
  }

  hexesOf(op) { return (op.hexes || []).map((h) => this.grid.parseHex(h)); }

  // Apply operations; returns {inverse, touched}. Unknown operations throw (the tools only make known ones).
  apply(ops) {
    const g = this.grid, inverse = [], touched = { hexes: new Set(), hexsides: new Set(), overlays: false,
                                                   background: false };
    for (const op of ops) {
      const undo = [];
      switch (op.op) {
        case "set_terrain": case "set_level": case "set_storeys": {
          const field = { set_terrain: "terrain", set_level: "level", set_storeys: "storeys" }[op.op];
          const value = field === "terrain" && typeof op.terrain === "string" ? [op.terrain] : op[field];
          const before = new Map();
          for (const [c, r] of this.hexesOf(op)) {
            const key = g.key(c, r), cell = { ...this.cell(c, r) };
            const old = JSON.stringify(cell[field]);
            if (!before.has(old)) before.set(old, []);
            before.get(old).push(g.label(c, r));
            cell[field] = clone(value);
            this.put(key, cell);
            touched.hexes.add(key);
          }
          for (const [old, hexes] of before) undo.push({ op: op.op, hexes, [field]: JSON.parse(old) });
          break;
        }
        case "clear_hexes": {
          for (const [c, r] of this.hexesOf(op)) {
            const key = g.key(c, r), cell = this.cells.get(key), label = g.label(c, r);
            if (cell) {
              undo.push({ op: "set_terrain", hexes: [label], terrain: cell.terrain },
                        { op: "set_level", hexes: [label], level: cell.level });
              if (cell.storeys !== 1) undo.push({ op: "set_storeys", hexes: [label], storeys: cell.storeys });
              if (cell.art) undo.push({ op: "set_art", hex: label, art: cell.art });
            }
            this.cells.delete(key);
            touched.hexes.add(key);
          }
          break;
        }
        case "set_art": case "clear_art": {
          const [c, r] = g.parseHex(op.hex), key = g.key(c, r), cell = { ...this.cell(c, r) };
          undo.push(cell.art ? { op: "set_art", hex: g.label(c, r), art: cell.art } : { op: "clear_art", hex: g.label(c, r) });
          cell.art = op.op === "set_art" ? clone(op.art) : null;
          this.put(key, cell);
          touched.hexes.add(key);
          break;
        }
        case "set_hexside": case "clear_hexside": {
          const [c, r] = g.parseHex(op.hex), key = g.hexside(c, r, op.side).join(",");
          const old = this.hexsides.get(key), label = g.label(c, r);
          undo.push(old ? { op: "set_hexside", hex: label, side: op.side, terrain: old }
                        : { op: "clear_hexside", hex: label, side: op.side });
          if (op.op === "set_hexside") this.hexsides.set(key, op.terrain);
          else this.hexsides.delete(key);
          touched.hexsides.add(key);
          break;
        }
        case "place_overlay": {
          const o = clone(op.overlay);
          o.anchor = g.parseHex(o.anchor);
          o.rotation ||= 0; o.hexes ||= []; o.hexsides ||= [];
          this.overlays.push(o);
          undo.push({ op: "remove_overlay", id: o.id });
          touched.overlays = true;
          break;
        }
        case "move_overlay": {
          const o = this.overlays.find((x) => x.id === op.id);
          if (!o) throw new Error(`no overlay ${op.id}`);
          undo.push({ op: "move_overlay", id: o.id, anchor: g.label(...o.anchor), rotation: o.rotation });
          if (op.anchor !== undefined) o.anchor = g.parseHex(op.anchor);
          if (op.rotation !== undefined) o.rotation = op.rotation;
          touched.overlays = true;
          break;
        }
        case "remove_overlay": {
          const i = this.overlays.findIndex((x) => x.id === op.id);
          if (i < 0) throw new Error(`no overlay ${op.id}`);
          const o = this.overlays[i];
          undo.push({ op: "place_overlay", overlay: { ...clone(o), anchor: g.label(...o.anchor) } });
          this.overlays.splice(i, 1);
          touched.overlays = true;
          break;
        }
        case "set_background": {
          undo.push({ op: "set_background", background: clone(this.background) });
          this.background = clone(op.background);
          touched.background = true;
          break;
        }
        case "rename": {
          undo.push({ op: "rename", name: this.name });
          this.name = op.name;
          break;
        }
        default:
          throw new Error(`unknown operation ${op.op}`);
      }
      inverse.unshift(...undo);
    }
    this.changed(touched);
    return { inverse, touched };
  }

  // A hex's state as shown in the conflict banner.
  describeHex(col, row) {
    const c = this.cell(col, row);
    return `${c.terrain.join("+")}, level ${c.level}${c.storeys > 1 ? `, ${c.storeys} storeys` : ""}`;
  }
}

// The hexes and hexsides a stroke changes, to tell a real conflict (both changed them) from a stale revision.
function footprint(model, ops) {
  const g = model.grid, keys = new Set();
  for (const op of ops) {
    if (op.hexes) for (const h of op.hexes) keys.add("h:" + g.key(...g.parseHex(h)));
    if (op.hex && op.side !== undefined) keys.add("s:" + g.hexside(...g.parseHex(op.hex), op.side).join(","));
    else if (op.hex) keys.add("h:" + g.key(...g.parseHex(op.hex)));
    if (op.op.endsWith("_overlay")) keys.add("o:" + (op.id || op.overlay.id));
    if (op.op === "set_background") keys.add("b");
  }
  return keys;
}

function stateOf(model, key) {
  const [kind, rest] = [key.slice(0, 1), key.slice(2)];
  if (kind === "h") { const [c, r] = rest.split(",").map(Number); return JSON.stringify(model.cell(c, r)); }
  if (kind === "s") return model.hexsides.get(rest) || null;
  if (kind === "o") return JSON.stringify(model.overlays.find((o) => o.id === rest) || null);
  return JSON.stringify(model.background);
}

// Editor: the page's map session. `local` is what the designer sees (the server's state with pending strokes on
// top); `base` is the server's state at `revision`. Strokes go out one at a time, in order.
export class Editor extends EventTarget {
  constructor(mapId, document, revision) {
    super();
    this.mapId = mapId;
    this.base = new MapModel(clone(document));
    this.local = new MapModel(clone(document));
    this.revision = revision;
    this.pending = [];      // strokes applied locally, not yet accepted: {ops, label, undoEntry}
    this.undoStack = [];    // {ops, inverse, label}
    this.redoStack = [];
    this.maxUndo = 500;
    this.sending = false;
  }

  emit(type, detail) { this.dispatchEvent(new CustomEvent(type, { detail })); }

  // A new stroke from a tool: shown at once, sent in turn, undoable.
  commit(ops, label = "edit", { undoable = true } = {}) {
    if (!ops.length) return null;
    const { inverse } = this.local.apply(ops);
    const entry = { ops, inverse, label };
    if (undoable) {
      this.undoStack.push(entry);
      if (this.undoStack.length > this.maxUndo) this.undoStack.shift();
      this.redoStack = [];
    }
    const stroke = { ops, label, entry: undoable ? entry : null };
    this.pending.push(stroke);
    this.emit("state");
    this.flush();
    return stroke;
  }

  // Undo sends the inverse operations as a new stroke: itself a revision, never a rewrite of history.
  undo() {
    const entry = this.undoStack.pop();
    if (!entry) return;
    const { inverse } = this.local.apply(entry.inverse);
    const redo = { ops: entry.inverse, inverse, label: entry.label, original: entry };
    this.redoStack.push(redo);
    this.pending.push({ ops: entry.inverse, label: "undo " + entry.label, entry: null });
    this.emit("state");
    this.flush();
  }

  redo() {
    const redo = this.redoStack.pop();
    if (!redo) return;
    const { inverse } = this.local.apply(redo.inverse);
    this.undoStack.push({ ops: redo.inverse, inverse, label: redo.label });
    this.pending.push({ ops: redo.inverse, label: "redo " + redo.label, entry: null });
    this.emit("state");
    this.flush();
  }

  get busy() { return this.sending || this.pending.length > 0; }

  async flush() {
    if (this.sending || this.conflict) return;
    this.sending = true;
    try {
      while (this.pending.length && !this.conflict) {
        const stroke = this.pending[0];
        const t0 = performance.now();
        try {
          const answer = await post(urls.edits(this.mapId), { revision: this.revision, operations: stroke.ops });
          this.base.apply(stroke.ops);
          this.revision = answer.revision;
          this.pending.shift();
          this.emit("saved", { stroke, answer, ms: performance.now() - t0, at: performance.now() });
        } catch (err) {
          if (err instanceof ApiError && err.status === 409) {
            await this.rebase(stroke);
          } else if (err instanceof ApiError && err.status >= 400 && err.status < 500) {
            this.refuse(stroke, err);
          } else {
            this.emit("offline", { error: err });
            await new Promise((r) => setTimeout(r, 2000)); // kept pending: tried again, never dropped
          }
        }
      }
    } finally {
      this.sending = false;
      this.emit("state");
    }
  }

  // The server refused a stroke: show why, and take it back off the screen (and the undo stack).
  refuse(stroke, err) {
    this.pending.shift();
    if (stroke.entry) this.undoStack = this.undoStack.filter((e) => e !== stroke.entry);
    this.rebuild();
    this.emit("refused", { stroke, errors: (err.body && err.body.errors) || [], message: err.message });
  }

  // The local view again: the server's state with the strokes still pending on top.
  rebuild() {
    const doc = this.base;
    this.local.cells = new Map(doc.cells); this.local.hexsides = new Map(doc.hexsides);
    this.local.overlays = clone(doc.overlays); this.local.background = clone(doc.background);
    this.local.name = doc.name;
    for (const s of this.pending) {
      try { s.entry ? (s.entry.inverse = this.local.apply(s.ops).inverse) : this.local.apply(s.ops); } catch { /* gone */ }
    }
    this.local.changed({ all: true });
  }

  async fetchCurrent() {
    const data = await get(urls.map(this.mapId));
    return data;
  }

  // 409: someone else saved first. Take their map; if they touched what this stroke touches, ask; else resend.
  async rebase(stroke) {
    const data = await this.fetchCurrent();
    const theirs = new MapModel(data.document);
    const clashes = [];
    for (const key of footprint(this.base, stroke.ops)) {
      if (stateOf(theirs, key) !== stateOf(this.base, key)) clashes.push(key);
    }
    this.base = theirs;
    this.revision = data.revision;
    this.rebuild();
    this.emit("remote", { revision: data.revision });
    if (clashes.length) {
      const g = theirs.grid;
      const items = clashes.map((key) => {
        if (key.startsWith("h:")) {
          const [c, r] = key.slice(2).split(",").map(Number);
          return { where: g.label(c, r), hex: [c, r], theirs: theirs.describeHex(c, r),
                   mine: this.local.describeHex(c, r) };
        }
        return { where: key.slice(2) || "background", theirs: stateOf(theirs, key), mine: "(this stroke)" };
      });
      this.conflict = { stroke, items };
      this.emit("conflict", this.conflict);
    }
  }

  // The designer's answer to a real conflict: keep mine (send the stroke on top) or keep theirs (drop it).
  resolve(keepMine) {
    const conflict = this.conflict;
    if (!conflict) return;
    this.conflict = null;
    if (!keepMine) {
      this.pending = this.pending.filter((s) => s !== conflict.stroke);
      if (conflict.stroke.entry) this.undoStack = this.undoStack.filter((e) => e !== conflict.stroke.entry);
      this.rebuild();
    }
    this.emit("state");
    this.flush();
  }

  // Another tab or designer saved: load their map when nothing of ours is waiting (else the 409 path does it).
  async poll() {
    if (this.busy || this.conflict) return false;
    const now = await get(urls.current(this.mapId));
    if (now.revision === this.revision || this.busy) return false;
    const data = await this.fetchCurrent();
    if (this.busy || data.revision === this.revision) return false;
    this.base = new MapModel(data.document);
    this.revision = data.revision;
    this.rebuild();
    this.emit("remote", { revision: data.revision });
    this.emit("state");
    return true;
  }

  // Restore an earlier revision (a new revision on the server), then reload.
  async restore(number) {
    await this.waitIdle();
    await post(urls.restore(this.mapId, number), { revision: this.revision });
    const data = await this.fetchCurrent();
    this.base = new MapModel(data.document);
    this.revision = data.revision;
    this.undoStack = []; this.redoStack = [];
    this.rebuild();
    this.emit("remote", { revision: data.revision });
    this.emit("state");
  }

  waitIdle() {
    return new Promise((resolve) => {
      const check = () => (this.busy ? setTimeout(check, 50) : resolve());
      check();
    });
  }
}
