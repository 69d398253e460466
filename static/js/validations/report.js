// @ts-check
// Follow the job until it finishes, then show the full report (the server renders it).
import { startPage } from "../lib/page.js";

function start() {
  const status = document.getElementById("status");
  if (status.dataset.finished !== "true") {
    const bar = status.querySelector("progress");
    const poll = async () => {
      try {
        const answer = await fetch(status.dataset.url, {headers: {"Accept": "application/json"}});
        if (answer.ok) {
          const report = await answer.json();
          bar.value = report.progress;
          document.getElementById("status-text").textContent = report.status;
          document.getElementById("status-message").textContent = report.message;
          document.getElementById("status-progress").textContent = report.progress;
          document.getElementById("counts").textContent = `${report.files.length} of ${report.files_total} ` +
            `files checked: ${report.counts.ok} ok, ${report.counts.warnings} with warnings, ` +
            `${report.counts.invalid} invalid.`;
          if (!["queued", "running"].includes(report.status)) { window.location.reload(); return; }
        }
      } catch (error) { /* try again at the next tick */ }
      setTimeout(poll, 500);
    };
    poll();
  }
}

startPage({}, () => ({ start }));
