// @ts-check
// The one page bootstrap: every page that runs a script starts through startPage. It reads the page's data (the
// JSON the template embeds with json_script, when it has any), makes the page's object and starts it; when that
// fails the page's #banner says why in the designer's words. A page's main object (an editor) has a name: once
// it has started it is window[name] and body[data-ready] is set, for the browser tests, the benchmarks and the
// console; a page that could not start sets body[data-failed]. The small scripts of a page (its exports bar, its findings) start nameless and set neither.

/** The JSON a template embedded as `{{ config|json_script:id }}`, or null when the page has none.
 * @param {string} id */
export function pageData(id) {
  const node = document.getElementById(id);
  return node ? JSON.parse(node.textContent) : null;
}

/**
 * @template {{start?: () => (Promise<void> | void)}} P
 * @param {{data?: string, name?: string, failure?: (err: any) => string}} how the id of the page's data, the name
 *   it is known by on window, and the sentence a failure to start shows ("": none, the page says it already)
 * @param {(data: any) => P} make builds the page's object from its data
 * @returns {P}
 */
export function startPage({ data, name, failure = (err) => `The page could not start: ${err.message}` }, make) {
  const page = make(data ? pageData(data) : null);
  Promise.resolve(page.start ? page.start() : undefined).then(() => {
    if (!name) return;
    /** @type {any} */ (window)[name] = page;
    document.body.dataset.ready = "1";
  }, (err) => {
    document.body.dataset.failed = "1";   // what a test awaits when a page must give up (a scenario's map gone)
    const b = document.getElementById("banner");
    if (!b) throw err;
    const said = failure(err);
    if (!said) return;   // the page says it already, where it belongs (a scenario's "map gone")
    b.textContent = said;
    b.hidden = false;
  });
  return page;
}
