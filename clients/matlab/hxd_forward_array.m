function values = hxd_forward_array(name, state)
% HXD_FORWARD_ARRAY  An mjData array after mj_forward (haptixd extension).
%
%  values = hxd_forward_array(name) runs mj_forward on a copy of the live
%  state in the server and returns the mjData (or mjModel) array name as
%  a rows x cols matrix, as hxd_get_array sizes it: 'qfrc_bias' is
%  nv x 1, 'xpos' nbody x 3, 'site_xmat' nsite x 9.  The simulation is
%  not touched.
%
%  values = hxd_forward_array(name, state) computes on state instead: a
%  struct of the arrays qpos, qvel, act, ctrl, mocap_pos (nmocap x 3),
%  mocap_quat (nmocap x 4), qfrc_applied, xfrc_applied (nbody x 6),
%  qacc_warmstart; each left out is the live state's (mj_get_state's
%  struct will do).  Every computation takes such a state last.
%
%    st = mj_get_state;  st.qpos(1) = 0.5;
%    xpos = hxd_forward_array('xpos', st);
%
%  An unknown name is haptix:BADTYPE.  See also hxd_get_array, hxd_full_m.

  if nargin < 2
    state = [];
  end
  values = mjhx('hxd_forward_array', name, state);
end
