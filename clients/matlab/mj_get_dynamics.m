function dynamics = mj_get_dynamics()
% MJ_GET_DYNAMICS  Get the forward dynamics' result.
%
%  dynamics = mj_get_dynamics returns nv, na, time, qacc (nv x 1) and
%  actdot (na x 1).

  dynamics = mjhx('mj_get_dynamics');
end
