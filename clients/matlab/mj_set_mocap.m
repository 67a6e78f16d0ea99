function mj_set_mocap(mocap)
% MJ_SET_MOCAP  Set the mocap bodies' poses.
%
%  mj_set_mocap(mocap) sets pos (nmocap x 3) and quat (nmocap x 4,
%  w x y z).  A jump flings what a mocap body holds; hxctl set-mocap
%  --over moves it smoothly.

  mjhx('mj_set_mocap', mocap);
end
