function collide_mode = hxs_model_collide_mode(model)
% HXS_MODEL_COLLIDE_MODE  Get how a model collides.
%
%  collide_mode = hxs_model_collide_mode(model) returns 0 (no
%  collisions), 1 (contacts detected, no force) or 2 (collide).
%
%  See also hxs_set_model_collide_mode.

  collide_mode = hxgz('model_collide_mode', model);
end
