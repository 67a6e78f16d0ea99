"""Names on the MPL scene, as the issue and the manual use them."""

import numpy as np

import haptix


def test_mpl_names(mpl_server):
    with mpl_server.connect() as sim:
        sim.reset()
        m = sim.model
        assert (m.nu, m.nsensordata) == (13, 132)
        s = sim.sensor("A_index_MCP")
        assert s.names == ["A_index_MCP_pos", "A_index_MCP_vel",
                           "A_index_MCP_frc"]
        assert s.data.shape == (3,)
        assert sim.sensor("A_index_MCP_pos").data.shape == (1,)
        w = sim.joint("wrist_PRO")
        assert w.type == "hinge" and w.qpos.shape == (1,)
        sim.set_ctrl(A_index_MCP=1.2)
        ctrl = sim.get_control().ctrl
        assert ctrl[m.id("actuator", "A_index_MCP")] == 1.2
        assert np.count_nonzero(ctrl) == 1
        out = sim.run(steps=500, record=["sensordata"], every=50)
        assert out["sensordata"].shape == (10, 132)
        assert sim.sensor("A_index_MCP_pos").data[0] > 0.5
        assert isinstance(m, haptix.Model) and "A_index_MCP" in \
            m.names["actuator"]
