/*
 * The view: the renderer on the page's canvas, its three.js camera, and
 * where that camera is: MuJoCo's free camera (mjv_moveCamera), moved by
 * the mouse and by the daemon's view camera, or a model camera.
 */
import { hxwb } from './state.js';
import { setQuat } from './shapes.js';

export const view = {
  lookat: [0, 0, 0], distance: 1, azimuth: 90, elevation: -45, fixed: -1,
  extent: 1, fovy: 45, renderer: null, camera: null, model: null,

  init: function () {
    var canvas = document.getElementById('view');
    this.renderer = new THREE.WebGLRenderer({ canvas: canvas, antialias: false,
      preserveDrawingBuffer: true });
    this.renderer.setPixelRatio(1);
    this.camera = new THREE.PerspectiveCamera(45, 1, 0.01, 100);
    this.camera.up.set(0, 0, 1);
    this.resize();
    window.addEventListener('resize', this.resize.bind(this));
  },

  resize: function () {
    var c = this.renderer.domElement;
    this.renderer.setSize(c.clientWidth, c.clientHeight, false);
    this.camera.aspect = c.clientWidth / Math.max(1, c.clientHeight);
    this.camera.updateProjectionMatrix();
  },

  /* The model's own free camera, and its clipping planes. */
  reset: function (model) {
    var c = model.camera;
    this.model = model;
    this.lookat = c.lookat.slice();
    this.distance = c.distance;
    this.azimuth = c.azimuth;
    this.elevation = c.elevation;
    this.extent = model.extent;
    this.fovy = model.fovy;
    if (this.fixed >= model.cameras.length) this.fixed = -1;
    this.camera.near = model.znear * model.extent;
    this.camera.far = model.zfar * model.extent;
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

  /* Put cam where the view is: a model camera as frame f has it, else free. */
  place: function (cam, f) {
    if (this.fixed >= 0 && f && f.cams && f.cams.length >= 7 * (this.fixed + 1)) {
      var c = f.cams.slice(7 * this.fixed, 7 * this.fixed + 7);
      cam.position.set(c[0], c[1], c[2]);
      setQuat(cam.quaternion, c, 3);
      cam.fov = this.model.cameras[this.fixed].fovy;
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

  /* Draw the three.js scene three from the view's camera. */
  render: function (three) {
    this.place(this.camera, hxwb.frame);
    this.renderer.render(three, this.camera);
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
    var cam = this.camera, p = cam.position;
    var fw = new THREE.Vector3(0, 0, -1).applyQuaternion(cam.quaternion);
    var up = new THREE.Vector3(0, 1, 0).applyQuaternion(cam.quaternion);
    return { pos: [p.x, p.y, p.z].join(','), forward: [fw.x, fw.y, fw.z].join(','),
      up: [up.x, up.y, up.z].join(','), fovy: cam.fov };
  }
};
