"""Sim's calls on mjModel and mjData arrays by their MuJoCo names."""

import numpy as np

from .proto import pb
from .sim_args import f64
from .struct import to_struct


class SimArray:
    """Arrays by name.

    Mixed into :class:`haptix.Sim`, whose ``_call`` it uses.
    """

    def get_array(self, name):
        """An mjModel or mjData array by its MuJoCo name, shaped (rows,
        cols): ``get_array("geom_rgba")`` is (ngeom, 4)."""
        a = self._call("get_array", pb.ArrayRef(name=name), "array")
        return np.array(a.values).reshape(a.rows, a.cols)

    def set_array(self, name, values, offset=0):
        """Write values into an array from element ``offset`` (row-major)."""
        v = f64(values, name)
        self._call("set_array", pb.Array(name=name, values=v, offset=offset))

    def list_arrays(self):
        """Every array: name, owner, type, rows, cols, writable, refusal."""
        return [to_struct(a) for a in self._call("list_arrays", None,
                                                 "arrays").arrays]
