#!/usr/bin/env python3
"""An operational-space controller: the MPL's index fingertip (site
index_distal) traced around a small circle in world coordinates by
joint torques computed from MuJoCo's Jacobian and mass matrix.

Lock-step, paused: each step is one compute request on the current
state (jac_site, full_m, and mj_forward's qfrc_bias, qfrc_passive,
site_xpos, qpos and qvel), the torque

    tau = J^T Lambda (a_d + Kp e + Kd (v_d - v)) + qfrc_bias - qfrc_passive

(Lambda = (J M^-1 J^T)^-1, e and v the fingertip's position error and
velocity, a_d and v_d the path's) set as qfrc_applied, then one step.
The torques act on the wrist's three joints and the index finger's
ABD, MCP, PIP and DIP; the model couples PIP and DIP to MCP, so J and M
are reduced to the five coordinates that move (wrist, ABD, MCP).
Cancelling qfrc_passive matters: the wrist's damping is 1.5 N m s.

The MPL's actuators are position servos (force kp (ctrl - q)), which
would pull the finger back to their targets: before every step the
wrist's and the index finger's servos are set to their joints' current
positions, so that they exert no force and the torques do the steering
(update(): the controls, then one step); the other servos hold the
thumb and the other fingers where they were.  The circle lies in the
vertical plane of the finger (x, z): sideways, index_ABD reaches its
range within a centimetre.  At the end the tracking error (RMS and
max, metres) is printed; the exit status is 1 if the max exceeds
--bound.

usage: osc_fingertip.py [--server ADDR] [--radius M] [--period S]
                        [--turns N] [--kp K] [--bound M]
"""

import argparse
import sys

import numpy as np

import haptix

SITE = "index_distal"
# The joints the torques move, and the servos on them.
JOINTS = ["wrist_PRO", "wrist_UDEV", "wrist_FLEX", "index_ABD",
          "index_MCP", "index_PIP", "index_DIP"]
SERVOS = ["A_wrist_PRO", "A_wrist_UDEV", "A_wrist_FLEX", "A_index_ABD",
          "A_index_MCP"]


def path(t, x0, radius, period):
    """The circle through x0 in the x-z plane, started and ended at
    rest (a cycloidal phase): position, velocity and acceleration."""
    w = 2 * np.pi / period
    s = w * t - np.sin(w * t)                   # phase: 0 to 2 pi a turn
    sd = w * (1 - np.cos(w * t))
    sdd = w * w * np.sin(w * t)
    c, n = np.cos(s), np.sin(s)
    x = x0 + radius * np.array([c - 1, 0, n])
    v = radius * sd * np.array([-n, 0, c])
    a = radius * (sdd * np.array([-n, 0, c]) - sd * sd * np.array([c, 0, n]))
    return x, v, a


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--server", help="haptixd address (default: the local one)")
    p.add_argument("--radius", type=float, default=0.01, help="metres")
    p.add_argument("--period", type=float, default=1.0, help="seconds a turn")
    p.add_argument("--turns", type=int, default=1)
    p.add_argument("--kp", type=float, default=400.0, help="1/s^2")
    p.add_argument("--bound", type=float, default=0.002,
                   help="largest tracking error allowed, metres")
    a = p.parse_args()
    kd = 2 * np.sqrt(a.kp)                      # critically damped
    with haptix.connect(a.server, name="osc_fingertip") as sim:
        sim.pause()
        sim.reset()
        m = sim.model
        site = m.id("site", SITE)
        dofs = [m.joint_qvel(j).start for j in JOINTS]
        qadr = [m.joint_qpos(j).start for j in JOINTS[:len(SERVOS)]]
        servos = [m.id("actuator", s) for s in SERVOS]
        # The five coordinates that move the seven joints: PIP and DIP
        # follow MCP.
        S = np.zeros((len(JOINTS), len(SERVOS)))
        S[:len(SERVOS)] = np.eye(len(SERVOS))
        S[5:, 4] = 1
        # A start away from the joints' limits: the finger half flexed.
        sim.set_ctrl(A_index_MCP=0.5, A_index_ABD=0.17)
        sim.step(300)
        ctrl = sim.get_control().ctrl
        no_xfrc = np.zeros((m.nbody, 6))
        q = sim.queries
        queries = [q.jac_site(SITE), q.full_m(),
                   q.forward("qfrc_bias", "qfrc_passive", "site_xpos",
                             "qpos", "qvel")]
        x0 = None
        steps = int(round(a.turns * a.period / m.timestep))
        errors = np.zeros(steps + 1)
        for i in range(steps + 1):
            (jacp, _), M, f = sim.compute(queries)
            x = f.site_xpos[site]
            if x0 is None:
                x0 = x.copy()
            xd, vd, ad = path(i * m.timestep, x0, a.radius, a.period)
            e = xd - x
            errors[i] = np.linalg.norm(e)
            if i == steps:
                break
            v = jacp @ f.qvel.ravel()
            J = jacp[:, dofs]
            Jr = J @ S
            Mr = S.T @ M[np.ix_(dofs, dofs)] @ S
            Lam = np.linalg.inv(Jr @ np.linalg.solve(Mr, Jr.T))
            F = Lam @ (ad + a.kp * e + kd * (vd - v))
            tau = f.qfrc_bias.ravel() - f.qfrc_passive.ravel()
            tau[dofs] += J.T @ F
            sim.set_applied(qfrc_applied=tau, xfrc_applied=no_xfrc)
            ctrl[servos] = f.qpos.ravel()[qadr]
            sim.update(ctrl)
            if i % (steps // 4 or 1) == 0:
                print("t %.3f  error %.5f m" % (i * m.timestep, errors[i]))
        sim.set_applied(qfrc_applied=np.zeros(m.nv), xfrc_applied=no_xfrc)
        rms = float(np.sqrt(np.mean(errors ** 2)))
        worst = float(errors.max())
        print("tracking error: rms %.6f m, max %.6f m (bound %g m) over "
              "%d steps, a circle of radius %g m" % (rms, worst, a.bound,
                                                    steps, a.radius))
        if worst > a.bound:
            print("osc_fingertip: the max error %.6f m exceeds the bound "
                  "%g m" % (worst, a.bound), file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
