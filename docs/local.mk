# Documentation: man pages are installed, the rest is distributed.
dist_man_MANS = docs/haptixd.8 docs/hxctl.1 docs/hxview.1 docs/hxplay.1 docs/haptix.3 \
	docs/hx-mocap.1 docs/hx-spacenav.1 docs/hx-foxglove.1 docs/hxsweep.1
EXTRA_DIST += docs/architecture.md docs/benchmarks.md docs/compat.md \
	docs/protocol.md docs/images/hxview.png
EXTRA_DIST += docs/service.md
EXTRA_DIST += docs/fuzzing.md
EXTRA_DIST += docs/recording.md
EXTRA_DIST += docs/foxglove.md
EXTRA_DIST += docs/rl.md
EXTRA_DIST += docs/drivers.md
EXTRA_DIST += docs/adding-a-call.md
EXTRA_DIST += docs/security.md
EXTRA_DIST += docs/editing.md
EXTRA_DIST += docs/python.md
EXTRA_DIST += docs/compute.md
EXTRA_DIST += docs/matlab.md
EXTRA_DIST += docs/sweeps.md
