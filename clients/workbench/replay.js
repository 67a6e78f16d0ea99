/*
 * Recordings in the page: any recording of the daemon's state
 * directories (hxview's /recordings.json), or a file of this computer
 * sent to hxview (/recording-upload), opened here, read by hxview
 * with the recording library (/recording.json) and played in this tab
 * only: play, pause, a slider over the records with marks where the run
 * was reset or the model edited, a speed, and a sensor plotted over the
 * recording's time with the record shown; Export makes it one page that
 * plays with no server (hxview's /export.html).  The live simulation
 * goes on untouched; closing the recording shows it again.
 */
import { hxwb, say } from './state.js';
import { scene } from './scene.js';
import { net, exportTo } from './net.js';

function byId(id) { return document.getElementById(id); }

export const replay = {
  rec: null,       /* the summary of the open recording, or null */
  shown: null,     /* the record's frame on show */
  index: 0,        /* the record shown */
  playing: false,
  speed: 1,
  asking: false,
  want: -1,
  series: null,    /* {time, values} of the plotted sensor */
  clock: 0,        /* the wall time playing started at, and its record */
  from: 0,

  init: function () {
    var self = this;
    byId('replay-open').addEventListener('click', function () { self.open(byId('replay-files').value); });
    byId('replay-close').addEventListener('click', function () { self.close(); });
    byId('replay-play').addEventListener('click', function () { self.play(!self.playing); });
    byId('replay-range').addEventListener('input', function () {
      self.play(false);
      self.go(Number(byId('replay-range').value));
    });
    byId('replay-speed').addEventListener('change', function () {
      self.speed = Number(byId('replay-speed').value);
      if (self.playing) self.play(true);
    });
    byId('replay-sensor').addEventListener('change', function () { self.plot(); });
    byId('replay-refresh').addEventListener('click', function () { self.list(); });
    byId('replay-upload').addEventListener('change', function () {
      self.upload(byId('replay-upload').files[0]);
    });
    byId('replay-export').addEventListener('click', function () {
      if (!self.rec) return;
      exportTo('file=' + encodeURIComponent(self.rec.file), byId('replay-export-link'),
        self.rec.file.replace(/\.(hxr|mjl)$/, '') + '.html');
    });
    hxwb.replay = this;
    this.list();
    setInterval(function () { self.tick(); }, 40);
  },

  /* A live frame: held back while a recording is open. */
  holds: function (f) { return this.rec !== null; },

  /* The recordings hxview finds, in the list. */
  list: function () {
    fetch('/recordings.json').then(function (r) { return r.json(); }).then(function (j) {
      var sel = byId('replay-files');
      sel.textContent = '';
      (j.dirs || []).forEach(function (d) {
        d.files.sort(function (a, b) { return b.mtime - a.mtime; }).forEach(function (f) {
          var o = document.createElement('option');
          o.value = f.name;
          o.textContent = f.name + ' (' + (f.bytes / 1024).toFixed(0) + ' KiB)';
          sel.appendChild(o);
        });
      });
    }).catch(function () {});
  },

  /* Open the recording file: its summary, its first record. */
  open: function (file) {
    if (!file) return;
    var self = this;
    fetch('/recording.json?file=' + encodeURIComponent(file)).then(function (r) { return r.json(); }).then(function (j) {
      self.start(j);
    }).catch(function (e) { say('recording: ' + e); });
  },

  /* A recording file of this computer, read by hxview (as upload:NAME). */
  upload: function (f) {
    if (!f) return;
    var self = this, headers = { 'X-Hxview': '1', 'Content-Type': 'application/octet-stream' };
    if (net.token) headers['X-Hxview-Token'] = net.token;
    say('sending ' + f.name + '...');
    fetch('/recording-upload?name=' + encodeURIComponent(f.name), { method: 'POST',
      headers: headers, body: f }).then(function (r) { return r.json(); })
      .then(function (j) { self.start(j); })
      .catch(function (e) { say('recording: ' + e); });
  },

  /* Show the recording summed up in j. */
  start: function (j) {
    if (j.error) { say('recording: ' + j.error); return; }
    this.rec = j;
    this.index = 0;
    var r = byId('replay-range');
    r.max = Math.max(0, j.records - 1);
    r.value = 0;
    this.marks(j);
    this.sensors(j);
    byId('replay').hidden = false;
    this.go(0);
    this.plot();
  },

  /* Marks under the slider where the run was reset or the model edited. */
  marks: function (j) {
    var box = byId('replay-marks');
    box.textContent = '';
    j.markers.forEach(function (m) {
      var s = document.createElement('span');
      s.className = 'mark ' + m.kind;
      s.title = m.kind + ' at ' + m.time.toFixed(3) + ' s';
      s.style.left = (100 * m.record / Math.max(1, j.records - 1)) + '%';
      box.appendChild(s);
    });
  },

  /* The model's sensors to plot, when the recording holds sensordata. */
  sensors: function (j) {
    var sel = byId('replay-sensor'), m = scene.model;
    sel.textContent = '';
    if (j.fields.indexOf('sensordata') < 0 || !m) return;
    m.sensors.forEach(function (s, i) {
      var o = document.createElement('option');
      o.value = s.adr;
      o.textContent = s.name || ('sensor ' + i);
      sel.appendChild(o);
    });
  },

  /* The chosen sensor over the recording's time. */
  plot: function () {
    var self = this, k = byId('replay-sensor').value;
    this.series = null;
    if (!this.rec || k === '') { this.draw(); return; }
    fetch('/recording.json?file=' + encodeURIComponent(this.rec.file) + '&sensor=' + k)
      .then(function (r) { return r.json(); }).then(function (j) {
        if (!j.error) self.series = j;
        self.draw();
      }).catch(function () {});
  },

  /* The plot, with the record shown as a line. */
  draw: function () {
    var c = byId('replay-plot'), g = c.getContext('2d'), s = this.series;
    g.fillStyle = '#111';
    g.fillRect(0, 0, c.width, c.height);
    if (!s || s.values.length < 2) return;
    var lo = Math.min.apply(null, s.values), hi = Math.max.apply(null, s.values);
    if (!(hi > lo)) { hi = lo + 1; lo -= 1; }
    var n = s.values.length;
    g.strokeStyle = '#6cf';
    g.beginPath();
    s.values.forEach(function (v, i) {
      var x = i / (n - 1) * c.width, y = c.height - (v - lo) / (hi - lo) * (c.height - 6) - 3;
      if (i === 0) g.moveTo(x, y); else g.lineTo(x, y);
    });
    g.stroke();
    if (this.rec) {
      var x = this.index / Math.max(1, this.rec.records - 1) * c.width;
      g.strokeStyle = '#fc5';
      g.beginPath(); g.moveTo(x, 0); g.lineTo(x, c.height); g.stroke();
    }
  },

  /* Show record i: one request at a time, the newest asked wins. */
  go: function (i) {
    if (!this.rec) return;
    if (this.asking) { this.want = i; return; }
    this.asking = true;
    var self = this;
    fetch('/recording.json?file=' + encodeURIComponent(this.rec.file) + '&record=' + i)
      .then(function (r) { return r.json(); }).then(function (f) {
        if (f.error) { say('recording: ' + f.error); self.play(false); return; }
        if (!self.rec) return;
        self.shown = f;
        self.index = f.record;
        byId('replay-range').value = f.record;
        byId('replay-text').textContent = 't = ' + f.time.toFixed(3) + ' s, record ' +
          f.record + ' of ' + f.records;
        scene.pending = f;
        hxwb.dirty = true;
        self.draw();
      }).catch(function (e) { say('recording: ' + e); }).finally(function () {
        self.asking = false;
        if (self.want >= 0) { var w = self.want; self.want = -1; self.go(w); }
      });
  },

  /* Play from the record shown at the speed chosen, or pause. */
  play: function (on) {
    this.playing = on && this.rec !== null;
    this.clock = performance.now();
    this.from = this.index;
    byId('replay-play').textContent = this.playing ? 'Pause' : 'Play';
  },

  /* While playing: the record due now, by the recording's time step. */
  tick: function () {
    if (!this.playing || !this.rec || this.asking) return;
    var dt = this.rec.timestep * this.rec.every || 0.002;
    var i = this.from + Math.floor((performance.now() - this.clock) / 1000 * this.speed / dt);
    if (i >= this.rec.records - 1) { i = this.rec.records - 1; this.play(false); }
    if (i !== this.index) this.go(i);
  },

  /* Close the recording: the live state again. */
  close: function () {
    this.play(false);
    this.rec = null;
    this.shown = null;
    this.series = null;
    byId('replay').hidden = true;
    if (hxwb.frame) scene.pending = hxwb.frame;
    hxwb.dirty = true;
  }
};
