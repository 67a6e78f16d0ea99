/*
 * The Sensors panel (the chosen sensors over the last 10 s of simulated
 * time) and the Profiler (the CPU time of the last 200 steps).
 */
import { scene } from './scene.js';

var SENSOR_COLOURS = ['#e66', '#6c6', '#69f', '#fc5', '#c6f', '#5dd', '#f96', '#aaa'];

export const plot = {
  plotted: [], history: [], cpu: [], lastPlotted: null,

  /* A new model: its first sensor plotted, and the list to choose from. */
  model: function (m) {
    this.history = [];
    this.plotted = m.sensors.length ? [0] : [];
    var box = document.getElementById('sensor-list'), self = this;
    box.textContent = '';
    m.sensors.forEach(function (s, i) {
      var l = document.createElement('label'), c = document.createElement('input');
      c.type = 'checkbox'; c.checked = self.plotted.indexOf(i) >= 0;
      c.dataset.sensor = s.name;
      c.addEventListener('change', function () { self.plot(s.name, c.checked); });
      l.appendChild(c);
      l.appendChild(document.createTextNode(' ' + (s.name || 'sensor ' + i)));
      box.appendChild(l);
    });
  },

  /* Plot a sensor by name, or stop plotting it. */
  plot: function (name, on) {
    var m = scene.model, i = m.sensors.findIndex(function (s) { return s.name === name; });
    if (i < 0) return false;
    var at = this.plotted.indexOf(i);
    if (on && at < 0) this.plotted.push(i);
    if (!on && at >= 0) this.plotted.splice(at, 1);
    var c = document.querySelector('#sensor-list input[data-sensor="' + name + '"]');
    if (c) c.checked = on;
    return true;
  },

  /* Each frame: keep its sensors and step time, and draw both charts. */
  frame: function (f, m) {
    var s = f.status;
    this.history.push({ t: f.time, v: f.sensor });
    while (this.history.length > 2 && this.history[0].t < f.time - 10) this.history.shift();
    if (this.history.length > 2 && this.history[this.history.length - 2].t > f.time) this.history = [this.history.pop()];
    this.cpu.push(s.cpu * 1e3);
    if (this.cpu.length > 200) this.cpu.shift();
    this.draw(m);
    this.profiler(s);
  },

  /* The time grid and the range of the plotted values; returns the range. */
  axes: function (g, c, m) {
    var h = this.history, t1 = h[h.length - 1].t, t0 = t1 - 10, lo = Infinity, hi = -Infinity;
    this.plotted.forEach(function (i) {
      var a = m.sensors[i].adr;
      h.forEach(function (p) { lo = Math.min(lo, p.v[a]); hi = Math.max(hi, p.v[a]); });
    });
    if (!(hi > lo)) { hi = lo + 1; lo -= 1; }
    g.strokeStyle = '#333';
    for (var s = Math.ceil(t0); s <= t1; s++) {
      var x = (s - t0) / 10 * c.width;
      g.beginPath(); g.moveTo(x, 0); g.lineTo(x, c.height); g.stroke();
    }
    g.fillStyle = '#888';
    g.fillText(hi.toPrecision(3), 2, 10);
    g.fillText(lo.toPrecision(3), 2, c.height - 2);
    g.fillText('t = ' + t1.toFixed(1) + ' s', c.width - 60, 10);
    return { t0: t0, lo: lo, hi: hi };
  },

  draw: function (m) {
    var c = document.getElementById('plot'), g = c.getContext('2d'), h = this.history;
    g.fillStyle = '#111'; g.fillRect(0, 0, c.width, c.height);
    var legend = document.getElementById('legend');
    legend.textContent = '';
    if (h.length < 2) return;
    var r = this.axes(g, c, m), self = this;
    this.plotted.forEach(function (i, k) {
      var a = m.sensors[i].adr, colour = SENSOR_COLOURS[k % SENSOR_COLOURS.length];
      g.strokeStyle = colour; g.lineWidth = 2;
      g.beginPath();
      h.forEach(function (p, j) {
        var x = (p.t - r.t0) / 10 * c.width;
        var y = c.height - (p.v[a] - r.lo) / (r.hi - r.lo) * (c.height - 14) - 7;
        if (j === 0) g.moveTo(x, y); else g.lineTo(x, y);
      });
      g.stroke();
      var span = document.createElement('span');
      span.style.color = colour;
      span.textContent = m.sensors[i].name + ' ' + h[h.length - 1].v[a].toPrecision(4);
      span.dataset.sensor = m.sensors[i].name;
      legend.appendChild(span);
      self.lastPlotted = m.sensors[i].name;
    });
  },

  profiler: function (s) {
    var c = document.getElementById('profiler'), g = c.getContext('2d'), h = this.cpu;
    g.fillStyle = '#111'; g.fillRect(0, 0, c.width, c.height);
    var hi = Math.max.apply(null, h.concat([0.001]));
    g.strokeStyle = '#6c6';
    g.beginPath();
    h.forEach(function (v, i) {
      var x = i / 200 * c.width, y = c.height - v / hi * (c.height - 4);
      if (i === 0) g.moveTo(x, y); else g.lineTo(x, y);
    });
    g.stroke();
    document.getElementById('profiler-text').textContent = 'step ' +
      (s.cpu * 1e3).toFixed(3) + ' ms (max ' + hi.toFixed(3) + ' ms shown); pacing late p50 ' +
      (s.late_p50 * 1e3).toFixed(2) + ' ms, p99 ' + (s.late_p99 * 1e3).toFixed(2) + ' ms';
  }
};
