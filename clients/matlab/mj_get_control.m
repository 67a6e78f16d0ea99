function control = mj_get_control()
% MJ_GET_CONTROL  Get the controls.
%
%  control = mj_get_control returns nu, time and ctrl (nu x 1).
%  See also mj_set_control.

  control = mjhx('mj_get_control');
end
