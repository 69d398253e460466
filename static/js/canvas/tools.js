// @ts-check
// The one tool protocol of both editors (docs/painter.md, "Tools"). A tool is a plain object: what names it
// (id, name, its key, a tooltip), who may use it (`edit`: only those who may edit; `needs`: a capability the
// game must have, from the ruleset API's `capabilities`), and what it does with the pointer. Every handler
// takes one ToolContext: the editor it works for, the view, the event and the hex and map point under it.

/** @typedef {[number, number]} Hex a hex as [column, row] */

/**
 * @typedef {object} ToolContext
 * @property {any} editor the page's editor: the painter (painter/page.js) or the scenario editor (scenario/page.js)
 * @property {import("./layers.js").MapView} view the view the tool draws in
 * @property {any} [event] the pointer or key event; absent when drawing a preview
 * @property {Hex} [hex] the hex under the pointer (which may lie off the map)
 * @property {[number, number]} [point] the pointer in map space (hex circumradius 1)
 */

/**
 * @typedef {object} Tool
 * @property {string} id
 * @property {string} name
 * @property {string} [key] the shortcut that picks it (lower case)
 * @property {string} [title] the tooltip (the painter's toolbar)
 * @property {string} [note] the tooltip and status line (the scenario editor's toolbar)
 * @property {boolean} [edit] only offered to those who may edit
 * @property {string} [needs] only offered when the game's capabilities say so (e.g. "perimeter")
 * @property {(at: ToolContext) => void} [down] the primary button pressed
 * @property {(at: ToolContext) => void} [move] the pointer moved (pressed or not)
 * @property {(at: ToolContext) => void} [up] the button released
 * @property {(at: ToolContext) => void} [click] pressed and released on a hex, for a tool without `up`
 * @property {(at: ToolContext) => boolean} [onKey] a key outside the fields: true when the tool used it
 * @property {() => void} [cancel] give up what is under way (another tool picked, Esc)
 * @property {(ctx: CanvasRenderingContext2D, at: ToolContext) => void} [preview] draw what is under way
 */

/** What a tool is given for an event on the view (or, without one, for a preview).
 * @param {any} editor @param {import("./layers.js").MapView} view @param {any} [event]
 * @returns {ToolContext} */
export function toolContext(editor, view, event) {
  if (!event || !("clientX" in event)) return { editor, view, event };
  const point = /** @type {[number, number]} */ (view.toMap(...view.eventPoint(event)));
  return { editor, view, event, point, hex: /** @type {Hex} */ (view.grid.hexAt(...point)) };
}

/** The tools this reader is offered: edit tools only to those who may edit, a game's own only where it has them.
 * @param {Tool[]} tools @param {{canEdit: boolean, capabilities?: Record<string, any>}} reader */
export function offered(tools, { canEdit, capabilities = {} }) {
  return tools.filter((t) => (!t.edit || canEdit) && (!t.needs || capabilities[t.needs]));
}
