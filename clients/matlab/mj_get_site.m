function site = mj_get_site()
% MJ_GET_SITE  Get the frames of all sites.
%
%  site = mj_get_site returns nsite, time, pos (nsite x 3) and mat
%  (nsite x 9, row-major).

  site = mjhx('mj_get_site');
end
