/*
 * What the workbench's modules share: window.hxwb, the state the tests
 * and the benchmark read; the render toggles (the Rendering panel and
 * the keys flip them, the scene draws by them, hxview is told them);
 * and the status line.
 */

export const hxwb = window.hxwb = {
  id: 0, model: null, frame: null, status: null, readOnly: false,
  client: 0, gen: 0, frames: 0, drawn: 0, drawLog: [], selected: 0,
  camera: null, bytes: 0, errors: [], fps: 0,
  /* Set when the camera, the toggles or the model changed. */
  dirty: true
};

/*
 * simulate's Rendering choices: MuJoCo's visualization flags (mjtVisFlag
 * order, on or off; set from the first model's defaults), the frame
 * (mjtFrame) and the label (mjtLabel), shadows and reflections (null
 * until the renderer is known: off on a software one), and the groups.
 */
export const toggles = {
  flags: null, frame: 0, label: 0, shadow: null, reflection: null,
  geomgroup: [true, true, true, false, false, false],
  sitegroup: [true, true, true, false, false, false],
  jointgroup: [true, true, true, false, false, false],
  tendongroup: [true, true, true, false, false, false],
  actuatorgroup: [true, true, true, false, false, false],
  skingroup: [true, true, true, false, false, false]
};

/* The mjtVisFlags the page draws by itself (MuJoCo 2.2's numbers). */
export const VIS = { CONVEXHULL: 0, TEXTURE: 1, TRANSPARENT: 17, STATIC: 21, SKIN: 22 };

/* Is flag i (an mjtVisFlag) on? */
export function flag(i) {
  return !!(toggles.flags && toggles.flags[i]);
}

/* The status line at the bottom: the state, or what went wrong. */
export function say(text) {
  document.getElementById('status').textContent = text;
}
