/*
 * The mouse and the keys as MuJoCo's simulate and HAPTIX have them: a
 * drag moves the camera, a double-click selects a body (Ctrl: and looks
 * at the point), a Ctrl+drag pushes the selected body through hxview's
 * perturbation, and the keys run, step, reset and flip panels and
 * toggles.
 */
import { hxwb } from './state.js';
import { net } from './net.js';
import { scene } from './scene.js';
import { view } from './view.js';
import { panels } from './panels.js';
import { OBJ } from './shapes.js';

export const mouse = {
  down: null, last: null, pert: false,
  /*
   * The push under way: its number (a new press begins another), its
   * start answered (moves wait for it), refused (its moves go nowhere),
   * the moves not yet sent and the requests not yet answered.
   */
  pushNo: 0, started: false, refused: false, queue: [], inflight: 0,

  init: function () {
    var c = document.getElementById('view');
    c.addEventListener('contextmenu', function (e) { e.preventDefault(); });
    c.addEventListener('mousedown', this.press.bind(this));
    window.addEventListener('mousemove', this.moved.bind(this));
    window.addEventListener('mouseup', this.release.bind(this));
    c.addEventListener('dblclick', this.dblclick.bind(this));
    c.addEventListener('wheel', function (e) {
      e.preventDefault();
      view.move(5, 0, 0.05 * Math.sign(e.deltaY));
    }, { passive: false });
  },

  /* simulate's mapping of buttons and modifiers to mjtMouse. */
  action: function (e, button) {
    var shift = e.shiftKey;
    if (button === 0) return shift ? 2 : 1;
    if (button === 2) return shift ? 4 : 3;
    return 5;
  },

  press: function (e) {
    document.getElementById('view').focus();
    this.down = { button: e.button, ctrl: e.ctrlKey };
    this.last = [e.clientX, e.clientY];
    if (e.ctrlKey && hxwb.selected > 0 && (e.button === 0 || e.button === 2)) {
      var self = this, push = ++this.pushNo;
      this.pert = true;
      this.started = false;
      this.refused = false;
      this.queue = [];
      net.control('perturb', Object.assign({ id: hxwb.id, do: 'start',
        rotate: e.button === 0 ? 1 : 0 }, view.args())).then(function (j) {
        if (push !== self.pushNo) return;
        self.started = true;
        self.refused = !!(j && j.error);
        if (self.refused) self.queue = [];
        self.flush();
      });
    }
  },

  moved: function (e) {
    if (!this.down) return;
    var h = document.getElementById('view').clientHeight || 1;
    var dx = (e.clientX - this.last[0]) / h, dy = (e.clientY - this.last[1]) / h;
    this.last = [e.clientX, e.clientY];
    var action = this.action(e, this.down.button);
    if (this.pert) this.perturb(action, dx, dy);
    else view.move(action, dx, dy);
  },

  /*
   * simulate moves the reference with the mouse (mjv_movePerturb) the
   * moment the mouse moves; here each move goes to hxview at once, not
   * after the answer to the one before, so that the reference follows
   * the cursor however late answers come (a busy page takes them late:
   * a request after each answer left it a few moves behind).  Moves
   * wait only for the start's answer, and past 4 unanswered requests;
   * those waiting add up.  A push's moves are steps of the reference,
   * which add up in any order.
   */
  perturb: function (action, dx, dy) {
    if (this.refused) return;
    var q = this.queue, p = q.length ? q[q.length - 1] : null;
    if (p && p.action === action) {
      p.dx += dx;
      p.dy += dy;
    } else {
      q.push({ action: action, dx: dx, dy: dy });
    }
    this.flush();
  },

  flush: function () {
    var self = this;
    while (this.started && this.inflight < 4 && this.queue.length) {
      var p = this.queue.shift();
      this.inflight++;
      net.control('perturb', Object.assign({ id: hxwb.id, do: 'move',
        action: p.action, dx: p.dx, dy: p.dy }, view.args())).then(function () {
        self.inflight--;
        self.flush();
      });
    }
  },

  /* The push ends once the moves asked for have gone and been answered. */
  release: function () {
    if (!this.down) return;
    this.down = null;
    if (this.pert) {
      this.pert = false;
      var self = this, push = this.pushNo, end = function () {
        /* A new push has begun: its start takes over. */
        if (push !== self.pushNo) return;
        if (!self.started || self.inflight || self.queue.length) {
          setTimeout(end, 10);
          return;
        }
        net.control('perturb', { id: hxwb.id, do: 'end' });
      };
      end();
    }
  },

  /* The body under the mouse (a three.js ray), and the point hit. */
  pick: function (e) {
    var c = document.getElementById('view'), r = c.getBoundingClientRect();
    var v = new THREE.Vector2(((e.clientX - r.left) / r.width) * 2 - 1,
      -((e.clientY - r.top) / r.height) * 2 + 1);
    var ray = new THREE.Raycaster();
    ray.setFromCamera(v, view.camera);
    var hits = ray.intersectObjects(scene.items.filter(function (o) {
      return o.visible && o.isMesh && o.userData.objtype === OBJ.GEOM;
    }));
    return hits.length ? { body: hits[0].object.userData.body, point: hits[0].point } : null;
  },

  dblclick: function (e) {
    var hit = this.pick(e);
    if (hit && e.ctrlKey) {
      view.lookat = [hit.point.x, hit.point.y, hit.point.z];
      view.publish();
    }
    var body = hit ? hit.body : 0;
    hxwb.selectedLocal = body;
    net.control('select', { id: hxwb.id, body: body,
      point: hit ? [hit.point.x, hit.point.y, hit.point.z].join(',') : '0,0,0' });
  }
};

export const keys = {
  init: function () { window.addEventListener('keydown', this.press.bind(this)); },

  press: function (e) {
    if (e.target && (e.target.tagName === 'INPUT' || e.target.tagName === 'SELECT')) return;
    var s = hxwb.status, k = e.key, handled = true;
    var group = /^Digit([0-5])$/.exec(e.code);
    if (k === ' ') panels.run(!(s && !s.paused));
    else if (k === 'Backspace') net.control('reset', {});
    /* The server steps only while paused; running, it ignores it. */
    else if (k === 'ArrowRight') net.control('step', { count: 1 });
    else if (k === 'F3') panels.toggle('sliders-box');
    else if (k === 'F4') panels.toggle('info-box');
    else if (k === 'F9') panels.record();
    else if (e.ctrlKey && (k === 'n' || k === 'N')) panels.toggle('plot-box');
    else if (e.ctrlKey && (k === 'f' || k === 'F')) panels.toggle('profiler-box');
    else if (e.ctrlKey && (k === 'a' || k === 'A')) { view.lookat = scene.model.center.slice(); view.publish(); }
    else if (k === 'Escape') { view.fixed = -1; document.getElementById('camera').value = '-1'; view.publish(); }
    else if (group && e.shiftKey) panels.flip('sitegroup', +group[1]);
    else if (group) panels.flip('geomgroup', +group[1]);
    else if (!e.ctrlKey && !e.altKey && panels.keyToggle(k.toLowerCase())) { /* flipped */ }
    else handled = false;
    if (handled) e.preventDefault();
  }
};
