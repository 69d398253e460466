// The painter's session on a map: strokes applied at once to the local copy (MapModel, mapmodel.js), their
// inverses kept for undo, each stroke sent as one edits request with the revision it was made on, rebased on 409,
// and other designers' edits followed (docs/api.md lists the operations; engine/edits.py is the server's side).
import { ApiError, get, post, urls } from "./api.js";
import { MapModel, clone } from "./mapmodel.js";

export { MapModel };

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
    if (this.busy || this.conflict || this.polling) return false;
    this.polling = true;
    try {
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
    } finally {
      this.polling = false;
    }
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
