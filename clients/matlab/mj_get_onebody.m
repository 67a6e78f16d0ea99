function onebody = mj_get_onebody(bodyid)
% MJ_GET_ONEBODY  Get one body.
%
%  onebody = mj_get_onebody(bodyid) returns bodyid, isfloating, time,
%  linacc, angacc, contactforce, pos (3 x 1), quat (4 x 1, w x y z),
%  linvel, angvel, force and torque of the body with that 0-based id.
%  Velocities and accelerations are those of the body's frame in world
%  axes.  See also mj_set_onebody, mj_name2id.

  onebody = mjhx('mj_get_onebody', bodyid);
end
