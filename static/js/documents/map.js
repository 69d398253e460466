// @ts-check
// A map document held as lookups the view and the tools can use: hexes by "col,row", hexsides by canonical
// "col,row,side", overlays with their anchors parsed. Changed only through apply(ops), which mirrors
// engine/edits.py and gives the inverse operations. Shared by the painter and any page that shows a map;
// `mapKind` at the end is what the edit session (session.js) needs to edit a map.
import { Grid, rotateAxial } from "../hexgrid.js";

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
export const clone = (v) => (v === undefined ? undefined : JSON.parse(JSON.stringify(v)));

export class MapModel {
  constructor(document) {
    /** @type {((what: any) => void)[]} */
    this.listeners = [];
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
    // Overlays' names: kept in extensions.overlay_names, as the map format's overlay entry has no name.
    const names = (document.extensions || {}).overlay_names;
    this.overlayNames = names && typeof names === "object" ? { ...names } : {};
    // LOS examples: kept in extensions.los_examples, versioned on their own (docs/map-format.md).
    const kept = (document.extensions || {}).los_examples;
    this.losExamples = kept && Array.isArray(kept.cases) ? clone(kept.cases) : [];
    this.changed({ all: true });
  }

  // What the map shows on an overlay: its name, else a printed letter-number ID (engine.mapfile.overlay_title).
  overlayTitle(o) {
    if (this.overlayNames[o.id]) return this.overlayNames[o.id];
    const m = /^([A-Za-z]{1,4}\d{1,4})(?:-\d+)?$/.exec(o.id);
    return m ? m[1] : "";
  }

  setOverlayName(id, name, undo) {
    undo.push({ op: "name_overlay", id, name: this.overlayNames[id] || "" });
    const clean = String(name).split(/\s+/).filter(Boolean).join(" ");
    if (clean) this.overlayNames[id] = clean; else delete this.overlayNames[id];
  }

  // Listeners hear which parts changed: {all} or {hexes: Set of keys, hexsides, overlays, background}.
  onChange(fn) { this.listeners.push(fn); }
  changed(what) { for (const fn of this.listeners) fn(what); }

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
        case "set_terrain": case "set_level": case "set_storeys": case "set_label_note": {
          const field = { set_terrain: "terrain", set_level: "level", set_storeys: "storeys",
                          set_label_note: "label_note" }[op.op];
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
              if (cell.label_note != null) undo.push({ op: "set_label_note", hexes: [label], label_note: cell.label_note });
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
          this.overlays.splice(op.index ?? this.overlays.length, 0, o);
          if (op.name !== undefined) { const back = []; this.setOverlayName(o.id, op.name, back); }
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
          const o = this.overlays[i], back = { op: "place_overlay", overlay: { ...clone(o), anchor: g.label(...o.anchor) }, index: i };
          if (this.overlayNames[o.id]) back.name = this.overlayNames[o.id];
          undo.push(back);
          this.overlays.splice(i, 1);
          delete this.overlayNames[o.id];
          touched.overlays = true;
          break;
        }
        case "name_overlay": {
          if (!this.overlays.some((x) => x.id === op.id)) throw new Error(`no overlay ${op.id}`);
          this.setOverlayName(op.id, op.name, undo);
          touched.overlays = true;
          break;
        }
        case "set_background": {
          undo.push({ op: "set_background", background: clone(this.background) });
          this.background = clone(op.background);
          touched.background = true;
          break;
        }
        case "set_los_examples": {
          undo.push({ op: "set_los_examples", examples: clone(this.losExamples) });
          this.losExamples = clone(op.examples);
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

  // Take another model's state (the session rebuilding the local view from the server's), telling listeners.
  assign(other) {
    this.cells = new Map(other.cells); this.hexsides = new Map(other.hexsides);
    this.overlays = clone(other.overlays); this.background = clone(other.background);
    this.name = other.name; this.overlayNames = { ...other.overlayNames }; this.losExamples = clone(other.losExamples);
    this.changed({ all: true });
  }

  // The document as the server writes it (engine/mapfile.py to_dict, less the sorting of hexes and hexsides):
  // what a test compares with the server's copy.
  toDocument() {
    const g = this.grid, d = this.document;
    const hexes = [...this.cells].map(([key, cell]) => {
      const [c, r] = key.split(",").map(Number), e = { hex: g.label(c, r), terrain: [...cell.terrain], level: cell.level };
      if (cell.storeys !== 1) e.storeys = cell.storeys;
      if (cell.art) e.art = clone(Array.isArray(cell.art[0][0]) ? cell.art : [cell.art]);
      if (cell.label_note != null) e.label_note = cell.label_note;
      return e;
    });
    const hexsides = [...this.hexsides].map(([key, terrain]) => {
      const [col, row, side] = g.hexsideName(key.split(",").map(Number));
      return { hex: g.label(col, row), side, terrain };
    });
    const overlays = this.overlays.map((o) => ({ id: o.id, anchor: g.label(...o.anchor), rotation: o.rotation || 0,
                                                 hexes: clone(o.hexes), hexsides: clone(o.hexsides) }));
    const out = { format: d.format, version: d.version, name: this.name, ruleset: d.ruleset, grid: clone(d.grid),
                  defaults: clone(this.defaults), hexes, hexsides, overlays };
    if (this.background) out.background = clone(this.background);
    out.extensions = clone(d.extensions) || {};
    delete out.extensions.overlay_names;
    if (Object.keys(this.overlayNames).length) out.extensions.overlay_names = { ...this.overlayNames };
    delete out.extensions.los_examples;
    if (this.losExamples.length) out.extensions.los_examples = { version: 1, cases: clone(this.losExamples) };
    return out;
  }

  // A hex's state as shown in the conflict banner.
  describeHex(col, row) {
    const c = this.cell(col, row);
    return `${c.terrain.join("+")}, level ${c.level}${c.storeys > 1 ? `, ${c.storeys} storeys` : ""}`;
  }
}

// -- what the edit session needs to know of a map ------------------------------------------------------------

// The hexes, hexsides, overlays and scan a stroke changes: a clash is one of them changed on the server too.
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

// How a clash is shown: the hex, theirs and mine.
function describeClash(theirs, mine, key) {
  if (key.startsWith("h:")) {
    const [c, r] = key.slice(2).split(",").map(Number);
    return { where: theirs.grid.label(c, r), hex: [c, r], theirs: theirs.describeHex(c, r), mine: mine.describeHex(c, r) };
  }
  return { where: key.slice(2) || "background", theirs: stateOf(theirs, key), mine: "(this stroke)" };
}

export const mapKind = {
  name: "map",
  urls: {
    document: (id) => `/api/maps/${id}/`,
    edits: (id) => `/api/maps/${id}/edits/`,
    current: (id) => `/api/maps/${id}/current/`,
    restore: (id, n) => `/api/maps/${id}/revisions/${n}/restore/`,
    undo: (id) => `/api/maps/${id}/undo/`,
  },
  model: (document) => new MapModel(clone(document)),
  footprint, stateOf, describeClash,
};
