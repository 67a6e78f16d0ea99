"""Edit operations on the running model (docs/editing.md), for
``sim.edit(...)``: elements added, removed and changed by type and name
in the model's MJCF text, compiled once, the state kept by names.

    from haptix import edit
    sim.edit(edit.add("body", "box", parent="worldbody", pos=(0.2, -0.2, 1)),
             edit.add("geom", parent="body:box", type="box",
                      size=(0.03, 0.03, 0.03)),
             edit.add("freejoint", parent="body:box"))
    sim.edit(edit.set("geom", "box", rgba=(1, 0, 0, 1)))
    sim.edit(edit.remove("body", "box"))

A parent is written as hxctl writes it: ``"worldbody"``,
``"actuator"``, ``"body:NAME"``, ``"default:CLASS"`` (or a pair).
Attribute values are text as MJCF writes it, or numbers and sequences of
numbers; ``class_`` stands for ``class``.  A default class is the type
``"default"`` named by its class; ``set("geom", parent="default:object",
friction=1)`` changes the class's settings for geoms.  ``attach`` copies
a body's subtree from another model (a file in the model directories, or
inline MJCF) or from this one, renamed with a prefix and/or suffix:

    sim.edit(edit.add("site", "anchor", pos=(0, 0.9, 0.3)),
             edit.attach("forearm", file="mpl_hand.xml",
                         to="site:anchor", prefix="left_"))
"""

import numbers

from .proto import pb

__all__ = ["add", "remove", "set", "unset", "attach", "op_message"]


def _value(v):
    if isinstance(v, str):
        return v
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, numbers.Number):
        return "%.17g" % v
    return " ".join(_value(x) for x in v)


def _parent(parent):
    if parent is None:
        return "", ""
    if isinstance(parent, (tuple, list)):
        return parent[0], parent[1]
    t, _, n = parent.partition(":")
    return t, n


def _attrs(attrs):
    return [(k.rstrip("_"), _value(v)) for k, v in attrs.items()]


def _op(kind, type, name, parent, attrs):
    pt, pn = _parent(parent)
    return {"kind": kind, "type": type, "name": name or "",
            "parent_type": pt, "parent_name": pn, "attrs": attrs}


def add(element, name="", parent="worldbody", attrs=None, **kw):
    """Add an element of type ``element`` named ``name`` under ``parent``."""
    return _op(pb.EDIT_ADD, element, name, parent, _attrs(dict(attrs or {},
                                                           **kw)))


def remove(element, name):
    """Remove an element, its subtree and what refers to what went."""
    return _op(pb.EDIT_REMOVE, element, name, None, [])


def set(element, name="", parent=None, attrs=None, **kw):
    """Set attributes of an element (or, with ``parent="default:CLASS"``
    and no name, of a default class's settings for that element type)."""
    return _op(pb.EDIT_SET, element, name, parent, _attrs(dict(attrs or {},
                                                           **kw)))


def unset(element, name="", *names, parent=None):
    """Remove attributes, by name, from an element (or a class)."""
    return _op(pb.EDIT_UNSET, element, name, parent,
               [(n.rstrip("_"), "") for n in names])


def attach(body, file="", xml="", to="worldbody", prefix="", suffix=""):
    """Attach the subtree of ``body`` (``"worldbody"``: everything it
    holds) from ``file`` (in the model directories), from inline MJCF
    ``xml``, or (neither) from this model, under ``to`` (``"worldbody"``,
    ``"body:NAME"``, ``"site:NAME"``), every name renamed ``prefix + name
    + suffix``; what it uses comes along, renamed."""
    if file and xml:
        raise ValueError("attach takes a file or inline MJCF, not both")
    op = _op(pb.EDIT_ATTACH, "body" if body != "worldbody" else "worldbody",
             body if body != "worldbody" else "", to, [])
    op.update(source_file=file, source_xml=xml, prefix=prefix,
              suffix=suffix)
    return op


def op_message(op):
    """An operation as the protocol's EditOp."""
    return pb.EditOp(kind=op["kind"], type=op["type"], name=op["name"],
                     parent_type=op["parent_type"],
                     parent_name=op["parent_name"],
                     attrs=[pb.EditAttr(name=k, value=v)
                            for k, v in op["attrs"]],
                     source_file=op.get("source_file", ""),
                     source_xml=op.get("source_xml", ""),
                     prefix=op.get("prefix", ""),
                     suffix=op.get("suffix", ""))
