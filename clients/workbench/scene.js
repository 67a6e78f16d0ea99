/*
 * The three.js scene of the model: built from hxview's description of
 * MuJoCo's abstract scene (/scene.json, the meshes, height fields and
 * convex hulls in /meshes.bin), made again in part when the model's look
 * changes, and moved by each frame (poses, lights, decorations, labels).
 * The items are drawn as the Rendering flags say (groups, textures,
 * static bodies, transparency, convex hulls); render.js makes the rest
 * (shadows, reflections, labels), told through scene.render, where its
 * init() puts itself (a replay page has no Rendering panel and keeps the
 * stand-in).  onModel(m) is called when a new model is built (the entry
 * module gives it).
 */
import { hxwb, toggles, say, VIS, flag } from './state.js';
import { net, floats } from './net.js';
import { view } from './view.js';
import { GEOM, OBJ, setQuat, hfieldGeometry, capsule, unitShape, unitScale }
  from './shapes.js';

export const scene = {
  three: null, model: null, items: [], pending: null,
  meshes: [], hulls: [], hfields: [], skins: [], decor: {}, gen: 0, loading: 0,
  lightObjs: [], pendingLook: null, onModel: null,
  render: { model: function () {}, items: function () {}, frame: function () {} },

  init: function () {
    this.three = new THREE.Scene();
    this.three.background = new THREE.Color(0.1, 0.12, 0.15);
    this.three.add(view.camera);
  },

  /* Fetch the model's description and its meshes, and build the scene. */
  load: function (gen) {
    if (gen === this.loading) return;
    this.loading = gen;
    var self = this;
    net.scene()
      .then(function (both) { self.build(both[0], both[1]); })
      .catch(function (e) { say('cannot load the scene: ' + e); self.loading = 0; });
  },

  clear: function () {
    var t = this.three, keep = view.camera;
    t.children.slice().forEach(function (o) { if (o !== keep) t.remove(o); });
    keep.children.slice().forEach(function (o) { keep.remove(o); });
    this.items = [];
    this.skins = [];
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
      /* An exported replay carries its textures (hxwb.textureUrl). */
      var url = hxwb.textureUrl ? hxwb.textureUrl(texid) :
        '/texture/' + texid + '.png?gen=' + this.model.gen;
      var tex = new THREE.TextureLoader().load(url, function () { hxwb.dirty = true; });
      tex.wrapS = tex.wrapT = THREE.RepeatWrapping;
      tex.repeat.set(repeat[0], repeat[1]);
      m.map = tex;
    }
    /* The texture, kept for the Texture flag to take away and give back. */
    m.userData = { map: m.map };
    return m;
  },

  /*
   * The side of a plane's quads: a third of the smallest circle a
   * spotlight throws on it, where the light is half as bright as at its
   * centre (cutoff and exponent), so that per-vertex lighting shows the
   * circle.  Every triangle costs a software renderer (SwiftShader) as
   * much as the pixels: a grid finer than that halved the frame rate.
   * A light that moves may come close: then an eighth of the extent.
   */
  planeCell: function (it) {
    var m = this.model, cell = Infinity;
    if (m.moving_lights) return m.extent / 8;
    var n = new THREE.Vector3(0, 0, 1), q = new THREE.Quaternion();
    setQuat(q, it, 25);
    n.applyQuaternion(q);
    m.lights.forEach(function (l) {
      if (l.headlight || l.directional) return;
      var d = Math.abs(n.x * (l.pos[0] - it[22]) + n.y * (l.pos[1] - it[23]) +
        n.z * (l.pos[2] - it[24]));
      var half = Math.acos(Math.pow(0.5, 1 / Math.max(1, l.exponent)));
      var angle = Math.min(half, l.cutoff * Math.PI / 180, 1.4);
      cell = Math.min(cell, Math.max(d * Math.tan(angle), m.extent / 8) / 3);
    });
    return isFinite(cell) ? cell : Infinity;
  },

  /* A geometry for a model item it of type with size (MuJoCo's axes). */
  geometry: function (type, size, dataid, it) {
    var g;
    switch (type) {
      case GEOM.PLANE: {
        /* In quads, as MuJoCo draws it: lit per vertex, a spotlight's
           circle shows only on a grid finer than it. */
        var far = this.model.zfar * this.model.extent;
        var w = 2 * (size[0] || far), h = 2 * (size[1] || far), cell = this.planeCell(it);
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
      /* MuJoCo numbers a mesh's scene geoms 2 i, 2 i + 1 its hull. */
      case GEOM.MESH: g = this.meshes[dataid >> 1] || null; break;
      default: g = null;
    }
    return g;
  },

  /* The meshes', height fields', hulls' and skins' geometries from /meshes.bin. */
  shapes: function (model, bin) {
    var nv = model.nmeshvert, nf = model.nmeshface;
    var skinAt = 24 * nv + 12 * nf + 4 * model.nhfielddata + 12 * (model.nhullface || 0);
    var skinFace = new Int32Array(bin, skinAt, 3 * (model.nskinface || 0));
    var skinUV = new Float32Array(bin, skinAt + 12 * (model.nskinface || 0),
      2 * (model.nskintexvert || 0));
    var vert = new Float32Array(bin, 0, 3 * nv);
    var norm = new Float32Array(bin, 12 * nv, 3 * nv);
    var face = new Int32Array(bin, 24 * nv, 3 * nf);
    var elevation = new Float32Array(bin, 24 * nv + 12 * nf, model.nhfielddata);
    var hulls = new Int32Array(bin, 24 * nv + 12 * nf + 4 * model.nhfielddata,
      3 * (model.nhullface || 0));
    this.hfields = model.hfields.map(function (h) { return hfieldGeometry(h, elevation); });
    this.meshes = model.meshes.map(function (m) {
      var g = new THREE.BufferGeometry();
      g.setAttribute('position', new THREE.BufferAttribute(vert.slice(3 * m[0], 3 * (m[0] + m[1])), 3));
      g.setAttribute('normal', new THREE.BufferAttribute(norm.slice(3 * m[0], 3 * (m[0] + m[1])), 3));
      g.setIndex(new THREE.BufferAttribute(new Uint32Array(face.slice(3 * m[2], 3 * (m[2] + m[3]))), 1));
      return g;
    });
    this.hulls = model.meshes.map(function (m) {
      return m[5] ? hullGeometry(vert.subarray(3 * m[0], 3 * (m[0] + m[1])),
        hulls.subarray(3 * m[4], 3 * (m[4] + m[5]))) : null;
    });
    var self = this;
    this.skins = (model.skins || []).map(function (s, i) {
      return self.skin(s, i, skinFace, skinUV);
    });
  },

  /*
   * Skin i of the description: its faces, its texture coordinates, and
   * room for the vertices each frame brings (MuJoCo moves them with the
   * bones); drawn as MuJoCo draws it, lit per vertex.
   */
  skin: function (s, i, faces, uv) {
    var g = new THREE.BufferGeometry();
    var pos = new THREE.BufferAttribute(new Float32Array(3 * s.vert[1]), 3);
    pos.setUsage(THREE.DynamicDrawUsage);
    g.setAttribute('position', pos);
    g.setIndex(new THREE.BufferAttribute(
      new Uint32Array(faces.slice(3 * s.face[0], 3 * (s.face[0] + s.face[1]))), 1));
    if (s.texcoord >= 0)
      g.setAttribute('uv', new THREE.BufferAttribute(
        uv.slice(2 * s.texcoord, 2 * (s.texcoord + s.vert[1])), 2));
    var o = new THREE.Mesh(g, this.material(s.rgba, s.emission, s.specular, s.shininess,
      s.texcoord >= 0 ? s.texid : -1, [1, 1]));
    o.frustumCulled = false;   /* the bones move it where its bounds were not */
    o.visible = false;         /* until its first vertices */
    o.castShadow = o.receiveShadow = true;
    o.userData = { skin: i, group: s.group, alpha: s.rgba[3], placed: false };
    this.three.add(o);
    return o;
  },

  /* Put the skins' vertices of a frame (float32, 3 a vertex) into them. */
  moveSkins: function (vert) {
    var model = this.model;
    this.skins.forEach(function (o) {
      var s = model.skins[o.userData.skin], pos = o.geometry.attributes.position;
      pos.array.set(vert.subarray(3 * s.vert[0], 3 * (s.vert[0] + s.vert[1])));
      pos.needsUpdate = true;
      o.geometry.computeVertexNormals();
      o.userData.placed = true;
    });
  },

  build: function (model, bin) {
    this.clear();
    this.model = model;
    hxwb.model = model;
    hxwb.gen = model.gen;
    this.shapes(model, bin);
    var self = this;
    model.items.forEach(function (it, i) {
      var o = self.item(it, i);
      self.three.add(o);
      self.items.push(o);
    });
    this.lights(model);
    view.reset(model);
    this.render.model(model);
    if (this.onModel) this.onModel(model);
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
    var g = this.geometry(type, size, it[5], it);
    var o = g ? new THREE.Mesh(g, this.material(rgba, it[16], it[17], it[18], it[6], repeat))
              : new THREE.Object3D();
    o.position.set(it[22], it[23], it[24]);
    setQuat(o.quaternion, it, 25);
    /* MuJoCo's geoms all cast and take shadows (render.js turns them on). */
    o.castShadow = o.receiveShadow = true;
    o.userData = { item: i, body: it[2], objtype: it[0], objid: it[1], group: it[8],
      category: it[3], dynamic: it[3] === 2, alpha: rgba[3], mesh: g,
      hull: type === GEOM.MESH ? this.hulls[it[5] >> 1] || null : null };
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
    if (n) this.render.items();
    this.applyToggles();
  },

  /* The model's lights; the headlight rides on the camera. */
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
        view.camera.add(light);
        view.camera.add(light.target);
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

  /*
   * Draw the items as the toggles say: the groups; the static bodies
   * (Static Body); moving bodies at the model's transparency
   * (Transparent: MuJoCo scales their alpha by <visual><map alpha>);
   * textures (Texture); meshes or their convex hulls (Convex Hull).
   */
  applyToggles: function () {
    hxwb.dirty = true;
    var alpha = this.model && this.model.vis ? this.model.vis.alpha : 0.3;
    var statics = flag(VIS.STATIC), texture = flag(VIS.TEXTURE);
    var transparent = flag(VIS.TRANSPARENT), hull = flag(VIS.CONVEXHULL);
    var skins = flag(VIS.SKIN);
    this.skins.forEach(function (o) {
      o.visible = skins && o.userData.placed && !!toggles.skingroup[o.userData.group];
    });
    this.items.forEach(function (o) {
      var u = o.userData;
      var groups = u.objtype === OBJ.SITE ? toggles.sitegroup : toggles.geomgroup;
      o.visible = !!groups[u.group] && !u.hidden && (statics || u.category !== 1);
      if (u.hull) o.geometry = hull ? u.hull : u.mesh;
      if (o.material) {
        var a = u.alpha * (transparent && u.dynamic ? alpha : 1);
        var map = texture ? o.material.userData.map : null;
        if (o.material.map !== map) {
          o.material.map = map;
          o.material.needsUpdate = true;
        }
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

  /*
   * Place the decorations of data (hxview sends a page only the kinds
   * it shows); counts by kind into counts, and each kind's largest
   * size into sizes (the tests read them).
   */
  decorate: function (data, counts, sizes) {
    for (var i = 0; i + 16 <= data.length; i += 16) {
      var kind = this.model.decor[data[i]], type = data[i + 1];
      if (type === GEOM.LABEL || type === GEOM.NONE) continue;
      var n = counts[kind] || 0;
      counts[kind] = n + 1;
      sizes[kind] = Math.max(sizes[kind] || 0, data[i + 2], data[i + 3], data[i + 4]);
      var o = this.decorMesh(kind, n, type);
      var s = unitScale(type, data[i + 2], data[i + 3], data[i + 4]);
      o.scale.set(s[0], s[1], s[2]);
      o.position.set(data[i + 5], data[i + 6], data[i + 7]);
      setQuat(o.quaternion, data, i + 8);
      o.material.color.setRGB(data[i + 12], data[i + 13], data[i + 14]);
      o.material.opacity = data[i + 15];
      o.material.transparent = data[i + 15] < 1;
      o.visible = true;
    }
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
      setQuat(o.quaternion, poses, p + 3);
    }
    if (f.skin && this.skins.length) {
      var fresh = !this.skins[0].userData.placed;
      this.moveSkins(floats(f.skin));
      if (fresh) this.applyToggles();
    }
    var counts = {}, sizes = {}, self = this;
    this.decorate(floats(f.decor), counts, sizes);
    this.decorate(floats(f.mine), counts, sizes);
    Object.keys(this.decor).forEach(function (k) {
      var pool = self.decor[k];
      for (var i = counts[k] || 0; i < pool.length; i++) pool[i].visible = false;
    });
    hxwb.decorCounts = counts;
    hxwb.decorSizes = sizes;
    hxwb.selected = f.selected || 0;
    this.render.frame(f);
    return true;
  }
};

/*
 * A convex hull as MuJoCo keeps it (faces of the mesh's vertices), drawn
 * flat, each face turned outward (the hull's faces come unordered).
 */
function hullGeometry(vert, faces) {
  var c = [0, 0, 0], nv = vert.length / 3, pos = new Float32Array(3 * faces.length);
  var i, k;
  for (i = 0; i < nv; i++) for (k = 0; k < 3; k++) c[k] += vert[3 * i + k] / nv;
  for (i = 0; i + 2 < faces.length; i += 3) {
    var a = faces[i], b = faces[i + 1], d = faces[i + 2];
    var u = [], v = [], w = [];
    for (k = 0; k < 3; k++) {
      u[k] = vert[3 * b + k] - vert[3 * a + k];
      v[k] = vert[3 * d + k] - vert[3 * a + k];
      w[k] = vert[3 * a + k] - c[k];
    }
    var n = [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]];
    if (n[0] * w[0] + n[1] * w[1] + n[2] * w[2] < 0) { var t = b; b = d; d = t; }
    for (k = 0; k < 3; k++) {
      pos[3 * i + k] = vert[3 * a + k];
      pos[3 * i + 3 + k] = vert[3 * b + k];
      pos[3 * i + 6 + k] = vert[3 * d + k];
    }
  }
  var g = new THREE.BufferGeometry();
  g.setAttribute('position', new THREE.BufferAttribute(pos, 3));
  g.computeVertexNormals();
  return g;
}
