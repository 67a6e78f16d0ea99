function contact = mj_get_contact()
% MJ_GET_CONTACT  Get the active contacts.
%
%  contact = mj_get_contact returns ncon, time, pos (ncon x 3), frame
%  (ncon x 9, the normal first), dist (ncon x 1), force (ncon x 3, in
%  the contact frame), geom1 and geom2 (ncon x 1, 0-based; the force acts
%  from geom1 on geom2).

  contact = mjhx('mj_get_contact');
end
