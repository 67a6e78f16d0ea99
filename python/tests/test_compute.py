"""MuJoCo's computations (the compute call) through a real daemon, on the
fixture and the MPL scene.  Python has no MuJoCo of its own here, so
each test checks what only right answers satisfy: the mass matrix
symmetric, positive definite and inverted by solve_m, the Jacobians
giving the velocities mj_objectVelocity gives, mj_inverse undoing
mj_forward, rays hitting what stands where they point, integration and
differentiation undoing each other; and that the live simulation is
left alone, that many states give what single calls give, bit for bit,
and every refusal."""

import numpy as np
import pytest

import haptix
from haptix.model import obj_type
from haptix.proto import pb

G = 9.81


@pytest.fixture
def mpl(mpl_server):
    """A connection to the MPL scene's daemon, paused and reset."""
    with mpl_server.connect(name="pytest") as s:
        s.pause()
        s.reset()
        yield s


def settled(sim):
    """The fixture with its box at rest on the floor, contacts active."""
    sim.step(200)
    return sim


def random_state(sim, seed):
    m = sim.model
    rng = np.random.default_rng(seed)
    qpos = sim.get_state().qpos
    qpos[m.joint_qpos("hinge1")] += rng.uniform(-0.5, 0.5)
    qpos[m.joint_qpos("hinge2")] += rng.uniform(-0.5, 0.5)
    return {"qpos": qpos, "qvel": rng.normal(size=m.nv),
            "ctrl": rng.uniform(-1, 1, size=m.nu)}


@pytest.mark.parametrize("which", ["sim", "mpl"])
def test_mass_matrix_is_spd_and_solve_m_inverts_it(which, request):
    s = request.getfixturevalue(which)      # the fixture, the MPL scene
    nv = s.model.nv
    M = s.full_m()
    assert M.shape == (nv, nv)
    assert np.array_equal(M, M.T)
    assert np.linalg.eigvalsh(M).min() > 0
    rng = np.random.default_rng(1)
    y = rng.normal(size=nv)
    x = s.solve_m(M @ y)
    assert x.shape == (nv,)
    assert np.allclose(x, y, rtol=1e-9, atol=1e-9)
    ys = rng.normal(size=(3, nv))
    xs = s.solve_m(ys @ M)                  # rows of M y, M symmetric
    assert xs.shape == (3, nv) and np.allclose(xs, ys, atol=1e-9)
    # mj_rne without accelerations is mj_forward's bias; with them, M qacc
    # is added, M without the joints' armature (the MPL's is 0.001).
    f = s.forward("qfrc_bias", "qacc")
    assert np.array_equal(s.rne(), f.qfrc_bias.ravel())
    rigid = M - np.diag(s.get_array("dof_armature").ravel())
    assert np.allclose(s.rne(flg_acc=True),
                       rigid @ f.qacc.ravel() + f.qfrc_bias.ravel(), atol=1e-9)


def test_jacobians_give_the_velocities(mpl):
    m = mpl.model
    site = "index_distal"
    qpos = mpl.get_state().qpos             # the wrist turned, the finger bent
    for j, a in (("wrist_PRO", 0.6), ("index_MCP", 0.7), ("index_PIP", 0.7),
                 ("index_DIP", 0.7)):
        qpos[m.joint_qpos(j)] = a
    st = {"qpos": qpos, "qvel": np.random.default_rng(2).normal(size=m.nv)}
    v = st["qvel"]
    jacp, jacr = mpl.jac_site(site, state=st)
    assert jacp.shape == jacr.shape == (3, m.nv)
    world = mpl.object_velocity("site", site, state=st)
    assert world.shape == (6,)
    assert np.allclose(jacr @ v, world[:3], atol=1e-9)     # rotation first
    assert np.allclose(jacp @ v, world[3:], atol=1e-9)
    local = mpl.object_velocity("site", site, local=True, state=st)
    R = mpl.forward("site_xmat", state=st)[m.id("site", site)].reshape(3, 3)
    assert np.allclose(R @ local[3:], world[3:], atol=1e-9)
    assert not np.allclose(local[3:], world[3:], atol=1e-3)
    # A body's centre of mass, its frame, a geom.
    for jac, objtype, name in ((mpl.jac_body_com, "body", "index_distal"),
                               (mpl.jac_body, "xbody", "index_distal"),
                               (mpl.jac_geom, "geom", "index_distal")):
        p, r = jac(name, state=st)
        w = mpl.object_velocity(objtype, name, state=st)
        assert np.allclose(p @ v, w[3:], atol=1e-9), objtype
        assert np.allclose(r @ v, w[:3], atol=1e-9), objtype
    # mj_jacSite is mj_jac at the site on its body; lists stack.
    pos = mpl.forward("site_xpos", state=st)[m.id("site", site)]
    p, r = mpl.jac("index_distal", pos, state=st)
    assert np.array_equal(p, jacp) and np.array_equal(r, jacr)
    p2, _ = mpl.jac("index_distal", [pos, pos + [0, 0, 0.01]], state=st)
    assert p2.shape == (2, 3, m.nv) and np.array_equal(p2[0], jacp)
    ps, rs = mpl.jac_site([site, "thumb_distal"], state=st)
    assert ps.shape == (2, 3, m.nv) and np.array_equal(ps[0], jacp)
    assert np.array_equal(rs[1], mpl.jac_site("thumb_distal", state=st)[1])
    ids = mpl.jac_site([m.id("site", site)], state=st)[0]
    assert np.array_equal(ids[0], jacp)
    both = mpl.object_velocity("site", [site, "thumb_distal"], state=st)
    assert both.shape == (2, 6) and np.array_equal(both[0], world)


def test_inverse_undoes_forward(sim):
    settled(sim)
    m = sim.model
    st = {"ctrl": [0.7, -0.4], "qfrc_applied": np.linspace(-1, 1, m.nv)}
    f = sim.forward("qacc", "qfrc_actuator", "qfrc_constraint", state=st)
    assert np.abs(f.qfrc_constraint).max() > 1     # the box on the floor
    assert np.abs(f.qfrc_actuator).max() > 1
    inv = sim.inverse(state=dict(st, qacc=f.qacc))
    assert inv.shape == (m.nv,)
    # mj_inverse gives the forces that cause qacc: applied and actuators.
    assert np.allclose(inv, st["qfrc_applied"] + f.qfrc_actuator.ravel(),
                       atol=1e-6)
    # Without qacc, mj_forward's own: the same.
    assert np.allclose(sim.inverse(state=st), inv, atol=1e-9)
    other = sim.inverse(state=dict(st, qacc=np.zeros(m.nv)))
    assert not np.allclose(other, inv, atol=1e-3)
    # A wrench on a body counts through its Jacobian at the centre of mass.
    xfrc = np.zeros((m.nbody, 6))
    xfrc[m.id("body", "link2")] = [0.3, 0, 0.2, 0, 0.1, 0]
    st["xfrc_applied"] = xfrc
    f = sim.forward("qacc", "qfrc_actuator", state=st)
    jacp, jacr = sim.jac_body_com("link2", state=st)
    wrench = jacp.T @ xfrc[m.id("body", "link2"), :3] + \
        jacr.T @ xfrc[m.id("body", "link2"), 3:]
    assert np.allclose(sim.inverse(state=dict(st, qacc=f.qacc)),
                       st["qfrc_applied"] + f.qfrc_actuator.ravel() + wrench,
                       atol=1e-6)


def test_forward_computes_the_given_state(sim):
    m = sim.model
    live = sim.get_state()
    q = live.qpos.copy()
    q[m.joint_qpos("hinge1")] = 0.9
    f = sim.forward("qpos", "qvel", "site_xpos", state={"qpos": q})
    assert np.array_equal(f.qpos.ravel(), q)
    assert np.array_equal(f.qvel.ravel(), live.qvel)    # the live state's
    assert f.site_xpos.shape == (m.nsite, 3)
    tip = f.site_xpos[m.id("site", "site1")]
    # site1 hangs 0.3 below hinge1, at (0, 0, 1), turned about y.
    assert np.allclose(tip, [-0.3 * np.sin(0.9), 0, 1 - 0.3 * np.cos(0.9)])
    assert sim.forward("qacc").shape == (m.nv, 1)       # as get_array


def test_contact_forces_bear_the_box(sim):
    settled(sim)
    cs = sim.contact_force()
    assert len(cs) == 4 and not cs.last_step
    for c in cs:
        assert (c.geom1, c.geom2, c.body1, c.body2) == (
            "floor", "box", "world", "box")
        assert (c.geom1_id, c.geom2_id) == (
            sim.model.id("geom", "floor"), sim.model.id("geom", "box"))
        assert c.force.shape == (6,) and c.frame.shape == (3, 3)
        assert np.allclose(c.frame[0], [0, 0, 1])           # the normal
        assert abs(c.pos[2]) < 1e-3 and abs(c.dist) < 1e-3
    assert sum(c.force[0] for c in cs) == pytest.approx(1.0 * G, rel=0.01)
    last = sim.contact_force(last_step=True)
    assert last.last_step
    live = sim.get_contact()
    assert np.array_equal(np.array([c.force[:3] for c in last]), live.force)
    assert np.array_equal(np.array([c.pos for c in last]), live.pos)


def test_accelerations_and_energy(sim):
    settled(sim)
    m = sim.model
    # An accelerometer's reading: +g at rest, nothing in free fall.
    assert np.allclose(sim.object_acceleration("body", "box")[3:],
                       [0, 0, G], atol=0.05)
    q = sim.get_state().qpos
    q[m.joint_qpos("box")][2] = 1.0
    up = {"qpos": q}
    assert np.allclose(sim.object_acceleration("body", "box", state=up),
                       0, atol=1e-9)
    # Potential: the box (1 kg) raised 0.9 m; kinetic: v'Mv/2.
    e0 = sim.energy()
    e1 = sim.energy(state=up)
    assert e1[0] - e0[0] == pytest.approx(1.0 * G * 0.9, rel=0.01)
    v = np.random.default_rng(3).normal(size=m.nv)
    M = sim.full_m()
    assert sim.energy(state={"qvel": v})[1] == pytest.approx(0.5 * v @ M @ v)


def test_rays_hit_what_is_there(sim):
    m = sim.model
    floor, box = m.id("geom", "floor"), m.id("geom", "box")
    down = [0, 0, -1]
    assert sim.ray([1.5, -1, 0.5], down) == (pytest.approx(0.5), floor)
    # The box's top is 0.2 up; distances are in units of vec's length.
    assert sim.ray([0.6, 0, 1], down) == (pytest.approx(0.8), box)
    assert sim.ray([0.6, 0, 1], [0, 0, -2]) == (pytest.approx(0.4), box)
    assert sim.ray([0.6, 0, 1], down, exclude_body="box") == (
        pytest.approx(1.0), floor)
    assert sim.ray([1.5, -1, 0.5], down, include_static=False) == (-1, -1)
    # Group 0 left out: the box goes; MuJoCo 2.2.2 sees planes always.
    assert sim.ray([0.6, 0, 1], down, geomgroup=[0, 1, 1, 1, 1, 1]) == (
        pytest.approx(1.0), floor)
    assert sim.ray([0.6, 0, 1], down, geomgroup=[1, 0, 0, 0, 0, 0]) == (
        pytest.approx(0.8), box)
    assert sim.ray([1.5, -1, 0.5], [0, 0, 1]) == (-1, -1)
    d, g = sim.ray([[1.5, -1, 0.5], [0.6, 0, 1]], down)
    assert np.allclose(d, [0.5, 0.8]) and list(g) == [floor, box]
    # Rays on a given state: the box moved away.
    q = sim.get_state().qpos
    q[m.joint_qpos("box")][0] = -0.6
    assert sim.ray([0.6, 0, 1], down, state={"qpos": q}) == (
        pytest.approx(1.0), floor)


def test_integrate_then_differentiate(sim):
    m = sim.model
    rng = np.random.default_rng(4)
    q = sim.get_state().qpos
    v = rng.normal(size=m.nv)
    q2 = sim.integrate_pos(q, v, 0.1)
    assert q2.shape == (m.nq,)
    quat = q2[m.joint_qpos("box")][3:]
    assert np.linalg.norm(quat) == pytest.approx(1)
    assert not np.allclose(quat, q[m.joint_qpos("box")][3:])
    assert np.allclose(sim.differentiate_pos(q, q2, 0.1), v, atol=1e-9)
    vs = rng.normal(size=(3, m.nv))
    qs = sim.integrate_pos(q, vs, 0.05)             # one qpos, 3 qvel
    assert qs.shape == (3, m.nq)
    back = sim.differentiate_pos(q, qs, 0.05)
    assert back.shape == (3, m.nv) and np.allclose(back, vs, atol=1e-9)


def test_the_live_simulation_is_left_alone(sim):
    settled(sim)
    m = sim.model
    before = sim.get_state()
    warm = sim.get_array("qacc_warmstart")
    acc = sim.get_dynamics().qacc
    h = sim.state_hash()
    other = random_state(sim, 5)
    sim.forward("qacc", "xpos", "efc_force")
    sim.forward("qpos", state=other)
    sim.inverse(state=dict(other, qacc=np.ones(m.nv)))
    sim.object_acceleration("body", ["box", "link2"])
    sim.energy(states=[other, {}])
    sim.contact_force(last_step=True)
    sim.ray([0.6, 0, 1], [0, 0, -1])
    sim.jac_site("tip", state={"qacc_warmstart": np.ones(m.nv)})
    after = sim.get_state()
    for k in ("qpos", "qvel", "act"):
        assert np.array_equal(before[k], after[k]), k
    assert before.time == after.time
    assert np.array_equal(sim.get_array("qacc_warmstart"), warm)
    assert np.array_equal(sim.get_dynamics().qacc, acc)
    assert sim.state_hash() == h
    # And the next step is the one it would have been.
    sim.step(1)
    stepped = sim.get_state()
    sim.set_state(before)
    sim.set_array("qacc_warmstart", warm)
    sim.step(1)
    assert np.array_equal(sim.get_state().qpos, stepped.qpos)


def test_many_states_give_the_single_answers_bit_for_bit(sim):
    settled(sim)
    q = sim.queries
    queries = [q.forward("qacc", "xpos"), q.full_m(), q.jac_site("tip"),
               q.contact_force(), q.ray([[0.6, 0, 1], [1.5, -1, 0.5]],
                                        [0, 0, -1]),
               q.object_velocity("site", "tip"), q.inverse()]
    states = [random_state(sim, i) for i in range(3)]
    many = sim.compute(queries, states=states)
    assert many[1].shape == (3, sim.model.nv, sim.model.nv)
    assert many[2][0].shape == (3, 3, sim.model.nv)
    assert many[0].xpos.shape == (3, sim.model.nbody, 3)
    assert len(many[3]) == 3
    for i, st in enumerate(states):
        one = sim.compute(queries, state=st)
        assert np.array_equal(many[0].qacc[i], one[0].qacc)
        assert np.array_equal(many[0].xpos[i], one[0].xpos)
        assert np.array_equal(many[1][i], one[1])
        assert np.array_equal(many[2][0][i], one[2][0])
        assert np.array_equal(many[2][1][i], one[2][1])
        assert [c.force.tolist() for c in many[3][i]] == \
            [c.force.tolist() for c in one[3]]
        assert np.array_equal(many[4][0][i], one[4][0])
        assert np.array_equal(many[4][1][i], one[4][1])
        assert np.array_equal(many[5][i], one[5])
        assert np.array_equal(many[6][i], one[6])
        # And each method alone, on its own request.
        assert np.array_equal(sim.full_m(state=st), one[1])
        assert np.array_equal(sim.forward("qacc", state=st), one[0].qacc)
    assert not np.array_equal(many[1][0], many[1][1])


def test_states_past_one_answer_are_sent_again(start_server):
    # A small frame: one full_m of the MPL scene (46 x 46) is 17 KB, so
    # an answer holds a few states and the rest are asked for again.
    s = start_server("-m", "mpl_scene.xml", "--paused",
                     "--max-frame", "131072")
    with s.connect() as sim:
        m = sim.model
        calls = []
        plain = sim._call

        def counting(call, msg=None, payload=None, timeout=-1):
            r = plain(call, msg, payload, timeout)
            if call == "compute":
                calls.append((len(msg.states), r.states_done))
            return r
        sim._call = counting
        q0 = sim.get_state().qpos
        hinges = m.jnt_qposadr[m.jnt_type == 3]     # quaternions stay unit
        states = []
        for i in range(40):
            q = q0.copy()
            q[hinges] += 0.001 * i
            states.append({"qpos": q})
        q = sim.queries
        qpos, M = sim.compute([q.forward("qpos"), q.full_m()], states=states)
        assert qpos.shape == (40, m.nq, 1) and M.shape == (40, m.nv, m.nv)
        assert np.array_equal(qpos[:, :, 0], [st["qpos"] for st in states])
        assert len(calls) > 2 and sum(done for _, done in calls) == 40
        assert all(0 < done < 40 for _, done in calls)
        assert calls[1][0] == 40 - calls[0][1]      # the rest, again
        # More states than a request takes (1000): cut into requests.
        calls.clear()
        e = sim.energy(states=[{}] * 1001)
        assert e.shape == (1001, 2) and len(calls) >= 2
        assert calls[0][0] == 1000
        # States that would not fit in one request's frame (1.2 KB each):
        # cut to fit the server's limit, which the package asks for.
        calls.clear()
        pushed = np.zeros((m.nbody, 6))
        pushed[m.id("body", "cube"), 2] = 1.0
        e = sim.energy(states=[{"xfrc_applied": pushed}] * 200)
        assert e.shape == (200, 2) and np.array_equal(e[0], e[199])
        assert len(calls) >= 2 and sum(n for n, _ in calls) < 400


def test_queries_in_one_request(sim):
    q = sim.queries
    assert "jac_site" in dir(q)
    (jacp, jacr), M, f = sim.compute(
        [q.jac_site("tip"), q.full_m(), q.forward("qfrc_bias")])
    assert np.array_equal(jacp, sim.jac_site("tip")[0])
    assert np.array_equal(M, sim.full_m())
    assert np.array_equal(f, sim.forward("qfrc_bias"))
    assert np.array_equal(sim.compute(q.full_m()), M)   # one, not a list
    with pytest.raises(AttributeError, match="no computation named"):
        q.get_state


def test_refusals(sim):
    m = sim.model
    with pytest.raises(haptix.BadIndex, match='no site named "nope"'):
        sim.jac_site("nope")
    with pytest.raises(haptix.BadIndex, match='"nowhere"'):
        sim.object_velocity("geom", ["box", "nowhere"])
    with pytest.raises(haptix.BadIndex, match="no body named 'nobody'"):
        sim.jac_body(["link1", 2, "nobody"])        # mixed: by the model
    with pytest.raises(haptix.BadIndex, match="out of range"):
        sim.jac_geom(99)
    with pytest.raises(haptix.BadType, match="no_such_array"):
        sim.forward("no_such_array")
    with pytest.raises(haptix.BadIndex, match='"ghost"'):
        sim.ray([0, 0, 1], [0, 0, -1], exclude_body="ghost")
    with pytest.raises(haptix.BadType, match="joint"):
        sim.object_velocity("joint", "hinge1")
    with pytest.raises(haptix.BadType):
        sim.object_velocity(obj_type("joint"), "hinge1")
    # States: sizes, names, values.
    with pytest.raises(haptix.BadSize, match="qpos"):
        sim.forward("qpos", state={"qpos": np.zeros(3)})
    with pytest.raises(haptix.BadSize, match="qvel"):
        sim.forward("qpos", state=pb.ComputeState(qvel=[0.0] * 3))
    with pytest.raises(haptix.BadValue, match="qacc_warmstart"):
        sim.forward("qpos", state={"qpos": np.zeros(m.nq), "time": 1})
    nan = sim.get_state().qpos
    nan[0] = np.nan
    with pytest.raises(haptix.BadValue, match="finite"):
        sim.full_m(state={"qpos": nan})
    with pytest.raises(haptix.BadValue, match="finite"):
        sim.full_m(states=[{}, {"qvel": np.full(m.nv, np.inf)}])
    with pytest.raises(haptix.BadValue, match="mjMAXVAL"):
        sim.full_m(state={"qvel": np.full(m.nv, 1e308)})
    # Arguments.
    with pytest.raises(haptix.BadValue, match="finite"):
        sim.solve_m(np.full(m.nv, np.nan))
    with pytest.raises(haptix.BadValue, match="finite"):
        sim.ray([0, 0, np.nan], [0, 0, -1])
    with pytest.raises(haptix.BadValue, match="no direction"):
        sim.ray([0, 0, 1], [0, 0, 0])
    with pytest.raises(haptix.BadValue, match="dt"):
        sim.integrate_pos(np.zeros(m.nq), np.zeros(m.nv), np.nan)
    with pytest.raises(haptix.BadSize, match="y"):
        sim.solve_m(np.zeros(m.nv + 1))
    with pytest.raises(haptix.BadSize, match="4097"):
        sim.ray(np.zeros((4097, 3)), [0, 0, -1])
    assert len(sim.ray(np.zeros((4096, 3)), [0, 0, -1])[0]) == 4096
    with pytest.raises(haptix.BadSize, match="65 queries"):
        sim.forward(*["qpos"] * 65)
    with pytest.raises(haptix.BadSize, match="rows"):
        sim.ray(np.zeros((2, 3)), np.ones((3, 3)))
    # The request.
    with pytest.raises(haptix.BadValue, match="not both"):
        sim.full_m(state={}, states=[{}])
    with pytest.raises(haptix.BadValue, match="empty"):
        sim.full_m(states=[])
    with pytest.raises(haptix.BadValue, match="last_step"):
        sim.contact_force(last_step=True, state={})
    with pytest.raises(haptix.BadValue, match="no queries"):
        sim.compute([])
