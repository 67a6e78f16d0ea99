/*
 * What the workbench's modules share: window.hxwb, the state the tests
 * and the benchmark read; the render toggles (the Render panel and the
 * keys flip them, the scene draws by them); and the status line.
 */

export const hxwb = window.hxwb = {
  id: 0, model: null, frame: null, status: null, readOnly: false,
  client: 0, gen: 0, frames: 0, drawn: 0, drawLog: [], selected: 0,
  camera: null, bytes: 0, errors: [], fps: 0,
  /* Set when the camera, the toggles or the model changed. */
  dirty: true
};

export const toggles = {
  contact: false, force: false, joint: false, tendon: true, actuator: false,
  com: false, transparent: false, mine: true,
  geomgroup: [true, true, true, false, false, false],
  sitegroup: [true, true, true, false, false, false]
};

/* The status line at the bottom: the state, or what went wrong. */
export function say(text) {
  document.getElementById('status').textContent = text;
}
