"""Sim's holds: hinge and slide joints held on a path
(docs/editing.md)."""

from .proto import pb


class SimHold:
    """Joints held on a path (docs/editing.md).

    Mixed into :class:`haptix.Sim`, whose ``_call`` it uses; a hold
    edits the model, so its description (``_model``) is fetched again.
    """

    def hold(self, targets=None, **kw):
        """Hold hinge and slide joints at values: ``hold(index_MCP=0.5)``
        or ``hold({"index_MCP": 0.5})``.  The first hold on a joint adds
        an equality by an edit; a joint this connection holds already
        only gets its new target, so a path is streamed by calling this
        again at your own rate.  Holds last until :meth:`release` or the
        connection closes.  Returns every hold (``holds``: ``joint``,
        ``target``, ``qpos``, ``force``, ``holder``) and what ended of
        yours without your asking (``dropped``)."""
        targets = dict(targets or {}, **kw)
        msg = pb.HoldJoints(joints=list(targets),
                            values=[float(v) for v in targets.values()])
        if targets:
            self._model = None
        return self._get("hold", msg, "holds")

    def holds(self):
        """Every hold on the server (see :meth:`hold`)."""
        return self._get("hold", pb.HoldJoints(), "holds")

    def release(self, *joints):
        """Release this connection's holds on ``joints`` (none: all)."""
        self._model = None
        return self._get("release",
                         pb.ReleaseJoints(joints=list(joints)),
                         "holds")
