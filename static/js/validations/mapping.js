// @ts-check
// The mapping step (docs/importing.md): the designer's choices as a mapping, a preview redrawn by a mapping-step
// job after each change, confirming (the file converted again with the mapping and opened as their map), and the
// mapping downloaded as the JSON file import_map --mapping reads.
import { request } from "../lib/api.js";
import { startPage } from "../lib/page.js";

const step = document.getElementById("mapping-step");
const form = /** @type {HTMLFormElement} */ (document.getElementById("mapping-form"));
const status = document.getElementById("preview-status");
const image = /** @type {HTMLImageElement} */ (document.getElementById("preview-image"));
const findings = document.getElementById("preview-findings");
const failure = document.getElementById("step-error");
const confirm = /** @type {HTMLButtonElement} */ (document.getElementById("confirm"));

function choices() {
  const terrain = {};
  for (const select of form.querySelectorAll(/** @type {"select"} */ ("select[name=terrain]"))) terrain[select.dataset.code] = select.value;
  const number = (name) => Number(/** @type {HTMLInputElement} */ (form.elements.namedItem(name)).value);
  const storeys = /** @type {HTMLInputElement} */ (form.elements.namedItem("storeys")).value;
  return { terrain, scale: number("scale"), offset: number("offset"), storeys: storeys === "" ? null : Number(storeys) };
}

function showError(message) {
  failure.textContent = message;
  failure.hidden = !message;
}

// A job followed to its end: the long poll of /api/jobs/<id>/?wait= answers as soon as it finishes.
async function finished(answer) {
  let job = { status: "queued" };
  while (["queued", "running"].includes(job.status)) job = await request("GET", `${answer.job_url}?wait=10`);
  if (job.status !== "succeeded") throw new Error(job.error || `the job ${job.status}`);
  return job.result;
}

let asked = 0;
async function redraw() {
  const mine = ++asked;
  step.querySelector(".preview").classList.add("stale");
  status.textContent = "drawing the preview…";
  try {
    const answer = await request("POST", step.dataset.preview, choices());
    const result = await finished(answer);
    if (mine !== asked) return; // a later change is being drawn
    showError("");
    if (result.image) {
      image.src = result.image;
      image.hidden = false;
    }
    image.dataset.drawn = String(mine);
    status.textContent = `${result.hexes} hexes; ${result.errors} error${result.errors === 1 ? "" : "s"}, ` +
      `${result.warnings} warning${result.warnings === 1 ? "" : "s"} (the conversion and the map checks, as the report makes them)`;
    findings.replaceChildren(...result.groups.map((g) => {
      const item = document.createElement("li");
      item.className = g.severity;
      const hexes = g.hexes.length ? ` (${g.hexes.join(", ")}${g.count > g.hexes.length ? " …" : ""})` : "";
      item.textContent = `${g.severity}${g.count > 1 ? ` ×${g.count}` : ""}: ${g.message}${hexes}`;
      return item;
    }));
    step.querySelector(".preview").classList.remove("stale");
  } catch (error) {
    if (mine === asked) {
      showError(`The preview could not be drawn: ${error.message}`);
      status.textContent = "";
    }
  }
}

let timer = null;
function changed(event) {
  const row = event.target.closest("tr[data-code]");
  if (row && event.target.tagName === "SELECT") {
    row.classList.toggle("flagged", event.target.value === "");
    // a choice of the designer's is as sure as can be; back to the proposal, the proposal's confidence again
    const confidence = row.querySelector(".confidence");
    confidence.dataset.given ??= confidence.textContent;
    const proposed = event.target.value === confidence.dataset.proposed;
    confidence.textContent = proposed ? confidence.dataset.given : "yours";
    row.querySelector(".reason").hidden = !proposed;
  }
  clearTimeout(timer);
  timer = setTimeout(redraw, 250);
}
function start() {
  form.addEventListener("change", changed);
  form.addEventListener("input", (event) => { if (/** @type {HTMLInputElement} */ (event.target).type === "number") changed(event); });

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    confirm.disabled = true;
    status.textContent = "converting the file with this mapping and opening it as your map…";
    try {
      const result = await finished(await request("POST", step.dataset.confirm, choices()));
      window.location.assign(result.edit);
    } catch (error) {
      showError(`The map was not opened: ${error.message}`);
      confirm.disabled = false;
    }
  });

  document.getElementById("download-mapping").addEventListener("click", async () => {
    try {
      // the server reads the choices into the mapping file, as it does for a preview, and it downloads
      const mapping = await request("POST", step.dataset.read, choices());
      const blob = new Blob([JSON.stringify(mapping, null, 1)], { type: "application/json" });
      const link = document.createElement("a");
      link.href = URL.createObjectURL(blob);
      link.download = `${step.dataset.name.split(/[!/]/).pop().replace(/\.[^.]*$/, "") || "map"}-mapping.json`;
      link.click();
      setTimeout(() => URL.revokeObjectURL(link.href), 1000);
    } catch (error) {
      showError(`The mapping could not be read: ${error.message}`);
    }
  });

  redraw();
}

startPage({}, () => ({ start }));
