/*
 * The workbench's side of hxview's HTTP API: the controls (POSTs with
 * the page's header and, off loopback, the daemon's token), the model's
 * description and the model list, and the event stream.  What the
 * stream brings is handed to the callbacks the entry module gives.
 */
import { hxwb, say } from './state.js';

export const net = {
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
      return r.json().then(function (j) { return net.answer(name, r, j); });
    }).catch(function (e) { say(name + ': ' + e); return { error: String(e) }; });
  },

  /* A control's answer: ask for the token when refused for want of it. */
  answer: function (name, r, j) {
    if (r.status === 401) {
      var t = window.prompt('The daemon\'s token (hxview is not on loopback):');
      if (t) { net.token = t; sessionStorage.setItem('hxview-token', t); }
    }
    if (j.error) {
      hxwb.errors.push(name + ': ' + j.error);
      say(name + ': ' + j.error);
    }
    return j;
  },

  /* The model's description and its meshes: [JSON, ArrayBuffer]. */
  scene: function () {
    return Promise.all([fetch('/scene.json').then(function (r) { return r.json(); }),
      fetch('/meshes.bin').then(function (r) { return r.arrayBuffer(); })]);
  },

  /* The server's model directories and their files. */
  models: function () {
    return fetch('/models.json').then(function (r) { return r.json(); });
  },

  /*
   * Open the event stream.  on.model(m), on.look(l), on.camera(c),
   * on.frame(f) and on.server(s) take the events' parsed data; on.server
   * hears whether the server is there ({up, why, since}), from the first
   * event on.
   */
  start: function (on) {
    var es = new EventSource('/events');
    es.addEventListener('hello', function (e) {
      var h = JSON.parse(e.data);
      hxwb.id = h.id; hxwb.readOnly = h.read_only; hxwb.client = h.client;
      hxwb.maxUpload = h.max_upload || 0;
      hxwb.server = h.server;
      document.body.classList.toggle('read-only', h.read_only);
      on.server(h);
    });
    /* The server went away, or is back (hxview connects again). */
    es.addEventListener('server', function (e) { on.server(JSON.parse(e.data)); });
    es.addEventListener('model', function (e) { on.model(JSON.parse(e.data)); });
    /* Colours, sizes or places changed in the same model. */
    es.addEventListener('look', function (e) { on.look(JSON.parse(e.data)); });
    /* The daemon's view camera was set (hxs_set_camera_transform). */
    es.addEventListener('camera', function (e) { on.camera(JSON.parse(e.data)); });
    es.addEventListener('frame', function (e) {
      var t = performance.now();
      var f = JSON.parse(e.data);
      hxwb.busy.parse += performance.now() - t;
      f.recv = performance.timeOrigin + performance.now();
      hxwb.bytes += e.data.length + 20;
      hxwb.frames++;
      if (f.perturb_error) say('perturb: ' + f.perturb_error);
      hxwb.frame = f;
      hxwb.status = f.status || hxwb.status;
      on.frame(f);
    });
    /* hxview itself does not answer: the browser tries again. */
    es.onerror = function () {
      on.server({ up: false, hxview: true, since: Date.now(),
        why: 'hxview does not answer; the browser tries again' });
    };
  }
};

/*
 * Fetch an exported replay (hxview's /export.html?query) and offer it as
 * a file to save in the link a, saying its frames and size.
 */
export function exportTo(query, a, name) {
  a.hidden = false;
  a.removeAttribute('href');
  a.textContent = 'exporting...';
  fetch('/export.html?' + query).then(function (r) {
    if (!r.ok) return r.json().then(function (j) { throw new Error(j.error); });
    var frames = r.headers.get('X-Export-Frames');
    return r.blob().then(function (b) {
      if (a.href) URL.revokeObjectURL(a.href);
      a.href = URL.createObjectURL(b);
      a.download = name;
      a.textContent = 'save ' + name + ' (' + frames + ' frames, ' +
        (b.size / 1048576).toFixed(1) + ' MB)';
      a.dataset.frames = frames;
      a.dataset.bytes = b.size;
    });
  }).catch(function (e) { a.textContent = 'export: ' + e.message; });
}

/* Base64 of float32s, as hxview_web.c writes them. */
export function floats(b64) {
  if (!b64) return new Float32Array(0);
  var s = atob(b64), n = s.length, u = new Uint8Array(n);
  for (var i = 0; i < n; i++) u[i] = s.charCodeAt(i);
  return new Float32Array(u.buffer);
}
