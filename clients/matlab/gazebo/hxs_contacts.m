function contacts = hxs_contacts(model)
% HXS_CONTACTS  Get the contacts of a model's links.
%
%  contacts = hxs_contacts(model) returns an n x 1 struct array, one
%  element per contact of a link of the named model (0 x 1 when there
%  are none): link1, link2, point, normal, distance and wrench, in
%  link1's frame.
%
%  The structs are described by help hxs_sim_info.
%  See also hxs_sim_info.

  contacts = hxgz('contacts', model);
end
