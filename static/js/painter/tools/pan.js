// @ts-check
// Pan: drag the map (also: the middle or right button, or Space held, with any tool).
export const pan = {
  id: "pan", name: "Pan", key: "m", title: "Move the map by dragging (M, or hold Space)",
  /** @type {[number, number] | null} */
  last: null,
  /** @param {import("../../canvas/tools.js").ToolContext} at */
  down({ event: e }) { this.last = [e.clientX, e.clientY]; },
  /** @param {import("../../canvas/tools.js").ToolContext} at */
  move({ view, event: e }) {
    if (!this.last) return;
    view.panBy(e.clientX - this.last[0], e.clientY - this.last[1]);
    this.last = [e.clientX, e.clientY];
  },
  up() { this.last = null; },
};
