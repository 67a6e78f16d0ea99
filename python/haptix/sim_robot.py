"""Sim's calls of HAPTIX's simple API (hx_ calls) with the
extension's names."""

from .proto import pb
from .sim_args import f64


class SimRobot:
    """The simple API (hx_ calls) with the extension's names.

    Mixed into :class:`haptix.Sim`, whose ``_call`` it uses.
    """

    def robot_info(self):
        """The model as HAPTIX's simple API sees it (hxRobotInfo)."""
        return self._get("robot_info", None, "robot_info")

    def robot_update(self, ref_pos=None, ref_vel=None, gain_pos=None,
                     gain_vel=None, ref_vel_max=None, no_wait=False):
        """hx_update: apply the arrays given (one value per motor), then
        (running) wait for the next API tick unless no_wait; the robot's
        sensors (hxSensor)."""
        msg = pb.RobotCommand(no_wait=no_wait)
        for k, v in (("ref_pos", ref_pos), ("ref_vel", ref_vel),
                     ("gain_pos", gain_pos), ("gain_vel", gain_vel),
                     ("ref_vel_max", ref_vel_max)):
            if v is not None:
                getattr(msg, k).extend(f64(v, k))
                setattr(msg, k + "_enabled", True)
        return self._get("robot_update", msg, "robot_sensor",
                         timeout=None)
