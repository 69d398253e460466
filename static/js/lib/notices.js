// @ts-check
// Django's messages (templates/base.html): at the top of a page, in its flow (hexside.css); in an editor over the
// top of the map's stage (painter.css), taking no click but their own. Each gets a Dismiss button, as a page's own
// #banner has (dom.js banner()).
import { $$, el } from "./dom.js";
import { startPage } from "./page.js";

function start() {
  // In an editor they lie over the map's stage, where they cover no control (painter.css).
  const stage = document.querySelector(".painter .stage"), list = document.querySelector("main > .messages");
  if (stage && list) stage.prepend(list);
  for (const item of $$(".messages li")) {
    item.append(el("button", { type: "button", class: "link", onclick: () => {
      const list = item.parentElement;
      item.remove();
      if (!list.children.length) list.remove();
    } }, "Dismiss"));
  }
}

startPage({}, () => ({ start }));
