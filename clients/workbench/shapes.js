/*
 * MuJoCo's shapes in three.js: the geom and object types of its
 * abstract scene, capsules and height fields as MuJoCo draws them, the
 * unit shapes the decorations scale, and its quaternions (w first).
 */

export const GEOM = { PLANE: 0, HFIELD: 1, SPHERE: 2, CAPSULE: 3, ELLIPSOID: 4,
  CYLINDER: 5, BOX: 6, MESH: 7, ARROW: 100, ARROW1: 101, ARROW2: 102,
  LINE: 103, SKIN: 104, LABEL: 105, NONE: 1001 };
export const OBJ = { BODY: 1, GEOM: 5, SITE: 6 };

/* Set three.js quaternion q from MuJoCo's w, x, y, z at a[i]. */
export function setQuat(q, a, i) {
  q.set(a[i + 1], a[i + 2], a[i + 3], a[i]);
}

/*
 * A height field as MuJoCo draws it: the elevations (0 to 1, row-major,
 * rows along y) scaled to size[2] over a grid of 2 size[0] by 2 size[1],
 * and its sides down to the base, -size[3].  h: data address, rows,
 * columns, size (4).
 */
export function hfieldGeometry(h, data) {
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
export function capsule(r, h) {
  var pts = [], n = 6, i, a;
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
  var g = new THREE.LatheBufferGeometry(pts, 16);
  g.rotateX(Math.PI / 2);
  return g;
}

/* An arrow from the origin along z to 1: a shaft and a head. */
function arrow() {
  var shaft = new THREE.CylinderBufferGeometry(1, 1, 0.75, 12);
  shaft.rotateX(Math.PI / 2);
  shaft.translate(0, 0, 0.375);
  var head = new THREE.ConeBufferGeometry(2, 0.25, 12);
  head.rotateX(Math.PI / 2);
  head.translate(0, 0, 0.875);
  var g = new THREE.BufferGeometry();
  var a = shaft.toNonIndexed(), b = head.toNonIndexed();
  var pos = new Float32Array(a.attributes.position.array.length + b.attributes.position.array.length);
  pos.set(a.attributes.position.array, 0);
  pos.set(b.attributes.position.array, a.attributes.position.array.length);
  var nor = new Float32Array(pos.length);
  nor.set(a.attributes.normal.array, 0);
  nor.set(b.attributes.normal.array, a.attributes.normal.array.length);
  g.setAttribute('position', new THREE.BufferAttribute(pos, 3));
  g.setAttribute('normal', new THREE.BufferAttribute(nor, 3));
  return g;
}

/* Decorations: unit shapes scaled by the scene geom's size. */
var unitShapes = {};
export function unitShape(type) {
  if (unitShapes[type]) return unitShapes[type];
  var g;
  if (type === GEOM.SPHERE || type === GEOM.ELLIPSOID) {
    g = new THREE.SphereBufferGeometry(1, 16, 12);
  } else if (type === GEOM.BOX) {
    g = new THREE.BoxBufferGeometry(2, 2, 2);
  } else if (type === GEOM.ARROW || type === GEOM.ARROW1 || type === GEOM.ARROW2) {
    g = arrow();
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

/* The scale of a unit shape for a decoration of type and size a, b, c. */
export function unitScale(type, a, b, c) {
  switch (type) {
    case GEOM.SPHERE: return [a, a, a];
    case GEOM.CAPSULE: return [a, a, b + a];
    case GEOM.CYLINDER: return [a, a, b];
    case GEOM.LINE: return [Math.max(a, 0.002) * 0.5, Math.max(a, 0.002) * 0.5, c];
    case GEOM.ARROW: case GEOM.ARROW1: case GEOM.ARROW2: return [a, b, c];
    default: return [a, b, c];
  }
}
