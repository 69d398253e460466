// @ts-check
// Export buttons (card PDF, map PNG): each runs an export job, shows its progress, then downloads the file.
// A form[data-export-url] holds the options (paper, sheet, dpi, hex_mm); a button's data-format picks pdf or png.
import { runJob } from "./lib/jobs.js";
import { Progress } from "./lib/progress.js";
import { startPage } from "./lib/page.js";

function start() {
  for (const form of /** @type {NodeListOf<HTMLFormElement>} */ (document.querySelectorAll("form[data-export-url]"))) {
    const status = form.querySelector("[data-export-status]");
    // A button[data-names-sheet] says which sheet it exports: "Public card PDF", "German: side sheet (secret) PDF".
    const sheet = /** @type {HTMLSelectElement | null} */ (form.querySelector("select[name=sheet]"));
    const named = form.querySelector("button[data-names-sheet]");
    if (sheet && named) {
      const name = () => { named.textContent = `${sheet.selectedOptions[0].textContent} PDF`; };
      sheet.addEventListener("change", name);
      name();
    }
    const progress = new Progress(form.querySelector("progress"));
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const button = /** @type {SubmitEvent} */ (event).submitter;
      const format = button && button.dataset.format;
      const parameters = {};
      for (const field of /** @type {NodeListOf<HTMLInputElement>} */ (form.querySelectorAll("[data-for]"))) {
        if (!field.dataset.for.split(" ").includes(format || "png")) continue;
        if (field.value !== "") parameters[field.name] = field.type === "number" ? Number(field.value) : field.value;
      }
      if (format) parameters.format = format;
      for (const b of form.querySelectorAll("button")) b.disabled = true;
      progress.show({ status: "queued", progress: 0 });
      status.textContent = "queued…";
      try {
        const job = await runJob(form.dataset.exportUrl, parameters, (j) => {
          progress.show(j);
          status.textContent = j.message || j.status;
        });
        status.textContent = `ready: ${job.result.filename}`;
        form.dataset.lastFile = job.result_file;
        window.location.assign(job.result_file);
      } catch (error) {
        status.textContent = `not exported: ${error.message}`;
      } finally {
        progress.hide();
        for (const b of form.querySelectorAll("button")) b.disabled = false;
      }
    });
  }
}

startPage({}, () => ({ start }));
