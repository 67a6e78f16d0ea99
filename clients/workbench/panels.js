/*
 * The panels but the sliders and the charts: Simulation (run, pause,
 * step, reset, keyframes, recording, models, the camera), Info, the
 * lease and the message; Rendering and Visualization are render.js's.
 * A new model and each frame pass through here to the Sliders and
 * Sensors panels.
 */
import { hxwb, say } from './state.js';
import { net } from './net.js';
import { scene } from './scene.js';
import { view } from './view.js';
import { render } from './render.js';
import { sliders } from './sliders.js';
import { plot } from './plot.js';

function byId(id) { return document.getElementById(id); }

export const panels = {
  init: function () {
    var self = this;
    function on(id, fn) { byId(id).addEventListener('click', fn); }
    on('run', function () { self.run(true); });
    on('pause', function () { self.run(false); });
    on('step', function () { net.control('step', { count: 1 }); });
    on('reset', function () { net.control('reset', {}); });
    on('key-reset', function () {
      var k = byId('keys');
      if (k.value !== '') net.control('reset', { index: k.value });
    });
    on('capture', function () {
      net.control('capture', { name: byId('key-name').value });
    });
    on('record', function () { self.record(); });
    on('load', function () {
      var m = byId('models').value;
      if (m) net.control('load', { path: m });
    });
    /* The speed, in powers of two: 1/1024 (slow motion) to 64. */
    byId('speed').addEventListener('change', function (e) {
      byId('speed-max').checked = false;
      net.control('speed', { factor: Math.pow(2, +e.target.value) });
    });
    byId('speed-max').addEventListener('change', function (e) {
      net.control('speed', e.target.checked ? { max: 1 } :
        { factor: Math.pow(2, +byId('speed').value) });
    });
    byId('camera').addEventListener('change', function (e) {
      view.fixed = +e.target.value;
      view.publish();
    });
    render.init();
  },

  toggle: function (id) { byId(id).classList.toggle('hidden'); },

  run: function (go) { net.control(go ? 'run' : 'pause', {}); },

  record: function () {
    net.control(hxwb.status && hxwb.status.recording ? 'record-stop' : 'record-start', {});
  },

  /* simulate's key k for a visualization or rendering flag; false if none. */
  keyToggle: function (k) { return render.key(k); },

  /* Flip group i of what: 'geomgroup', 'sitegroup', 'jointgroup', ... */
  flip: function (what, i) { render.group(what, i); },

  /* A new model: keys, cameras, sliders, sensors, the models list. */
  model: function (m) {
    var keys = byId('keys'), cams = byId('camera');
    keys.textContent = '';
    m.keys.forEach(function (k, i) {
      var o = document.createElement('option');
      o.value = i; o.textContent = k || ('key ' + i);
      keys.appendChild(o);
    });
    cams.textContent = '';
    [{ name: 'free' }].concat(m.cameras).forEach(function (c, i) {
      var o = document.createElement('option');
      o.value = i - 1; o.textContent = c.name || ('camera ' + (i - 1));
      cams.appendChild(o);
    });
    cams.value = String(view.fixed);
    sliders.model();
    plot.model(m);
    net.models().then(function (j) { panels.models(j); }).catch(function () {});
  },

  /* The server's model files, to load from. */
  models: function (j) {
    var sel = byId('models');
    sel.textContent = '';
    (j.dirs || []).forEach(function (d) {
      d.files.sort().forEach(function (f) {
        var o = document.createElement('option');
        o.value = d.dir + '/' + f; o.textContent = f;
        sel.appendChild(o);
      });
    });
  },

  /* Each frame: the sliders, the panels' state, info, plots and profiler. */
  frame: function (f) {
    var s = f.status, m = scene.model;
    if (!s || !m) return;
    sliders.frame(f);
    this.state(s);
    this.info(s, m);
    plot.frame(f, m);
  },

  /* The lease, the message, and which controls may be used. */
  state: function (s) {
    var mine = s.lease && s.lease !== hxwb.client;
    var lease = byId('lease');
    lease.hidden = !s.lease;
    lease.textContent = !s.lease ? '' : mine ?
      'the lease is held by ' + (s.lease_name || 'client') + ' (' + s.lease + '): read-only' :
      'this viewer holds the lease';
    var ro = hxwb.readOnly || mine;
    document.querySelectorAll('#sim button, #sliders input, #sim input').forEach(function (b) {
      b.disabled = ro;
    });
    var msg = byId('message');
    msg.hidden = !s.message;
    msg.textContent = s.message;
    byId('run').disabled = ro || !s.paused;
    byId('pause').disabled = ro || s.paused;
    byId('step').disabled = ro || !s.paused;
    this.speed(s);
    byId('record').textContent = s.recording ? 'Stop recording' : 'Record';
    byId('record-state').textContent = s.recording ?
      'recording ' + s.records + ' to ' + s.record_path : (s.record_ended ? 'ended: ' + s.record_ended : '');
  },

  /*
   * The server went away (s.up false, s.why, s.since), or hxview itself
   * does not answer (s.hxview), or it is back: the page says so plainly,
   * and while it is gone shows no state as if it were running.
   */
  server: function (s) {
    var was = hxwb.gone;
    hxwb.gone = s.up ? null : s;
    document.body.classList.toggle('server-gone', !s.up);
    var b = byId('server-gone');
    if (!s.up) {
      var since = new Date(s.since || Date.now()).toLocaleTimeString();
      b.textContent = (s.hxview ? s.why :
        'The server ' + (s.server || hxwb.server || '') + ' went away at ' + since +
        ' (' + s.why + '). hxview connects again by itself; the picture is as it was then.');
      say(s.hxview ? 'hxview does not answer' : 'the server is gone');
    } else if (was) {
      b.textContent = '';
      say(was.hxview ? 'hxview answers again' : 'the server is back');
    }
    /* The Info box at once: no state from before may read as now. */
    if (hxwb.status && hxwb.model) this.info(hxwb.status, hxwb.model);
    else if (!s.up) byId('info').textContent = 'Gone      the server went away';
  },

  /* The speed the server runs at, unless the slider is being moved. */
  speed: function (s) {
    var r = byId('speed'), text = byId('speed-text');
    if (s.speed === undefined) return;
    text.textContent = s.speed_max ? 'max' : s.speed >= 1 ?
      'x' + +s.speed.toPrecision(3) : 'x1/' + +(1 / s.speed).toPrecision(3);
    byId('speed-max').checked = !!s.speed_max;
    if (document.activeElement !== r && s.speed > 0)
      r.value = Math.round(Math.log2(s.speed));
    r.disabled = hxwb.readOnly || !!s.speed_max;
  },

  /* The Info box. */
  info: function (s, m) {
    var fmt = function (x, d) { return x === null || x === undefined ? '-' : x.toFixed(d); };
    var g = hxwb.gone;
    byId('info').textContent =
      'Time      ' + fmt(s.time, 3) + ' s  (step ' + s.steps + ')\n' +
      (g ? (g.hxview ? 'Unknown   hxview does not answer\n' : 'Gone      the server went away; connecting again\n') :
        s.paused ? 'Paused\n' : 'Running   x' + fmt(s.rtf, 2) + ' real time' + (s.lagging ? ', lagging' : '') + '\n') +
      'CPU/step  ' + fmt(s.cpu * 1e3, 3) + ' ms\n' +
      'Solver    ' + s.nefc + ' constraints, ' + s.ncon + ' contacts\n' +
      'Energy    ' + fmt(s.epot, 3) + ' + ' + fmt(s.ekin, 3) + ' J\n' +
      'Server    ' + hxwb.server + ', ' + s.clients + ' clients (this viewer ' + hxwb.client + ')\n' +
      'Mocap     ' + m.nmocap + ' bodies, ' + s.tracking + ' tracked, ' + s.perturbations + ' pushed\n' +
      'Model     ' + m.name + '\n' +
      'Page      ' + hxwb.fps.toFixed(0) + ' frames/s, browser ' + hxwb.id;
  }
};
