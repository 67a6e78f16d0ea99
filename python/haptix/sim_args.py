"""The arguments Sim's calls share: arrays of doubles checked for their
size, and objects given by name or id."""

import numpy as np

from .errors import BadSize


def f64(values, what, n=None):
    """``values`` as a flat contiguous float64 array; BadSize unless it
    holds ``n`` values (when ``n`` is given)."""
    a = np.ascontiguousarray(values, dtype=np.float64).ravel()
    if n is not None and a.size != n:
        raise BadSize("%s has %d values but the model has %d"
                      % (what, a.size, n))
    return a


def obj_id(sim, type, which):
    """An object's id from its name or id."""
    if isinstance(which, str):
        return sim.model.id(type, which)
    return int(which)
