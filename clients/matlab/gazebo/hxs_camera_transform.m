function transform = hxs_camera_transform()
% HXS_CAMERA_TRANSFORM  Get the view camera's transform.
%
%  transform = hxs_camera_transform returns where the viewers' camera is
%  and its orientation (a transform), looking along its x axis, z up.
%
%  The structs are described by help hxs_sim_info.
%  See also hxs_set_camera_transform.

  transform = hxgz('camera_transform');
end
