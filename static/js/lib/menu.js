// @ts-check
// The header's menu button (base.html): on a narrow screen the site's links and the signed-in line fold behind
// it (hexside.css); a press opens or closes them, Esc closes them.
const header = document.querySelector("body > header"), button = document.getElementById("menu-button");

/** @param {boolean} open */
function show(open) {
  if (!header || !button) return;
  header.classList.toggle("open", open);
  button.setAttribute("aria-expanded", String(open));
}

if (header && button) {
  button.addEventListener("click", () => show(!header.classList.contains("open")));
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && header.classList.contains("open")) { show(false); button.focus(); }
  });
}
