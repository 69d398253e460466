// @ts-check
// The edit session of a page: the one local document (what the designer sees), operations applied to it at
// once, their inverses kept for undo, each stroke sent in the background with the revision it was made on,
// rebased on 409 (fetch the server's copy, put the pending strokes back on top), and others' edits followed by
// polling. The undo history is the designer's own recent strokes on the document, rebuilt by the server from its
// revisions (GET .../undo/, documents/undo.py), so it survives a reload and is the same in another tab: an undo is
// a new revision that says which revision it undoes, and a redo is the undo of that undo. Used by the painter (documents/map.js, mapKind) and the scenario editor (documents/scenario.js,
// scenarioKind): a kind supplies the model (with apply(ops) -> {inverse}), the endpoints and how to tell a clash.
import { get, isRefused, isStale, post } from "./lib/api.js";

// `local` is what the designer sees (the server's copy with pending strokes on top); `base` is the server's copy
// at `revision`. Strokes go out one at a time, in order. Events: state, saved, refused, offline, conflict, remote,
// unreachable (an undo or redo whose place is gone).
export class Session extends EventTarget {
  constructor(kind, id, document, revision) {
    super();
    this.kind = kind;
    this.id = id;
    this.base = kind.model(document);
    this.local = kind.model(document);
    this.revision = revision;
    this.pending = [];      // strokes applied locally, not yet accepted: {ops, label, entry, undoes}
    this.undoStack = [];    // {inverse, label, revision}: revision is the one the stroke made (null until saved)
    this.redoStack = [];
    this.maxUndo = 500;
    this.sending = false;
    this.conflict = null;
  }

  emit(type, detail) { this.dispatchEvent(new CustomEvent(type, { detail })); }
  /** Listen to one kind of the session's events and take what it carries.
   * @param {string} type @param {(detail: any) => void} fn */
  on(type, fn) { this.addEventListener(type, (e) => fn(/** @type {CustomEvent} */ (e).detail)); }
  get busy() { return this.sending || this.pending.length > 0; }

  // A new stroke from a tool or a panel: shown at once, sent in turn, undoable. An operation that cannot apply
  // throws here, before anything is sent.
  commit(ops, label = "edit", { undoable = true } = {}) {
    if (!ops.length) return null;
    const { inverse } = this.local.apply(ops);
    const entry = { inverse, label, revision: null };
    if (undoable) {
      this.undoStack.push(entry);
      if (this.undoStack.length > this.maxUndo) this.undoStack.shift();
      this.redoStack = [];
    }
    const stroke = { ops, label, entry: undoable ? entry : null, undoes: null };
    this.pending.push(stroke);
    this.emit("state");
    this.flush();
    return stroke;
  }

  // Undo sends the inverse operations as a new stroke: itself a revision, never a rewrite of history. It names
  // the revision it undoes; the entry it puts on the redo stack is that new revision (a redo undoes it).
  undo() { this.reverse(this.undoStack, this.redoStack, "undo "); }
  redo() { this.reverse(this.redoStack, this.undoStack, "redo "); }

  reverse(from, to, prefix) {
    const entry = from.at(-1);
    if (!entry) return;
    let inverse;
    try {
      ({ inverse } = this.local.apply(entry.inverse));
    } catch (err) {
      from.pop();   // what it changed is gone (someone else removed it): nothing left to take back
      this.emit("unreachable", { label: prefix + entry.label, message: err.message });
      this.emit("state");
      return;
    }
    from.pop();
    const made = { inverse, label: entry.label, revision: null };
    to.push(made);
    this.pending.push({ ops: entry.inverse, label: prefix + entry.label, entry: made, undoes: entry });
    this.emit("state");
    this.flush();
  }

  // The undo and redo stacks as the server rebuilds them from the revisions, when nothing of ours is waiting
  // (the page opening, another tab's strokes seen): the same history in every tab and after a reload.
  async loadHistory() {
    if (!this.kind.urls.undo || this.busy || this.conflict) return false;
    const data = await get(this.kind.urls.undo(this.id));
    if (this.busy || this.conflict || data.revision !== this.revision) return false;
    const labels = this.labels();
    const entry = (e) => ({ inverse: e.operations, label: labels[e.revision] || e.label, revision: e.revision });
    this.undoStack = data.undo.map(entry);
    this.redoStack = data.redo.map(entry);
    this.emit("state");
    return true;
  }

  async flush() {
    if (this.sending || this.conflict) return;
    this.sending = true;
    let saved = false;
    try {
      while (this.pending.length && !this.conflict) {
        const stroke = this.pending[0];
        const t0 = performance.now();
        try {
          const body = { revision: this.revision, operations: stroke.ops };
          if (stroke.undoes && stroke.undoes.revision) body.undoes = stroke.undoes.revision;
          const answer = await post(this.kind.urls.edits(this.id), body);
          this.base.apply(stroke.ops);
          this.revision = answer.revision;
          if (stroke.entry) { stroke.entry.revision = answer.revision; this.keepLabel(answer.revision, stroke.entry.label); }
          this.pending.shift();
          saved = true;
          this.emit("saved", { stroke, answer, ms: performance.now() - t0, at: performance.now() });
        } catch (err) {
          if (isStale(err)) await this.rebase(stroke);
          else if (isRefused(err)) this.refuse(stroke, err);
          else {
            this.emit("offline", { error: err });
            await new Promise((r) => setTimeout(r, 2000)); // kept pending: tried again, never dropped
          }
        }
      }
      // The server's reading of what it stored (defaults filled in) replaces ours once nothing is waiting.
      if (saved && this.kind.refetchAfterSave && !this.pending.length && !this.conflict) await this.takeCurrent();
    } finally {
      this.sending = false;
      this.emit("state");
    }
    // A stroke made while the server's copy was being fetched goes out now.
    if (this.pending.length && !this.conflict) this.flush();
  }

  // The server refused a stroke: say why, and take it back off the screen (and the undo stack).
  refuse(stroke, err) {
    this.pending.shift();
    this.forget(stroke);
    this.rebuild();
    this.emit("refused", { stroke, errors: (err.body && err.body.errors) || [], message: err.message });
  }

  // The page's own words for its strokes ("place sq in E5"), kept in this browser by revision, so that the Undo
  // button says them after a reload too; the server's summary is the label elsewhere.
  labels() {
    try { return JSON.parse(localStorage.getItem(`hexside-labels:${this.kind.name}:${this.id}`)) || {}; } catch { return {}; }
  }

  keepLabel(revision, label) {
    try {
      const labels = this.labels();
      labels[revision] = label;
      const kept = Object.keys(labels).map(Number).sort((a, b) => b - a).slice(0, 200);
      localStorage.setItem(`hexside-labels:${this.kind.name}:${this.id}`, JSON.stringify(Object.fromEntries(kept.map((n) => [n, labels[n]]))));
    } catch { /* no storage: the server's summaries are the labels */ }
  }

  // A stroke that did not happen leaves neither stack.
  forget(stroke) {
    if (!stroke.entry) return;
    this.undoStack = this.undoStack.filter((e) => e !== stroke.entry);
    this.redoStack = this.redoStack.filter((e) => e !== stroke.entry);
  }

  // The local view again: the server's copy with the strokes still pending on top.
  rebuild() {
    const view = this.kind.model(this.base.toDocument ? this.base.toDocument() : this.base.document);
    for (const s of this.pending) {
      try { s.entry ? (s.entry.inverse = view.apply(s.ops).inverse) : view.apply(s.ops); } catch { /* gone */ }
    }
    this.local.assign(view);
  }

  fetchCurrent() { return get(this.kind.urls.document(this.id)); }

  // Take the server's copy as the base (and, with nothing pending, as what is shown).
  async takeCurrent(data = null) {
    data = data || (await this.fetchCurrent());
    if (this.pending.length && data.revision === this.revision) return data;
    this.base = this.kind.model(data.document);
    this.revision = data.revision;
    this.rebuild();
    this.emit("remote", { revision: data.revision, data });
    return data;
  }

  // 409: someone else saved first. Take their copy; if they changed what this stroke changes, ask; else resend.
  async rebase(stroke) {
    const data = await this.fetchCurrent();
    const theirs = this.kind.model(data.document), k = this.kind, clashes = [];
    for (const key of k.footprint(this.base, stroke.ops)) {
      if (k.stateOf(theirs, key) !== k.stateOf(this.base, key)) clashes.push(key);
    }
    this.base = theirs;
    this.revision = data.revision;
    this.rebuild();
    this.emit("remote", { revision: data.revision, data });
    if (clashes.length) {
      this.conflict = { stroke, items: clashes.map((key) => k.describeClash(theirs, this.local, key)) };
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
      this.forget(conflict.stroke);
      this.rebuild();
    }
    this.emit("state");
    this.flush();
  }

  // Another tab or designer saved: load their copy when nothing of ours is waiting (else the 409 path does it).
  async poll() {
    if (this.busy || this.conflict || this.polling) return false;
    this.polling = true;
    try {
      const now = await get(this.kind.urls.current(this.id));
      if (now.revision === this.revision || this.busy) return false;
      const data = now.document ? now : await this.fetchCurrent();
      if (this.busy || data.revision === this.revision) return false;
      await this.takeCurrent(data);
      await this.loadHistory().catch(() => false);   // another tab of ours may have stroked
      this.emit("state");
      return true;
    } finally {
      this.polling = false;
    }
  }

  // Restore an earlier revision (a new revision on the server), then load it; undo starts afresh.
  async restore(number) {
    await this.waitIdle();
    await post(this.kind.urls.restore(this.id, number), { revision: this.revision });
    this.undoStack = []; this.redoStack = [];
    await this.takeCurrent();
    await this.loadHistory().catch(() => false);
    this.emit("state");
  }

  waitIdle() {
    return new Promise((resolve) => {
      const check = () => (this.busy ? setTimeout(check, 50) : resolve());
      check();
    });
  }
}
