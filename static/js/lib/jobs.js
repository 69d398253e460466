// @ts-check
// Background jobs (docs/jobs.md): submit one, follow its progress with long polls, get its result.
import { get, post } from "./api.js";

const FINAL = new Set(["succeeded", "failed", "cancelled"]);

// runJob(url, parameters, onProgress(job)) resolves with the finished job (status succeeded), rejects with an
// Error saying why it failed. `signal` (an AbortSignal) stops following it.
/** @param {string} url @param {object} parameters @param {(job: any) => void} [onProgress]
 * @param {{signal?: AbortSignal, wait?: number}} [options] */
export async function runJob(url, parameters, onProgress = () => {}, { signal, wait = 2 } = {}) {
  let job = await post(url, parameters, { signal });
  if (job && job.job && !job.status) job = { id: job.job, url: job.url, status: "queued", progress: 0 };
  onProgress(job);
  while (!FINAL.has(job.status)) {
    if (signal && signal.aborted) throw new DOMException("stopped", "AbortError");
    const asked = performance.now();
    job = await get(`${job.url}?wait=${wait}`, { signal });
    onProgress(job);
    // A wait answers before its time only when the job finished, or when the server holds as many waits as it
    // takes (it then says Retry-After: 1): ask again a second later, not at once.
    if (!FINAL.has(job.status) && performance.now() - asked < 250) await pause(1000, signal);
  }
  if (job.status !== "succeeded") throw new Error(job.error || `the job was ${job.status}`);
  return job;
}

function pause(ms, signal) {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    if (signal) signal.addEventListener("abort", () => { clearTimeout(timer); resolve(); }, { once: true });
  });
}
