/*
 * The player of an exported replay (hxview's /export.html): the page
 * holds everything (window.HXEXPORT: the model's description, meshes,
 * textures and frames) and draws with the workbench's own scene code,
 * inlined before this as one script, so that it plays from a file with
 * no server.  Play and pause, a slider over the frames, a speed; the
 * mouse turns (left), moves (right) and zooms (wheel) the camera.  Not a
 * module: hxview appends it to the inlined modules, whose names it uses.
 */
var DATA = window.HXEXPORT;

function $(id) { return document.getElementById(id); }

/* Base64 to an ArrayBuffer. */
function bytes(b64) {
  var s = atob(b64 || ''), u = new Uint8Array(s.length);
  for (var i = 0; i < s.length; i++) u[i] = s.charCodeAt(i);
  return u.buffer;
}

var player = {
  index: -1, playing: false, speed: 1, clock: 0, from: 0, t0: 0,

  init: function () {
    var self = this, r = $('range');
    hxwb.textureUrl = function (id) { return DATA.textures[id] || ''; };
    view.init();
    scene.init();
    scene.build(DATA.model, bytes(DATA.meshes));
    r.max = Math.max(0, DATA.frames.length - 1);
    r.addEventListener('input', function () { self.play(false); self.show(Number(r.value)); });
    $('play').addEventListener('click', function () { self.play(!self.playing); });
    $('speed').addEventListener('change', function () {
      self.speed = Number($('speed').value);
      if (self.playing) self.play(true);
    });
    this.mouse();
    say(DATA.title + ' (' + DATA.frames.length + ' frames)');
    this.show(0);
    window.hxexport = this;
    this.ready = true;
    requestAnimationFrame(function loop() { requestAnimationFrame(loop); self.tick(); });
  },

  /* Frame i in the scene, drawn at the next animation frame. */
  show: function (i) {
    var f = DATA.frames[i];
    if (!f) return;
    this.index = i;
    hxwb.frame = f;
    scene.update(f);
    hxwb.dirty = true;
    $('range').value = i;
    $('time').textContent = 't = ' + f.time.toFixed(3) + ' s';
  },

  play: function (on) {
    this.playing = on && DATA.frames.length > 1;
    if (this.playing && this.index >= DATA.frames.length - 1) this.show(0);
    this.clock = performance.now();
    this.from = this.index;
    this.t0 = DATA.frames[this.index].time;
    $('play').textContent = this.playing ? 'Pause' : 'Play';
  },

  /* The frame due now while playing (by the frames' times), and draw. */
  tick: function () {
    if (this.playing) {
      var t = this.t0 + (performance.now() - this.clock) / 1000 * this.speed;
      var i = this.index, n = DATA.frames.length;
      /* On through the frames up to the time due; a reset (time back) is crossed. */
      while (i + 1 < n && (DATA.frames[i + 1].time <= t ||
             DATA.frames[i + 1].time < DATA.frames[i].time)) {
        if (DATA.frames[i + 1].time < DATA.frames[i].time) {
          this.clock = performance.now();
          this.t0 = DATA.frames[i + 1].time;
          t = this.t0;
        }
        i++;
      }
      if (i !== this.index) this.show(i);
      if (i >= n - 1) this.play(false);
    }
    if (hxwb.dirty) {
      hxwb.dirty = false;
      view.render(scene.three);
      hxwb.drawn++;
    }
  },

  /* The camera by mouse, as the workbench's free camera. */
  mouse: function () {
    var c = $('view'), last = null;
    c.addEventListener('contextmenu', function (e) { e.preventDefault(); });
    c.addEventListener('mousedown', function (e) { last = { x: e.clientX, y: e.clientY, b: e.button }; });
    window.addEventListener('mouseup', function () { last = null; });
    window.addEventListener('mousemove', function (e) {
      if (!last) return;
      var h = c.clientHeight || 1, dx = (e.clientX - last.x) / h, dy = (e.clientY - last.y) / h;
      view.move(last.b === 2 ? 4 : 1, dx, dy);
      last.x = e.clientX;
      last.y = e.clientY;
    });
    c.addEventListener('wheel', function (e) {
      e.preventDefault();
      view.move(5, 0, -e.deltaY / 2000);
    }, { passive: false });
  }
};

player.init();
