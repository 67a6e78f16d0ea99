/*
 * The timeline: the live run's history (haptixd --history), as MuJoCo's
 * simulate has its history slider.  While the simulation is paused, the
 * slider goes back through the states the daemon kept; each is drawn in
 * this page only (hxview's /history.json computes the frame of a kept
 * state for the asking browser), the simulation and the other browsers
 * untouched.  "Resume from here" makes the state shown the live one
 * (the control resume: a write, the lease applies); "Live", or running,
 * shows the live state again; Export makes the kept states one page that
 * plays with no server (hxview's /export.html).
 */
import { hxwb, say } from './state.js';
import { net, exportTo } from './net.js';
import { scene } from './scene.js';

function byId(id) { return document.getElementById(id); }

export const timeline = {
  states: 0,      /* kept, as the last summary said */
  back: 0,        /* the state shown: kept states before the newest */
  shown: null,    /* the kept state's frame on show, or null: live */
  asking: false,  /* a request is out */
  want: -1,       /* the back asked for while one was out */
  paused: null,   /* the simulation's, as last seen */
  steps: -1,      /* its step count when the summary was read */

  init: function () {
    var self = this, r = byId('timeline-range');
    r.addEventListener('input', function () { self.go(self.states - 1 - Number(r.value)); });
    byId('timeline-live').addEventListener('click', function () { self.live(); });
    byId('timeline-resume').addEventListener('click', function () { self.resume(); });
    byId('timeline-export').addEventListener('click', function () {
      exportTo('history=1', byId('timeline-export-link'), 'history.html');
    });
    hxwb.timeline = this;
  },

  /* A live frame: held back while a kept state is on show. */
  holds: function (f) {
    return this.shown !== null;
  },

  /* Each status: while paused, the timeline and how much is kept. */
  status: function (s) {
    var paused = !!s.paused;
    if (paused !== this.paused || (paused && s.steps !== this.steps)) {
      this.paused = paused;
      this.steps = s.steps;
      if (!paused) this.live();
      if (paused) this.summary();
    }
    byId('timeline').hidden = !paused || this.states < 2;
  },

  /* What the daemon keeps: the slider's length. */
  summary: function () {
    var self = this;
    fetch('/history.json').then(function (r) { return r.json(); }).then(function (j) {
      if (j.error) return;
      self.states = j.states;
      var r = byId('timeline-range');
      r.max = Math.max(0, j.states - 1);
      if (self.shown === null) r.value = r.max;
      byId('timeline').hidden = !self.paused || j.states < 2;
      self.label();
    }).catch(function () {});
  },

  /* Show the state back kept states before the newest (0: live). */
  go: function (back) {
    if (back <= 0) { this.live(); return; }
    if (this.asking) { this.want = back; return; }
    this.asking = true;
    var self = this;
    fetch('/history.json?back=' + back).then(function (r) { return r.json(); }).then(function (f) {
      if (f.error) { say('history: ' + f.error); return; }
      self.shown = f;
      self.back = f.back;
      scene.pending = f;
      hxwb.dirty = true;
      self.label();
    }).catch(function (e) { say('history: ' + e); }).finally(function () {
      self.asking = false;
      if (self.want >= 0) { var b = self.want; self.want = -1; self.go(b); }
    });
  },

  /* The live state again. */
  live: function () {
    this.shown = null;
    this.back = 0;
    this.want = -1;
    var r = byId('timeline-range');
    r.value = r.max;
    if (hxwb.frame) scene.pending = hxwb.frame;
    hxwb.dirty = true;
    this.label();
  },

  /* Make the state shown the live one. */
  resume: function () {
    if (this.shown === null) return;
    var self = this, back = this.back;
    net.control('resume', { back: back }).then(function (j) {
      if (j.error) return;
      say('resumed from ' + self.shown.time.toFixed(3) + ' s');
      self.live();
      self.summary();
    });
  },

  label: function () {
    var f = this.shown;
    byId('timeline-text').textContent = f === null ? 'live' :
      't = ' + f.time.toFixed(3) + ' s, step ' + f.step + ' (' + f.back + ' back)' +
      (f.resumable ? '' : ', the model was written since');
    byId('timeline-resume').disabled = f === null || !f.resumable || hxwb.readOnly;
  }
};
