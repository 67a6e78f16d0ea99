/*
 * The Physics panel, as simulate's: every mjOption field the server
 * offers as an array (opt.*: /physics.json), grouped as simulate groups
 * them, each written through the array control as any client's write
 * (the lease and the journal apply).  The labels of the enumerations and
 * flags are MuJoCo 2.2's (mjmodel.h); the server checks every value.
 */
import { hxwb } from './state.js';
import { net } from './net.js';

function byId(id) { return document.getElementById(id); }

/* MuJoCo 2.2's names, by field. */
const choices = {
  'opt.integrator': ['Euler', 'RK4', 'implicit'],
  'opt.collision': ['all', 'pair', 'dynamic'],
  'opt.cone': ['pyramidal', 'elliptic'],
  'opt.jacobian': ['dense', 'sparse', 'auto'],
  'opt.solver': ['PGS', 'CG', 'Newton'],
};
const flags = {
  'opt.disableflags': ['constraint', 'equality', 'frictionloss', 'limit', 'contact',
    'passive', 'gravity', 'clampctrl', 'warmstart', 'filterparent', 'actuation',
    'refsafe', 'sensor'],
  'opt.enableflags': ['override', 'energy', 'fwdinv', 'sensornoise', 'multiccd'],
};
const groups = [
  ['Algorithms', ['opt.integrator', 'opt.collision', 'opt.cone', 'opt.jacobian', 'opt.solver']],
  ['Physical parameters', ['opt.timestep', 'opt.apirate', 'opt.gravity', 'opt.wind',
    'opt.magnetic', 'opt.density', 'opt.viscosity']],
  ['Solver', ['opt.iterations', 'opt.tolerance', 'opt.impratio', 'opt.noslip_iterations',
    'opt.noslip_tolerance', 'opt.mpr_iterations', 'opt.mpr_tolerance']],
  ['Disable flags', ['opt.disableflags']],
  ['Enable flags', ['opt.enableflags']],
  ['Contact override', ['opt.o_margin', 'opt.o_solref', 'opt.o_solimp']],
];

export const physics = {
  fields: {},

  /*
   * Read again every two seconds while the panel is open: another
   * client's write, a reset or an undone step sends no event.  A row
   * being edited is left alone.
   */
  init: function () {
    var self = this;
    setInterval(function () {
      var open = byId('physics-box').querySelector('details').open;
      var a = document.activeElement;
      if (open && !(a && byId('physics').contains(a))) self.load();
    }, 2000);
  },

  /* A new model: its fields anew. */
  load: function () {
    var self = this;
    return fetch('/physics.json').then(function (r) { return r.json(); })
      .then(function (j) {
        if (j.error !== undefined) throw new Error(j.error);
        self.fields = {};
        j.fields.forEach(function (f) { self.fields[f.name] = f; });
        self.draw();
      })
      .catch(function (e) { byId('physics').textContent = 'Physics: ' + e.message; });
  },

  /* Write a field's values; the answer (or refusal) shows beside it. */
  write: function (name, values) {
    var self = this;
    net.control('array', { name: name, values: values.join(',') })
      .then(function () { return self.load(); });
  },

  draw: function () {
    var box = byId('physics'), self = this, seen = {};
    box.textContent = '';
    groups.forEach(function (g) {
      var h = document.createElement('h3');
      h.textContent = g[0];
      box.appendChild(h);
      g[1].forEach(function (name) {
        var f = self.fields[name];
        if (!f) return;
        seen[name] = true;
        box.appendChild(self.row(f));
      });
    });
    /* Fields this page does not group (a newer MuJoCo's): at the end. */
    Object.keys(this.fields).forEach(function (name) {
      if (!seen[name]) box.appendChild(self.row(self.fields[name]));
    });
  },

  /* One field's row: a choice, flags, or numbers. */
  row: function (f) {
    var div = document.createElement('div'), self = this;
    var ro = hxwb.readOnly || !f.writable;
    div.className = 'row physics-row';
    div.dataset.name = f.name;
    if (!f.writable) div.title = f.refusal;
    var label = document.createElement('label');
    label.textContent = f.name.slice(4) + ' ';
    div.appendChild(label);
    if (choices[f.name]) {
      var sel = document.createElement('select');
      choices[f.name].forEach(function (c, i) {
        var o = document.createElement('option');
        o.value = i; o.textContent = c; sel.appendChild(o);
      });
      sel.value = f.values[0];
      sel.disabled = ro;
      sel.addEventListener('change', function () { self.write(f.name, [+sel.value]); });
      label.appendChild(sel);
    } else if (flags[f.name]) {
      flags[f.name].forEach(function (bit, i) {
        var l = document.createElement('label'), c = document.createElement('input');
        c.type = 'checkbox'; c.checked = (f.values[0] & (1 << i)) !== 0;
        c.disabled = ro; c.dataset.bit = bit;
        c.addEventListener('change', function () {
          var v = f.values[0] ^ (1 << i);
          self.write(f.name, [v]);
        });
        l.appendChild(c); l.appendChild(document.createTextNode(bit + ' '));
        div.appendChild(l);
      });
    } else {
      f.values.forEach(function (v, i) {
        var inp = document.createElement('input');
        inp.type = 'number'; inp.step = 'any'; inp.size = 6;
        inp.value = +v.toPrecision(6); inp.disabled = ro;
        inp.addEventListener('change', function () {
          var vals = f.values.slice();
          vals[i] = +inp.value;
          self.write(f.name, vals);
        });
        div.appendChild(inp);
      });
    }
    return div;
  },
};
