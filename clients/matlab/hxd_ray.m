function [dist, geomid] = hxd_ray(pnt, vec, opts, state)
% HXD_RAY  MuJoCo's mj_ray: the first geom along rays (haptixd extension).
%
%  [dist, geomid] = hxd_ray(pnt, vec) casts a ray from pnt along vec (3
%  numbers each) in the live state and returns the distance to the first
%  geom hit, in units of vec's length, and that geom's 0-based id; -1
%  and -1 when nothing is hit.  pnt and vec may be k x 3 for k rays (one
%  row of either serving every ray): dist and geomid are then k x 1.
%
%  opts (a struct, or [] for none) chooses what the rays see:
%    geomgroup       6 flags: the geom groups seen (planes and height
%                    fields are seen whatever their group, as MuJoCo
%                    2.2.2's mj_ray does)
%    exclude_static  1: not the world body's own geoms
%    exclude_body    a body's name, whose geoms are not seen
%  hxd_ray(pnt, vec, opts, state) computes on a state struct (see
%  hxd_forward_array).
%
%    [d, g] = hxd_ray([0 0 1.5], [0 0 -1]);  mj_id2name('geom', g)

  if nargin < 3
    opts = [];
  end
  if nargin < 4
    state = [];
  end
  [dist, geomid] = mjhx('hxd_ray', pnt, vec, opts, state);
end
