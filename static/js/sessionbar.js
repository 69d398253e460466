// @ts-check
// The edit session's controls, the same on every page that edits: Undo and Redo (buttons, Ctrl+Z,
// Ctrl+Shift+Z, Ctrl+Y), the save state, and the banners for a refused stroke, a lost connection and a conflict.
import { problems } from "./lib/api.js";
import { $, banner } from "./lib/dom.js";
import { onCommandKeys } from "./lib/keys.js";

// wire(session, {canEdit, onConflict(conflict) -> extra work such as a highlight, onSettled()})
/** @param {import("./session.js").Session} session
 * @param {{canEdit?: boolean, onConflict?: (conflict: any) => void, onResolved?: () => void}} [options] */
export function wireSession(session, { canEdit = true, onConflict = () => {}, onResolved = () => {} } = {}) {
  const undo = $("#undo"), redo = $("#redo");
  undo.hidden = redo.hidden = !canEdit;
  undo.addEventListener("click", () => session.undo());
  redo.addEventListener("click", () => session.redo());
  onCommandKeys((e) => {
    if (!canEdit) return;
    const key = e.key.toLowerCase();
    if (key === "z") { e.preventDefault(); if (e.shiftKey) session.redo(); else session.undo(); }
    if (key === "y") { e.preventDefault(); session.redo(); }
  });
  const show = () => showState(session);
  session.addEventListener("state", show);
  session.on("refused", (detail) => {
    // in the designer's words (the API's messages name hexes, units and sides); each path kept on its item
    const errors = problems({ errors: detail.errors });
    banner("error", `The server refused “${detail.stroke.label}”; it was taken back.`, errors.length ? errors : [detail.message]);
  });
  session.on("unreachable", (detail) => banner("error", `Cannot ${detail.label}: what it changed is no longer there (${detail.message}); it was left out of the history.`));
  session.on("offline", (detail) => banner("warn", `Not saved yet: ${detail.error.message}. Trying again…`));
  session.on("conflict", (detail) => {
    const { stroke, items } = detail;
    const answer = (keepMine) => () => { banner(null); onResolved(); session.resolve(keepMine); };
    banner("conflict", `Someone else changed what “${stroke.label}” changes. Which version do you keep?`,
      items.map((i) => `${i.where}: theirs ${i.theirs}; yours ${i.mine}`),
      [["Keep mine", answer(true)], ["Keep theirs", answer(false)]]);
    onConflict(detail);
  });
  if (canEdit) session.loadHistory().catch(() => {});   // the undo history of earlier visits and other tabs
  window.addEventListener("beforeunload", (e) => { if (session.busy) { e.preventDefault(); e.returnValue = ""; } });
  show();
}

export function showState(session) {
  const s = $("#save-state"), undo = $("#undo"), redo = $("#redo");
  s.textContent = session.conflict ? "conflict: choose a version" : session.pending.length
    ? `saving (${session.pending.length})…` : `saved · revision ${session.revision}`;
  s.dataset.state = session.conflict ? "conflict" : session.pending.length ? "pending" : "saved";
  document.body.dataset.revision = session.revision;
  undo.disabled = !session.undoStack.length;
  redo.disabled = !session.redoStack.length;
  undo.title = session.undoStack.length ? `Undo ${session.undoStack.at(-1).label} (Ctrl+Z)` : "Nothing to undo (Ctrl+Z)";
  redo.title = session.redoStack.length ? `Redo ${session.redoStack.at(-1).label} (Ctrl+Shift+Z)` : "Nothing to redo (Ctrl+Shift+Z)";
}
