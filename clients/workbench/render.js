/*
 * simulate's Rendering and Visualization panels: a box for each of
 * MuJoCo's visualization flags, the Frame and Label choices, Shadow and
 * Reflection, the geom, site, joint, tendon, actuator and skin groups,
 * and the scales of decorations.
 *
 * The lists are MuJoCo's own, from /scene.json (mjVISSTRING, mjRNDSTRING,
 * mjFRAMESTRING, mjLABELSTRING, mjVisual's scale).  hxview makes the
 * decorations (mjv_addGeoms): the page tells it what it shows (the show
 * control) and draws what each frame brings; the flags that change how
 * the items themselves are drawn (textures, static bodies, transparency,
 * convex hulls) scene.js applies.  The labels are text over the canvas;
 * shadows are three.js's shadow maps, reflections its Reflector.  A
 * scale is hxview's, for all its browsers (the scale control).
 */
import { hxwb, toggles, say, VIS } from './state.js';
import { net } from './net.js';
import { scene } from './scene.js';
import { view } from './view.js';
import { GEOM, OBJ } from './shapes.js';

function byId(id) { return document.getElementById(id); }

/* mjtRndFlag's shadow and reflection, in MuJoCo's list of them. */
const RND = { SHADOW: 0, REFLECTION: 2 };
/* mjtLabel's geom and site: the page writes those labels itself. */
const LABEL = { GEOM: 3, SITE: 4 };
/* The largest shadow map: MuJoCo's 4096 costs a browser 64 MB a light. */
const SHADOW_MAP_MAX = 2048;

/*
 * The reflection of a plane or a box's top as MuJoCo draws it (the
 * scene mirrored, its colours times the reflectance, added to the
 * surface's): three.js's Reflector with this shader, drawn additively
 * over the surface.  A Reflector draws the scene once more per frame,
 * the price of a true mirror; MuJoCo too allows only one reflective
 * geom.  The cheaper ways (a fixed environment map, a fake mirror
 * image) would not show the bodies move over the floor.
 */
const reflectShader = {
  uniforms: { color: { value: null }, tDiffuse: { value: null }, textureMatrix: { value: null } },
  vertexShader: [
    'uniform mat4 textureMatrix;',
    'varying vec4 vUv;',
    'void main() {',
    '  vUv = textureMatrix * vec4(position, 1.0);',
    '  gl_Position = projectionMatrix * modelViewMatrix * vec4(position, 1.0);',
    '}'].join('\n'),
  fragmentShader: [
    'uniform vec3 color;',
    'uniform sampler2D tDiffuse;',
    'varying vec4 vUv;',
    'void main() {',
    '  gl_FragColor = vec4(color * texture2DProj(tDiffuse, vUv).rgb, 1.0);',
    '}'].join('\n')
};

/* The groups the panel offers, as simulate's Group enable section. */
const GROUPS = ['geomgroup', 'sitegroup', 'jointgroup', 'tendongroup', 'actuatorgroup',
  'skingroup'];

/* Booleans as the bits of a number: [true, false, true] is 5. */
function mask(list) {
  var bits = 0;
  list.forEach(function (on, i) { if (on) bits += Math.pow(2, i); });
  return bits;
}

/* A flag's name as a box's id: 'Contact &Force' is flag-contactforce. */
function slug(name) { return name.replace(/[^A-Za-z]/g, '').toLowerCase(); }

export const render = {
  m: null, software: false, sent: '', retry: 0, labels: [], labelSpans: [],
  reflector: null, reflectorScript: null,

  /* The renderer is known: is it software?  Then the first boxes. */
  init: function () {
    var gl = view.renderer.getContext();
    var ext = gl.getExtension('WEBGL_debug_renderer_info');
    var name = String(gl.getParameter(ext ? ext.UNMASKED_RENDERER_WEBGL : gl.RENDERER));
    /* SwiftShader, llvmpipe, softpipe: shadows and reflections cost it most. */
    this.software = /swiftshader|llvmpipe|softpipe|software/i.test(name);
    hxwb.gl = { renderer: name, software: this.software };
    if (toggles.shadow === null) toggles.shadow = !this.software;
    if (toggles.reflection === null) toggles.reflection = !this.software;
    view.renderer.shadowMap.enabled = toggles.shadow;
    view.renderer.shadowMap.type = THREE.PCFShadowMap;
    var self = this;
    scene.render = this;
    scene.three.onAfterRender = function (renderer, three, camera) {
      if (camera === view.camera) self.place(camera);
    };
    byId('render-frame').addEventListener('change', function (e) {
      toggles.frame = +e.target.value; self.changed();
    });
    byId('render-label').addEventListener('change', function (e) {
      toggles.label = +e.target.value; self.changed();
    });
    this.ui();
  },

  /* A new model: its lists, its lights' shadows, its reflection, hxview told. */
  model: function (m) {
    this.m = m;
    if (!toggles.flags)
      toggles.flags = m.vis.flags.map(function (f, i) { return ((m.vis.defaults >>> i) & 1) === 1; });
    this.choices('render-frame', m.vis.frames, toggles.frame);
    this.choices('render-label', m.vis.labels, toggles.label);
    this.ui();
    this.scales(m.vis.scale);
    this.shadows();
    this.items();
    this.sync();
  },

  /* Each frame: hxview told again when the page's stream is new; labels, scales. */
  frame: function (f) {
    this.sync();
    this.labels = f.labels || [];
    if (f.scale) this.scales(f.scale);
  },

  /* A choice's options: MuJoCo's names. */
  choices: function (id, names, value) {
    var sel = byId(id);
    if (sel.options.length === names.length) { sel.value = String(value); return; }
    sel.textContent = '';
    names.forEach(function (n, i) {
      var o = document.createElement('option');
      o.value = i; o.textContent = n;
      sel.appendChild(o);
    });
    sel.value = String(value);
  },

  /*
   * Tell hxview what this page shows (its flags, frame, label and the
   * groups of the decorations hxview makes), when it changed or the
   * page's event stream is new (a reconnection is a new browser to
   * hxview); a refusal is tried again a second later.
   */
  sync: function () {
    if (!hxwb.id || !toggles.flags || performance.now() < this.retry) return;
    var show = { id: hxwb.id, flags: mask(toggles.flags), frame: toggles.frame,
      label: toggles.label };
    ['jointgroup', 'tendongroup', 'actuatorgroup'].forEach(function (what) {
      show[what] = mask(toggles[what]);
    });
    var key = JSON.stringify(show);
    if (key === this.sent) return;
    var self = this;
    this.sent = key;
    hxwb.shown = null;
    net.control('show', show)
      .then(function (j) {
        if (j.error) { self.sent = ''; self.retry = performance.now() + 1000; }
        else if (self.sent === key) hxwb.shown = key;
      });
  },

  /* A flag, the frame or the label changed: the scene and hxview. */
  changed: function () {
    this.ui();
    scene.applyToggles();
    this.sync();
    hxwb.dirty = true;
  },

  /* Flip visualization flag i (mjtVisFlag). */
  flip: function (i) {
    if (!toggles.flags) return;
    toggles.flags[i] = !toggles.flags[i];
    this.changed();
  },

  /* Shadows or reflections on or off. */
  rnd: function (what, on) {
    toggles[what] = on;
    this.ui();
    if (what === 'shadow') this.shadows(); else this.items();
    hxwb.dirty = true;
  },

  /* simulate's key k for a flag (mjVISSTRING's, mjRNDSTRING's); false if none. */
  key: function (k) {
    var m = this.m;
    if (!m || !toggles.flags) return false;
    for (var i = 0; i < m.vis.flags.length; i++)
      if (m.vis.flags[i][2].toLowerCase() === k) { this.flip(i); return true; }
    if (m.vis.rndflags[RND.SHADOW][2].toLowerCase() === k) { this.rnd('shadow', !toggles.shadow); return true; }
    if (m.vis.rndflags[RND.REFLECTION][2].toLowerCase() === k) {
      this.rnd('reflection', !toggles.reflection); return true;
    }
    return false;
  },

  /*
   * Flip group i of what: 'geomgroup', 'sitegroup' or 'skingroup' (the
   * page's items), 'jointgroup', 'tendongroup' or 'actuatorgroup'
   * (hxview's decorations).
   */
  group: function (what, i) {
    toggles[what][i] = !toggles[what][i];
    this.ui();
    scene.applyToggles();
    this.sync();
  },

  /* One check box with its label, into box. */
  box: function (box, id, text, on, title, change) {
    var l = document.createElement('label'), c = document.createElement('input');
    c.type = 'checkbox'; c.checked = on; c.id = id;
    c.addEventListener('change', function () { change(c.checked); });
    if (title) { l.title = title; }
    l.appendChild(c);
    l.appendChild(document.createTextNode(text));
    box.appendChild(l);
    return c;
  },

  /* The Rendering panel's boxes, as the toggles are. */
  ui: function () {
    var self = this, m = this.m, box = byId('visflags'), rnd = byId('rndflags');
    box.textContent = '';
    rnd.textContent = '';
    if (m && toggles.flags) {
      m.vis.flags.forEach(function (f, i) {
        var c = self.box(box, 'flag-' + slug(f[0]), f[0].replace('&', ''), toggles.flags[i],
          'key ' + f[2], function () { self.flip(i); });
      });
      [['shadow', RND.SHADOW], ['reflection', RND.REFLECTION]].forEach(function (r) {
        var f = m.vis.rndflags[r[1]];
        self.box(rnd, 'rnd-' + r[0], f[0], !!toggles[r[0]],
          'key ' + f[2] + (self.software ? '; off at first on a software renderer (' +
            hxwb.gl.renderer + ')' : ''), function (on) { self.rnd(r[0], on); });
      });
    }
    byId('render-frame').value = String(toggles.frame);
    byId('render-label').value = String(toggles.label);
    GROUPS.forEach(function (what) {
      var span = byId(what + 's');
      span.textContent = '';
      toggles[what].forEach(function (on, i) {
        var c = document.createElement('input');
        c.type = 'checkbox'; c.checked = on; c.title = String(i); c.id = what + '-' + i;
        c.addEventListener('change', function () { self.group(what, i); });
        span.appendChild(c);
      });
    });
  },

  /*
   * The Visualization panel: the scales of decorations, hxview's own
   * (a write changes them for every page of this hxview; refused to a
   * read-only one).  A field being typed in is left alone.
   */
  scales: function (scale) {
    var box = byId('visual'), self = this;
    if (this.m) this.m.vis.scale = scale;
    hxwb.scale = scale;
    if (!box.firstChild) {
      var h = document.createElement('h3');
      h.textContent = 'Scale';
      h.title = 'of the decorations, in the bodies\' mean size: this viewer\'s, for all its pages';
      box.appendChild(h);
    }
    Object.keys(scale).forEach(function (name) {
      var inp = box.querySelector('input[data-scale="' + name + '"]');
      if (!inp) {
        var row = document.createElement('label');
        row.className = 'row scale-row';
        row.textContent = name + ' ';
        inp = document.createElement('input');
        inp.type = 'number'; inp.step = 'any'; inp.min = 0; inp.size = 6;
        inp.dataset.scale = name;
        inp.addEventListener('change', function () { self.scale(name, +inp.value); });
        row.appendChild(inp);
        box.appendChild(row);
      }
      inp.disabled = hxwb.readOnly;
      if (document.activeElement !== inp) inp.value = +scale[name].toPrecision(6);
    });
  },

  /* Write a scale; hxview's answer (its scales, or why not) shows. */
  scale: function (name, value) {
    var self = this;
    net.control('scale', { name: name, value: value }).then(function (j) {
      if (j.scale) self.scales(j.scale);
    });
  },

  /*
   * Shadows as MuJoCo casts them: from the model's lights that cast
   * them (never the headlight), by every geom onto every geom; a
   * directional light's over shadowclip times the extent around it, a
   * spotlight's over its cutoff times shadowscale (three.js's focus).
   */
  shadows: function () {
    var m = this.m, on = !!toggles.shadow, r = view.renderer;
    if (!m) return;
    var ext = m.extent, size = Math.min(m.vis.shadowsize || 1024, SHADOW_MAP_MAX,
      r.capabilities.maxTextureSize);
    r.shadowMap.enabled = on;
    scene.lightObjs.forEach(function (light, i) {
      var l = m.lights[i];
      if (!light || !l) return;
      light.castShadow = on && !!l.castshadow;
      if (!light.castShadow) return;
      var cam = light.shadow.camera;
      if (light.shadow.mapSize.x !== size) {
        light.shadow.mapSize.set(size, size);
        if (light.shadow.map) { light.shadow.map.dispose(); light.shadow.map = null; }
      }
      light.shadow.bias = -0.0005;
      cam.near = m.znear * ext;
      cam.far = m.zfar * ext;
      if (l.directional) {
        var c = m.vis.shadowclip * ext;
        cam.left = -c; cam.right = c; cam.top = c; cam.bottom = -c;
      } else {
        light.shadow.focus = m.vis.shadowscale;
      }
      cam.updateProjectionMatrix();
    });
    /* The materials are made again for the shadow maps on or off. */
    scene.items.forEach(function (o) { if (o.material) o.material.needsUpdate = true; });
    Object.keys(scene.decor).forEach(function (k) {
      scene.decor[k].forEach(function (o) { o.material.needsUpdate = true; });
    });
    hxwb.shadows = on && scene.lightObjs.some(function (l) { return l && l.castShadow; });
    hxwb.dirty = true;
  },

  /*
   * The reflection: the first plane or box (its top) with reflectance,
   * not transparent, as MuJoCo's one reflective geom; made anew for a
   * new model or look.  Reflector.js (libjs-three's, served by hxview)
   * is loaded the first time one is needed.
   */
  items: function () {
    var m = this.m, self = this;
    if (this.reflector) {
      if (this.reflector.parent) this.reflector.parent.remove(this.reflector);
      this.reflector.getRenderTarget().dispose();
      this.reflector.material.dispose();
      this.reflector = null;
    }
    hxwb.reflecting = false;
    hxwb.dirty = true;
    if (!m || !toggles.reflection) return;
    var k = m.items.findIndex(function (it) {
      return (it[4] === GEOM.PLANE || it[4] === GEOM.BOX) && it[19] > 0 && it[15] >= 1;
    });
    if (k < 0 || !scene.items[k] || !scene.items[k].isMesh) return;
    if (!THREE.Reflector) {
      this.loadReflector().then(function () { if (THREE.Reflector && self.m === m) self.items(); });
      return;
    }
    var it = m.items[k], o = scene.items[k], g;
    if (it[4] === GEOM.PLANE) {
      g = o.geometry;
    } else {
      g = new THREE.PlaneBufferGeometry(2 * it[9], 2 * it[10]);
      g.translate(0, 0, it[11]);
    }
    var px = view.renderer.getDrawingBufferSize(new THREE.Vector2());
    var r = new THREE.Reflector(g, { shader: reflectShader, clipBias: 0.003,
      textureWidth: Math.max(256, px.x), textureHeight: Math.max(256, px.y),
      color: new THREE.Color(it[19], it[19], it[19]) });
    r.material.transparent = true;
    r.material.blending = THREE.AdditiveBlending;
    r.material.depthWrite = false;
    r.material.polygonOffset = true;
    r.material.polygonOffsetFactor = -1;
    r.material.polygonOffsetUnits = -4;
    /*
     * MuJoCo leaves the reflecting geom out of its reflection, and
     * reflects its geoms only: the background is black there.
     */
    var before = r.onBeforeRender;
    r.onBeforeRender = function (renderer, three, camera) {
      var was = o.visible, background = three.background;
      o.visible = false;
      three.background = null;
      before.call(r, renderer, three, camera);
      three.background = background;
      o.visible = was;
    };
    o.add(r);
    this.reflector = r;
    hxwb.reflecting = true;
    /* Its picture follows the window's size (after view.js's resize). */
    if (!this.resizing) {
      this.resizing = true;
      window.addEventListener('resize', function () {
        var rf = self.reflector;
        if (!rf) return;
        var size = view.renderer.getDrawingBufferSize(new THREE.Vector2());
        rf.getRenderTarget().setSize(Math.max(256, size.x), Math.max(256, size.y));
        hxwb.reflectSize = [size.x, size.y];
        hxwb.dirty = true;
      });
    }
  },

  /* Load libjs-three's Reflector (a classic script: THREE.Reflector). */
  loadReflector: function () {
    if (this.reflectorScript) return this.reflectorScript;
    this.reflectorScript = new Promise(function (ok, fail) {
      var s = document.createElement('script');
      s.src = '/Reflector.js';
      s.onload = ok;
      s.onerror = function () { fail(new Error('cannot load /Reflector.js')); };
      document.head.appendChild(s);
    }).catch(function (e) {
      hxwb.errors.push('reflections: ' + e.message);
      say('reflections: ' + e.message);
    });
    return this.reflectorScript;
  },

  /*
   * The labels, where MuJoCo puts them: hxview's (the frame's labels:
   * bodies, joints, tendons, ... as mjv_addGeoms labels them) and, for
   * geoms and sites, the page's own at each shown item's place, named as
   * MuJoCo names them ('geom 3' when it has no name).  Called after each
   * drawing of the page's camera, so they follow it.
   */
  place: function (camera) {
    var box = byId('labels'), c = view.renderer.domElement, list = [];
    var w = c.clientWidth, h = c.clientHeight, m = this.m, v = new THREE.Vector3();
    if (!m) return;
    this.labels.forEach(function (l) { list.push([l[0], l[1], l[2], l[3]]); });
    if (toggles.label === LABEL.GEOM || toggles.label === LABEL.SITE) {
      var type = toggles.label === LABEL.GEOM ? OBJ.GEOM : OBJ.SITE;
      var names = type === OBJ.GEOM ? m.geoms : m.sites;
      var word = type === OBJ.GEOM ? 'geom ' : 'site ';
      scene.items.forEach(function (o) {
        var u = o.userData;
        if (u.objtype !== type || !o.visible) return;
        list.push([o.position.x, o.position.y, o.position.z,
          (names && names[u.objid]) || word + u.objid]);
      });
    }
    var shown = [];
    for (var i = 0; i < list.length; i++) {
      v.set(list[i][0], list[i][1], list[i][2]).project(camera);
      if (v.z < -1 || v.z > 1) continue;
      var span = this.labelSpans[shown.length];
      if (!span) {
        span = document.createElement('span');
        box.appendChild(span);
        this.labelSpans.push(span);
      }
      if (span.textContent !== list[i][3]) span.textContent = list[i][3];
      span.style.transform = 'translate(' + Math.round((v.x + 1) / 2 * w) + 'px,' +
        Math.round((1 - v.y) / 2 * h) + 'px)';
      span.hidden = false;
      shown.push(list[i][3]);
    }
    for (var k = shown.length; k < this.labelSpans.length; k++) this.labelSpans[k].hidden = true;
    hxwb.labels = shown;
  }
};
