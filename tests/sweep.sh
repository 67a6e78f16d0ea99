#!/bin/sh
# hxsweep's tests: pytest on tests/sweep with Debian's python3, through
# the hxsweep of the build tree and the real haptixd daemons it starts.
# Missing pytest, NumPy or protobuf fail the test, they do not skip it.
# Run by make check.
for v in HAPTIXD HXSWEEP HX_MODELS HX_TEST_MODELS HX_BUILD HX_SRC; do
	eval "x=\${$v:-}"
	if [ -z "$x" ]; then
		echo "sweep.sh: $v is not set: run by make check" >&2
		exit 99
	fi
done
py=${HX_PYTHON:-/usr/bin/python3}
for m in pytest numpy google.protobuf; do
	if ! "$py" -c "import $m" 2>/dev/null; then
		echo "sweep.sh: $py cannot import $m: install python3-pytest," \
		    "python3-numpy and python3-protobuf (./quickstart check does)" >&2
		exit 1
	fi
done
PYTHONPATH="$HX_SRC/python:$HX_BUILD/python${PYTHONPATH:+:$PYTHONPATH}"
PYTHONDONTWRITEBYTECODE=1
export PYTHONPATH PYTHONDONTWRITEBYTECODE
cd "$HX_BUILD" || exit 99
exec timeout 300 "$py" -m pytest -q -p no:cacheprovider "$HX_SRC/tests/sweep"
