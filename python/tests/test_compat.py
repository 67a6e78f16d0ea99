"""The HAPTIX calls with their C and MATLAB names, returning the structs
the manual prints."""

import numpy as np
import pytest

import haptix
from haptix.compat import *  # noqa: F401,F403 - as a HAPTIX script reads


@pytest.fixture
def hx(mpl_server):
    hx_connect(mpl_server.unix)
    mj_reset()
    yield
    hx_close()


def test_the_simple_api_as_the_manual_prints_it(hx):
    info = hx_robot_info()
    assert (info.motor_count, info.joint_count, info.contact_sensor_count,
            info.imu_count) == (13, 22, 19, 5)
    assert info.motor_limit.shape == (13, 2) and \
        info.joint_limit.shape == (22, 2)
    assert info.update_rate == 50
    sensor = hx_read_sensors()
    assert sensor.motor_pos.shape == (13,) and sensor.joint_pos.shape == (22,)
    assert sensor.contact.shape == (19,)
    assert sensor.imu_linear_acc.shape == (5, 3)
    assert sensor.imu_orientation.shape == (5, 4)
    assert isinstance(sensor.time_stamp, float)
    command = struct(ref_pos=np.zeros(13), ref_vel_max=np.zeros(13),
                     gain_pos=np.zeros(13), gain_vel=np.zeros(13),
                     ref_pos_enabled=1, ref_vel_max_enabled=0,
                     gain_pos_enabled=0, gain_vel_enabled=0)
    command.ref_pos[8] = 1.2
    hx_update(command)
    assert mj_get_control().ctrl[8] == pytest.approx(1.2)
    assert hx_last_result() == "mjCOM_OK: success"
    assert hx_double_time(3.5) == 3.5


def test_the_native_api(hx):
    info = mj_info()
    assert (info.nq, info.nu, info.nsensordata) == (50, 13, 132)
    assert info.actuator_ctrlrange.shape == (13, 2)
    state = mj_get_state()
    assert sorted(state) == ["act", "na", "nq", "nv", "qpos", "qvel", "time"]
    assert state.qpos.shape == (50,)
    mj_step()
    assert mj_get_state().time > state.time
    body = mj_get_onebody(1)
    assert body.bodyid == 1 and body.pos.shape == (3,)
    assert mj_get_body().mat.shape == (info.nbody, 9)
    assert mj_get_mocap().pos.shape == (1, 3)
    assert mj_get_dynamics().actdot.shape == (0,)
    assert mj_get_sensor().sensordata.shape == (132,)
    sid = mj_name2id("geom", "cube")
    assert sid >= 0 and mj_id2name("geom", sid) == "cube"
    assert mj_name2id("geom", "nothing") == -1
    mj_set_rgba("geom", sid, [1, 0, 0, 1])
    assert list(mj_get_rgba("geom", sid)) == [1, 0, 0, 1]
    c = mj_get_control()
    c.ctrl[:] = 0.1
    mj_set_control(c)
    assert mj_update(c).sensordata.shape == (132,)
    mj_message("trial 1")
    mj_message()
    assert mj_connected() == 1 and mj_result() == 0


def test_errors_raise_and_are_remembered(hx):
    bad = struct(nq=7, nv=6, na=0, time=0, qpos=np.zeros(7),
                 qvel=np.zeros(6), act=[])
    with pytest.raises(haptix.BadSize, match="nq is 7 but the model has "
                       "nq = 50"):
        mj_set_state(bad)
    assert mj_result() == -1
    assert hx_last_result() == "mjCOM_BADSIZE: nq is 7 but the model has " \
        "nq = 50"
    with pytest.raises(haptix.Connected):
        hx_connect()


def test_not_connected():
    hx_close()
    with pytest.raises(haptix.NoConnection):
        mj_get_state()
    assert mj_connected() == 0 and mj_result() == -9
