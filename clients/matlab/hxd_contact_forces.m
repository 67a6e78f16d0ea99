function contacts = hxd_contact_forces(state)
% HXD_CONTACT_FORCES  MuJoCo's mj_contactForce of every contact (haptixd extension).
%
%  contacts = hxd_contact_forces returns the contacts mj_forward finds in
%  the live state, an ncon x 1 struct array (0 x 1 for none) with fields
%
%    geom1, geom2, body1, body2              names ('' if unnamed)
%    geom1_id, geom2_id, body1_id, body2_id  0-based ids
%    force   6 x 1, in the contact's frame: normal, two tangents, then
%            torsion and the two rolling torques
%    dist    the penetration (negative) or distance
%    pos     3 x 1, the contact point
%    frame   3 x 3, a row per axis, the normal first (MuJoCo's order)
%
%  hxd_contact_forces('last_step') gives the contacts and forces of the
%  last step's solve instead; hxd_contact_forces(state) computes on a
%  state struct (see hxd_forward_array).
%
%    c = hxd_contact_forces();  total = sum(arrayfun(@(k) k.force(1), c));
%
%  See also mj_get_contact.

  if nargin < 1
    state = [];
  end
  contacts = mjhx('hxd_contact_forces', state);
end
