/*
 * Models from the browser: an MJCF, URDF or MJB with the files it names
 * (meshes, textures, height fields, skins, included MJCF files), or a
 * .zip of them, dropped anywhere on the workbench or chosen in the
 * Simulation panel, sent to hxview's POST /upload, which loads them
 * through the daemon as any client's inline model (its sandboxed loader,
 * limits, lease and queue).  A zip is read here: its central directory
 * by hand, its entries stored or deflated (the browser's
 * DecompressionStream), their sizes bounded and their CRC-32s checked.
 * The model is the one .xml, .urdf or .mjb nearest the top that no other
 * includes; when several are, the page asks which.  Files are named as
 * the model names them: their paths from the model's directory.
 */
import { hxwb, say } from './state.js';
import { net } from './net.js';

function byId(id) { return document.getElementById(id); }

const MODEL = /\.(xml|urdf|mjb)$/i;
/* What archivers and file managers add that no model names. */
const JUNK = /(^|\/)(__MACOSX\/|\._|\.DS_Store$|Thumbs\.db$)/;
/* At most this many files go with a model (the daemon's limit). */
const MAX_FILES = 1000;

/* The CRC-32 of zip files (IEEE 802.3), its table made once. */
var crcTable = null;
function crc32(bytes) {
  if (!crcTable) {
    crcTable = new Uint32Array(256);
    for (var n = 0; n < 256; n++) {
      var c = n;
      for (var k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c >>> 0;
    }
  }
  var crc = 0xffffffff;
  for (var i = 0; i < bytes.length; i++) crc = crcTable[(crc ^ bytes[i]) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/* The last part of a path, in lower case: how MuJoCo finds a file. */
function key(path) { return path.slice(path.lastIndexOf('/') + 1).toLowerCase(); }

function mb(n) { return (n / 1048576).toFixed(n < 1048576 ? 2 : 1) + ' MB'; }

/*
 * Inflate raw deflate data, stopping past most bytes (a zip may lie
 * about its sizes); resolves to a Uint8Array.
 */
function inflate(data, most, name) {
  var ds = new DecompressionStream('deflate-raw');
  var reader = new Blob([data]).stream().pipeThrough(ds).getReader();
  var parts = [], got = 0;
  function pump() {
    return reader.read().then(function (r) {
      if (r.done) {
        var out = new Uint8Array(got), at = 0;
        parts.forEach(function (p) { out.set(p, at); at += p.length; });
        return out;
      }
      got += r.value.length;
      if (got > most) {
        reader.cancel();
        throw new Error(name + ' inflates past the ' + most + ' bytes its zip declares');
      }
      parts.push(r.value);
      return pump();
    });
  }
  return pump();
}

export const upload = {
  /* The files gathered, [{path, data: Uint8Array}], while asking which. */
  pending: null,
  busy: false,

  init: function () {
    var self = this;
    byId('upload-files').addEventListener('change', function (e) {
      var files = Array.from(e.target.files || []);
      e.target.value = '';
      if (files.length) self.start(self.fromFiles(files));
    });
    byId('upload-send').addEventListener('click', function () {
      var choice = byId('upload-model').value;
      if (self.pending && choice) self.send(self.pending, choice);
    });
    /* Anywhere on the page: a dashed frame while files hover. */
    var depth = 0;
    function files(e) {
      return e.dataTransfer && Array.from(e.dataTransfer.types || []).indexOf('Files') >= 0;
    }
    document.addEventListener('dragenter', function (e) {
      if (!files(e)) return;
      depth++;
      document.body.classList.add('dropping');
    });
    document.addEventListener('dragleave', function (e) {
      if (!files(e)) return;
      if (--depth <= 0) { depth = 0; document.body.classList.remove('dropping'); }
    });
    document.addEventListener('dragover', function (e) {
      if (!files(e)) return;
      e.preventDefault();
      e.dataTransfer.dropEffect = 'copy';
    });
    document.addEventListener('drop', function (e) {
      if (!files(e)) return;
      e.preventDefault();
      depth = 0;
      document.body.classList.remove('dropping');
      self.start(self.fromDrop(e.dataTransfer));
    });
  },

  /* What the page shows of an upload, and keeps for the tests. */
  show: function (state, text, fraction) {
    hxwb.upload = { state: state, text: text };
    byId('upload-state').textContent = text;
    var p = byId('upload-progress');
    p.hidden = fraction === undefined;
    if (fraction !== undefined) p.value = fraction;
    if (state === 'error') hxwb.errors.push('upload: ' + text);
    if (state === 'error' || state === 'loaded') say('upload: ' + text);
  },

  /* Refused before anything is read: read-only, or no uploads taken. */
  closed: function () {
    if (hxwb.readOnly) return 'this viewer is read-only';
    if (!hxwb.maxUpload) return 'this viewer takes no uploads (hxview serve --max-upload 0)';
    return null;
  },

  /* Gather (a promise of files), unpack, pick the model and send. */
  start: function (gathered) {
    var self = this, why = this.closed();
    if (why) { this.show('error', why); return; }
    if (this.busy) { this.show('error', 'an upload is under way'); return; }
    this.busy = true;
    this.pending = null;
    byId('upload-model').hidden = byId('upload-send').hidden = true;
    this.show('reading', 'reading the files', 0);
    gathered.then(function (list) { return self.unpackAll(list); })
      .then(function (files) { self.busy = false; self.choose(files); })
      .catch(function (e) { self.busy = false; self.show('error', e.message || String(e)); });
  },

  /* Files of the file input: [{path, file}]. */
  fromFiles: function (files) {
    return Promise.resolve(files.map(function (f) {
      return { path: f.webkitRelativePath || f.name, file: f };
    }));
  },

  /* Files and folders dropped: [{path, file}], folders walked. */
  fromDrop: function (dt) {
    var items = Array.from(dt.items || []), out = [];
    var entries = items.map(function (i) {
      return i.kind === 'file' && i.webkitGetAsEntry ? i.webkitGetAsEntry() : null;
    });
    if (!entries.length || entries.some(function (e) { return !e; })) {
      return this.fromFiles(Array.from(dt.files || []));
    }
    function walk(entry, dir) {
      if (entry.isFile) {
        return new Promise(function (ok, fail) { entry.file(ok, fail); })
          .then(function (f) { out.push({ path: dir + entry.name, file: f }); });
      }
      var reader = entry.createReader(), all = [];
      function more() {
        return new Promise(function (ok, fail) { reader.readEntries(ok, fail); })
          .then(function (batch) {
            if (!batch.length) return all;
            all = all.concat(batch);
            if (all.length > 4 * MAX_FILES) throw new Error(dir + entry.name + ': too many files');
            return more();
          });
      }
      return more().then(function (list) {
        return list.reduce(function (p, e) {
          return p.then(function () { return walk(e, dir + entry.name + '/'); });
        }, Promise.resolve());
      });
    }
    return entries.reduce(function (p, e) {
      return p.then(function () { return walk(e, ''); });
    }, Promise.resolve()).then(function () { return out; });
  },

  /* Read every file, unpacking zips: [{path, data}]. */
  unpackAll: function (list) {
    var self = this, out = [], total = 0, most = hxwb.maxUpload;
    return list.reduce(function (p, f) {
      return p.then(function () {
        if (/\.zip$/i.test(f.path)) {
          /* A zip's declared sizes are bounded before it is inflated. */
          return f.file.arrayBuffer().then(function (b) {
            return self.unzip(new Uint8Array(b), f.path, most - total);
          }).then(function (entries) {
            entries.forEach(function (e) { total += e.data.length; out.push(e); });
          });
        }
        if (JUNK.test(f.path)) return;
        total += f.file.size;
        if (total > most) throw new Error('the files make more than ' + mb(most) +
          ', the most this viewer takes (hxview serve --max-upload)');
        return f.file.arrayBuffer().then(function (b) {
          out.push({ path: f.path, data: new Uint8Array(b) });
        });
      });
    }, Promise.resolve()).then(function () { return out; });
  },

  /*
   * A zip's files (bytes; name for messages), at most most bytes in
   * all: stored and deflated entries; anything else refused, saying so.
   */
  unzip: function (bytes, name, most) {
    var v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    var n = bytes.length, eocd = -1, self = this;
    for (var i = n - 22; i >= 0 && i >= n - 22 - 65535; i--) {
      if (v.getUint32(i, true) === 0x06054b50) { eocd = i; break; }
    }
    if (eocd < 0) return Promise.reject(new Error(name + ' is not a zip file (no central directory)'));
    var count = v.getUint16(eocd + 10, true), size = v.getUint32(eocd + 12, true);
    var at = v.getUint32(eocd + 16, true);
    if (v.getUint16(eocd + 4, true) !== 0 || v.getUint16(eocd + 6, true) !== 0)
      return Promise.reject(new Error(name + ' spans several disks'));
    if (count === 0xffff || size === 0xffffffff || at === 0xffffffff)
      return Promise.reject(new Error(name + ' is a ZIP64 archive, which the page does not read'));
    if (at + size > eocd) return Promise.reject(new Error(name + ': its central directory lies outside it'));
    var entries = [], declared = 0, utf8 = new TextDecoder('utf-8');
    for (var k = 0, p = at; k < count; k++) {
      if (p + 46 > at + size || v.getUint32(p, true) !== 0x02014b50)
        return Promise.reject(new Error(name + ': entry ' + (k + 1) + ' of its directory is broken'));
      var flags = v.getUint16(p + 8, true), method = v.getUint16(p + 10, true);
      var e = { flags: flags, method: method, crc: v.getUint32(p + 16, true),
        csize: v.getUint32(p + 20, true), usize: v.getUint32(p + 24, true),
        local: v.getUint32(p + 42, true) };
      var nl = v.getUint16(p + 28, true), xl = v.getUint16(p + 30, true), cl = v.getUint16(p + 32, true);
      if (p + 46 + nl > at + size) return Promise.reject(new Error(name + ': a name runs past its directory'));
      e.path = utf8.decode(bytes.subarray(p + 46, p + 46 + nl));
      p += 46 + nl + xl + cl;
      if (e.path.endsWith('/') || JUNK.test(e.path)) continue;
      if (flags & 1) return Promise.reject(new Error(name + ': ' + e.path + ' is encrypted'));
      if (method !== 0 && method !== 8) {
        return Promise.reject(new Error(name + ': ' + e.path + ' is compressed with method ' + method +
          (method === 12 ? ' (bzip2)' : method === 14 ? ' (LZMA)' : method === 93 ? ' (Zstandard)' : '') +
          '; the page reads stored and deflated entries only: zip it again with deflate'));
      }
      declared += e.usize;
      if (declared > most) {
        return Promise.reject(new Error(name + ' unpacks to more than ' + mb(most) +
          ', the most this viewer takes (hxview serve --max-upload)'));
      }
      entries.push(e);
    }
    if (entries.length > 4 * MAX_FILES) return Promise.reject(new Error(name + ' holds too many files'));
    var out = [], done = 0;
    return entries.reduce(function (chain, e) {
      return chain.then(function () {
        var l = e.local;
        if (l + 30 > n || v.getUint32(l, true) !== 0x04034b50)
          throw new Error(name + ': ' + e.path + ' has no local header');
        var start = l + 30 + v.getUint16(l + 26, true) + v.getUint16(l + 28, true);
        if (start + e.csize > n) throw new Error(name + ': ' + e.path + ' runs past the end');
        var raw = bytes.subarray(start, start + e.csize);
        var data = e.method === 0 ? Promise.resolve(raw.slice()) : inflate(raw, e.usize, e.path);
        return data.then(function (d) {
          if (d.length !== e.usize) throw new Error(name + ': ' + e.path + ' is ' + d.length +
            ' bytes, not the ' + e.usize + ' its zip declares');
          if (crc32(d) !== e.crc) throw new Error(name + ': ' + e.path + ' is damaged (its CRC-32 differs)');
          out.push({ path: e.path, data: d });
          self.show('reading', 'unpacking ' + name + ': ' + (++done) + ' of ' + entries.length,
            done / entries.length);
        });
      });
    }, Promise.resolve()).then(function () { return out; });
  },

  /*
   * The model among the files: the .xml, .urdf and .mjb nearest the top,
   * less those another one includes; one is sent, several are asked.
   */
  choose: function (files) {
    var models = files.filter(function (f) { return MODEL.test(f.path); });
    if (!models.length) {
      this.show('error', 'no .xml, .urdf or .mjb among the ' + files.length + ' files');
      return;
    }
    var depth = function (f) { return f.path.split('/').length; };
    var top = Math.min.apply(null, models.map(depth));
    var named = this.includes(files);
    var pick = models.filter(function (f) { return depth(f) === top && !named[key(f.path)]; });
    if (!pick.length) pick = models.filter(function (f) { return depth(f) === top; });
    if (pick.length === 1) { this.send(files, pick[0].path); return; }
    var sel = byId('upload-model');
    sel.textContent = '';
    pick.forEach(function (f) {
      var o = document.createElement('option');
      o.value = o.textContent = f.path;
      sel.appendChild(o);
    });
    this.pending = files;
    sel.hidden = byId('upload-send').hidden = false;
    this.show('choose', 'which is the model? ' + pick.length + ' could be');
  },

  /* The names of the files the XML files include, by key. */
  includes: function (files) {
    var named = {}, text = new TextDecoder('utf-8');
    files.forEach(function (f) {
      if (!/\.xml$/i.test(f.path) || f.data.length > 16 * 1048576) return;
      var re = /<include\b[^>]*\bfile\s*=\s*["']([^"']+)["']/gi, s = text.decode(f.data), m;
      while ((m = re.exec(s)) !== null) named[key(m[1])] = true;
    });
    return named;
  },

  /*
   * The files to send with the model at path: named from its directory
   * (or by their last part, from elsewhere), those its texts (the model,
   * and the XML files sent, which it may include) never name left out,
   * and none for MJB.
   */
  assets: function (files, path) {
    var dir = path.slice(0, path.lastIndexOf('/') + 1), text = new TextDecoder('utf-8');
    if (/\.mjb$/i.test(path)) return [];
    var texts = files.filter(function (f) {
      return f.path === path || (/\.(xml|urdf)$/i.test(f.path) && f.data.length <= 16 * 1048576);
    }).map(function (f) { return text.decode(f.data).toLowerCase(); }).join('\n');
    return files.filter(function (f) {
      return f.path !== path && texts.indexOf(key(f.path)) >= 0;
    }).map(function (f) {
      var name = dir && f.path.indexOf(dir) === 0 ? f.path.slice(dir.length) : f.path;
      /* Never a name that climbs out or is absolute: its last part. */
      if (/^[\/\\]|:[\/\\]/.test(name) || name.split(/[\/\\]/).indexOf('..') >= 0)
        name = f.path.slice(f.path.lastIndexOf('/') + 1);
      return { name: name, data: f.data };
    });
  },

  /* The body of POST /upload: "HXU1", the count, each name and data. */
  body: function (model, assets) {
    var enc = new TextEncoder(), all = [model].concat(assets), parts = [];
    var head = new DataView(new ArrayBuffer(8));
    head.setUint32(0, 0x31555848, true);          /* "HXU1" */
    head.setUint32(4, all.length, true);
    parts.push(head.buffer);
    all.forEach(function (f) {
      var name = enc.encode(f.name), h = new DataView(new ArrayBuffer(8));
      h.setUint32(0, name.length, true);
      h.setUint32(4, f.data.length, true);
      parts.push(h.buffer, name, f.data);
    });
    return new Blob(parts, { type: 'application/octet-stream' });
  },

  /* Send the model at path with its files; show how it goes. */
  send: function (files, path) {
    var self = this, model = files.find(function (f) { return f.path === path; });
    var assets = this.assets(files, path);
    var why = this.closed();
    byId('upload-model').hidden = byId('upload-send').hidden = true;
    this.pending = null;
    if (why) { this.show('error', why); return; }
    if (assets.length > MAX_FILES) {
      this.show('error', assets.length + ' files with the model; at most ' + MAX_FILES);
      return;
    }
    var base = path.slice(path.lastIndexOf('/') + 1);
    var body = this.body({ name: base, data: model.data }, assets);
    if (body.size > hxwb.maxUpload) {
      this.show('error', base + ' and its files make ' + mb(body.size) + ', more than the ' +
        mb(hxwb.maxUpload) + ' this viewer takes (hxview serve --max-upload)');
      return;
    }
    var what = base + (assets.length ? ' with ' + assets.length + ' file' +
      (assets.length === 1 ? '' : 's') : '');
    this.busy = true;
    this.show('sending', 'sending ' + what, 0);
    var x = new XMLHttpRequest();
    x.open('POST', '/upload');
    x.setRequestHeader('X-Hxview', '1');
    if (net.token) x.setRequestHeader('X-Hxview-Token', net.token);
    x.upload.onprogress = function (e) {
      if (e.lengthComputable) {
        self.show('sending', 'sending ' + what + ': ' + mb(e.loaded) + ' of ' + mb(e.total),
          e.loaded / e.total);
      }
    };
    x.upload.onload = function () { self.show('loading', 'loading ' + what + ' on the server'); };
    x.onload = function () {
      var j;
      self.busy = false;
      try { j = JSON.parse(x.responseText); } catch (e) {
        j = { error: 'HTTP ' + x.status + (x.status === 413 ?
          ': larger than this viewer takes (hxview serve --max-upload)' : '') };
      }
      net.answer('upload', { status: x.status }, { ok: j.ok });
      if (j.ok) self.show('loaded', 'loaded ' + what + ' as "' + j.name + '"');
      else self.show('error', what + ': ' + (j.error || 'HTTP ' + x.status));
    };
    x.onerror = function () {
      self.busy = false;
      self.show('error', what + ': hxview did not answer');
    };
    x.send(body);
  }
};
