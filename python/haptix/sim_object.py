"""Sim's calls on objects: geom sizes, colours, equalities, the viewers'
message, names and ids."""

import numpy as np

from .model import obj_type
from .proto import pb
from .sim_args import f64, obj_id


class SimObject:
    """Objects: sizes, colours, equalities, names.

    Mixed into :class:`haptix.Sim`, whose ``_call`` it uses, and its
    ``model`` for objects by name.
    """

    def set_geomsize(self, geom, size):
        """Set a geom's size (3 numbers); by name or id."""
        self._call("set_geomsize", pb.GeomSize(id=obj_id(self, "geom", geom),
                                               size=f64(size, "size")))

    def get_rgba(self, type, obj):
        """The colour (4,) of a geom, site, tendon or material."""
        t = obj_type(type)
        ref = pb.ObjectRef(type=t, id=obj_id(self, type, obj))
        return np.array(self._call("get_rgba", ref, "rgba").rgba)

    def set_rgba(self, type, obj, rgba):
        """Set the colour of a geom, site, tendon or material."""
        self._call("set_rgba", pb.Rgba(type=obj_type(type),
                                       id=obj_id(self, type, obj),
                                       rgba=f64(rgba, "rgba")))

    def equality(self, eq, state):
        """Enable (1, True) or disable (0, False) an equality constraint."""
        self._call("equality", pb.Equality(id=obj_id(self, "equality", eq),
                                           state=int(state)))

    def message(self, text=""):
        """Show a message on viewers ("" clears it)."""
        self._call("message", pb.Message(text=text or ""))

    def name2id(self, type, name):
        """An object's id by type and name, -1 when there is none."""
        r = self._call("name2id", pb.ObjectRef(type=obj_type(type),
                                               name=name), "object")
        return r.id

    def id2name(self, type, id):
        """An object's name by type and id ("" when unnamed)."""
        r = self._call("id2name", pb.ObjectRef(type=obj_type(type),
                                               id=int(id)), "object")
        return r.name
