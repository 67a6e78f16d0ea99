/*
 * hxview's workbench: the scene drawn with three.js from what MuJoCo's
 * abstract scene holds (hxview_web.c describes it once per model at
 * /scene.json, then streams poses and decorations at /events), mouse
 * and keys as MuJoCo's simulate and HAPTIX have them, and the panels:
 * sliders, info, sensor plots, profiler, render toggles, models,
 * keyframes, recording, the lease and the message.
 *
 * ES modules, no framework; this entry wires them and runs the drawing
 * loop.  state.js: window.hxwb (the state the tests and the benchmark
 * read), the toggles, the status line; net.js: requests and the event
 * stream; shapes.js and scene.js: the three.js scene; view.js: the
 * camera and the renderer; input.js: mouse and keys; panels.js,
 * sliders.js, plot.js, watch.js, physics.js: the panels; upload.js:
 * models dropped on the page; timeline.js: the history slider;
 * replay.js: recordings played in the page.
 * three.js is the global THREE of /three.min.js, a classic script
 * loaded before.
 */
import { hxwb, say } from './state.js';
import { net } from './net.js';
import { scene } from './scene.js';
import { view } from './view.js';
import { mouse, keys } from './input.js';
import { panels } from './panels.js';
import { plot } from './plot.js';
import { watch } from './watch.js';
import { physics } from './physics.js';
import { upload } from './upload.js';
import { timeline } from './timeline.js';
import { replay } from './replay.js';

var fpsCount = 0, fpsStart = performance.now();

/*
 * Where the page's main thread goes, in ms since it opened: parsing the
 * stream's frames, putting them into the scene, the panels, drawing;
 * anim counts animation frames (make bench-workbench reads it).
 */
hxwb.busy = { anim: 0, parse: 0, scene: 0, panels: 0, render: 0 };

/* Frames drawn a second, over each second. */
function countFrame() {
  fpsCount++;
  var now = performance.now();
  if (now - fpsStart >= 1000) {
    hxwb.fps = fpsCount * 1000 / (now - fpsStart);
    fpsCount = 0;
    fpsStart = now;
  }
}

/* When the state of frame f was drawn: the latency's end. */
function logDrawn(f) {
  hxwb.drawLog.push({ step: f.step, rx: f.rx, tx: f.tx, recv: f.recv,
    draw: performance.timeOrigin + performance.now() });
  if (hxwb.drawLog.length > 2000) hxwb.drawLog.shift();
  hxwb.lastDrawnStep = f.step;
}

/* Each animation frame: take the newest frame, and draw when needed. */
function animate() {
  requestAnimationFrame(animate);
  var busy = hxwb.busy, t = performance.now();
  busy.anim++;
  var f = scene.pending;
  if (f && scene.update(f)) {
    scene.pending = null;
    var tp = performance.now();
    busy.scene += tp - t;
    panels.frame(f);
    busy.panels += performance.now() - tp;
  } else {
    f = null;
  }
  /* Nothing new: nothing to draw (a paused scene costs nothing). */
  if (!scene.model || (!f && !hxwb.dirty && !view.fixedMoving())) return;
  hxwb.dirty = false;
  var t0 = performance.now();
  view.render(scene.three);
  hxwb.renderMs = performance.now() - t0;
  busy.render += hxwb.renderMs;
  hxwb.drawn++;
  countFrame();
  if (f && !scene.pending && f.step !== undefined) logDrawn(f);
  if (hxwb.status && !hxwb.gone) {
    say((hxwb.status.paused ? 'paused' : 'running') + ', time ' +
      hxwb.status.time.toFixed(3) + ' s, step ' + hxwb.status.steps);
  }
}

hxwb.plot = function (name, on) { return plot.plot(name, on !== false); };
hxwb.view = view;

if (typeof THREE === 'undefined') {
  say('three.js did not load: hxview serves it from Debian\'s libjs-three');
} else {
  view.init();
  scene.init();
  scene.onModel = function (m) { panels.model(m); physics.load(); };
  mouse.init();
  keys.init();
  panels.init();
  upload.init();
  timeline.init();
  replay.init();
  watch.init();
  physics.init();
  net.start({
    model: function (m) { scene.load(m.gen); },
    look: function (l) { scene.look(l); },
    camera: function (c) { view.follow(c); },
    frame: function (f) {
      if (f.status) timeline.status(f.status);
      /* A kept state or a recording on show holds the live ones back. */
      if (!timeline.holds(f) && !replay.holds(f)) scene.pending = f;
    },
    server: function (s) { panels.server(s); }
  });
  requestAnimationFrame(animate);
}
