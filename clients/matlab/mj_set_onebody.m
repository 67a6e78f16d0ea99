function mj_set_onebody(onebody)
% MJ_SET_ONEBODY  Set one body's pose, velocity and forces.
%
%  mj_set_onebody(onebody) writes, for the body onebody.bodyid, those of
%  pos, quat, linvel and angvel that onebody has (floating bodies only)
%  and force and torque (any body).  The struct mj_get_onebody returns,
%  changed, goes back as it is.

  mjhx('mj_set_onebody', onebody);
end
