"""Every call of the extension API through a real daemon, on the
fixture: arrays in the model's shapes, objects by name, and what each
write changed."""

import numpy as np
import pytest

import haptix
from haptix import edit


def test_state_in_the_models_shapes(sim):
    st = sim.get_state()
    assert (st.nq, st.nv, st.na) == (9, 8, 0)
    assert st.qpos.shape == (9,) and st.qvel.shape == (8,) and \
        st.act.shape == (0,)
    q = st.qpos.copy()
    q[0] = 0.3
    sim.set_state(qpos=q)                   # qvel and act kept
    assert sim.get_state().qpos[0] == 0.3
    sim.set_state(st)
    assert sim.get_state().qpos[0] == st.qpos[0]


def test_controls_by_name(sim):
    sim.set_ctrl(servo2=-0.5)
    sim.set_ctrl({"servo1": 0.25})
    assert list(sim.get_control().ctrl) == [0.25, -0.5]
    sim.set_control([0, 0])
    with pytest.raises(haptix.BadIndex, match="no actuator named 'nope'"):
        sim.set_ctrl(nope=1)
    with pytest.raises(haptix.BadSize):
        sim.set_control([1.0])


def test_sensors_and_joints_by_name(sim):
    sim.set_joint("hinge1", qpos=[0.4], qvel=[0.1])
    j = sim.joint("hinge1")
    assert j.type == "hinge" and j.body == "link1" and j.limited
    assert list(j.qpos) == [0.4] and list(j.qvel) == [0.1]
    assert list(j.range) == [-1.5, 1.5]
    box = sim.joint("box")
    assert box.type == "free" and box.qpos.shape == (7,) and \
        box.qvel.shape == (6,)
    m = sim.model
    assert sim.get_state().qpos[m.joint_qpos("hinge1")][0] == 0.4
    s = sim.sensor("q1")
    assert s.data.shape == (1,) and s.data[0] == pytest.approx(0.4)
    tip = sim.sensor("tip_pos")
    assert tip.data.shape == (3,)
    d = sim.get_sensor().sensordata
    assert d.shape == (m.nsensordata,)
    adr = m.sensor_adr[m.id("sensor", "tip_pos")]
    assert np.array_equal(d[adr:adr + 3], tip.data)
    assert np.array_equal(sim.sensors()["tip_pos"], tip.data)
    with pytest.raises(haptix.BadIndex, match="no sensor named"):
        sim.sensor("nope")


def test_reading_every_part(sim):
    m = sim.model
    assert sim.get_body().pos.shape == (m.nbody, 3)
    assert sim.get_body().mat.shape == (m.nbody, 3, 3)
    assert sim.get_geom().mat.shape == (m.ngeom, 3, 3)
    assert sim.get_site().pos.shape == (m.nsite, 3)
    assert sim.get_applied().xfrc_applied.shape == (m.nbody, 6)
    assert sim.get_mocap().quat.shape == (1, 4)
    assert sim.get_dynamics().qacc.shape == (m.nv,)
    assert sim.get_tendon().length.shape == (1,)
    assert sim.get_actuator().force.shape == (2,)
    f = sim.get_force()
    assert f.bias.shape == (m.nv,) and f.nonconstraint.shape == (m.nv,)
    sim.step(200)                          # the box settles on the floor
    c = sim.get_contact()
    assert c.ncon > 0 and c.frame.shape == (c.ncon, 3, 3)
    b = sim.body("box")
    assert b.is_floating and b.pos.shape == (3,)
    assert b.pos[2] == pytest.approx(0.1, abs=0.01)


def test_writing_every_part(sim):
    sim.set_applied(qfrc_applied=np.arange(8.0))
    assert list(sim.get_applied().qfrc_applied) == list(range(8))
    sim.set_applied(qfrc_applied=np.zeros(8))
    sim.set_onebody("link2", force=[0, 0, 5])
    assert list(sim.get_applied().xfrc_applied[2, :3]) == [0, 0, 5]
    sim.set_mocap(pos=[[0.5, 1, 1]])
    assert list(sim.get_mocap().pos[0]) == [0.5, 1, 1]
    sim.set_geomsize("box", [0.2, 0.1, 0.1])
    assert sim.get_array("geom_size")[sim.model.id("geom", "box"), 0] == 0.2
    sim.set_rgba("geom", "box", [1, 0, 0, 1])
    assert list(sim.get_rgba("geom", "box")) == [1, 0, 0, 1]
    sim.equality("couple", 1)
    assert sim.get_array("eq_active")[0, 0] == 1
    sim.message("hello")
    assert sim.status().message == "hello"
    sim.message()
    assert sim.name2id("joint", "hinge2") == 1
    assert sim.name2id("joint", "none") == -1
    assert sim.id2name("body", 1) == "link1"


def test_arrays_by_name(sim):
    rgba = sim.get_array("geom_rgba")
    assert rgba.shape == (sim.model.ngeom, 4)
    sim.set_array("geom_rgba", [0, 1, 0, 1], offset=4 * 3)
    assert np.allclose(sim.get_array("geom_rgba")[3], [0, 1, 0, 1])
    with pytest.raises(haptix.Denied, match="computed"):
        sim.set_array("xpos", [0])
    names = {a.name: a for a in sim.list_arrays()}
    assert names["qpos"].writable and not names["xpos"].writable


def test_options_are_arrays(sim):
    """The model's mjOption, field by field: opt.NAME, one row each."""
    names = {a.name: a for a in sim.list_arrays()}
    assert names["opt.gravity"].writable and names["opt.gravity"].cols == 3
    assert sim.get_array("opt.timestep").shape == (1, 1)
    assert np.array_equal(sim.get_array("opt.gravity")[0], [0, 0, -9.81])
    sim.set_array("opt.timestep", [0.004])
    assert sim.status().model.timestep == 0.004
    t0 = sim.get_state().time
    sim.step(10)
    assert sim.get_state().time == pytest.approx(t0 + 10 * 0.004)
    with pytest.raises(haptix.BadValue, match="opt.integrator"):
        sim.set_array("opt.integrator", [7])
    sim.reset()
    assert sim.get_array("opt.timestep")[0, 0] == 0.002


def test_steps_keyframes_and_running(sim):
    t0 = sim.get_state().time
    assert sim.step(10) == 10
    assert sim.get_state().time == pytest.approx(t0 + 10 * 0.002)
    s = sim.update([0.5, 0])
    assert s.sensordata.shape == (11,)
    assert list(sim.get_control().ctrl) == [0.5, 0]
    sim.reset("raised")
    assert sim.get_state().qpos[0] == 0.5
    sim.set_joint("hinge2", qpos=[1.0])
    sim.capture_key("mine")
    sim.reset()
    assert sim.get_state().qpos[1] == 0
    sim.reset("mine")
    assert sim.get_state().qpos[1] == 1.0
    sim.reset(1)
    assert sim.get_state().time == 1
    sim.set_speed("max")
    sim.run()
    assert not sim.status().paused and sim.status().speed_max
    sim.pause()
    sim.set_speed(1)
    st = sim.status()
    assert st.paused and st.speed == 1 and st.model.name == "fixture"


def test_the_lease(fixture_server, sim):
    with fixture_server.connect(name="other") as other:
        with sim.lease() as info:
            assert info.holder == sim.session_id and info.token
            with pytest.raises(haptix.Denied, match="pytest"):
                other.set_ctrl(servo1=0.1)
            assert other.lease_info().holder == sim.session_id
            with haptix.connect(fixture_server.unix,
                                lease_token=info.token) as sharer:
                sharer.set_ctrl(servo1=0.2)
        other.set_ctrl(servo1=0.3)
    assert sim.get_control().ctrl[0] == 0.3


def test_loading_the_model_and_its_texts(start_server):
    s = start_server("-m", "fixture.xml", "--paused")
    with s.connect() as sim:
        assert sim.model.name == "fixture"
        summary = sim.load("mpl_scene.xml")
        assert summary.nu == 13 and sim.model.nu == 13
        sim.reload()
        xml = sim.get_model_xml()
        assert "<mujoco" in xml.xml and xml.dir
        mjb = sim.get_model()
        assert mjb.mjb[:4] and len(mjb.mjb) > 10000 and \
            mjb.mujoco_version >= 220
        small = "<mujoco model='tiny'><worldbody><body><freejoint/>" \
                "<geom size='0.1'/></body></worldbody></mujoco>"
        assert sim.load(data=small).name == "tiny"
        assert sim.model.nq == 7
        assert any(d for d in sim.model_dirs().dirs)


def _tetrahedron_stl():
    """A binary STL of a tetrahedron, faces outward: 4 vertices."""
    import struct
    s = 0.1
    tri = [((0, 0, 0), (0, s, 0), (s, 0, 0)), ((0, 0, 0), (s, 0, 0), (0, 0, s)),
           ((0, 0, 0), (0, 0, s), (0, s, 0)), ((s, 0, 0), (0, s, 0), (0, 0, s))]
    out = b"tetrahedron".ljust(80, b" ") + struct.pack("<I", len(tri))
    for t in tri:
        out += struct.pack("<12fH", 0, 0, 0, *(c for v in t for c in v), 0)
    return out


def test_loading_a_model_with_its_files(start_server):
    s = start_server("-m", "fixture.xml", "--paused")
    xml = "<mujoco model='carried'><asset><mesh name='m' " \
          "file='meshes/part.stl'/></asset><worldbody><include " \
          "file='body.xml'/></worldbody></mujoco>"
    body = "<mujoco><body><freejoint/><geom type='mesh' mesh='m'/>" \
           "</body></mujoco>"
    with s.connect() as sim:
        with pytest.raises(haptix.LoadFailed):
            sim.load(data=xml)
        r = sim.load(data=xml, assets={"body.xml": body,
                                       "meshes/part.stl": _tetrahedron_stl()})
        assert r.name == "carried" and sim.model.nbody == 2
        assert list(sim.get_array("mesh_vertnum").ravel()) == [4]
        with pytest.raises(haptix.BadValue, match=r"\.\."):
            sim.load(data=xml, assets={"../body.xml": body})
        with pytest.raises(haptix.BadValue, match="NUL|not a name"):
            sim.load(data=xml, assets={"a\0b": body})
        with pytest.raises(haptix.BadValue, match="with data"):
            sim.load("fixture.xml", assets={"body.xml": body})
        assert sim.model.name == "carried"


def test_editing_the_model(start_server):
    s = start_server("-m", "fixture.xml", "--paused")
    with s.connect() as sim:
        q1 = sim.joint("hinge1").qpos
        r = sim.edit(edit.add("body", "ball", pos=(0, 0, 2)),
                     edit.add("geom", parent="body:ball", type="sphere",
                              size=0.1, rgba=(1, 0, 0, 1)),
                     edit.add("freejoint", parent="body:ball"))
        assert r.model.nbody == 6 and sim.model.nbody == 6
        assert np.array_equal(sim.joint("hinge1").qpos, q1)
        z = sim.body("ball").pos[2]
        sim.step(100)
        assert sim.body("ball").pos[2] < z          # it falls
        sim.edit(edit.set("geom", "link1", rgba="0 0 1 1"))
        assert list(sim.get_rgba("geom", "link1")) == [0, 0, 1, 1]
        assert 'name="ball"' in sim.get_model_xml().xml
        assert sim.edit(edit.remove("body", "ball")).removed == ["body ball"]
        assert sim.model.nbody == 5
        with pytest.raises(haptix.BadValue):
            sim.edit(edit.add("geom", parent="body:nowhere", size=0.1))


def test_holding_joints_and_attaching(start_server):
    s = start_server("-m", "fixture.xml", "--paused")
    with s.connect() as sim:
        neq = sim.model.neq
        h = sim.hold(hinge1=0.3)
        assert [x.joint for x in h.holds] == ["hinge1"]
        assert sim.model.neq == neq + 1
        sim.step(500)
        assert abs(sim.joint("hinge1").qpos[0] - 0.3) < 0.02
        sim.hold(hinge1=-0.2)                   # a new target: no edit
        assert sim.model.neq == neq + 1
        sim.step(500)
        h = sim.holds().holds[0]
        assert abs(h.qpos + 0.2) < 0.02 and h.target == -0.2
        assert sim.release().holds == []
        assert sim.model.neq == neq
        with pytest.raises(haptix.BadValue):
            sim.hold(nosuch=1.0)
        nbody = sim.model.nbody
        sim.edit(edit.attach("link1", to="worldbody", prefix="copy_"))
        assert sim.model.nbody > nbody
        assert sim.joint("copy_hinge1").qpos.shape == (1,)
        with pytest.raises(haptix.BadValue):
            sim.edit(edit.attach("link1", to="worldbody", prefix="copy_"))


def test_history_read_and_resumed(start_server):
    s = start_server("-m", "fixture.xml", "--paused")
    with s.connect() as sim:
        sim.set_ctrl(servo1=0.5)
        sim.step(30)
        h = sim.history(10)
        assert h.step == 20 and h.resumable and len(h.qpos) == 9
        assert sim.status().history.states == 30
        assert sim.status().steps == 30, "reading moves nothing"
        sim.step(5)
        ahead = sim.get_state()
        sim.history_resume(15)
        back = sim.get_state()
        assert back.time == h.time and np.array_equal(back.qpos, h.qpos)
        sim.step(15)
        assert np.array_equal(sim.get_state().qpos, ahead.qpos)
        with pytest.raises(haptix.BadIndex):
            sim.history(1000)


def test_recording_read_into_arrays(start_server):
    s = start_server("-m", "fixture.xml", "--paused")
    with s.connect() as sim:
        rec = sim.record_start(fields=["qpos", "ctrl", "mocap"], journal=True)
        assert rec.active and rec.path.endswith("fixture_1.hxr")
        sim.set_ctrl(servo1=0.5)
        out = sim.run(steps=30, record=["qpos"])
        sim.reset()
        sim.step(5)
        done = sim.record_stop()
        assert done.records == 35
        h = sim.state_hash()
    r = haptix.read_recording(rec.path)
    assert r.name == "fixture" and r.header["fields"] == [
        "qpos", "ctrl", "mocap_pos", "mocap_quat"]
    assert r["qpos"].shape == (35, 9) and r["mocap_pos"].shape == (35, 1, 3)
    assert np.array_equal(r["qpos"][:30], out["qpos"])
    assert np.array_equal(r["ctrl"][:30, 0], np.full(30, 0.5))
    assert list(np.unique(r.segment)) == [1, 2]
    assert r.hashes.shape == (35, 2) and r.hashes[-1, 1] == h.hash
    assert r.journal and not r.truncated
    # A file cut short reads up to its last whole frame.
    cut = s.dir + "/cut.hxr"
    with open(rec.path, "rb") as f, open(cut, "wb") as g:
        g.write(f.read()[:-10])
    c = haptix.read_recording(cut)
    assert c.truncated and c.dropped_bytes > 0


def test_a_recording_across_edits_reads_in_parts(start_server):
    s = start_server("-m", "fixture.xml", "--paused")
    with s.connect() as sim:
        nq = sim.model.nq
        rec = sim.record_start(fields=["qpos", "sensordata"])
        sim.step(10)
        sim.edit(edit.set("geom", "link1", rgba="0 0 1 1"))    # same sizes
        sim.step(10)
        sim.edit(edit.add("body", "ball", pos=(0, 0, 2)),
                 edit.add("geom", parent="body:ball", size=0.1),
                 edit.add("freejoint", parent="body:ball"))
        sim.step(10)
        last = sim.get_state().qpos
        sim.record_stop()
    r = haptix.read_recording(rec.path)
    assert [len(p["time"]) for p in r.parts] == [10, 10, 10]
    assert len(r.changes) == 2
    assert r.changes[0].operations == ['set geom "link1": rgba="0 0 1 1"']
    assert r.changes[1].sizes["nq"] == nq + 7
    assert r.parts[2]["qpos"].shape == (10, nq + 7)
    assert np.array_equal(r.parts[2]["qpos"][-1], last)
    assert r["qpos"].shape == (10, nq)       # widths differ: the first part
    assert list(r.parts[1].segment) == [1] * 10
    with s.connect() as sim:
        rec = sim.record_start(fields=["qpos"])
        sim.step(4)
        sim.edit(edit.set("geom", "link1", rgba="1 0 0 1"))
        sim.step(6)
        sim.record_stop()
    r = haptix.read_recording(rec.path)
    assert r["qpos"].shape == (10, nq + 7)   # one width: all of it
    assert list(r.segment) == [1] * 4 + [2] * 6


def test_drivers_calls(sim):
    sim.mocap_move("marker", [0, 1, 1.5], seconds=0.1)
    sim.step(60)
    assert sim.get_mocap().pos[0, 2] == pytest.approx(1.5)
    t = sim.mocap_connect("marker")
    assert t.connected and t.body == "marker"
    t = sim.mocap_pose("marker", [0, 0, 0], [1, 0, 0, 0])
    assert t.poses >= 1
    sim.mocap_connect("marker", False)
    p = sim.perturb("box", force=[0, 0, 30])
    assert p.name == "box" and list(p.force) == [0, 0, 30]
    sim.perturb("box")


def test_the_world_apis_calls(sim):
    box = sim.model.id("body", "box")
    w = sim.world_force("box", gravity=False, force=[0, 0, 1], duration=0.5)
    assert list(w.gravity_off) == [box] and w.wrenches == 1
    assert sim.world_force(clear=True).wrenches == 0
    w = sim.world_force("box", gravity=True)
    assert list(w.gravity_off) == [] and w.wrenches == 0
    with pytest.raises(haptix.BadIndex):
        sim.world_force(0, gravity=False)
    with pytest.raises(haptix.BadSize):
        sim.world_force("box", force=[1, 2])

    c = sim.camera()
    assert c.is_default and len(c.pos) == 3 and len(c.quat) == 4
    c = sim.camera([1, 2, 3], [0, 0, 0, 2])
    assert list(c.pos) == [1, 2, 3] and list(c.quat) == [0, 0, 0, 1]
    assert not c.is_default
    with pytest.raises(haptix.BadValue):
        sim.camera([1, 2, 3], [0, 0, 0, 0])
    with pytest.raises(haptix.BadValue):
        sim.camera([1, 2, 3])

    assert sim.collide_mode("box") == "collide"
    assert sim.collide_mode("box", "detect") == "detect"
    assert sim.collide_mode("box", "none") == "none"
    with pytest.raises(haptix.BadValue):
        sim.collide_mode("box", "sometimes")
    with pytest.raises(haptix.BadIndex):
        sim.collide_mode(0)
    sim.collide_mode("box", "collide")
