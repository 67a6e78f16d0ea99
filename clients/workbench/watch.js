/*
 * The Watch panel, as simulate's: any mjData array by MuJoCo's name and
 * an index into it, its value as the last step left it, read a few times
 * a second through the daemon's compute call (hxview's /watch.json).
 */
function byId(id) { return document.getElementById(id); }

export const watch = {
  busy: false,

  init: function () {
    var self = this;
    setInterval(function () { self.poll(); }, 250);
  },

  /* Ask for the field's value, one request at a time. */
  poll: function () {
    var field = byId('watch-field').value.trim(), index = byId('watch-index').value.trim();
    var out = byId('watch-value'), self = this;
    if (field === '' || this.busy) return;
    this.busy = true;
    fetch('/watch.json?field=' + encodeURIComponent(field) +
          '&index=' + encodeURIComponent(index === '' ? '0' : index))
      .then(function (r) { return r.json(); })
      .then(function (j) {
        out.textContent = j.error !== undefined ? j.error :
          j.value + '  (' + j.rows + ' x ' + j.cols + ')';
        out.classList.toggle('error', j.error !== undefined);
      })
      .catch(function (e) { out.textContent = String(e); })
      .finally(function () { self.busy = false; });
  },
};
