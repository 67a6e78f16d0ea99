function data = readlog(filename)
% READLOG  Read a recording: haptixd's (.hxr) or MuJoCo HAPTIX's log (.mjl).
%
%  data = readlog(filename) returns the struct of HAPTIX's readlog.m:
%
%    nq, nv, nu, nmocap, nsensordata   the model's sizes
%    name                              the model's name
%    time                              1 x N, simulated seconds
%    qpos, qvel, ctrl                  nq x N, nv x N, nu x N
%    mocap_pos, mocap_quat             3*nmocap x N, 4*nmocap x N
%    sensordata                        nsensordata x N
%
%  one column per record.  A reset during the recording sends the time
%  back: plot(data.time) shows the trials.  Then what a .hxr can hold
%  beyond HAPTIX's: na, nbody, act (na x N), qfrc_applied (nv x N) and
%  xfrc_applied (6*nbody x N), each 0 x N when it was not recorded, as
%  is any field; step and segment (1 x N: the step of each record, and
%  its trial, from 1); format ('hxr' or 'mjl'), timestep (0 for .mjl),
%  every (steps between records) and truncated (1 if the file was cut
%  short: what it held up to there is read).
%
%  A bare name not in the current directory is looked for where haptixd
%  writes recordings, as hxplay does: $STATE_DIRECTORY,
%  $XDG_STATE_HOME/haptixd, ~/.local/state/haptixd, /var/lib/haptixd.
%  A .mjl keeps floats; they are widened to double exactly.
%  See also playlog, hxplay(1) and docs/matlab.md.

  if nargin < 1 || ~ischar(filename) || isempty(filename)
    error('haptix:BADVALUE', 'readlog: name a recording file (.hxr or .mjl)');
  end
  data = mjhx('hxd_read_log', find_recording(filename));
end

% The file itself if it is a path or is here, else the first of the
% state directories that has it; else the name, for the error to say.
function path = find_recording(name)
  path = name;
  if any(name == '/') || exist(name, 'file') == 2
    return;
  end
  dirs = {};
  if ~isempty(getenv('STATE_DIRECTORY'))
    dirs{end + 1} = getenv('STATE_DIRECTORY');
  end
  if ~isempty(getenv('XDG_STATE_HOME'))
    dirs{end + 1} = fullfile(getenv('XDG_STATE_HOME'), 'haptixd');
  end
  if ~isempty(getenv('HOME'))
    dirs{end + 1} = fullfile(getenv('HOME'), '.local', 'state', 'haptixd');
  end
  dirs{end + 1} = '/var/lib/haptixd';
  for i = 1:numel(dirs)
    if exist(fullfile(dirs{i}, name), 'file') == 2
      path = fullfile(dirs{i}, name);
      return;
    end
  end
end
