function info = mj_info()
% MJ_INFO  Describe the loaded model.
%
%  info = mj_info returns the sizes (nq, nv, na, njnt, nbody, ngeom, nsite,
%  ntendon, nu, neq, nkey, nmocap, nsensor, nsensordata, nmat), timestep
%  and apirate, and per object: sensor_type, sensor_datatype,
%  sensor_objtype, sensor_objid, sensor_dim, sensor_adr, sensor_noise
%  (nsensor x 1); jnt_type, jnt_bodyid, jnt_qposadr, jnt_dofadr (njnt x 1)
%  and jnt_range (njnt x 2); geom_type, geom_bodyid (ngeom x 1); eq_type,
%  eq_obj1id, eq_obj2id (neq x 1); actuator_trntype (nu x 1),
%  actuator_trnid and actuator_ctrlrange (nu x 2).  Ranges are (0, 0)
%  where not limited; ids and addresses are 0-based.

  info = mjhx('mj_info');
end
