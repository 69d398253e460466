// @ts-check
// Django's messages (templates/base.html) overlay the page (hexside.css) so that nothing under them moves, and
// take no click but their own: each gets a Dismiss button, as a page's own #banner has (dom.js banner()).
import { $$, el } from "./dom.js";
import { startPage } from "./page.js";

function start() {
  for (const item of $$(".messages li")) {
    item.append(el("button", { type: "button", class: "link", onclick: () => {
      const list = item.parentElement;
      item.remove();
      if (!list.children.length) list.remove();
    } }, "Dismiss"));
  }
}

startPage({}, () => ({ start }));
