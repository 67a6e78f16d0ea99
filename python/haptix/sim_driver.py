"""Sim's driver calls: mocap poses and moves, perturbations, as
hx-mocap and hx-spacenav send them."""

from .proto import pb
from .sim_args import f64


class SimDriver:
    """Drivers: mocap poses and moves, perturbations.

    Mixed into :class:`haptix.Sim`, whose ``_call`` it uses.
    """

    def _mocap_ref(self, msg, body, field="body", index="mocap"):
        if isinstance(body, str):
            setattr(msg, field, body)
        else:
            setattr(msg, index, int(body))
        return msg

    def mocap_pose(self, body, pos, quat, sample_time_us=0, source_time=0.0):
        """A motion-capture driver's pose of a mocap body (by name or
        mocap index); returns its tracking."""
        msg = self._mocap_ref(pb.MocapPose(
            pos=f64(pos, "pos", 3), quat=f64(quat, "quat", 4),
            sample_time_us=sample_time_us, source_time=source_time), body)
        return self._get("mocap_pose", msg, "tracking")

    def mocap_connect(self, body, connect=True):
        """Connect (or disconnect) the tracking of a mocap body."""
        msg = self._mocap_ref(pb.MocapConnect(connect=connect), body)
        return self._get("mocap_connect", msg, "tracking")

    def mocap_move(self, body, pos, quat=None, seconds=0.0):
        """Move a mocap body smoothly to pos (and quat) over seconds of
        simulated time."""
        msg = self._mocap_ref(pb.MocapMove(pos=f64(pos, "pos", 3),
                                           seconds=seconds), body)
        if quat is not None:
            msg.quat.extend(f64(quat, "quat", 4))
        self._call("mocap_move", msg)

    def perturb(self, body, force=(0, 0, 0), torque=(0, 0, 0)):
        """A driver's force and torque on a body (by name or id); both
        zero releases it; repeat it within the server's timeout."""
        msg = pb.Perturb(force=f64(force, "force", 3),
                         torque=f64(torque, "torque", 3))
        if isinstance(body, str):
            msg.name = body
        else:
            msg.body = int(body)
        return self._get("perturb", msg, "perturbation")
