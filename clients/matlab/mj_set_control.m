function mj_set_control(control)
% MJ_SET_CONTROL  Set the controls.
%
%  mj_set_control(control) sets ctrl (nu numbers); nu, when given, must
%  agree.  See also mj_update, which also returns the sensors.

  mjhx('mj_set_control', control);
end
