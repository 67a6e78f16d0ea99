"""Sim's model calls: the model's description, loading, the MJB and
MJCF text, editing, the model directories."""

from . import edit as _edit
from . import zstd
from .errors import BadValue
from .model import Model
from .proto import pb
from .struct import Struct

# The model formats load() names, as the protocol numbers them.
_FORMATS = {"auto": pb.MODEL_FORMAT_AUTO, "mjcf": pb.MODEL_FORMAT_MJCF,
            "urdf": pb.MODEL_FORMAT_URDF, "mjb": pb.MODEL_FORMAT_MJB}


class SimModel:
    """The model: its description fetched once and again after a change,
    loading, the MJB, the MJCF text, edits and the model directories.

    Mixed into :class:`haptix.Sim`, whose ``_call``, ``conn`` and
    ``_model`` (the description kept) it uses.
    """

    @property
    def model(self):
        """The model's sizes, names and layout (:class:`haptix.Model`).

        Fetched once, and again after a load or an edit through this
        connection, or when a model event reached it.
        """
        if self._model is None or self.conn.model_changed:
            self.conn.model_changed = False
            self._model = Model(self._call("info", None, "info"))
        return self._model

    def refresh(self):
        """Fetch the model's description again (after another client
        loaded or edited the model); returns it."""
        self._model = None
        return self.model

    def info(self):
        """The ``info`` call: the model's descriptors, as a Struct."""
        return self._get("info", None, "info")

    def load(self, path=None, data=None, format="auto", legacy=False,
             name="inline", assets=None):
        """Load a model: a file in the server's model directories
        (``path``), or a model's bytes (``data``: MJCF, URDF or MJB
        text) with the files it names in ``assets``, ``{name: bytes}``
        (meshes, textures, height fields, skins, included MJCF files,
        each named as the model writes it: ``"meshes/hand.stl"``);
        returns its summary.  A failure (LoadFailed, Denied, BadValue
        naming a bad asset) leaves the running model."""
        msg = pb.LoadModel(legacy=legacy)
        if data is not None:
            if isinstance(data, str):
                data = data.encode()
            msg.inline_model.CopyFrom(pb.InlineModel(
                format=_FORMATS[format], data=data, name=name,
                assets=_assets(assets)))
        elif assets:
            raise BadValue("load: assets go with data, not with a path")
        elif path is not None:
            msg.path = path
        else:
            raise BadValue("load: give a path or data (reload() reloads)")
        self._model = None
        return self._get("load_model", msg, "model")

    def reload(self):
        """Reload the current model from its file."""
        self._model = None
        return self._get("load_model", pb.LoadModel(), "model")

    def get_model(self):
        """The model as MuJoCo's MJB (``mjb``, decompressed bytes), with
        ``name`` and ``mujoco_version`` (the server's, e.g. 222)."""
        b = self._call("get_model", None, "model_blob", timeout=None)
        mjb = zstd.decompress(b.mjb_zstd, max_content=b.mjb_size)
        return Struct(mjb=mjb, name=b.name, mujoco_version=b.mujoco_version)

    def get_model_xml(self):
        """The model's MJCF text (``xml``), includes inlined, and ``dir``,
        the directory its file names are relative to."""
        return self._get("get_model_xml", None, "model_xml")

    def edit(self, *ops):
        """Apply edit operations (:mod:`haptix.edit`: add, remove, set,
        unset, attach) as one transaction, compiled once, the state kept by
        names; returns ``model`` (the summary) and ``removed``."""
        if len(ops) == 1 and isinstance(ops[0], (list, tuple)):
            ops = ops[0]
        msg = pb.EditModel(ops=[_edit.op_message(o) for o in ops])
        self._model = None
        return self._get("edit_model", msg, "edit")

    def model_dirs(self, add=None):
        """The server's model directories (and ``user_dirs``), after
        adding ``add`` where its settings allow."""
        return self._get("model_dirs", pb.ModelDirs(add=add or ""),
                         "model_dirs")


def _assets(assets):
    """load()'s assets as InlineAsset messages: a dict of names to bytes
    (or str), or pairs; a name holding a NUL (which the server would see
    cut there) is refused here, the rest by the server."""
    if not assets:
        return []
    pairs = assets.items() if hasattr(assets, "items") else assets
    out = []
    for name, value in pairs:
        if not isinstance(name, str) or "\0" in name:
            raise BadValue("load: asset name %r is not a name" % (name,))
        if isinstance(value, str):
            value = value.encode()
        out.append(pb.InlineAsset(name=name, data=bytes(value)))
    return out
