// @ts-check
// The painter's tool buttons, the view switches beside Undo and Redo, and the shortcuts dialog.
import { $, $$, el } from "../../lib/dom.js";

export function buildToolbar(p) {
  const bar = $("#tools");
  for (const tool of p.tools) {
    bar.append(el("button", { type: "button", class: "tool", "data-tool": tool.id, title: tool.title,
                              "aria-pressed": "false", "aria-keyshortcuts": tool.key.toUpperCase(),
                              onclick: () => p.useTool(tool) },
                  el("span", { class: "tool-name" }, tool.name), el("kbd", {}, tool.key.toUpperCase())));
  }
  $("#fit").addEventListener("click", () => p.view.fit());
  $("#help-button").addEventListener("click", () => toggleHelp());
  $("#help-close").addEventListener("click", () => toggleHelp(false));
  $("#show-labels").addEventListener("change", (e) => { p.view.showLabels = e.target.checked; p.view.invalidate(); });
  $("#show-grid").addEventListener("change", (e) => { p.view.showGrid = e.target.checked; p.view.invalidate(); });
}

// The pressed button and the option groups of a tool (data-for lists the tools a group belongs to).
export function showTool(tool) {
  for (const b of $$("#tools .tool")) b.setAttribute("aria-pressed", String(b.dataset.tool === tool.id));
  for (const group of $$("[data-for]")) group.hidden = !group.dataset.for.split(" ").includes(tool.id);
  $("#map-canvas").dataset.tool = tool.id;
}

export function toggleHelp(show) {
  const help = $("#help");
  help.hidden = show === undefined ? !help.hidden : !show;
  if (!help.hidden) $("#help-close").focus();
}
