/*
 * The Sliders panel: the joints' positions while paused, the actuators'
 * controls while running; moving one sets it in the daemon, and each
 * frame shows the values of those the user is not moving.
 */
import { net } from './net.js';
import { scene } from './scene.js';

export const sliders = {
  rows: [], mode: '', gen: 0,

  /* A new model: the sliders are made again at the next frame. */
  model: function () { this.mode = ''; },

  /* The rows of the sliders: joints (hinges, slides) or actuators. */
  list: function (m, paused) {
    if (paused) {
      return m.joints.filter(function (j) { return j.type === 2 || j.type === 3; })
        .map(function (j) {
          var r = j.limited ? j.range : (j.type === 3 ? [-Math.PI, Math.PI] : [-1, 1]);
          return { kind: 'joint', name: j.name, index: j.qpos, range: r };
        });
    }
    return m.actuators.map(function (a, i) {
      return { kind: 'ctrl', name: a.name || ('actuator ' + i), index: i,
        range: a.limited ? a.range : [-1, 1] };
    });
  },

  /* One slider of row, in box. */
  add: function (box, row) {
    var l = document.createElement('label'), r = document.createElement('input');
    var span = document.createElement('span');
    span.className = 'range';
    span.textContent = row.range[0].toFixed(2) + ' .. ' + row.range[1].toFixed(2);
    l.appendChild(document.createTextNode(row.name));
    l.appendChild(span);
    r.type = 'range'; r.min = row.range[0]; r.max = row.range[1];
    r.step = 'any';
    r.dataset.kind = row.kind; r.dataset.name = row.name;
    r.addEventListener('input', function () {
      row.active = Date.now();
      if (row.kind === 'joint') net.control('joint', { name: row.name, value: r.value });
      else net.control('ctrl', { index: row.index, value: r.value });
    });
    row.input = r;
    l.appendChild(r);
    box.appendChild(l);
    this.rows.push(row);
  },

  /* The dialog: joints while paused, controls while running. */
  make: function (paused) {
    var mode = paused ? 'joint' : 'control', m = scene.model;
    if (mode === this.mode && this.gen === m.gen) return;
    this.mode = mode;
    this.gen = m.gen;
    document.getElementById('sliders-mode').textContent = paused ?
      'Joints (paused): set the joint' : 'Controls (running): set the control';
    var box = document.getElementById('sliders'), self = this;
    box.textContent = '';
    this.rows = [];
    this.list(m, paused).forEach(function (row) { self.add(box, row); });
  },

  /* Each frame: the sliders' values, but for one being moved. */
  frame: function (f) {
    var s = f.status;
    this.make(s.paused);
    var values = s.paused ? f.qpos : f.ctrl, now = Date.now();
    this.rows.forEach(function (row) {
      if (document.activeElement === row.input || now - (row.active || 0) < 500) return;
      row.input.value = values[row.index];
    });
  }
};
