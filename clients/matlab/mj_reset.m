function mj_reset(keyframe)
% MJ_RESET  Reset the simulation.
%
%  mj_reset resets to the model's reference pose, as the simulator's
%  Reset did; mj_reset(keyframe) resets to the keyframe with that 0-based
%  index (or, as an extension, that name).  The model settings clients
%  changed (gains, colours, geom sizes, equalities) stay, as HAPTIX's
%  Reset kept them.

  if nargin < 1
    keyframe = -1;
  end
  mjhx('mj_reset', keyframe);
end
