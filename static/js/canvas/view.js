// @ts-check
// The one viewport of a canvas: map space (hex circumradius 1) to screen pixels, zoom around a point, pan,
// fit; and the one pointer wiring (wheel zoom, drag to pan, everything else to the page's tool). Both the
// painter and the scenario editor draw through a MapView (layers.js), which is a Viewport.

export class Viewport {
  constructor(canvas) {
    this.canvas = canvas;
    this.scale = 30;              // screen px per map unit
    this.ox = 20; this.oy = 20;   // screen position of map point (0, 0)
    this.width = 1; this.height = 1; this.dpr = 1;
  }

  // What a subclass supplies: the map's extent [x0, y0, x1, y1] and a redraw request.
  extent() { return [0, 0, 1, 1]; }
  request() {}

  toMap(sx, sy) { return [(sx - this.ox) / this.scale, (sy - this.oy) / this.scale]; }
  toScreen(x, y) { return [x * this.scale + this.ox, y * this.scale + this.oy]; }
  eventPoint(e) {
    const r = this.canvas.getBoundingClientRect();
    return [e.clientX - r.left, e.clientY - r.top];
  }

  // The canvas's size in CSS pixels and its backing store in device pixels; the first time, fit the map.
  measure() {
    const dpr = window.devicePixelRatio || 1, r = this.canvas.getBoundingClientRect();
    this.width = Math.max(1, r.width); this.height = Math.max(1, r.height);
    this.canvas.width = Math.round(this.width * dpr); this.canvas.height = Math.round(this.height * dpr);
    this.dpr = dpr;
    if (!this.fitted) { this.fit(); this.fitted = true; }
  }

  fit() {
    const [x0, y0, x1, y1] = this.extent(), pad = 16;
    this.scale = Math.max(2, Math.min((this.width - 2 * pad) / (x1 - x0), (this.height - 2 * pad) / (y1 - y0)));
    this.ox = pad - x0 * this.scale + ((this.width - 2 * pad) - (x1 - x0) * this.scale) / 2;
    this.oy = pad - y0 * this.scale + ((this.height - 2 * pad) - (y1 - y0) * this.scale) / 2;
    this.request();
  }

  zoomAt(sx, sy, factor) {
    const [mx, my] = this.toMap(sx, sy);
    this.scale = Math.max(2, Math.min(400, this.scale * factor));
    this.ox = sx - mx * this.scale; this.oy = sy - my * this.scale;
    // While the wheel turns, cached layers may be stretched; they are drawn again at the new scale once it stops.
    this.zooming = true;
    this.request();
    clearTimeout(this.zoomTimer);
    this.zoomTimer = setTimeout(() => { this.zooming = false; this.request(); }, 150);
  }

  panBy(dx, dy) { this.ox += dx; this.oy += dy; this.request(); }
}

// The view's keys: 0 fits, + and - zoom around the middle. True when the key was one of them.
export function zoomKey(view, e) {
  if (e.key === "0") { view.fit(); return true; }
  if (e.key === "+" || e.key === "=") { view.zoomAt(view.width / 2, view.height / 2, 1.25); return true; }
  if (e.key === "-") { view.zoomAt(view.width / 2, view.height / 2, 0.8); return true; }
  return false;
}

// Pointer events on a view's canvas, mouse, pen and touch alike (Pointer Events): the wheel zooms around the
// pointer; a press that `panWhen(e)` says pans (the middle or right button always does) drags the map; any other
// press goes to `down`, `move`, `up`. `up(e, {panned, click})` after a pan tells a click (no drag) from a drag.
// `hover(e)` on every move. Two fingers pinch to zoom and drag to pan (touchGesture); one finger is the tool's,
// its press held back until it moves or lifts, so that a second finger landing first makes a gesture, not a stroke.
export function attachPointer(view, handlers) {
  const canvas = view.canvas, h = { panWhen: () => false, ...handlers };
  const touch = touchGesture(view);
  let panning = null, held = null;
  canvas.addEventListener("contextmenu", (e) => e.preventDefault());
  canvas.addEventListener("wheel", (e) => {
    e.preventDefault();
    view.zoomAt(...view.eventPoint(e), Math.exp(-e.deltaY * 0.0015));
  }, { passive: false });
  const press = (e) => {
    if (e.button === 1 || e.button === 2 || h.panWhen(e)) {
      panning = { x: e.clientX, y: e.clientY, x0: e.clientX, y0: e.clientY };
      return;
    }
    if (e.button === 0 && h.down) h.down(e);
  };
  canvas.addEventListener("pointerdown", (e) => {
    canvas.focus();
    canvas.setPointerCapture(e.pointerId);
    if (e.pointerType === "touch") {
      if (touch.add(e)) {  // a second finger: what the first began is ended, or never begun
        if (held) held = null; else if (panning) panning = null; else if (h.up) h.up(e, { panned: false, click: false });
        return;
      }
      if (touch.busy()) return;
      held = e;
      return;
    }
    press(e);
  });
  canvas.addEventListener("pointermove", (e) => {
    if (e.pointerType === "touch" && touch.move(e)) return;
    if (held) {
      if (Math.hypot(e.clientX - held.clientX, e.clientY - held.clientY) < 6) return;
      press(held); held = null;
    }
    if (h.hover) h.hover(e);
    if (panning) {
      view.panBy(e.clientX - panning.x, e.clientY - panning.y);
      panning.x = e.clientX; panning.y = e.clientY;
      return;
    }
    if (h.move) h.move(e);
  });
  const end = (e) => {
    if (e.pointerType === "touch" && touch.remove(e)) return;
    if (held) { if (h.hover) h.hover(held); press(held); held = null; }
    const was = panning;
    panning = null;
    if (h.up) h.up(e, { panned: !!was, click: !!was && Math.hypot(e.clientX - was.x0, e.clientY - was.y0) < 4 });
  };
  canvas.addEventListener("pointerup", end);
  canvas.addEventListener("pointercancel", end);
  if (h.leave) canvas.addEventListener("pointerleave", h.leave);
}

// The fingers on a view: with two down, their midpoint pans the map and their spread zooms it around that point.
// add(e) is true when the finger makes a gesture; move(e) and remove(e) are true while one is under way (it ends
// when the last finger lifts, so that lifting one of two never paints).
function touchGesture(view) {
  const fingers = new Map();
  let gesture = null;
  const spread = () => {
    const [a, b] = [...fingers.values()];
    return { x: (a[0] + b[0]) / 2, y: (a[1] + b[1]) / 2, d: Math.max(1, Math.hypot(a[0] - b[0], a[1] - b[1])) };
  };
  return {
    add(e) {
      fingers.set(e.pointerId, view.eventPoint(e));
      if (fingers.size === 2 && !gesture) gesture = spread();
      return fingers.size >= 2;
    },
    busy: () => !!gesture,
    move(e) {
      if (!fingers.has(e.pointerId)) return !!gesture;
      fingers.set(e.pointerId, view.eventPoint(e));
      if (!gesture) return false;
      if (fingers.size >= 2) {
        const now = spread();
        view.panBy(now.x - gesture.x, now.y - gesture.y);
        view.zoomAt(now.x, now.y, now.d / gesture.d);
        gesture = now;
      }
      return true;
    },
    remove(e) {
      fingers.delete(e.pointerId);
      const was = !!gesture;
      if (!fingers.size) gesture = null;
      return was;
    },
  };
}
