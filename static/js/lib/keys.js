// @ts-check
// The one shortcut filter: a key typed into a field (a text box, a select, a text area, anything editable) is
// the field's, never a shortcut. Pages listen through these two instead of testing the target themselves.

/** True when the key event is typing into a form field or editable text. @param {KeyboardEvent} e */
export function typing(e) {
  const target = /** @type {HTMLElement | null} */ (e.target);
  return !!target && (/^(INPUT|SELECT|TEXTAREA)$/.test(target.tagName) || target.isContentEditable);
}

/** A plain key (no Ctrl, Cmd or Alt) outside the fields: the tools', the view's and the help's keys.
 * @param {(e: KeyboardEvent) => void} handler */
export function onKeys(handler) {
  document.addEventListener("keydown", (e) => {
    if (!typing(e) && !e.ctrlKey && !e.metaKey && !e.altKey) handler(e);
  });
}

/** A key with Ctrl (Cmd on a Mac) outside the fields: undo and redo. @param {(e: KeyboardEvent) => void} handler */
export function onCommandKeys(handler) {
  document.addEventListener("keydown", (e) => {
    if (!typing(e) && (e.ctrlKey || e.metaKey)) handler(e);
  });
}
