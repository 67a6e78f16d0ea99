function mocap = mj_get_mocap()
% MJ_GET_MOCAP  Get the mocap bodies' poses.
%
%  mocap = mj_get_mocap returns nmocap, time, pos (nmocap x 3) and
%  quat (nmocap x 4, w x y z).  See also mj_set_mocap.

  mocap = mjhx('mj_get_mocap');
end
