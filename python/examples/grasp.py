#!/usr/bin/env python3
"""The grasp reflex of the MuJoCo HAPTIX manual, for the MPL hand, with
the HAPTIX calls of the manual (haptix.compat): clients/examples/grasp.c
in Python.

When the contact sensors together feel more than 1 N, the hand closes:
every finger motor moves to 2/3 of the way from the lower to the upper
end of its range over half a second (the wrist keeps its posture).  A
flick of the hand opens it: the IMUs' net angular speed above 8 rad/s,
counting only the speed all the fingertips share.  Transitions are at
least two seconds apart; simulated time going back (a reset) starts the
reflex over.

usage: grasp.py [SERVER [SECONDS]]
"""

import signal
import sys

import numpy as np

from haptix.compat import (hx_close, hx_connect, hx_double_time,
                           hx_read_sensors, hx_robot_info, hx_update,
                           mj_id2name, struct)

CONTACT_N = 1.0
FLICK_RADS = 8.0
MOVE_S = 0.5
DWELL_S = 2.0


def main():
    server = sys.argv[1] if len(sys.argv) > 1 else None
    duration = float(sys.argv[2]) if len(sys.argv) > 2 else 0
    stop = []
    signal.signal(signal.SIGTERM, lambda *a: stop.append(1))
    hx_connect(server, 0)
    info = hx_robot_info()
    sensor = hx_read_sensors()
    print("grasp: %d motors, %d contact sensors, %d IMUs, %g Hz" % (
        info.motor_count, info.contact_sensor_count, info.imu_count,
        info.update_rate), flush=True)
    lo, hi = info.motor_limit[:, 0], info.motor_limit[:, 1]
    opened = sensor.motor_pos.copy()
    wrist = np.array(["wrist" in mj_id2name("actuator", i)
                      for i in range(info.motor_count)])
    closed = np.where(wrist, opened, lo + 2.0 / 3.0 * (hi - lo))
    command = struct(ref_pos=opened.copy(), ref_pos_enabled=1)
    state, to, frm = "open", opened, opened.copy()
    last, t_move = 0.0, -1e9
    try:
        while not stop:
            now = hx_double_time(sensor.time_stamp)
            if duration > 0 and now >= duration:
                break
            if now < last:
                print("%.3f reset: open" % now, flush=True)
                state, to, t_move = "open", opened, -1e9
                command.ref_pos = opened.copy()
            last = now
            contact = sensor.contact.sum()
            flick = np.linalg.norm(sensor.imu_angular_vel, axis=1).min() * \
                info.imu_count
            if state == "open" and contact > CONTACT_N and \
                    now - t_move >= DWELL_S:
                print("%.3f close (contact %.2f N)" % (now, contact),
                      flush=True)
                state = "closed"
            elif state == "closed" and flick > FLICK_RADS and \
                    now - t_move >= DWELL_S:
                print("%.3f open (flick %.2f rad/s)" % (now, flick),
                      flush=True)
                state = "open"
            if (state == "closed") != (to is closed):
                frm = command.ref_pos.copy()
                to = closed if state == "closed" else opened
                t_move = now
            a = min(1.0, (now - t_move) / MOVE_S)
            command.ref_pos = frm + a * (to - frm)
            sensor = hx_update(command)
    except KeyboardInterrupt:
        pass
    hx_close()


if __name__ == "__main__":
    main()
