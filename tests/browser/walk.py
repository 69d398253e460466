"""What the walk at three screen sizes checks on a page, in the page itself: nothing wider than the screen, no
control covered by another element, the header folded behind a menu button on a narrow screen."""

SIZES = {"phone": (390, 844), "tablet": (768, 1024), "desktop": (1280, 800)}

# Every visible control, scrolled into view in turn (inner scrolling panels too); the element at its centre must
# be the control, inside it, or the label that holds it. An element with pointer-events: none lets the click
# through, as elementFromPoint does, so a banner that lets clicks through covers nothing.
COVERED = """() => {
  const controls = [...document.querySelectorAll(
    "a[href], button, input:not([type=hidden]), select, textarea, summary, [role=button]")];
  const covered = [];
  for (const el of controls) {
    if (el.closest("[hidden], .visually-hidden, details:not([open]) > :not(summary)")) continue;
    const style = getComputedStyle(el);
    if (style.visibility === "hidden" || style.display === "none" || style.pointerEvents === "none") continue;
    // a link's first line box: a link that wraps has a bounding box wider than its words
    let r = el.getClientRects()[0];
    if (!r || r.width < 1 || r.height < 1) continue;
    el.scrollIntoView({ block: "center", inline: "center" });
    r = el.getClientRects()[0];
    const x = r.left + Math.min(r.width / 2, 8), y = r.top + r.height / 2;
    const cx = r.left + r.width / 2;
    for (const [px, py] of [[cx, y], [x, y]]) {
      if (px < 0 || py < 0 || px >= innerWidth || py >= innerHeight) {
        covered.push(describe(el, "off the screen"));
        break;
      }
      const hit = document.elementFromPoint(px, py);
      const label = hit && hit.closest("label");
      if (hit && (hit === el || el.contains(hit) || (label && (label.control === el || label.contains(el))))) continue;
      covered.push(describe(el, hit ? describe(hit, "") : "nothing"));
      break;
    }
  }
  window.scrollTo(0, 0);
  return covered;
  function describe(e, by) {
    const name = (e.id ? "#" + e.id : "") + (e.getAttribute("name") ? `[name=${e.getAttribute("name")}]` : "");
    const text = (e.innerText || e.value || e.getAttribute("aria-label") || "").trim().slice(0, 30);
    return `${e.tagName.toLowerCase()}${name} "${text}"${by ? " covered by " + by : ""}`;
  }
}"""

WIDE = """() => {
  const w = document.documentElement.clientWidth, wide = [];
  for (const el of document.querySelectorAll("body *")) {
    const r = el.getBoundingClientRect();
    if (r.right > w + 1 && r.width > 0 && getComputedStyle(el).position !== "fixed") wide.push(
      `${el.tagName.toLowerCase()}${el.id ? "#" + el.id : ""}`
      + `${el.className ? "." + String(el.className).split(" ")[0] : ""} right ${Math.round(r.right)}`);
  }
  return { scroll: document.documentElement.scrollWidth, inner: innerWidth, wide: wide.slice(0, 8) };
}"""


def wider_than_the_screen(page):
    """'' when the page fits its screen, else what sticks out."""
    answer = page.evaluate(WIDE)
    if answer["scroll"] <= answer["inner"]:
        return ""
    return f"{answer['scroll']} px wide on a {answer['inner']} px screen: {answer['wide']}"


def covered_controls(page):
    return page.evaluate(COVERED)


def header_folds(page, narrow):
    """On a narrow screen the nav is behind the menu button and opens with it, its links one under another and
    clear of the rest of the header; on a wide one there is no menu button and the nav shows."""
    menu, nav = page.locator("#menu-button"), page.locator("header nav")
    if not page.locator("body > header .brand").count():
        return  # a page of its own (Swagger UI's)
    if not narrow:
        assert not menu.is_visible() and nav.is_visible(), "a wide screen shows the links"
        return
    assert menu.is_visible() and not nav.is_visible(), "a narrow screen folds them behind the menu button"
    menu.click()
    assert nav.is_visible() and menu.get_attribute("aria-expanded") == "true", "the menu button opens them"
    assert (covered := covered_controls(page)) == [], covered
    overlaps = page.evaluate("""() => {
      const boxes = [...document.querySelectorAll("header nav a, header .who > *")]
        .filter((e) => e.getClientRects().length).map((e) => [e, e.getBoundingClientRect()]);
      const out = [];
      for (const [a, p] of boxes) for (const [b, q] of boxes)
        if (a !== b && !a.contains(b) && !b.contains(a) && p.left < q.right - 1 && q.left < p.right - 1
            && p.top < q.bottom - 1 && q.top < p.bottom - 1)
          out.push(`${a.textContent.trim()} / ${b.textContent.trim()}`);
      return out;
    }""")
    assert overlaps == [], overlaps
    menu.click()
    assert not nav.is_visible(), "the menu button closes them"
