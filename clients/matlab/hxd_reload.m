function model = hxd_reload()
% HXD_RELOAD  Load the current model's file again (haptixd extension).

  model = mjhx('hxd_reload');
end
