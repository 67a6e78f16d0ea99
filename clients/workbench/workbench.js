/*
 * hxview's workbench: the scene drawn with three.js from what MuJoCo's
 * abstract scene holds (hxview_web.c describes it once per model at
 * /scene.json, then streams poses and decorations at /events), mouse
 * and keys as MuJoCo's simulate and HAPTIX have them, and the panels:
 * sliders, info, sensor plots, profiler, render toggles, models,
 * keyframes, recording, the lease and the message.
 *
 * Plain modules in one file, no framework: net (requests and the event
 * stream), scene (three.js objects), view (the free camera), mouse and
 * keys, panels.  window.hxwb exposes the state the tests and the
 * benchmark read.
 */
'use strict';

var hxwb = window.hxwb = {
  id: 0, model: null, frame: null, status: null, readOnly: false,
  client: 0, gen: 0, frames: 0, drawn: 0, drawLog: [], selected: 0,
  camera: null, bytes: 0, errors: [], fps: 0
};

/* ------------------------------------------------------------ net */

var net = {
  token: sessionStorage.getItem('hxview-token') || '',

  /* POST a control; resolves to its JSON answer, errors shown. */
  control: function (name, args) {
    var body = new URLSearchParams();
    Object.keys(args || {}).forEach(function (k) { body.append(k, args[k]); });
    var headers = { 'X-Hxview': '1',
      'Content-Type': 'application/x-www-form-urlencoded' };
    if (net.token) headers['X-Hxview-Token'] = net.token;
    return fetch('/control/' + name, { method: 'POST', headers: headers,
      body: body.toString() }).then(function (r) {
      return r.json().then(function (j) {
        if (r.status === 401) {
          var t = window.prompt('The daemon\'s token (hxview is not on loopback):');
          if (t) { net.token = t; sessionStorage.setItem('hxview-token', t); }
        }
        if (j.error) {
          hxwb.errors.push(name + ': ' + j.error);
          panels.say(name + ': ' + j.error);
        }
        return j;
      });
    }).catch(function (e) { panels.say(name + ': ' + e); return { error: String(e) }; });
  },

  start: function () {
    var es = new EventSource('/events');
    es.addEventListener('hello', function (e) {
      var h = JSON.parse(e.data);
      hxwb.id = h.id; hxwb.readOnly = h.read_only; hxwb.client = h.client;
      hxwb.server = h.server;
      document.body.classList.toggle('read-only', h.read_only);
    });
    es.addEventListener('model', function (e) {
      var m = JSON.parse(e.data);
      scene.load(m.gen);
    });
    /* Colours, sizes or places changed in the same model. */
    es.addEventListener('look', function (e) {
      scene.look(JSON.parse(e.data));
    });
    /* The daemon's view camera was set (hxs_set_camera_transform). */
    es.addEventListener('camera', function (e) {
      view.follow(JSON.parse(e.data));
    });
    es.addEventListener('frame', function (e) {
      var f = JSON.parse(e.data);
      f.recv = performance.timeOrigin + performance.now();
      hxwb.bytes += e.data.length + 20;
      hxwb.frames++;
      if (f.perturb_error) panels.say('perturb: ' + f.perturb_error);
      hxwb.frame = f;
      hxwb.status = f.status || hxwb.status;
      scene.pending = f;
    });
    es.onerror = function () { panels.status('the event stream broke; reconnecting'); };
  }
};

/* Base64 of float32s, as hxview_web.c writes them. */
function floats(b64) {
  if (!b64) return new Float32Array(0);
  var s = atob(b64), n = s.length, u = new Uint8Array(n);
  for (var i = 0; i < n; i++) u[i] = s.charCodeAt(i);
  return new Float32Array(u.buffer);
}

/* ---------------------------------------------------------- scene */

var GEOM = { PLANE: 0, HFIELD: 1, SPHERE: 2, CAPSULE: 3, ELLIPSOID: 4,
  CYLINDER: 5, BOX: 6, MESH: 7, ARROW: 100, ARROW1: 101, ARROW2: 102,
  LINE: 103, SKIN: 104, LABEL: 105, NONE: 1001 };
var OBJ = { BODY: 1, GEOM: 5, SITE: 6 };

var toggles = {
  contact: false, force: false, joint: false, tendon: true, actuator: false,
  com: false, transparent: false, mine: true,
  geomgroup: [true, true, true, false, false, false],
  sitegroup: [true, true, true, false, false, false]
};

var scene = {
  renderer: null, three: null, camera: null, items: [], pending: null,
  meshes: [], hfields: [], textures: {}, decor: {}, gen: 0, loading: 0,
  headlight: null, lightObjs: [], pendingLook: null,

  init: function () {
    var canvas = document.getElementById('view');
    this.renderer = new THREE.WebGLRenderer({ canvas: canvas, antialias: false,
      preserveDrawingBuffer: true });
    this.renderer.setPixelRatio(1);
    this.three = new THREE.Scene();
    this.three.background = new THREE.Color(0.1, 0.12, 0.15);
    this.camera = new THREE.PerspectiveCamera(45, 1, 0.01, 100);
    this.camera.up.set(0, 0, 1);
    this.three.add(this.camera);
    this.resize();
    window.addEventListener('resize', this.resize.bind(this));
  },

  resize: function () {
    var c = this.renderer.domElement;
    this.renderer.setSize(c.clientWidth, c.clientHeight, false);
    this.camera.aspect = c.clientWidth / Math.max(1, c.clientHeight);
    this.camera.updateProjectionMatrix();
  },

  /* Fetch the model's description and its meshes, and build the scene. */
  load: function (gen) {
    if (gen === this.loading) return;
    this.loading = gen;
    var self = this;
    Promise.all([fetch('/scene.json').then(function (r) { return r.json(); }),
      fetch('/meshes.bin').then(function (r) { return r.arrayBuffer(); })])
      .then(function (both) { self.build(both[0], both[1]); })
      .catch(function (e) { panels.say('cannot load the scene: ' + e); self.loading = 0; });
  },

  clear: function () {
    var t = this.three, keep = this.camera;
    t.children.slice().forEach(function (o) { if (o !== keep) t.remove(o); });
    keep.children.slice().forEach(function (o) { keep.remove(o); });
    this.items = [];
    this.decor = {};
    this.lightObjs = [];
  },

  material: function (rgba, emission, specular, shininess, texid, repeat) {
    var c = new THREE.Color(rgba[0], rgba[1], rgba[2]);
    /* Lit per vertex, as MuJoCo 2.2's fixed-function OpenGL lights. */
    var m = new THREE.MeshLambertMaterial({ color: c,
      emissive: c.clone().multiplyScalar(emission || 0),
      transparent: rgba[3] < 1, opacity: rgba[3],
      depthWrite: rgba[3] >= 1 });
    if (texid >= 0 && this.model.textures[texid] &&
        this.model.textures[texid].type === 0) {
      var tex = new THREE.TextureLoader().load('/texture/' + texid + '.png?gen=' +
        this.model.gen, function () { hxwb.dirty = true; });
      tex.wrapS = tex.wrapT = THREE.RepeatWrapping;
      tex.repeat.set(repeat[0], repeat[1]);
      m.map = tex;
    }
    return m;
  },

  /* A geometry for a model item of type with size (MuJoCo's axes). */
  geometry: function (type, size, dataid) {
    var g;
    switch (type) {
      case GEOM.PLANE: {
        /* In quads, as MuJoCo draws it: lit per vertex, a spotlight's
           circle shows only on a grid finer than it. */
        var far = this.model.zfar * this.model.extent;
        var w = 2 * (size[0] || far), h = 2 * (size[1] || far), cell = this.model.extent / 8;
        g = new THREE.PlaneBufferGeometry(w, h, Math.min(100, Math.ceil(w / cell)),
          Math.min(100, Math.ceil(h / cell)));
        break;
      }
      case GEOM.HFIELD: g = this.hfields[dataid] || null; break;
      case GEOM.SPHERE: g = new THREE.SphereBufferGeometry(size[0], 24, 16); break;
      case GEOM.ELLIPSOID:
        g = new THREE.SphereBufferGeometry(1, 24, 16);
        g.scale(size[0], size[1], size[2]);
        break;
      case GEOM.CAPSULE: g = capsule(size[0], size[1]); break;
      case GEOM.CYLINDER:
        g = new THREE.CylinderBufferGeometry(size[0], size[0], 2 * size[1], 24);
        g.rotateX(Math.PI / 2);
        break;
      case GEOM.BOX: g = new THREE.BoxBufferGeometry(2 * size[0], 2 * size[1], 2 * size[2]); break;
      case GEOM.MESH: g = this.meshes[dataid] || null; break;
      default: g = null;
    }
    return g;
  },

  build: function (model, bin) {
    this.clear();
    this.model = model;
    hxwb.model = model;
    hxwb.gen = model.gen;
    var nv = model.nmeshvert, nf = model.nmeshface;
    var vert = new Float32Array(bin, 0, 3 * nv);
    var norm = new Float32Array(bin, 12 * nv, 3 * nv);
    var face = new Int32Array(bin, 24 * nv, 3 * nf);
    var elevation = new Float32Array(bin, 24 * nv + 12 * nf, model.nhfielddata);
    this.hfields = model.hfields.map(function (h) { return hfieldGeometry(h, elevation); });
    this.meshes = model.meshes.map(function (m) {
      var g = new THREE.BufferGeometry();
      g.setAttribute('position', new THREE.BufferAttribute(vert.slice(3 * m[0], 3 * (m[0] + m[1])), 3));
      g.setAttribute('normal', new THREE.BufferAttribute(norm.slice(3 * m[0], 3 * (m[0] + m[1])), 3));
      g.setIndex(new THREE.BufferAttribute(new Uint32Array(face.slice(3 * m[2], 3 * (m[2] + m[3]))), 1));
      return g;
    });
    var self = this;
    model.items.forEach(function (it, i) {
      var o = self.item(it, i);
      self.three.add(o);
      self.items.push(o);
    });
    this.lights(model);
    view.reset(model);
    panels.model(model);
    this.gen = model.gen;
    this.loading = 0;
    this.applyToggles();
    var l = this.pendingLook;
    this.pendingLook = null;
    if (l) this.look(l);
  },

  /* The three.js object of item i of the description. */
  item: function (it, i) {
    var type = it[4], size = it.slice(9, 12), rgba = it.slice(12, 16);
    var repeat = it.slice(20, 22);
    if (it[4] === GEOM.PLANE && it[7]) repeat = [repeat[0] * 2 * size[0], repeat[1] * 2 * size[1]];
    var g = this.geometry(type, size, it[5]);
    var o = g ? new THREE.Mesh(g, this.material(rgba, it[16], it[17], it[18], it[6], repeat))
              : new THREE.Object3D();
    o.position.set(it[22], it[23], it[24]);
    o.quaternion.set(it[26], it[27], it[28], it[25]);
    o.userData = { item: i, body: it[2], objtype: it[0], group: it[8],
      dynamic: it[3] === 2, alpha: rgba[3] };
    return o;
  },

  /*
   * A new look of the same model (set_rgba, set_array of colours,
   * set_geomsize, an edit that keeps the structure): every item as the
   * scene holds it now; those whose type, size, colour, material or, for
   * what does not move, place changed are made again.
   */
  look: function (l) {
    var m = this.model;
    if (!m || m.gen !== l.gen) {
      if (this.loading) this.pendingLook = l;
      return;
    }
    if (l.looks <= (m.looks || 0)) return;
    var self = this, n = 0;
    l.items.forEach(function (it, i) {
      var was = m.items[i], o = self.items[i];
      if (!was || !o) return;
      var keep = it[3] === 2 ? 22 : 29;
      if (was.slice(0, keep).join() === it.slice(0, keep).join()) return;
      var made = self.item(it, i);
      if (it[3] === 2) {
        made.position.copy(o.position);
        made.quaternion.copy(o.quaternion);
        made.userData.hidden = o.userData.hidden;
      }
      self.three.remove(o);
      if (o.material) o.material.dispose();
      self.three.add(made);
      self.items[i] = made;
      m.items[i] = it;
      n++;
    });
    m.looks = l.looks;
    hxwb.looks = l.looks;
    hxwb.lookChanged = (hxwb.lookChanged || 0) + n;
    this.applyToggles();
  },

  lights: function (model) {
    var self = this, ambient = [0, 0, 0];
    model.lights.forEach(function (l, i) {
      for (var k = 0; k < 3; k++) ambient[k] += l.ambient[k];
      var color = new THREE.Color(l.diffuse[0], l.diffuse[1], l.diffuse[2]);
      var light;
      if (l.headlight) {
        light = new THREE.DirectionalLight(color, 1);
        light.position.set(0, 0, 1);
        light.target.position.set(0, 0, -1);
        self.camera.add(light);
        self.camera.add(light.target);
        return;
      }
      if (l.directional) {
        light = new THREE.DirectionalLight(color, 1);
        light.position.set(l.pos[0] - l.dir[0], l.pos[1] - l.dir[1], l.pos[2] - l.dir[2]);
      } else {
        light = new THREE.SpotLight(color, 1, 0, Math.min(Math.PI / 2, l.cutoff * Math.PI / 180), 0.3);
        light.position.set(l.pos[0], l.pos[1], l.pos[2]);
      }
      light.target.position.set(l.pos[0] + l.dir[0], l.pos[1] + l.dir[1], l.pos[2] + l.dir[2]);
      light.userData = { directional: l.directional };
      self.three.add(light);
      self.three.add(light.target);
      self.lightObjs[i] = light;
    });
    this.three.add(new THREE.AmbientLight(new THREE.Color(
      Math.min(1, ambient[0]), Math.min(1, ambient[1]), Math.min(1, ambient[2])), 1));
  },

  applyToggles: function () {
    hxwb.dirty = true;
    this.items.forEach(function (o) {
      var u = o.userData;
      var groups = u.objtype === OBJ.SITE ? toggles.sitegroup : toggles.geomgroup;
      o.visible = !!groups[u.group] && !u.hidden;
      if (o.material) {
        var a = u.alpha * (toggles.transparent && u.dynamic ? 0.5 : 1);
        o.material.opacity = a;
        o.material.transparent = a < 1;
        o.material.depthWrite = a >= 1;
      }
    });
  },

  /* A pool of decoration meshes by kind, reused frame to frame. */
  decorMesh: function (kind, i, type) {
    var pool = this.decor[kind] || (this.decor[kind] = []);
    var o = pool[i];
    if (o && o.userData.type === type) return o;
    if (o) this.three.remove(o);
    o = new THREE.Mesh(unitShape(type), new THREE.MeshLambertMaterial({ color: 0xffffff }));
    o.userData = { type: type };
    pool[i] = o;
    this.three.add(o);
    return o;
  },

  decorate: function (data, shown) {
    var counts = {};
    for (var i = 0; i + 16 <= data.length; i += 16) {
      var kind = this.model.decor[data[i]], type = data[i + 1];
      if (!shown(kind) || type === GEOM.LABEL || type === GEOM.NONE) continue;
      var n = counts[kind] || 0;
      counts[kind] = n + 1;
      var o = this.decorMesh(kind, n, type);
      var s = unitScale(type, data[i + 2], data[i + 3], data[i + 4]);
      o.scale.set(s[0], s[1], s[2]);
      o.position.set(data[i + 5], data[i + 6], data[i + 7]);
      o.quaternion.set(data[i + 9], data[i + 10], data[i + 11], data[i + 8]);
      o.material.color.setRGB(data[i + 12], data[i + 13], data[i + 14]);
      o.material.opacity = data[i + 15];
      o.material.transparent = data[i + 15] < 1;
      o.visible = true;
    }
    return counts;
  },

  /* Lights on moving bodies: where the frame says they are. */
  moveLights: function (data) {
    for (var i = 0; 6 * i + 6 <= data.length; i++) {
      var light = this.lightObjs[i], p = 6 * i;
      if (!light) continue;
      var x = data[p], y = data[p + 1], z = data[p + 2];
      var dx = data[p + 3], dy = data[p + 4], dz = data[p + 5];
      if (light.userData.directional) light.position.set(x - dx, y - dy, z - dz);
      else light.position.set(x, y, z);
      light.target.position.set(x + dx, y + dy, z + dz);
    }
  },

  /* Put the newest frame's state into the scene. */
  update: function (f) {
    if (!this.model || f.gen !== this.model.gen) return false;
    if (f.lights) this.moveLights(floats(f.lights));
    var poses = floats(f.poses), dyn = this.model.dynamic;
    for (var k = 0; k < dyn.length; k++) {
      var o = this.items[dyn[k]], p = 7 * k;
      if (isNaN(poses[p])) { o.userData.hidden = true; o.visible = false; continue; }
      if (o.userData.hidden) { o.userData.hidden = false; }
      o.position.set(poses[p], poses[p + 1], poses[p + 2]);
      o.quaternion.set(poses[p + 4], poses[p + 5], poses[p + 6], poses[p + 3]);
    }
    var counts = {}, self = this;
    var shared = this.decorate(floats(f.decor), function (k) { return toggles[k]; });
    var mine = this.decorate(floats(f.mine), function () { return toggles.mine; });
    Object.keys(shared).forEach(function (k) { counts[k] = shared[k]; });
    Object.keys(mine).forEach(function (k) { counts[k] = mine[k]; });
    Object.keys(this.decor).forEach(function (k) {
      var pool = self.decor[k];
      for (var i = counts[k] || 0; i < pool.length; i++) pool[i].visible = false;
    });
    hxwb.selected = f.selected || 0;
    return true;
  },

  render: function () {
    view.place(this.camera, hxwb.frame);
    this.renderer.render(this.three, this.camera);
  }
};

/*
 * A height field as MuJoCo draws it: the elevations (0 to 1, row-major,
 * rows along y) scaled to size[2] over a grid of 2 size[0] by 2 size[1],
 * and its sides down to the base, -size[3].  h: data address, rows,
 * columns, size (4).
 */
function hfieldGeometry(h, data) {
  var adr = h[0], nr = h[1], nc = h[2], sx = h[3][0], sy = h[3][1];
  var sz = h[3][2], base = h[3][3], pos = [], idx = [], r, c;
  function at(r, c) {
    return [sx * (2 * c / (nc - 1) - 1), sy * (2 * r / (nr - 1) - 1),
      sz * data[adr + r * nc + c]];
  }
  for (r = 0; r < nr; r++) for (c = 0; c < nc; c++) pos.push.apply(pos, at(r, c));
  for (r = 0; r + 1 < nr; r++) for (c = 0; c + 1 < nc; c++) {
    var a = r * nc + c, b = a + 1, d = a + nc, e = d + 1;
    idx.push(a, b, e, a, e, d);
  }
  /* The sides: the rim, counter-clockwise from above, walled down. */
  var rim = [];
  for (c = 0; c < nc; c++) rim.push([0, c]);
  for (r = 1; r < nr; r++) rim.push([r, nc - 1]);
  for (c = nc - 2; c >= 0; c--) rim.push([nr - 1, c]);
  for (r = nr - 2; r >= 0; r--) rim.push([r, 0]);
  for (var k = 0; k + 1 < rim.length; k++) {
    var p = at(rim[k][0], rim[k][1]), q = at(rim[k + 1][0], rim[k + 1][1]);
    var n = pos.length / 3;
    pos.push(p[0], p[1], p[2], p[0], p[1], -base, q[0], q[1], -base, q[0], q[1], q[2]);
    idx.push(n, n + 1, n + 2, n, n + 2, n + 3);
  }
  var g = new THREE.BufferGeometry();
  g.setAttribute('position', new THREE.Float32BufferAttribute(pos, 3));
  g.setIndex(idx);
  g.computeVertexNormals();
  return g;
}

/* A capsule of radius r and half-length h along z, as a lathe. */
function capsule(r, h) {
  var pts = [], n = 8, i, a;
  for (i = 0; i <= n; i++) {
    a = -Math.PI / 2 + (i / n) * Math.PI / 2;
    pts.push(new THREE.Vector2(r * Math.cos(a), -h + r * Math.sin(a)));
  }
  for (i = 0; i <= n; i++) {
    a = (i / n) * Math.PI / 2;
    pts.push(new THREE.Vector2(r * Math.cos(a), h + r * Math.sin(a)));
  }
  pts[0].x = 0;
  pts[pts.length - 1].x = 0;
  var g = new THREE.LatheBufferGeometry(pts, 24);
  g.rotateX(Math.PI / 2);
  return g;
}

/* Decorations: unit shapes scaled by the scene geom's size. */
var unitShapes = {};
function unitShape(type) {
  if (unitShapes[type]) return unitShapes[type];
  var g;
  if (type === GEOM.SPHERE || type === GEOM.ELLIPSOID) {
    g = new THREE.SphereBufferGeometry(1, 16, 12);
  } else if (type === GEOM.BOX) {
    g = new THREE.BoxBufferGeometry(2, 2, 2);
  } else if (type === GEOM.ARROW || type === GEOM.ARROW1 || type === GEOM.ARROW2) {
    /* From the origin along z to 1: a shaft and a head. */
    var shaft = new THREE.CylinderBufferGeometry(1, 1, 0.75, 12);
    shaft.rotateX(Math.PI / 2);
    shaft.translate(0, 0, 0.375);
    var head = new THREE.ConeBufferGeometry(2, 0.25, 12);
    head.rotateX(Math.PI / 2);
    head.translate(0, 0, 0.875);
    g = new THREE.BufferGeometry();
    var a = shaft.toNonIndexed(), b = head.toNonIndexed();
    var pos = new Float32Array(a.attributes.position.array.length + b.attributes.position.array.length);
    pos.set(a.attributes.position.array, 0);
    pos.set(b.attributes.position.array, a.attributes.position.array.length);
    var nor = new Float32Array(pos.length);
    nor.set(a.attributes.normal.array, 0);
    nor.set(b.attributes.normal.array, a.attributes.normal.array.length);
    g.setAttribute('position', new THREE.BufferAttribute(pos, 3));
    g.setAttribute('normal', new THREE.BufferAttribute(nor, 3));
  } else if (type === GEOM.LINE) {
    g = new THREE.CylinderBufferGeometry(1, 1, 1, 6);
    g.rotateX(Math.PI / 2);
    g.translate(0, 0, 0.5);
  } else {
    /* Cylinders and capsules: centred, half-length 1 along z. */
    g = new THREE.CylinderBufferGeometry(1, 1, 2, 16);
    g.rotateX(Math.PI / 2);
  }
  unitShapes[type] = g;
  return g;
}

function unitScale(type, a, b, c) {
  switch (type) {
    case GEOM.SPHERE: return [a, a, a];
    case GEOM.CAPSULE: return [a, a, b + a];
    case GEOM.CYLINDER: return [a, a, b];
    case GEOM.LINE: return [Math.max(a, 0.002) * 0.5, Math.max(a, 0.002) * 0.5, c];
    case GEOM.ARROW: case GEOM.ARROW1: case GEOM.ARROW2: return [a, b, c];
    default: return [a, b, c];
  }
}

/* ----------------------------------------------------- the camera */

/* MuJoCo's free camera (mjv_moveCamera), or a model camera. */
var view = {
  lookat: [0, 0, 0], distance: 1, azimuth: 90, elevation: -45, fixed: -1,
  extent: 1, fovy: 45,

  reset: function (model) {
    var c = model.camera;
    this.lookat = c.lookat.slice();
    this.distance = c.distance;
    this.azimuth = c.azimuth;
    this.elevation = c.elevation;
    this.extent = model.extent;
    this.fovy = model.fovy;
    if (this.fixed >= model.cameras.length) this.fixed = -1;
    scene.camera.near = model.znear * model.extent;
    scene.camera.far = model.zfar * model.extent;
    this.publish();
  },

  /*
   * Go to the daemon's view camera (or back to the model's own): the
   * mouse moves the page's camera from there as its own.
   */
  follow: function (c) {
    this.lookat = c.lookat.slice();
    this.distance = c.distance;
    this.azimuth = c.azimuth;
    this.elevation = c.elevation;
    this.fixed = -1;
    var sel = document.getElementById('camera');
    if (sel) sel.value = '-1';
    this.followed = (this.followed || 0) + 1;
    this.publish();
  },

  forward: function () {
    var a = this.azimuth * Math.PI / 180, e = this.elevation * Math.PI / 180;
    return [Math.cos(e) * Math.cos(a), Math.cos(e) * Math.sin(a), Math.sin(e)];
  },

  place: function (cam, f) {
    if (this.fixed >= 0 && f && f.cams && f.cams.length >= 7 * (this.fixed + 1)) {
      var c = f.cams.slice(7 * this.fixed, 7 * this.fixed + 7);
      cam.position.set(c[0], c[1], c[2]);
      cam.quaternion.set(c[4], c[5], c[6], c[3]);
      cam.fov = scene.model.cameras[this.fixed].fovy;
    } else {
      var fw = this.forward(), l = this.lookat, d = this.distance;
      cam.position.set(l[0] - d * fw[0], l[1] - d * fw[1], l[2] - d * fw[2]);
      cam.up.set(0, 0, 1);
      cam.lookAt(l[0], l[1], l[2]);
      cam.fov = this.fovy;
    }
    cam.updateProjectionMatrix();
    cam.updateMatrixWorld();
  },

  /* mjv_moveCamera: action 1 rotate V, 2 rotate H, 3 move V, 4 move H, 5 zoom. */
  move: function (action, dx, dy) {
    if (this.fixed >= 0) return;
    if (action === 1 || action === 2) {
      this.azimuth -= dx * 180;
      this.elevation -= dy * 180;
    } else if (action === 3 || action === 4) {
      var fw = this.forward(), v = action === 3 ? [dx, 0, -dy] : [dx, -dy, 0];
      var n = Math.hypot(fw[0], fw[1]) || 1, y = [fw[0] / n, fw[1] / n], x = [y[1], -y[0]];
      var w = [v[0] * x[0] + v[1] * y[0], v[0] * x[1] + v[1] * y[1], v[2]];
      var scl = 2 * Math.tan(this.fovy * Math.PI / 360) * this.distance;
      for (var i = 0; i < 3; i++) this.lookat[i] -= scl * w[i];
    } else if (action === 5) {
      this.distance -= Math.log(1 + this.distance / this.extent / 3) * dy * 9 * this.extent;
    }
    if (this.azimuth > 180) this.azimuth -= 360;
    if (this.azimuth < -180) this.azimuth += 360;
    this.elevation = Math.max(-89, Math.min(89, this.elevation));
    this.distance = Math.max(0.01 * this.extent, Math.min(100 * this.extent, this.distance));
    this.publish();
  },

  /* A model camera on a moving body moves with the frames. */
  fixedMoving: function () { return false; },

  publish: function () {
    hxwb.dirty = true;
    hxwb.camera = { lookat: this.lookat.slice(), distance: this.distance,
      azimuth: this.azimuth, elevation: this.elevation, fixed: this.fixed,
      followed: this.followed || 0 };
  },

  /* The camera as hxview's perturbation wants it (mjvGLCamera). */
  args: function () {
    var cam = scene.camera, p = cam.position;
    var fw = new THREE.Vector3(0, 0, -1).applyQuaternion(cam.quaternion);
    var up = new THREE.Vector3(0, 1, 0).applyQuaternion(cam.quaternion);
    return { pos: [p.x, p.y, p.z].join(','), forward: [fw.x, fw.y, fw.z].join(','),
      up: [up.x, up.y, up.z].join(','), fovy: cam.fov };
  }
};

/* ---------------------------------------------------- mouse, keys */

var mouse = {
  down: null, last: null, pert: false, pending: null, busy: false,

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
      this.pert = true;
      net.control('perturb', Object.assign({ id: hxwb.id, do: 'start',
        rotate: e.button === 0 ? 1 : 0 }, view.args()));
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

  /* One perturbation request at a time; the moves between add up. */
  perturb: function (action, dx, dy) {
    if (this.pending && this.pending.action === action) {
      this.pending.dx += dx;
      this.pending.dy += dy;
    } else {
      this.pending = { action: action, dx: dx, dy: dy };
    }
    this.flush();
  },

  flush: function () {
    if (this.busy || !this.pending) return;
    var p = this.pending, self = this;
    this.pending = null;
    this.busy = true;
    net.control('perturb', Object.assign({ id: hxwb.id, do: 'move',
      action: p.action, dx: p.dx, dy: p.dy }, view.args())).then(function () {
      self.busy = false;
      self.flush();
    });
  },

  release: function () {
    if (!this.down) return;
    this.down = null;
    if (this.pert) {
      this.pert = false;
      var self = this, end = function () {
        if (self.busy || self.pending) { setTimeout(end, 10); return; }
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
    ray.setFromCamera(v, scene.camera);
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

var keys = {
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

/* ---------------------------------------------------------- panels */

var SENSOR_COLOURS = ['#e66', '#6c6', '#69f', '#fc5', '#c6f', '#5dd', '#f96', '#aaa'];

var panels = {
  plotted: [], history: [], cpu: [], sliders: [], sliderMode: '',

  init: function () {
    var self = this;
    function on(id, fn) { document.getElementById(id).addEventListener('click', fn); }
    on('run', function () { self.run(true); });
    on('pause', function () { self.run(false); });
    on('step', function () { net.control('step', { count: 1 }); });
    on('reset', function () { net.control('reset', {}); });
    on('key-reset', function () {
      var k = document.getElementById('keys');
      if (k.value !== '') net.control('reset', { index: k.value });
    });
    on('capture', function () {
      net.control('capture', { name: document.getElementById('key-name').value });
    });
    on('record', function () { self.record(); });
    on('load', function () {
      var m = document.getElementById('models').value;
      if (m) net.control('load', { path: m });
    });
    document.getElementById('camera').addEventListener('change', function (e) {
      view.fixed = +e.target.value;
      view.publish();
    });
    this.togglesUI();
  },

  say: function (text) { this.status(text); },

  status: function (text) { document.getElementById('status').textContent = text; },

  toggle: function (id) { document.getElementById(id).classList.toggle('hidden'); },

  run: function (go) { net.control(go ? 'run' : 'pause', {}); },

  record: function () {
    net.control(hxwb.status && hxwb.status.recording ? 'record-stop' : 'record-start', {});
  },

  /* HAPTIX's render keys. */
  keyMap: { c: 'contact', f: 'force', j: 'joint', u: 'actuator', t: 'transparent',
    m: 'com', e: 'mine', b: 'mine' },

  keyToggle: function (k) {
    var name = this.keyMap[k];
    if (!name) return false;
    toggles[name] = !toggles[name];
    this.togglesUI();
    scene.applyToggles();
    return true;
  },

  flip: function (what, i) {
    toggles[what][i] = !toggles[what][i];
    this.togglesUI();
    scene.applyToggles();
  },

  togglesUI: function () {
    var box = document.getElementById('toggles'), self = this;
    box.textContent = '';
    ['contact', 'force', 'joint', 'tendon', 'actuator', 'com', 'transparent', 'mine']
      .forEach(function (name) {
        var l = document.createElement('label'), c = document.createElement('input');
        c.type = 'checkbox'; c.checked = toggles[name]; c.id = 'toggle-' + name;
        c.addEventListener('change', function () {
          toggles[name] = c.checked; scene.applyToggles();
        });
        l.appendChild(c);
        l.appendChild(document.createTextNode(name === 'mine' ? 'selection ' : name + ' '));
        box.appendChild(l);
      });
    ['geomgroup', 'sitegroup'].forEach(function (what) {
      var span = document.getElementById(what + 's');
      span.textContent = '';
      toggles[what].forEach(function (on, i) {
        var c = document.createElement('input');
        c.type = 'checkbox'; c.checked = on; c.title = String(i);
        c.addEventListener('change', function () { self.flip(what, i); });
        span.appendChild(c);
      });
    });
  },

  /* A new model: keys, cameras, sliders, sensors, the models list. */
  model: function (m) {
    var keys = document.getElementById('keys'), cams = document.getElementById('camera');
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
    this.sliderMode = '';
    this.history = [];
    this.plotted = m.sensors.length ? [0] : [];
    this.sensorList(m);
    fetch('/models.json').then(function (r) { return r.json(); }).then(function (j) {
      var sel = document.getElementById('models');
      sel.textContent = '';
      (j.dirs || []).forEach(function (d) {
        d.files.sort().forEach(function (f) {
          var o = document.createElement('option');
          o.value = d.dir + '/' + f; o.textContent = f;
          sel.appendChild(o);
        });
      });
    }).catch(function () {});
  },

  sensorList: function (m) {
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

  /* The Sliders dialog: joints while paused, controls while running. */
  slidersUI: function (paused) {
    var mode = paused ? 'joint' : 'control', m = scene.model;
    if (mode === this.sliderMode && this.sliderGen === m.gen) return;
    this.sliderMode = mode;
    this.sliderGen = m.gen;
    document.getElementById('sliders-mode').textContent = paused ?
      'Joints (paused): set the joint' : 'Controls (running): set the control';
    var box = document.getElementById('sliders');
    box.textContent = '';
    this.sliders = [];
    var rows = paused ? m.joints.filter(function (j) { return j.type === 2 || j.type === 3; })
      .map(function (j) {
        var r = j.limited ? j.range : (j.type === 3 ? [-Math.PI, Math.PI] : [-1, 1]);
        return { kind: 'joint', name: j.name, index: j.qpos, range: r };
      }) : m.actuators.map(function (a, i) {
        return { kind: 'ctrl', name: a.name || ('actuator ' + i), index: i,
          range: a.limited ? a.range : [-1, 1] };
      });
    var self = this;
    rows.forEach(function (row) {
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
      self.sliders.push(row);
    });
  },

  /* Each frame: the info box, sliders' values, plots and profiler. */
  frame: function (f) {
    var s = f.status, m = scene.model;
    if (!s || !m) return;
    this.slidersUI(s.paused);
    var values = s.paused ? f.qpos : f.ctrl, now = Date.now();
    this.sliders.forEach(function (row) {
      if (document.activeElement === row.input || now - (row.active || 0) < 500) return;
      row.input.value = values[row.index];
    });
    var mine = s.lease && s.lease !== hxwb.client;
    var lease = document.getElementById('lease');
    lease.hidden = !s.lease;
    lease.textContent = !s.lease ? '' : mine ?
      'the lease is held by ' + (s.lease_name || 'client') + ' (' + s.lease + '): read-only' :
      'this viewer holds the lease';
    var ro = hxwb.readOnly || mine;
    document.querySelectorAll('#sim button, #sliders input, #sim input').forEach(function (b) {
      b.disabled = ro;
    });
    var msg = document.getElementById('message');
    msg.hidden = !s.message;
    msg.textContent = s.message;
    document.getElementById('run').disabled = ro || !s.paused;
    document.getElementById('pause').disabled = ro || s.paused;
    document.getElementById('step').disabled = ro || !s.paused;
    document.getElementById('record').textContent = s.recording ? 'Stop recording' : 'Record';
    document.getElementById('record-state').textContent = s.recording ?
      'recording ' + s.records + ' to ' + s.record_path : (s.record_ended ? 'ended: ' + s.record_ended : '');
    var fmt = function (x, d) { return x === null || x === undefined ? '-' : x.toFixed(d); };
    document.getElementById('info').textContent =
      'Time      ' + fmt(s.time, 3) + ' s  (step ' + s.steps + ')\n' +
      (s.paused ? 'Paused\n' : 'Running   x' + fmt(s.rtf, 2) + ' real time' + (s.lagging ? ', lagging' : '') + '\n') +
      'CPU/step  ' + fmt(s.cpu * 1e3, 3) + ' ms\n' +
      'Solver    ' + s.nefc + ' constraints, ' + s.ncon + ' contacts\n' +
      'Energy    ' + fmt(s.epot, 3) + ' + ' + fmt(s.ekin, 3) + ' J\n' +
      'Server    ' + hxwb.server + ', ' + s.clients + ' clients (this viewer ' + hxwb.client + ')\n' +
      'Mocap     ' + m.nmocap + ' bodies, ' + s.tracking + ' tracked, ' + s.perturbations + ' pushed\n' +
      'Model     ' + m.name + '\n' +
      'Page      ' + hxwb.fps.toFixed(0) + ' frames/s, browser ' + hxwb.id;
    this.history.push({ t: f.time, v: f.sensor });
    while (this.history.length > 2 && this.history[0].t < f.time - 10) this.history.shift();
    if (this.history.length > 2 && this.history[this.history.length - 2].t > f.time) this.history = [this.history.pop()];
    this.cpu.push(s.cpu * 1e3);
    if (this.cpu.length > 200) this.cpu.shift();
    this.drawPlot(m);
    this.drawProfiler(s);
  },

  drawPlot: function (m) {
    var c = document.getElementById('plot'), g = c.getContext('2d'), h = this.history;
    g.fillStyle = '#111'; g.fillRect(0, 0, c.width, c.height);
    var legend = document.getElementById('legend');
    legend.textContent = '';
    if (h.length < 2) return;
    var t1 = h[h.length - 1].t, t0 = t1 - 10, lo = Infinity, hi = -Infinity, self = this;
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
    this.plotted.forEach(function (i, k) {
      var a = m.sensors[i].adr, colour = SENSOR_COLOURS[k % SENSOR_COLOURS.length];
      g.strokeStyle = colour; g.lineWidth = 2;
      g.beginPath();
      h.forEach(function (p, j) {
        var x = (p.t - t0) / 10 * c.width, y = c.height - (p.v[a] - lo) / (hi - lo) * (c.height - 14) - 7;
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

  drawProfiler: function (s) {
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

/* ------------------------------------------------------- the loop */

var fpsCount = 0, fpsStart = performance.now();

/* Set when the camera, the toggles or the model changed. */
hxwb.dirty = true;

function animate() {
  requestAnimationFrame(animate);
  var f = scene.pending;
  if (f && scene.update(f)) {
    scene.pending = null;
    panels.frame(f);
  } else {
    f = null;
  }
  /* Nothing new: nothing to draw (a paused scene costs nothing). */
  if (!scene.model || (!f && !hxwb.dirty && !view.fixedMoving())) return;
  hxwb.dirty = false;
  var t0 = performance.now();
  scene.render();
  hxwb.renderMs = performance.now() - t0;
  hxwb.drawn++;
  fpsCount++;
  var now = performance.now();
  if (now - fpsStart >= 1000) {
    hxwb.fps = fpsCount * 1000 / (now - fpsStart);
    fpsCount = 0;
    fpsStart = now;
  }
  if (f && !scene.pending && f.step !== undefined) {
    /* When the state of f was drawn: the latency's end. */
    hxwb.drawLog.push({ step: f.step, rx: f.rx, tx: f.tx, recv: f.recv,
      draw: performance.timeOrigin + performance.now() });
    if (hxwb.drawLog.length > 2000) hxwb.drawLog.shift();
    hxwb.lastDrawnStep = f.step;
  }
  if (hxwb.status) {
    panels.status((hxwb.status.paused ? 'paused' : 'running') + ', time ' +
      hxwb.status.time.toFixed(3) + ' s, step ' + hxwb.status.steps);
  }
}

hxwb.plot = function (name, on) { return panels.plot(name, on !== false); };
hxwb.view = view;

if (typeof THREE === 'undefined') {
  document.getElementById('status').textContent =
    'three.js did not load: hxview serves it from Debian\'s libjs-three';
} else {
  scene.init();
  mouse.init();
  keys.init();
  panels.init();
  net.start();
  requestAnimationFrame(animate);
}
