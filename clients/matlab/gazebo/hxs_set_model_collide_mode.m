function hxs_set_model_collide_mode(model, collide_mode)
% HXS_SET_MODEL_COLLIDE_MODE  Set how a model collides.
%
%  hxs_set_model_collide_mode(model, collide_mode) makes the named model
%  pass through everything unseen (0), pass through with its contacts
%  reported but no force (1), or collide (2).
%
%  See also hxs_model_collide_mode, hxs_contacts.

  hxgz('set_model_collide_mode', model, collide_mode);
end
