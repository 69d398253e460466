// Pointing at a finding in the list picks out its hex or hexside on the map.
for (const item of document.querySelectorAll(".findings-list li")) {
  const shape = document.querySelector(`.findings-overlay g[data-finding="${item.dataset.finding}"]`);
  if (!shape) continue;
  item.addEventListener("mouseenter", () => shape.classList.add("picked"));
  item.addEventListener("mouseleave", () => shape.classList.remove("picked"));
}
