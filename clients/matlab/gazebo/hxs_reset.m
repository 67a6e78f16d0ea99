function hxs_reset(reset_limb_pose)
% HXS_RESET  Reset the world.
%
%  hxs_reset(reset_limb_pose) puts the world back as the model defines
%  it, keeping the settings clients changed; with reset_limb_pose 0 the
%  arm and its mocap body keep their pose.  Applied forces end and the
%  camera goes back.

  hxgz('reset', reset_limb_pose);
end
