function octave_rtt(server, block)
% OCTAVE_RTT  make bench's Octave side: mj_get_state round trips timed.
%
%  octave_rtt(server, block) connects to server, warms up, and times
%  block calls of the wrapper mj_get_state, then block calls of
%  mjhx('mj_get_state') itself, each call alone (tic/toc), and prints
%  the two lines of seconds.  bench/hxbench.c runs it once per block,
%  alternating with blocks of the C library's calls.

  hx_connect(server);
  for i = 1:500   % warm: the MEX file and the wrappers loaded, caches
    mj_get_state();
  end
  wrapped = zeros(block, 1);
  direct = zeros(block, 1);
  for i = 1:block
    t0 = tic();
    state = mj_get_state();
    wrapped(i) = toc(t0);
  end
  for i = 1:block
    t0 = tic();
    state = mjhx('mj_get_state');
    direct(i) = toc(t0);
  end
  hx_close();
  printf('%s\n', sprintf('%.9g ', wrapped));
  printf('%s\n', sprintf('%.9g ', direct));
end
